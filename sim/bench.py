"""`sim bench`: the measured speed of a game's kernel, the figures quoted in the README.

Reports the first-run compile time (in a fresh cache), the cached start-up, games/s single-thread and on all
cores (simulation only), a real run with parquet writing (at least four chunks, so writing overlaps play as in
a long study; games/s with and without the cache load), the parallel efficiency, the search player's rollouts
per second on 1 and on all threads (sim.audit.rollout_rate) and the speed-up over NUMBA_DISABLE_JIT=1.

`sim bench --compare bench/<game>.json` (compare()) is the regression check: it plays the game's benchmark on
1 thread and on all threads in short passes interleaved with a machine-speed reference (reference_rate(), a fixed
single-thread numba loop), normalises each pass by the references just before and after it, and prints the median
raw and normalised games/s against the recorded ones with the spread of the passes; a game is flagged only when
every pass fell (judge()).
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

from .audit import rollout_rate
from .errors import UserError
from .runner import DEFAULT_CHUNK, output_buffers, prepare, run_study, simulate
from .search import rollout_preset

_CHILD = """
import time, sys
t = time.perf_counter()
from sim.runner import prepare, simulate
spec, design, pvec = prepare({game!r}, ({players},), {games}, None, None, False, None)
t1 = time.perf_counter()
simulate(spec, design, pvec, 0, 0, {games})
print(time.perf_counter() - t, time.perf_counter() - t1)
"""


# The reference's speed on this machine kind (million loop steps per CPU second, one thread): a figure normalised
# by it reads as if measured on that machine.  The best of reference_rate(clock=time.process_time) on the 2-core
# development VM, 2026-11-28 (295-320 in six measurements while a dozen jobs shared the cores).
QUIET_REFERENCE = 320.0
FALL = 0.10  # a figure whose every sample is this much below the recorded one is reported as a fall
SAMPLES = 7  # passes per figure of the regression check (compare), each between two reference measurements
SAMPLE_S = 0.5  # seconds of play a pass
REF_STEPS = 20_000_000  # steps of a reference measurement in the check (about 0.07 s on the quiet machine)


@numba.njit(cache=True, nogil=True)
def _reference_loop(table, steps):
    """A fixed mix of what the game kernels do (integer hashing, data-dependent loads and stores in a small table,
    unpredictable branches), one thread; returns a checksum so that nothing is optimised away."""
    x = np.uint64(0x9E3779B97F4A7C15)
    acc = np.int64(0)
    mask = table.shape[0] - 1
    for _ in range(steps):
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        i = np.int64(x & np.uint64(mask))
        v = table[i]
        if v & 1:
            acc += v
        else:
            acc -= v >> 1
        table[(i + acc) & mask] = v + 1
    return acc


def reference_rate(steps=20_000_000, repeat=3, clock=time.perf_counter):
    """The machine's speed now: million steps of _reference_loop per second on one thread (median of `repeat`
    timed passes over the same work, after a warm-up that compiles or loads it).  clock=time.process_time counts
    only the time this process ran, which other jobs sharing the cores do not stretch."""
    table = np.arange(4096, dtype=np.int64)
    _reference_loop(table, 1000)
    rates = []
    for _ in range(repeat):
        t = clock()
        _reference_loop(table, steps)
        rates.append(steps / (clock() - t) / 1e6)
    return statistics.median(rates)


def normalised(rate, reference):
    """A games/s figure measured beside `reference` (reference_rate()) as it would read on the quiet machine."""
    return rate * QUIET_REFERENCE / reference


def _sim_rates(spec, design, pvec, buffers, threads, n, repeat):
    """Simulation only on `threads` threads, n games `repeat` times into the same buffers: the games per wall
    second and per CPU second of the process (all its threads) of each repetition."""
    numba.set_num_threads(threads)
    wall, cpu = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        for start in range(0, n, DEFAULT_CHUNK):
            simulate(spec, design, pvec, 0, start, min(n, start + DEFAULT_CHUNK), buffers)
        wall.append(n / (time.perf_counter() - t))
        cpu.append(n / max(time.process_time() - c, 1e-9))
    return wall, cpu


def _child(game, players, games, env_extra):
    env = dict(os.environ, **env_extra)
    code = _CHILD.format(game=game, players=players, games=games)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    total, play = map(float, out.stdout.split()[-2:])
    return total, play


def bench(game, players, games, nojit_games=200, out_json=None, echo=print, repeat=3):
    """Run the benchmark and return its figures (also written to out_json when given).  Each simulation-only and
    end-to-end figure is the median of `repeat` measurements (the best is reported beside it)."""
    spec, _, _ = prepare(game, (players,), 1)
    res = {"game": spec.name, "players": players, "games": games, "cores": os.cpu_count()}
    with tempfile.TemporaryDirectory() as cache:
        env = {"SIM_CACHE_DIR": cache}
        t_cold, _ = _child(game, players, 1, dict(env, NUMBA_CACHE_DIR=str(Path(cache) / "nb")))
        t_warm, _ = _child(game, players, 1, dict(env, NUMBA_CACHE_DIR=str(Path(cache) / "nb")))
    res["compile_first_run_s"] = round(t_cold, 2)
    res["cached_start_s"] = round(t_warm, 2)
    echo(f"compile (first run, fresh cache): {t_cold:.1f} s; later runs start in {t_warm:.2f} s")

    spec, design, pvec = prepare(game, (players,), games)
    # played into one set of output buffers, as a run does (first touched here, outside the timing)
    buffers = output_buffers(spec, min(games, DEFAULT_CHUNK))
    for a in buffers.values():
        a.fill(0)
    simulate(spec, design, pvec, 0, 0, 1, buffers)
    all_threads = numba.config.NUMBA_NUM_THREADS
    reference = [reference_rate(clock=time.process_time)]
    for threads in sorted({1, all_threads}):
        n = max(1, games // (4 if threads == 1 else 1))
        rates, cpu_rates = _sim_rates(spec, design, pvec, buffers, threads, n, repeat)
        res[f"sim_games_per_cpu_s_{threads}t"] = round(statistics.median(cpu_rates))
        sim_rate = statistics.median(rates)
        res[f"sim_games_per_s_{threads}t"] = round(sim_rate)
        res[f"sim_games_per_s_{threads}t_best"] = round(max(rates))
        echo(
            f"{threads} thread(s): {sim_rate:,.0f} games/s simulation only ({n:,} games, median of {repeat}; "
            f"best {max(rates):,.0f})"
        )
    numba.set_num_threads(all_threads)
    reference.append(reference_rate(clock=time.process_time))
    res["reference_mops"] = round(statistics.mean(reference), 1)
    for threads in sorted({1, all_threads}):
        res[f"sim_games_per_s_{threads}t_normalised"] = round(
            normalised(res[f"sim_games_per_cpu_s_{threads}t"] * threads, res["reference_mops"])
        )
    echo(
        f"machine reference: {res['reference_mops']:.1f} M steps per CPU second (quiet machine: "
        f"{QUIET_REFERENCE:g}); normalised (games per CPU second x threads x quiet / reference) "
        + ", ".join(f"{res[f'sim_games_per_s_{t}t_normalised']:,} games/s on {t}" for t in sorted({1, all_threads}))
    )
    res["parallel_efficiency"] = round(
        res[f"sim_games_per_s_{all_threads}t"] / (all_threads * res["sim_games_per_s_1t"]), 3
    )
    # A real run, cut into at least four chunks so that writing overlaps play as it does in a long study.
    chunk = min(DEFAULT_CHUNK, -(-games // 4))
    runs = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            run_study(game, Path(tmp) / "run", games=games, players=(players,), chunk_size=chunk, progress=False)
            wall = time.perf_counter() - t
            runs.append((wall, json.loads((Path(tmp) / "run" / "manifest.json").read_text())["timings"]))
    runs.sort(key=lambda r: r[0])
    wall, timings = runs[len(runs) // 2]  # the median run (of an odd number; the slower middle one else)
    res["end_to_end_best_games_per_s"] = round(games / runs[0][0])
    res["end_to_end_wall_s"] = round(wall, 2)
    res["end_to_end_games_per_s"] = round(games / wall)
    res["end_to_end_after_start_games_per_s"] = round(timings["games_per_s"])
    res["write_s"] = timings["write_s"]
    echo(
        f"end to end, {games:,} games on {all_threads} threads with parquet writing ({-(-games // chunk)} chunks, "
        f"median of {repeat}): {wall:.2f} s, {games / wall:,.0f} games/s ({timings['games_per_s']:,.0f} games/s "
        f"once started; writing {timings['write_s']:.2f} s, overlapped; best {games / runs[0][0]:,.0f} games/s); "
        f"parallel efficiency {res['parallel_efficiency']:.0%}"
    )
    res["rollout_policy"] = rollout_preset(spec).name
    for threads in sorted({1, all_threads}):
        numba.set_num_threads(threads)
        rate, done, dt = rollout_rate(spec, players)
        res[f"rollouts_per_s_{threads}t"] = round(rate)
        echo(
            f"search: {rate:,.0f} rollouts/s on {threads} thread(s) ({res['rollout_policy']} in every seat, "
            f"from sampled decisions on: {done:,} rollouts in {dt:.1f} s)"
        )
    numba.set_num_threads(all_threads)
    if nojit_games:
        _, play = _child(game, players, nojit_games, {"NUMBA_DISABLE_JIT": "1"})
        nojit_rate = nojit_games / play
        res["nojit_games_per_s"] = round(nojit_rate, 1)
        res["jit_speedup_1t"] = round(res["sim_games_per_s_1t"] / nojit_rate)
        echo(
            f"NUMBA_DISABLE_JIT=1: {nojit_rate:,.1f} games/s single-thread -> the JIT is "
            f"{res['jit_speedup_1t']:,}x faster"
        )
    if out_json:
        Path(out_json).parent.mkdir(parents=True, exist_ok=True)
        Path(out_json).write_text(json.dumps(res, indent=1))
    return res


def _recorded(path):
    """The figures of a bench/<game>.json, checked: a UserError names what is wrong."""
    from .game import get_game

    try:
        rec = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise UserError(f"--compare {path}: no such file (a bench/<game>.json written by sim bench --json)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise UserError(f"--compare {path}: not a readable JSON file ({e})") from None
    need = ("game", "players", "sim_games_per_s_1t")
    if not isinstance(rec, dict) or any(k not in rec for k in need):
        raise UserError(f"--compare {path}: a bench figures file needs the keys {', '.join(need)}")
    spec = get_game(rec["game"])
    rates = [v for k, v in rec.items() if k.startswith("sim_games_per_s_") and k.endswith("t")]
    if not isinstance(rec["players"], int) or not all(isinstance(v, (int, float)) and v > 0 for v in rates):
        raise UserError(f"--compare {path}: players must be an integer and every games/s figure positive")
    return spec, rec


def judge(samples, then, ref_then=None, fall=FALL):
    """The verdict on one figure from its samples: a list of (raw games/s, normalised games/s), each normalised by
    the reference measured just before and just after it.  Compared normalised against `then` normalised by
    `ref_then` (the recorded reference), or raw against `then` when the file recorded none.  Returns the median
    figure, its change on the record and the spread of the changes (lowest, highest sample); `fell` only when even
    the highest sample is more than `fall` below the record (noise inside the spread is never a fall)."""
    raw = np.array([r for r, _ in samples], float)
    norm = np.array([v for _, v in samples], float)
    base = normalised(then, ref_then) if ref_then else float(then)
    vals = norm if ref_then else raw
    change = vals / base - 1.0
    return {
        "raw": round(float(np.median(raw))),
        "normalised": round(float(np.median(norm))),
        "recorded_normalised": round(base) if ref_then else None,
        "change": float(np.median(change)),
        "change_lo": float(change.min()),
        "change_hi": float(change.max()),
        "fell": bool(change.max() < -fall),
    }


def _row_line(r):
    """One row of the comparison table."""
    then_n = f"{r['recorded_normalised']:,}" if r["recorded_normalised"] else "-"
    spread = f"{r['change_lo']:+.0%}..{r['change_hi']:+.0%}"
    return (
        f"{r['game']:<16} {r['players']:>7} {r['threads']:>7} {r['recorded']:>9,} {r['raw']:>9,} "
        f"{r['reference_mops']:>10.1f} {then_n:>10} {r['normalised']:>10,} {r['change']:>+8.1%} {spread:>13}"
        + ("  FELL" if r["fell"] else "")
    )


def _interleaved(spec, design, pvec, buffers, threads, n, samples):
    """`samples` passes of n games on `threads` threads, each between two reference measurements (the one after a
    pass is the one before the next): (raw games per wall second, normalised games per CPU second x threads) per
    pass, and the references.  Each pass is normalised by the mean of its own two neighbours, so a change of the
    machine's speed between passes (other jobs, frequency) moves the reference with it."""
    refs = [reference_rate(steps=REF_STEPS, repeat=1, clock=time.process_time)]
    out = []
    for _ in range(samples):
        wall, cpu = _sim_rates(spec, design, pvec, buffers, threads, n, 1)
        refs.append(reference_rate(steps=REF_STEPS, repeat=1, clock=time.process_time))
        out.append((wall[0], normalised(cpu[0] * threads, (refs[-2] + refs[-1]) / 2)))
    return out, refs


def compare(paths, seconds=SAMPLE_S, samples=SAMPLES, echo=print):
    """Play each recorded benchmark again beside the machine reference and print raw and normalised games/s
    against the recorded ones, the spread of the samples, and which game fell by more than FALL (normalised where
    the file recorded its reference, raw where it did not; judge()).  Each figure is `samples` passes of about
    `seconds` of play, interleaved with the reference.  Returns one dict per game and thread count.  Every file is
    checked before anything is played."""
    recorded = [_recorded(p) for p in paths]
    all_threads = numba.config.NUMBA_NUM_THREADS
    rows = []
    echo(
        f"{'game':<16} {'players':>7} {'threads':>7} {'recorded':>9} {'raw now':>9} {'reference':>10} "
        f"{'norm. then':>10} {'norm. now':>10} {'change':>8} {'spread':>13}"
    )
    for spec, rec in recorded:
        prepare(spec, (rec["players"],), 1)  # the player count is valid for the game
        ref_then = rec.get("reference_mops")
        for threads in sorted({1, all_threads}):
            then = rec.get(f"sim_games_per_s_{threads}t")
            if then is None:
                continue
            # sized by a pilot (after the compile or cache load) to about `seconds` a pass now, whatever the file says
            _, design, pvec = prepare(spec, (rec["players"],), 200)
            simulate(spec, design, pvec, 0, 0, 1)
            pilot = _sim_rates(spec, design, pvec, None, threads, 200, 1)[1][0]
            n = max(200, min(int(pilot * seconds), 10 * DEFAULT_CHUNK))
            _, design, pvec = prepare(spec, (rec["players"],), n)
            buffers = output_buffers(spec, min(n, DEFAULT_CHUNK))
            # Raw: games per wall second.  Normalised: games per CPU second of the process (times the threads; what
            # other jobs on the cores do not stretch) scaled by the reference, also per CPU second, to the quiet
            # machine.  A shared machine's load changes the raw figure, not (much) the normalised one.
            measured, refs = _interleaved(spec, design, pvec, buffers, threads, n, samples)
            numba.set_num_threads(all_threads)
            row = {"game": spec.name, "players": rec["players"], "threads": threads, "games": n, "recorded": then}
            row.update({"reference_mops": round(statistics.median(refs), 1), "recorded_reference_mops": ref_then})
            row.update(judge(measured, then, ref_then))
            row["samples"] = len(measured)
            rows.append(row)
            echo(_row_line(row))  # as measured: a long check shows its progress
    fell = sorted({r["game"] for r in rows if r["fell"]})
    echo(
        f"games/s of simulation only, the median of {samples} passes of about {seconds:g} s, each normalised by the "
        f"reference measured just before and after it; spread: the lowest and highest pass's change; raw: per wall "
        f"second; normalised: per CPU second x threads x quiet reference ({QUIET_REFERENCE:g} M steps/s) / reference "
        "now (per CPU second); a file without a recorded reference is compared raw; "
        + (
            f"fell by more than {FALL:.0%} in every pass: {', '.join(fell)}"
            if fell
            else f"no game fell by more than {FALL:.0%} in every pass"
        )
    )
    return rows
