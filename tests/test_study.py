"""The study object: the same Study from flags and from a file, a variant by replace(), one line (exit 2) for a bad
field of a study file, and a run given by --study equal to the same run given by flags."""

import json
from pathlib import Path

import pytest

from sim.cli import build_parser, main
from sim.errors import UserError
from sim.study import Study

ROOT = Path(__file__).resolve().parents[1]

FLAGS = [
    "run",
    "toy_pig",
    "--players",
    "3,4",
    "--games",
    "300",
    "--seed",
    "4",
    "--lineup",
    "hold20,hold10",
    "--set",
    "target=30",
    "--set",
    "strategy.hold10.hold=12",
    "--threads",
    "1",
    "--chunk-size",
    "100",
    "--out",
    "x",
]

FILE = """
game = "toy_pig"
players = [3, 4]
games = 300
seed = 4
lineup = "hold20, hold10"
threads = 1
chunk_size = 100
out = "x"

[set]
target = 30
strategy.hold10.hold = 12
"""


def write(tmp_path, text, name="study.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_flags_and_a_file_give_the_same_study(tmp_path):
    from_args = Study.from_args(build_parser().parse_args(FLAGS), games=10_000)
    from_file = Study.from_file(write(tmp_path, FILE))
    assert from_args == from_file
    assert from_args.players == (3, 4) and from_args.lineup == ("hold20", "hold10")
    assert from_args.overrides == {"target": "30", "strategy.hold10.hold": "12"}
    # a flag beside --study wins over the file's value; the file gives the rest
    ns = build_parser().parse_args(["run", "--study", str(write(tmp_path, FILE)), "--seed", "9", "--set", "target=50"])
    mixed = Study.from_args(ns, games=10_000)
    assert mixed == from_file.replace(seed=9, params={"target": "50", "strategy.hold10.hold": "12"})
    assert mixed.given >= {"game", "players", "seed", "params"}


def test_replace_checks_the_variant_and_defaults_fill_in():
    base = Study("toy_pig")
    assert base.player_counts == (base.spec.default_players,) and base.games_or(123) == 123 and base.seed == 0
    assert base.replace(players="2-3").player_counts == (2, 3)
    with pytest.raises(UserError, match="2-4 players"):
        base.replace(players=9)
    with pytest.raises(UserError, match="one player count at a time"):
        base.replace(players="2,3").player_count("audit")
    with pytest.raises(UserError, match="unknown preset"):
        base.replace(preset="nope")


def test_the_example_study_file_loads():
    study = Study.from_file(ROOT / "examples" / "studies" / "bang_full.toml")
    assert study.name == "bang_dice" and study.player_counts == (5,) and study.preset == "full"
    assert study.overrides["strategy.belief.risk"] == "0.5" and "module.ghost" in study.overrides


@pytest.mark.parametrize(
    "line,needles",
    [
        ("players = 9", ["study file", "2-4 players (got 9)"]),
        ('players = "three"', ["study file", "players takes a count"]),
        ("games = 0", ["study file", "games", "at least 1"]),
        ("games = 2.5", ["study file", "games", "whole number"]),
        ("seed = -1", ["study file", "seed", "between 0 and 2**64-1"]),
        ("threads = 0", ["study file", "threads"]),
        ("chunk_size = nan", ["study file", "chunk_size"]),
        ("lineup = 5", ["study file", "lineup must be a list of strategy names"]),
        ('lineup = ""', ["study file", "lineup names no strategy"]),
        ('all_rotations = "yes"', ["study file", "all_rotations must be true or false"]),
        ('preset = "nope"', ["study file", "unknown preset 'nope'"]),
        ("gmaes = 10", ["unknown key in study file", "gmaes", "Did you mean games"]),
        ("set = [1, 2]", ["study file", "set takes name=value"]),
        ("[set]\ntarget = [1, 2]", ["study file", "target takes one value"]),
        ("game = 5", ["study file", "game must be a game name"]),
        ('game = "toy_pgi"', ["study file", "unknown game 'toy_pgi'"]),
        ("games = ", ["study file", "is not valid TOML"]),
    ],
)
def test_a_bad_field_of_a_study_file_is_one_line(tmp_path, capsys, monkeypatch, line, needles):
    monkeypatch.chdir(tmp_path)
    text = line if line.startswith("game ") else 'game = "toy_pig"\n' + line
    path = write(tmp_path, text)
    assert main(["run", "--study", str(path), "--games", "10", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    for needle in needles:
        assert needle in err[0], err[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["study.toml"]  # nothing written


def test_a_missing_study_file_and_a_missing_game_are_one_line(tmp_path, capsys):
    assert main(["run", "--study", str(tmp_path / "nope.toml")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "study file" in err[0] and "not found" in err[0], err
    assert main(["run", "--study", str(write(tmp_path, "games = 10"))]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no game given" in err[0], err


def test_a_run_by_study_file_is_the_run_by_flags(tmp_path, capsys):
    text = 'game = "toy_pig"\nplayers = 3\nseed = 2\nlineup = ["hold20", "hold10"]\n[set]\ntarget = 25\n'
    study = write(tmp_path, text)
    by_file, by_flags = tmp_path / "file", tmp_path / "flags"
    assert main(["run", "--study", str(study), "--games", "150", "--out", str(by_file), "--no-progress"]) == 0
    argv = ["run", "toy_pig", "--players", "3", "--seed", "2", "--lineup", "hold20,hold10", "--set", "target=25"]
    assert main(argv + ["--games", "150", "--out", str(by_flags), "--no-progress"]) == 0
    a, b = (json.loads((p / "manifest.json").read_text()) for p in (by_file, by_flags))
    assert a["request"] == b["request"] and a["chunks"] == b["chunks"]
