"""Sweeps on the toy game: parsing and validation, grid expansion, output layout, summary, resume after a killed
process, refusal of a changed sweep, adaptive budgets, and identical results on a Dask cluster."""

import importlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pandas as pd
import pyarrow.dataset as ds
import pytest

from sim.cli import main
from sim.errors import UserError
from sim.game import get_game
from sim.runner import run_study
from sim.study import Study
from sim.sweep import build_sweep, load_sweep_file, metric_interval, raw_from_study, read_sweep, run_sweep

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples" / "sweeps").glob("*.toml"))

SMALL = """\
game = "toy_pig"
players = [3, 4]
games = 1200
seed = 7
chunk_size = 400

[set]
turn_cap = 300

[grid]
target = [20, 35]
"""


def write(tmp_path, text, name="sweep.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def sweep_from(tmp_path, text):
    raw, _ = raw_from_study(str(write(tmp_path, text)))
    return build_sweep(raw)


def tables(folder):
    """Every table of a sweep, sorted, with the config key as a plain int."""
    out = {}
    for name in ("games", "seats", "items"):
        df = read_sweep(folder, name)
        df["config"] = df["config"].astype(int)
        keys = (
            ["config", "game"] + (["seat"] if name != "games" else []) + (["item", "turn"] if name == "items" else [])
        )
        out[name] = df.sort_values(keys).reset_index(drop=True)
    return out


def assert_same(a, b):
    ta, tb = tables(a), tables(b)
    for name in ta:
        pd.testing.assert_frame_equal(ta[name], tb[name])
    sa = pd.read_parquet(Path(a) / "summary.parquet")
    sb = pd.read_parquet(Path(b) / "summary.parquet")
    pd.testing.assert_frame_equal(sa, sb)


# ----------------------------------------------------------------------------------------------- parsing


def test_product_and_zip_expansion(tmp_path):
    sw = sweep_from(
        tmp_path,
        """\
        game = "toy_pig"
        players = "3-4"
        games = 10
        [grid]
        target = [20, 30, 40]
        bust_face = [1, 2]
        """,
    )
    assert len(sw.configs) == 3 * 2 * 2
    seen = [(c.values["target"], c.values["bust_face"], c.players) for c in sw.configs]
    assert seen[:4] == [("20", "1", 3), ("20", "1", 4), ("20", "2", 3), ("20", "2", 4)]
    assert len(set(seen)) == 12
    table = get_game("toy_pig").params
    for c in sw.configs:  # the parameter vector carries the configuration's values
        assert c.pvec[table.index("target")] == float(c.values["target"])

    zipped = sweep_from(
        tmp_path,
        """\
        game = "toy_pig"
        players = 3
        games = 10
        [zip]
        target = [20, 30, 40]
        bust_face = [1, 2, 3]
        """,
    )
    assert [(c.values["target"], c.values["bust_face"]) for c in zipped.configs] == [
        ("20", "1"),
        ("30", "2"),
        ("40", "3"),
    ]
    both = sweep_from(
        tmp_path,
        """\
        game = "toy_pig"
        games = 10
        [grid]
        turn_cap = [100, 200]
        [zip]
        target = [20, 30, 40]
        bust_face = [1, 2, 3]
        """,
    )
    assert len(both.configs) == 6 and both.configs[3].values == {"turn_cap": "200", "target": "20", "bust_face": "1"}


def test_flags_match_a_file_and_ranges_expand(tmp_path):
    file_raw, _ = raw_from_study(str(write(tmp_path, SMALL)))
    flags = Study("toy_pig", players="3,4", games=1200, seed=7, chunk_size=400, params=["turn_cap=300"])
    flag_raw, _ = raw_from_study("toy_pig", flags, grids=["target=20:35:15"])
    assert build_sweep(file_raw).request() == build_sweep(flag_raw).request()
    ranged = build_sweep(raw_from_study("toy_pig", grids=["target=10:30:5"])[0])
    assert [c.values["target"] for c in ranged.configs] == ["10", "15", "20", "25", "30"]
    # a flag adds to the file's grid, and --players replaces the file's
    mixed = build_sweep(raw_from_study(str(write(tmp_path, SMALL)), Study("toy_pig", 4), grids=["bust_face=1,2"])[0])
    assert len(mixed.configs) == 2 * 2 and {c.players for c in mixed.configs} == {4}
    zipped = build_sweep(raw_from_study("toy_pig", zips=["target=20,30", "bust_face=1,2"])[0])
    assert [(c.values["target"], c.values["bust_face"]) for c in zipped.configs] == [("20", "1"), ("30", "2")]
    lineups = build_sweep({"game": "toy_pig", "lineups": [["hold20", "random"], "hold10,random"]})
    assert [c.lineup for c in lineups.configs] == [("hold20", "random"), ("hold10", "random")]


def test_dotted_names_as_nested_tables(tmp_path, monkeypatch):
    """`module.ghost = [...]` in TOML is a nested table; it must reach the parameter of that dotted name."""
    from sim.params import ParamTable

    toy = get_game("toy_pig")
    table = ParamTable()
    table.add("target", 40, lo=1, hi=1000)
    table.add("bust_face", 1, lo=1, hi=6)
    table.add("turn_cap", 200, lo=1, hi=10000)
    table.add("module.ghost", 0, kind="bool")
    monkeypatch.setattr(toy, "params", table)
    sw = sweep_from(
        tmp_path,
        """\
        game = "toy_pig"
        games = 10
        [grid]
        module.ghost = [false, "on"]
        """,
    )
    assert [c.values["module.ghost"] for c in sw.configs] == ["off", "on"]


@pytest.mark.parametrize(
    "text,needles",
    [
        ('game = "toy_pig"\ngmaes = 10\n', ["unknown key in", "'gmaes'", "Did you mean games"]),
        ('game = "toy_pgi"\n', ["unknown game 'toy_pgi'", "Did you mean toy_pig"]),
        ("games = 10\n", ["names no game"]),
        (
            'game = "toy_pig"\n[grid]\ntargte = [1, 2]\n',
            ["[grid]", "unknown parameter 'targte'", "Did you mean target"],
        ),
        ('game = "toy_pig"\n[set]\nbust_fac = 2\n', ["[set]", "Did you mean bust_face"]),
        ('game = "toy_pig"\n[grid]\ntarget = ["abc"]\n', ["[grid] target", "needs a number (got 'abc')"]),
        ('game = "toy_pig"\n[grid]\ntarget = [20.5]\n', ["needs a whole number"]),
        ('game = "toy_pig"\n[grid]\ntarget = [0, 10]\n', ["out of range [1, 1000]"]),
        ('game = "toy_pig"\n[grid]\ntarget = 40\n', ["[grid] target must be a list"]),
        ('game = "toy_pig"\n[grid]\ntarget = []\n', ["[grid] target is an empty list"]),
        ('game = "toy_pig"\n[grid]\ntarget = [20, 20]\n', ["repeats a value"]),
        ('game = "toy_pig"\n[zip]\ntarget = [20, 30]\nbust_face = [1]\n', ["same length", "target has 2"]),
        ('game = "toy_pig"\n[zip]\ntarget = [20, 20]\nbust_face = [1, 1]\n', ["[zip] repeats a row"]),
        ('game = "toy_pig"\n[set]\ntarget = 20\n[grid]\ntarget = [20, 30]\n', ["both swept", "keep one"]),
        ('game = "toy_pig"\n[set]\ntarget = [20, 30]\n', ["takes one value", "[grid]"]),
        ('game = "toy_pig"\ngames = "many"\n', ["games must be a whole number"]),
        ('game = "toy_pig"\ngames = 0\n', ["games must be at least 1"]),
        ('game = "toy_pig"\nchunk_size = 2.5\n', ["chunk_size must be a whole number"]),
        ('game = "toy_pig"\nplayers = "9"\n', ["2-4 players (got 9)"]),
        ('game = "toy_pig"\nplayers = "x"\n', ["players takes a count"]),
        ('game = "toy_pig"\nlineup = ["hold2O"]\n', ["unknown strategy", "Did you mean hold20"]),
        ('game = "toy_pig"\nall_rotations = "yes"\n', ["all_rotations must be true or false"]),
        ('game = "toy_pig"\nmirror = 1\n', ["mirror must be true or false"]),
        ('game = "toy_pig"\nstrategies = ["hold20", "hold20", "hold20"]\nmirror = true\n', ["fixed seats"]),
        ('game = "toy_pig"\n[adaptive]\nmetric = "order0_win_share"\nwidth = 0.02\n', ["[adaptive] needs max_games"]),
        (
            'game = "toy_pig"\n[adaptive]\nmetric = "ordr0_win_share"\nwidth = 0.02\nmax_games = 99999\n',
            ["unknown", "metric 'ordr0_win_share'", "Did you mean order0_win_share"],
        ),
        (
            'game = "toy_pig"\ngames = 100\n[adaptive]\nmetric = "shared_win_rate"\nwidth = 2\nmax_games = 1000\n',
            ["width must be between 0 and 1"],
        ),
        (
            'game = "toy_pig"\ngames = 100\n[adaptive]\nmetric = "shared_win_rate"\nwidth = 0.1\nmax_games = 10\n',
            ["max_games (10) is below games (100)"],
        ),
        ('game = "toy_pig"\n[adaptive]\nmetric = "shared_win_rate"\nwidht = 0.1\n', ["Did you mean width"]),
        ('game = "toy_pig"\nscheduler = "localhost"\n', ["scheduler must be an address"]),
        ('game = "toy_pig"\n[grid\n', ["is not valid TOML"]),
    ],
)
def test_bad_sweep_files_give_one_line(tmp_path, capsys, text, needles):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as e:
        raise SystemExit(main(["sweep", str(path), "--out", str(out), "--no-progress"]))
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    for needle in needles:
        assert needle in err[0], err[0]
    assert not out.exists()


def test_bad_flags_and_missing_file(tmp_path, capsys):
    for argv, needle in (
        (["sweep", str(tmp_path / "nope.toml")], "not found"),
        (["sweep", "toy_pig", "--grid", "target"], "--grid takes name=value"),
        (["sweep", "toy_pig", "--grid", "target=30:10:5"], "hi >= lo"),
        (["sweep", "toy_pig", "--grid", "turn_cap=,"], "empty list"),
    ):
        assert main(argv + ["--out", str(tmp_path / "o"), "--no-progress"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and needle in err[0], err
    assert not (tmp_path / "o").exists()


def test_dry_run_lists_configurations_and_time(tmp_path, capsys):
    path = write(tmp_path, SMALL)
    assert main(["sweep", str(path), "--dry-run", "--out", str(tmp_path / "o")]) == 0
    text = capsys.readouterr().out
    assert "4 configurations" in text and "fixed: turn_cap=300" in text
    assert "config=3" in text and "target=35" in text and "4p" in text
    assert "estimated time" in text and "4,800 games" in text and "us/game" in text
    assert not (tmp_path / "o").exists()


def test_example_sweep_files_validate():
    """Every example names real parameters with valid values (against the game itself once it is registered,
    else against its parameter table, which exists before the engine)."""
    assert EXAMPLES
    for path in EXAMPLES:
        raw = load_sweep_file(path)
        try:
            spec = get_game(raw["game"])
        except (UserError, ImportError, AttributeError):
            spec = None
        if spec is not None:
            assert len(build_sweep(raw, str(path)).configs) >= 2
            continue
        module = importlib.import_module(f"sim.games.{raw['game']}.params")
        table = next(v for v in vars(module).values() if type(v).__name__ == "ParamTable")
        from sim.sweep.spec import _flatten, expand_values

        for section in ("set", "grid", "zip"):
            for name, value in _flatten(raw.get(section, {}), section).items():
                p = table.params[table.index(name)]
                if section == "set":
                    p.parse(value)
                else:
                    assert expand_values(p, value, name)


# ----------------------------------------------------------------------------------------------- running


def test_layout_manifest_summary_and_same_games_as_a_run(tmp_path):
    sw = sweep_from(tmp_path, SMALL)
    out = tmp_path / "s"
    frame = run_sweep(sw, out, progress=False)
    for table in ("games", "seats", "items"):
        for k in range(4):
            parts = sorted(p.name for p in (out / table / f"config={k}").iterdir())
            assert parts == ["part-00000.parquet", "part-00001.parquet", "part-00002.parquet"], parts
    # one hive-partitioned dataset per table
    games = ds.dataset(out / "games", format="parquet", partitioning="hive").to_table().to_pandas()
    assert len(games) == 4 * 1200 and sorted(games.config.unique()) == [0, 1, 2, 3]
    for _, g in games.groupby("config"):
        assert sorted(g.game) == list(range(1200))  # no duplicates, nothing missing
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "complete" and m["n_configs"] == 4
    assert [c["params"]["target"] for c in m["configs"]] == ["20", "20", "35", "35"]
    assert all(c["params"]["turn_cap"] == "300" and c["games_done"] == 1200 for c in m["configs"])
    assert [c["players"] for c in m["configs"]] == [3, 4, 3, 4]

    # configuration 2 (3 players, target 35) is exactly a single run with the same settings and seed
    run = run_study(
        "toy_pig",
        tmp_path / "run",
        games=1200,
        players=(3,),
        seed=7,
        params={"target": 35, "turn_cap": 300},
        progress=False,
    )
    seats = read_sweep(out, "seats")
    mine = seats[seats.config.astype(int) == 2].drop(columns="config").sort_values(["game", "seat"])
    ref = pd.read_parquet(run / "seats").sort_values(["game", "seat"])
    pd.testing.assert_frame_equal(mine.reset_index(drop=True), ref.reset_index(drop=True), check_categorical=False)

    # the summary's first-player share and interval come from the seats table
    summary = pd.read_parquet(out / "summary.parquet")
    assert list(summary.config) == [0, 1, 2, 3] and list(summary.target) == [20, 20, 35, 35]
    for _, row in summary.iterrows():
        s = seats[(seats.config.astype(int) == row.config) & (seats.order == 0)]
        assert row.games == 1200 and row.order0_win_share == pytest.approx(s.win_share.mean())
        assert row.order0_win_share_lo < row.order0_win_share < row.order0_win_share_hi
        g = games[games.config.astype(int) == row.config]
        assert row.steps == pytest.approx(g.steps.mean())
        assert 0 <= row.shared_win_rate <= row.shared_win_rate_hi
    pd.testing.assert_frame_equal(frame, summary)


def test_changed_sweep_file_is_refused_unless_fresh(tmp_path, capsys):
    path = write(tmp_path, SMALL)
    out = tmp_path / "s"
    assert main(["sweep", str(path), "--out", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "config=3" in printed and "4p target=35" in printed and "first player" in printed
    assert f"results in {out}" in printed
    path.write_text(SMALL.replace("[20, 35]", "[20, 40]"))
    assert main(["sweep", str(path), "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "holds a different sweep (changed: grid)" in err[0] and "--fresh" in err[0]
    assert main(["sweep", str(path), "--out", str(out), "--no-progress", "--fresh"]) == 0
    m = json.loads((out / "manifest.json").read_text())
    assert m["request"]["grid"] == {"target": ["20", "40"]}
    assert not (out / "games" / "config=2" / "part-00003.parquet").exists()
    # a single run's folder is not taken for a sweep
    run_study("toy_pig", tmp_path / "run", games=10, progress=False)
    assert main(["sweep", str(path), "--out", str(tmp_path / "run"), "--no-progress"]) == 2
    assert "holds a single run, not a sweep" in capsys.readouterr().err
    # a cosmetic change (a comment) is the same sweep: resumed, nothing replayed
    stamp = (out / "games" / "config=0" / "part-00000.parquet").stat().st_mtime_ns
    path.write_text("# a comment\n" + path.read_text())
    assert main(["sweep", str(path), "--out", str(out), "--no-progress"]) == 0
    assert (out / "games" / "config=0" / "part-00000.parquet").stat().st_mtime_ns == stamp


KILL_AFTER = """
import os, signal, sys
sys.path.insert(0, {root!r})
from sim.game import register
from sim.games._template import GAME
register(GAME)
import sim.sweep as sweep
original = sweep.run_sweep
count = [0]
def killer(task, planner):
    count[0] += 1
    if count[0] == {n}:
        os.kill(os.getpid(), signal.SIGKILL)  # no clean-up of any kind, like a crash or `kill -9`
def patched(*args, **kwargs):
    kwargs["on_task"] = killer
    return original(*args, **kwargs)
sweep.run_sweep = patched
from sim.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_resume_after_a_killed_process(tmp_path):
    path = write(tmp_path, SMALL)
    out = tmp_path / "killed"
    argv = ["sweep", str(path), "--out", str(out), "--no-progress"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-c", KILL_AFTER.format(root=str(ROOT), n=5)] + argv,
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    done = sorted(out.glob("games/config=*/part-*.parquet"))
    assert len(done) == 5  # 5 of 12 tasks finished before the kill
    assert json.loads((out / "manifest.json").read_text())["status"] == "running"
    assert not (out / "summary.parquet").exists()
    # leftovers of a process killed while writing: a temp file and a chunk whose games part never landed
    (out / "seats" / "config=3").mkdir(parents=True, exist_ok=True)
    (out / "seats" / "config=3" / ".part-00001.parquet.tmp999").write_bytes(b"half a file")
    (out / "seats" / "config=3" / "part-00001.parquet").write_bytes(b"not parquet")
    stamps = {p: p.stat().st_mtime_ns for p in done}
    assert main(argv) == 0
    assert all(p.stat().st_mtime_ns == t for p, t in stamps.items())  # finished parts were not replayed
    assert not list(out.rglob(".part-*"))
    ref = tmp_path / "whole"
    assert main(["sweep", str(path), "--out", str(ref), "--no-progress"]) == 0
    assert_same(out, ref)
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"


ADAPTIVE = """\
game = "toy_pig"
players = [3, 4]
games = 400
seed = 3
chunk_size = 400

[grid]
target = [15, 60]

[adaptive]
metric = "order0_win_share"
width = 0.06
max_games = 4000
"""


def test_adaptive_budget_stops_at_the_width_or_the_maximum(tmp_path):
    sw = sweep_from(tmp_path, ADAPTIVE)
    out = tmp_path / "a"
    summary = run_sweep(sw, out, progress=False)
    m = json.loads((out / "manifest.json").read_text())
    widths = summary.order0_win_share_hi - summary.order0_win_share_lo
    for (_, row), width, cfg in zip(summary.iterrows(), widths, m["configs"]):
        assert row.games % 400 == 0 and 400 < row.games <= 4000
        assert (width <= 0.06 and cfg["finished"] == "width") or (row.games == 4000 and cfg["finished"] == "max_games")
        # every round but the last was too wide (so games were added), and the rounds grew
        seats = read_sweep(out, "seats")
        s = seats[(seats.config.astype(int) == row.config) & (seats.order == 0)]
        assert len(s) == row.games and cfg["rounds"][-1] == row.games and cfg["rounds"] == sorted(cfg["rounds"])
        for n in cfg["rounds"][:-1]:
            part = s[s.game < n]
            _, lo, hi = metric_interval(
                {"n": float(len(part)), "order0_win_share.s": part.win_share.sum()}, "order0_win_share"
            )
            assert hi - lo > 0.06
    # Ctrl-C in the middle of the adaptive rounds, then the same sweep again: identical result
    out2 = tmp_path / "b"
    calls = [0]

    def interrupt(task, planner):
        calls[0] += 1
        if calls[0] == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(sweep_from(tmp_path, ADAPTIVE), out2, progress=False, on_task=interrupt)
    assert json.loads((out2 / "manifest.json").read_text())["status"] == "interrupted"
    run_sweep(sweep_from(tmp_path, ADAPTIVE), out2, progress=False)
    assert_same(out, out2)


# ----------------------------------------------------------------------------------------------- Dask


@pytest.fixture(scope="module")
def cluster():
    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            worker_dashboard_address=None,
        ) as lc,
        Client(lc) as client,
    ):
        yield lc, client


def test_dask_gives_exactly_the_local_results(tmp_path, cluster):
    lc, client = cluster
    local = tmp_path / "local"
    run_sweep(sweep_from(tmp_path, SMALL), local, progress=False)
    remote = tmp_path / "dask"
    run_sweep(sweep_from(tmp_path, SMALL), remote, scheduler=lc.scheduler_address, progress=False)
    assert_same(local, remote)
    m = json.loads((remote / "manifest.json").read_text())
    assert m["status"] == "complete" and m["timings"]["executor"] == lc.scheduler_address


def test_a_run_and_a_ladder_on_dask_give_exactly_the_local_results(tmp_path, cluster, capsys):
    """`sim run --scheduler` and `sim ladder --scheduler`: a run folder's chunks played by the workers."""
    from sim import ladder as L
    from sim.check import check_folder
    from sim.runner import run_study
    from sim.study import Study

    lc, client = cluster
    kw = dict(games=900, players=(2, 3), seed=4, chunk_size=250, progress=False)
    local = run_study("toy_pig", tmp_path / "local", **kw)
    remote = run_study("toy_pig", tmp_path / "dask", scheduler=lc.scheduler_address, **kw)
    for table in ("games", "seats", "items"):
        pd.testing.assert_frame_equal(pd.read_parquet(local / table), pd.read_parquet(remote / table))
    m = json.loads((remote / "manifest.json").read_text())
    assert m["status"] == "complete" and m["timings"]["executor"] == lc.scheduler_address
    assert m["n_chunks"] == 8 and len(m["chunks"]) == 8 and not check_folder(remote).bad
    budget = dict(rungs=["tuned", "search4"], search_games=40, max_batches=1, effect_games=0)
    study = Study("toy_pig", games=300, progress=False)
    here = L.run_ladder(local, study, **budget)
    there = L.run_ladder(remote, study, scheduler=client, **budget)
    pd.testing.assert_frame_equal(here, there)
    # a traced run keeps every round's standings in this process's buffers: refused with one line
    bad = ["run", "toy_pig", "--games", "10", "--standings", "--out", str(tmp_path / "t"), "--no-progress"]
    assert main([*bad, "--scheduler", lc.scheduler_address]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--standings" in err[0] and "--scheduler" in err[0], err
    assert not (tmp_path / "t").exists()


def test_killing_a_worker_mid_sweep_loses_nothing(tmp_path, cluster):
    lc, client = cluster
    local = tmp_path / "local"
    run_sweep(sweep_from(tmp_path, ADAPTIVE), local, progress=False)
    pids = client.run(os.getpid)
    victim = sorted(pids.values())[0]
    killed = []

    def kill_one(task, planner):
        if not killed:  # at the first finished task
            os.kill(victim, signal.SIGKILL)
            killed.append(planner.total_done)

    out = tmp_path / "dask"
    try:
        run_sweep(sweep_from(tmp_path, ADAPTIVE), out, scheduler=client, progress=False, on_task=kill_one)
    except UserError as e:  # Dask gave up on a task: the sweep stops cleanly and is resumed below
        assert "failed on the cluster" in str(e)
    total = int(pd.read_parquet(local / "summary.parquet").games.sum())
    assert killed and killed[0] < total / 2, killed  # the worker died with most of the sweep still to play
    client.wait_for_workers(2, timeout=60)  # the nanny restarts the killed worker
    assert victim not in client.run(os.getpid).values()
    run_sweep(sweep_from(tmp_path, ADAPTIVE), out, scheduler=client, progress=False)
    assert_same(local, out)
    assert not list(out.rglob(".part-*"))


def test_unreachable_scheduler_is_one_line_and_writes_nothing(tmp_path, capsys, monkeypatch):
    import socket

    import sim.distributed

    monkeypatch.setattr(sim.distributed, "CONNECT_TIMEOUT", "2s")
    with socket.socket() as sock:  # a free port that nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    out = tmp_path / "s"
    path = write(tmp_path, SMALL)
    assert main(["sweep", str(path), "--out", str(out), "--no-progress", "--scheduler", f"tcp://127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot reach the Dask scheduler" in err[0] and "dask worker" in err[0], err
    assert not out.exists()
    assert main(["sweep", str(path), "--out", str(out), "--scheduler", "localhost:8786"]) == 2
    assert "--scheduler takes an address like tcp://host:8786" in capsys.readouterr().err


def test_a_cluster_without_workers_stops_with_one_line(tmp_path, capsys, monkeypatch):
    from distributed import LocalCluster

    import sim.distributed

    monkeypatch.setattr(sim.distributed, "NO_WORKERS_S", 3)
    monkeypatch.setattr(sim.distributed, "POLL_S", 0.5)
    with LocalCluster(n_workers=0, processes=False, dashboard_address=None) as lc:
        out = tmp_path / "s"
        path = write(tmp_path, SMALL)
        assert main(["sweep", str(path), "--out", str(out), "--no-progress", "--scheduler", lc.scheduler_address]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no Dask worker" in err[0] and "dask worker" in err[0], err
    assert json.loads((out / "manifest.json").read_text())["status"] == "failed"


def test_a_lost_scheduler_stops_the_sweep_with_one_line(tmp_path, capsys, monkeypatch):
    from distributed import Client, LocalCluster

    import sim.distributed

    monkeypatch.setattr(sim.distributed, "LOST_SCHEDULER_S", 3)
    monkeypatch.setattr(sim.distributed, "POLL_S", 0.5)
    lc = LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None)
    client = Client(lc)
    killed = []

    def kill_scheduler(task, planner):
        if not killed:
            killed.append(1)
            threading.Thread(target=lc.close, daemon=True).start()

    out = tmp_path / "s"
    try:
        with pytest.raises(UserError) as e:
            run_sweep(sweep_from(tmp_path, ADAPTIVE), out, scheduler=client, progress=False, on_task=kill_scheduler)
    finally:
        client.close()
        try:
            lc.close()  # the test already closed it from another thread; closing twice can fail in distributed
        except Exception:
            pass
    assert "\n" not in str(e.value) and "scheduler" in str(e.value)
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "failed" and m["reason"]
