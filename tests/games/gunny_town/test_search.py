"""The search player on a hand-built Gunny Town position with one clearly best move (issue 24)."""

import numpy as np
import pytest

from sim.games.gunny_town import GAME
from sim.games.gunny_town import engine as E
from sim.kernel import load_kernel
from sim.runner import output_buffers
from sim.games.gunny_town import params as P
from tests.games.gunny_town.test_rules import MIS, H, at, begin, code, put_face, table


def _search(s, p, name):
    st = np.zeros(1, E.STATE_DTYPE)
    st[0] = s
    legal = np.zeros(E.MAX_ACTIONS, np.int64)
    n = E.legal_actions(s, p, legal)
    buf = output_buffers(GAME, 1)
    w = np.array(GAME.weights_matrix([name])[0])
    seat = E.current_player(s)
    k = load_kernel(GAME).search_decision(
        st, p, seat, legal, n, w, buf["game_int"][0], buf["seat_int"][0], buf["seat_f"][0], buf["items"][0]
    )
    return int(legal[k])


@pytest.mark.parametrize("rollout", ["random", "mission_chaser"])
def test_search_takes_the_badge_that_wins_the_last_turn(rollout):
    """The last turn of the game (seat 3, the end triggered by seat 0's 15 VP): seat 3 has 15 VP too but fewer
    missions, so it loses the tie-break, unless it takes the free Sheriff's badge where it stands, which claims the
    face-up 'become the Sheriff' mission (+1 VP) and wins outright.  It cannot come back to the office after a move
    (on foot with move.foot = 1 the office is one square; no gold to pick up there): every other action loses.  The
    search must take the badge whatever its rollout policy (random picks it among the legal actions only now and
    then)."""
    s, pv = table(4, params={"move.foot": 1, "board.SHERIFF_OFFICE.gn": 0})
    put_face(s, 0, MIS["BECOME:SHERIFF"])
    s["vp"][0] = 15
    s["n_missions"][0] = 3
    s["end_trig"] = E.END_VP
    s["vp"][3] = 15
    s["pos"][3] = at("SHERIFF_OFFICE")
    s["lp"][3] = 3
    begin(s, pv, 3)
    assert H.kinds(s, pv) == {"TAKE_JOB", "MOVE"} and len(H.legal(s, pv)) <= 12  # every action is a candidate
    assert _search(s, pv, f"search64@{rollout}") == code("TAKE_JOB", P.J_SHERIFF)
