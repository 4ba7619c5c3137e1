"""The search player on a hand-built Raccoon Tycoon position with one clearly best move (issue 24)."""

import numpy as np
import pytest

from sim.games.raccoon_tycoon import GAME
from sim.games.raccoon_tycoon import engine as E
from sim.kernel import load_kernel
from sim.runner import output_buffers
from tests.harness import Harness

H = Harness(GAME)
CAP = 12  # candidates the search evaluates (every legal action here)
NO_TOKENS = {f"setup.free_tokens.order{k}": 0 for k in range(5)}


def _search(s, p, name):
    """The action the search player `name` chooses in s."""
    st = np.zeros(1, E.STATE_DTYPE)
    st[0] = s
    legal = np.zeros(E.MAX_ACTIONS, np.int64)
    n = E.legal_actions(st[0], p, legal)
    buf = output_buffers(GAME, 1)
    w = np.array(GAME.weights_matrix([name])[0])
    k = load_kernel(GAME).search_decision(
        st,
        p,
        E.current_player(st[0]),
        legal,
        n,
        w,
        buf["game_int"][0],
        buf["seat_int"][0],
        buf["seat_f"][0],
        buf["items"][0],
    )
    return int(legal[k])


@pytest.mark.parametrize("rollout", ["random", "balanced"])
def test_search_buys_the_last_town_that_ends_the_game_with_it_ahead(rollout):
    """Two players, nobody has scored; the face-up town is the last one and the game ends as soon as it is bought
    (rule.game_end = immediate).  Both seats hold its price in its named commodity: buying it now (with that
    commodity or with any) wins at once, while selling instead lets the opponent buy it and win.  Seat 0 has no
    card and no money, so every legal action is a candidate of the search; it must buy the town, whatever its
    rollout policy (random picks a sale most of the time)."""
    s, p = H.fresh(2, seed=4, **NO_TOKENS, **{"setup.start_player": "seat0", "rule.game_end": "immediate"})
    t = int(s["town_offer"])
    c = E.town_com(p, t)
    s["town_n"] = 0
    for seat in (0, 1):
        s["hold"][seat, c] = E.town_cost_named(s, p, seat, t)
        s["supply"][c] -= s["hold"][seat, c]
    for other in ((c + 1) % E.NC, (c + 2) % E.NC):  # more to sell instead
        s["hold"][0, other] = 2
        s["supply"][other] -= 2
    s["hand_n"][0] = 0
    s["money"][0] = 0
    kinds = [H.codec.kind_name(a) for a in H.legal(s, p)]
    assert E.current_player(s) == 0 and kinds.count("SELL") >= 2 and "TOWN_NAMED" in kinds and len(kinds) <= CAP
    choice = _search(s, p, f"search64x{CAP}@{rollout}")
    assert H.codec.decode(choice) in [("TOWN_NAMED", {"town": t}), ("TOWN_ANY", {"town": t})]
    H.act(s, p, choice)
    if not E.is_over(s):  # bought with any commodities: the payment comes first
        H.act(s, p, H.legal(s, p)[-1])
    assert E.is_over(s) and E.vp_total(s, p, 0) > E.vp_total(s, p, 1)
