"""sim field (issue 36): the meta-solver on planted tables, the field on the template game, `--lineup field`."""

import json

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("open_spiel.python.egt.heuristic_payoff_table", reason='needs pip install -e ".[interop]"')

from sim import field  # noqa: E402
from sim.errors import UserError  # noqa: E402


def _table(players, k, payoff):
    """A heuristic payoff table whose strategy i, in a line-up with counts d, earns payoff(i, d)."""
    rows = {d: [payoff(i, d) if d[i] else 0.0 for i in range(k)] for d in field.distributions(players, k)}
    return field.payoff_table(players, [f"s{i}" for i in range(k)], rows)


def _pairwise(matrix):
    """Mean of matrix[i, j] over the other seats j of the line-up (an n-player game built from pairwise ones)."""
    m = np.asarray(matrix, float)

    def payoff(i, d):
        others = np.array(d, float)
        others[i] -= 1
        return float(others @ m[i] / others.sum())

    return payoff


@pytest.mark.parametrize("players", [2, 3, 4])
def test_meta_solver_finds_a_planted_dominant_strategy_and_a_rock_paper_scissors_triple(players):
    rps = [[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]]
    mix = field.solve_mixture(_table(players, 3, _pairwise(rps)))
    assert mix == pytest.approx([1 / 3] * 3, abs=0.03)
    # s1 beats everyone by a little: the population goes to it
    dominant = [[0.5, 0.45, 0.5, 0.5], [0.55, 0.5, 0.55, 0.6], [0.5, 0.45, 0.5, 0.4], [0.5, 0.4, 0.6, 0.5]]
    mix = field.solve_mixture(_table(players, 4, _pairwise(dominant)))
    assert mix[1] > 0.95
    regret, _ = field.pool_regret(_table(players, 4, _pairwise(dominant)), mix)
    assert regret < 0.005


def test_field_without_openspiel_says_how_to_install(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "open_spiel.python.egt", None)
    with pytest.raises(UserError, match=r'pip install -e "\.\[interop\]"'):
        field._egt()


@pytest.mark.slow
def test_field_finds_the_dominant_preset_of_the_template_game_and_resumes(tmp_path, monkeypatch):
    # at Pig to 40, holding at 20 beats holding at 10 and random play in every line-up: the field is hold20 alone,
    # and no tuned best response gains a point against it
    kw = dict(pool=["hold10", "random", "hold20"], games=300, iterations=2, evals=8, games_per_eval=150)
    kw.update(final_games=1500, work=tmp_path / "w", out_file=tmp_path / "3p.json", progress=False)
    doc = field.run_field("toy_pig", 3, **kw)
    assert doc["mixture"]["hold20"] > 0.95 and doc["stop"] == "converged"
    assert doc["exploitability"]["gain"] <= field.STOP_GAIN
    assert len(doc["payoff_table"]["rows"]) == 10  # 3 seats over 3 strategies
    saved = json.loads((tmp_path / "3p.json").read_text())
    assert saved["mixture"] == doc["mixture"] and saved["command"]

    def never(*a, **k):
        raise AssertionError("a cached line-up was played again")

    monkeypatch.setattr(field, "lineup_payoffs", never)
    again = field.run_field("toy_pig", 3, **kw)
    assert again["mixture"] == doc["mixture"]
    with pytest.raises(UserError, match="different field"):
        field.run_field("toy_pig", 3, **{**kw, "games": 301})


def _field_file(path, mixture, players=3):
    path.write_text(json.dumps({"game": "toy_pig", "players": players, "mixture": mixture}))
    return path


def _read(run, table):
    return pd.read_parquet(run / table).sort_values("game" if table == "games" else ["game", "seat"])


def test_lineup_field_is_reproducible_for_any_thread_count_resumes_and_replays(tmp_path):
    import numba

    from sim.replay import replay
    from sim.results import part_name
    from sim.runner import run_study

    f = _field_file(tmp_path / "f.json", {"hold20": 0.5, "hold10": 0.3, "random": 0.2})
    kw = dict(games=3000, players=(3,), lineup=[f"field:{f}"], seed=5, progress=False)
    a = run_study("toy_pig", tmp_path / "a", chunk_size=1000, threads=1, **kw)
    b = run_study("toy_pig", tmp_path / "b", chunk_size=3000, threads=max(2, numba.config.NUMBA_NUM_THREADS), **kw)
    for t in ("games", "seats"):
        pd.testing.assert_frame_equal(_read(a, t).reset_index(drop=True), _read(b, t).reset_index(drop=True))
    seats = _read(a, "seats")
    share = seats["strategy"].astype(str).value_counts(normalize=True)
    assert share["hold20"] == pytest.approx(0.5, abs=0.03) and share["random"] == pytest.approx(0.2, abs=0.03)
    manifest = json.loads((a / "manifest.json").read_text())
    assert manifest["seating"]["field"]["mixture"] == [0.5, 0.3, 0.2]
    before = _read(a, "seats")
    (a / "games" / part_name(1)).unlink()  # as if killed in chunk 1
    run_study("toy_pig", a, chunk_size=1000, threads=1, **kw)
    pd.testing.assert_frame_equal(_read(a, "seats"), before)
    assert replay(a, 2999)[2] is None  # the replay, seated from the manifest, matches the stored game


def test_lineup_field_refuses_bad_files(tmp_path):
    from sim.runner import prepare

    with pytest.raises(UserError, match="no field file"):
        prepare("toy_pig", (3,), 10, lineup=[f"field:{tmp_path / 'none.json'}"])
    f = _field_file(tmp_path / "f.json", {"hold20": 1.0}, players=4)
    with pytest.raises(UserError, match="for 4 players, not 3"):
        prepare("toy_pig", (3,), 10, lineup=[f"field:{f}"])


def test_lineup_field_works_in_sweeps_and_refuses_a_mix(tmp_path, capsys):
    from sim.cli import main

    f = _field_file(tmp_path / "f.json", {"hold20": 0.6, "random": 0.4})
    args = ["sweep", "toy_pig", "--players", "3", "--lineup", f"field:{f}", "--grid", "target=30,40", "--games", "90"]
    assert main([*args, "--out", str(tmp_path / "s"), "--no-progress"]) == 0
    assert main(["run", "toy_pig", "--players", "3", "--lineup", "field,hold20", "--games", "9"]) == 2
    assert "give it alone" in capsys.readouterr().err


def test_field_records_cpu_not_wall_time_and_describes_a_response_by_its_field_gain(tmp_path, monkeypatch):
    # the line-ups sleep (wall time, no CPU): the field's CPU figure must not count them; the best response's file
    # states the paired games that judged it (field_gain's --final-games), not the tuning's one-game-a-seat check
    import time

    played = field.lineup_payoffs

    def sleepy(*a, **k):
        time.sleep(0.4)
        return played(*a, **k)

    monkeypatch.setattr(field, "lineup_payoffs", sleepy)
    kw = dict(pool=["hold10", "hold20"], games=40, iterations=1, evals=2, games_per_eval=40, final_games=200)
    doc = field.run_field("toy_pig", 2, work=tmp_path / "w", out_file=tmp_path / "2p.json", progress=False, **kw)
    assert "cpu_seconds" not in doc
    assert 0 < doc["process_cpu_seconds"] < doc["wall_seconds_this_session"] - 1.0  # 3 line-ups slept 1.2 s
    assert json.loads((tmp_path / "w" / "cpu.json").read_text())["process_cpu_seconds"] > 0
    text = (tmp_path / "w" / "br_0" / "br0_2p.toml").read_text()
    assert "200 paired games" in text and "2 paired games" not in text
    assert f"{doc['iterations'][0]['tuned_gain']:+.4f}" in text


def test_cpu_meter_counts_cpu_across_sessions_and_not_sleep(tmp_path):
    import time

    from sim.cost import CpuMeter

    meter = CpuMeter(tmp_path)
    time.sleep(0.5)
    assert meter.total() < 0.25
    t = time.process_time()
    while time.process_time() - t < 0.3:
        pass
    first = meter.save()
    assert first >= 0.29
    again = CpuMeter(tmp_path)  # a resumed session starts from what the folder recorded
    assert again.total() >= first
