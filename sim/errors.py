"""One error type for everything a user can get wrong; the CLI prints it as a single line."""

import difflib


class UserError(Exception):
    """Bad input from the user: unknown name, out-of-range value, bad file.  Printed as one line, exit code 2."""


def suggest(name, choices, what):
    """A UserError naming the bad `name`, the closest valid choices, and the full list when it is short."""
    choices = list(choices)
    close = difflib.get_close_matches(str(name), choices, n=3, cutoff=0.5)
    hint = f" Did you mean {', '.join(close)}?" if close else ""
    listing = (
        f" Valid: {', '.join(choices)}."
        if len(choices) <= 40
        else f" ({len(choices)} valid names; see the listing command.)"
    )
    return UserError(f"unknown {what} '{name}'.{hint}{listing}")


def one_line(text, limit=400):
    """Messages are one line: the first line of text, shortened."""
    text = " ".join(str(text).split("\n")[0].split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


RESUMABLE = ("run", "sweep", "tune", "audit", "readings", "solve")  # commands that resume when run again


def describe_error(e, command=None):
    """The one line the command line prints for an error a user can cause, or None for a bug (re-raised with its
    traceback, so it gets reported rather than hidden).  command: the sim command that failed (its hints differ:
    only a command that resumes is told to resume)."""
    import errno
    import json

    if isinstance(e, UserError):
        return one_line(e)
    if isinstance(e, OSError):
        what = e.strerror or one_line(e, 160) or e.__class__.__name__
        if not e.strerror and str(e):
            what = f"{e.__class__.__name__}: {what}"
        where = f" {e.filename}" if e.filename else ""
        again = "run the same command again" + (" to resume" if command is None or command in RESUMABLE else "")
        hint = {
            errno.ENOSPC: f"free some space and {again}",
            errno.EDQUOT: f"free some space and {again}",
            errno.EACCES: "choose a folder you can write (--out)",
            errno.EPERM: "choose a folder you can write (--out)",
            errno.EROFS: "choose a folder on a writable disk (--out)",
            errno.ENOENT: "check the path",
            errno.ENOTDIR: "a part of the path is a file, not a folder",
            errno.EISDIR: "give a file name, not a folder",
        }.get(e.errno, "check the path and the disk")
        return one_line(f"{what}{':' + where if where else ''}; {hint}")
    try:
        import pyarrow as pa

        if isinstance(e, pa.ArrowException):
            return one_line(
                f"cannot read the parquet files ({e.__class__.__name__}: {one_line(e, 160)}); "
                f"`sim check FOLDER` names the bad parts, and the command that wrote them replays them"
            )
    except ImportError:
        pass
    if isinstance(e, UnicodeDecodeError):
        return one_line(f"a file is not UTF-8 text ({e.reason} at byte {e.start}); save it as UTF-8")
    if isinstance(e, json.JSONDecodeError):
        return one_line(f"a JSON file is corrupt ({e.msg} at line {e.lineno})")
    if isinstance(e, MemoryError):
        return "out of memory; use fewer games per chunk (--chunk-size) or fewer games"
    return None


def check_writable_file(path, flag):
    """Fail now, in one line, if `path` cannot be written (a folder, an unwritable or missing parent), rather than
    after the work that produces it."""
    import os
    from pathlib import Path

    path = Path(path)
    if path.is_dir():
        raise UserError(f"{flag} {path} is a folder; give a file name")
    parent = path.parent
    probe = parent
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise UserError(f"{flag} {path}: {probe} is a file, not a folder")
    if not os.access(probe, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UserError(f"{flag} {path} cannot be written (no permission in {probe}); choose another path")
