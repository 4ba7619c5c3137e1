"""Saloon Tycoon under play: invariants under random play for every player count, turn parity, determinism,
the heuristics, the outcome tables and replay text."""

import numpy as np
import pytest

from sim.games.saloon_tycoon import GAME
from sim.games.saloon_tycoon import engine as E
from sim.games.saloon_tycoon import params as P
from sim.games.saloon_tycoon import actions, queries, state
from sim.rng import rand_below, seed_streams
from sim.runner import prepare, simulate

R = E.SEAT_COLUMNS.index
G = E.GAME_COLUMNS.index


def check_invariants(s, p):
    n = int(s["n"])
    # gold: bank flows balance the players' gold, nobody below zero
    assert s["gold"][:n].sum() == n * p[P.P_START_GOLD] + s["gold_in"] - s["gold_out"]
    assert (s["gold"][:n] >= 0).all()
    # cubes: every cube on a board came from the pile or the reserve
    assert s["cubes_board"][:n].sum() == (s["pile0"] - s["pile"]) + s["reserve"]
    assert s["pile"] >= 0 and (s["reserve"] == 0 or s["pile"] == 0)
    # cards: deck + discards + hands + cards being resolved = the deck size
    in_play = sum(1 for j in range(s["n_tasks"]) if s["task"][j, 0] in (state.TK_TODISC, state.TK_CARD))
    total = int(sum(p[P.P_CARD0 + c * P.CS + P.CF_COPIES] for c in range(int(p[P.P_N_CARDS]))))
    assert s["deck_n"] + s["disc_n"] + s["hand_n"][:n].sum() + in_play == total
    for i in range(n):
        assert s["hand"][i].sum() == s["hand_n"][i] and (s["hand"][i] >= 0).all()
    # tiles within the board, cells consistent with the tiles, supply conserved
    built = np.zeros(P.MAX_TILE_TYPES, np.int64)
    for i in range(n):
        nt = int(s["n_tiles"][i])
        cubes = 0
        for j in range(nt):
            t, f, fp = int(s["tile_type"][i, j]), int(s["tile_floor"][i, j]), int(s["tile_footprint"][i, j])
            spaces = int(p[P.P_TILE0 + t * P.TS + P.TF_CUBES])
            assert 0 <= f < 3 and 0 <= fp < state.N_FP
            assert int(p[P.P_TILE0 + t * P.TS + P.TF_LARGE]) == state.FP_LARGE[fp]
            on_tile = s["tile_cubes"][i, j]
            assert 0 <= on_tile <= spaces and s["tile_finished"][i, j] == (on_tile == spaces)
            assert s["cell"][i, f, state.FP_A[fp]] == j
            if state.FP_B[fp] >= 0:
                assert s["cell"][i, f, state.FP_B[fp]] == j
            if f > 0:
                below = s["cell"][i, f - 1, state.FP_A[fp]]
                assert below >= 0 and s["tile_finished"][i, below] == 1
            cubes += int(s["tile_cubes"][i, j])
            if j > 0:
                built[t] += 1
        assert cubes == s["cubes_board"][i]
        assert s["types_built"][i] == sum(1 << int(t) for t in set(s["tile_type"][i, :nt].tolist()))
        assert (s["cell"][i] < nt).all()
        assert queries.income_of(s, i) == nt + s["roofs"][i].sum()
        top_finished = sum(1 for j in range(nt) if s["tile_floor"][i, j] == 2 and s["tile_finished"][i, j])
        assert s["roofs"][i].sum() <= top_finished
    for t in range(1, int(p[P.P_N_TILES])):
        assert s["supply"][t] + built[t] == p[P.P_TILE0 + t * P.TS + P.TF_COPIES]
    # characters: in a saloon or not yet in town
    assert ((s["char_owner"] >= -1) & (s["char_owner"] < n)).all()
    # open claims are scored once at most
    assert s["claims_n"][:n].sum() == (s["claim_by"] >= 0).sum()
    check_stake_cache(s, p)
    check_builds(s, p, int(s["cur"]))


def builds_by_rule(s, p, seat, card_build, ignore_lot, discount):
    """The builds gen_builds lists, spot by spot with queries.spot_free (the placement rule as written) and every
    tile type: in supply, allowed by the types built, fitting the spot's size and floor, affordable."""
    tb = int(s["types_built"][seat])
    masks = [int(x) for x in s["type_mask"]]
    out = []
    for f in range(state.NFLOORS):
        for fp in range(state.N_FP):
            if not queries.spot_free(s, seat, f, fp, p[P.P_R_FOOTPRINTS] != 0, masks[state.TM_LARGE]):
                continue
            for t in range(1, int(p[P.P_N_TILES])):
                req, forb = int(s["type_req"][t]), int(s["type_forbid"][t])
                if s["supply"][t] <= 0 or (req >= 0 and not (tb >> req) & 1) or (forb >= 0 and (tb >> forb) & 1):
                    continue
                if (masks[state.TM_LARGE] >> t) & 1 != state.FP_LARGE[fp]:
                    continue
                if not (masks[state.TM_F0 + f] >> t) & 1:
                    continue
                if fp != 0 and p[P.P_R_THEATER] == 0 and (masks[state.TM_ABOVE] >> t) & 1:
                    continue
                cost = max(int(p[P.P_TILE0 + t * P.TS + P.TF_COST]) - discount, 0) + (
                    0 if ignore_lot else queries.lot_gold(p, f, fp)
                )
                if cost > s["gold"][seat]:
                    continue
                out.append((t, f, fp))
    return out


def check_builds(s, p, seat):
    """gen_builds (the board read into bit masks) lists the builds the placement rule allows, in its order."""
    out = np.zeros(E.MAX_ACTIONS, np.int64)
    for card_build, ignore_lot, discount in ((False, False, 0), (True, True, 2), (True, False, 1)):
        k = actions.gen_builds(s, p, seat, out, 0, card_build, ignore_lot, discount)
        listed = [(actions.tile_of(a), actions.floor_of(a), actions.footprint_of(a)) for a in out[:k]]
        kind = actions.CARD_BUILD if card_build else actions.BUILD
        assert all(actions.kind_of(a) == kind for a in out[:k])
        assert listed == builds_by_rule(s, p, seat, card_build, ignore_lot, discount), (seat, card_build)


def check_stake_cache(s, p):
    """The stakeable claim slots equal the unstaked open claims and the kept secret claims, and every cached claim
    check of the stake list not made stale by s.stake_dirty equals the check recomputed from the state, with the same
    SC_* bits read (so a change the rules did not flag fails here)."""
    free = [j for j in range(int(s["n_open_up"])) if s["claim_by"][s["open_ids"][j]] < 0]
    assert s["stake_open"] == sum(1 << j for j in free)
    for i in range(int(s["n"])):
        kept = [h for h in range(state.MAX_SEC_HAND) if s["sec_state"][i, h] == state.SEC_KEPT]
        assert s["stake_kept"][i] == sum(1 << h for h in kept), (i, kept)
        stale = 0
        for c in range(state.N_SC):
            if (int(s["stake_dirty"][i]) >> c) & 1:
                stale |= int(s["stake_reads"][i, c])
        valid = int(s["stake_known"][i]) & ~stale
        for slot in range(64):
            if not (valid >> slot) & 1:
                continue
            ob = state.STAKE_OPEN_BITS
            g = int(s["open_ids"][slot]) if slot < ob else P.MAX_OPEN + slot - ob
            ok, reads = actions.claim_met(s, p, i, g)
            assert bool((int(s["stake_met"][i]) >> slot) & 1) == ok, (i, slot, g, ok)
            cached = sum(1 << c for c in range(state.N_SC) if (int(s["stake_reads"][i, c]) >> slot) & 1)
            assert cached == reads, (i, slot, g, cached, reads)


def random_game(n, seed, p, check_every=True):
    st = np.zeros(1, E.STATE_DTYPE)
    s = st[0]
    seed_streams(s["rng"], 99, seed)
    E.setup(s, p, n)
    out = np.zeros(E.MAX_ACTIONS, np.int64)
    steps = 0
    while not E.is_over(s):
        k = E.legal_actions(s, p, out)
        assert 1 <= k <= E.MAX_ACTIONS
        assert len(set(out[:k].tolist())) == k
        E.apply_action(s, p, out[rand_below(s["rng"], 1, k)])
        steps += 1
        assert steps < E.MAX_STEPS
        if check_every and s["phase"] == state.PH_PLAY:
            check_invariants(s, p)
    check_invariants(s, p)
    return st, s


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_play_invariants(n):
    p = GAME.params.defaults()
    for seed in range(6):
        st, s = random_game(n, seed, p)
        assert s["over"] in (1, 2)
        if s["over"] == 1:
            assert s["end_trig"] == 1 and s["pile"] == 0


ALTERNATIVE_READINGS = {
    "rule.saloon_finish_scores": "off",
    "rule.flatfoot_check": "end_of_turn",
    "rule.angie_counts_roofs": "off",
    "rule.phineus_counts": "bought_only",
    "rule.angie_discard_on_action_bonus": "off",
    "rule.bribe_target": "own_only",
    "rule.hand_limit_all_draws": "off",
    "rule.final_round_outlaw_triggers": "on",
    "rule.theater_position": "any_upper_floor",
    "rule.roof_when_pile_empty": "roof_anyway",
    "rule.large_footprints": "any_neighbour",
    "supply.roofs_large": 1,
}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_play_invariants_with_every_alternative_reading(n):
    p = GAME.params.resolve(ALTERNATIVE_READINGS)
    for seed in range(4):
        random_game(n, 100 + seed, p)


def run(players, games, lineup=None, params=None, seed=5):
    spec, design, pvec = prepare(GAME, (players,), games, lineup, None, False, params)
    return simulate(spec, design, pvec, seed, 0, design.total)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_game_ends_and_turn_parity(n):
    out = run(n, 300, lineup=["random"])
    assert (out["steps"] > 0).all()
    gi, si = out["game_int"], out["seat_int"]
    ended = gi[:, G("end_reason")] == 0
    assert ended.mean() > 0.95
    for g in np.nonzero(ended)[0]:
        k = gi[g, G("trigger_seat")]
        turns = si[g, :n, R("turns_taken")]
        assert si[g, :n, R("ended_game")].sum() == 1 and si[g, k, R("ended_game")] == 1
        for i in range(n):
            assert turns[i] == turns[k] + (1 if i < k else 0)
        # the Reputation sources add up and rank 1 holds the best score
        assert (si[g, :n, R("vp_tiles") : R("vp_unfinished") + 1].sum(axis=1) == si[g, :n, R("vp_total")]).all()
        best = si[g, :n, R("vp_total")].max()
        assert (si[g, :n, R("vp_total")][si[g, :n, R("rank")] == 1] == best).all()
        assert abs(out["seat_f"][g, :n, 1].sum() - 1.0) < 1e-9
        assert (si[g, :n, R("tiles_floor1")] >= 1).all()  # the Saloon


def test_default_heuristics_end_their_games_and_beat_random():
    out = run(4, 400)
    gi = out["game_int"]
    assert (gi[:, G("end_reason")] == 0).mean() > 0.97
    assert (gi[:, G("end_reason")] != 1).all()  # never the turn cap
    rounds = gi[:, G("rounds")]
    assert 8 <= np.median(rounds) <= 40
    # one heuristic against three random players, every seat in turn
    out = run(4, 400, lineup=["tall", "random", "random", "random"])
    strat = out["strat"]
    wins = out["seat_int"][:, :, R("win")]
    tall_slot = 0
    share = wins[strat == tall_slot].mean()
    assert share > 0.5


@pytest.mark.parametrize("name", ["tall", "wide", "claims", "rusher", "characters"])
def test_each_heuristic_plays_complete_games(name):
    out = run(3, 150, lineup=[name, name, name])
    assert (out["game_int"][:, G("end_reason")] == 0).mean() > 0.97


def test_archetypes_differ_the_way_they_are_meant_to():
    out = run(4, 400, lineup=["tall", "wide", "rusher", "characters"])
    si, strat = out["seat_int"], out["strat"]

    def mean(col, slot):
        return si[:, :, R(col)][strat == slot].mean()

    assert mean("tiles_floor3", 0) > mean("tiles_floor3", 1)  # tall builds up
    assert mean("vp_lots", 1) > mean("vp_lots", 0)  # wide takes outer lots
    assert mean("citizens", 3) > mean("citizens", 1)  # the character player collects


def test_determinism_and_items():
    a = run(4, 64)
    b = run(4, 64)
    for key in ("game_int", "seat_int", "seat_f", "items", "n_items", "steps"):
        assert np.array_equal(a[key], b[key])
    c = run(4, 64, seed=6)
    assert not np.array_equal(a["seat_int"], c["seat_int"])
    # items: tiles built match the tile counts; characters at the end match the seat columns
    for g in range(64):
        rows = a["items"][g, : a["n_items"][g]]
        for i in range(4):
            mine = rows[rows[:, 0] == i]
            tiles = ((mine[:, 1] >= state.IT_TILE) & (mine[:, 1] < state.IT_ROOF_S)).sum()
            si = a["seat_int"][g, i]
            assert tiles == si[R("tiles_floor1")] + si[R("tiles_floor2")] + si[R("tiles_floor3")] - 1
            roofs = ((mine[:, 1] == state.IT_ROOF_S) | (mine[:, 1] == state.IT_ROOF_L)).sum()
            assert roofs == si[R("roofs")]
            chars = ((mine[:, 1] >= state.IT_CHAR) & (mine[:, 1] < E.N_ITEM_IDS)).sum()
            assert chars == si[R("citizens")] + si[R("outlaws")]
            claims = ((mine[:, 1] >= state.IT_CLAIM) & (mine[:, 1] < state.IT_CARD)).sum()
            assert claims == si[R("claims")]
            cards = ((mine[:, 1] >= state.IT_CARD) & (mine[:, 1] < state.IT_CHAR)).sum()
            assert cards == si[R("cards_played")]
    assert len(GAME.item_names) == E.N_ITEM_IDS == len(GAME.item_kinds)


def test_replay_text(tmp_path):
    from sim.replay import replay_text
    from sim.runner import run_study

    folder = run_study("saloon_tycoon", tmp_path / "run", games=4, progress=False)
    lines = replay_text(folder, 1)
    text = "\n".join(lines)
    assert "takes" in text and "gold income" in text
    assert "ends the turn" in text and "Result:" in text
    assert any("builds" in ln for ln in lines) and any("finishes" in ln for ln in lines)
    assert "event " not in text and "action " not in text  # every row has words


@pytest.mark.parametrize("n", [2, 3, 4])
def test_standings_count_the_final_scoring_now_and_rank_like_the_outcome(n):
    """standings: at setup every seat stands at its unfinished Saloon's end points; the round count never goes back
    and ends at the completed rounds; at the end the standings are the Reputation write_outcome ranks by (then
    gold, then claims under rule.tie_claims)."""
    p = GAME.params.defaults()
    standing = np.zeros(E.MAX_PLAYERS, np.int64)
    for seed in range(4):
        st = np.zeros(1, E.STATE_DTYPE)
        s = st[0]
        seed_streams(s["rng"], 99, seed)
        E.setup(s, p, n)
        assert E.standings(s, p, standing) == 0
        assert (standing[:n] == int(p[P.P_UNF_L])).all()  # only the unfinished Saloon, scored as large
        out = np.zeros(E.MAX_ACTIONS, np.int64)
        last = 0
        while not E.is_over(s):
            E.apply_action(s, p, out[rand_below(s["rng"], 1, E.legal_actions(s, p, out))])
            r = E.standings(s, p, standing)
            assert last <= r <= last + 1
            last = r
        assert last == s["turn_total"] // n
        game_int = np.zeros(len(E.GAME_COLUMNS), np.int64)
        seat_int = np.zeros((E.MAX_PLAYERS, len(E.SEAT_COLUMNS)), np.int64)
        seat_f = np.zeros((E.MAX_PLAYERS, 2))
        items = np.zeros((E.MAX_ITEMS, 3 + len(GAME.item_columns)), np.int64)
        E.write_outcome(s, p, game_int, seat_int, seat_f, items)
        assert (standing[:n] == seat_int[:n, R("vp_total")]).all()
        key = [(standing[i], s["gold"][i], s["claims_n"][i]) for i in range(n)]
        assert [1 + sum(k > key[i] for k in key) for i in range(n)] == list(seat_int[:n, R("rank")])


@pytest.mark.parametrize("reading", [{}, ALTERNATIVE_READINGS])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_quick_choice_is_choose_on_the_legal_list(reading, n):
    # The kernel takes the main-step decisions from quick_choice, generated in the list's order and scored as found
    # (bribes that cannot pay skipped), instead of choose on the legal list: at every main-step decision of random
    # games and of bot games, for every preset and for all-zero weights (everything ties: the tie draws), it names
    # the action choose picks from the list (End turn when it is the only action: decide then asks no strategy, and
    # the stream is untouched) and leaves the policy stream where choose leaves it; -1 for every other decision
    from strategies import saloon_tycoon as S

    p = GAME.params.resolve(reading)
    names = [x.name for x in S.STRATEGIES]
    W = GAME.weights_matrix(names)
    W = np.vstack([W, np.zeros(W.shape[1])])
    sids = [GAME.strategy(x).sid for x in names] + [GAME.strategy(names[0]).sid]
    out = np.zeros(E.MAX_ACTIONS, np.int64)
    st = np.zeros(1, E.STATE_DTYPE)
    s = st[0]
    seen = bought = bribes = alone = 0
    for seed in range(6):
        bots = seed % 2 == 1  # odd seeds: the presets move; even: random moves
        seed_streams(s["rng"], 47, seed)
        E.setup(s, p, n)
        while not E.is_over(s):
            k = E.legal_actions(s, p, out)
            seat = int(E.current_player(s))
            main = s["phase"] == state.PH_PLAY and s["n_tasks"] == 0
            for sid, w in zip(sids, W, strict=True):
                saved = s["rng"].copy()
                a = S.quick_choice(s, p, seat, sid, w)
                after = s["rng"].copy()
                s["rng"][:] = saved
                if not main:
                    assert a == -1 and (after == saved).all()
                    continue
                if k == 1:
                    assert a == out[0] and (after == saved).all()
                    alone += 1
                else:
                    j = S.choose(s, p, seat, out, k, sid, w)
                    assert a == out[j] and (after == s["rng"]).all(), (seed, seat, sid, a, out[j])
                    kinds = [actions.kind_of(x) for x in out[:k]]
                    bought += kinds[j] == actions.BUY and actions.EARN in kinds  # a cube before a Tycoon action
                    bribes += actions.BRIBE in kinds
                s["rng"][:] = saved
                seen += 1
            if bots:
                j = seat % len(W)
                i = 0 if k == 1 else S.choose(s, p, seat, out, k, sids[j], W[j])
            else:
                i = rand_below(s["rng"], 1, k)
            E.apply_action(s, p, out[i])
    assert seen > 3000 and bribes > 300 and bought > 30 and alone > 50, (seen, bribes, bought, alone)
