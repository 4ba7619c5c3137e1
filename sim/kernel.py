"""The batch kernel's machinery: one body of real Python, a copy of it generated per game.

Numba never serves a function from its cache when it receives another jitted function as an argument or closes
over one (numba issue 9237; measured here: recompiled in every process).  So the play loop, the search player and
the audit loop live once, in sim/kernel_body.py (and the traced play of `sim run --standings` in
sim/kernel_traced.py), bound to the template game so that tools read, lint and run them as they stand; for a game,
load_kernel writes a copy with only the binding block (the engine, strategies and per-game constants, between two
marker comments) replaced by the game's, into the game's source-keyed cache folder (sim.game_cache_root), and
imports it: every game gets a cached kernel and the play loop lives in exactly one place.
"""

import functools
import importlib.util
import itertools
import pickle
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path

import numba as nb
from numba.core import sigutils
import numpy as np

from . import use_game_cache

LEGAL_TYPE = nb.int64[::1]  # numba type of the list of legal actions the kernel passes (np.empty(n, np.int64))
LEGAL_OVERFLOW = -(1 << 62)  # play_one's return when a legal-action list outgrew MAX_ACTIONS (sim.toolkit.push)


@nb.njit(cache=True, inline="always")
def no_quick_choice(s, p, seat, sid, weights):
    """The quick_choice of a strategy package that has none: every decision goes through the legal-action list."""
    return -1


def declared(signature, **options):
    """@nb.njit(signature, cache=True, **options), compiled at its first use rather than at import.

    A helper called from many places is compiled for one declared signature, the arguments converted at each
    call, instead of once per tuple of argument types at its call sites (see docs/ARCHITECTURE.md, "One compiled
    copy per helper").  numba compiles a declared signature when the module is imported: BANG's 22 such helpers
    took 6 s of its first compile, on one core, before the kernel's two compile processes start.  Compiled at
    first use, each process of the first compile (compile_ahead) compiles only the helpers of its own half."""
    return _compiled_as(options, lambda _asked: signature, then_freeze=True)


def one_copy(**options):
    """@nb.njit(cache=True, **options) compiled for its callers' argument types widened (_one_copy_type), so
    that calls passing a constant (which numba types as its literal value), an int8 state field or an int64 share
    one compiled copy instead of one each: Gunny Town compiled _credit 20 times and _push 40 times.  For a helper
    whose argument types are known in advance, `declared` names them instead."""

    def widened(asked):
        args, _ = sigutils.normalize_signature(asked)
        return tuple(_one_copy_type(t) for t in args)

    return _compiled_as(options, widened, then_freeze=False)


def _one_copy_type(t):
    """A call's argument type as one_copy compiles it: signed integers (literal or narrower) as int64, literal
    booleans as bool; anything else as it is."""
    t = nb.types.unliteral(t)
    return nb.int64 if isinstance(t, nb.types.Integer) and t.signed else t


def _compiled_as(options, signature_for, then_freeze):
    """nb.njit(cache=True, **options) whose dispatcher, asked by numba to compile the argument types of a call,
    compiles signature_for(those types) instead; numba then converts the call's arguments to it.  then_freeze:
    compile nothing else afterwards, as numba does for an eager signature."""

    def wrap(func):
        dispatcher = nb.njit(cache=True, **options)(func)
        if nb.config.DISABLE_JIT:
            return dispatcher
        compile_asked = dispatcher.compile

        def compile_instead(asked):
            entry = compile_asked(signature_for(asked))
            if then_freeze:
                dispatcher.disable_compile()
            return entry

        dispatcher.compile = compile_instead
        return dispatcher

    return wrap


TRACE_ROWS = 256  # standings rows kept per game by play_traced; a longer game is thinned (see record_standing)


@nb.njit(cache=True, nogil=True)
def first_rows(block, count):
    """Kernel output compacted for the tables: the first count[g] slots of each game g of a (games, slots, columns)
    block, as (columns, rows) contiguous, with each row's game and slot.  One pass over the live rows, where
    numpy needs a mask over every slot, a gather and a transpose.  Without the GIL: it runs in the writer thread
    while the kernel's threads need the GIL between blocks."""
    games, slots, cols = block.shape
    total = 0
    for g in range(games):
        total += min(max(count[g], 0), slots)
    out = np.empty((cols, total), block.dtype)
    row_game = np.empty(total, np.int64)
    row_slot = np.empty(total, np.int64)
    k = 0
    for g in range(games):
        for r in range(min(max(count[g], 0), slots)):
            for j in range(cols):
                out[j, k] = block[g, r, j]
            row_game[k] = g
            row_slot[k] = r
            k += 1
    return out, row_game, row_slot


_pool = None


def run_blocks(play_blocks, states, args):
    """Play every block of a batch: numba.get_num_threads() threads each take the next unplayed block until none
    is left (a block's games always run on its own state, so the results do not depend on the thread count).
    The kernel releases the GIL, so the threads run side by side.  Plain threads rather than a `prange` loop:
    numba compiles a prange kernel as a parallel function around the whole game, which took about 10 of BANG's
    50 s first compile (see docs/ARCHITECTURE.md)."""
    global _pool
    blocks = states.shape[0]
    threads = min(nb.get_num_threads(), blocks)
    if threads <= 1 or nb.config.DISABLE_JIT:
        play_blocks(states, 0, blocks, *args)
        return
    if _pool is None:
        _pool = ThreadPoolExecutor(nb.config.NUMBA_NUM_THREADS, thread_name_prefix="sim-kernel")
    next_block = itertools.count()  # next() on a count is atomic under the GIL
    stop = []

    def worker():
        for b in iter(next_block.__next__, None):
            if b >= blocks or stop:
                return
            play_blocks(states, b, b + 1, *args)

    futures = [_pool.submit(worker) for _ in range(threads)]
    try:
        for f in futures:
            f.result()
    finally:  # an error or an interrupt stops the other threads at their next block
        stop.append(True)
        wait(futures)


CHILD_COMPILE_TIMEOUT_S = 600
# Compiles its half of a kernel's callees into numba's cache while the parent compiles the other half.
_COMPILE_CHILD = """
import importlib, pickle, sys
from sim.kernel import kernel_function, load_kernel
kernel = load_kernel(importlib.import_module(sys.argv[1]).GAME)
for name, types in pickle.load(sys.stdin.buffer).items():
    kernel_function(kernel, name).compile(types)
"""


def kernel_function(kern, name):
    """A function of callee_types by name: one of the kernel's own, or 'engine.<name>' for the engine's."""
    return functools.reduce(getattr, name.split("."), kern)


def compile_ahead(kern, states, args):
    """A game's first compile, on two cores.  Numba compiles one function at a time per process, so a child
    process compiles the decisions and the outcome (the strategies' choose, the kernel's decide and
    write_outcome) into numba's cache while this process compiles the engine's moves (setup, apply_action,
    is_over); play_blocks is then compiled around both, the child's half loaded from the cache.  An engine may
    move functions between the halves (callee_types).  BANG's first compile went from 39-40 s to 29-30 s, and
    to 29-30 s from 36-38 s when its engine balanced the halves.
    Does nothing once play_blocks is compiled (a stamp beside the kernel file, whose folder is keyed by the
    source); if the child fails or cannot start, this process compiles everything itself, as numba would."""
    stamp = Path(kern.__file__).with_suffix(".compiled")
    if nb.config.DISABLE_JIT or kern.play_blocks.signatures or stamp.exists():
        return
    in_child, here = kern.callee_types(states, *args)
    child = None
    try:
        child = subprocess.Popen(
            [sys.executable, "-c", _COMPILE_CHILD, kern.GAME_PACKAGE],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        child.stdin.write(pickle.dumps(in_child))
        child.stdin.close()
    except OSError:  # no child: everything is compiled here
        if child is not None:
            child.kill()
        child = None
    try:
        for name, types in here.items():
            kernel_function(kern, name).compile(types)
        if child is not None:
            child.wait(timeout=CHILD_COMPILE_TIMEOUT_S)
    except subprocess.TimeoutExpired:  # a stuck child: what it has not cached is compiled here
        pass
    finally:  # an error or an interrupt here leaves no child behind
        if child is not None and child.poll() is None:
            child.kill()
    kern.play_blocks.compile(tuple(nb.typeof(a) for a in (states, 0, 0) + tuple(args)))
    stamp.touch()


_loaded = {}


_RECORD_ATTRS = frozenset(a for a in dir(np.record) if not a.startswith("_"))


def check_state_dtype(engine):
    """A state field named like a numpy.record attribute (dtype, round, size, ...) reads as that attribute when
    the engine runs interpreted (NUMBA_DISABLE_JIT=1): refuse such a layout with a clear message."""
    clash = sorted(set(engine.STATE_DTYPE.names) & _RECORD_ATTRS)
    if clash:
        raise TypeError(
            f"{engine.__name__}.STATE_DTYPE: field(s) {', '.join(clash)} shadow numpy.record attributes; rename them"
        )


def _widened(dtype):
    """The state layout with every signed integer field as int64.  Interpreted numpy raises on arithmetic such as
    int8_field * 1000 (NEP 50) where compiled code widens to int64; widening the storage gives the compiled
    semantics, and a compiled engine that overflowed a narrow field would now disagree (a bug the tests see)."""
    fields = []
    for name in dtype.names:
        sub = dtype[name]
        base, shape = sub.base, sub.shape
        if base.kind == "i":
            base = np.dtype(np.int64)
        fields.append((name, base, shape) if shape else (name, base))
    return np.dtype(fields)


STATE_BLOCKS = 256  # states a batch reuses (see play_batch): enough blocks to keep every core busy


def new_states(engine, n):
    """n zeroed game states.  Without the JIT (NUMBA_DISABLE_JIT=1) they are a recarray with widened integers, so
    that `states[i]` is a record with attribute access and the arithmetic of compiled code."""
    import numba

    if numba.config.DISABLE_JIT:
        return np.zeros(n, _widened(engine.STATE_DTYPE)).view(np.recarray)
    return np.zeros(n, engine.STATE_DTYPE)


def has_standings(game):
    """Whether the game's engine defines standings(s, p, out) -> round, for `sim run --standings` (a function of
    that name with other arguments is a helper of the engine's own, not this)."""
    import inspect

    f = getattr(game.engine_module(), "standings", None)
    return f is not None and len(inspect.signature(getattr(f, "py_func", f)).parameters) == 3


BODY = Path(__file__).with_name("kernel_body.py")  # the kernel, bound to the template game
TRACED_BODY = Path(__file__).with_name("kernel_traced.py")  # the traced play, likewise
_BINDING = re.compile(r"^# >>> game binding\b.*?\n(.*?)^# <<< game binding\n", re.M | re.S)


def split_binding(text):
    """(before, binding block, after) of a kernel body's text: the block is the lines between the marker comments
    '# >>> game binding' and '# <<< game binding' (the markers stay in before and after)."""
    found = list(_BINDING.finditer(text))
    if len(found) != 1:
        raise ValueError(f"a kernel body needs exactly one game binding block (found {len(found)})")
    m = found[0]
    return text[: m.start(1)], m.group(1), text[m.end(1) :]


def _package(game):
    return game.engine.rsplit(".", 1)[0]


def binding(game):
    """The binding block of sim/kernel_body.py for a GameSpec: its engine, its strategies' choose, its
    determinize (<package>/hidden.py, or none: its search then peeks) and the per-game constants."""
    package = _package(game)
    if importlib.util.find_spec(package + ".hidden") is not None:
        determinize = f"from {package}.hidden import determinize"
    else:
        determinize = "from sim.search import determinize_nothing as determinize"
    rank_col = list(game.seat_columns).index("rank")
    # a strategy package may answer some decisions without the legal-action list (quick_choice; docs/ARCHITECTURE)
    quick = hasattr(importlib.import_module(game.strategy_module), "quick_choice")
    if quick:
        quick_import = f"from {game.strategy_module} import quick_choice"
    else:
        quick_import = "from sim.kernel import no_quick_choice as quick_choice"
    # decide runs once per decision: without reference counting it saves ten calls that change counts per
    # decision (measured +3-4% on Raccoon Tycoon), unless the game's decision code allocates
    return (
        f"# game {game.name}: edit sim/kernel_body.py, never a generated copy\n"
        f"import {game.engine} as engine\n"
        f"from {game.engine} import MAX_ACTIONS, MAX_STEPS\n"
        f"from {game.engine} import apply_action, current_player, is_over, legal_actions, setup, write_outcome\n"
        f"{determinize}\n"
        f"from {game.strategy_module} import choose\n"
        f"{quick_import}\n"
        "\n"
        f"QUICK = {quick}  # the strategies name some actions without the legal-action list (quick_choice)\n"
        f"RANK_COL = {rank_col}  # seat_columns index of 'rank' (0 on the rows of absent seats)\n"
        f'GAME_PACKAGE = "{package}"  # its GAME is the GameSpec\n'
        f"DECIDE_NRT = {bool(game.decisions_allocate)}  # reference counting in decide: only where the game's "
        "decisions allocate (decisions_allocate)\n"
    )


def traced_binding(game, kernel_module):
    """The binding block of sim/kernel_traced.py for a GameSpec whose kernel is the module kernel_module."""
    return (
        f"# game {game.name}: edit sim/kernel_traced.py, never a generated copy\n"
        f"from {game.engine} import MAX_ACTIONS, MAX_STEPS, apply_action, is_over, setup, standings, write_outcome\n"
        f"from {kernel_module} import QUICK, clear_outcome, decide, make_work, quick, search_choose\n"
    )


def generated(body, block):
    """The text of the kernel body file `body` with its binding block replaced by `block`."""
    before, _, after = split_binding(body.read_text())
    return before + block + after


def _kernel_module(game):
    return f"sim_kernel_{game.name}"


def _import_generated(game, src, filename, modname):
    """Write src as filename in the game's kernel folder (beside its numba cache) unless it is there already, and
    import it as module modname (registered in sys.modules: numba's cache re-imports the module by name when
    it loads)."""
    root = use_game_cache(_package(game))  # the kernel is cached beside its game's code
    folder = root / "kernels"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / filename
    if not path.exists() or path.read_text() != src:
        tmp = path.with_suffix(f".tmp{id(src)}")
        tmp.write_text(src)
        tmp.replace(path)  # atomic: parallel processes never import a half-written file
    spec = importlib.util.spec_from_file_location(modname, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    spec.loader.exec_module(module)
    return module


def load_kernel(game):
    """The generated kernel module for a GameSpec (written and imported once per process)."""
    if game.name not in _loaded:
        check_state_dtype(game.engine_module())
        src = generated(BODY, binding(game))
        _loaded[game.name] = _import_generated(game, src, f"{game.name}_kernel.py", _kernel_module(game))
    return _loaded[game.name]


def load_traced(game):
    """The generated traced-play module (play_traced, play_traced_batch) of a GameSpec whose engine defines
    standings (has_standings), beside its kernel."""
    key = game.name + ":traced"
    if key not in _loaded:
        if not has_standings(game):
            raise ValueError(f"{game.engine} defines no standings(s, p, out): the game has no traced play")
        load_kernel(game)  # imported first: the traced play imports its functions
        src = generated(TRACED_BODY, traced_binding(game, _kernel_module(game)))
        _loaded[key] = _import_generated(game, src, f"{game.name}_traced.py", _kernel_module(game) + "_traced")
    return _loaded[key]
