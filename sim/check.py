"""Is a results folder whole?  Part files are validated before they count as done.

A chunk counts as done only when all its part files (games, seats, items; standings in a `--standings` run) are
readable parquet whose footers say what the chunk must hold: the columns of the game's tables, exactly the chunk's
number of games and seat rows, and game ids from the chunk's first to its last game (min/max statistics of `game`,
written for every part). Where the manifest records the chunk (rows and a CRC-32 of each file, written when the
chunk was written), the file must match that too. Resume (`sim run`, `sim sweep`) replays every chunk that is not
done, `sim report` reads only done chunks, and `sim check RESULTS` prints the verdict.

A chunk whose `games` part is missing was never finished (the games part is renamed into place last); a chunk
whose games part exists but whose files fail a check is bad: reported, and replayed on resume.

Checksum records: `sim.results.write_chunk` writes each chunk's record (rows, bytes and CRC-32 of every part,
and the id of the run's request) to `checksums/[config=K/]part-NNNNN.json`, flushed to disk, before it renames the
games part into place; so no kill can leave a done chunk without its record.  The manifest's `chunks` holds the
same records (older folders have only those).  A done chunk with no record, or with the record of another run
(a part or chunk copied in from another folder), is bad.  Every reader (`sim report`, `sim.analysis.load_run`,
`sim replay`, a resumed sweep) verifies the checksums of what it reads, or refuses.
"""

import hashlib
import json
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path

import pyarrow.parquet as pq

from .errors import UserError

TABLES = ("standings", "seats", "items", "games")
STANDINGS_COLUMNS = ("game", "round", "seat", "standing")
GAME_BASE = ("game", "seed_index", "rotation", "players", "steps", "capped")
SEAT_BASE = ("game", "seat", "players", "strategy", "score", "win_share")
ITEM_BASE = ("game", "seat", "players", "item", "kind", "turn")
RECORDS = "checksums"  # the folder of the per-chunk checksum records
MAX_CHUNKS = 1_000_000  # chunks of one run or sweep: more is a mistaken chunk size (or an edited manifest)
MAX_GAMES = 10**10  # per run or configuration (sim.runner refuses more)


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


def request_id(request):
    """A short id of a run's or sweep's request (as stored in its manifest): written into every checksum record,
    so a part (with its record) from another run is told apart."""
    text = json.dumps(json.loads(json.dumps(request, default=str)), sort_keys=True)
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def record_path(folder, chunk, partition=None):
    base = Path(folder) / RECORDS
    return (base if partition is None else base / partition) / f"{part_name(chunk)[: -len('.parquet')]}.json"


def read_record(folder, chunk, partition=None):
    """The chunk's checksum record file (None when there is none; {} when it is unreadable)."""
    path = record_path(folder, chunk, partition)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


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
    run_id: str = None  # the request id the chunk's record file must carry (None: not checked)


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
    if expect.checksum and not (isinstance(rec, dict) and rec.get("crc32") is not None):
        return "no checksum record (cannot be verified)"
    if isinstance(rec, dict):
        if rec.get("rows") is not None and rec["rows"] != meta.num_rows:
            return f"{meta.num_rows} rows, the record says {rec['rows']}"
        if expect.checksum and rec.get("crc32") is not None and file_crc(path) != rec["crc32"]:
            return "checksum differs from the chunk's record"
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
    where = f"{partition}/" if partition else ""
    saved = read_record(folder, chunk, partition)
    if saved is not None:
        if not saved.get("tables"):
            return "bad", f"{RECORDS}/{where}{part_name(chunk)}: checksum record unreadable"
        if expect.run_id is not None and saved.get("run") != expect.run_id:
            return "bad", f"games/{where}{part_name(chunk)}: the checksum record is another run's"
        expect = replace(expect, record=saved["tables"])
    if expect.checksum and not expect.record:
        return "bad", f"games/{where}{part_name(chunk)}: no checksum record (cannot be verified)"
    for table in ("games", "seats", "items", "standings"):
        if table not in expect.columns:
            continue
        try:
            why = part_problem(sub(table) / part_name(chunk), table, expect)
        except OSError as e:
            why = f"cannot be read ({e.strerror or e.__class__.__name__})"
        if why is not None:
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


def refuse_audit(folder, m, what):
    """A one-line UserError when the folder is a `sim audit` folder, which holds decisions, not run tables: `what`
    (check, report) does not apply to it, and nothing in it needs recovering."""
    if (m.get("request") or {}).get("kind") == "audit":
        raise UserError(
            f"{folder} is an audit folder (sim audit), not a run or sweep: {what} does not apply to it; its summary "
            f"is {Path(folder) / 'summary.txt'} and `sim replay {folder} GAME` re-plays any of its games"
        )


def _whole(value, what, lo, hi):
    """An int from lo to hi read from a manifest (ValueError naming it otherwise: an edited manifest)."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"{what} is {value!r}, not a whole number from {lo:,} to {hi:,}")
    return value


def check_folder(folder, checksum=True, only=None):
    """Validate every chunk of a run or sweep folder against its manifest; returns a Verdict.

    only: a set of (partition or None, chunk) to check (the others are not looked at: `chunks` still counts
    them, `stray` is left empty), e.g. the one chunk `sim replay` reads."""
    from .game import get_game

    folder = Path(folder)
    m = read_manifest_checked(folder)
    refuse_audit(folder, m, "sim check")
    try:
        spec = get_game(m["game"])
        columns = expected_columns(spec)
        chunks_rec = m.get("chunks") or {}
        if not isinstance(chunks_rec, dict):
            raise ValueError("chunks is not a table of records")
        run_id = request_id(m["request"]) if m.get("request") is not None else None
        cs = _whole(m["chunk_size"], "chunk_size", 1, MAX_GAMES)
        if m.get("kind") == "sweep":
            v = Verdict("sweep", m.get("status", "?"))
            plan = []
            for cfg in m["configs"]:
                part, n = cfg["partition"], _whole(cfg["players"], "players", 1, 1000)
                planned = _whole(cfg["games_planned"], "games_planned", 0, MAX_GAMES)
                plan.append((part, n, planned))
            if sum(-(-planned // cs) for _, _, planned in plan) > MAX_CHUNKS:
                raise ValueError(f"it plans more than {MAX_CHUNKS:,} chunks")
            for part, n, planned in plan:
                rec = chunks_rec.get(part, {})
                for c in range(-(-planned // cs)):
                    start, stop = c * cs, min(planned, (c + 1) * cs)
                    if only is not None and (part, c) not in only:
                        v.chunks += 1
                        continue
                    e = Expect(start, stop, (stop - start) * n, columns, rec.get(str(c)), checksum, run_id)
                    _tally(v, folder, part, c, e)
            if only is None:
                v.stray = stray_parts(folder, {(p, c) for p, c in v.done + v.missing} | {(p, c) for p, c, _ in v.bad})
            return v
        v = Verdict("run", m.get("status", "?"))
        columns = expected_columns(spec, standings=bool((m.get("request") or {}).get("standings")))
        d = m["seating"]
        design = (m.get("request") or {}).get("design")
        if design is not None and design != d:
            raise ValueError("seating differs from the request's design")
        counts = [_whole(n, "a player count", 1, 1000) for n in d["player_counts"]]
        per = _whole(d["games_per_player_count"], "games_per_player_count", 1, MAX_GAMES)
        total = per * len(counts)
        if -(-total // cs) > MAX_CHUNKS:
            raise ValueError(f"{total:,} games in chunks of {cs:,} are more than {MAX_CHUNKS:,} chunks")
        for c in range(-(-total // cs)):
            start, stop = c * cs, min(total, (c + 1) * cs)
            if only is not None and (None, c) not in only:
                v.chunks += 1
                continue
            e = Expect(
                start, stop, seat_rows(counts, per, start, stop), columns, chunks_rec.get(str(c)), checksum, run_id
            )
            _tally(v, folder, None, c, e)
        if only is None:
            v.stray = stray_parts(folder, {(None, c) for c in range(v.chunks)})
        return v
    except (KeyError, TypeError, ValueError, ZeroDivisionError, AttributeError) as e:
        raise UserError(
            f"{folder}/manifest.json is incomplete or edited ({e.__class__.__name__}: {e}); re-run "
            f"with --overwrite / --fresh"
        ) from None


def verified(folder, what="read", only=None):
    """check_folder with checksums, for a reader: the Verdict, or a one-line UserError when a chunk it would read
    is damaged (a flipped byte, a part or record of another run, a missing record)."""
    return refuse_damaged(folder, check_folder(folder, checksum=True, only=only), what)


def refuse_damaged(folder, verdict, what="read"):
    """The verdict, or a one-line UserError naming its first damaged chunk."""
    bad = verdict.bad
    if bad:
        raise UserError(
            f"{folder} has {len(bad)} damaged chunk{'s' if len(bad) != 1 else ''} ({bad[0][2]}); nothing was "
            f"{what}: `sim check {folder}` lists them and the command that wrote the folder replays them"
        )
    return verdict


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
