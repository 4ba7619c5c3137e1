"""The search player on a hand-built Cold Comfort position with one clearly best move (issue 24)."""

import numpy as np
import pytest

from sim.games.cold_comfort import GAME, city, state
from sim.games.cold_comfort import engine as E
from sim.kernel import load_kernel
from sim.rng import seed_streams
from sim.runner import output_buffers
from tests.harness import Harness

H = Harness(GAME)
PLAIN_A, PLAIN_B = 10, 11  # deck indices of two tiles without printed streets (as in test_cold_comfort_rules)


def pos(wx, wy):
    return (wy + state.OY) * state.G + wx + state.OX


def cell(s, wx, wy):
    return int(s["grid"][wy + state.OY, wx + state.OX])


def tie_to_break(p):
    """Two players, the ninth and last scoring round under way: a rolled 3 is equally near seat 0's and seat 1's
    empty size-3 hotels, and seat 0 breaks the tie (the next player after seat 1).  The two tiles (x 3..6, y 0..2)
    are one neighbourhood; seat 0's block there is a hotel with a guest 1 at (3, 2) next to its empty hotel at
    (4, 2), seat 1's a hotel with a guest 2 at (6, 1) next to its empty hotel at (5, 1).  The 3 in seat 0's hotel
    makes its block 4 against 2: it wins the neighbourhood and the game; in seat 1's it loses both."""
    st = np.zeros(1, E.STATE_DTYPE)
    s = st[0]
    seed_streams(s["rng"], 99, 1)
    E.setup(s, p, 2)
    city.clear_city(s)
    city.put_tile(s, PLAIN_A, 0, 3 + state.OX, state.OY)
    city.put_tile(s, PLAIN_B, 0, 5 + state.OX, state.OY)
    s["gold"][:2] = 0
    for seat, wx, wy, size, guest in ((0, 3, 2, 1, 1), (0, 4, 2, 3, 0), (1, 6, 1, 2, 2), (1, 5, 1, 3, 0)):
        c = cell(s, wx, wy)
        s["owner"][c], s["hsize"][c], s["hbuilt"][c], s["die"][c] = seat, size, -1, guest
        s["supply"][seat, size] -= 1
    s["pool"] = s["total_dice"] - 3  # all but the two guests and the 3 being landed
    s["rounds"] = 8
    s["turn"] = 41
    s["cur"], s["decider"], s["phase"] = 1, 0, state.PH_LAND
    s["org_x"], s["org_y"] = 3 + state.OX, state.OY  # the grown tile's highest lot: distances 3 to both hotels
    s["land_v"], s["land_stage"] = 3, 0
    s["land_left"][:] = 0
    s["land_left"][3] = 1
    return st, s


def _search(st, p, name):
    s = st[0]
    legal = np.array(H.legal(s, p), np.int64)
    buf = output_buffers(GAME, 1)
    w = np.array(GAME.weights_matrix([name])[0])
    k = load_kernel(GAME).search_decision(
        st,
        p,
        E.current_player(s),
        legal,
        len(legal),
        w,
        buf["game_int"][0],
        buf["seat_int"][0],
        buf["seat_f"][0],
        buf["items"][0],
    )
    return int(legal[k])


@pytest.mark.parametrize("rollout", ["random", "host"])
def test_search_lands_the_die_where_it_wins_the_last_neighbourhood(rollout):
    p = H.params()
    st, s = tie_to_break(p)
    mine = H.encode("LAND", pos=pos(4, 2), pips=3)
    assert sorted(H.legal(s, p)) == sorted([mine, H.encode("LAND", pos=pos(5, 1), pips=3)])
    assert _search(st, p, f"search16@{rollout}") == mine
    H.act(s, p, mine)  # and it does win: the round scores and the game ends
    assert E.is_over(s) and s["vp"][0] > 0 and s["vp"][1] == 0
