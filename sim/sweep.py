"""Balance sweeps: many configurations of one game, played in resumable chunks, locally or on a Dask cluster.

A sweep is a TOML file (or the same thing as command-line flags) naming a game, player counts, line-ups, games
per configuration, a seed, fixed parameter overrides and a grid over parameters by dotted name::

    game = "toy_pig"
    players = "2-4"            # each player count is its own configuration
    games = 20000              # games per configuration (the first round when adaptive)
    seed = 1
    lineup = ["hold20", "hold10"]          # or lineups = [[...], [...]] to sweep line-ups
    chunk_size = 5000          # games per task (one part file)

    [set]                      # fixed overrides for every configuration
    turn_cap = 300

    [grid]                     # cartesian product of these lists
    target = [20, 40, 60]

    [zip]                      # lists of equal length, taken together (one more axis of the product)
    bust_face = [1, 2]
    turn_cap = [200, 400]

    [adaptive]                 # optional: add games until the interval is narrow enough
    metric = "order0_win_share"
    width = 0.02               # full width of the interval
    max_games = 200000

Configurations are numbered in the order of the product: grid axes in file order, then the zipped rows, then
player counts, then line-ups (the last varies fastest).  Every configuration uses the sweep's seed with the same
per-game seed scheme as a run (game k of every configuration plays seed index k: common random numbers across
configurations, so differences between configurations are measured on the same dice), which also makes the
results independent of where and in which order the tasks run.

Output folder::

    manifest.json                      the normalised sweep, every configuration's resolved parameters, status
    games/config=K/part-NNNNN.parquet  the run tables, hive-partitioned by configuration
    seats/config=K/...   items/config=K/...
    summary.parquet                    one row per configuration: parameters, games, key metrics with intervals

One task is one configuration chunk; its part files are written atomically (games last), so re-running the same
sweep after any interruption plays only the missing chunks.
"""

import contextlib
import copy
import hashlib
import itertools
import json
import math
import os
import shutil
import sys
import threading
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .check import MAX_CHUNKS, Expect, chunk_state, expected_columns, read_record, request_id
from .errors import UserError, suggest
from .game import game_names, get_game
from .knobs import as_param, describe_strategies, load_files, split_overrides
from .lock import FolderLock
from .results import (
    chunk_tables,
    clean_temp_files,
    part_name,
    read_manifest,
    write_chunk,
    write_final_json,
    write_json,
)
from .runner import check_games, check_seed, package_versions, simulate
from .seating import make_design

FILE_KEYS = (
    "game",
    "players",
    "games",
    "seed",
    "lineup",
    "lineups",
    "strategies",
    "all_rotations",
    "mirror",
    "chunk_size",
    "confidence",
    "set",
    "grid",
    "zip",
    "adaptive",
    "scheduler",
    "description",
    "strategy_files",
)
ADAPTIVE_KEYS = ("metric", "width", "max_games")
DEFAULT_CHUNK = 10_000
MAX_CONFIGS = 10_000  # configurations of one sweep (its manifest lists each; 160,000 made a 636 MB manifest)
DEFAULT_CONFIDENCE = 0.95
PROPORTION_METRICS = ("shared_win_rate", "capped_rate")  # plus order{k}_win_share and order{k}_win_rate
MEAN_METRICS = ("steps",)  # plus game.<column>


# ----------------------------------------------------------------------------------------------- parsing


def _flatten(table, where, prefix=""):
    """A TOML table whose keys may be dotted (module.ghost = ... parses as nested tables) -> {dotted name: v}."""
    if not isinstance(table, dict):
        raise UserError(f"{where} must be a table of name = value entries (got {table!r})")
    out = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flatten(value, where, name + "."))
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


def field_digest(spec, name, players):
    """The mixture of a `field` line-up (an edited field file is a different sweep)."""
    from .field import load_field

    if len(players) != 1:
        raise UserError(f"--lineup {name} draws from a field of one player count (got {', '.join(map(str, players))})")
    names, weights, _ = load_field(spec, players[0], name.split(":", 1)[1] if ":" in name else None)
    return dict(zip(names, weights))


def _names(value, where):
    """A line-up: a list of strategy names or "a,b,c"."""
    if isinstance(value, str):
        names = [t.strip() for t in value.split(",") if t.strip()]
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        names = list(value)
    else:
        raise UserError(f'{where} must be a list of strategy names or "a,b,c" (got {value!r})')
    if not names:
        raise UserError(f"{where} is empty")
    return tuple(names)


def _positive_int(value, where, minimum=1):
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            if isinstance(value, bool) or isinstance(value, float) and value != int(value):
                raise ValueError
            value = int(value)
        except (TypeError, ValueError, OverflowError):
            raise UserError(f"{where} must be a whole number (got {value!r})") from None
    if value < minimum:
        raise UserError(f"{where} must be at least {minimum} (got {value})")
    return value


def _fraction(value, where, lo=0.0, hi=1.0):
    try:
        if isinstance(value, bool):
            raise ValueError
        value = float(value)
    except (TypeError, ValueError):
        raise UserError(f"{where} must be a number (got {value!r})") from None
    if not lo < value < hi:
        raise UserError(f"{where} must be between {lo:g} and {hi:g}, exclusive (got {value:g})")
    return value


def expand_values(param, raw, where, unique=True):
    """The list of values of one grid axis, validated against the parameter; raw is a list, "a,b,c" or
    "lo:hi:step" (inclusive range, numeric parameters only).  Returns the values as the user would write them."""
    if isinstance(raw, str):
        text = raw.strip()
        if text.count(":") == 2 and "," not in text:
            if param.kind not in ("int", "float"):
                raise UserError(
                    f"{where}: a lo:hi:step range needs a numeric parameter ({param.name} is a {param.kind})"
                )
            try:
                lo, hi, step = (float(t) for t in text.split(":"))
            except ValueError:
                raise UserError(f"{where}: a range is lo:hi:step with numbers (got '{raw}')") from None
            if not all(map(math.isfinite, (lo, hi, step))):
                raise UserError(f"{where}: a range lo:hi:step needs finite numbers (got '{raw}')")
            if step <= 0 or hi < lo:
                raise UserError(f"{where}: a range lo:hi:step needs step > 0 and hi >= lo (got '{raw}')")
            count = int(math.floor((hi - lo) / step + 1e-9)) + 1
            if count > 10_000:
                raise UserError(f"{where}: the range '{raw}' has {count:,} values; at most 10,000 per axis")
            raw = [lo + i * step for i in range(count)]
        else:
            raw = [t.strip() for t in text.split(",") if t.strip()]
    if not isinstance(raw, list):
        raise UserError(f'{where} must be a list of values, "a,b,c" or "lo:hi:step" (got {raw!r})')
    if not raw:
        raise UserError(f"{where} is an empty list: give at least one value")
    shown = []
    for v in raw:
        if isinstance(v, (list, dict)):
            raise UserError(f"{where}: each value must be a single number, switch or choice (got {v!r})")
        try:
            shown.append(param.show(param.parse(v)))
        except UserError as e:
            raise UserError(f"{where}: {e}") from None
    if unique and len(set(shown)) != len(shown):
        raise UserError(f"{where} repeats a value ({', '.join(shown)})")
    return shown


@dataclass
class Config:
    """One configuration of a sweep: a player count, a line-up and a full parameter vector."""

    index: int
    players: int
    lineup: tuple  # strategy names (rotated), or per-seat names when fixed
    fixed: bool
    values: dict  # swept parameter -> value as written
    pvec: np.ndarray
    design: object = None  # seating.Design, sized for the configuration's maximum budget

    def label(self, with_lineup=False):
        parts = [f"{self.players}p"] + [f"{k}={v}" for k, v in self.values.items()]
        if with_lineup:
            parts.append(",".join(self.lineup))
        return " ".join(parts)


@dataclass
class Sweep:
    """A validated sweep: the game, its configurations and the run settings."""

    spec: object
    players: tuple
    games: int
    seed: int
    lineups: list
    fixed: bool
    all_rotations: bool
    chunk_size: int
    confidence: float
    overrides: dict
    grid: dict
    zipped: dict
    adaptive: dict
    configs: list = field(default_factory=list)
    scheduler: str = None
    name: str = "sweep"
    mirror: bool = False

    @property
    def cap(self):
        """Most games any configuration may get (the adaptive maximum, else the fixed budget)."""
        return self.adaptive["max_games"] if self.adaptive else self.games

    @property
    def first_round(self):
        """Games per configuration in the first round (whole chunks when adaptive)."""
        if self.adaptive:
            return min(self.cap, -(-self.games // self.chunk_size) * self.chunk_size)
        return self.games

    def request(self):
        """The normalised sweep: what must match for an existing folder to be resumed."""
        return {
            "kind": "sweep",
            "game": self.spec.name,
            "players": list(self.players),
            "games": self.games,
            "seed": self.seed,
            "lineups": [list(x) for x in self.lineups],
            "fixed_seats": self.fixed,
            "all_rotations": self.all_rotations,
            "chunk_size": self.chunk_size,
            # the interval level steers the adaptive budget; otherwise it only shapes the summary
            "confidence": self.confidence if self.adaptive else None,
            "set": dict(self.overrides),
            "grid": {k: list(v) for k, v in self.grid.items()},
            "zip": {k: list(v) for k, v in self.zipped.items()},
            "adaptive": self.adaptive,
            "game_code": self.spec.code_version(),
            **({"mirror": True} if self.mirror else {}),  # only then: older sweeps' requests stay as they were
            **self._preset_files(),
        }

    def _preset_files(self):
        """Knobs of line-up presets loaded from files (--strategy-file): an edited file is a different sweep.
        Empty (and absent from the request) without such presets, so older sweep folders still resume."""
        from .field import is_field

        files = {
            n: list(self.spec.strategy(n).weights)
            for lu in self.lineups
            for n in lu
            if not is_field(n) and self.spec.strategy(n).origin
        }
        fields = {n: field_digest(self.spec, n, self.players) for lu in self.lineups for n in lu if is_field(n)}
        return {**({"preset_files": files} if files else {}), **({"fields": fields} if fields else {})}

    def fingerprint(self):
        text = json.dumps(self.request(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def sweep_hash(sweep):
    """A short hash of the normalised sweep without the code version (so a code change meets its old folder and
    is refused with the keys that differ, rather than silently getting a new one): part of the default --out."""
    request = {k: v for k, v in sweep.request().items() if k != "game_code"}
    return hashlib.sha1(json.dumps(request, sort_keys=True, default=str).encode()).hexdigest()[:6]


def load_sweep_file(path):
    """Read a sweep file into a raw dict (UserError for a missing file or a TOML syntax error)."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"sweep file {path} not found")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"sweep file {path} is not valid TOML: {e}") from None
    except UnicodeDecodeError as e:
        raise UserError(f"sweep file {path} is not UTF-8 text (byte {e.start}); save it as UTF-8") from None
    except OSError as e:
        raise UserError(f"cannot read sweep file {path} ({e.strerror or e})") from None


def build_sweep(raw, where="sweep"):
    """Validate a raw sweep dict (from a file, flags, or both) into a Sweep with its configurations.

    Every mistake raises a one-line UserError that names the key and, for names, suggests the closest valid
    ones.  Nothing is written.
    """
    raw = dict(raw)
    for key in raw:
        if key not in FILE_KEYS:
            raise suggest(key, FILE_KEYS, f"key in {where}")
    if "game" not in raw:
        raise UserError(f'{where} names no game (game = "..."). Valid: {", ".join(game_names())}')
    spec = raw["game"] if not isinstance(raw["game"], str) else get_game(raw["game"])
    if not hasattr(spec, "params"):
        raise UserError(
            f"{where}: game must be a game name in quotes, one of {', '.join(game_names())} (got {raw['game']!r})"
        )
    files = raw.get("strategy_files", [])
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        raise UserError(f"{where}: strategy_files must be a list of preset file paths (got {files!r})")
    load_files(spec, files)  # preset files the line-ups may name

    players = parse_player_counts(raw.get("players", spec.default_players), f"{where}: players")
    for n in players:
        spec.check_players(n)
    games = check_games(_positive_int(raw.get("games", 10_000), f"{where}: games"), f"{where}: games")
    seed = check_seed(raw.get("seed", 0))
    if "lineup" in raw and "lineups" in raw:
        raise UserError(f"{where}: give lineup (one line-up) or lineups (several), not both")
    if "strategies" in raw and ("lineup" in raw or "lineups" in raw):
        raise UserError(f"{where}: give strategies (fixed seats) or a line-up (rotated), not both")
    fixed = "strategies" in raw
    if fixed:
        lineups = [_names(raw["strategies"], f"{where}: strategies")]
    elif "lineups" in raw:
        if not isinstance(raw["lineups"], list) or not raw["lineups"]:
            raise UserError(f"{where}: lineups must be a non-empty list of line-ups (got {raw['lineups']!r})")
        lineups = [_names(x, f"{where}: lineups[{i}]") for i, x in enumerate(raw["lineups"])]
    elif "lineup" in raw:
        lineups = [_names(raw["lineup"], f"{where}: lineup")]
    else:
        lineups = [tuple(spec.default_lineup)]
    all_rotations = raw.get("all_rotations", False)
    if not isinstance(all_rotations, bool):
        raise UserError(f"{where}: all_rotations must be true or false (got {all_rotations!r})")
    mirror = raw.get("mirror", False)
    if not isinstance(mirror, bool):
        raise UserError(f"{where}: mirror must be true or false (got {mirror!r})")
    chunk_size = _positive_int(raw.get("chunk_size", min(DEFAULT_CHUNK, games)), f"{where}: chunk_size")
    confidence = _fraction(raw.get("confidence", DEFAULT_CONFIDENCE), f"{where}: confidence")

    def param(name, section):
        try:
            return as_param(spec, name)  # a game parameter, or a knob strategy.<preset>.<knob>
        except UserError as e:
            raise UserError(f"{where}: [{section}] {e}") from None

    overrides = {}
    for name, value in _flatten(raw.get("set", {}), f"{where}: [set]").items():
        p = param(name, "set")
        if isinstance(value, (list, dict)):
            raise UserError(f"{where}: [set] {name} takes one value (got {value!r}); put lists under [grid]")
        try:
            overrides[name] = p.show(p.parse(value))
        except UserError as e:
            raise UserError(f"{where}: [set] {e}") from None
    grid = {}
    for name, value in _flatten(raw.get("grid", {}), f"{where}: [grid]").items():
        grid[name] = expand_values(param(name, "grid"), value, f"{where}: [grid] {name}")
    zipped = {}
    for name, value in _flatten(raw.get("zip", {}), f"{where}: [zip]").items():
        zipped[name] = expand_values(param(name, "zip"), value, f"{where}: [zip] {name}", unique=False)
    if zipped and len({len(v) for v in zipped.values()}) != 1:
        sizes = ", ".join(f"{k} has {len(v)}" for k, v in zipped.items())
        raise UserError(f"{where}: the [zip] lists must have the same length ({sizes})")
    rows = list(zip(*zipped.values()))
    if len(set(rows)) != len(rows):
        raise UserError(f"{where}: [zip] repeats a row of values ({', '.join(zipped)}); each row is one configuration")
    for name in grid:
        if name in overrides or name in zipped:
            raise UserError(
                f"{where}: parameter {name} is both swept in [grid] and given in "
                f"{'[set]' if name in overrides else '[zip]'}; keep one"
            )
    for name in zipped:
        if name in overrides:
            raise UserError(f"{where}: parameter {name} is both swept in [zip] and given in [set]; keep one")

    adaptive = None
    if "adaptive" in raw:
        ad = _flatten(raw["adaptive"], f"{where}: [adaptive]")
        for key in ad:
            if key not in ADAPTIVE_KEYS:
                raise suggest(key, ADAPTIVE_KEYS, f"key in {where}: [adaptive]")
        for key in ("metric", "width", "max_games"):
            if key not in ad:
                raise UserError(f"{where}: [adaptive] needs {key} (it has: {', '.join(ad) or 'nothing'})")
        metric = check_metric(ad["metric"], spec, min(players), interval="proportion", where=f"{where}: [adaptive]")
        width = _fraction(ad["width"], f"{where}: [adaptive] width")
        max_games = check_games(
            _positive_int(ad["max_games"], f"{where}: [adaptive] max_games"), f"{where}: [adaptive] max_games"
        )
        if max_games < games:
            raise UserError(f"{where}: [adaptive] max_games ({max_games}) is below games ({games})")
        adaptive = {"metric": metric, "width": width, "max_games": max_games}

    scheduler = raw.get("scheduler")
    if scheduler is not None and not (isinstance(scheduler, str) and "://" in scheduler):
        raise UserError(f'{where}: scheduler must be an address like "tcp://host:8786" (got {scheduler!r})')

    sweep = Sweep(
        spec,
        players,
        games,
        seed,
        lineups,
        fixed,
        all_rotations,
        chunk_size,
        confidence,
        overrides,
        grid,
        zipped,
        adaptive,
        scheduler=scheduler,
        mirror=mirror,
    )
    sweep.configs = expand(sweep, where)
    from .runner import check_chunks

    check_chunks(spec, sweep.chunk_size, sweep.cap, f"{where}: chunk_size")  # memory of one task
    total = len(sweep.configs) * -(-sweep.cap // sweep.chunk_size)
    if total > MAX_CHUNKS:
        raise UserError(
            f"{where}: {len(sweep.configs):,} configurations of up to {sweep.cap:,} games in chunks of "
            f"{sweep.chunk_size:,} are {total:,} chunks; at most {MAX_CHUNKS:,}: use larger chunks"
        )
    return sweep


def expand(sweep, where="sweep"):
    """All configurations: product of the grid axes, the zipped rows, the player counts and the line-ups."""
    spec = sweep.spec
    axes = [[(name, v) for v in values] for name, values in sweep.grid.items()]
    if sweep.zipped:
        names = list(sweep.zipped)
        axes.append([tuple((n, sweep.zipped[n][i]) for n in names) for i in range(len(sweep.zipped[names[0]]))])
    configs = []
    count = math.prod(len(a) for a in axes) * len(sweep.players) * len(sweep.lineups)
    if count > MAX_CONFIGS:
        sizes = " x ".join(
            [str(len(a)) for a in axes] + [f"{len(sweep.players)} player counts", f"{len(sweep.lineups)} line-ups"]
        )
        raise UserError(
            f"{where} plans {count:,} configurations ({sizes}); at most {MAX_CONFIGS:,}: sweep fewer values, or "
            f"split it into several sweeps"
        )
    combos = itertools.product(*axes) if axes else [()]
    for combo in combos:
        values = {}
        for item in combo:
            pairs = item if isinstance(item[0], tuple) else (item,)
            for name, v in pairs:
                values[name] = v
        params, knobs = split_overrides({**sweep.overrides, **values})
        pvec = spec.params.resolve(params)
        for n in sweep.players:
            for lineup in sweep.lineups:
                try:
                    design = make_design(
                        spec,
                        (n,),
                        sweep.cap,
                        None if sweep.fixed else list(lineup),
                        list(lineup) if sweep.fixed else None,
                        sweep.all_rotations,
                        knobs,
                        sweep.mirror,
                    )
                except UserError as e:
                    raise UserError(f"{where}: {n} players, line-up {','.join(lineup)}: {e}") from None
                configs.append(Config(len(configs), n, tuple(lineup), sweep.fixed, dict(values), pvec, design))
    return configs


def raw_from_flags(
    source,
    players=None,
    games=None,
    seed=None,
    lineup=None,
    strategies=None,
    all_rotations=False,
    mirror=False,
    sets=(),
    grids=(),
    zips=(),
    chunk_size=None,
    adaptive_metric=None,
    adaptive_width=None,
    max_games=None,
    confidence=None,
):
    """The raw sweep dict from a sweep file (source ends in .toml) or a game name, with the flags on top.

    Flags override the file's scalar settings; --set/--grid/--zip entries are added to (or replace) the file's
    entries of the same name.
    """
    if str(source).endswith(".toml"):
        raw = load_sweep_file(source)
        name = Path(source).stem
    else:
        raw = {"game": source}
        name = str(source)
    raw = copy.deepcopy(raw)
    for key, value in (
        ("players", players),
        ("games", games),
        ("seed", seed),
        ("chunk_size", chunk_size),
        ("confidence", confidence),
    ):
        if value is not None:
            raw[key] = value
    if lineup is not None:
        raw.pop("lineups", None)
        raw.pop("strategies", None)
        raw["lineup"] = lineup
    if strategies is not None:
        raw.pop("lineups", None)
        raw.pop("lineup", None)
        raw["strategies"] = strategies
    if all_rotations:
        raw["all_rotations"] = True
    if mirror:
        raw["mirror"] = True
    for flag, section, pairs in (("--set", "set", sets), ("--grid", "grid", grids), ("--zip", "zip", zips)):
        if pairs:
            table = _flatten(raw.get(section, {}), f"[{section}]")
            for pair in pairs:
                if "=" not in pair:
                    raise UserError(f"{flag} takes name=value (got '{pair}')")
                key, value = pair.split("=", 1)
                table[key.strip()] = value.strip()
            raw[section] = table
    if adaptive_metric is not None or adaptive_width is not None or max_games is not None:
        ad = dict(raw.get("adaptive", {}))
        for key, value in (("metric", adaptive_metric), ("width", adaptive_width), ("max_games", max_games)):
            if value is not None:
                ad[key] = value
        raw["adaptive"] = ad
    return raw, name


# ----------------------------------------------------------------------------------------------- metrics


def check_metric(name, spec, players, interval=None, where="metric"):
    """Validate a metric name; interval='proportion' allows only metrics with a Wilson interval."""
    name = {"first_player_win_share": "order0_win_share"}.get(name, name)
    valid = [f"order{k}_win_share" for k in range(players)] + [f"order{k}_win_rate" for k in range(players)]
    valid += list(PROPORTION_METRICS)
    if interval != "proportion":
        valid += list(MEAN_METRICS) + [f"game.{c}" for c in spec.game_columns if c not in spec.labels]
    if name not in valid:
        raise UserError(f"{where}: {suggest(name, valid + ['first_player_win_share'], 'metric')}")
    return name


def chunk_stats(spec, tables):
    """Additive statistics of one chunk (sums and sums of squares) from which every metric is computed."""
    games, seats = tables["games"], tables["seats"]
    n = games.num_rows
    gid = games["game"].to_numpy()
    steps = games["steps"].to_numpy().astype(np.float64)
    st = {
        "n": float(n),
        "steps.s": float(steps.sum()),
        "steps.ss": float((steps**2).sum()),
        "capped_rate.s": float(np.asarray(games["capped"].to_numpy(zero_copy_only=False)).sum()),
    }
    for col in spec.game_columns:
        if col not in spec.labels:
            x = games[col].to_numpy().astype(np.float64)
            st[f"game.{col}.s"] = float(x.sum())
            st[f"game.{col}.ss"] = float((x**2).sum())
    row = np.searchsorted(gid, seats["game"].to_numpy())
    order = seats["order"].to_numpy().astype(np.int64)
    share = seats["win_share"].to_numpy().astype(np.float64)
    win = seats["win"].to_numpy().astype(np.float64)
    winners = np.bincount(row, weights=win, minlength=n)
    st["shared_win_rate.s"] = float((winners > 1).sum())  # ties; in team games also every team win
    for k in np.unique(order):
        at = order == k
        st[f"order{k}_win_share.s"] = float(share[at].sum())
        st[f"order{k}_win_share.ss"] = float((share[at] ** 2).sum())
        st[f"order{k}_win_rate.s"] = float(win[at].sum())
    strat = seats["strategy"].to_pandas().astype(str).to_numpy()
    for name in np.unique(strat):
        at = strat == name
        st[f"strategy.{name}.s"] = float(share[at].sum())
        st[f"strategy.{name}.seats"] = float(at.sum())
    return st


def add_stats(a, b):
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0.0) + v
    return out


def metric_interval(stats, name, confidence=DEFAULT_CONFIDENCE):
    """(estimate, low, high) of a metric from summed chunk statistics.

    Proportions (win shares, win rates, shared-win and capped rates) get the Wilson score interval from statsmodels,
    applied to (sum of per-game values, games); for a win share split by ties this is conservative.  Means
    (steps, game columns) get the t interval from scipy.
    """
    from scipy import stats as sps
    from statsmodels.stats.proportion import proportion_confint

    n = stats.get("n", 0.0)
    s = stats.get(f"{name}.s")
    if n <= 0 or s is None:
        return math.nan, math.nan, math.nan
    est = s / n
    if name.startswith("order") or name in PROPORTION_METRICS:
        lo, hi = proportion_confint(min(s, n), n, alpha=1 - confidence, method="wilson")
        return est, float(lo), float(hi)
    if n < 2:
        return est, math.nan, math.nan
    var = max(stats[f"{name}.ss"] - n * est * est, 0.0) / (n - 1)
    if var == 0:
        return est, est, est
    lo, hi = sps.t.interval(confidence, n - 1, loc=est, scale=math.sqrt(var / n))
    return est, float(lo), float(hi)


def metric_variance(stats, name):
    """Variance of the metric's estimate (the sample variance of the per-game values over n), floored so that a
    run of identical outcomes never gets zero variance."""
    n = stats.get("n", 0.0)
    s = stats.get(f"{name}.s", 0.0)
    est = s / n
    ss = stats.get(f"{name}.ss")
    if ss is None:  # a 0/1 rate: the binomial variance
        var = est * (1 - est)
    else:
        var = max(ss - n * est * est, 0.0) / max(n - 1, 1)
    floor = 1.0 / (n + 2) * (1 - 1.0 / (n + 2)) if (name.startswith("order") or name in PROPORTION_METRICS) else 1e-12
    return max(var, floor) / n


# ----------------------------------------------------------------------------------------------- tasks


@dataclass
class Task:
    """One configuration chunk: plays games [start, stop) of configuration `config` and writes one part file
    per table under `<folder>/<table>/config=K/`.  Everything a remote worker needs travels in the task."""

    game: object  # a game name, or the GameSpec itself for games registered outside sim/games
    design: object
    pvec: np.ndarray
    seed: int
    folder: str
    config: int
    chunk: int
    start: int
    stop: int
    replay: bool = False  # the chunk's files on disk failed sim.check: play it again whatever is there
    run_id: str = None  # the sweep's request id (sim.check.request_id), written into each chunk's record

    @property
    def partition(self):
        return f"config={self.config}"

    @property
    def key(self):
        return f"sweep-{hashlib.sha1(self.folder.encode()).hexdigest()[:8]}-c{self.config}-k{self.chunk}"


_KERNEL_LOCK = threading.Lock()  # one kernel call at a time per process: each already uses all cores


def read_part_stats(spec, folder, config, chunk):
    """Statistics of a chunk already on disk."""
    part = f"config={config}"
    tables = {name: pq.read_table(Path(folder) / name / part / part_name(chunk)) for name in ("games", "seats")}
    return chunk_stats(spec, tables)


def execute_task(task):
    """Play and write one task (idempotent: a finished chunk is read, not replayed); returns its statistics."""
    spec = get_game(task.game) if isinstance(task.game, str) else task.game
    state, _ = chunk_state(task.folder, task.chunk, task_expect(spec, task, run_id=task.run_id), task.partition)
    if state == "done" and not task.replay:  # (a task run twice: Dask re-runs a lost worker's tasks)
        return read_part_stats(spec, task.folder, task.config, task.chunk)
    with _KERNEL_LOCK:
        arrays = simulate(spec, task.design, task.pvec, task.seed, task.start, task.stop)
    tables = chunk_tables(spec, task.design, task.start, arrays)
    record = write_chunk(task.folder, task.chunk, tables, task.partition, task.run_id)
    return {**chunk_stats(spec, tables), "_record": record}


def task_expect(spec, task, record=None, checksum=True, run_id=None):
    """What the task's part files must hold (sim.check): one player count per configuration."""
    n = task.design.player_counts[0]
    return Expect(task.start, task.stop, (task.stop - task.start) * n, expected_columns(spec), record, checksum, run_id)


class Planner:
    """Which tasks a sweep still needs, deterministically, including the adaptive rounds.

    A configuration's chunks are scheduled in rounds.  When every chunk of the current round is done, the
    adaptive rule looks at all of that configuration's games so far and either stops or schedules more chunks.
    The decision depends only on finished chunks, never on timing, so a local run, a Dask run and a resumed run
    play exactly the same games.
    """

    def __init__(self, sweep, folder, records=None):
        self.sweep = sweep
        self.folder = str(Path(folder).resolve())
        cs = sweep.chunk_size
        self.scheduled = {c.index: -(-sweep.first_round // cs) for c in sweep.configs}  # chunks 0..m-1
        self.stats = {c.index: {} for c in sweep.configs}  # chunk -> stats
        self.submitted = set()
        self.finished = {}  # config -> reason
        self.rounds = {c.index: [] for c in sweep.configs}  # games at each adaptive decision
        self.game_ref = sweep.spec.name if sweep.spec.name in game_names() else sweep.spec
        self.records = {p: dict(r) for p, r in (records or {}).items()}  # partition -> chunk -> record
        self.replayed = 0
        self.bad = set()  # (config, chunk) whose files failed the check
        self.run_id = request_id(sweep.request())
        for c in sweep.configs:
            self._load_done(c.index)

    def _stop(self, k, c):
        return (
            min(self.sweep.cap, (c + 1) * self.sweep.chunk_size)
            if self.sweep.adaptive
            else min(self.sweep.games, (c + 1) * self.sweep.chunk_size)
        )

    def _load_done(self, k):
        """Chunks already on disk count only when their part files pass sim.check; bad ones are reported and
        played again."""
        recs = self.records.get(f"config={k}", {})
        for c in range(-(-self.sweep.cap // self.sweep.chunk_size)):
            task = self.task(k, c)
            state, why = chunk_state(
                self.folder, c, task_expect(self.sweep.spec, task, recs.get(str(c)), run_id=self.run_id), task.partition
            )
            if state == "done":
                self.stats[k][c] = read_part_stats(self.sweep.spec, self.folder, k, c)
                saved = read_record(self.folder, c, task.partition)  # (a chunk done after the last manifest save)
                if saved and saved.get("tables"):
                    self.records.setdefault(task.partition, {})[str(c)] = saved["tables"]
            elif state == "bad":
                print(f"note: replaying {why}", file=sys.stderr)
                recs.pop(str(c), None)
                self.bad.add((k, c))
                self.replayed += 1

    def task(self, k, c):
        cfg = self.sweep.configs[k]
        return Task(
            self.game_ref,
            cfg.design,
            cfg.pvec,
            self.sweep.seed,
            self.folder,
            k,
            c,
            c * self.sweep.chunk_size,
            self._stop(k, c),
            (k, c) in getattr(self, "bad", ()),
            getattr(self, "run_id", None),
        )

    def games_planned(self, k):
        return (
            min(self.sweep.cap, self.scheduled[k] * self.sweep.chunk_size) if self.sweep.adaptive else self.sweep.games
        )

    def games_done(self, k):
        return int(sum(s["n"] for c, s in self.stats[k].items() if c < self.scheduled[k]))

    def totals(self, k):
        total = {}
        for c in range(self.scheduled[k]):
            total = add_stats(total, self.stats[k][c])
        return total

    def _advance(self, k):
        """Round done: stop, or schedule the next round (adaptive)."""
        ad = self.sweep.adaptive
        if not ad:
            self.finished[k] = "budget"
            return
        cs = self.sweep.chunk_size
        total = self.totals(k)
        n = total["n"]
        self.rounds[k].append(int(n))
        est, lo, hi = metric_interval(total, ad["metric"], self.sweep.confidence)
        width = hi - lo
        if width <= ad["width"]:
            self.finished[k] = "width"
            return
        if n >= self.sweep.cap:
            self.finished[k] = "max_games"
            return
        # the interval narrows like 1/sqrt(n): aim 10% past the estimate, at least one chunk, at most 4x
        need = n * (width / ad["width"]) ** 2 * 1.1 if width > 0 else n + cs
        target = min(max(need, n + cs), 4 * n, self.sweep.cap)
        self.scheduled[k] = -(-int(math.ceil(target)) // cs)

    def missing(self, k):
        """Chunks of configuration k still to play, after settling every round that is complete."""
        while k not in self.finished:
            missing = [c for c in range(self.scheduled[k]) if c not in self.stats[k]]
            if missing:
                return missing
            self._advance(k)
        return []

    def ready(self):
        """Tasks to start now (not done, not already submitted)."""
        out = []
        for cfg in self.sweep.configs:
            for c in self.missing(cfg.index):
                if (cfg.index, c) not in self.submitted:
                    self.submitted.add((cfg.index, c))
                    out.append(self.task(cfg.index, c))
        return out

    def complete(self, task, stats):
        record = stats.pop("_record", None)
        if record is not None:
            self.records.setdefault(task.partition, {})[str(task.chunk)] = record
        self.stats[task.config][task.chunk] = stats
        self.submitted.discard((task.config, task.chunk))

    @property
    def total_planned(self):
        return sum(self.games_planned(c.index) for c in self.sweep.configs)

    @property
    def total_done(self):
        return sum(self.games_done(c.index) for c in self.sweep.configs)


# ----------------------------------------------------------------------------------------------- folder


def clean_partial_files(folder):
    """Remove temp files left by a process killed while writing (see sim.results.clean_temp_files)."""
    clean_temp_files(folder)


def open_sweep_folder(out, sweep, fresh):
    """Create the folder, or check that it holds the same sweep (then it is resumed).  Returns the old manifest."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} is a file, not a folder; choose another --out")
    try:
        old = read_manifest(out)
    except UserError:
        if not fresh:
            raise
        old = None  # --fresh recovers a folder whose manifest is corrupt
    request = sweep.request()
    if old is not None and old.get("request") == request and not fresh:
        return old
    if out.exists() and any(out.iterdir()):
        if not fresh:
            if old is None:
                raise UserError(f"{out} already holds other files; choose another --out or pass --fresh")
            if old.get("kind") != "sweep":
                raise UserError(f"{out} holds a single run, not a sweep; choose another --out or pass --fresh")
            before = old.get("request", {})
            keys = sorted(k for k in set(before) | set(request) if before.get(k) != request.get(k))
            raise UserError(
                f"{out} holds a different sweep (changed: {', '.join(keys)}); re-run the original "
                f"sweep to resume it, choose another --out, or pass --fresh to discard it"
            )
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    return None


def _manifest(sweep, planner, status, command, timings=None):
    from . import __version__, source_hash

    spec = sweep.spec
    configs = []
    for cfg in sweep.configs:
        configs.append(
            {
                "config": cfg.index,
                "partition": f"config={cfg.index}",
                "players": cfg.players,
                "lineup": list(cfg.lineup),
                "seating": "fixed" if cfg.fixed else "rotate",
                "swept": cfg.values,
                "params_changed": spec.params.changed(cfg.pvec),
                "params": spec.params.describe(cfg.pvec),
                "strategies": describe_strategies(spec, cfg.design),
                "games_planned": planner.games_planned(cfg.index),
                "games_done": planner.games_done(cfg.index),
                "finished": planner.finished.get(cfg.index),
                "rounds": planner.rounds[cfg.index],
            }
        )
    return {
        "kind": "sweep",
        "game": spec.name,
        "title": spec.title,
        "rules_version": spec.rules_version,
        "request": sweep.request(),
        "fingerprint": sweep.fingerprint(),
        "seed": sweep.seed,
        "chunk_size": sweep.chunk_size,
        "n_configs": len(sweep.configs),
        "configs": configs,
        "assumed_components": spec.assumed_components,
        "assumed_params": spec.params.assumed(),
        "status": status,
        "command": command or " ".join(sys.argv),
        "code_version": __version__,
        "source_hash": source_hash(),
        "packages": package_versions(),
        "timings": timings or {},
        "chunks": planner.records,
    }


# ----------------------------------------------------------------------------------------------- summary


def summary_frame(sweep, planner):
    """One row per configuration: parameters, games, and key metrics with their intervals."""
    import pandas as pd

    rows = []
    max_p = max(sweep.players)
    extra = sorted(
        {
            k[len("game.") : -2]
            for st in (planner.totals(c.index) for c in sweep.configs)
            for k in st
            if k.startswith("game.") and k.endswith(".s")
        }
    )
    for cfg in sweep.configs:
        st = planner.totals(cfg.index)
        row = {
            "config": cfg.index,
            "players": cfg.players,
            "lineup": ",".join(cfg.lineup),
            "seating": "fixed" if cfg.fixed else "rotate",
        }
        for name in list(sweep.grid) + list(sweep.zipped):
            p = as_param(sweep.spec, name)
            value = cfg.values[name]
            row[name] = float(value) if p.kind in ("int", "float") else value
        row["games"] = int(st.get("n", 0))
        row["finished"] = planner.finished.get(cfg.index)
        metrics = [f"order{k}_win_share" for k in range(max_p)] + ["shared_win_rate", "capped_rate", "steps"]
        metrics += [f"game.{c}" for c in extra]
        for m in metrics:
            est, lo, hi = metric_interval(st, m, sweep.confidence)
            row[m], row[f"{m}_lo"], row[f"{m}_hi"] = est, lo, hi
        row["fair_share"] = 1.0 / cfg.players
        for name in sorted({k.split(".")[1] for k in st if k.startswith("strategy.") and k.endswith(".s")}):
            seats = st.get(f"strategy.{name}.seats", 0.0)
            row[f"strategy.{name}_win_share"] = st[f"strategy.{name}.s"] / seats if seats else math.nan
        rows.append(row)
    return pd.DataFrame(rows)


def write_summary(folder, frame):
    path = Path(folder) / "summary.parquet"
    tmp = path.with_name(f".summary.parquet.tmp{os.getpid()}")
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), tmp)
    os.replace(tmp, path)
    return path


def read_sweep(folder, table="seats"):
    """One table of a sweep as a pandas DataFrame with its `config` column (the hive partition key): the done
    chunks only, their checksums verified first (a damaged chunk: one-line UserError)."""
    import pyarrow.dataset as ds

    from .check import verified

    files = verified(folder).files(folder, table)
    base = str(Path(folder) / table)
    return ds.dataset(files, format="parquet", partitioning="hive", partition_base_dir=base).to_table().to_pandas()


# ----------------------------------------------------------------------------------------------- running


def describe(sweep, echo=print):
    """Print the configurations of a sweep (for --dry-run)."""
    budget = (
        f"{sweep.games} games each"
        if not sweep.adaptive
        else (
            f"{sweep.first_round} games first, adding chunks of {sweep.chunk_size} until the "
            f"{sweep.adaptive['metric']} interval is narrower than {sweep.adaptive['width']:g} "
            f"(at most {sweep.adaptive['max_games']})"
        )
    )
    echo(
        f"sweep of {sweep.spec.name}: {len(sweep.configs)} configurations, {budget}, seed {sweep.seed}, "
        f"chunks of {sweep.chunk_size}"
    )
    if sweep.overrides:
        echo("fixed: " + ", ".join(f"{k}={v}" for k, v in sweep.overrides.items()))
    for cfg in sweep.configs:
        seats = "seats" if cfg.fixed else "line-up"
        echo(
            f"  config={cfg.index:<4d} {cfg.players}p  {seats} {','.join(cfg.lineup)}  "
            + "  ".join(f"{k}={v}" for k, v in cfg.values.items())
        )


def estimate_seconds_per_game(sweep, sample_games=300, samples=3):
    """Time a few hundred games on up to `samples` configurations (first, middle, last) after compiling.

    Returns (seconds per game, compile or cache-load seconds)."""
    picks = sorted({0, len(sweep.configs) // 2, len(sweep.configs) - 1})[:samples]
    t0 = time.perf_counter()
    cfg = sweep.configs[0]
    simulate(sweep.spec, cfg.design, cfg.pvec, sweep.seed, 0, 1)
    compile_s = time.perf_counter() - t0
    played = 0
    t1 = time.perf_counter()
    for k in picks:
        cfg = sweep.configs[k]
        n = min(sample_games, sweep.cap)
        simulate(sweep.spec, cfg.design, cfg.pvec, sweep.seed, 0, n)
        played += n
    return (time.perf_counter() - t1) / max(played, 1), compile_s


def _fmt_seconds(s):
    if s < 90:
        return f"{s:.0f} s"
    if s < 5400:
        return f"{s / 60:.1f} min"
    return f"{s / 3600:.1f} h"


def dry_run(sweep, echo=print, sample_games=300):
    """Print the configurations and the estimated time on this machine; writes nothing."""
    import numba

    describe(sweep, echo)
    per_game, compile_s = estimate_seconds_per_game(sweep, sample_games)
    first = sweep.first_round * len(sweep.configs)
    line = (
        f"estimated time on this machine ({numba.get_num_threads()} threads): "
        f"{_fmt_seconds(first * per_game)} for {first:,} games"
    )
    if sweep.adaptive:
        most = sweep.cap * len(sweep.configs)
        line += f", up to {_fmt_seconds(most * per_game)} if every configuration needs {sweep.cap:,} games"
    echo(
        line + f" (timed {per_game * 1e6:.1f} us/game, plus {compile_s:.1f} s compile or cache load; "
        f"writing not included)"
    )
    return per_game


def set_threads(threads):
    """Threads of the local kernel (None: all cores)."""
    from .inputs import set_threads as use

    use(threads)


def run_sweep(sweep, out, scheduler=None, fresh=False, progress=True, threads=None, command=None, on_task=None):
    """Play every configuration of the sweep into `out` (resuming whatever is already there).

    scheduler: None (this machine, all cores), a 'tcp://host:port' address of a dask.distributed scheduler, or
    a distributed.Client.  on_task(task, planner) is called after every finished task (used by tests).
    Writes summary.parquet and returns the summary DataFrame.
    """
    set_threads(threads)
    scheduler = scheduler if scheduler is not None else sweep.scheduler
    if scheduler is None:
        return _run(sweep, Path(out).resolve(), None, fresh, progress, command, on_task)
    from .distributed import connect, quiet_client

    with quiet_client():  # dask's reconnection tracebacks stay off stderr, also while the client closes
        client, owned = connect(scheduler)  # reach the cluster before anything is written
        try:
            return _run(sweep, Path(out).resolve(), client, fresh, progress, command, on_task)
        finally:
            if owned:
                with contextlib.suppress(Exception):  # a lost scheduler: closing may fail; the error is said
                    client.close(timeout=5)


def _run(sweep, out, client, fresh, progress, command, on_task):
    with FolderLock(out, "sim sweep"):
        return _run_locked(sweep, out, client, fresh, progress, command, on_task)


def _run_locked(sweep, out, client, fresh, progress, command, on_task):
    old = open_sweep_folder(out, sweep, fresh)
    clean_partial_files(out)  # we hold the folder's lock: every temp file there is a killed writer's
    planner = Planner(sweep, out, (old or {}).get("chunks"))
    if (
        old is not None
        and old.get("status") == "complete"
        and not planner.replayed
        and planner.total_done >= planner.total_planned
        and all(planner.missing(c.index) == [] for c in sweep.configs)
    ):
        # a no-op rerun: the folder is left exactly as it was (timings of the session that played, status)
        return summary_frame(sweep, planner)
    write_json(out / "manifest.json", _manifest(sweep, planner, "running", command))
    bar = _progress(planner, progress)
    done_before = planner.total_done
    last_save = [time.monotonic()]

    def done(task, stats):
        planner.complete(task, stats)
        planner.missing(task.config)  # settles the configuration's round (adaptive: may schedule more)
        bar.total = planner.total_planned
        bar.update(planner.total_done - bar.n)
        bar.set_postfix_str(f"configs {len(planner.finished)}/{len(sweep.configs)}", refresh=False)
        if time.monotonic() - last_save[0] > 30:  # the chunks' records reach the manifest now and then
            write_json(out / "manifest.json", _manifest(sweep, planner, "running", command))
            last_save[0] = time.monotonic()
        if on_task is not None:
            on_task(task, planner)

    def final(status, reason):
        bar.close()
        m = _manifest(sweep, planner, status, command)
        m["reason"] = reason
        write_final_json(out / "manifest.json", m)

    t0 = time.perf_counter()
    try:
        if client is None:
            if planner.total_done < planner.total_planned:  # compile (or load the cache) before the clock runs
                cfg = sweep.configs[0]
                simulate(sweep.spec, cfg.design, cfg.pvec, sweep.seed, 0, 1)
            _run_local(planner, done)
        else:
            from .distributed import run_on_cluster

            run_on_cluster(client, planner, done)
        bar.close()
        frame = summary_frame(sweep, planner)
        write_summary(out, frame)
    except KeyboardInterrupt:
        final("interrupted", "interrupted (Ctrl-C); run the same command again to resume")
        print(f"interrupted: finished chunks are kept; run the same command again to resume {out}", file=sys.stderr)
        raise
    except UserError as e:
        final("failed", str(e))
        raise UserError(f"{e}; finished chunks are kept: run the same command again to resume {out}") from None
    except OSError as e:
        why = f"{e.strerror or e.__class__.__name__}" + (f": {e.filename}" if e.filename else "")
        final("failed", why)
        raise UserError(
            f"writing {out} failed ({why}); finished chunks are kept: free space or fix the folder, "
            f"then run the same command again to resume"
        ) from None
    except BaseException as e:  # a bug or a signal turned exception: the status still says what happened
        final("failed", f"{e.__class__.__name__}: {str(e)[:200]}")
        raise
    elapsed = time.perf_counter() - t0
    timings = {
        "total_s": round(elapsed, 3),
        "games_this_session": planner.total_done - done_before,
        "executor": "local" if client is None else client.scheduler.address,
    }
    write_json(out / "manifest.json", _manifest(sweep, planner, "complete", command, timings))
    return frame


def _run_local(planner, done):
    """This machine: tasks one after the other, each on all cores (the kernel is parallel over games)."""
    while True:
        tasks = planner.ready()
        if not tasks:
            return
        for task in tasks:
            done(task, execute_task(task))


def _progress(planner, enabled):
    from tqdm.auto import tqdm

    bar = tqdm(
        total=planner.total_planned,
        initial=planner.total_done,
        disable=not enabled,
        unit=" games",
        unit_scale=True,
        desc="sweep",
        smoothing=0.1,
        dynamic_ncols=True,
    )
    bar.set_postfix_str(f"configs {len(planner.finished)}/{len(planner.sweep.configs)}")
    return bar


def print_summary(sweep, frame, echo=print):
    """A few lines per configuration: the first player's win share with its interval against the fair share."""
    pct = round(sweep.confidence * 100)
    for _, row in frame.iterrows():
        cfg = sweep.configs[int(row.config)]
        echo(
            f"config={cfg.index:<4d} {cfg.label(len(sweep.lineups) > 1):40s} games={int(row.games):<8d} first player "
            f"{row.order0_win_share:.3f} [{row.order0_win_share_lo:.3f}, {row.order0_win_share_hi:.3f}] "
            f"({pct}%; fair {row.fair_share:.3f})  shared wins {row.shared_win_rate:.3f}  steps {row.steps:.1f}"
        )
