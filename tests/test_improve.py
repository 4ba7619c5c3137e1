"""sim improve (issue 36): expert iteration on the template game's planted bot."""

import json

import pytest

from sim.errors import UserError
from sim.improve import improve


@pytest.mark.slow
def test_expert_iteration_recovers_the_planted_best_knob_value_and_resumes(tmp_path, monkeypatch):
    # planted plays well with chance 1 - ((skill - 0.7) / 0.7)^2: skill 0.7 is best; it starts at 0.2
    kw = dict(iterations=1, positions=150, rollouts=8, evals=40, games_per_eval=600, final_games=2000)
    kw.update(search_rollouts=4, search_games=40, seed=3, work=tmp_path / "w", out_file=tmp_path / "p.toml")
    log, out = improve("toy_pig", "planted", 2, progress=False, **kw)
    (entry,) = log
    assert float(entry["knobs"]["skill"]) == pytest.approx(0.7, abs=0.12)
    assert entry["gain_over_previous_low"] > 0  # the improved preset beats the start on fresh seeds
    assert entry["agreement_after"] > entry["agreement_before"]
    assert entry["audit_mean_regret"] > 0  # the start's decisions are worse than search's
    import pandas as pd

    pos = pd.read_parquet(tmp_path / "w" / "iter_0" / "positions.parquet")
    assert len(pos) == entry["positions"] and set(pos["kind"]) and set(pos["search_kind"])
    assert pos["agree_after"].mean() == pytest.approx(entry["agreement_after"])
    assert pos["agree_before"].mean() == pytest.approx(entry["agreement_before"])
    assert 0 < entry["process_cpu_seconds"] and json.loads((tmp_path / "w" / "cpu.json").read_text())
    text = out.read_text()
    assert "command" in text and "iteration = 1" in text and "skill" in text
    assert text.splitlines()[0].endswith("--strategy-file p.toml")  # the header names the shipped file
    # resume: a finished iteration is read back, not played again
    import sim.improve as mod

    monkeypatch.setattr(mod, "Positions", lambda *a, **k: (_ for _ in ()).throw(AssertionError("replayed")))
    again, _ = improve("toy_pig", "planted", 2, progress=False, **kw)
    assert again == log
    assert json.loads((tmp_path / "w" / "log.json").read_text()) == log


def test_the_best_iteration_is_shipped_not_the_last(tmp_path):
    """Gains over the previous +0.05, +0.02, -0.04: the second preset has the highest sum (+0.07); the last
    (+0.03) is not shipped.  A chain that only falls ships the first."""
    from sim.improve import best_iteration, ship

    log = [
        {"iteration": i, "preset": f"x_improved{i + 1}", "gain_over_previous": g}
        for i, g in enumerate([0.05, 0.02, -0.04])
    ]
    for e in log:
        folder = tmp_path / "w" / f"iter_{e['iteration']}"
        folder.mkdir(parents=True)
        (folder / f"{e['preset']}.toml").write_text(
            f'# {e["preset"]}: load with --strategy-file {e["preset"]}.toml\nname = "{e["preset"]}"\n'
        )
    assert best_iteration(log)[0] == 1
    out = ship(tmp_path / "w", log, tmp_path / "x_improved_4p.toml")
    lines = out.read_text().splitlines()
    assert lines[0].endswith("--strategy-file x_improved_4p.toml")
    assert lines[1].startswith("# shipped: iteration 2 of 3") and lines[2] == 'name = "x_improved2"'
    falling = [dict(e, gain_over_previous=g) for e, g in zip(log, [-0.01, -0.02, 0.005])]
    assert best_iteration(falling)[0] == 0
    # no iteration gained over the start: nothing is shipped (a file in improved/ would claim an improvement)
    assert ship(tmp_path / "w", falling, tmp_path / "none.toml") is None and not (tmp_path / "none.toml").exists()


def test_improve_against_a_field_draws_the_opponents_from_its_mixture(tmp_path, monkeypatch):
    """--field: the tuning and search's gain play against seats drawn from the field's mixture (recorded in the
    request), not the default line-up; a missing field file is one error before anything is written."""
    import sim.tune as tune_mod
    from tests.test_field import _field_file

    f = _field_file(tmp_path / "f.json", {"hold10": 0.5, "random": 0.5})
    seen = []
    real = tune_mod.Problem.design
    monkeypatch.setattr(tune_mod.Problem, "design", lambda self, w, g: seen.append(self.mixture) or real(self, w, g))
    import sim.improve as mod

    gains, real_gain = [], mod.search_gain
    monkeypatch.setattr(mod, "search_gain", lambda *a: gains.append(a[-1]) or real_gain(*a))
    kw = dict(iterations=1, positions=40, rollouts=4, evals=7, games_per_eval=60, final_games=120)
    kw.update(search_rollouts=2, search_games=30, seed=3, work=tmp_path / "w", out_file=tmp_path / "p.toml")
    log, out = improve("toy_pig", "planted", 3, progress=False, field=str(f), **kw)
    request = json.loads((tmp_path / "w" / "request.json").read_text())
    assert request["field"]["mixture"] == {"hold10": 0.5, "random": 0.5}
    assert seen and all(m == (("hold10", "random"), (0.5, 0.5)) for m in seen)
    assert log[0]["search_games"] == 30 and gains == [(("hold10", "random"), (0.5, 0.5))]
    with pytest.raises(UserError, match="no field file"):
        improve("toy_pig", "planted", 3, progress=False, **dict(kw, work=tmp_path / "w2"), field=str(tmp_path / "x"))
    assert not (tmp_path / "w2").exists()


def test_improve_refuses_fewer_evaluations_than_one_generation(tmp_path):
    """planted has 3 knobs: CMA-ES asks 7 candidates a generation; --evals 6 would tune nothing and return the
    start unchanged (it did, silently), so it is one error before anything is written."""
    with pytest.raises(UserError, match=r"--evals 6 is less than one CMA-ES generation \(7 candidates"):
        improve("toy_pig", "planted", 2, evals=6, work=tmp_path / "w", out_file=tmp_path / "p.toml", progress=False)
    assert not (tmp_path / "w").exists()


@pytest.mark.slow
def test_a_planted_worse_last_iteration_is_not_shipped(tmp_path, monkeypatch):
    """The template game's planted bot (best skill 0.7, start 0.2), two iterations: the second tuning is given a
    bonus that pulls skill to 0.05 (where it plays well 1 time in 7), so its measured paired gain is negative; the
    shipped file is the first iteration's preset."""
    import sim.tune as tune_mod
    from strategies._template import W_SKILL

    real, calls = tune_mod.tune, []

    def planted(*a, **k):
        calls.append(1)
        if len(calls) == 2:
            k["bonus"] = ("planted: skill pulled to 0.05", lambda w: -3.0 * abs(float(w[W_SKILL]) - 0.05))
        return real(*a, **k)

    monkeypatch.setattr(tune_mod, "tune", planted)
    kw = dict(iterations=2, positions=40, rollouts=4, evals=16, games_per_eval=400, final_games=2000, seed=5)
    kw.update(search_rollouts=4, search_games=8, work=tmp_path / "w", out_file=tmp_path / "p.toml", sigma0=0.3)
    log, out = improve("toy_pig", "planted", 2, progress=False, **kw)
    assert len(calls) == 2
    assert log[0]["gain_over_previous_low"] > 0 and log[1]["gain_over_previous_high"] < 0
    text = out.read_text()
    assert 'name = "planted_improved1"' in text and "iteration = 1" in text
    assert text.splitlines()[1].startswith("# shipped: iteration 1 of 2")


def test_improve_refuses_a_preset_without_knobs(tmp_path):
    with pytest.raises(UserError, match="no knobs"):
        improve("toy_pig", "random", 2, work=tmp_path / "w", out_file=tmp_path / "p.toml", progress=False)


def test_cost_command_measures_the_rates_and_scales_them_by_the_budgets():
    from sim.cost import cost, report_lines

    c = cost("toy_pig", 3, games=400)
    assert c["games_per_second_1_thread"] > 0 and c["rollouts_per_second_1_thread"] > 0
    # 3 seats over the 3 presets of the default line-up: 10 line-ups
    assert c["field"]["line_ups"] == 10 and c["field"]["games"] > 10 * c["field"]["budget"]["games"]
    assert c["field"]["cpu_hours"] == pytest.approx(c["field"]["games"] / c["games_per_second_1_thread"] / 3600)
    assert c["improve"]["cpu_hours"] > 0 and "CPU hours" in report_lines(c)[1]


def test_expert_cost_reads_cpu_hours_from_what_field_and_improve_recorded(tmp_path):
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("expert_cost", Path(__file__).parents[1] / "bench/expert_cost.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    work = tmp_path / "improve"
    work.mkdir()
    budget = dict(positions=200, rollouts=16, cap=8, evals=91, games_per_eval=500, final_games=2000)
    request = dict(game="toy_pig", strategy="planted", players=2, search_rollouts=8, search_games=100, **budget)
    (work / "request.json").write_text(json.dumps(request))
    log = [
        {"iteration": i, "from": "planted", "seconds": 9000.0, "process_cpu_seconds": 1800.0 * (i + 1)} for i in (0, 1)
    ]
    (work / "log.json").write_text(json.dumps(log))
    new = {"game": "toy_pig", "players": 3, "budget": {"games": 300}, "process_cpu_seconds": 3600.0}
    old = {"game": "toy_pig", "players": 3, "budget": {"games": 300}, "cpu_seconds": 720.0}
    for name, doc in (("new.json", new), ("old.json", old)):
        (tmp_path / name).write_text(json.dumps(doc))
    rows = [r for p in (work, tmp_path / "new.json", tmp_path / "old.json") for r in mod.rows_of(p)]
    assert [r["cpu_hours"] for r in rows] == [0.5, 1.0, 1.0, None]  # the old file recorded only wall time
    assert rows[3]["wall_hours_of_a_session"] == 0.2 and rows[0]["budget"]["evals"] == 91
    assert "0.500 CPU hours" in mod.line(rows[0]) and "CPU not recorded" in mod.line(rows[3])


def test_improve_refuses_a_bad_sigma0_before_writing_anything(tmp_path):
    with pytest.raises(UserError, match=r"--sigma0 must be between 0.001 and 1"):
        improve("toy_pig", "planted", 2, sigma0=5, work=tmp_path / "w", out_file=tmp_path / "p.toml", progress=False)
    assert not (tmp_path / "w").exists()


def test_tune_starts_cma_es_with_the_given_step(tmp_path):
    from sim.tune import SIGMA0, Problem, _cma_state

    from sim.game import get_game

    problem = Problem(get_game("toy_pig"), "planted", 2)
    es, _, _ = _cma_state(tmp_path / "state.pkl", problem, 6, 1, 0.05)
    assert es.sigma0 == 0.05 != SIGMA0
