"""sim tune: CMA-ES over a preset's knobs recovers a planted optimum, resumes exactly, rejects bad input."""

import json

import numpy as np
import pandas as pd
import pytest

from sim.study import Study
from sim.tune import Problem, tune
from strategies._template import PLANTED_BEST

ARGS = dict(strategy="planted", knobs=["skill"], evals=60, games_per_eval=600, final_games=6000)


def run_tune(toy, out, seed=3, **kw):
    """A tuning of the toy game's planted preset, 3 players, into `out`."""
    return tune(Study(toy, 3, seed=seed, out=out, progress=False, command="test"), **{**ARGS, **kw})


def test_planted_optimum_is_recovered(tmp_path, toy):
    r = run_tune(toy, tmp_path / "t")
    skill = float(r["tuned"]["skill"])
    assert abs(skill - PLANTED_BEST) < 0.1, skill
    assert r["final"]["significant"] and r["final"]["difference"] > 0.2  # from skill 0.2: far better
    assert r["same_table"]["difference_low"] > 0.2  # and at one table
    fp = r["first_player"]  # the first player's share moves with a bot that now wins: an interval about it
    assert fp["difference_low"] <= fp["difference"] <= fp["difference_high"] and 0 < fp["start"] < 1
    # the tuned bot is as good as the known best one: on common seeds their difference's interval holds 0
    p = Problem(toy, "planted", 3, knobs=["skill"])
    seed = r["final"]["seed"]
    best = p.per_game(p.weights({"skill": PLANTED_BEST}), 6000, seed)
    tuned = p.per_game(p.weights({"skill": skill}), 6000, seed)
    d = tuned - best
    half = 1.96 * d.std(ddof=1) / np.sqrt(len(d))
    assert d.mean() - half <= 0.0 <= d.mean() + half + 1e-12
    # the outputs: a preset file that loads, and every evaluation
    from sim.knobs import load_preset_file

    before = list(toy.strategies)
    try:
        spec = load_preset_file(toy, tmp_path / "t" / "planted_tuned.toml")
        assert spec.weights[toy.strategy("planted").knobs.index("skill")] == pytest.approx(skill)
    finally:
        toy.strategies[:] = before
    ev = pd.read_parquet(tmp_path / "t" / "evaluations.parquet")
    assert len(ev) == r["evaluations"] and set(ev.kind) == {"candidate", "incumbent"}


def test_resume_after_interrupt_equals_uninterrupted(tmp_path, toy):
    whole = run_tune(toy, tmp_path / "whole")
    with pytest.raises(KeyboardInterrupt):
        run_tune(toy, tmp_path / "cut", stop_after=17)  # mid-generation
    part = pd.read_csv(tmp_path / "cut" / "evaluations.csv")
    assert len(part) == 17
    with pytest.raises(KeyboardInterrupt):
        run_tune(toy, tmp_path / "cut", stop_after=5)  # once more, from the saved state
    resumed = run_tune(toy, tmp_path / "cut")
    assert resumed["evaluations_this_session"] == whole["evaluations"] - 22
    assert resumed["tuned"] == whole["tuned"] and resumed["final"] == whole["final"]
    cols = ["gen", "k", "kind", "knob.skill", "win_share", "games", "seed"]
    a = pd.read_csv(tmp_path / "whole" / "evaluations.csv")[cols]
    b = pd.read_csv(tmp_path / "cut" / "evaluations.csv")[cols]
    assert a.equals(b)


def test_a_different_tuning_in_the_folder_is_refused(tmp_path, toy):
    from sim.errors import UserError

    run_tune(toy, tmp_path / "t", evals=8)
    with pytest.raises(UserError, match="differs in: seed"):
        run_tune(toy, tmp_path / "t", evals=8, seed=4)


@pytest.mark.parametrize(
    "argv,needles",
    [
        (["tune", "toy_pig", "--strategy", "random"], ["random of toy_pig has no knobs"]),
        (["tune", "toy_pig", "--strategy", "planted", "--knobs", "skil"], ["unknown knob of planted 'skil'"]),
        (["tune", "toy_pig", "--strategy", "planted", "--field", "hold3"], ["unknown strategy"]),
        (["tune", "toy_pig", "--strategy", "planted", "--players", "9"], ["2-4 players"]),
        (["tune", "toy_pig", "--strategy", "planted", "--evals", "1"], ["--evals must be at least 2"]),
    ],
)
def test_bad_input_one_line_nothing_written(argv, needles, tmp_path, capsys, monkeypatch):
    from tests.test_cli import one_error_line

    monkeypatch.chdir(tmp_path)
    one_error_line(capsys, argv, *needles)
    assert not (tmp_path / "results").exists()


def test_cli_tune_writes_a_preset_with_its_command(tmp_path, capsys):
    from sim.cli import main

    out = tmp_path / "t"
    assert (
        main(
            [
                "tune",
                "toy_pig",
                "--strategy",
                "planted",
                "--players",
                "3",
                "--evals",
                "12",
                "--games-per-eval",
                "300",
                "--final-games",
                "600",
                "--out",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    text = (out / "planted_tuned.toml").read_text()
    assert "command = " in text and "skill = " in text and "hold = " in text
    assert "fresh seeds" in capsys.readouterr().out
    assert json.loads((out / "result.json").read_text())["knobs"] == ["hold", "skill", "slip"]
