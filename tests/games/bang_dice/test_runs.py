"""BANG! The Dice Game through the whole pipeline: determinism, the interpreted engine, the CLI and replay."""

import json
import os
import subprocess
import sys

import numba
import numpy as np
import pandas as pd
import pytest

from sim.cli import main
from sim.runner import prepare, run_study, simulate
from sim.replay import replay_text

ALL_MODULES = {
    "module.saloon_dice": "on",
    "module.chief_arrow": "on",
    "module.special_roles": "mixed",
    "module.new_characters": "on",
    "module.ghost": "on",
}


def read(run, table):
    df = pd.read_parquet(run / table)
    return df.sort_values([c for c in ("game", "seat", "item", "turn") if c in df]).reset_index(drop=True)


def test_same_results_whatever_threads_and_chunks(tmp_path):
    kw = dict(
        games=600,
        players=(5, 7),
        seed=42,
        params=ALL_MODULES,
        progress=False,
        lineup=["belief", "random", "cautious", "aggressive", "omniscient"],
    )
    a = run_study("bang_dice", tmp_path / "a", threads=1, chunk_size=250, **kw)
    b = run_study("bang_dice", tmp_path / "b", threads=numba.config.NUMBA_NUM_THREADS, chunk_size=1200, **kw)
    for table in ("games", "seats", "items"):
        pd.testing.assert_frame_equal(read(a, table), read(b, table))
    seats = read(a, "seats")
    assert np.allclose(seats.groupby("game").win_share.sum(), 1.0)
    assert set(seats.role.astype(str)) == {"sheriff", "deputy", "outlaw", "renegade"}
    items = read(a, "items")
    # every seat's character is recorded as an item, so character strength can be measured
    chars = items[items.kind.astype(str) == "character"]
    assert len(chars) == len(seats)


def test_interpreted_engine_matches_compiled(tmp_path):
    code = (
        "import sys, numpy as np; from sim.runner import prepare, simulate;"
        "spec, d, p = prepare('bang_dice', (5,), 4, ['belief', 'random', 'omniscient', 'cautious', 'aggressive']);"
        "a = simulate(spec, d, p, 9, 0, 4); np.save(sys.argv[1], a['seat_int'])"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=os.getcwd())
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "nojit.npy")], env=env, check=True)
    spec, d, p = prepare("bang_dice", (5,), 4, ["belief", "random", "omniscient", "cautious", "aggressive"])
    assert np.array_equal(np.load(tmp_path / "nojit.npy"), simulate(spec, d, p, 9, 0, 4)["seat_int"])


def test_replay_tells_the_game(tmp_path):
    run = run_study("bang_dice", tmp_path / "r", games=20, players=(5,), seed=3, progress=False)
    text = "\n".join(replay_text(run, 7))
    seats = read(run, "seats")
    games = read(run, "games")
    assert "rolls" in text.lower() or "roll" in text.lower()
    assert "Result:" in text
    winner = str(games.loc[games.game == 7, "winner_team"].iloc[0])
    assert f"winner_team={winner}" in text
    for _, row in seats[seats.game == 7].iterrows():
        assert f"role={row.role}" in text and f"character={row.character}" in text


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["run", "bang_dice", "--players", "2"], "3-8 players (got 2)"),
        (["run", "bang_dice", "--players", "9"], "3-8 players (got 9)"),
        (["run", "bang_dice", "--set", "module.ghosts=on"], "Did you mean module.ghost"),
        (["run", "bang_dice", "--set", "module.ghost=maybe"], "use on/off"),
        (["run", "bang_dice", "--set", "module.special_roles=sometimes"], "Valid: off, replace, mixed"),
        (["run", "bang_dice", "--lineup", "beleif"], "Did you mean belief"),
        (["run", "bang_dice", "--seed", "18446744073709551616"], "--seed must be between"),
    ],
)
def test_cli_bad_input(argv, needle, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0], err
    assert not (tmp_path / "results").exists()


def test_cli_run_writes_manifest(tmp_path, capsys):
    out = tmp_path / "run"
    assert (
        main(
            [
                "run",
                "bang_dice",
                "--games",
                "50",
                "--players",
                "4,6",
                "--seed",
                "5",
                "--out",
                str(out),
                "--no-progress",
                "--set",
                "module.ghost=on",
            ]
        )
        == 0
    )
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "complete" and m["players"] == [4, 6] and m["params_changed"] == {"module.ghost": "on"}
    assert m["assumed_components"]
