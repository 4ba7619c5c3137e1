"""Is a results folder whole?  Part files are validated before they count as done.

A chunk counts as done only when all its part files (games, seats, items; standings in a `--standings` run) are
readable parquet whose footers say what the chunk must hold: the columns of the game's tables, exactly the chunk's
number of games and seat rows, and game ids from the chunk's first to its last game (min/max statistics of `game`,
written for every part). Where the manifest records the chunk (rows and a CRC-32 of each file, written when the
chunk was written), the file must match that too. Resume (`sim run`, `sim sweep`) replays every chunk that is not
done, `sim report` reads only done chunks, and `sim check RESULTS` prints the verdict.

A chunk whose `games` part is missing was never finished (the games part is renamed into place last); a chunk
whose games part exists but whose files fail a check is bad: reported, and replayed on resume.
"""

import json
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq

from .errors import UserError

TABLES = ("standings", "seats", "items", "games")
STANDINGS_COLUMNS = ("game", "round", "seat", "standing")
GAME_BASE = ("game", "seed_index", "rotation", "players", "steps", "capped")
SEAT_BASE = ("game", "seat", "players", "strategy", "score", "win_share")
ITEM_BASE = ("game", "seat", "players", "item", "kind", "turn")


def part_name(chunk):
    return f"part-{chunk:05d}.parquet"


def expected_columns(spec, standings=False):
    """{table: its columns} of a run of the game; standings: the run keeps the standings trace too."""
    out = {
        "games": GAME_BASE + tuple(spec.game_columns),
        "seats": SEAT_BASE + tuple(spec.seat_columns),
        "items": ITEM_BASE + tuple(spec.item_columns),
    }
    if standings:
        out["standings"] = STANDINGS_COLUMNS
    return out


def seat_rows(player_counts, games_per_count, start, stop):
    """Seat rows of games [start, stop) of a design (player counts in blocks of games_per_count)."""
    total = 0
    for k, n in enumerate(player_counts):
        lo, hi = max(start, k * games_per_count), min(stop, (k + 1) * games_per_count)
        if hi > lo:
            total += (hi - lo) * n
    return total


def file_crc(path):
    crc = 0
    with open(path, "rb") as f:
        while block := f.read(1 << 22):
            crc = zlib.crc32(block, crc)
    return crc


@dataclass
class Expect:
    """What one chunk's parts must hold."""

    start: int
    stop: int
    seats: int
    columns: dict
    record: dict = None  # the manifest's record of the chunk, if any
    checksum: bool = True  # compare CRC-32 with the record (reads every byte)


def part_problem(path, table, expect):
    """None if the part file is good, else a short reason."""
    if not path.exists():
        return "missing"
    try:
        meta = pq.ParquetFile(path).metadata
    except Exception as e:  # noqa: BLE001 - pyarrow raises ArrowInvalid / OSError for truncated, empty or foreign files
        size = path.stat().st_size if path.exists() else 0
        return "empty (0 bytes)" if size == 0 else f"unreadable ({str(e).splitlines()[0][:80]})"
    names = tuple(meta.schema.to_arrow_schema().names)
    if names != expect.columns[table]:
        return f"columns {', '.join(names)} instead of {', '.join(expect.columns[table])}"
    want = {"games": expect.stop - expect.start, "seats": expect.seats}.get(table)
    if want is not None and meta.num_rows != want:
        return f"{meta.num_rows} rows instead of {want}"
    if table in ("games", "seats") or meta.num_rows:
        lo, hi = _game_range(meta)
        if lo is not None and (lo < expect.start or hi >= expect.stop):
            return f"holds games {lo}..{hi}, not {expect.start}..{expect.stop - 1}"
    rec = (expect.record or {}).get(table)
    if rec:
        if rec.get("rows") is not None and rec["rows"] != meta.num_rows:
            return f"{meta.num_rows} rows, the manifest recorded {rec['rows']}"
        if expect.checksum and rec.get("crc32") is not None and file_crc(path) != rec["crc32"]:
            return "checksum differs from the manifest's record"
    return None


def _game_range(meta):
    lo = hi = None
    col = meta.schema.to_arrow_schema().get_field_index("game")
    for g in range(meta.num_row_groups):
        st = meta.row_group(g).column(col).statistics
        if st is None or not st.has_min_max:
            return None, None
        lo = st.min if lo is None else min(lo, st.min)
        hi = st.max if hi is None else max(hi, st.max)
    return lo, hi


def chunk_state(folder, chunk, expect, partition=None):
    """('done' | 'missing' | 'bad', reason) of one chunk."""
    folder = Path(folder)
    sub = (lambda t: folder / t) if partition is None else (lambda t: folder / t / partition)
    games = sub("games") / part_name(chunk)
    if not games.exists():
        return "missing", None
    for table in ("games", "seats", "items", "standings"):
        if table not in expect.columns:
            continue
        why = part_problem(sub(table) / part_name(chunk), table, expect)
        if why is not None:
            where = f"{partition}/" if partition else ""
            return "bad", f"{table}/{where}{part_name(chunk)}: {why}"
    return "done", None


@dataclass
class Verdict:
    kind: str  # "run" or "sweep"
    status: str  # the manifest's status
    chunks: int = 0  # chunks the folder should hold (as far as it is planned)
    done: list = field(default_factory=list)  # (partition or None, chunk)
    missing: list = field(default_factory=list)
    bad: list = field(default_factory=list)  # (partition, chunk, reason)
    stray: list = field(default_factory=list)  # part files no chunk of the manifest names (paths)

    @property
    def ok(self):
        return not self.bad and not self.missing

    def files(self, folder, table):
        """Paths of the done chunks' part files of one table."""
        folder = Path(folder)
        return [
            str((folder / table / p / part_name(c)) if p else (folder / table / part_name(c))) for p, c in self.done
        ]

    def lines(self, folder):
        out = [
            f"{folder}: {self.kind}, status {self.status}; {len(self.done)} of {self.chunks} chunks done"
            + (f", {len(self.missing)} not played" if self.missing else "")
            + (f", {len(self.bad)} bad" if self.bad else "")
            + (f", {len(self.stray)} stray part files" if self.stray else "")
        ]
        for _part, _chunk, why in self.bad:
            out.append(f"  bad: {why}")
        for path in self.stray:
            out.append(f"  stray: {path} (no chunk of the manifest)")
        return out


def read_manifest_checked(folder):
    """The manifest of a results folder; UserError (one line) for a missing, empty or corrupt one."""
    path = Path(folder) / "manifest.json"
    if not Path(folder).exists():
        raise UserError(f"{folder} is not a results folder (no such directory)")
    if not Path(folder).is_dir():
        raise UserError(f"{folder} is a file, not a results folder")
    if not path.exists():
        raise UserError(f"{folder} is not a results folder (no manifest.json)")
    try:
        m = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise UserError(
            f"{path} is corrupt ({e.__class__.__name__}: {str(e)[:60]}); re-run the command that wrote "
            f"it with --overwrite (--fresh for a sweep) to start afresh"
        ) from None
    except OSError as e:
        raise UserError(f"cannot read {path} ({e.strerror or e})") from None
    if not isinstance(m, dict) or "game" not in m:
        raise UserError(f"{path} is not a results manifest (no game); re-run with --overwrite / --fresh")
    return m


def check_folder(folder, checksum=True):
    """Validate every chunk of a run or sweep folder against its manifest; returns a Verdict."""
    from .game import get_game

    folder = Path(folder)
    m = read_manifest_checked(folder)
    try:
        spec = get_game(m["game"])
        columns = expected_columns(spec)
        chunks_rec = m.get("chunks") or {}
        if m.get("kind") == "sweep":
            v = Verdict("sweep", m.get("status", "?"))
            cs = int(m["chunk_size"])
            for cfg in m["configs"]:
                part, n = cfg["partition"], int(cfg["players"])
                planned = int(cfg["games_planned"])
                rec = chunks_rec.get(part, {})
                for c in range(-(-planned // cs)):
                    start, stop = c * cs, min(planned, (c + 1) * cs)
                    e = Expect(start, stop, (stop - start) * n, columns, rec.get(str(c)), checksum)
                    _tally(v, folder, part, c, e)
            v.stray = stray_parts(folder, {(p, c) for p, c in v.done + v.missing} | {(p, c) for p, c, _ in v.bad})
            return v
        v = Verdict("run", m.get("status", "?"))
        columns = expected_columns(spec, standings=bool((m.get("request") or {}).get("standings")))
        d = m["seating"]
        counts, per = list(d["player_counts"]), int(d["games_per_player_count"])
        total, cs = per * len(counts), int(m["chunk_size"])
        for c in range(-(-total // cs)):
            start, stop = c * cs, min(total, (c + 1) * cs)
            e = Expect(start, stop, seat_rows(counts, per, start, stop), columns, chunks_rec.get(str(c)), checksum)
            _tally(v, folder, None, c, e)
        v.stray = stray_parts(folder, {(None, c) for c in range(v.chunks)})
        return v
    except (KeyError, TypeError, ValueError, ZeroDivisionError, AttributeError) as e:
        raise UserError(
            f"{folder}/manifest.json is incomplete or edited ({e.__class__.__name__}: {e}); re-run "
            f"with --overwrite / --fresh"
        ) from None


def _tally(v, folder, partition, c, e):
    v.chunks += 1
    state, why = chunk_state(folder, c, e, partition)
    if state == "done":
        v.done.append((partition, c))
    elif state == "bad":
        v.bad.append((partition, c, why))
    else:
        v.missing.append((partition, c))


def stray_parts(folder, expected):
    """Part files under the tables that no expected (partition, chunk) names: left by a different chunk size or
    budget.  Reading them would count games twice."""
    folder = Path(folder)
    out = []
    for table in TABLES:
        base = folder / table
        if not base.is_dir():
            continue
        for path in base.rglob("part-*.parquet"):
            rel = path.relative_to(base).parts
            partition = rel[0] if len(rel) == 2 else None
            try:
                chunk = int(path.stem.split("-")[1])
            except (IndexError, ValueError):
                chunk = -1
            if (partition, chunk) not in expected:
                out.append(str(path))
    return sorted(out)
