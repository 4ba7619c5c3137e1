"""The command line: listings, a run, replay, and one clear line for every kind of bad input."""

import os
import subprocess
import sys

import pytest

from sim.cli import main


def one_error_line(capsys, argv, *needles):
    with pytest.raises(SystemExit) as e:
        code = main(argv)
        raise SystemExit(code)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    for needle in needles:
        assert needle in err[0], err[0]
    return err[0]


def test_run_and_replay(tmp_path, capsys):
    out = tmp_path / "run"
    assert (
        main(
            [
                "run",
                "toy_pig",
                "--games",
                "200",
                "--players",
                "3",
                "--seed",
                "4",
                "--out",
                str(out),
                "--no-progress",
                "--set",
                "target=30",
            ]
        )
        == 0
    )
    assert (out / "manifest.json").exists() and any((out / "seats").iterdir())
    capsys.readouterr()
    assert main(["replay", str(out), "5"]) == 0
    text = capsys.readouterr().out
    assert "game 5" in text and "Result:" in text


def test_listings(capsys):
    assert main(["strategies", "toy_pig"]) == 0
    assert "hold20" in capsys.readouterr().out
    assert main(["params", "toy_pig"]) == 0
    out = capsys.readouterr().out
    assert "target = 40" in out and "ASSUMED" in out


@pytest.mark.parametrize(
    "argv,needles",
    [
        (["run", "no_such_game"], ["unknown game 'no_such_game'"]),
        (["run", "toy_pig", "--lineup", "hold2O"], ["unknown strategy", "Did you mean hold20"]),
        (["run", "toy_pig", "--players", "9"], ["2-4 players (got 9)"]),
        (["run", "toy_pig", "--players", "three"], ["--players takes"]),
        (["run", "toy_pig", "--set", "target=abc"], ["needs a number"]),
        (["run", "toy_pig", "--set", "nosuch=1"], ["unknown parameter 'nosuch'"]),
        (["run", "toy_pig", "--set", "target"], ["--set takes name=value"]),
        (["run", "toy_pig", "--seed", "-5"], ["--seed must be between"]),
        (["run", "toy_pig", "--seed", "x"], ["invalid int value"]),
        (["run", "toy_pig", "--games", "0"], ["--games must be at least 1"]),
        (["run", "toy_pig", "--strategies", "hold20,hold10"], ["one strategy per seat"]),
        (["run", "toy_pig", "--chunk-size", "0"], ["--chunk-size must be at least 1 (got 0)"]),
        (["sweep", "toy_pig", "--chunk-size", "0"], ["--chunk-size must be at least 1"]),
        (["run", "toy_pig", "--threads", "0"], ["--threads must be between 1"]),
        (["params", "nogame"], ["unknown game"]),
        (["bench", "nogame"], ["unknown game"]),
        (["bench", "toy_pig", "--games", "0"], ["--games and --repeat must be at least 1"]),
        (["bench", "toy_pig", "--repeat", "0"], ["--games and --repeat must be at least 1"]),
        (["bench", "toy_pig", "--players", "9"], ["2-4 players (got 9)"]),
        (["frobnicate"], ["invalid choice"]),
    ],
)
def test_bad_input_one_line_nothing_written(argv, needles, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one_error_line(capsys, argv, *needles)
    assert not (tmp_path / "out").exists() and not (tmp_path / "results").exists()


def test_console_script_lists_games():
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    out = subprocess.run([sys.executable, "-m", "sim", "games"], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    bad = subprocess.run([sys.executable, "-m", "sim", "run", "nope"], capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "unknown game" in bad.stderr


def test_games_lists_a_broken_game_folder_with_its_error(capsys, monkeypatch):
    """A game folder that cannot be imported (e.g. half-way through adding one) is listed with its error in one
    line; the other games are still listed."""
    import sim.game

    real_names, real_get = sim.game.game_names, sim.game.get_game

    def get_game(name):
        if name == "half_done":
            raise ImportError("cannot import name 'strategy' from 'sim.games.half_done'")
        return real_get(name)

    monkeypatch.setattr(sim.game, "game_names", lambda: real_names() + ["half_done"])
    monkeypatch.setattr(sim.game, "get_game", get_game)
    assert main(["games"]) in (0, None)
    out = capsys.readouterr().out
    assert "half_done        cannot be loaded: ImportError: cannot import name 'strategy'" in out
    assert "bang_dice" in out
