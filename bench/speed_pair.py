"""Two versions of the code, timed at the same time, one per core, then with the cores swapped.

    python bench/speed_pair.py GAME GAMES OLD_CHECKOUT NEW_CHECKOUT [--repeat 3]

Each checkout plays GAMES games of GAME's default line-up on one thread (after a warm-up that compiles or loads
it), `--repeat` times; the median games/s is printed per version and core, per wall second and per CPU second of
the process (which other jobs sharing the cores stretch far less).  On a shared machine only versions
measured side by side compare (docs/PERFORMANCE.md, "How to measure").  Needs `taskset` (util-linux).
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path

TIMER = """
import os, sys, time
sys.path.insert(0, os.getcwd())
from sim.runner import prepare, simulate
game, games, reps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
spec, design, pvec = prepare(game, None, games, None, None, False, None)
simulate(spec, design, pvec, 1, 0, 200)
rates, cpu = [], []
for r in range(reps):
    t, c = time.perf_counter(), time.process_time()
    simulate(spec, design, pvec, 1 + r, 0, games)
    rates.append(games / (time.perf_counter() - t))
    cpu.append(games / (time.process_time() - c))
print(sorted(rates)[len(rates) // 2], sorted(cpu)[len(cpu) // 2])
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("games", type=int)
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    env = dict(os.environ, NUMBA_NUM_THREADS="1")
    for old_core, new_core in ((0, 1), (1, 0)):
        procs = [
            subprocess.Popen(
                ["taskset", "-c", str(core), sys.executable, "-c", TIMER, a.game, str(a.games), str(a.repeat)],
                cwd=where,
                env=env,
                stdout=subprocess.PIPE,
                text=True,
            )
            for where, core in ((a.old, old_core), (a.new, new_core))
        ]
        (old, old_cpu), (new, new_cpu) = (map(float, p.communicate()[0].split()[-2:]) for p in procs)
        print(
            f"{a.game}: old {old:,.0f} games/s (core {old_core}), new {new:,.0f} (core {new_core}): "
            f"{new / old - 1:+.1%}; per CPU second old {old_cpu:,.0f}, new {new_cpu:,.0f}: {new_cpu / old_cpu - 1:+.1%}"
        )


if __name__ == "__main__":
    main()
