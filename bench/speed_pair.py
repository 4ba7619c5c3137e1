"""Two versions of the code, timed at the same time, one per core, then with the cores swapped.

    python bench/speed_pair.py GAME GAMES OLD_CHECKOUT NEW_CHECKOUT [--repeat 3]

Each checkout plays GAMES games of GAME's default line-up on one thread (after a warm-up that compiles or loads
it), `--repeat` times; the median games/s is printed per version and core.  On a shared machine only versions
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
rates = []
for r in range(reps):
    t = time.perf_counter()
    simulate(spec, design, pvec, 1 + r, 0, games)
    rates.append(games / (time.perf_counter() - t))
print(sorted(rates)[len(rates) // 2])
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
        old, new = (float(p.communicate()[0].split()[-1]) for p in procs)
        print(
            f"{a.game}: old {old:,.0f} games/s (core {old_core}), new {new:,.0f} (core {new_core}): "
            f"{new / old - 1:+.1%}"
        )


if __name__ == "__main__":
    main()
