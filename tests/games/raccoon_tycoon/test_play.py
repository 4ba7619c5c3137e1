"""Raccoon Tycoon under play: invariants checked after every action of random games (all player counts and rule
readings), every scripted strategy legal in every seat and player count, outcome rows consistent."""

import numba as nb
import numpy as np
import pytest

from sim.games.raccoon_tycoon import GAME
from sim.games.raccoon_tycoon import engine as E
from sim.games.raccoon_tycoon import params as P
from sim.kernel import load_kernel
from sim.rng import rand_below, seed_streams
import strategies.raccoon_tycoon as B

ITEM_WIDTH = 3 + len(GAME.item_columns)  # an items row: seat, item, round, price
# error codes of the checked playout
OK, NO_LEGAL, MONEY, TOKENS, PRICE, HAND, STORAGE, CAPPED, TURNS, ILLEGAL = range(10)


@nb.njit(cache=True)
def _check(s, p, n, supply):
    for seat in range(n):
        if s.money[seat] < 0:
            return MONEY
        if s.hand_n[seat] > E.hand_limit(s, p, seat):
            return HAND
        ph = s.phase
        mid = (
            ph == E.PH_DISCARD or ph == E.PH_TF_TARGET or ph == E.PH_TF_QTY or ph == E.PH_BONUS or ph == E.PH_BONUS_ANY
        )
        if not (mid and seat == s.cur) and E.total_hold(s, seat) > E.storage_cap(s, p, seat):
            return STORAGE
    for c in range(E.NC):
        t = s.supply[c]
        for seat in range(n):
            if s.hold[seat, c] < 0:
                return TOKENS
            t += s.hold[seat, c]
        if t != supply or s.supply[c] < 0:
            return TOKENS
        if s.price[c] < s.pmin[c] or s.price[c] > s.pmax[c]:
            return PRICE
    return OK


@nb.njit(cache=True)
def checked_random_games(st, p, n, games, seed, out_steps, out_turns):
    """Play `games` uniform-random games, checking the invariants after every action; returns the first error."""
    legal = np.empty(E.MAX_ACTIONS, np.int64)
    supply = np.int64(p[P.P_SUPPLY])
    for g in range(games):
        s = st[0]
        seed_streams(s.rng, seed, g)
        E.setup(s, p, n)
        steps = 0
        while not E.is_over(s):
            k = E.legal_actions(s, p, legal)
            if k < 1:
                return NO_LEGAL
            a = legal[rand_below(s.rng, 1, k)]
            E.apply_action(s, p, a)
            err = _check(s, p, n, supply)
            if err != OK:
                return err
            steps += 1
            if steps > E.MAX_STEPS:
                return CAPPED
        out_steps[g] = steps
        lo = s.turns_taken[0]
        hi = s.turns_taken[0]
        for seat in range(n):
            lo = min(lo, s.turns_taken[seat])
            hi = max(hi, s.turns_taken[seat])
        out_turns[g] = hi - lo
    return OK


READINGS = [
    {},
    {
        "rule.production_take": "up_to",
        "rule.auction_open": "may_decline",
        "rule.price_floor": "refuse",
        "rule.upgrade_cost": "difference",
        "rule.empty_deck": "stop",
        "rule.freight_same_commodity": "on",
    },
    {
        "option.beginner": "on",
        "rule.free_token_choice": "random",
        "rule.refill": "every_turn",
        "rule.auction_house_own": "off",
        "rule.trading_firm_own": "off",
        "rule.two_player_auction": "off",
    },
    {
        "option.basic_tiles_by_players": "on",
        "rule.supply_limited": "on",
        "limits.supply": 12,
        "rule.export_each_sale": "off",
        "rule.upgrade_same_turn": "on",
        "option.sudden_death": "on",
        "option.sudden_death_money": 40,
    },
]


@pytest.mark.parametrize("reading", range(len(READINGS)))
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_invariants_under_random_play(reading, n):
    p = P.resolve(READINGS[reading])
    games = 40
    steps = np.zeros(games, np.int64)
    turns = np.zeros(games, np.int64)
    err = checked_random_games(np.zeros(1, E.STATE_DTYPE), p, n, games, 1000 + reading, steps, turns)
    assert err == OK, f"invariant broken: code {err}"
    assert (steps > 0).all()  # every game ended
    if "option.sudden_death" not in READINGS[reading]:
        assert (turns == 0).all()  # everyone had the same number of turns


def _batch(n, lineup, games=60, seed=5, overrides=None):
    k = load_kernel(GAME)
    p = GAME.params.resolve(overrides or {})
    names = ["random"] + [s.name for s in GAME.strategies]
    W = GAME.weights_matrix(names)
    sids = np.array([GAME.strategy(x).sid for x in names], np.int64)
    slots = [names.index(x) for x in lineup]
    states = np.zeros(games, E.STATE_DTYPE)
    strat = np.zeros((games, E.MAX_PLAYERS), np.int64)
    for i in range(games):
        for j in range(n):
            strat[i, j] = slots[(j + i) % len(slots)]
    gi = np.zeros((games, len(E.GAME_COLUMNS)), np.int64)
    si = np.zeros((games, E.MAX_PLAYERS, len(E.SEAT_COLUMNS)), np.int64)
    sf = np.zeros((games, E.MAX_PLAYERS, 2))
    it = np.zeros((games, E.MAX_ITEMS, ITEM_WIDTH), np.int64)
    ni = np.zeros(games, np.int64)
    st = np.zeros(games, np.int64)
    k.play_batch(states, p, seed, np.arange(games), np.full(games, n), strat, sids, W, gi, si, sf, it, ni, st)
    return states, gi, si, sf, it, ni, st


COL = {c: i for i, c in enumerate(E.SEAT_COLUMNS)}


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_strategy_plays_legally_in_every_seat(n):
    lineup = [s.name for s in GAME.strategies][:5]
    lineup = (lineup * 2)[: max(n, 5)]
    states, gi, si, sf, it, ni, st = _batch(n, lineup, games=50)
    assert (st > 0).all(), "a game hit the step cap"
    assert (gi[:, 2] > 0).all()  # ended by towns or railroads
    for g in range(len(st)):
        rows = si[g, :n]
        vp = rows[:, COL["vp_total"]]
        parts = rows[:, [COL[c] for c in ("vp_towns", "vp_railroads", "vp_buildings", "vp_pairs", "vp_bonus")]]
        assert (parts.sum(1) == vp).all()
        assert (rows[:, COL["money"]] >= 0).all()
        assert abs(sf[g, :n, 1].sum() - 1.0) < 1e-9
        assert rows[:, COL["win"]].sum() >= 1 and (rows[rows[:, COL["win"]] == 1, COL["rank"]] == 1).all()
        assert sorted(rows[:, COL["order"]]) == list(range(n))
        assert len(set(rows[:, COL["turns"]])) == 1
        assert list(rows[:, COL["compensation"]][np.argsort(rows[:, COL["order"]])]) == list(range(1, n + 1))
        # items: one row per acquisition; railroads and towns match the seat counts
        items = it[g, : ni[g]]
        for seat in range(n):
            mine = items[items[:, 0] == seat]
            assert (mine[:, 1] >= E.IT_RR0).sum() == rows[seat, COL["towns"]] + rows[seat, COL["railroads"]]
            assert ((mine[:, 1] >= E.IT_RR0) & (mine[:, 1] < E.IT_TOWN0)).sum() == rows[seat, COL["auctions_won"]]
            assert (mine[:, 1] < E.IT_UPGRADE0).sum() == rows[seat, COL["buildings"]]
        assert (items[:, 2] >= 1).all() and (items[:, 2] <= gi[g, 1]).all()
        sold = rows[:, COL["commodities_sold"]]
        rev = rows[:, COL["sale_revenue"]]
        assert ((rev >= sold) & (rev <= 14 * sold)).all()  # average sale price within the tracks ($1-$14)


@nb.njit(cache=True)
def _quick_vs_list(st, p, n, games, seed, sids, W, counts):
    """Bot and random seats (sids[seat], weights W[seat]) play `games` games; at every decision of a bot,
    strategies' quick_choice (asked first, on the same state) is compared with the legal list.
    - A bid in an auction of more than two players: the bidding rule applied to the list: the lowest bid while it
      is within the limit (or when passing is not allowed), else the pass; when money only breaks ties, the highest
      listed bid within the limit.
    - A main-phase decision: the action choose picks from the list (none asked when one action is listed), and
      the policy stream left as choose leaves it.
    - Any other decision: no quick answer.
    counts: [bids compared, differing, jumps, not listed, main decisions compared, differing, streams differing,
    other decisions answered]."""
    legal = np.empty(E.MAX_ACTIONS, np.int64)
    for g in range(games):
        s = st[0]
        seed_streams(s.rng, seed, g)
        E.setup(s, p, n)
        steps = 0
        while not E.is_over(s) and steps < E.MAX_STEPS:
            seat = np.int64(E.current_player(s))
            sid = sids[seat]
            phase = s.phase
            stream = s.rng[1]
            a = B.quick_choice(s, p, seat, sid, W[seat]) if sid > 0 else -1
            quick_stream = s.rng[1]
            s.rng[1] = stream
            k = E.legal_actions(s, p, legal)
            if sid == 0:
                j = rand_below(s.rng, 1, k)
            else:
                j = 0 if k == 1 else B.choose(s, p, seat, legal, k, sid, W[seat])
            if sid > 0 and phase == E.PH_AUCTION and not E.two_player_auction(s, p):
                lim = B.bid_limit(s, p, seat, W[seat])
                pas = -1
                top = -1  # the highest listed bid within the limit
                for i in range(k):
                    if E.kind_of(legal[i]) == E.A_BID:
                        if E.amount_of(legal[i]) <= lim:
                            top = i
                    else:
                        pas = i
                lowest = 0 if E.kind_of(legal[0]) == E.A_BID else -1
                if lowest >= 0 and top >= 0 and B._last_card(s, W[seat]):
                    ref = legal[top]
                    counts[2] += 1
                elif lowest >= 0 and (top >= 0 or pas < 0):
                    ref = legal[lowest]
                else:
                    ref = legal[pas]
                counts[0] += 1
                if a != ref:
                    counts[1] += 1
                listed = False
                for i in range(k):
                    listed = listed or legal[i] == a
                if not listed:
                    counts[3] += 1
            elif sid > 0 and phase == E.PH_MAIN:
                counts[4] += 1
                if a != legal[j]:
                    counts[5] += 1
                if quick_stream != s.rng[1]:
                    counts[6] += 1
            elif a >= 0:
                counts[7] += 1
            E.apply_action(s, p, legal[j])
            steps += 1


@pytest.mark.parametrize("reading", [{}, {"rule.auction_open": "may_decline"}])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_quick_bids_are_the_bidding_rule_on_the_legal_list(reading, n):
    """The bids the kernel takes from quick_choice without building the legal list (two decisions in three) are the
    ones the bidding rule picks from the list, and are listed: the same games as through the list."""
    names = [s.name for s in GAME.strategies]
    line = ["random", *names[:4]]
    sids = np.array([GAME.strategy(x).sid for x in line], np.int64)
    W = GAME.weights_matrix(line)
    counts = np.zeros(8, np.int64)
    _quick_vs_list(np.zeros(1, E.STATE_DTYPE), P.resolve(reading), n, 40, 11 + n, sids, W, counts)
    assert counts[0] > 1000 and counts[2] > 0  # plain bids and last-card jumps both seen
    assert counts[1] == 0 and counts[3] == 0 and counts[7] == 0


@pytest.mark.parametrize("reading", range(len(READINGS)))
@pytest.mark.parametrize("n", [2, 4, 5])
def test_quick_main_decisions_are_chooses_on_the_legal_list(reading, n):
    """The main-phase actions quick_choice generates and scores without the list (productions and sales in the
    list's order) are the ones choose picks from the list, with the policy stream advanced alike, under every
    reading (production 'up to', the price floor, sudden death, ...) and with every preset; random seats vary the
    positions."""
    names = [s.name for s in GAME.strategies]
    line = ["random", *names]
    sids = np.array([GAME.strategy(x).sid for x in line], np.int64)
    W = GAME.weights_matrix(line)
    order = np.random.default_rng(n + 7 * reading).permutation(len(line))[:n]
    counts = np.zeros(8, np.int64)
    p = P.resolve(READINGS[reading])
    _quick_vs_list(np.zeros(1, E.STATE_DTYPE), p, n, 30, 5 + n, sids[order], W[order], counts)
    assert counts[4] > 500
    assert counts[5] == 0 and counts[6] == 0 and counts[7] == 0


@pytest.mark.parametrize("n", [3, 5])
def test_the_kernel_plays_the_games_its_move_by_move_replay_plays(n):
    """play_batch takes the auction bids from quick_choice; play_logged (sim replay) asks choose on the legal list
    for every decision: every game ends with the same scores and the same number of moves."""
    lineup = [s.name for s in GAME.strategies][:5]
    states, gi, si, sf, it, ni, st = _batch(n, lineup, games=12, seed=8)
    k = load_kernel(GAME)
    p = GAME.params.resolve({})
    names = ["random"] + [s.name for s in GAME.strategies]
    W = GAME.weights_matrix(names)
    sids = np.array([GAME.strategy(x).sid for x in names], np.int64)
    slots = [names.index(x) for x in lineup]
    for g in range(12):
        strat_row = np.zeros(E.MAX_PLAYERS, np.int64)
        for j in range(n):
            strat_row[j] = slots[(j + g) % len(slots)]
        moves = np.zeros((E.MAX_STEPS, 4), np.int64)
        events = np.zeros((20000, 5), np.int32)
        one = [np.zeros_like(x[:1][0]) for x in (gi, si, sf, it)]
        t, _, _ = k.play_logged(
            np.zeros(1, E.STATE_DTYPE),
            p,
            np.uint64(8),
            g,
            n,
            strat_row,
            sids,
            W,
            moves,
            events,
            np.zeros(20000, np.int64),
            *one,
        )
        assert t == st[g]
        assert np.array_equal(one[2][:n], sf[g, :n])


def test_heuristics_beat_random():
    """The scripted players should beat uniform random play by a wide margin (a sanity check of the bots)."""
    states, gi, si, sf, it, ni, st = _batch(4, ["balanced", "random", "random", "random"], games=80)
    strat_is_bot = np.zeros((80, 4), bool)
    for i in range(80):
        strat_is_bot[i, (0 - i) % 4] = True
    share = sf[:, :4, 1][strat_is_bot].mean()
    assert share > 0.5


def test_replay_text_covers_every_event_and_action():
    from sim.games.raccoon_tycoon.text import action_text, event_text

    k = load_kernel(GAME)
    p = GAME.params.resolve({})
    names = ["random"] + [s.name for s in GAME.strategies]
    W = GAME.weights_matrix(names)
    sids = np.array([GAME.strategy(x).sid for x in names], np.int64)
    states = np.zeros(1, E.STATE_DTYPE)
    moves = np.zeros((E.MAX_STEPS, 4), np.int64)
    events = np.zeros((20000, 5), np.int32)
    ev_step = np.zeros(20000, np.int64)
    strat_row = np.array([1, 2, 3, 5, 0], np.int64)
    t, n_ev, n_it = k.play_logged(
        states,
        p,
        3,
        0,
        4,
        strat_row,
        sids,
        W,
        moves,
        events,
        ev_step,
        np.zeros(len(E.GAME_COLUMNS), np.int64),
        np.zeros((E.MAX_PLAYERS, len(E.SEAT_COLUMNS)), np.int64),
        np.zeros((E.MAX_PLAYERS, 2)),
        np.zeros((E.MAX_ITEMS, ITEM_WIDTH), np.int64),
    )
    assert t > 0 and n_ev > t
    lines = [event_text(events[i], ["A", "B", "C", "D"]) for i in range(n_ev)]
    assert not any(x.startswith("event ") for x in lines)
    assert any("wins the" in x for x in lines) and lines[-1].startswith("game over")
    acts = [action_text(moves[i, 1]) for i in range(t)]
    assert not any(x.startswith("unknown") for x in acts)


def test_items_table_records_the_price_paid(tmp_path):
    """Every building, railroad and town in the items table carries the price paid; railroads at least their
    minimum bid, and the per-seat auction spend equals the railroads' prices."""
    import pandas as pd
    from sim.runner import run_study

    run = run_study("raccoon_tycoon", tmp_path / "r", games=60, players=(4,), seed=2, progress=False)
    items = pd.read_parquet(run / "items")
    seats = pd.read_parquet(run / "seats")
    assert "price" in items and len(items) > 0
    rails = items[items.kind.astype(str) == "railroad"]
    assert len(rails) > 0 and (rails.price > 0).all()
    spend = rails.groupby(["game", "seat"]).price.sum()
    joined = seats.set_index(["game", "seat"]).auction_spend.reindex(spend.index)
    assert (joined.values == spend.values).all()


@pytest.mark.parametrize("n", [2, 5])
def test_standings_follow_the_game_and_end_as_the_outcome_ranks(n):
    """standings(s, p, out): the round count never decreases and grows by one per round (every seat has had a turn);
    at the end out is each seat's VP total of write_outcome, and a seat with more VP is ranked ahead (money only
    breaks VP ties; no sudden death in the default rules)."""
    from tests.harness import Harness

    H = Harness(GAME)
    rng = np.random.default_rng(n)
    out = np.zeros(E.MAX_PLAYERS, np.int64)
    for g in range(3):
        s, p = H.fresh(n, seed=g)
        rounds = [E.standings(s, p, out)]
        while not E.is_over(s):
            legal = H.legal(s, p)
            E.apply_action(s, p, legal[int(rng.integers(len(legal)))])
            rounds.append(E.standings(s, p, out))
            assert (out[:n] >= 0).all()
        steps = np.diff(rounds)
        assert rounds[0] == 0 and ((steps == 0) | (steps == 1)).all()
        assert rounds[-1] == min(s["turns_taken"][:n]) and rounds[-1] >= s["rnd"] - 1
        si = np.zeros((E.MAX_PLAYERS, len(E.SEAT_COLUMNS)), np.int64)
        E.write_outcome(
            s,
            p,
            np.zeros(len(E.GAME_COLUMNS), np.int64),
            si,
            np.zeros((E.MAX_PLAYERS, 2)),
            np.zeros((E.MAX_ITEMS, ITEM_WIDTH), np.int64),
        )
        assert (out[:n] == si[:n, E.SEAT.vp_total]).all()
        for i in range(n):
            for j in range(n):
                if out[i] > out[j]:
                    assert si[i, E.SEAT.rank] < si[j, E.SEAT.rank]
