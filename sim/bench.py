"""`sim bench`: the measured speed of a game's kernel, the figures quoted in the README.

Reports the first-run compile time (in a fresh cache), the cached start-up, games/s single-thread and on all
cores (simulation only), a real run with parquet writing (at least four chunks, so writing overlaps play as in
a long study; games/s with and without the cache load), the parallel efficiency, the search player's rollouts
per second (sim.audit.rollout_rate) and the speed-up over NUMBA_DISABLE_JIT=1.
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

from .audit import rollout_rate
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
    for threads in sorted({1, all_threads}):
        numba.set_num_threads(threads)
        n = max(1, games // (4 if threads == 1 else 1))
        rates = []
        for _ in range(repeat):
            t = time.perf_counter()
            for start in range(0, n, DEFAULT_CHUNK):
                simulate(spec, design, pvec, 0, start, min(n, start + DEFAULT_CHUNK), buffers)
            rates.append(n / (time.perf_counter() - t))
        sim_rate = statistics.median(rates)
        res[f"sim_games_per_s_{threads}t"] = round(sim_rate)
        res[f"sim_games_per_s_{threads}t_best"] = round(max(rates))
        echo(
            f"{threads} thread(s): {sim_rate:,.0f} games/s simulation only ({n:,} games, median of {repeat}; "
            f"best {max(rates):,.0f})"
        )
    numba.set_num_threads(all_threads)
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
    rate, done, dt = rollout_rate(spec, players)
    res["rollouts_per_s"] = round(rate)
    res["rollout_policy"] = rollout_preset(spec).name
    echo(
        f"search: {rate:,.0f} rollouts/s on {all_threads} threads ({res['rollout_policy']} in every seat, "
        f"from sampled decisions on: {done:,} rollouts in {dt:.1f} s)"
    )
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
