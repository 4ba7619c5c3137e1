"""Gunny Town under play: invariants checked after every action of random and scripted games for every player
count, every game ends, determinism, the outcome tables, the CLI path (run + replay), the heuristics against
random play, the casino-cap option."""

import numpy as np
import pandas as pd
import pytest

from sim.games.gunny_town import GAME
from strategies.gunny_town import KNOBS
from sim.games.gunny_town import engine as E
from sim.kernel import new_states
from sim.replay import replay_text
from sim.rng import rand_below, seed_streams
from sim.runner import prepare, run_study, simulate
from strategies import gunny_town as S

AMMO_CARDS = 30


def check_invariants(s, pv):
    n = s["n"]
    assert (s["gold"][:n] >= 0).all(), "gold never negative"
    assert ((s["lp"][:n] >= 0) & (s["lp"][:n] <= pv[GAME.params.index("limits.lp_max")])).all(), "life within 0-3"
    assert (s["hand"][:n] >= 0).all() and (s["hand"][:n].sum(axis=1) <= 6).all(), "hand at most 6"
    in_play = 1 if s["phase"] == E.PH_DCARD else 0  # the challenger's face-down card
    assert s["n_adeck"] + s["n_adisc"] + s["hand"].sum() + in_play == AMMO_CARDS, "ammunition cards conserved"
    assert s["n_cdeck"] + s["n_cdisc"] == 10
    assert s["n_sdeck"] + s["n_sdisc"] + (s["secret"][:n] >= 0).sum() == 8, "secret cards conserved"
    for j in range(6):
        h = s["job_holder"][j]
        assert h < 0 or s["job"][h] == j
    for q in range(n):
        assert s["job"][q] < 0 or s["job_holder"][s["job"][q]] == q
        assert s["vp"][q] >= 0 and s["vp"][q] >= s["vp_mis"][q] + s["vp_sec"][q] - s["jail_visits"][q]
        owned = (s["store_owner"] == q).sum()
        assert owned <= 4
    assert 0 <= s["cur"] < n


def play_checked(n, seed, params=None, strategies=None, max_steps=20000):
    """One game stepped in Python through the jitted rules, invariants checked after every action."""
    pv = GAME.params.resolve(params or {})
    st = new_states(E, 1)
    s = st[0]
    seed_streams(s["rng"], np.uint64(seed), n)
    E.setup(s, pv, n)
    check_invariants(s, pv)
    legal = np.zeros(E.MAX_ACTIONS, np.int64)
    if strategies:
        specs = [GAME.strategy(strategies[i % len(strategies)]) for i in range(n)]
        W = GAME.weights_matrix([sp.name for sp in specs])
    steps = 0
    while not E.is_over(s):
        k = E.legal_actions(s, pv, legal)
        assert k >= 1
        assert len(set(legal[:k].tolist())) == k, "no duplicate legal actions"
        seat = E.current_player(s)
        if k == 1:
            i = 0
        elif strategies and specs[seat].sid != 0:
            i = S.choose(s, pv, seat, legal, k, specs[seat].sid, W[seat])
            assert 0 <= i < k
        else:
            i = rand_below(s["rng"], 1, k)
        E.apply_action(s, pv, legal[i])
        check_invariants(s, pv)
        steps += 1
        assert steps < max_steps, "every game ends"
    return s, pv, steps


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_play_invariants(n):
    for seed in range(6):
        s, pv, steps = play_checked(n, seed)
        assert s["end_reason"] in (E.END_VP, E.END_MISSIONS, E.END_CAP)
        if s["end_reason"] == E.END_VP:
            assert s["vp"][:n].max() >= 15
        # the round is finished: every player had the same number of turns, the ones skipped in jail included
        for q in range(n):
            assert s["turns_played"][q] + s["jail_visits"][q] - s["skip"][q] == s["rnd"]


@pytest.mark.parametrize("n", [3, 4, 6])
def test_scripted_play_invariants(n):
    names = ["gunslinger", "businessman", "lawman", "gambler", "mission_chaser", "gambler_all_in"]
    for seed in range(4):
        s, pv, steps = play_checked(n, 100 + seed, strategies=names[seed % 6 :] + names[: seed % 6])
        assert s["end_reason"] in (E.END_VP, E.END_MISSIONS, E.END_CAP)


OPTION_SETS = [
    {"rule.several_weapons": "on", "rule.duels_per_side": 0, "deck.ammo": "anatomical", "option.banker": "on"},
    {
        "rule.entry_uses_action": "on",
        "rule.min_move": 0,
        "rule.extra_move_uses_action": "off",
        "rule.move_ends_on_location": "on",
        "rule.store_one_subaction": "on",
        "casino.bet_cap": 1,
    },
    {
        "rule.secret_anytime": "on",
        "rule.neighbour": "previous",
        "rule.finish_round": "off",
        "rule.overmatched_equal": "cancel",
        "rule.fort_bonus": "gn",
        "setup.start_ammo": "fixed",
        "rule.weapon_range": "off",
        "rule.undertaker_self": "on",
        "rule.secret_in_limit": "off",
        "casino.payout": "gross",
        "setup.start_gold": 2,
        "jail.lp_after": 1,
    },
]


@pytest.mark.parametrize("opts", OPTION_SETS)
def test_options_keep_the_invariants(opts):
    for n in (3, 5):
        play_checked(n, 7, params=opts)
        play_checked(n, 8, params=opts, strategies=["mission_chaser", "gunslinger", "gambler"])


def sim(players, games, seed=1, lineup=None, strategies=None, params=None):
    spec, design, pvec = prepare("gunny_town", (players,), games, lineup=lineup, strategies=strategies, params=params)
    return simulate(spec, design, pvec, seed, 0, games), design


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_every_game_ends_and_outcomes_are_consistent(n):
    lineups = [["random"], ["mission_chaser", "gunslinger"]]
    col = {c: i for i, c in enumerate(GAME.seat_columns)}
    for lineup in lineups:
        out, _ = sim(n, 150, lineup=lineup)
        assert (out["steps"] > 0).all(), "no game hit the step cap"
        gi = out["game_int"]
        assert set(np.unique(gi[:, 2])) <= {1, 2, 3}
        if lineup != ["random"]:
            # random players rarely complete missions (2-player random games can reach the safety cap);
            # the scripted ones finish their games
            assert (gi[:, 2] == 3).mean() < 0.05, "games stopped by the round cap are rare"
        si = out["seat_int"][:, :n]
        sf = out["seat_f"][:, :n]
        assert np.allclose(sf[:, :, 1].sum(axis=1), 1.0)
        assert ((si[:, :, col["win"]] == 1) == (si[:, :, col["rank"]] == 1)).all()
        assert (
            si[:, :, col["vp_total"]]
            == si[:, :, col["vp_missions"]] + si[:, :, col["vp_secret"]] + si[:, :, col["vp_other"]]
        ).all()
        assert (si[:, :, col["vp_other"]] <= 0).all()
        assert (si[:, :, col["gold"]] >= 0).all()
        assert (si[:, :, col["duels_won"]] <= 3 * si[:, :, col["duels_fought"]]).all()
        assert (sf[:, :, 0] == si[:, :, col["vp_total"]]).all()
        assert list(si[0, :, col["order"]]) == list(range(n))
        items = out["items"]
        for g in range(len(items)):
            m = out["n_items"][g]
            assert (items[g, :m, 1] >= 0).all() and (items[g, :m, 1] < E.N_ITEM_IDS).all()
            assert (items[g, :m, 0] < n).all()
        # missions completed recorded as items = missions + secret missions counted per seat
        mission_items = (
            (items[:, :, 1] >= E.IT_MISSION)
            & (items[:, :, 1] < E.IT_ENTRY)
            & (np.arange(items.shape[1])[None, :] < out["n_items"][:, None])
        ).sum()
        assert mission_items == si[:, :, col["missions"]].sum() + si[:, :, col["secret_missions"]].sum()


def test_determinism_and_seed_sensitivity():
    a, _ = sim(4, 200, seed=5)
    b, _ = sim(4, 200, seed=5)
    c, _ = sim(4, 200, seed=6)
    for key in ("game_int", "seat_int", "seat_f", "items", "steps"):
        assert np.array_equal(a[key], b[key])
    assert not np.array_equal(a["seat_f"], c["seat_f"])


def win_share(out, design, name):
    slot = design.slots.index(name)
    m = out["strat"] == slot
    return out["seat_f"][:, :, 1][m].mean()


@pytest.mark.parametrize("name", ["mission_chaser", "gunslinger"])
def test_heuristics_beat_random(name):
    out, design = sim(4, 800, lineup=[name, "random", "random", "random"])
    share = win_share(out, design, name)
    assert share > 0.5, share  # a fair seat would get 0.25


def test_casino_cap_option_curbs_the_gambler():
    lineup = ["gambler_all_in", "mission_chaser", "gunslinger"]
    col = GAME.seat_columns.index("casino_net")
    free, design = sim(3, 400, lineup=lineup)
    capped, _ = sim(3, 400, lineup=lineup, params={"casino.bet_cap": 1})
    slot = design.slots.index("gambler_all_in")
    net_free = np.abs(free["seat_int"][:, :, col][free["strat"] == slot]).mean()
    net_cap = np.abs(capped["seat_int"][:, :, col][capped["strat"] == slot]).mean()
    assert net_cap < net_free
    assert np.abs(capped["seat_int"][:, :, col][capped["strat"] == slot]).max() <= 3 * 40


def test_run_study_tables_and_replay(tmp_path):
    run = run_study("gunny_town", tmp_path / "r", games=300, players=(3, 4), seed=3, chunk_size=150, progress=False)
    seats = pd.read_parquet(run / "seats")
    items = pd.read_parquet(run / "items")
    games = pd.read_parquet(run / "games")
    assert len(games) == 600 and len(seats) == 300 * 3 + 300 * 4
    for c in (
        "vp_missions",
        "vp_secret",
        "vp_other",
        "gold",
        "duels_fought",
        "duels_won",
        "jail_visits",
        "jobs_held",
        "stores_owned",
        "casino_net",
        "rank",
        "win",
        "order",
    ):
        assert c in seats.columns
    assert np.allclose(seats.groupby("game").win_share.sum(), 1.0)
    kinds = set(items.kind.astype(str))
    assert {"weapon", "job", "mission_t1", "start"} <= kinds
    assert set(games.end_reason.astype(str)) <= {"vp_target", "missions_out", "round_cap"}
    lines = replay_text(run, 0)
    text = "\n".join(lines)
    assert "enters at the" in text and "Result:" in text and "turn" in text
    assert len(lines) > 30


def test_knobs_and_presets():
    assert tuple(KNOBS) == tuple(S.KNOBS)
    for spec in GAME.strategies:
        assert len(spec.weights) == len(KNOBS), spec.name
        assert 1 <= spec.sid <= 5
        # a mission VP is worth several GN to every preset (15 VP win; gold buys VP only through missions): valued
        # at about 1 GN, the businessman never paid for a store mission and lost head to head 20% to 30%
        w = dict(zip(KNOBS, spec.weights))
        assert w["mission_vp"] >= 2 * w["gold"], spec.name
    assert {sp.sid for sp in GAME.strategies} == {1, 2, 3, 4, 5}
    assert GAME.assumed_components and "ASSUMED" in GAME.assumed_components
