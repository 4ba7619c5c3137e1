"""Cold Comfort rules on hand-built maps: setup, placement legality, die landing, control, fire, collect/host,
build costs, mining, end scoring.  The engine's jitted functions are driven directly on a 1-element state array."""

import numpy as np
import pytest

from sim.games.cold_comfort import engine as E
from sim.games.cold_comfort import city, outcome, rules, scoring, state
from sim.games.cold_comfort import params as P
from sim.rng import seed_streams
from tests.harness import Harness

# deck indices (0-based) of tiles used below (ids in the data file are index + 1)
PLAIN_A = 10  # id 11, no printed street: rows 13/25/64
PLAIN_B = 11  # id 12, no printed street: rows 54/32/16
WEST_ST = 0  # id 1, printed street on its W side: rows 54/36/21
PB2 = 23  # id 24, no street, 2-square public building on its south row: rows 15/32/PP


H = Harness("cold_comfort")
kind = H.codec.kind_name


def fresh(n=4, seed=7, **over):
    return H.fresh(n, seed=seed, **over)


def clear(s):
    """Empty city: only Main Street; all dice back in the pool; it is seat 0's turn (turn 5, nothing done yet)."""
    city.clear_city(s)
    s["pool"] = s["total_dice"]
    s["cur"] = 0
    s["decider"] = 0
    s["phase"] = state.PH_MAIN
    s["turn"] = 5
    s["acted"] = 0
    s["built_act"] = 0
    s["fired"] = 0


def put(s, tid, rot, wx, wy):
    return city.put_tile(s, tid, rot, wx + state.OX, wy + state.OY)


def cell(s, wx, wy):
    return int(s["grid"][wy + state.OY, wx + state.OX])


def pos(wx, wy):
    return (wy + state.OY) * state.G + wx + state.OX


def die(s, wx, wy, v):
    c = cell(s, wx, wy)
    s["die"][c] = v
    s["pool"] -= 1


def hotel(s, wx, wy, seat, size, guest=0, built=-1):
    c = cell(s, wx, wy)
    s["owner"][c] = seat
    s["hsize"][c] = size
    s["hbuilt"][c] = built
    s["supply"][seat, size] -= 1
    if guest:
        s["die"][c] = guest
        s["pool"] -= 1
    return c


legal = H.legal


def check(s, p, tid, rot, wx, wy):
    reach = np.zeros((state.G, state.G), np.int8)
    city.reach_mask(s, p, reach)
    return city.place_check(s, p, tid, rot, wx + state.OX, wy + state.OY, reach)


def two_tiles(n=4, **over):
    """Tiles PLAIN_A at (3,0) and PLAIN_B at (5,0), edge to edge (one neighbourhood).
    Lot values:  y=2: 1 3 | 5 4    y=1: 2 5 | 3 2    y=0: 6 4 | 1 6   (x = 3 4 | 5 6)."""
    s, p = fresh(n, **over)
    clear(s)
    put(s, PLAIN_A, 0, 3, 0)
    put(s, PLAIN_B, 0, 5, 0)
    return s, p


# ---------------------------------------------------------------- setup
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_each_player_count(n):
    for seed in range(30):
        s, p = fresh(n, seed=seed)
        assert s["total_dice"] == 3 * n + 6
        assert rules.trigger(s, p) == n + 3
        on_map = int((s["die"][: s["ncell"]] > 0).sum())
        assert s["pool"] + on_map == 3 * n + 6
        assert list(s["gold"][:n]) == [9 + i for i in range(n)]
        assert (s["supply"][:n, 1:7] == 2).all() and s["supply"][:n, 1:7].sum() == 12 * n
        nt = int(s["ntile"])
        assert 2 <= nt <= 4 and s["setup_tiles"] == nt
        # the first two tiles flank Main Street; the 3rd/4th cross it at the north/south end
        assert cell(s, -2, 0) // 6 == 0 and cell(s, -1, 2) // 6 == 0
        assert cell(s, 1, 0) // 6 == 1 and cell(s, 2, 2) // 6 == 1
        if nt >= 3:
            assert cell(s, -1, 4) // 6 == 2 and cell(s, 1, 5) // 6 == 2
        if nt == 4:
            assert cell(s, -1, -3) // 6 == 3 and cell(s, 1, -2) // 6 == 3
        # a tile with a long printed street faces Main Street (tile 1 east, tile 2 west, 3 south, 4 north)
        faces = [2, 0, 3, 1]
        for t in range(nt):
            tid = int(s["t_id"][t])
            if P.TILE_STREETS[tid] & 8:
                assert s["t_rot"][t] == faces[t]
        # dice sit only on lots of matching value, at most one per lot
        for c in range(s["ncell"]):
            if s["die"][c]:
                assert s["die"][c] == s["cval"][c]
        # every setup tile is its own neighbourhood
        hood = np.zeros(state.TMAX, np.int64)
        assert scoring.tile_hoods(s, hood) == nt
        assert s["phase"] == state.PH_MAIN and s["decider"] == 0


def test_setup_extra_tiles_follow_the_pool():
    """Tile 3 exists iff the pool held >= 6 after two tiles; tile 4 iff >= 6 after three."""
    for n in (2, 3, 4):
        for seed in range(60):
            s, p = fresh(n, seed=seed)
            nt = int(s["ntile"])
            placed = [int((s["die"][t * 6 : t * 6 + 6] > 0).sum()) for t in range(nt)]
            total = 3 * n + 6
            pool_after2 = total - 12 + (12 - placed[0] - placed[1])
            assert (nt >= 3) == (pool_after2 >= 6)
            if nt >= 3:
                pool_after3 = pool_after2 - 6 + (6 - placed[2])
                assert (nt == 4) == (pool_after3 >= 6)


def test_setup_fill_matches_exact_expectation():
    """A tile with lots 1-6 once each, filled by 6 dice: E[placed] = 6(1-(5/6)^6) = 3.9906 (note section 5)."""
    s, p = fresh(2)
    placed = []
    for seed in range(20000):
        clear(s)
        seed_streams(s["rng"], 99, seed)
        t = put(s, PLAIN_A, 0, 3, 0)
        s["pool"] = 12
        rules.fill_from_pool(s, p, t, 6)
        k = int((s["die"][:6] > 0).sum())
        assert s["pool"] == 12 - k
        placed.append(k)
    placed = np.array(placed)
    assert abs(placed.mean() - 6 * (1 - (5 / 6) ** 6)) < 0.03
    assert abs((placed == 6).mean() - 5 / 324) < 0.005


# ---------------------------------------------------------------- placement legality
def test_placement_edges_streets_and_gaps():
    s, p = fresh(4)
    clear(s)
    put(s, PLAIN_A, 0, 3, 0)  # squares x 3..4, y 0..2
    assert check(s, p, PLAIN_B, 0, 5, 0) == 0  # edge to edge
    assert check(s, p, PLAIN_B, 0, 5, 1) == 0  # edge contact on two squares is enough
    assert check(s, p, PLAIN_B, 0, 6, 0) == 0  # exactly one street away
    assert check(s, p, PLAIN_B, 0, 7, 0) == 4  # two squares away: not connected
    assert check(s, p, PLAIN_B, 0, 5, 3) == 4  # corner contact only
    assert check(s, p, PLAIN_B, 0, 4, 0) == 2  # overlaps the tile
    assert check(s, p, PLAIN_B, 0, -1, 0) == 2  # would cover Main Street
    assert check(s, p, PLAIN_B, 1, 3, 3) == 0  # horizontal tile on top
    # a printed street edge forces a street on its side: it may not fall on a tile square
    assert check(s, p, WEST_ST, 0, 5, 0) == 3  # W street would cover x=4
    assert check(s, p, WEST_ST, 2, 5, 0) == 0  # rotated: the street faces east (x=7)
    put(s, WEST_ST, 2, 5, 0)
    assert all(s["grid"][y + state.OY, 7 + state.OX] == state.STREET for y in range(3))
    assert check(s, p, PLAIN_B, 0, 7, 0) == 2  # cannot build over a street
    assert check(s, p, PLAIN_B, 0, 8, 0) == 0  # one street away across the printed street
    # a one-square gap between tiles becomes a street
    put(s, PLAIN_B, 1, 3, 4)  # x 3..5, y 4..5: gap at y = 3
    assert s["grid"][3 + state.OY, 3 + state.OX] == state.STREET
    assert s["grid"][3 + state.OY, 4 + state.OX] == state.STREET
    s2, p2 = fresh(4, grow__connect="also_corner")
    clear(s2)
    put(s2, PLAIN_A, 0, 3, 0)
    assert check(s2, p2, PLAIN_B, 0, 5, 3) == 0  # corners count under the alternative


def test_grow_offers_exactly_the_legal_placements():
    s, p = fresh(4)
    clear(s)
    put(s, PLAIN_A, 0, 3, 0)
    s["deck"][s["deck_pos"]] = PLAIN_B
    s["pool"] = 7  # = players + 3: a scoring round is due
    rules.end_turn(s, p)
    assert s["phase"] == state.PH_PLACE and s["decider"] == 0
    acts = legal(s, p)
    assert all(kind(a) == "PLACE" for a in acts)
    brute = 0
    for rot in range(4):
        for gy in range(state.MARGIN, state.G - state.MARGIN):
            for gx in range(state.MARGIN, state.G - state.MARGIN):
                if check(s, p, PLAIN_B, rot, gx - state.OX, gy - state.OY) == 0:
                    brute += 1
                    assert H.encode("PLACE", tile=PLAIN_B, rot=rot, pos=gy * state.G + gx) in acts
    assert brute == len(acts) and brute > 10


# ---------------------------------------------------------------- landing of rolled dice
def start_landing(s, org, counts):
    s["org_x"] = org[0] + state.OX
    s["org_y"] = org[1] + state.OY
    s["land_left"][:] = 0
    for v, k in counts.items():
        s["land_left"][v] = k
        s["pool"] -= k
    s["land_v"] = 1
    s["land_stage"] = 0


def test_landing_hotels_first_then_nearest_lot():
    s, p = two_tiles()
    rounds = int(s["rounds"])
    hotel(s, 5, 2, 2, 4)  # size-4 hotel on a 5-lot, distance 4 from (3,0)
    start_landing(s, (3, 0), {4: 2})  # origin: the 6-lot at (3,0)
    rules.continue_landing(s, p)
    assert s["die"][cell(s, 5, 2)] == 4  # the hotel first, although the 4-lot at (4,0) is nearer
    assert s["die"][cell(s, 4, 0)] == 4  # then the nearest 4-lot (distance 1), not (6,2) (distance 5)
    assert s["die"][cell(s, 6, 2)] == 0
    assert s["rounds"] == rounds + 1  # the round scored after the landing


def test_landing_nearest_any_alternative():
    s, p = two_tiles(roll__hotel_priority="nearest_any")
    hotel(s, 5, 2, 2, 4)
    start_landing(s, (3, 0), {4: 1})
    rules.continue_landing(s, p)
    assert s["die"][cell(s, 4, 0)] == 4 and s["die"][cell(s, 5, 2)] == 0


def test_landing_leftovers_return_to_pool():
    s, p = two_tiles()
    pool0 = int(s["pool"])
    start_landing(s, (3, 0), {1: 4})  # two 1-lots on the map: two dice return
    rules.continue_landing(s, p)
    assert s["die"][cell(s, 3, 2)] == 1 and s["die"][cell(s, 5, 0)] == 1
    assert s["pool"] == pool0 - 2


def test_landing_distance_tie_is_broken_by_the_next_player():
    s, p = two_tiles()
    s["cur"] = 2
    start_landing(s, (3, 0), {3: 1})  # 3-lots at (4,2) and (5,1): both at distance 3
    rules.continue_landing(s, p)
    assert s["phase"] == state.PH_LAND and E.current_player(s) == 3
    acts = legal(s, p)
    assert sorted(acts) == sorted([H.encode("LAND", pos=pos(4, 2), pips=3), H.encode("LAND", pos=pos(5, 1), pips=3)])
    H.act(s, p, "LAND", pos=pos(5, 1), pips=3)
    assert s["die"][cell(s, 5, 1)] == 3 and s["die"][cell(s, 4, 2)] == 0
    assert s["phase"] == state.PH_MAIN and s["cur"] == 3  # round scored, next player's turn
    # two dice for two tied spots: no decision needed
    s, p = two_tiles()
    start_landing(s, (3, 0), {3: 2})
    rules.continue_landing(s, p)
    assert s["die"][cell(s, 5, 1)] == 3 and s["die"][cell(s, 4, 2)] == 3 and s["phase"] == state.PH_MAIN
    # random tie-break alternative: lands on one of the two without a decision
    hits = set()
    for seed in range(20):
        s, p = two_tiles(roll__tie_break="random")
        seed_streams(s["rng"], 5, seed)
        start_landing(s, (3, 0), {3: 1})
        rules.continue_landing(s, p)
        assert s["phase"] == state.PH_MAIN
        hits.add((int(s["die"][cell(s, 4, 2)]), int(s["die"][cell(s, 5, 1)])))
    assert hits == {(3, 0), (0, 3)}


def test_grown_tile_fills_then_extras_land():
    s, p = two_tiles()
    s["deck"][s["deck_pos"]] = PLAIN_A
    s["pool"] = 7
    rules.end_turn(s, p)
    acts = legal(s, p)
    a = H.encode("PLACE", tile=PLAIN_A, rot=0, pos=pos(8, 0))  # one street away east of x=6
    assert a in acts
    before = int(s["pool"])
    E.apply_action(s, p, a)
    new = [c for c in range(s["ncell"]) if c // 6 == 2]
    assert all(s["die"][c] in (0, s["cval"][c]) for c in new)
    on_map = int((s["die"][: s["ncell"]] > 0).sum())
    rolling = int(s["land_left"][1:].sum())  # dice waiting for the next player to break a distance tie
    assert rolling == 0 or s["phase"] == state.PH_LAND
    assert on_map + s["pool"] + rolling == 7 and before == 7  # the 7 rolled dice are all accounted for


# ---------------------------------------------------------------- control and scoring
def scene(**over):
    """One neighbourhood of 3 tiles + a 2-square public building = 5 points.
    x: 3 4 | 5 6 | 7 8  with PB at (7,0),(8,0); lots of tile 3: (7,2)=1 (8,2)=5 (7,1)=3 (8,1)=2."""
    s, p = two_tiles(**over)
    put(s, PB2, 0, 7, 0)
    hotel(s, 3, 1, 0, 2, guest=2)
    hotel(s, 4, 1, 0, 5, guest=5)  # seat 0: a block of 2 + 5 = 7
    hotel(s, 6, 0, 1, 6, guest=6)
    hotel(s, 5, 0, 1, 1, guest=1)  # seat 1: a block of 6 + 1 = 7
    s["cur"] = 3  # seat 3 ends its turn; seat 0 collects next
    return s, p


def score(s, p):
    vp = s["vp"].copy()
    rules.score_round(s, p)
    return list(s["vp"][:4] - vp[:4])


def test_neighbourhood_value_and_split():
    s, p = scene()
    hood = np.zeros(state.TMAX, np.int64)
    assert scoring.tile_hoods(s, hood) == 1
    assert scoring.hood_value(s, p, hood, 0) == 5
    die(s, 7, 2, 1)
    die(s, 8, 2, 5)  # a street gang of 6 < 7
    assert score(s, p) == [2, 2, 0, 0]  # tied players split 5 // 2
    assert list(s["st_won"][:2]) == [1, 1]


def test_street_gang_wins_and_loses_ties():
    s, p = scene()
    die(s, 7, 2, 1)
    die(s, 8, 2, 5)
    die(s, 8, 1, 2)  # gang 8 > 7: nobody scores
    gw = int(s["gang_wins"])
    assert score(s, p) == [0, 0, 0, 0] and s["gang_wins"] == gw + 1
    s, p = scene()
    die(s, 8, 2, 5)
    die(s, 8, 1, 2)  # gang 7 = 7: the players win the tie
    assert score(s, p) == [2, 2, 0, 0]


def test_single_winner_and_empty_hotels_link():
    s, p = scene()
    hotel(s, 6, 1, 1, 2)  # empty: links nothing new, adds 0
    assert score(s, p) == [2, 2, 0, 0]
    s, p = scene()
    hotel(s, 5, 1, 0, 3)  # empty hotel links seat 0's block ... still 7
    hotel(s, 5, 2, 0, 4, guest=4)  # ... to a guest of 4: block 11 > 7
    assert score(s, p) == [5, 0, 0, 0]
    s, p = scene(score__empty_hotels="add_size")
    hotel(s, 5, 1, 0, 3)  # empty size 3 counts: 10 > 7
    assert score(s, p) == [5, 0, 0, 0]


def test_block_strength_alternatives():
    s, p = scene(score__block="count")
    hotel(s, 5, 1, 1, 3, guest=3)  # seat 1: three dice vs seat 0's two
    assert score(s, p) == [0, 5, 0, 0]
    s, p = scene(score__block="highest_die")  # seat 1 holds the 6
    assert score(s, p) == [0, 5, 0, 0]


def test_three_players_tied_round_down():
    s, p = scene()
    hotel(s, 7, 2, 2, 1, guest=1)
    hotel(s, 8, 2, 2, 6, guest=6)  # seat 2: 7 as well
    assert score(s, p) == [1, 1, 1, 0]  # 5 // 3


# ---------------------------------------------------------------- fire
def fire_scene(**over):
    s, p = two_tiles(**over)
    hotel(s, 3, 1, 0, 2)  # seat 0 empty 2
    hotel(s, 4, 1, 1, 5)  # seat 1 empty 5
    hotel(s, 5, 1, 2, 3)  # seat 2 empty 3
    hotel(s, 6, 1, 3, 2, guest=2)  # seat 3 occupied 2
    return s, p


def test_fire_spreads_through_empty_hotels_and_stops_at_an_occupied_one():
    s, p = fire_scene()
    gold = s["gold"].copy()
    pool = int(s["pool"])
    a = H.encode("FIRE", pos=pos(3, 1))
    assert a in legal(s, p)
    E.apply_action(s, p, a)
    assert s["hsize"][cell(s, 3, 1)] == 0 and s["supply"][0, 2] == 2
    assert s["phase"] == state.PH_FIRE and E.current_player(s) == 0
    assert legal(s, p) == [H.encode("PASS", pos=pos(4, 1))]
    H.act(s, p, "PASS", pos=pos(4, 1))
    assert E.current_player(s) == 1  # the burned hotel's owner passes it on
    assert legal(s, p) == [H.encode("PASS", pos=pos(5, 1))]
    H.act(s, p, "PASS", pos=pos(5, 1))
    assert E.current_player(s) == 2
    H.act(s, p, "PASS", pos=pos(6, 1))
    assert s["phase"] == state.PH_MAIN and E.current_player(s) == 0
    assert list(s["gold"][:4] - gold[:4]) == [2, 5, 3, 2]  # insurance = hotel value, to each owner
    assert list(s["st_ins"][:4]) == [2, 5, 3, 2]
    assert s["die"][cell(s, 6, 1)] == 0 and s["hsize"][cell(s, 6, 1)] == 0
    assert s["pool"] == pool + 1  # the guest left, unpaid
    assert s["st_fires"][0] == 1
    assert not any(kind(x) == "FIRE" for x in legal(s, p))  # only one fire per turn
    assert not any(kind(x) == "MINE" for x in legal(s, p))  # and no Mine after acting


def test_fire_occupied_hotel_survives_alternative():
    s, p = fire_scene(fire__occupied="survives")
    gold = s["gold"].copy()
    H.act(s, p, "FIRE", pos=pos(3, 1))
    H.act(s, p, "PASS", pos=pos(4, 1))
    H.act(s, p, "PASS", pos=pos(5, 1))
    H.act(s, p, "PASS", pos=pos(6, 1))
    assert s["hsize"][cell(s, 6, 1)] == 2 and s["die"][cell(s, 6, 1)] == 0
    assert s["gold"][3] == gold[3]


def test_fire_blocked_by_hotel_built_this_turn_and_by_public_building():
    s, p = fire_scene()
    s["hbuilt"][cell(s, 4, 1)] = s["turn"]  # built this turn: fire cannot enter
    H.act(s, p, "FIRE", pos=pos(3, 1))
    assert s["phase"] == state.PH_MAIN and s["hsize"][cell(s, 4, 1)] == 5
    s, p = fire_scene()
    c = cell(s, 3, 1)
    s["hbuilt"][c] = s["turn"]
    assert H.encode("FIRE", pos=pos(3, 1)) not in legal(s, p)  # cannot start in a hotel built this turn
    assert H.encode("HOST", pos=pos(3, 1), camper=pos(3, 1)) not in legal(s, p)
    # public building: fire passes into it and stops
    s, p = two_tiles()
    put(s, PB2, 0, 7, 0)
    hotel(s, 6, 0, 0, 6)
    hotel(s, 5, 0, 1, 1)
    H.act(s, p, "FIRE", pos=pos(6, 0))
    opts = legal(s, p)
    assert sorted(opts) == sorted([H.encode("PASS", pos=pos(5, 0)), H.encode("PASS", pos=pos(7, 0))])
    H.act(s, p, "PASS", pos=pos(7, 0))
    assert s["phase"] == state.PH_MAIN and s["hsize"][cell(s, 5, 0)] == 1


def test_fire_pass_optional_alternative():
    s, p = fire_scene(fire__pass="optional")
    H.act(s, p, "FIRE", pos=pos(3, 1))
    assert H.encode("STOP") in legal(s, p)
    H.act(s, p, "STOP")
    assert s["phase"] == state.PH_MAIN and s["hsize"][cell(s, 4, 1)] == 5


# ---------------------------------------------------------------- collect, host, build, mine
def test_collect_pays_guests_and_returns_dice():
    s, p = two_tiles()
    hotel(s, 4, 2, 1, 3, guest=3)
    hotel(s, 4, 1, 1, 5, guest=5)
    hotel(s, 3, 1, 2, 2, guest=2)  # someone else's guest stays
    gold, pool = int(s["gold"][1]), int(s["pool"])
    s["cur"] = 0
    rules.next_turn(s, p)  # seat 1's turn starts: Collect
    assert s["gold"][1] == gold + 8 and s["pool"] == pool + 2 and s["st_collect"][1] == 8
    assert s["die"][cell(s, 3, 1)] == 2


def test_host_moves_a_matching_camper():
    s, p = two_tiles()
    h = hotel(s, 4, 1, 0, 5)
    hotel(s, 6, 2, 0, 4, built=5)  # built this turn: no guests invited into it
    die(s, 4, 2, 3)
    die(s, 5, 2, 5)
    die(s, 6, 2 - 2, 6)
    acts = legal(s, p)
    hosts = [a for a in acts if kind(a) == "HOST"]
    assert hosts == [H.encode("HOST", pos=pos(4, 1), camper=pos(5, 2))]
    E.apply_action(s, p, hosts[0])
    assert s["die"][h] == 5 and s["die"][cell(s, 5, 2)] == 0
    assert not any(kind(a) == "MINE" for a in legal(s, p))


def test_build_costs_and_one_build_per_turn():
    s, p = two_tiles()
    s["gold"][0] = 30
    die(s, 6, 1, 2)
    acts = legal(s, p)
    assert H.encode("BUILD", pos=pos(3, 1), size=2) in acts
    assert H.encode("BUILD", pos=pos(6, 1), size=2) not in acts
    H.act(s, p, "BUILD_CAMPER", pos=pos(6, 1), size=2)
    assert s["gold"][0] == 30 - 8 and s["die"][cell(s, 6, 1)] == 2 and s["owner"][cell(s, 6, 1)] == 0
    assert s["supply"][0, 2] == 1 and s["st_built"][0, 2] == 1
    assert not H.kinds(s, p) & {"BUILD", "BUILD_CAMPER", "RESIZE"}
    # vacant lot: 2x value
    s, p = two_tiles()
    s["gold"][0] = 30
    H.act(s, p, "BUILD", pos=pos(3, 1), size=2)
    assert s["gold"][0] == 26
    # not enough gold: no build
    s, p = two_tiles()
    s["gold"][0] = 11
    acts = legal(s, p)
    assert H.encode("BUILD", pos=pos(4, 1), size=5) in acts
    assert H.encode("BUILD", pos=pos(3, 0), size=6) not in acts


def test_upgrade_and_downgrade():
    s, p = two_tiles()
    s["gold"][0] = 10
    c = hotel(s, 3, 1, 0, 2)
    H.act(s, p, "RESIZE", pos=pos(3, 1), size=5)
    assert s["gold"][0] == 4 and s["hsize"][c] == 5 and s["supply"][0, 2] == 2 and s["supply"][0, 5] == 1
    s, p = two_tiles()
    s["gold"][0] = 0
    c = hotel(s, 3, 1, 0, 5)
    assert H.encode("RESIZE", pos=pos(3, 1), size=6) not in legal(s, p)
    H.act(s, p, "RESIZE", pos=pos(3, 1), size=1)
    assert s["gold"][0] == 0 and s["hsize"][c] == 1
    s, p = two_tiles(build__resize="one_step")
    s["gold"][0] = 20
    hotel(s, 3, 1, 0, 2)
    sizes = sorted(f["size"] for k, f in H.decoded(s, p) if k == "RESIZE")
    assert sizes == [1, 3]
    s, p = two_tiles()  # an occupied hotel cannot be resized
    s["gold"][0] = 20
    hotel(s, 3, 1, 0, 2, guest=2)
    assert not any(kind(a) == "RESIZE" for a in legal(s, p))


def test_mine_is_exclusive_and_returns_the_die():
    s, p = two_tiles()
    die(s, 4, 1, 5)
    s["pool"] = 2  # below the trigger: no scoring round after the Mine
    gold, pool = int(s["gold"][0]), int(s["pool"])
    H.act(s, p, "MINE", pos=pos(4, 1))
    gained = int(s["gold"][0]) - gold
    assert 1 <= gained <= 6 and s["st_mine"][0] == gained
    assert s["die"][cell(s, 4, 1)] == 0
    assert s["cur"] == 1  # the turn ended at once
    assert s["pool"] == pool + 1


def test_scoring_round_trigger_at_end_of_turn():
    s, p = two_tiles()
    s["pool"] = 6  # 4 players: the trigger is 7
    H.act(s, p, "END")
    assert s["phase"] == state.PH_MAIN and s["cur"] == 1
    s["pool"] = 7
    H.act(s, p, "END")
    assert s["phase"] == state.PH_PLACE and E.current_player(s) == 1
    s, p = two_tiles(grow__trigger_rule="exactly")
    s["pool"] = 8
    H.act(s, p, "END")
    assert s["phase"] == state.PH_MAIN


def test_final_score_and_ranks():
    s, p = fresh(3)
    s["vp"][:3] = [17, 20, 21]
    s["gold"][:3] = [23, 9, 3]
    rules.finish(s, p, 1)
    gi = np.zeros(len(outcome.GAME_COLUMNS), np.int64)
    si = np.zeros((E.MAX_PLAYERS, len(outcome.SEAT_COLUMNS)), np.int64)
    sf = np.zeros((E.MAX_PLAYERS, 2))
    it = np.zeros((E.MAX_ITEMS, 3), np.int64)
    E.write_outcome(s, p, gi, si, sf, it)
    col = {c: i for i, c in enumerate(outcome.SEAT_COLUMNS)}
    assert list(si[:3, col["vp_total"]]) == [21, 21, 21]  # 17 + 23//5, 20 + 1, 21 + 0
    assert list(si[:3, col["rank"]]) == [1, 1, 1] and list(sf[:3, 1]) == [1 / 3] * 3
    s, p = fresh(3, end__tie_break="most_gold")
    s["vp"][:3] = [17, 20, 21]
    s["gold"][:3] = [23, 9, 3]
    rules.finish(s, p, 1)
    E.write_outcome(s, p, gi, si, sf, it)
    assert list(si[:3, col["rank"]]) == [1, 2, 3] and list(sf[:3, 1]) == [1, 0, 0]


# ---------------------------------------------------------------- bots: end-game awareness
def bot(name, **knobs):
    """A preset's strategy id and weights, with some knobs overridden (endgame=0 is the bot before W_ENDGAME)."""
    from sim.game import get_game
    from strategies import cold_comfort as S

    game = get_game("cold_comfort")
    w = game.weights_matrix([name])[0].copy()
    for k, v in knobs.items():
        w[getattr(S, "W_" + k.upper())] = v
    return game.strategy(name).sid, w


def pick(s, p, name, **knobs):
    from strategies import cold_comfort as S

    sid, w = bot(name, **knobs)
    legal = np.array(H.legal(s, p), np.int64)
    seat = int(E.current_player(s))
    return int(legal[S.choose(s, p, seat, legal, len(legal), sid, w)])


def test_last_turn_counts_the_guests_checking_out_before_the_seats_next_turn():
    from strategies import cold_comfort as S

    s, p = two_tiles()  # 4 players: the trigger is 7; seat 0 to move
    s["rounds"] = 8  # the next scoring round is the ninth and last
    hotel(s, 3, 1, 1, 2, guest=2)
    hotel(s, 4, 1, 2, 5, guest=5)
    s["pool"] = 5
    assert S.last_turn(s, p, 0)  # seats 1 and 2 collect 2 guests before seat 0 moves again
    assert not S.last_turn(s, p, 2)  # seat 2's own guest pays at its next turn: only seat 1's
    s["pool"] = 4
    assert not S.last_turn(s, p, 0)
    s["pool"] = 7
    assert S.last_turn(s, p, 2)  # the round starts at the end of this very turn
    s["rounds"] = 7
    assert not S.last_turn(s, p, 0)  # a scoring round after it: not the end


def test_builder_keeps_its_gold_on_its_last_turn():
    # the final scoring round ends the game at the end of this turn (pool >= trigger, ninth round): a new hotel can
    # neither pay nor change who controls the neighbourhood, and $4 of the $10 costs a final point (gold // 5)
    s, p = two_tiles()
    s["rounds"] = 8
    s["gold"][0] = 10
    hotel(s, 4, 1, 0, 5, guest=5)  # seat 0 controls the neighbourhood; no campers, no empty hotel
    assert s["pool"] >= 7
    old = pick(s, p, "builder", endgame=0.0, horizon=0.0)
    assert kind(old) == "BUILD"  # the heuristic builds next to its hotel anyway
    assert pick(s, p, "builder") == H.encode("END")
    s["rounds"] = 7  # one more scoring round to come: it still builds
    assert kind(pick(s, p, "builder", horizon=0.0)) == "BUILD"


def footprint_touches(s, a, cells):
    f = H.codec.decode(a)[1]
    rot = f["rot"]
    ax, ay = f["pos"] % state.G, f["pos"] // state.G
    for k in range(6):
        x, y = ax + city.OFF_U[rot, k], ay + city.OFF_V[rot, k]
        for d in range(4):
            g = int(s["grid"][y + city.DY4[d], x + city.DX4[d]])
            if g >= 0 and g // 6 in cells:
                return True
    return False


def test_final_tile_goes_where_its_street_gang_beats_the_leader():
    # seat 0 places the tile that starts the ninth and last scoring round.  Its lots will take most of the 16 rolled
    # dice (a street gang of about 10 pips), more than either block: joined to seat 0's neighbourhood it would take
    # it from seat 0; joined to the rival's it takes it from the rival.  The old placement heuristic joins the
    # neighbourhood it leads and avoids the rival's.
    s, p = fresh()
    clear(s)
    mine = put(s, PLAIN_A, 0, 3, 0)  # x 3-4
    theirs = put(s, PLAIN_B, 0, 9, 0)  # x 9-10: four squares apart, no tile can touch both
    hotel(s, 4, 2, 0, 3, guest=3)  # seat 0 leads its neighbourhood with 3
    hotel(s, 10, 2, 1, 4, guest=4)  # seat 1 leads the other with 4
    s["vp"][:4] = [10, 10, 0, 0]
    s["rounds"] = 8
    s["phase"] = state.PH_PLACE
    s["draw"][0] = PB2
    s["ndraw"] = 1
    old = pick(s, p, "builder", endgame=0.0)
    assert footprint_touches(s, old, {mine}) and not footprint_touches(s, old, {theirs})
    new = pick(s, p, "builder")
    assert footprint_touches(s, new, {theirs}) and not footprint_touches(s, new, {mine})


def test_builder_weighs_a_new_hotel_by_the_turns_left_to_pay_for_it():
    from strategies import cold_comfort as S

    s, p = two_tiles()
    s["gold"][0] = 10  # seat 0 has no hotel yet; no campers to host
    s["first_round_turn"] = 3
    s["turn"] = 31
    s["rounds"] = 7  # 4 turns a round so far; 1.5 rounds left = 6 turns
    assert S.horizon(s, p, 2.0) == pytest.approx(0.25)  # 0.5 own turns after this one, of the 2 it needs
    assert S.horizon(s, p, 0.0) == 1.0
    # at a small size value (0.3 a pip; the preset's 1.5 still buys a size-1 hotel for $2 here)
    assert kind(pick(s, p, "builder", horizon=0.0, size=0.3)) == "BUILD"
    assert pick(s, p, "builder", size=0.3) == H.encode("END")
    s["rounds"] = 4  # 3.5 own turns after this one: a full payback
    assert S.horizon(s, p, 2.0) == 1.0
    assert kind(pick(s, p, "builder", size=0.3)) == "BUILD"


# ---------------------------------------------------------------- interventions and standings (issue 26)
@pytest.mark.parametrize("size", range(1, 7))
def test_item_remove_takes_one_hotel_size_out_of_the_game(size):
    from sim.effect import removal

    item = f"hotel_size_{size}"
    assert removal(H.game, item) == {"item.remove": item}  # `sim effect cold_comfort --item hotel_size_v`
    s, p = fresh(4, item__remove=item)
    d, _ = fresh(4)
    assert (s["supply"][:4, size] == 0).all() and (d["supply"][:4, size] > 0).all()
    others = [v for v in range(1, 7) if v != size]
    assert (s["supply"][:4, others] == d["supply"][:4, others]).all()
    s["gold"][:4] = 100  # every build and resize affordable
    assert all(f["size"] != size for k, f in H.decoded(s, p) if k in ("BUILD", "BUILD_CAMPER", "RESIZE"))
    rng = np.random.default_rng(size)
    for _ in range(3):
        s, p = fresh(4, seed=int(rng.integers(1000)), item__remove=item)
        H.play_random(s, p, rng)
        assert E.is_over(s) and (s["st_built"][:4, size] == 0).all()
        assert not (s["hsize"][: s["ncell"]] == size).any()


def test_standings_follow_the_scoring_rounds_and_end_as_the_final_ranking():
    out = np.zeros(E.MAX_PLAYERS, np.int64)
    rng = np.random.default_rng(5)
    for seed in range(4):
        n = 3 + seed % 3
        s, p = fresh(n, seed=seed)
        last = E.standings(s, p, out)
        assert last == 0 and (out[:n] == 0).all()
        while not E.is_over(s):
            legal = H.legal(s, p)
            E.apply_action(s, p, legal[int(rng.integers(len(legal)))])
            rnd = E.standings(s, p, out)
            assert last <= rnd <= last + 1  # a round never goes back, one at a time
            assert list(out[:n]) == [int(s["vp"][i]) + int(s["vp_gold"][i]) for i in range(n)]
            last = rnd
        assert last == 9
        gi = np.zeros(len(outcome.GAME_COLUMNS), np.int64)
        si = np.zeros((E.MAX_PLAYERS, len(outcome.SEAT_COLUMNS)), np.int64)
        sf = np.zeros((E.MAX_PLAYERS, 2))
        it = np.zeros((E.MAX_ITEMS, 3), np.int64)
        E.write_outcome(s, p, gi, si, sf, it)
        # the default end.tie_break (shared) ranks by the total alone: the same ranks as the standings
        ranks = [1 + sum(out[j] > out[i] for j in range(n)) for i in range(n)]
        assert ranks == list(si[:n, outcome.SEAT.rank])
