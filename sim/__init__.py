"""Monte Carlo balance lab for tabletop games: numba-jitted engines, parquet results, analysis and reports."""

import hashlib
import os
from pathlib import Path

__version__ = "0.1.0"

_ROOT = Path(__file__).resolve().parent
_STRATEGIES = _ROOT.parent / "strategies"


def _hash_files(paths):
    h = hashlib.sha256()
    for path in sorted(paths):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _jitted_core_files():
    """Core modules that hold jitted code (any sim/*.py with an njit function): every game's compiled code depends
    on them."""
    return [p for p in _ROOT.glob("*.py") if "njit" in p.read_text()]


def source_hash():
    """Hash of every .py file of the package and the strategies (recorded in manifests as the code version)."""
    return _hash_files(list(_ROOT.rglob("*.py")) + list(_STRATEGIES.rglob("*.py")))


def _cache_base():
    return Path(os.environ.get("SIM_CACHE_DIR") or Path.home() / ".cache" / "balance-lab")


def cache_root():
    """Cache folder keyed by the jitted core's source (override the base with SIM_CACHE_DIR)."""
    return _cache_base() / f"core-{_hash_files(_jitted_core_files())}"


def game_cache_root(package):
    """Cache folder of one game package (e.g. 'sim.games.bang_dice'), keyed by the jitted core, every file of the
    game's folder and its strategies package (strategies/<name>/).  Numba's cache only checks a function's own
    file, so a key over every file a game's compiled code can depend on is what keeps stale machine code out;
    keying per game means an edit to one game never recompiles the others."""
    import importlib.util

    spec = importlib.util.find_spec(package)
    folder = Path(spec.origin).parent
    name = package.rsplit(".", 1)[-1]
    files = _jitted_core_files() + list(folder.rglob("*.py")) + list((_STRATEGIES / name).rglob("*.py"))
    return _cache_base() / f"{name}-{_hash_files(files)}"


def use_game_cache(package):
    """Direct numba's cache to the game's folder.  A game package and its strategies package call this first thing
    in their __init__.py: numba fixes a function's cache location when the function is decorated, i.e. when its
    module is imported, and another game may have been imported in between."""
    import numba

    folder = game_cache_root(package) / "numba"
    numba.config.CACHE_DIR = str(folder)
    return folder.parent


if "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = str(cache_root() / "numba")
