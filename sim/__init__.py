"""Monte Carlo balance lab for tabletop games: numba-jitted engines, parquet results, analysis and reports."""
import hashlib
import os
from pathlib import Path

__version__ = "0.1.0"

_ROOT = Path(__file__).resolve().parent


def source_hash():
    """Hash of every .py file of the package and the strategies: keys the numba cache, so no stale machine code
    survives an edit to a module that a cached function calls (numba's cache only checks the caller's file)."""
    h = hashlib.sha256()
    for base in (_ROOT, _ROOT.parent / "strategies"):
        for path in sorted(base.rglob("*.py")):
            h.update(str(path.relative_to(base)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_root():
    """Per-source-version folder for numba's cache and the generated kernels (override with SIM_CACHE_DIR)."""
    base = Path(os.environ.get("SIM_CACHE_DIR") or Path.home() / ".cache" / "balance-lab")
    return base / source_hash()


if "NUMBA_CACHE_DIR" not in os.environ:
    os.environ["NUMBA_CACHE_DIR"] = str(cache_root() / "numba")
