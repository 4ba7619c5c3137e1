"""Parsing and validating a sweep: a TOML file, or the same keys from command-line flags, into a Sweep."""

import copy
import hashlib
import json
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..check import MAX_CHUNKS
from ..errors import UserError, suggest
from ..game import game_names, get_game
from ..knobs import as_param, load_files
from ..runner import check_chunks, check_games, check_seed
from .plan import expand
from .stats import DEFAULT_CONFIDENCE, check_metric


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
    from ..field import load_field

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
        from ..field import is_field

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
    check_chunks(spec, sweep.chunk_size, sweep.cap, f"{where}: chunk_size")  # memory of one task
    total = len(sweep.configs) * -(-sweep.cap // sweep.chunk_size)
    if total > MAX_CHUNKS:
        raise UserError(
            f"{where}: {len(sweep.configs):,} configurations of up to {sweep.cap:,} games in chunks of "
            f"{sweep.chunk_size:,} are {total:,} chunks; at most {MAX_CHUNKS:,}: use larger chunks"
        )
    return sweep


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
