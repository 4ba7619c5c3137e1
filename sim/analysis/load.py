"""Loading results: one run folder or a hive-partitioned sweep, lazily and column by column.

A run folder holds `manifest.json` and three tables written as parquet part files (`games/`, `seats/`, `items/`),
plus `standings/` (one row per recorded round and seat) when it was run with `sim run --standings`;
a sweep writes the same tables partitioned as `games/config=K/part-*.parquet`. Both are read through
`pyarrow.dataset`, so only the columns asked for are read, filters are pushed down to the files, and 10 million seat
rows of a few columns load in seconds. Everything returned is pandas.

In a sweep the partition column `config` (int) is added to every table; game ids may repeat across configs, so
join tables on `game_key(df)` (["config", "game"] in a sweep, ["game"] otherwise), never on `game` alone.
"""

import json
import os

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds

TABLES = ("games", "seats", "items", "standings")


def game_key(df):
    """The columns that identify one game in `df`: ["config", "game"] for sweep tables, else ["game"]."""
    return ["config", "game"] if "config" in df.columns else ["game"]


def _expression(filters):
    """A pyarrow filter expression from a dict {column: value or list of values}, or an expression as is."""
    if filters is None or isinstance(filters, ds.Expression):
        return filters
    expr = None
    for col, val in filters.items():
        if isinstance(val, (list, tuple, set)):
            e = ds.field(col).isin(list(val))
        else:
            e = ds.field(col) == val
        expr = e if expr is None else expr & e
    return expr


def _fillable(t):
    """Column types `Run._fill` reads into preallocated arrays: numbers, booleans and dictionary-encoded strings,
    never null (a null integer would turn the pandas column into floats: those tables take the Arrow path)."""
    if pa.types.is_dictionary(t):
        return pa.types.is_string(t.value_type) or pa.types.is_large_string(t.value_type)
    return pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t)


def _category_dtype(value_type):
    """The dtype pyarrow gives a dictionary column's categories (pandas' default string dtype)."""
    return pa.array([], value_type).to_pandas().dtype


class Run:
    """One run or sweep on disk. Nothing is read until a table is asked for.

    `run.seats(columns=[...], filters={...})` returns a DataFrame of just those columns and rows; `run.dataset("seats")`
    is the pyarrow dataset itself for queries too big for pandas (e.g. aggregate with `dataset.to_table(...)` or
    DuckDB over it). `run.manifest` is the parsed manifest.json; `run.configs` the sweep's configurations as a
    DataFrame (one row per config: its number, player count if recorded, and the swept parameter values, or
    all its parameters when the manifest does not say which were swept), empty for a plain run.
    """

    def __init__(self, path):
        self.path = str(path)
        if not os.path.isdir(self.path):
            raise FileNotFoundError(f"no run folder at {self.path}")
        man = os.path.join(self.path, "manifest.json")
        self.manifest = {}
        if os.path.exists(man):
            with open(man, encoding="utf-8") as f:
                self.manifest = json.load(f)
        self._datasets = {}
        self._verdict = None

    def __repr__(self):
        return f"Run({self.path!r}, game={self.game!r}, sweep={self.is_sweep})"

    @property
    def game(self):
        return self.manifest.get("game")

    @property
    def is_sweep(self):
        return "config" in self.dataset("games").schema.names

    @property
    def configs(self):
        rows = []
        for i, c in enumerate(self.manifest.get("configs", []) or []):
            if isinstance(c, dict):
                # the core's sweep manifest lists the swept values under "swept" (and every parameter under
                # "params"); show what distinguishes the configurations
                values = c.get("swept") if c.get("swept") is not None else c.get("params", {})
                row = {"config": int(c.get("config", i))}
                if "players" in c:
                    row["players"] = c["players"]
                rows.append({**row, **values})
        return pd.DataFrame(rows)

    def dataset(self, table):
        """The pyarrow dataset of one table ("games", "seats", "items" or "standings"), hive partitions
        discovered."""
        if table not in TABLES:
            raise ValueError(f"table must be one of {TABLES}, not {table!r}")
        if table not in self._datasets:
            folder = os.path.join(self.path, table)
            if not os.path.isdir(folder):
                raise FileNotFoundError(f"{self.path} has no {table}/ table")
            verdict = self.verdict()
            if verdict is None:
                self._datasets[table] = ds.dataset(folder, format="parquet", partitioning="hive")
            else:
                # only the chunks sim.check finds whole: every table then counts the same games, and a truncated
                # part of an unfinished chunk is never read
                files = verdict.files(self.path, table)
                self._datasets[table] = ds.dataset(
                    files,
                    format="parquet",
                    partitioning="hive",
                    partition_base_dir=folder,
                    schema=self._schema(table, files),
                )
        return self._datasets[table]

    def verdict(self, quiet=False):
        """sim.check's verdict on the folder (which chunks are whole, every part's checksum verified against its
        record), or None for a folder not written by the core (no chunk size in its manifest: every part file is
        read).  Only whole chunks are read: a damaged one (a changed byte, a part of another run, no checksum
        record) is never read, and it and unfinished chunks are named once on stderr (quiet: not yet, `note`
        does).  `sim report` refuses a folder with a damaged chunk."""
        if self._verdict is None and self.manifest.get("chunk_size"):
            from ..check import check_folder

            self._verdict = check_folder(self.path, checksum=True)
            if not quiet:
                self.note()
        return self._verdict

    def note(self):
        """Name the damaged and unfinished chunks left out (once, on stderr)."""
        import sys

        v = self._verdict
        if v is not None and (not v.ok or v.stray):
            print(
                f"note: reading the {len(v.done)} whole chunks of {v.chunks} in {self.path}"
                + (f" ({len(v.bad)} damaged, not read: run `sim check {self.path}`)" if v.bad else "")
                + (f" ({len(v.missing)} not played)" if v.missing else ""),
                file=sys.stderr,
            )

    def _schema(self, table, files):
        """The table's schema (with the sweep's `config` partition column) from one file, or an empty schema."""
        if not files:
            return pa.schema([])
        d = ds.dataset(
            files[:1], format="parquet", partitioning="hive", partition_base_dir=os.path.join(self.path, table)
        )
        return d.schema

    def columns(self, table):
        """Column names of one table, without reading it."""
        return list(self.dataset(table).schema.names)

    def compact_types(self, table, columns=None, filters=None):
        """{column: the smallest integer type holding every value of that integer column}. The range comes from
        the part files' footer statistics where they have them, else from one pass over just those columns,
        batch by batch (flat in memory)."""
        import pyarrow.compute as pc

        d = self.dataset(table)
        names = [c for c in (columns or d.schema.names) if c in d.schema.names]
        ints = [c for c in names if pa.types.is_integer(d.schema.field(c).type)]
        lo, hi = {}, {}
        if filters is None:
            for c in ints:
                lo[c] = hi[c] = None
            for frag in d.get_fragments():
                md = frag.metadata
                idx = {md.schema.column(j).name: j for j in range(md.num_columns)}
                for g in range(md.num_row_groups):
                    rg = md.row_group(g)
                    if rg.num_rows == 0:
                        continue
                    for c in list(lo):
                        st = rg.column(idx[c]).statistics if c in idx else None
                        if st is None or not st.has_min_max:
                            del lo[c], hi[c]  # no statistics: scanned below
                            continue
                        lo[c] = st.min if lo[c] is None else min(lo[c], st.min)
                        hi[c] = st.max if hi[c] is None else max(hi[c], st.max)
        rest = [c for c in ints if c not in lo]
        if rest:
            for b in self._parts(table, rest, filters):
                for c in rest:
                    if b.num_rows == 0 or b.column(c).null_count == b.num_rows:
                        continue
                    mm = pc.min_max(b.column(c))
                    a, z = mm["min"].as_py(), mm["max"].as_py()
                    lo[c] = a if lo.get(c) is None else min(lo[c], a)
                    hi[c] = z if hi.get(c) is None else max(hi[c], z)
                del b
        out = {}
        for c in ints:
            if lo.get(c) is None or hi.get(c) is None:
                continue
            for t in (pa.int8(), pa.int16(), pa.int32()):
                info = np.iinfo(t.to_pandas_dtype())
                if info.min <= lo[c] and hi[c] <= info.max:
                    if t.bit_width < d.schema.field(c).type.bit_width:
                        out[c] = t
                    break
        return out

    def _parts(self, table, columns=None, filters=None):
        """One table per part file (only `columns`, `filters` applied), read one after the other on one thread,
        the memory pool trimmed after each: the pyarrow scanner's read-ahead and parallel decoding held several
        times a part's size (measured: 0.25 GB more at 1M BANG games)."""
        expr = _expression(filters)
        d = self.dataset(table)
        for frag in d.get_fragments(filter=expr):
            # through a scanner with the dataset's schema: a sweep's partition column (config) is filled in
            t = ds.Scanner.from_fragment(
                frag, schema=d.schema, columns=columns, filter=expr, use_threads=False
            ).to_table()
            yield t
            del t
            pa.default_memory_pool().release_unused()

    def scan(self, table, columns=None, filters=None):
        """The record batches of one table (only `columns`, `filters` applied), one part at a time: for
        aggregates over tables too large to hold."""
        return self.dataset(table).scanner(columns=columns, filter=_expression(filters)).to_batches()

    def distinct(self, table, column, filters=None):
        """The set of values of one column over the whole table, read batch by batch (flat in memory)."""
        import pyarrow.compute as pc

        seen = set()
        for b in self._parts(table, [column], filters):
            if b.num_rows:
                seen.update(pc.unique(b.column(0)).to_pylist())
        return seen

    def count(self, table, filters=None):
        """Rows of one table (from the part files' footers when there is no filter)."""
        return int(self.dataset(table).count_rows(filter=_expression(filters)))

    def read(self, table, columns=None, filters=None, categorical=False, compact=False):
        """Read one table into pandas.

        columns: list of column names (None = all). filters: dict {column: value or list} or a pyarrow
        expression, applied while reading. categorical: store string columns as pandas categoricals (saves memory
        and speeds group-bys on very large tables). compact: integer columns in the smallest type that holds their
        values (from the footers' statistics; every value is unchanged), cast part by part while reading, so the
        wide types are never held for the whole table.
        """
        d = self.dataset(table)
        if columns is not None:
            missing = [c for c in columns if c not in d.schema.names]
            if missing:
                raise KeyError(f"{table} has no column(s) {missing}; it has {d.schema.names}")
        if compact:
            small = self.compact_types(table, columns, filters)
            schema = d.scanner(columns=columns).projected_schema
            schema = pa.schema([f.with_type(small[f.name]) if f.name in small else f for f in schema])
            if not categorical and all(_fillable(f.type) for f in schema):
                return self._fill(table, schema, columns, filters)
            t = pa.concat_tables(
                [p.select(schema.names).cast(schema) for p in self._parts(table, columns, filters)]
                or [schema.empty_table()]
            )
        else:
            t = d.to_table(columns=columns, filter=_expression(filters))
        if "config" in t.schema.names and pa.types.is_dictionary(t.schema.field("config").type):
            t = t.set_column(t.schema.get_field_index("config"), "config", t["config"].cast(pa.int64()))
        # self_destruct frees each Arrow column as soon as it is converted, so reading never holds the table twice
        # (measured on 1M BANG games: the seats read peaked about 0.5 GB lower); the pool's freed blocks then go
        # back to the system instead of staying reserved for the rest of the report
        df = t.to_pandas(strings_to_categorical=categorical, self_destruct=True, split_blocks=True)
        del t
        pa.default_memory_pool().release_unused()
        if "config" in df.columns:
            df["config"] = df["config"].astype("int64")
        return df

    def _fill(self, table, schema, columns, filters):
        """A compact read into preallocated columns, part by part: the peak is the frame plus one part (never
        the whole table twice, as an Arrow table and its pandas copy). Dictionary (string) columns become
        categoricals whose categories are the parts' dictionaries in order of appearance, as pyarrow's own
        conversion gives them."""
        n = self.count(table, filters)
        out, cats = {}, {}
        for f in schema:
            if pa.types.is_dictionary(f.type):
                out[f.name] = np.empty(n, dtype=np.int32)
                cats[f.name] = {}
            else:
                out[f.name] = np.empty(n, dtype=f.type.to_pandas_dtype())
        pos = 0
        for part in self._parts(table, columns, filters):
            m = part.num_rows
            for f in schema:
                col = part.column(f.name)
                if f.name in cats:
                    at = pos
                    for ch in col.chunks:
                        index = cats[f.name]
                        mapping = np.array(
                            [index.setdefault(v, len(index)) for v in ch.dictionary.to_pylist()] + [-1], dtype=np.int32
                        )
                        idx = ch.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
                        out[f.name][at : at + len(ch)] = mapping[idx]
                        at += len(ch)
                else:
                    out[f.name][pos : pos + m] = col.cast(f.type).to_numpy()
            pos += m
            del part
        assert pos == n, (table, pos, n)
        frame = {}
        for f in schema:
            if f.name in cats:
                c = pd.Index(list(cats[f.name]), dtype=_category_dtype(f.type.value_type))
                frame[f.name] = pd.Categorical.from_codes(out.pop(f.name), categories=c)
            else:
                frame[f.name] = out.pop(f.name)
        return pd.DataFrame(frame, copy=False)

    def games(self, columns=None, filters=None, categorical=False, compact=False):
        """The games table (one row per game) as a DataFrame; see `read`."""
        return self.read("games", columns, filters, categorical, compact)

    def seats(self, columns=None, filters=None, categorical=False, compact=False):
        """The seats table (one row per seat per game) as a DataFrame; see `read`."""
        return self.read("seats", columns, filters, categorical, compact)

    def items(self, columns=None, filters=None, categorical=False, compact=False):
        """The items table (one row per acquisition) as a DataFrame; see `read`."""
        return self.read("items", columns, filters, categorical, compact)

    def has_standings(self):
        """Whether the run kept the per-round standings trace (`sim run --standings`)."""
        return bool((self.manifest.get("request") or {}).get("standings")) and os.path.isdir(
            os.path.join(self.path, "standings")
        )

    def standings(self, columns=None, filters=None, categorical=False, compact=False):
        """The standings trace (one row per recorded round and seat: game, round, seat, standing); see `read`."""
        return self.read("standings", columns, filters, categorical, compact)

    def seats_with_games(self, seat_columns=None, game_columns=None, filters=None):
        """Seats joined with game-level columns (e.g. end_reason, turns) on the game key.

        A game column whose name is also a seat column (say `turns`, the game's length, next to a seat's own
        `turns`) comes in as `game_<name>`; `players` and the key are not duplicated.
        """
        s = self.seats(seat_columns, filters)
        key = game_key(s)
        gcols = None if game_columns is None else list(dict.fromkeys(key + list(game_columns)))
        g = self.games(gcols, filters)
        g = g.drop(columns=[c for c in ("players",) if c in s.columns and c in g.columns and c not in key])
        g = g.rename(columns={c: f"game_{c}" for c in g.columns if c in s.columns and c not in key})
        return s.merge(g, on=key, how="left", validate="many_to_one")


def load_run(path):
    """Open a run or sweep folder; returns a lazy `Run` (nothing read yet)."""
    return Run(path)


def load_tables(path, seat_columns=None, game_columns=None, item_columns=None, filters=None):
    """Read everything at once: returns (games, seats, items, manifest), with optional column selection."""
    r = Run(path)
    items = r.items(item_columns, filters) if os.path.isdir(os.path.join(r.path, "items")) else None
    return r.games(game_columns, filters), r.seats(seat_columns, filters), items, r.manifest


class RunSet:
    """Several run folders read as one sweep: each table gets an int `config` column (the run's position in the
    list), so everything that works on a hive-partitioned sweep works here too. `configs` is a DataFrame of the
    given per-run parameters (or each run's manifest `params_changed` when none are given)."""

    def __init__(self, paths, params=None):
        self.runs = [Run(p) for p in paths]
        if not self.runs:
            raise ValueError("RunSet needs at least one run folder")
        self._params = params
        self.manifest = dict(self.runs[0].manifest)
        self.manifest["configs"] = [
            {
                "config": k,
                "params": dict(self._params[k]) if self._params else dict(r.manifest.get("params_changed", {}) or {}),
            }
            for k, r in enumerate(self.runs)
        ]

    @property
    def game(self):
        return self.runs[0].game

    is_sweep = True
    configs = Run.configs

    def read(self, table, columns=None, filters=None, categorical=False, compact=False):
        cols = None if columns is None else [c for c in columns if c != "config"]
        wanted = range(len(self.runs))
        if isinstance(filters, dict) and "config" in filters:
            filters = dict(filters)
            c = filters.pop("config")
            wanted = set(c) if isinstance(c, (list, tuple, set)) else {c}
            filters = filters or None
        frames = [
            r.read(table, cols, filters, categorical, compact).assign(config=k)
            for k, r in enumerate(self.runs)
            if k in wanted
        ]
        df = pd.concat(frames, ignore_index=True)
        if columns is not None and "config" in columns:
            df = df[list(columns)]
        return df

    games = Run.games
    seats = Run.seats
    items = Run.items
    seats_with_games = Run.seats_with_games


def load_runs(paths, params=None):
    """Open several run folders (e.g. one per parameter setting) as one sweep-like `RunSet`.

    params: optional list of dicts, the parameters that distinguish the runs (shown by `.configs`).
    """
    return RunSet(paths, params)
