"""Numbers from the user, checked at the edge in one place: finite, whole where a count is meant, within range.

Every numeric input (command-line flags, `--set` values of parameters and strategy knobs, sweep files, preset
files) goes through `number` (or `threads`) before it reaches numpy, numba or a loop: NaN passes every range test
and infinity overflows an int, so both are refused here with one line naming the input and what is valid.
"""

import math

from .errors import UserError


def _fmt(x):
    return f"{x:,g}" if isinstance(x, float) else f"{x:,}"


def _range(lo, hi):
    if lo is not None and hi is not None:
        return f"between {_fmt(lo)} and {_fmt(hi)}"
    if lo is not None:
        return f"at least {_fmt(lo)}"
    if hi is not None:
        return f"at most {_fmt(hi)}"
    return ""


def number(raw, what, lo=None, hi=None, whole=False):
    """raw (a string or a number) as a float, or an int when whole; UserError (one line naming `what` and the
    valid range) for text that is no number, NaN, infinity, a fraction where a whole number is meant, or a value
    outside [lo, hi]."""
    valid = _range(lo, hi)
    kind = "a whole number" if whole else "a finite number"
    if isinstance(raw, bool):
        raise UserError(f"{what} needs {kind}{' ' + valid if valid else ''} (got {raw})")
    try:
        value = float(raw) if not isinstance(raw, int) else raw
    except (TypeError, ValueError, OverflowError):
        raise UserError(f"{what} needs {kind}{' ' + valid if valid else ''} (got '{raw}')") from None
    if isinstance(value, float):
        if not math.isfinite(value):
            raise UserError(f"{what} needs a finite number{' ' + valid if valid else ''} (got '{raw}')")
        if whole:
            if value != int(value):
                raise UserError(f"{what} needs a whole number{' ' + valid if valid else ''} (got '{raw}')")
            value = int(value)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise UserError(f"{what} must be {valid} (got {raw})")
    return value


def finite(raw, what, valid=""):
    """raw as a finite float: UserError '<what> needs a number [valid]' for text that is no number (or a TOML
    true/false), '<what> needs a finite number' for NaN and infinity (which pass every range test and overflow
    an int)."""
    hint = f" {valid}" if valid else ""
    try:
        if isinstance(raw, bool):
            raise TypeError
        value = float(raw)
    except (TypeError, ValueError, OverflowError):
        raise UserError(f"{what} needs a number{hint} (got '{raw}')") from None
    if not math.isfinite(value):
        raise UserError(f"{what} needs a finite number{hint} (got '{raw}')")
    return value


def max_threads():
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)


def threads(raw, what="--threads"):
    """A thread count from 1 to the cores numba may use (None stays None: all cores)."""
    if raw is None:
        return None
    return number(raw, what, 1, max_threads(), whole=True)


def set_threads(raw, what="--threads"):
    """Check a thread count and make numba use it (None: leave all cores)."""
    n = threads(raw, what)
    if n is not None:
        import numba

        numba.set_num_threads(n)
    return n
