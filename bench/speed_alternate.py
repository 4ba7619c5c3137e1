"""Two versions of the code timed in turn on one core: the paired ratio per CPU second, round by round.

    python bench/speed_alternate.py GAME GAMES OLD_CHECKOUT NEW_CHECKOUT [--rounds 20] [--core 1]

Both checkouts start one warm process each (the kernel compiled or loaded, 200 games played), pinned to the same
core; then each round plays GAMES games of GAME's default line-up in one, then the other (the order swapped every
round), on one thread.  Prints the median of the rounds' new/old ratios of games per CPU second with its quartiles.
Steadier than bench/speed_pair.py when the two cores run at different speeds (a shared virtual machine): both
versions meet the same core at nearly the same moment.  Needs `taskset` (util-linux).
"""

import argparse
import os
import statistics
import subprocess
import sys

WORKER = """
import os, sys, time
sys.path.insert(0, os.getcwd())
from sim.runner import prepare, simulate
game, games = sys.argv[1], int(sys.argv[2])
spec, design, pvec = prepare(game, None, games, None, None, False, None)
simulate(spec, design, pvec, 1, 0, 200)
print("ready", flush=True)
for k, _ in enumerate(sys.stdin):
    c = time.process_time()
    simulate(spec, design, pvec, 10 + k, 0, games)
    print(games / (time.process_time() - c), flush=True)
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("games", type=int)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--core", default="1")
    a = ap.parse_args()
    env = dict(os.environ, NUMBA_NUM_THREADS="1")
    procs = [
        subprocess.Popen(
            ["taskset", "-c", a.core, sys.executable, "-c", WORKER, a.game, str(a.games)],
            cwd=where,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for where in (a.old, a.new)
    ]
    for p in procs:
        if p.stdout.readline().strip() != "ready":
            sys.exit(f"a worker did not start in {p.args}")
    old, new = [], []
    for r in range(a.rounds):
        rates = {}
        for i in (0, 1) if r % 2 == 0 else (1, 0):
            procs[i].stdin.write("go\n")
            procs[i].stdin.flush()
            rates[i] = float(procs[i].stdout.readline())
        old.append(rates[0])
        new.append(rates[1])
    for p in procs:
        p.stdin.close()
        p.wait()
    ratios = sorted(n / o - 1 for o, n in zip(old, new))
    q1, _, q3 = statistics.quantiles(ratios, n=4)
    print(
        f"{a.game}: {a.rounds} rounds on core {a.core}: per CPU second old {statistics.median(old):,.0f}, new "
        f"{statistics.median(new):,.0f}; paired ratio median {statistics.median(ratios):+.1%} "
        f"(quartiles {q1:+.1%}..{q3:+.1%})"
    )


if __name__ == "__main__":
    main()
