"""Parsing and validating a sweep: a TOML file, or the same keys from command-line flags, into a Sweep."""

import copy
import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from ..check import MAX_CHUNKS
from ..errors import UserError, suggest
from ..game import game_names, get_game
from ..inputs import flatten as _flatten
from ..inputs import names, parse_player_counts, read_toml, switch, whole
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


def field_digest(spec, name, players):
    """The mixture of a `field` line-up (an edited field file is a different sweep)."""
    from ..field import load_field

    if len(players) != 1:
        raise UserError(f"--lineup {name} draws from a field of one player count (got {', '.join(map(str, players))})")
    names, weights, _ = load_field(spec, players[0], name.split(":", 1)[1] if ":" in name else None)
    return dict(zip(names, weights))


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
    return read_toml(path, "sweep file")


def sweep_game(raw, where="sweep"):
    """The GameSpec a raw sweep names (UserError naming `where` when it names none or no valid one)."""
    if "game" not in raw:
        raise UserError(f'{where} names no game (game = "..."). Valid: {", ".join(game_names())}')
    spec = raw["game"] if not isinstance(raw["game"], str) else get_game(raw["game"])
    if not hasattr(spec, "params"):
        raise UserError(
            f"{where}: game must be a game name in quotes, one of {', '.join(game_names())} (got {raw['game']!r})"
        )
    return spec


def build_sweep(raw, where="sweep"):
    """Validate a raw sweep dict (from a file, flags, or both) into a Sweep with its configurations.

    Every mistake raises a one-line UserError that names the key and, for names, suggests the closest valid
    ones.  Nothing is written.
    """
    raw = dict(raw)
    for key in raw:
        if key not in FILE_KEYS:
            raise suggest(key, FILE_KEYS, f"key in {where}")
    spec = sweep_game(raw, where)
    files = raw.get("strategy_files", [])
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        raise UserError(f"{where}: strategy_files must be a list of preset file paths (got {files!r})")
    load_files(spec, files)  # preset files the line-ups may name

    players = parse_player_counts(raw.get("players", spec.default_players), f"{where}: players")
    for n in players:
        spec.check_players(n)
    games = check_games(whole(raw.get("games", 10_000), f"{where}: games"), f"{where}: games")
    seed = check_seed(raw.get("seed", 0))
    if "lineup" in raw and "lineups" in raw:
        raise UserError(f"{where}: give lineup (one line-up) or lineups (several), not both")
    if "strategies" in raw and ("lineup" in raw or "lineups" in raw):
        raise UserError(f"{where}: give strategies (fixed seats) or a line-up (rotated), not both")
    fixed = "strategies" in raw
    if fixed:
        lineups = [names(raw["strategies"], f"{where}: strategies")]
    elif "lineups" in raw:
        if not isinstance(raw["lineups"], list) or not raw["lineups"]:
            raise UserError(f"{where}: lineups must be a non-empty list of line-ups (got {raw['lineups']!r})")
        lineups = [names(x, f"{where}: lineups[{i}]") for i, x in enumerate(raw["lineups"])]
    elif "lineup" in raw:
        lineups = [names(raw["lineup"], f"{where}: lineup")]
    else:
        lineups = [tuple(spec.default_lineup)]
    all_rotations = switch(raw.get("all_rotations", False), f"{where}: all_rotations")
    mirror = switch(raw.get("mirror", False), f"{where}: mirror")
    chunk_size = whole(raw.get("chunk_size", min(DEFAULT_CHUNK, games)), f"{where}: chunk_size")
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
            whole(ad["max_games"], f"{where}: [adaptive] max_games"), f"{where}: [adaptive] max_games"
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


def sweep_source(source):
    """(raw sweep dict, name) of a sweep file (source ends in .toml) or of a game name."""
    if str(source).endswith(".toml"):
        return copy.deepcopy(load_sweep_file(source)), Path(source).stem
    return {"game": source}, str(source)


def raw_from_study(
    source,
    study=None,
    grids=(),
    zips=(),
    adaptive_metric=None,
    adaptive_width=None,
    max_games=None,
    confidence=None,
):
    """The raw sweep dict from a sweep file (source ends in .toml) or a game name, with the study's given
    settings (sim.study.Study.given: flags, a --study file) and the sweep's own flags on top.

    They override the file's scalar settings; the study's parameters and --grid/--zip entries are added to (or
    replace) the file's entries of the same name.
    """
    raw, name = sweep_source(source)
    given = study.given if study is not None else frozenset()
    sets = [f"{k}={v}" for k, v in study.params] if "params" in given else []
    if study is not None and study.preset:  # the preset's values first (explicit --set entries win), unless swept
        from ..presets import preset_params

        swept = {g.split("=", 1)[0].strip() for g in list(grids or []) + list(zips or [])}
        sets = [f"{k}={v}" for k, v in preset_params(study.name, study.preset).items() if k not in swept] + sets
    for key in ("players", "games", "seed", "chunk_size"):
        if key in given:
            value = getattr(study, key)
            raw[key] = list(value) if key == "players" else value
    if confidence is not None:
        raw["confidence"] = confidence
    if "lineup" in given:
        raw.pop("lineups", None)
        raw.pop("strategies", None)
        raw["lineup"] = list(study.lineup)
    if "strategies" in given:
        raw.pop("lineups", None)
        raw.pop("lineup", None)
        raw["strategies"] = list(study.strategies)
    for key in ("all_rotations", "mirror"):
        if key in given and getattr(study, key):
            raw[key] = True
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
