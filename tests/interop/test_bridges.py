"""The OpenSpiel and PettingZoo bridges (issue 39): the peers' own test suites on every game, their players
finishing games, and the bridge playing exactly the engine's game."""

import json
import subprocess
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")  # only users without the interop extra skip: make test installs it
pettingzoo_test = pytest.importorskip("pettingzoo.test")

from sim.game import game_names, get_game  # noqa: E402
from sim.interop import openspiel as osp  # noqa: E402
from sim.interop.core import ActionIndex  # noqa: E402
from sim.interop.pettingzoo import env  # noqa: E402

GAMES = game_names()


def counts(name):
    lo, hi = get_game(name).players
    return sorted({lo, hi})


@pytest.mark.parametrize("name,players", [(g, n) for g in GAMES for n in counts(g)])
def test_pettingzoo_api_and_seed(name, players):
    pettingzoo_test.api_test(env(name, players=players), num_cycles=40)
    pettingzoo_test.seed_test(lambda: env(name, players=players), num_cycles=40)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulation(name):
    g = osp.game(name, players=get_game(name).players[0], seed=3)
    # the legal-action mask has one entry per action id: millions in three games, so it is checked where small
    pyspiel.random_sim_test(g, num_sims=1, serialize=False, verbose=False, mask_test=g.num_distinct_actions() < 10**5)


@pytest.mark.parametrize("name", GAMES)
def test_action_ids_are_a_bijection_on_legal_codes(name):
    spec = get_game(name)
    index = ActionIndex(spec.actions)
    s = osp.game(name, seed=5).new_initial_state()
    rng = np.random.default_rng(0)
    seen = 0
    while not s.is_terminal() and seen < 60:
        codes = s.match.legal()
        ids = [index.id_of(c) for c in codes]
        assert all(0 <= i < index.size for i in ids)
        assert [index.code_of(i) for i in ids] == [int(c) for c in codes]
        assert len(set(ids)) == len(ids)
        s.apply_action(s.legal_actions()[rng.integers(len(ids))])
        seen += 1


@pytest.mark.parametrize("name", GAMES)
def test_mcts_and_ismcts_finish_games(name):
    """MCTS in seat 0 and IS-MCTS in seat 1 (2 simulations, playouts cut at 20 moves to keep the test short),
    uniform random play elsewhere, to the end of a game."""
    from open_spiel.python.algorithms import ismcts, mcts

    n = get_game(name).players[0]
    g = osp.game(name, players=n, seed=11)
    rs = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(1, rs, max_length=20)
    bots = {
        0: mcts.MCTSBot(g, 2.0, 2, evaluator, solve=False, random_state=rs),
        1: ismcts.ISMCTSBot(g, evaluator, 2.0, 2, random_state=rs),
    }
    s = g.new_initial_state()
    asked = {0: 0, 1: 0}
    while not s.is_terminal():
        p = s.current_player()
        if p in bots:
            a = bots[p].step(s)
            asked[p] += 1
            assert a in s.legal_actions()
        else:
            a = rs.choice(s.legal_actions())
        s.apply_action(a)
    returns = s.returns()
    assert asked[0] > 0 and asked[1] > 0
    assert len(returns) == n and sum(returns) == pytest.approx(1.0) and min(returns) >= 0


def test_resample_keeps_the_information_state_and_redraws_hidden_fields():
    g = osp.game("raccoon_tycoon", players=4, seed=2)
    s = g.new_initial_state()
    seat = s.current_player()
    redrawn = 0
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(5):
        r = s.resample_from_infostate(seat, sampler)
        assert r.information_state_string(seat) == s.information_state_string(seat)
        assert r.observation_tensor(seat) == s.observation_tensor(seat)
        redrawn += not np.array_equal(r.match.states["hand"], s.match.states["hand"])
    assert redrawn >= 4  # the other seats' hands are re-dealt


def test_clone_replays_the_same_dice():
    g = osp.game("bang_dice", players=5, seed=4)
    s = g.new_initial_state()
    c = s.clone()
    rng = np.random.default_rng(1)
    while not s.is_terminal():
        a = s.legal_actions()[rng.integers(len(s.legal_actions()))]
        s.apply_action(a)
        c.apply_action(a)
        assert s.observation_tensor(0) == c.observation_tensor(0)
    assert s.returns() == c.returns()


@pytest.mark.parametrize("name", GAMES)
def test_bridge_plays_exactly_the_engines_game(name):
    """A game recorded by sim replay's play_logged, replayed action by action through the bridge, reaches the same
    outcome (scores and win shares)."""
    from sim.replay import play_logged
    from sim.seating import make_design

    spec = get_game(name)
    design = make_design(spec, (spec.default_players,), 10)
    pvec = spec.params.resolve({})
    r = play_logged(spec, design, pvec, 7, 3)
    g = osp.game(name, players=r["players"])
    s = g.state_from_seed(7, r["seed_index"])
    for seat, code, _, _ in r["moves"]:
        assert s.current_player() == seat
        s.apply_action(g.index.id_of(code))
    assert s.is_terminal()
    n = r["players"]
    assert s.returns() == list(r["seat_f"][:n, 1])
    assert np.array_equal(s.match.outcome()[2][:n, 0], r["seat_f"][:n, 0])


def test_duel_writes_a_run_folder_that_sim_check_reads(tmp_path):
    out = tmp_path / "duel"
    cmd = [sys.executable, "-m", "sim", "duel", "bang_dice", "--players", "4", "--seats", "uniform,belief"]
    cmd += ["--games", "4", "--chunk-size", "2", "--seed", "3", "--out", str(out), "--no-progress"]
    subprocess.run(cmd, check=True, capture_output=True)
    subprocess.run([sys.executable, "-m", "sim", "check", str(out)], check=True, capture_output=True)
    import pandas as pd

    seats = pd.read_parquet(out / "seats")
    assert len(seats) == 16 and set(seats["strategy"]) == {"uniform", "belief"}
    assert seats.groupby("game")["win_share"].sum().round(9).eq(1).all()
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "complete" and m["strategies"]["uniform"]["external"]
    again = subprocess.run(cmd, check=True, capture_output=True, text=True)  # resumed: nothing to play
    assert "results in" in again.stdout
    assert pd.read_parquet(out / "seats").equals(seats)


@pytest.mark.parametrize("bot", ["ismcts:6", "ismcts:6@belief"])
def test_duel_with_ismcts_is_reproducible(tmp_path, bot):
    """The same seed gives the same games (the re-sampled worlds come from the bot's seeded stream, not from
    OpenSpiel's own sampler); ismcts:N@PRESET values leaves by our compiled preset's rollouts, and the manifest
    says so."""
    seats = f"{bot},belief,belief,belief"
    cmd = [sys.executable, "-m", "sim", "duel", "bang_dice", "--players", "4", "--seats", seats, "--games", "3"]
    cmd += ["--seed", "5", "--no-progress"]
    import pandas as pd

    tables = []
    for run in ("a", "b"):
        subprocess.run(cmd + ["--out", str(tmp_path / run)], check=True, capture_output=True)
        tables.append(pd.read_parquet(tmp_path / run / "seats"))
    assert tables[0].equals(tables[1]) and len(tables[0]) == 12
    m = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert ("rollout of belief" in m["strategies"][bot]["doc"]) == ("@" in bot)
    assert m["think_cpu_s"][bot] > 0


@pytest.mark.parametrize(
    "seats,why",
    [
        ("belief,belief", "names no OpenSpiel player"),
        ("ismcts:0,belief", "budget"),
        ("ismcts,nosuch", "nosuch"),
        ("ismcts:5@nosuch,belief", "nosuch"),
        ("ismcts:5@search,belief", "not a search"),
        ("uniform@belief,belief", "rollout preset"),
    ],
)
def test_duel_bad_input_is_one_line(tmp_path, seats, why):
    out = tmp_path / "bad"
    p = subprocess.run(
        [sys.executable, "-m", "sim", "duel", "bang_dice", "--seats", seats, "--games", "2", "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 2 and why in p.stderr and len(p.stderr.strip().splitlines()) == 1
    assert not out.exists()
