"""Cold Comfort under play: invariants over random games for every player count (stepped from Python so every
intermediate state is checked), complete heuristic games through the kernel, determinism, replay text."""

import numpy as np
import pytest

from sim.game import get_game
from sim.games.cold_comfort import engine as E
from sim.games.cold_comfort import city, outcome, scoring, state
from sim.games.cold_comfort import params as P
from sim.kernel import new_states
from sim.replay import replay_text
from sim.rng import seed_streams
from sim.runner import prepare, run_study, simulate
from tests.harness import Harness

GAME = get_game("cold_comfort")
H = Harness(GAME)
COL = {c: i for i, c in enumerate(outcome.SEAT_COLUMNS)}
GCOL = {c: i for i, c in enumerate(outcome.GAME_COLUMNS)}


def invariants(s, n):
    nc = int(s["ncell"])
    die = s["die"][:nc]
    hs = s["hsize"][:nc]
    own = s["owner"][:nc]
    val = s["cval"][:nc]
    # dice are conserved between the pool, the camps and the hotels (and, while the next player breaks a
    # landing tie, the rolled dice still looking for a space)
    rolling = int(s["land_left"][1:7].sum())
    assert rolling == 0 or s["phase"] == state.PH_LAND
    assert int(s["pool"]) + int((die > 0).sum()) + rolling == int(s["total_dice"])
    assert s["pool"] >= 0
    assert (s["gold"][:n] >= 0).all()
    # a camper sits on a lot of its value; a guest has its hotel's size; public buildings hold nothing
    camp = (die > 0) & (hs == 0)
    assert (die[camp] == val[camp]).all()
    guest = (die > 0) & (hs > 0)
    assert (die[guest] == hs[guest]).all()
    assert not ((val == 0) & ((die > 0) | (hs > 0))).any()
    assert ((hs > 0) == (own >= 0)).all()
    # every hotel tile is on the map or in its owner's supply
    for i in range(n):
        for v in range(1, 7):
            assert s["supply"][i, v] + int(((own == i) & (hs == v)).sum()) == 2
    # the grid and the cell list agree
    g = s["grid"]
    cells = g[g >= 0]
    assert len(cells) == nc and sorted(cells) == list(range(nc))
    assert s["ntile"] * 6 == nc
    # the row bitmasks kept for enum_places: empty ground, and the squares next to a tile square (or one street away)
    bits = (g == state.EMPTY).astype(np.uint64) << np.arange(state.G, dtype=np.uint64)
    assert (np.bitwise_or.reduce(bits, axis=1) == s["free_row"].view(np.uint64)).all()
    for connect, kept in (("edge_or_street", s["reach_e"]), ("also_corner", s["reach_e"] | s["reach_c"])):
        reach = np.zeros((state.G, state.G), np.int64)
        city.reach_mask(s, P.PARAMS.resolve({"grow.connect": connect}), reach)
        marks = (reach[:, :62] != 0).astype(np.uint64) << np.arange(62, dtype=np.uint64)
        assert (np.bitwise_or.reduce(marks, axis=1) == (kept & 0x3FFFFFFFFFFFFFFF).view(np.uint64)).all()
    # the neighbourhoods kept from one grown tile to the next (ensure_hoods) are those a search finds
    p = P.PARAMS.defaults()
    scoring.ensure_hoods(s, p)
    hood = np.zeros(state.TMAX, np.int8)
    nh = scoring.tile_hoods(s, hood)
    nt = int(s["ntile"])
    assert nh == s["n_hood"] and np.array_equal(hood[:nt], s["t_hood"][:nt])
    assert [int(s["h_val"][h]) for h in range(nh)] == [scoring.hood_value(s, p, hood, h) for h in range(nh)]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_play_invariants(n):
    p = P.PARAMS.defaults()
    rng = np.random.default_rng(n)
    s = new_states(E, 1)[0]
    for seed in range(12):
        seed_streams(s["rng"], 123, seed)
        E.setup(s, p, n)
        invariants(s, n)
        rounds_seen = 0
        steps = 0
        while not E.is_over(s):
            legal = H.legal(s, p)  # asserts 1 <= n <= MAX_ACTIONS
            assert 0 <= E.current_player(s) < n
            E.apply_action(s, p, legal[rng.integers(len(legal))])
            invariants(s, n)
            assert s["rounds"] >= rounds_seen
            rounds_seen = int(s["rounds"])
            steps += 1
            assert steps < 5000
        assert s["over"] == 1 and s["rounds"] == 9 and s["phase"] == state.PH_OVER
        assert s["ntile"] == s["setup_tiles"] + 9


@pytest.mark.parametrize("n", [2, 4, 6])
def test_heuristic_games_complete(n):
    names = [sp.name for sp in GAME.strategies][:5] + ["random"]
    spec, design, pvec = prepare(GAME, (n,), 300, lineup=names[:n])
    out = simulate(spec, design, pvec, 11, 0, 300)
    gi, si, sf = out["game_int"], out["seat_int"][:, :n], out["seat_f"][:, :n]
    assert (out["steps"] > 0).all()
    assert (gi[:, GCOL["rounds"]] == 9).all() and (gi[:, GCOL["end_reason"]] == 0).all()
    assert np.allclose(sf[:, :, 1].sum(1), 1.0)
    assert (si[:, :, COL["vp_total"]] == si[:, :, COL["vp_neighbourhoods"]] + si[:, :, COL["vp_gold"]]).all()
    assert (sf[:, :, 0] == si[:, :, COL["vp_total"]]).all()
    assert (si[:, :, COL["vp_gold"]] == si[:, :, COL["gold"]] // 5).all()
    assert (si[:, :, COL["start_gold"]] == 9 + np.arange(n)).all()
    assert (si[:, :, COL["rank"]] >= 1).all() and ((si[:, :, COL["rank"]] == 1) == (si[:, :, COL["win"]] == 1)).all()
    # gold accounting: start + collect + mine + insurance - spending = final (spending is never negative)
    spent = (
        si[:, :, COL["start_gold"]]
        + si[:, :, COL["gold_collect"]]
        + si[:, :, COL["gold_mine"]]
        + si[:, :, COL["gold_insurance"]]
        - si[:, :, COL["gold"]]
    )
    assert (spent >= 0).all()
    # items mirror the counters
    assert (gi[:, GCOL["items_dropped"]] == 0).all()
    items = out["items"]
    for g in range(0, 300, 37):
        it = items[g, : out["n_items"][g]]
        for i in range(n):
            mine = it[it[:, 0] == i]
            assert (mine[:, 1] == outcome.ITEM_HOOD).sum() == si[g, i, COL["neighbourhoods_won"]]
            for v in range(1, 7):
                assert (mine[:, 1] == v - 1).sum() == si[g, i, COL[f"hotels_built_{v}"]]
            assert ((mine[:, 2] >= 1) & (mine[:, 2] <= 9)).all()
    # the designed archetypes actually do what they are named for
    strat = out["strat"][:, :n]
    slot = {nm: k for k, nm in enumerate(design.slots)}
    if "arsonist" in slot:
        fires = si[:, :, COL["fires_set"]]
        assert fires[strat == slot["arsonist"]].mean() > fires[strat == slot["host"]].mean()


def test_heuristics_beat_random():
    spec, design, pvec = prepare(GAME, (2,), 400, lineup=["host", "random"])
    out = simulate(spec, design, pvec, 5, 0, 400)
    strat = out["strat"][:, :2]
    share = out["seat_f"][:, :2, 1][strat == design.slots.index("host")].mean()
    assert share > 0.7


def test_determinism_and_seed_sensitivity():
    spec, design, pvec = prepare(GAME, (4,), 60)
    a = simulate(spec, design, pvec, 21, 0, 60)
    b = simulate(spec, design, pvec, 21, 0, 60)
    c = simulate(spec, design, pvec, 22, 0, 60)
    for key in ("game_int", "seat_int", "seat_f", "items", "steps"):
        assert np.array_equal(a[key], b[key])
    assert not np.array_equal(a["seat_f"], c["seat_f"])
    # a single game re-played alone gives the same result as inside the batch
    d = simulate(spec, design, pvec, 21, 17, 18)
    assert np.array_equal(d["seat_int"][0], a["seat_int"][17])


def test_parameters_change_the_game():
    spec, design, pvec = prepare(GAME, (4,), 100, params={"gold.start_step": 0, "gold.start": 20})
    out = simulate(spec, design, pvec, 3, 0, 100)
    assert (out["seat_int"][:, :4, COL["start_gold"]] == 20).all()
    spec, design, pvec = prepare(GAME, (4,), 100, params={"fire.allowed": "off"})
    out = simulate(spec, design, pvec, 3, 0, 100)
    assert out["seat_int"][:, :4, COL["fires_set"]].sum() == 0
    spec, design, pvec = prepare(GAME, (3,), 100, params={"end.scoring_rounds": 4})
    out = simulate(spec, design, pvec, 3, 0, 100)
    assert (out["game_int"][:, GCOL["rounds"]] == 4).all()


def test_turn_cap_is_reported():
    spec, design, pvec = prepare(GAME, (4,), 50, params={"end.turn_cap": 10})
    out = simulate(spec, design, pvec, 3, 0, 50)
    capped = out["game_int"][:, GCOL["end_reason"]] == 1
    assert capped.all() and (out["game_int"][:, GCOL["rounds"]] < 9).all()


def test_replay_text(tmp_path):
    run = run_study("cold_comfort", tmp_path / "r", games=4, players=(3,), seed=1, progress=False)
    lines = replay_text(run, 2)
    text = "\n".join(lines)
    assert "scoring round 9" in text and "map (north up" in text
    assert text.count("map (north up") == 10  # after setup and after each of the 9 rounds
    assert "Result: turns=" in text and "end_reason=nine_rounds" in text


@pytest.mark.parametrize(
    "name,value",
    [
        ("grow.trigger_rule", "exactly"),
        ("build.resize", "one_step"),
        ("build.resized_is_new", "on"),
        ("fire.occupied", "survives"),
        ("fire.pass", "optional"),
        ("grow.connect", "also_corner"),
        ("grow.draw", "draw2_keep1"),
        ("roll.hotel_priority", "nearest_any"),
        ("roll.distance", "walk"),
        ("roll.tie_break", "random"),
        ("roll.into_new_hotels", "off"),
        ("score.block", "count"),
        ("score.block", "highest_die"),
        ("score.empty_hotels", "add_size"),
        ("end.tie_break", "most_gold"),
    ],
)
def test_every_alternative_reading_plays(name, value):
    spec, design, pvec = prepare(
        GAME, (4,), 120, lineup=["builder", "host", "arsonist", "random"], params={name: value}
    )
    out = simulate(spec, design, pvec, 8, 0, 120)
    gi = out["game_int"]
    ok = gi[:, GCOL["end_reason"]] == 0
    if name == "grow.trigger_rule":
        # "exactly N+3": once the pool passes the trigger only a scoring round could shrink it, so games stall;
        # a stalled game must be reported as capped (end_reason turn_cap) with fewer than 9 rounds
        assert (gi[~ok, GCOL["end_reason"]] == 1).all() and (gi[~ok, GCOL["rounds"]] < 9).all()
        assert (~ok).mean() > 0.5
    else:
        assert ok.all() and (gi[:, GCOL["rounds"]] == 9).all()
    assert np.allclose(out["seat_f"][:, :4, 1].sum(1), 1.0)
    base = simulate(*prepare(GAME, (4,), 120, lineup=["builder", "host", "arsonist", "random"]), 8, 0, 120)
    assert not np.array_equal(base["seat_f"], out["seat_f"])  # the reading changes play


def test_no_preset_prefers_burning_a_bigger_own_hotel():
    # a fire's score grows with the burned hotel's size by (gold weight x insurance - self-burn cost) per size: a
    # preset for which that is positive burns its biggest hotel first, losing twice its value in build cost for
    # an insurance of one value (the arsonist did, with a self-burn cost of 0.5)
    from strategies import cold_comfort as S

    game = get_game("cold_comfort")
    ins = game.params.resolve({})[P.FIRE_INS]
    for spec in game.strategies:
        w = spec.weights
        assert w[S.W_GOLD] * ins - w[S.W_FIRESELF] < 0, spec.name


@pytest.mark.parametrize(
    "reading",
    [
        {},
        {"score.empty_hotels": "add_size", "score.block": "count", "fire.occupied": "survives"},
        {"score.empty_hotels": "add_size", "score.block": "highest_die", "build.resized_is_new": "on"},
        {"score.block": "highest_die", "fire.pass": "optional"},
    ],
)
def test_kept_blocks_equal_a_search_of_the_map_after_every_step(reading):
    # the rules keep the blocks and gangs in the state (blocks.changed at every change to what a cell holds);
    # after every step of random games and of bot games (2-4 players) they must be those a search of the whole map
    # finds (scoring.block_strengths), numbered alike by kept_blocks; the control of each neighbourhood read from
    # them by block id (kept_hood_control) must be hood_control's
    from sim.games.cold_comfort import blocks
    from strategies import cold_comfort as S

    p = P.PARAMS.resolve(reading)
    rng = np.random.default_rng(3)
    out = np.zeros(E.MAX_ACTIONS, np.int64)
    s = new_states(E, 1)[0]
    ws = [np.array(spec.weights + (0.0,) * (16 - len(spec.weights))) for spec in S.STRATEGIES]
    sids = [spec.sid for spec in S.STRATEGIES]
    comp, strength, who = np.zeros(state.CMAX, np.int16), np.zeros(state.CMAX, np.int32), np.zeros(state.CMAX, np.int8)
    full = [np.zeros(state.TMAX, np.int32), np.zeros(state.TMAX, np.int32), np.zeros((state.TMAX, state.MP), np.int8)]
    kept = [np.zeros(state.TMAX, np.int32), np.zeros(state.TMAX, np.int32), np.zeros((state.TMAX, state.MP), np.int8)]
    checked = merged = multi_was = 0
    for seed in range(9):
        n = 2 + seed % 3
        bots = seed % 2 == 1
        seed_streams(s["rng"], 57, seed)
        E.setup(s, p, n)
        blocks.rebuild(s, p)  # (setup leaves them unknown: the first reader searches the map)
        while not E.is_over(s):
            k = E.legal_actions(s, p, out)
            seat = int(E.current_player(s))
            if bots and k > 1:
                j = (seat + seed) % len(ws)
                i = S.choose(s, p, seat, out, k, sids[j], ws[j])
            else:
                i = rng.integers(k)
            E.apply_action(s, p, out[i])
            assert s["kb_ok"] == 1
            nc = int(s["ncell"])
            nbk = scoring.block_strengths(s, p, s["block_of_cell"], s["block_strength"], s["block_owner"])
            want = (s["block_of_cell"][:nc].copy(), s["block_strength"][:nbk].copy(), s["block_owner"][:nbk].copy())
            assert blocks.kept_blocks(s, p, comp, strength, who) == nbk
            assert np.array_equal(comp[:nc], want[0])
            assert np.array_equal(strength[:nbk], want[1]) and np.array_equal(who[:nbk], want[2])
            scoring.ensure_hoods(s, p)
            nh = int(s["n_hood"])
            scoring.hood_control(s, p, s["t_hood"], nh, *full)
            blocks.kept_hood_control(s, p, s["t_hood"], nh, *kept)
            assert all(np.array_equal(a[:nh], b[:nh]) for a, b in zip(full, kept))
            checked += 1
            sizes = np.bincount(want[0][want[0] >= 0], minlength=1)
            multi = int((sizes > 1).sum())  # blocks of two cells or more: their number moves as they form, split, merge
            merged += multi != multi_was
            multi_was = multi
    assert checked > 1000 and merged > 50, (checked, merged)


@pytest.mark.parametrize(
    "empty_hotels,block", [("link_only", "sum"), ("add_size", "count"), ("add_size", "highest_die")]
)
def test_incremental_hood_control_equals_a_full_one(empty_hotels, block):
    # the end-game look-ahead finds the blocks and each neighbourhood's control once per decision and, per move,
    # searches and scores again only what the move touches (hood_control_after, final_margin); after any change to
    # one or two cells both must come out exactly as a full hood_control and score_round's sharing rule
    from strategies import cold_comfort as S

    p = P.PARAMS.resolve({"score.empty_hotels": empty_hotels, "score.block": block})
    per = int(p[P.GOLD_PER_VP])
    rng = np.random.default_rng(7)
    out = np.zeros(E.MAX_ACTIONS, np.int64)
    s = new_states(E, 1)[0]
    blk = s["look_blk"]  # the int32 work array the strategies use
    tot = np.zeros(state.MP)
    full = [np.zeros(state.TMAX, np.int64), np.zeros(state.TMAX, np.int64), np.zeros((state.TMAX, state.MP), np.int64)]
    tm, mp = state.TMAX, state.MP
    before = [np.zeros(tm, np.int64), np.zeros(tm, np.int64), np.zeros((tm, mp), np.int64)]
    checked = changed = 0
    for seed in range(6):
        seed_streams(s["rng"], 99, seed)
        E.setup(s, p, 4)
        while not E.is_over(s):
            k = E.legal_actions(s, p, out)
            E.apply_action(s, p, out[rng.integers(k)])
            if rng.random() > 0.2:
                continue
            scoring.ensure_hoods(s, p)
            nbk = S.blocks_base(s, p, blk)
            scoring.hood_control(s, p, s["t_hood"], s["n_hood"], *before)
            nc = int(s["ncell"])
            nh = int(s["n_hood"])
            for _ in range(8):
                cells = list(rng.choice(nc, size=int(rng.integers(1, 3)), replace=False))
                if len(cells) == 2 and rng.random() < 0.5:  # often two neighbours: one block, or one joining another
                    x, y = int(s["cx"][cells[0]]), int(s["cy"][cells[0]])
                    near = [int(g) for g in (s["grid"][y + dy, x + dx] for dx, dy in zip(city.DX4, city.DY4)) if g >= 0]
                    if near:
                        cells[1] = near[rng.integers(len(near))]
                saved = [(c, s["owner"][c], s["hsize"][c], s["die"][c]) for c in cells]
                for c in cells:  # a hotel (empty or with a guest), a camper or nothing, whatever the rules;
                    what = rng.integers(4)  # or what it holds with another die or size (a hotel: same owner)
                    size = int(rng.integers(1, 7))
                    if what == 3:
                        hotel = s["hsize"][c] > 0
                        what = 0 if hotel else 1
                        if hotel:
                            s["owner"][c] = saved[cells.index(c)][1]
                            s["hsize"][c] = size
                            s["die"][c] = size if rng.random() < 0.5 else 0
                            continue
                    s["owner"][c] = rng.integers(4) if what == 0 else -1
                    s["hsize"][c] = size if what == 0 else 0
                    s["die"][c] = (
                        (size if rng.random() < 0.5 else 0) if what == 0 else (s["cval"][c] if what == 1 else 0)
                    )
                m1, m2 = int(cells[0]), int(cells[1]) if len(cells) > 1 else -1
                scoring.hood_control(s, p, s["t_hood"], s["n_hood"], *full)
                na = S.hood_control_after(s, p, blk, nbk, m1, m2)
                ctrl = blk[S.R_CTRL0, : nh * S.CW].reshape(nh, S.CW).copy()
                for h in blk[S.R_AFF, :na]:
                    ctrl[h] = blk[S.R_CTRL, h * S.CW : (h + 1) * S.CW]
                inc = [ctrl[:, 0], ctrl[:, 1], ctrl[:, 2:]]
                for a, b in zip(full, inc):
                    assert np.array_equal(a[:nh], b)
                changed += any(not np.array_equal(a[:nh], b[:nh]) for a, b in zip(full, before))
                # the totals: points + gold points + each neighbourhood's share, split by its tied winners
                want = [int(s["vp"][i]) + int(s["gold"][i]) // per for i in range(4)]
                for h in range(nh):
                    bp, bg, win = full[0][h], full[1][h], full[2][h]
                    if bp > 0 and bp >= bg:
                        for i in range(4):
                            want[i] += int(s["h_val"][h]) // int(win.sum()) * int(win[i])
                margin = S.final_margin(s, p, 0, blk, nbk, m1, m2, tot)
                assert list(tot[:4]) == want and margin == want[0] - max(want[1:])
                checked += 1
                for c, o, hs, d in saved:
                    s["owner"][c], s["hsize"][c], s["die"][c] = o, hs, d
    assert checked > 300 and changed > 100  # most changes move some neighbourhood's control


def test_placement_scan_chooses_alike_without_its_box_arrays():
    # choose_place keeps near() and the neighbourhood masks in state arrays over the map's box where the box fits
    # them (PLACE_BOX squares), and computes both per action where it does not: the two must pick the same
    # placement, on ordinary turns and on the tile that starts the final scoring round (the end-game look-ahead)
    from strategies import cold_comfort as S

    p = P.PARAMS.resolve({})
    rng = np.random.default_rng(3)
    out = np.zeros(E.MAX_ACTIONS, np.int64)
    s = new_states(E, 1)[0]
    presets = [np.array(spec.weights + (0.0,) * (16 - len(spec.weights))) for spec in S.STRATEGIES]
    scans = final = differ = 0
    for seed in range(12):
        seed_streams(s["rng"], 41, seed)
        E.setup(s, p, 4)
        while not E.is_over(s):
            k = E.legal_actions(s, p, out)
            if s["phase"] == state.PH_PLACE and k > 1:
                box = (int(s["maxx"]) - int(s["minx"]) + 9) * (int(s["maxy"]) - int(s["miny"]) + 9)
                assert box <= state.PLACE_BOX  # (the default line-up's maps: the arrays are used)
                final += int(s["rounds"]) == int(p[P.ROUNDS]) - 1
                for w in presets:
                    seat = int(E.current_player(s))
                    saved = s["rng"].copy()
                    with_box = S.choose_place(s, p, seat, out, k, w, state.PLACE_BOX)
                    s["rng"][:] = saved
                    without = S.choose_place(s, p, seat, out, k, w, 0)
                    s["rng"][:] = saved
                    assert with_box == without
                    differ += with_box != S.choose_place(s, p, seat, out, k, presets[0] * 0.0, 0)
                    s["rng"][:] = saved
                    scans += 1
            E.apply_action(s, p, out[rng.integers(k)])
    assert scans > 300 and final > 10 and differ > scans // 4  # the weights matter: the test can tell picks apart


@pytest.mark.parametrize("empty_hotels", ["link_only", "add_size"])
def test_look_ahead_scores_builds_and_resizes_as_a_full_final_margin(empty_hotels):
    # end_delta scores a build beside none of the builder's hotels, and a resized empty hotel, from look_ahead's
    # totals with only the seat's gold points changed (gold_margin) where an empty hotel's size does not count:
    # each must equal final_margin after the move, block search included, for every such move of random games
    import numba as nb

    from strategies import cold_comfort as S
    from sim.games.cold_comfort import actions as A

    @nb.njit
    def look_ahead(s, p, seat):  # (its arrays are the state's look_tot and look_blk)
        return S.look_ahead(s, p, seat)[2:]

    p = P.PARAMS.resolve({"score.empty_hotels": empty_hotels})
    tot = np.zeros(state.MP)
    costs = [p[P.COST_BUILD], p[P.COST_CAMPER], p[P.COST_UP], p[P.COST_DOWN]]
    rng = np.random.default_rng(5)
    out = np.zeros(E.MAX_ACTIONS, np.int64)
    s = new_states(E, 1)[0]
    checked = joined = hosted = 0
    for seed in range(12):
        seed_streams(s["rng"], 17, seed)
        E.setup(s, p, 4)
        while not E.is_over(s):
            k = E.legal_actions(s, p, out)
            if s["phase"] == state.PH_MAIN and k > 1:
                seat = int(E.current_player(s))
                dice = s["die"].copy()
                planted = rng.random() < 0.5
                if planted:  # guests in the seat's hotels (checked out by its Collect in play), so that a build
                    mine = (s["owner"] == seat) & (s["hsize"] > 0)  # may join blocks of some strength (no resize:
                    s["die"][mine] = s["hsize"][mine]  # the rules resize only empty hotels)
                    s["kb_ok"] = 0  # (a map edited by hand: the kept blocks are searched afresh, blocks.py)
                scoring.ensure_hoods(s, p)
                nbk, base = look_ahead(s, p, seat)
                blk = s["look_blk"]
                for a in out[:k]:
                    kind = A.kind_of(a)
                    if kind != A.A_BUILD and (kind != A.A_RESIZE or planted):
                        continue
                    c = int(s["grid"][A.pos_of(a) >> 6, A.pos_of(a) & 63])
                    v = int(A.size_of(a))
                    hs, gold = int(s["hsize"][c]), int(s["gold"][seat])
                    if kind == A.A_BUILD:
                        s["gold"][seat] -= costs[0] * v
                        s["owner"][c], s["hsize"][c] = seat, v
                        want = S.final_margin(s, p, seat, blk, nbk, c, -1, tot) - base
                        s["owner"][c], s["hsize"][c] = -1, 0
                        x, y = int(s["cx"][c]), int(s["cy"][c])
                        near = {int(s["grid"][y + dy, x + dx]) for dx, dy in zip(city.DX4, city.DY4)}
                        own = {int(blk[S.R_COMP, g]) for g in near if g >= 0 and s["owner"][g] == seat}
                        joined += sum(blk[S.R_STR, b] > 0 for b in own) > 1  # it joins two blocks with guests
                    else:
                        s["gold"][seat] -= costs[2] * (v - hs) if v > hs else costs[3] * (hs - v)
                        s["hsize"][c] = v
                        want = S.final_margin(s, p, seat, blk, nbk, c, -1, tot) - base
                        if s["hbuilt"][c] != s["turn"]:  # or hosting a camper of its new size at once
                            for g in range(int(s["ncell"])):
                                if s["hsize"][g] == 0 and s["die"][g] == v:
                                    s["die"][g], s["die"][c] = 0, v
                                    want = max(want, S.final_margin(s, p, seat, blk, nbk, c, g, tot) - base)
                                    s["die"][g], s["die"][c] = v, 0
                                    hosted += 1
                        s["hsize"][c] = hs
                    s["gold"][seat] = gold
                    assert S.end_delta(s, p, seat, a, blk, nbk, tot, base, *costs) == want
                    checked += 1
                if planted:
                    s["die"][:] = dice
                    s["kb_ok"] = 0
            # random play that hosts and builds more often than at random (blocks with guests grow side by side)
            for kind in (A.A_HOST, A.A_BUILD):
                some = [a for a in out[:k] if A.kind_of(a) == kind]
                if some and rng.random() < 0.7:
                    E.apply_action(s, p, some[rng.integers(len(some))])
                    break
            else:
                E.apply_action(s, p, out[rng.integers(k)])
    assert checked > 10000 and joined > 10 and hosted > 100


def test_quick_choice_is_choose_on_the_legal_list():
    # The kernel takes main decisions (quick_main) and the grown tile's placement (quick_place) from quick_choice,
    # generated and scored as found, instead of choose on the legal list: at every such decision of random games
    # and of bot games, for every preset and for all-zero weights (everything ties: the tie draws), it names the
    # action choose picks from the list (the list's only action when it has one: decide then asks no strategy; -1
    # where no placement is legal, and on a seat's last turn, where the look-ahead scores the list) and draws the
    # same numbers from the policy stream
    from strategies import cold_comfort as S

    p = P.PARAMS.resolve({})
    rng = np.random.default_rng(5)
    out = np.zeros(E.MAX_ACTIONS, np.int64)
    s = new_states(E, 1)[0]
    ws = [np.array(spec.weights + (0.0,) * (16 - len(spec.weights))) for spec in S.STRATEGIES]
    sids = [spec.sid for spec in S.STRATEGIES]
    ws.append(ws[0] * 0.0)
    sids.append(sids[0])
    seen = np.zeros(5, np.int64)  # per phase: decisions x weight sets answered
    final = drew = last = 0
    for seed in range(16):
        bots = seed % 2 == 1  # odd seeds: the presets move; even: random moves
        seed_streams(s["rng"], 43, seed)
        E.setup(s, p, 3 + seed % 3)
        while not E.is_over(s):
            k = E.legal_actions(s, p, out)
            seat = int(E.current_player(s))
            ph = int(s["phase"])
            if ph in (state.PH_MAIN, state.PH_PLACE):
                final += ph == state.PH_PLACE and int(s["rounds"]) == int(p[P.ROUNDS]) - 1
                for sid, w in zip(sids, ws, strict=True):
                    saved = s["rng"].copy()
                    a = S.quick_choice(s, p, seat, sid, w)
                    after = s["rng"].copy()
                    s["rng"][:] = saved
                    if ph == state.PH_MAIN and a == -1:
                        assert w[S.W_ENDGAME] > 0.0 and S.last_turn(s, p, seat) and (after == saved).all()
                        last += 1
                        continue
                    if k == 1:
                        want = -1 if ph == state.PH_PLACE and E.kind_of(out[0]) == E.A_END else out[0]
                        assert (after == saved).all()
                    else:
                        want = out[S.choose(s, p, seat, out, k, sid, w)]
                    assert a == want and (after == s["rng"]).all()
                    drew += not (after == saved).all()
                    s["rng"][:] = saved
                    seen[ph] += 1
            if bots:
                j = seat % len(ws)
                i = 0 if k == 1 else S.choose(s, p, seat, out, k, sids[j], ws[j])
            else:
                i = rng.integers(k)
            E.apply_action(s, p, out[i])
    assert seen[state.PH_MAIN] > 5000 and seen[state.PH_PLACE] > 500, seen
    assert final > 10 and last > 50 and drew > 1000, (final, last, drew)  # final placements, last turns, tie draws


@pytest.mark.parametrize("n", [3, 4])
def test_the_kernel_plays_the_games_its_move_by_move_replay_plays(n):
    # the kernel takes main decisions and placements from quick_choice; sim replay (play_logged) asks choose on
    # the legal list for every decision: every game ends with the same scores, win shares and number of moves
    from sim.replay import play_logged

    spec, design, pvec = prepare(GAME, (n,), 12, lineup=[sp.name for sp in GAME.strategies][:n])
    out = simulate(spec, design, pvec, 8, 0, 12)
    for g in range(12):
        r = play_logged(GAME, design, pvec, 8, g)
        assert len(r["moves"]) == out["steps"][g]
        assert np.array_equal(r["seat_f"][:n], out["seat_f"][g, :n])
