"""One writer per results folder: an exclusive lock file beside the folder.

Two processes writing one folder (a shell loop whose runs share a default `--out`, an `--overwrite` while another
run plays) used to interleave their chunks under one manifest.  Every writer (run, sweep, report output, solve
output) now takes `<parent>/.<name>.lock` before it reads or writes anything and holds it until it returns.

The lock lives beside the folder rather than inside it: `--overwrite` / `--fresh` delete the folder while holding
the lock, and a folder compared with a clean run holds no extra file.  It is created with O_CREAT|O_EXCL (atomic on
local file systems and on NFSv3+), and records the owner's pid, host, process start time and command.

A lock whose owner is gone (same host, pid no longer running, or the pid now belongs to a process started later)
is stale: it is taken over with one line on stderr, so a run killed with kill -9 is resumed by the same command.
A lock held by a live process, or by a process on another host (which this host cannot check), is refused with
one line naming the owner and what to do.
"""

import json
import os
import socket
import sys
import time
import uuid
from pathlib import Path

from .errors import UserError


def lock_path(target):
    """The lock file of a folder or file `target` (resolved, so ./results/x and results/x/ share one lock)."""
    target = Path(os.path.abspath(os.path.expanduser(str(target))))
    try:
        target = target.resolve()
    except (OSError, RuntimeError):
        pass
    return target.parent / f".{target.name}.lock"


def _start_time(pid):
    """The process's start time in clock ticks since boot (Linux), or None where /proc is not available."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode(errors="replace")
        return int(stat.rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


def _alive(pid, started):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # exists, owned by someone else
    except (OverflowError, ValueError):
        return False
    # a recycled pid: the process now under it started after the lock was written
    now = _start_time(pid)
    return not (started is not None and now is not None and now != started)


def _describe(info):
    if not info.get("pid"):
        return "a process that is taking the lock right now"
    since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(info.get("time", 0)))
    return f"pid {info.get('pid')} on {info.get('host')} since {since}"


class FolderLock:
    """Context manager: exclusive use of `target` (a results folder or an output file) by this process.

    what: the command, for the message ('sim run', 'sim sweep', ...); wait: seconds to wait for a live owner to
    release it before refusing (0: refuse at once)."""

    def __init__(self, target, what="sim", wait=0.0):
        self.target = Path(target)
        self.wait = float(wait)  # seconds to wait for a live owner before refusing
        self.path = lock_path(target)
        self.what = what
        self.token = uuid.uuid4().hex
        self.held = False

    def _info(self):
        return {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "start": _start_time(os.getpid()),
            "time": time.time(),
            "command": " ".join(sys.argv),
            "token": self.token,
        }

    def _create(self):
        fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        try:
            os.write(fd, json.dumps(self._info()).encode())
        except OSError:  # a full disk: no empty lock file left behind for the next command to wait on
            os.close(fd)
            self.path.unlink(missing_ok=True)
            raise
        os.close(fd)

    def _read(self):
        try:
            return json.loads(self.path.read_text())
        except FileNotFoundError:
            return None
        except (OSError, ValueError, UnicodeDecodeError):
            return {}  # unreadable: a writer killed between create and write

    def acquire(self):
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise UserError(
                f"cannot use {self.target}: a part of its path is a file, not a folder; choose another --out"
            ) from None
        except OSError as e:
            raise UserError(
                f"cannot create {self.path.parent} for {self.target} ({e.strerror or e}); choose another --out"
            ) from None
        deadline = time.monotonic() + self.wait
        tries = 0
        while tries < 5:
            tries += 1
            try:
                self._create()
                self.held = True
                return self
            except FileExistsError:
                pass
            except OSError as e:
                raise UserError(
                    f"cannot write in {self.path.parent} ({e.strerror or e}); choose another --out"
                ) from None
            info = self._read()
            if info is None:
                continue  # released between our create and read: try again
            stale = self._stale(info)
            if not stale:
                if time.monotonic() < deadline:
                    tries = 0  # the caller waits for the owner (a report waiting for another's robustness run)
                    time.sleep(0.5)
                    continue
                command = str(info.get("command") or "")[:80]
                raise UserError(
                    f"{self.target} is in use by another process ({_describe(info)}"
                    f"{': ' + command if command else ''}); wait for it to finish or choose another --out"
                )
            if self._take_over(info):
                owner = _describe(info) if info else "a process killed while taking it"
                print(f"note: took over the stale lock of {self.target} ({owner}, no longer running)", file=sys.stderr)
        raise UserError(f"{self.target} is in use: could not take its lock {self.path}; try again")

    def _stale(self, info):
        if not info:
            # created but never written: stale only once it is old enough that its writer cannot still be busy
            try:
                return time.time() - self.path.stat().st_mtime > 10
            except OSError:
                return False
        if info.get("host") != socket.gethostname():
            return False  # another machine's process: we cannot tell, so it holds
        try:
            pid = int(info.get("pid"))
        except (TypeError, ValueError):
            return True
        return not _alive(pid, info.get("start"))

    def _take_over(self, info):
        """Move the stale lock aside (atomic: of two processes taking over, one renames it); False when someone
        else's fresh lock was moved instead, which is then put back."""
        aside = self.path.with_name(f"{self.path.name}.stale-{self.token}")
        try:
            os.rename(self.path, aside)
        except FileNotFoundError:
            return False
        moved = None
        try:
            moved = json.loads(aside.read_text())
        except (OSError, ValueError, UnicodeDecodeError):
            moved = {}
        if (moved or {}).get("token") != (info or {}).get("token"):
            try:
                os.link(aside, self.path)  # give the live owner its lock back (fails if a third took it)
            except OSError:
                pass
            aside.unlink(missing_ok=True)
            return False
        aside.unlink(missing_ok=True)
        return True

    def release(self):
        if not self.held:
            return
        self.held = False
        info = self._read()
        if info and info.get("token") == self.token:  # never remove a lock that is no longer ours
            self.path.unlink(missing_ok=True)

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()
        return False
