"""The search player and determinize on BANG! The Dice Game (issue 24)."""

import numpy as np
import pytest

from sim.games.bang_dice import GAME
from sim.games.bang_dice import engine as E
from sim.games.bang_dice.hidden import determinize
from sim.kernel import load_kernel
from sim.rng import rand_below, seed_streams
from sim.runner import output_buffers
from tests.games.bang_dice.util import H, build, faces

PER_SEAT = ("role", "role0", "special")


def _mid_game_states(players, count, seed, p):
    """States of random-play games stopped at a random decision."""
    out = []
    legal = np.zeros(E.MAX_ACTIONS, np.int64)
    for g in range(count):
        st = np.zeros(1, E.STATE_DTYPE)
        s = st[0]
        seed_streams(s["rng"], seed, g)
        E.setup(s, p, players)
        stop = 1 + g % 40
        for _ in range(stop):
            if E.is_over(s):
                break
            n = E.legal_actions(s, p, legal)
            E.apply_action(s, p, legal[rand_below(s["rng"], 1, n)])
        if not E.is_over(s):
            out.append(st)
    return out


@pytest.mark.parametrize("players,mods", [(5, {}), (8, {"module__special_roles": "mixed"}), (3, {})])
def test_determinize_keeps_public_facts_and_conserves_roles(players, mods):
    p = H.params(**mods)
    varied = 0
    for st in _mid_game_states(players, 30, 9, p):
        s = st[0]
        n = int(s["n"])
        for seat in range(n):
            d = st.copy()
            d[0]["rng"][0] = 12345 + seat
            determinize(d[0], p, seat)
            for name in E.STATE_DTYPE.names:  # every field but the hidden ones is untouched
                if name not in PER_SEAT + ("rng",):
                    assert np.array_equal(d[0][name], s[name]), name
            hidden = [
                i
                for i in range(n)
                if i != seat and i != s["sheriff"] and s["role_known"][i] == 0 and s["special_state"][i] == 0
            ]
            for i in range(E.MAX_PLAYERS):  # public seats keep their roles
                if i not in hidden:
                    assert all(d[0][f][i] == s[f][i] for f in PER_SEAT)

            # the hidden seats' (role, dealt role, special) triples are a permutation of theirs
            def triples(x, hidden=hidden):
                return sorted((int(x["role"][i]), int(x["role0"][i]), int(x["special"][i])) for i in hidden)

            assert triples(d[0]) == triples(s)
            varied += any(d[0]["role"][i] != s["role"][i] for i in hidden)
    assert varied > 0 or players == 3  # it does re-deal (3 players: every role is public)


def _search(s, st, p, name):
    legal = np.zeros(E.MAX_ACTIONS, np.int64)
    n = E.legal_actions(s, p, legal)
    buf = output_buffers(GAME, 1)
    w = np.array(GAME.weights_matrix([name])[0])
    seat = E.current_player(s)
    k = load_kernel(GAME).search_decision(
        st, p, seat, legal, n, w, buf["game_int"][0], buf["seat_int"][0], buf["seat_f"][0], buf["items"][0]
    )
    return int(legal[k])


@pytest.mark.parametrize("rollout", ["random", "belief"])
def test_search_shoots_the_dying_sheriff(rollout):
    """An Outlaw with a Bull's Eye 1 can shoot the Sheriff (1 life: the Outlaws win at once) or the Deputy (8 life),
    leaving both Outlaws on 1 life: the search must take the win, whatever its rollout policy (even random, which
    picks either half the time)."""
    p = H.params()
    st, s = build(
        p,
        "SODO",
        ["PAUL_REGRET", "JESSE_JONES", "PAUL_REGRET", "JESSE_JONES"],
        life=[1, 1, 8, 1],
        active=1,
        forced=faces("B1", "D", "D", "G", "G"),
    )
    H.act(s, p, "REROLL", dice=0)
    assert s["dkind"] == E.D_BE
    assert _search(s, st, p, f"search64@{rollout}") == H.encode("BULLSEYE", seat=0)


def _outlaw_share(st, p, seat, draws=4000):
    """How often determinize (seen from `seat`) makes each seat an Outlaw."""
    count = np.zeros(E.MAX_PLAYERS)
    for k in range(draws):
        d = st.copy()
        d[0]["rng"][0] = 1 + k
        determinize(d[0], p, seat)
        count += d[0]["role"] == E.OUTLAW
    return count / draws


def test_determinize_deals_roles_by_the_public_evidence():
    """Seen from the Sheriff of a 5-player game (hidden: one Deputy, two Outlaws, one Renegade), a seat that has
    dealt him 6 damage is dealt an Outlaw far more often than the prior 1/2, one that healed him 6 life far less,
    and seats without evidence keep the prior: the re-deal is weighted as the `belief` strategy weighs roles."""
    p = H.params()
    st, s = build(p, "SDORO", ["PAUL_REGRET"] * 5)
    before = _outlaw_share(st, p, 0)
    assert np.all(np.abs(before[1:5] - 0.5) < 0.04)  # no evidence yet: every hidden seat at the prior
    s["dmg_to_sheriff"][2] = 6
    s["heal_to_sheriff"][3] = 6
    after = _outlaw_share(st, p, 0)
    assert after[2] > 0.8 and after[3] < 0.2
    assert after[0] == 0  # the Sheriff stays the Sheriff
