"""Fault injection: two processes on one results folder, killed processes, damaged part files.

Every test ends by comparing the folder with a clean, uninterrupted run of the same command: table for table,
row for row.  A second process on a busy folder must refuse with one line (exit 2) before it writes anything.

The concurrent tests stop the first process with SIGSTOP while it holds the lock mid-run, so the overlap is
certain rather than a matter of timing; `-m long` adds real races repeated many times.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from sim.check import check_folder
from sim.cli import main
from sim.lock import FolderLock, lock_path
from sim.results import part_name

ROOT = Path(__file__).resolve().parents[1]
TOY_CLI = "import sys, tests.conftest; from sim.cli import main; sys.exit(main(sys.argv[1:]))"
RUN = ["run", "toy_pig", "--players", "3", "--games", "20000", "--chunk-size", "1000", "--seed", "7", "--no-progress"]
SWEEP = [
    "sweep",
    "toy_pig",
    "--players",
    "3",
    "--grid",
    "target=30,40",
    "--games",
    "10000",
    "--chunk-size",
    "1000",
    "--seed",
    "7",
    "--no-progress",
]


def spawn(argv):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, "-c", TOY_CLI, *argv],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def cli(capsys, argv):
    """The command in this process: (exit code, stderr lines)."""
    capsys.readouterr()
    code = main(argv)
    return code, capsys.readouterr().err.strip().splitlines()


def tables(folder):
    out = {}
    for name in ("games", "seats", "items"):
        files = sorted(Path(folder, name).rglob("part-*.parquet"))
        frames = []
        for f in files:
            df = pq.read_table(f).to_pandas()
            if f.parent.name.startswith("config="):
                df["config"] = int(f.parent.name.split("=")[1])
            frames.append(df)
        df = pd.concat(frames, ignore_index=True)
        keys = [k for k in ("config", "game", "seat", "item", "turn") if k in df.columns]
        out[name] = df.sort_values(keys).reset_index(drop=True)
    return out


def assert_same_results(a, b):
    ta, tb = tables(a), tables(b)
    for name in ta:
        pd.testing.assert_frame_equal(ta[name], tb[name], check_categorical=False)
    ma, mb = (json.loads((Path(f) / "manifest.json").read_text()) for f in (a, b))
    assert ma["request"] == mb["request"] and ma["status"] == mb["status"] == "complete"
    assert check_folder(a).ok and not check_folder(a).stray


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """Clean single runs of RUN and SWEEP, played in this process."""
    base = tmp_path_factory.mktemp("clean")
    assert main(RUN + ["--out", str(base / "run")]) == 0
    assert main(SWEEP + ["--out", str(base / "sweep")]) == 0
    return base


def wait_for_parts(folder, proc, n=2, timeout=60):
    """Until the process has written n chunks (so it holds the lock mid-run), then stop it there."""
    t0 = time.time()
    while time.time() - t0 < timeout:
        if len(list(Path(folder).glob("games/**/part-*.parquet"))) >= n:
            proc.send_signal(signal.SIGSTOP)
            while _state(proc.pid) not in ("T", "t", "Z", None):  # the signal is delivered asynchronously
                time.sleep(0.001)
            return
        if proc.poll() is not None:
            pytest.fail(f"the first process ended before it could be stopped: {proc.communicate()}")
        time.sleep(0.005)
    proc.kill()
    pytest.fail("the first process wrote nothing")


def _state(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def refused_once(code, err):
    assert code == 2, err
    assert len(err) == 1 and "in use by another process" in err[0] and "Traceback" not in err[0], err


SECONDS = {
    "run": [
        RUN,  # the same run twice
        RUN[:-3] + ["--seed", "8", "--no-progress"],  # a different seed into the same folder
        RUN + ["--overwrite"],  # --overwrite while the first one writes
        RUN[:2] + ["--players", "3", "--games", "1000", "--set", "target=30", "--overwrite"],
    ],
    "sweep": [
        SWEEP,
        SWEEP + ["--fresh"],
        SWEEP[:-3] + ["--seed", "8", "--no-progress"],
        ["run"],
    ],  # a run into the sweep's folder
}


@pytest.mark.parametrize("kind", ["run", "sweep"])
def test_second_process_on_a_busy_folder_refuses(tmp_path, capsys, clean, kind):
    """One process stopped mid-run holding the folder; every other writer of that folder refuses in one line and
    touches nothing; the first then finishes as a clean run."""
    out = tmp_path / kind
    first = spawn((RUN if kind == "run" else SWEEP) + ["--out", str(out)])
    try:
        wait_for_parts(out, first)
        snapshot = sorted(p.name for p in out.rglob("*"))
        for second in SECONDS[kind]:
            if second == ["run"]:
                second = ["run", "toy_pig", "--games", "100", "--no-progress"]
            code, err = cli(capsys, second + ["--out", str(out)])
            refused_once(code, err)
            assert sorted(p.name for p in out.rglob("*")) == snapshot, second  # the refused one touched nothing
    finally:
        first.send_signal(signal.SIGCONT)
    assert first.wait(120) == 0, first.communicate()
    assert_same_results(out, clean / kind)
    assert not lock_path(out).exists()


def test_killed_run_leaves_a_stale_lock_that_the_rerun_takes_over(tmp_path, capsys, clean):
    out = tmp_path / "run"
    first = spawn(RUN + ["--out", str(out)])
    wait_for_parts(out, first, n=3)
    first.send_signal(signal.SIGKILL)
    first.wait()
    assert lock_path(out).exists()
    # a temp file as a kill mid-write leaves it
    (out / "seats" / f".{part_name(9)}.host-1-abc.tmp").write_bytes(b"PAR1 half")
    assert json.loads((out / "manifest.json").read_text())["status"] == "running"
    code, err = cli(capsys, RUN + ["--out", str(out)])
    assert code == 0, err
    assert any("stale lock" in line for line in err), err
    assert not list(out.rglob("*.tmp"))
    assert_same_results(out, clean / "run")


def test_killed_sweep_is_resumed_identically(tmp_path, capsys, clean):
    out = tmp_path / "sweep"
    first = spawn(SWEEP + ["--out", str(out)])
    wait_for_parts(out, first, n=5)
    first.send_signal(signal.SIGKILL)
    first.wait()
    code, err = cli(capsys, SWEEP + ["--out", str(out)])
    assert code == 0, err
    assert_same_results(out, clean / "sweep")


def test_lock_held_by_a_live_process_is_refused_and_released_after(tmp_path):
    out = tmp_path / "x"
    code = (
        "import sys, time; from sim.lock import FolderLock; "
        "FolderLock(sys.argv[1]).acquire(); print('held', flush=True); time.sleep(60)"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code, str(out)],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(Exception, match=f"pid {holder.pid}"):
            FolderLock(out).acquire()
    finally:
        holder.kill()
        holder.wait()
    with FolderLock(out):  # the holder is gone: its lock is stale and taken over
        assert json.loads(lock_path(out).read_text())["pid"] == os.getpid()
    assert not lock_path(out).exists()


def test_lock_of_another_host_is_not_taken_over(tmp_path):
    out = tmp_path / "x"
    lock_path(out).write_text(json.dumps({"pid": 1, "host": "elsewhere.example", "time": 0, "token": "t"}))
    with pytest.raises(Exception, match="elsewhere.example"):
        FolderLock(out).acquire()
    assert lock_path(out).exists()


def test_default_out_names_differ_by_settings(tmp_path, capsys, monkeypatch):
    """The shell loop of the issue (`for v in off on; do sim run ... --set module.ghost=$v & done`) used to write
    both runs into one folder."""
    monkeypatch.chdir(tmp_path)
    base = ["run", "toy_pig", "--games", "50", "--no-progress"]
    for extra in ([], ["--set", "target=30"], ["--set", "target=50"], ["--lineup", "hold10,hold20"]):
        assert main(base + extra) == 0
    names = sorted(p.name for p in (tmp_path / "results").iterdir())
    assert len(names) == 4 and "toy_pig_3p_50_s0" in names, names
    # the same settings written differently are the same run
    assert main(base + ["--set", "target=30.0"]) == 0
    assert len(list((tmp_path / "results").iterdir())) == 4
    sweep = ["sweep", "toy_pig", "--games", "50", "--no-progress"]
    for extra in (["--grid", "target=30,40"], ["--grid", "target=30,50"]):
        assert main(sweep + extra) == 0
    sweeps = sorted(p.name for p in (tmp_path / "results").iterdir() if p.name.startswith("sweep_"))
    assert len(sweeps) == 2 and all(n.startswith("sweep_toy_pig_s0_") for n in sweeps), sweeps


# ----------------------------------------------------------------------------------------------- damaged parts

SMALL = ["run", "toy_pig", "--players", "3", "--games", "4000", "--chunk-size", "1000", "--seed", "3", "--no-progress"]


@pytest.fixture(scope="module")
def small_clean(tmp_path_factory):
    out = tmp_path_factory.mktemp("small") / "run"
    assert main(SMALL + ["--out", str(out)]) == 0
    return out


def truncate(p):
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])


def empty(p):
    p.write_bytes(b"")


def flip(p):
    data = bytearray(p.read_bytes())
    data[len(data) // 2] ^= 0xFF  # same size, same footer: only the checksum can tell
    p.write_bytes(bytes(data))


def foreign(p):
    """A well-formed part of another chunk renamed into place (what a hand-edited chunk size produces)."""
    other = p.parent / part_name(0)
    p.write_bytes(other.read_bytes())


@pytest.mark.parametrize("table", ["games", "seats", "items"])
@pytest.mark.parametrize("damage", [truncate, empty, flip, foreign, Path.unlink])
def test_damaged_part_is_detected_and_replayed(tmp_path, capsys, small_clean, table, damage):
    import shutil

    out = tmp_path / "run"
    shutil.copytree(small_clean, out)
    damage(out / table / part_name(2))
    verdict = check_folder(out)
    if damage is Path.unlink and table == "games":
        assert verdict.missing == [(None, 2)]  # games last: a chunk without it is simply unfinished
    else:
        assert [c for _, c, _ in verdict.bad] == [2], verdict.bad
    code, err = cli(capsys, ["check", str(out)])
    assert code == 2 and err[-1].startswith("sim check: error:"), err
    code, err = cli(capsys, SMALL + ["--out", str(out)])
    assert code == 0, err
    assert check_folder(out).ok
    assert_same_results(out, small_clean)


def test_report_reads_only_whole_chunks(tmp_path, small_clean):
    import shutil

    from sim.analysis.load import load_run

    out = tmp_path / "run"
    shutil.copytree(small_clean, out)
    (out / "games" / part_name(1)).unlink()  # chunk 1 unfinished: its seats part must not count
    truncate(out / "seats" / part_name(3))  # chunk 3 bad
    run = load_run(out)
    games, seats = run.games(["game"]), run.seats(["game"])
    assert set(games.game) == set(seats.game) == set(range(1000)) | set(range(2000, 3000))


def test_no_op_rerun_of_a_complete_run_changes_nothing(tmp_path, capsys, small_clean):
    import shutil

    out = tmp_path / "run"
    shutil.copytree(small_clean, out)
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    code, err = cli(capsys, SMALL + ["--out", str(out)])
    assert code == 0, err
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before


@pytest.mark.long
@pytest.mark.parametrize("attempt", range(10))
def test_real_races(tmp_path, clean, attempt):
    """Two real processes started together, no stopping: whichever order they meet the lock in, one refuses with
    one line or runs after the other (then resuming a complete folder), and the folder is a clean run."""
    out = tmp_path / "run"
    procs = [spawn(RUN + ["--out", str(out)]) for _ in range(2)]
    results = [(p.wait(300), p.communicate()[1].strip().splitlines()) for p in procs]
    codes = sorted(code for code, _ in results)
    assert codes in ([0, 0], [0, 2]), results
    for code, err in results:
        if code == 2:
            refused_once(code, err)
    assert_same_results(out, clean / "run")


def test_no_op_rerun_of_a_complete_sweep_keeps_its_timings(tmp_path, capsys, clean):
    import shutil

    out = tmp_path / "sweep"
    shutil.copytree(clean / "sweep", out)
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    code, err = cli(capsys, SWEEP + ["--out", str(out)])
    assert code == 0, err
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before


def test_hand_edited_chunk_size_cannot_duplicate_games(tmp_path, capsys, small_clean):
    import shutil

    out = tmp_path / "run"
    shutil.copytree(small_clean, out)
    m = json.loads((out / "manifest.json").read_text())
    m["chunk_size"] = 2000  # the parts were written in chunks of 1000
    (out / "manifest.json").write_text(json.dumps(m))
    v = check_folder(out)
    assert len(v.bad) == 2 and len(v.stray) == 6, v  # two parts per table don't fit, the rest are strays
    code, err = cli(capsys, SMALL + ["--out", str(out)])
    assert code == 0, err
    games = tables(out)["games"]
    assert list(games.game) == list(range(4000))  # each game once
    pd.testing.assert_frame_equal(games, tables(small_clean)["games"])


def test_interrupt_and_failure_leave_a_final_status(tmp_path, capsys, monkeypatch):
    import sim.runner

    real = sim.runner.write_chunk
    calls = []

    def stop_at_third(*a, **k):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(sim.runner, "write_chunk", stop_at_third)
    out = tmp_path / "run"
    assert main(SMALL + ["--out", str(out)]) == 130
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "interrupted" and "run the same command again" in m["reason"]
    assert not lock_path(out).exists()
    monkeypatch.undo()
    assert main(SMALL + ["--out", str(out)]) == 0
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"


@pytest.mark.parametrize("damage", [truncate, empty, flip])
def test_damaged_sweep_part_is_replayed(tmp_path, capsys, clean, damage):
    import shutil

    out = tmp_path / "sweep"
    shutil.copytree(clean / "sweep", out)
    damage(out / "seats" / "config=1" / part_name(3))
    assert [(p, c) for p, c, _ in check_folder(out).bad] == [("config=1", 3)]
    code, err = cli(capsys, SWEEP + ["--out", str(out)])
    assert code == 0 and any("replaying" in line for line in err), err
    assert_same_results(out, clean / "sweep")
    pd.testing.assert_frame_equal(
        pd.read_parquet(out / "summary.parquet"), pd.read_parquet(clean / "sweep" / "summary.parquet")
    )


@pytest.mark.long
@pytest.mark.parametrize("attempt", range(8))
def test_kill_at_random_moments(tmp_path, capsys, clean, attempt):
    """kill -9 at a random moment (often mid-write), then the same command: identical to a clean run."""
    import random

    rnd = random.Random(attempt)
    kind = "run" if attempt % 2 == 0 else "sweep"
    argv = (RUN if kind == "run" else SWEEP) + ["--out", str(tmp_path / kind)]
    proc = spawn(argv)
    time.sleep(rnd.uniform(1.0, 4.0))
    proc.kill()
    proc.wait()
    code, err = cli(capsys, argv)
    assert code == 0, err
    assert_same_results(tmp_path / kind, clean / kind)


# ----------------------------------------------------------------------------------------------- issue 41


def flip_middle(p, n=1):
    data = bytearray(p.read_bytes())
    mid = len(data) // 2
    for i in range(n):
        data[mid + i] ^= 0xFF
    p.write_bytes(bytes(data))


def copied(src, dst):
    import shutil

    shutil.copytree(src, dst)
    return dst


@pytest.mark.parametrize("nbytes", [1, 16])
def test_no_reader_reads_a_flipped_byte(tmp_path, capsys, small_clean, nbytes):
    """`sim check` said "checksum differs" while `sim report` read the damaged part (16 bytes: an OSError line)."""
    from sim.analysis.load import load_run

    out = copied(small_clean, tmp_path / "run")
    flip_middle(out / "seats" / part_name(1), nbytes)
    report = tmp_path / "r.html"
    code, err = cli(capsys, ["report", str(out), "-o", str(report)])
    assert code == 2 and len(err) == 1 and "damaged" in err[0] and "checksum" in err[0], err
    assert not report.exists() and not lock_path(report).exists()
    assert set(load_run(out).seats(["game"]).game) == set(range(1000)) | set(range(2000, 4000))  # never chunk 1
    code, err = cli(capsys, ["replay", str(out), "1500"])
    assert code == 2 and "damaged" in err[-1] and "Traceback" not in "".join(err), err
    code, err = cli(capsys, ["replay", str(out), "500"])  # a game of a whole chunk replays
    assert code == 0, err


@pytest.fixture(scope="module")
def other_seed(tmp_path_factory):
    out = tmp_path_factory.mktemp("other") / "run"
    assert main([*SMALL[:-3], "--seed", "4", "--no-progress", "--out", str(out)]) == 0
    return out


@pytest.mark.parametrize("with_record", [False, True])
def test_a_part_swapped_in_from_another_run_is_refused(tmp_path, capsys, small_clean, other_seed, with_record):
    """The same chunk of another seed's run: same columns, rows and game ids; only the checksum (or, when its
    record is copied too, the record's run id) tells it apart."""
    out = copied(small_clean, tmp_path / "run")
    (out / "seats" / part_name(2)).write_bytes((other_seed / "seats" / part_name(2)).read_bytes())
    if with_record:
        for t in ("games", "items"):
            (out / t / part_name(2)).write_bytes((other_seed / t / part_name(2)).read_bytes())
        rec = Path("checksums") / "part-00002.json"
        (out / rec).write_bytes((other_seed / rec).read_bytes())
    bad = check_folder(out).bad
    assert [c for _, c, _ in bad] == [2], bad
    assert ("another run" in bad[0][2]) == with_record, bad
    code, err = cli(capsys, ["report", str(out), "-o", str(tmp_path / "r.html")])
    assert code == 2 and len(err) == 1 and "damaged" in err[0], err
    code, err = cli(capsys, SMALL + ["--out", str(out)])  # the run replays it
    assert code == 0, err
    assert_same_results(out, small_clean)


def test_every_done_chunk_has_its_record_before_it_counts(tmp_path, monkeypatch):
    """The record is on disk before the games part is renamed into place: a kill at any moment between the two
    leaves an unfinished chunk, never a done one without its checksums."""
    import sim.results

    real = os.replace
    seen = []

    def replace(src, dst):
        if Path(dst).name.endswith(".parquet") and Path(dst).parent.name.startswith(("games", "config=")):
            if "games" in Path(dst).parts:
                chunk = int(Path(dst).stem.split("-")[1])
                part = Path(dst).parent.name if Path(dst).parent.name.startswith("config=") else None
                from sim.check import read_record

                seen.append(read_record(Path(dst).parents[1 if part is None else 2], chunk, part) is not None)
        return real(src, dst)

    monkeypatch.setattr(sim.results.os, "replace", replace)
    assert main(SWEEP + ["--out", str(tmp_path / "s")]) == 0
    assert len(seen) == 20 and all(seen), seen
    # with the manifest's records gone (a sweep killed before it saved them), the files still verify, and a
    # flipped byte is still found
    m = json.loads((tmp_path / "s" / "manifest.json").read_text())
    m["chunks"] = {}
    (tmp_path / "s" / "manifest.json").write_text(json.dumps(m))
    assert check_folder(tmp_path / "s").ok
    flip_middle(tmp_path / "s" / "seats" / "config=0" / part_name(0))
    assert [(p, c) for p, c, _ in check_folder(tmp_path / "s").bad] == [("config=0", 0)]


def test_a_done_chunk_without_any_record_is_not_trusted(tmp_path, capsys, small_clean):
    """A folder whose chunk lost its record (an older sweep killed between two manifest saves) cannot be
    verified: check and report say so, and the run replays the chunk."""
    out = copied(small_clean, tmp_path / "run")
    (out / "checksums" / "part-00003.json").unlink()
    m = json.loads((out / "manifest.json").read_text())
    del m["chunks"]["3"]
    (out / "manifest.json").write_text(json.dumps(m))
    bad = check_folder(out).bad
    assert [c for _, c, _ in bad] == [3] and "no checksum record" in bad[0][2], bad
    code, err = cli(capsys, SMALL + ["--out", str(out)])
    assert code == 0, err
    assert_same_results(out, small_clean)


@pytest.mark.long
@pytest.mark.parametrize("attempt", range(6))
def test_killed_sweep_never_leaves_a_done_chunk_without_its_record(tmp_path, capsys, clean, attempt):
    """The issue's case: a sweep killed early (kill -9), then a flipped byte: check finds it, a rerun replays it."""
    import random

    out = tmp_path / "sweep"
    proc = spawn(SWEEP + ["--out", str(out)])
    time.sleep(random.Random(attempt).uniform(1.0, 4.0))
    proc.kill()
    proc.wait()
    done = check_folder(out, checksum=False).done
    from sim.check import read_record

    assert all(read_record(out, c, p) for p, c in done), done
    if done:
        p, c = done[0]
        flip_middle(out / "seats" / p / part_name(c))
        assert (p, c) in {(q, k) for q, k, _ in check_folder(out).bad}
    code, err = cli(capsys, SWEEP + ["--out", str(out)])
    assert code == 0, err
    assert_same_results(out, clean / "sweep")
    m = json.loads((out / "manifest.json").read_text())
    assert sum(len(r) for r in m["chunks"].values()) == 20  # chunks done before the kill keep their records


def test_full_disk_during_a_sweep_leaves_a_final_manifest_and_no_temp_file(tmp_path, capsys, monkeypatch):
    """No room for a part, then none for a new manifest either: the manifest is still final (failed, with the
    reason) and no temp file is left."""
    import errno

    import sim.results
    import sim.sweep.task

    real_chunk, real_replace = sim.sweep.task.write_chunk, os.replace
    calls = []

    def chunk(*a, **k):
        calls.append(1)
        if len(calls) > 3:
            raise OSError(errno.ENOSPC, "No space left on device", "x/part.parquet")
        return real_chunk(*a, **k)

    def replace(src, dst):
        if len(calls) > 3 and Path(dst).name == "manifest.json":
            raise OSError(errno.ENOSPC, "No space left on device", str(dst))
        return real_replace(src, dst)

    monkeypatch.setattr(sim.sweep.task, "write_chunk", chunk)
    monkeypatch.setattr(sim.results.os, "replace", replace)
    out = tmp_path / "s"
    code, err = cli(capsys, SWEEP + ["--out", str(out)])
    assert code == 2 and len(err) == 1 and "No space left on device" in err[0], err
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "failed" and "No space" in m["reason"], m["status"]
    assert not [p for p in out.rglob("*") if ".tmp" in p.name], list(out.rglob("*tmp*"))
    monkeypatch.undo()
    code, err = cli(capsys, SWEEP + ["--out", str(out)])
    assert code == 0, err


def test_tune_takes_the_folder_lock(tmp_path, capsys):
    out = tmp_path / "t"
    argv = ["tune", "toy_pig", "--strategy", "hold20", "--evals", "4", "--games-per-eval", "30", "--out", str(out)]
    with FolderLock(out, "sim tune"):
        code, err = cli(capsys, argv + ["--no-progress"])
        refused_once(code, err)
        code, err = cli(capsys, argv + ["--no-progress", "--fresh"])
        refused_once(code, err)
    assert not out.exists()


def test_default_out_name_includes_knob_overrides(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    base = ["run", "toy_pig", "--games", "50", "--no-progress"]
    for v in ("10", "30"):
        assert main(base + ["--set", f"strategy.hold20.hold={v}"]) == 0
    names = sorted(p.name for p in (tmp_path / "results").iterdir())
    assert len(names) == 2 and all(n.startswith("toy_pig_3p_50_s0_") for n in names), names


def test_a_second_report_waits_for_the_first_ones_robustness_run(tmp_path, capsys, small_clean, monkeypatch):
    """While another report plays the robustness run, a second one waits (here briefly, then refuses in one
    line); it never writes a report without the section."""
    import threading

    from sim.report import model as rb  # the report's constants

    out = copied(small_clean, tmp_path / "run")
    monkeypatch.setattr(rb, "ROBUST_WAIT_S", 1.0)
    report = tmp_path / "r.html"
    with FolderLock(out / "robust", "sim report (robustness run)"):
        code, err = cli(capsys, ["report", str(out), "-o", str(report)])
    assert code == 2 and len(err) == 1 and "in use" in err[0], err
    assert not report.exists()
    # held for a moment only: the second report waits, then writes the whole report
    lock = FolderLock(out / "robust", "sim report (robustness run)").acquire()
    threading.Timer(2.0, lock.release).start()
    monkeypatch.setattr(rb, "ROBUST_WAIT_S", 60.0)
    code, err = cli(capsys, ["report", str(out), "-o", str(report)])
    assert code == 0, err
    assert "Robustness: do the findings hold with other players?" in report.read_text()


def test_dask_logging_stays_off_stderr_while_the_client_lives(capfd):
    import logging

    from sim.distributed import quiet_client

    with quiet_client():
        logging.getLogger("distributed.client").error("reconnect traceback")
        logging.getLogger("distributed.comm.tcp").error("closed")
    assert "reconnect" not in capfd.readouterr().err
