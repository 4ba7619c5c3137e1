"""Where a game's first compile goes: every numba compile of its kernel, with its argument types and seconds.

    SIM_CACHE_DIR=$(mktemp -d) python bench/compile_profile.py GAME [--top 40]

Compiles the default line-up's kernel in this one process (the second compile process of sim.kernel.compile_ahead
is not started, so every function is seen) with numba's compile events recorded, then prints one line per compile:
exclusive and inclusive seconds, nesting depth, module.function and its argument types (S: the state record).
A fresh SIM_CACHE_DIR is needed, or functions already cached are loaded instead of compiled.  The same function
listed twice with different argument types (a literal constant, an int8 field) is compiled twice: `sim.kernel.
one_copy` or `declared` gives it one copy (docs/PERFORMANCE.md, "One compiled copy per helper").
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.getcwd())

from numba.core import event  # noqa: E402


def _label(dispatcher, args):
    def arg(t):
        text = str(t)
        return "S" if text.startswith("Record(") else text

    func = dispatcher.py_func
    return f"{func.__module__}.{func.__qualname__}({', '.join(arg(t) for t in args)})"


def compiles(recorded):
    """(exclusive s, inclusive s, depth, label) per compile from numba:compile start/end events, largest first."""
    stack, rows = [], []
    for stamp, ev in recorded:
        if ev.is_start:
            stack.append([stamp, _label(ev.data["dispatcher"], ev.data["args"]), len(stack), 0.0])
            continue
        start, label, depth, children = stack.pop()
        spent = stamp - start
        if stack:
            stack[-1][3] += spent
        rows.append((spent - children, spent, depth, label))
    return sorted(rows, reverse=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("--top", type=int, default=40, help="lines printed (default 40)")
    a = ap.parse_args()
    if "SIM_CACHE_DIR" not in os.environ:
        sys.exit("set SIM_CACHE_DIR to a new empty folder: functions already in the cache are not compiled")
    import sim.kernel as kernel
    from sim.runner import prepare, simulate

    def no_child(*_args, **_kw):  # compile_ahead then compiles both halves here
        raise OSError("bench/compile_profile.py compiles in one process")

    kernel.subprocess.Popen = no_child
    recorder = event.RecordingListener()
    event.register("numba:compile", recorder)
    spec, design, pvec = prepare(a.game, None, 50)
    start = time.perf_counter()
    simulate(spec, design, pvec, 1, 0, 50)
    rows = compiles(recorder.buffer)
    print(f"{a.game}: {time.perf_counter() - start:.1f} s, {len(rows)} compiles; exclusive / inclusive s, depth")
    for exclusive, inclusive, depth, label in rows[: a.top]:
        print(f"{exclusive:8.2f} {inclusive:8.2f}  {depth}  {label}")


if __name__ == "__main__":
    main()
