"""Play a game's default line-up on one thread with a perf map of its jitted code, so `perf` names numba's functions.

    NUMBA_NUM_THREADS=1 perf record -F 4999 -o perf.data -- python bench/perf_map.py GAME GAMES
    perf report -i perf.data --no-children --sort dso,sym

After a warm-up (which compiles or loads the kernel), /tmp/perf-PID.map lists every function of every loaded numba
library, local copies included, with its exact size: the symbol table of the library's object code (as compiled or
loaded from the cache, so a warm cache works), placed by one symbol per section that the JIT engine resolves.
Functions inlined into a caller count as the caller.  Needs `nm` and `readelf` (binutils).
"""

import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.getcwd())

import numba.core.codegen as codegen  # noqa: E402
from numba.core.dispatcher import Dispatcher  # noqa: E402
from numba.core.registry import cpu_target  # noqa: E402

OBJECTS = {}  # library name -> its object code
_set_compiled_object = codegen.CPUCodeLibrary._set_compiled_object
_compiled_hook = codegen.CPUCodeLibrary._object_compiled_hook
_getbuffer_hook = codegen.CPUCodeLibrary._object_getbuffer_hook


def _loaded(library, buf):  # a library loaded from numba's cache
    OBJECTS[library.name] = buf
    return _set_compiled_object(library, buf)


def _compiled(ll_module, buf):  # a library compiled in this process
    _compiled_hook(ll_module, buf)
    library = getattr(ll_module, "_CPUCodeLibrary__library", None)
    if library is not None:
        OBJECTS[library.name] = buf


codegen.CPUCodeLibrary._set_compiled_object = _loaded
cpu_target.target_context.codegen()._engine.set_object_cache(_compiled, _getbuffer_hook)

from sim.runner import prepare, simulate  # noqa: E402


def symbols(buf):
    """(offset, size, name, section index) of the functions defined in an object file's bytes."""
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(buf)
        f.flush()
        nm = subprocess.run(["nm", "-S", "--defined-only", f.name], capture_output=True, text=True, check=True)
        elf = subprocess.run(["readelf", "-sW", f.name], capture_output=True, text=True, check=True)
    section = {p[7]: p[6] for p in (line.split() for line in elf.stdout.splitlines()) if len(p) >= 8 and p[3] == "FUNC"}
    rows = []
    for line in nm.stdout.splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in "tTwW":
            rows.append((int(p[0], 16), int(p[1], 16), p[3], section.get(p[3])))
    return rows


def libraries():
    """Every library of a compiled overload of a dispatcher in the lab's modules and the generated kernels."""
    found = {}
    for name, module in list(sys.modules.items()):
        if name.startswith(("sim", "strategies")):
            for v in list(vars(module).values()):
                if isinstance(v, Dispatcher):
                    for cres in v.overloads.values():
                        found[id(cres.library)] = cres.library
    return list(found.values())


def write_map():
    entries = set()
    engine = cpu_target.target_context.codegen()._engine
    for library in libraries():
        buf = OBJECTS.get(library.name)
        if not buf:
            continue
        rows = symbols(buf)
        base = {}  # per section: its load address, from a symbol the engine resolves (NRT_* resolve elsewhere)
        for off, _, name, sec in rows:
            if sec not in base and not name.startswith("NRT_"):
                addr = engine.get_function_address(name)
                if addr:
                    base[sec] = addr - off
        entries.update((base[sec] + off, size, name) for off, size, name, sec in rows if sec in base and size)
    path = f"/tmp/perf-{os.getpid()}.map"
    with open(path, "w") as f:
        for addr, size, name in sorted(entries):
            f.write(f"{addr:x} {size:x} {name}\n")
    return path, len(entries)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    game, games = sys.argv[1], int(sys.argv[2])
    spec, design, pvec = prepare(game, None, max(games, 1000), None, None, False, None)
    simulate(spec, design, pvec, 1, 0, 200)
    path, n = write_map()
    print(f"{path}: {n} functions", file=sys.stderr)
    t = time.process_time()
    simulate(spec, design, pvec, 2, 0, games)
    print(f"{games / (time.process_time() - t):,.0f} games per CPU second", file=sys.stderr)


if __name__ == "__main__":
    main()
