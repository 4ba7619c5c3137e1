"""Numbers from the user, checked at the edge in one place: finite, whole where a count is meant, within range.

Every numeric input (command-line flags, `--set` values of parameters and strategy knobs, sweep files, preset
files) goes through `number` (or `threads`) before it reaches numpy, numba or a loop: NaN passes every range test
and infinity overflows an int, so both are refused here with one line naming the input and what is valid.
"""

import math
import tomllib
from pathlib import Path

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


def read_toml(path, kind):
    """A TOML file the user names (`kind`: "sweep file", "study file") as a dict; one line for a missing file, a
    syntax error, text that is not UTF-8 or a file that cannot be read."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"{kind} {path} not found")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"{kind} {path} is not valid TOML: {e}") from None
    except UnicodeDecodeError as e:
        raise UserError(f"{kind} {path} is not UTF-8 text (byte {e.start}); save it as UTF-8") from None
    except OSError as e:
        raise UserError(f"cannot read {kind} {path} ({e.strerror or e})") from None


def whole(value, what, minimum=1):
    """A whole number (an int, or a float or text holding one) of at least `minimum`; one line naming `what`
    otherwise (true/false, fractions, NaN and infinity are refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            if isinstance(value, bool) or isinstance(value, float) and value != int(value):
                raise ValueError
            value = int(value)
        except (TypeError, ValueError, OverflowError):
            raise UserError(f"{what} must be a whole number (got {value!r})") from None
    if value < minimum:
        raise UserError(f"{what} must be at least {minimum} (got {value})")
    return value


def switch(value, what):
    """true or false (a TOML boolean or a store_true flag); one line naming `what` otherwise."""
    if not isinstance(value, bool):
        raise UserError(f"{what} must be true or false (got {value!r})")
    return value


def names(value, what):
    """A line-up: "a,b,c" or a list of strategy names -> a tuple of names (one line naming `what` otherwise)."""
    if isinstance(value, str):
        out = [t.strip() for t in value.split(",") if t.strip()]
    elif isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        out = [v.strip() for v in value if v.strip()]
    else:
        raise UserError(f'{what} must be a list of strategy names or "a,b,c" (got {value!r})')
    if not out:
        raise UserError(
            f"{what} names no strategy (got '{value}'); give names separated by commas, see `sim strategies GAME`"
        )
    return tuple(out)


def flatten(table, where, prefix=""):
    """A TOML table whose keys may be dotted (module.ghost = ... parses as nested tables) -> {dotted name: v}."""
    if not isinstance(table, dict):
        raise UserError(f"{where} must be a table of name = value entries (got {table!r})")
    out = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, where, name + "."))
        else:
            out[name] = value
    return out


def parse_player_counts(value, where="players"):
    """5, [4, 5, 6], "3-8" or "3,4,5" -> tuple of ints (UserError naming `where` otherwise)."""
    items = value if isinstance(value, list) else [value]
    out = []
    try:
        for item in items:
            if isinstance(item, bool):
                raise ValueError
            if isinstance(item, int):
                out.append(item)
                continue
            for part in str(item).split(","):
                part = part.strip()
                if "-" in part:
                    lo, hi = part.split("-")
                    lo, hi = int(lo), int(hi)
                    if hi - lo > 100:  # no game seats a hundred; a typo must not build a huge list first
                        raise UserError(
                            f"{where}: the range {part} spans {hi - lo + 1:,} player counts; give the "
                            f"counts the game takes, such as 3-8"
                        )
                    out.extend(range(lo, hi + 1))
                else:
                    out.append(int(part))
    except ValueError:
        raise UserError(f"{where} takes a count, a list or a range, such as 5, 3,4,5 or 3-8 (got {value!r})") from None
    if not out:
        raise UserError(f"{where} is empty")
    return tuple(dict.fromkeys(out))
