"""The search player on a hand-built Saloon Tycoon position (issue 24)."""

import numpy as np
import pytest

from sim.games.saloon_tycoon import GAME
from sim.games.saloon_tycoon import engine as E
from sim.games.saloon_tycoon import params as P
from sim.games.saloon_tycoon import state
from sim.kernel import load_kernel
from sim.rng import seed_streams
from sim.runner import output_buffers
from tests.harness import Harness

H = Harness(GAME)
DEEP_POCKETS = next(i for i, c in enumerate(P.DATA["open_claims"]) if c["req"] == {"gold": 15})


def _last_turn_behind_by_three():
    """Seat 0 plays the last turn of the game (seat 3 emptied the cube pile), 3 Reputation behind seat 1, with
    exactly the 15 gold an open claim worth 4 asks for (Deep Pockets).  Staking it now wins; any gold spent first
    (a build, a cube) loses the claim, and ending the turn loses the game.  Seat 0 has no cards (Hired Hands would
    add actions and keep the gold).  Another claim was scored before, so Sydney Smythe does not come with it."""
    p = H.params()
    st = np.zeros(1, E.STATE_DTYPE)
    s = st[0]
    seed_streams(s["rng"], 5, 1)
    E.setup(s, p, 4)
    while s["phase"] == state.PH_KEEP:
        E.apply_action(s, p, H.legal(s, p)[0])
    s["open_ids"][0] = DEEP_POCKETS
    s["claim_by"][P.MAX_OPEN - 1] = 2
    s["vp"][:, state.VP_TILES] = [10, 13, 5, 5]
    s["gold"][:4] = [15, 50, 0, 0]
    s["end_trig"], s["trig_seat"], s["final_left"] = 1, 3, 1
    s["hand"][0] = 0
    s["hand_n"][0] = 0
    return st, s, p


def _search(st, p, name):
    s = st[0]
    legal = np.zeros(E.MAX_ACTIONS, np.int64)
    n = E.legal_actions(s, p, legal)
    buf = output_buffers(GAME, 1)
    w = np.array(GAME.weights_matrix([name])[0])
    k = load_kernel(GAME).search_decision(
        st,
        p,
        E.current_player(s),
        legal,
        n,
        w,
        buf["game_int"][0],
        buf["seat_int"][0],
        buf["seat_f"][0],
        buf["items"][0],
    )
    return int(legal[k])


@pytest.mark.parametrize("rollout", ["random", "tall"])
def test_search_stakes_the_winning_claim_before_spending(rollout):
    st, s, p = _last_turn_behind_by_three()
    stake = H.encode("STAKE", claim=DEEP_POCKETS)
    assert stake in H.legal(s, p) and len(H.legal(s, p)) > 5  # also builds, cubes, earn, draw, end turn
    assert _search(st, p, f"search64x100@{rollout}") == stake  # x100: every legal action is a candidate
    # and the position is what it says: staking wins, ending the turn at once loses
    won = st.copy()
    H.act(won[0], p, stake)
    H.act(won[0], p, "END_TURN")
    lost = st.copy()
    H.act(lost[0], p, "END_TURN")
    for t, first in ((won, True), (lost, False)):
        buf = output_buffers(GAME, 1)
        E.write_outcome(t[0], p, buf["game_int"][0], buf["seat_int"][0], buf["seat_f"][0], buf["items"][0])
        assert (buf["seat_int"][0][0, GAME.seat_columns.index("rank")] == 1) == first
