"""Named strategy knobs and presets as data.

A game's scripted strategies share one float `weights` row (see `choose(..., sid, weights)`).  Each slot of that
row is a knob declared once in a KnobTable, with a name, a default, a range, a type and one line of doc;
`KnobTable.add` returns the slot, which the strategy code uses as a compile-time constant (never a bare number).
A preset is a name, a strategy id and the knobs it changes from the table's defaults (`Preset`), declared in one
list per game (`PRESETS` in strategies/<game>/) and turned into StrategySpecs by `strategies()`.

Studies change knobs by dotted name: `strategy.<preset>.<knob>` (see `split_overrides`).
"""

import re
from dataclasses import dataclass, field

from .errors import UserError, suggest
from .inputs import finite

KNOB_KINDS = ("float", "int", "bool")
PREFIX = "strategy."


@dataclass
class Knob:
    name: str
    default: float
    lo: float
    hi: float
    kind: str = "float"
    doc: str = ""

    def parse(self, raw, who=""):
        """A user's value (string or number) as the float the strategy reads, or a one-line UserError."""
        label = f"knob strategy.{who}.{self.name}" if who else f"knob {self.name}"
        if self.kind == "bool":
            table = {"1": 1.0, "true": 1.0, "on": 1.0, "yes": 1.0, "0": 0.0, "false": 0.0, "off": 0.0, "no": 0.0}
            if isinstance(raw, (bool, int, float)) and raw in (0, 1):
                raw = int(raw)  # numbers 0/1 (a tuner's rounded value) as well as on/off
            key = str(raw).strip().lower()
            if key not in table:
                raise UserError(f"{label} is a switch: use on/off (got '{raw}')")
            return table[key]
        value = finite(raw, label, f"in [{self.lo:g}, {self.hi:g}]")
        if self.kind == "int" and value != int(value):
            raise UserError(f"{label} needs a whole number in [{self.lo:g}, {self.hi:g}] (got '{raw}')")
        if not self.lo <= value <= self.hi:
            raise UserError(f"{label}={raw} is out of range [{self.lo:g}, {self.hi:g}]")
        return value

    def show(self, value):
        if self.kind == "bool":
            return "on" if value else "off"
        if self.kind == "int":
            return str(int(value))
        return repr(float(value))


@dataclass
class KnobTable:
    """The knobs of one game's strategy code, in weights-row order."""

    knobs: list = field(default_factory=list)

    def add(self, name, default, lo, hi, kind="float", doc=""):
        """Declare a knob; returns its slot in the weights row (use it as a module-level constant)."""
        if kind not in KNOB_KINDS or not doc:
            raise ValueError(f"knob {name}: kind must be one of {KNOB_KINDS} and doc non-empty")
        if any(k.name == name for k in self.knobs):
            raise ValueError(f"duplicate knob {name}")
        if not lo <= default <= hi:
            raise ValueError(f"knob {name}: default {default} outside [{lo}, {hi}]")
        self.knobs.append(Knob(name, float(default), float(lo), float(hi), kind, doc))
        return len(self.knobs) - 1

    def __len__(self):
        return len(self.knobs)

    @property
    def names(self):
        return [k.name for k in self.knobs]

    def index(self, name, who=""):
        for i, k in enumerate(self.knobs):
            if k.name == name:
                return i
        raise suggest(name, self.names, f"knob of {who}" if who else "knob")

    def knob(self, name, who=""):
        return self.knobs[self.index(name, who)]

    def vector(self, values=None, base=None, who=""):
        """Weights row: `base` (a row, default the table's defaults) with `values` ({name: raw}) applied;
        `who` (the preset's name) only words the messages."""
        row = [k.default for k in self.knobs] if base is None else [float(x) for x in base]
        for name, raw in (values or {}).items():
            i = self.index(name, who)
            row[i] = self.knobs[i].parse(raw, who)
        return tuple(row)

    def describe(self, row):
        """{knob: value as written} for a weights row."""
        return {k.name: k.show(v) for k, v in zip(self.knobs, row)}

    def changed(self, row, base=None):
        """The knobs whose value in `row` differs from `base` (default: the table's defaults)."""
        ref = [k.default for k in self.knobs] if base is None else base
        return {k.name: k.show(v) for k, v, b in zip(self.knobs, row, ref) if v != b}


@dataclass
class Preset:
    """A named strategy: its code (sid) and the knobs it changes from the table's defaults."""

    name: str
    sid: int
    doc: str
    knobs: dict = field(default_factory=dict)
    sees_hidden: bool = False


def strategies(table, presets):
    """StrategySpecs of a game's presets (validated: unknown knobs and out-of-range values fail at import)."""
    from .players import StrategySpec

    out = []
    for p in presets:
        row = table.vector(p.knobs, who=p.name)
        out.append(StrategySpec(p.name, p.sid, p.doc, row, p.sees_hidden, knobs=table, changes=dict(p.knobs)))
    return out


def doc_lines(table):
    """One line per knob: name, default, range, type and doc (for `sim strategies`)."""
    width = max([len(k.name) for k in table.knobs] + [4])
    return [
        f"{k.name:{width}s} = {k.show(k.default):<6s} {f'[{k.kind} {k.lo:g}..{k.hi:g}]':16s} {k.doc}"
        for k in table.knobs
    ]


def split_overrides(params):
    """({game parameter: value}, {(preset, knob): value}) from one overrides dict: names starting with
    'strategy.' are strategy knobs (strategy.<preset>.<knob>), everything else a game parameter."""
    game, knobs = {}, {}
    for name, value in (params or {}).items():
        if str(name).startswith(PREFIX):
            parts = name[len(PREFIX) :].split(".")
            if len(parts) != 2 or not all(parts):
                raise UserError(f"a strategy knob is written strategy.<preset>.<knob> (got '{name}')")
            knobs[tuple(parts)] = value
        else:
            game[name] = value
    return game, knobs


def knob_of(spec, name):
    """(StrategySpec, Knob) named by 'strategy.<preset>.<knob>' (UserError naming what is valid)."""
    _, knobs = split_overrides({name: None})
    ((preset, knob),) = knobs
    s = spec.strategy(preset)
    if s.knobs is None or not len(s.knobs):
        raise UserError(f"strategy {preset} of {spec.name} has no knobs")
    return s, s.knobs.knob(knob, preset)


def as_param(spec, name):
    """A knob named strategy.<preset>.<knob> as a parameter-like object (name, kind, lo, hi, parse, show), so
    sweeps and the solver treat knobs and game parameters alike; any other name: the game's parameter."""
    if not str(name).startswith(PREFIX):
        return spec.params.params[spec.params.index(name)]
    _, k = knob_of(spec, name)
    return Knob(name, k.default, k.lo, k.hi, k.kind, k.doc)


def roster(game, slots, knobs=None):
    """Per slot of a run that is not a built-in preset as declared: (name, sid, weights).  knobs:
    {(preset, knob): raw value}; each preset named must be one of the slots (UserError otherwise)."""
    knobs = dict(knobs or {})
    for preset, knob in knobs:
        s = game.strategy(preset)
        if preset not in slots:
            raise UserError(f"strategy.{preset}.{knob}: {preset} does not play in this line-up ({', '.join(slots)})")
        if s.knobs is None or not len(s.knobs):
            raise UserError(f"strategy.{preset}.{knob}: {preset} has no knobs")
    out = []
    for name in slots:
        s = game.strategy(name)
        changes = {k: v for (p, k), v in knobs.items() if p == name}
        if changes or s.origin:
            out.append((name, int(s.sid), tuple(s.knobs.vector(changes, base=s.weights, who=name))))
    return tuple(out)


def strategy_rows(game, slots, custom=()):
    """(sids, weights matrix) of a run's slots: custom entries (name, sid, weights) first, else the game's."""
    import numpy as np

    table = {name: (sid, w) for name, sid, w in custom}
    rows = [table.get(n) or (game.strategy(n).sid, tuple(game.strategy(n).weights)) for n in slots]
    width = max([len(w) for _, w in rows] + [1])
    weights = np.zeros((len(rows), width))
    for i, (_, w) in enumerate(rows):
        weights[i, : len(w)] = w
    return np.array([sid for sid, _ in rows], dtype=np.int64), weights


def describe_strategies(game, design):
    """What a manifest records per strategy of a run: sid, weights, named knobs (all, and those changed from
    the table's defaults), doc, hidden information, and the preset file it came from."""
    sids, weights = strategy_rows(game, design.slots, design.custom)
    out = {}
    for i, name in enumerate(design.slots):
        s = game.strategy(name)
        row = tuple(weights[i, : len(s.weights)])
        entry = {"sid": int(sids[i]), "weights": [float(x) for x in row], "doc": s.doc, "sees_hidden": s.sees_hidden}
        if s.knobs is not None and len(s.knobs):
            entry["knobs"] = s.knobs.describe(row)
            entry["knobs_changed"] = s.knobs.changed(row)
        if s.origin:
            entry["file"] = s.origin
        out[name] = entry
    return out


PRESET_FILE_KEYS = ("game", "name", "base", "doc", "knobs", "command", "tuning")


def read_preset_file(path):
    """A preset file's raw dict (UserError for a missing file or bad TOML)."""
    from pathlib import Path

    import tomllib

    path = Path(path)
    if not path.is_file():
        raise UserError(f"preset file {path} not found")
    try:
        return tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"preset file {path} is not valid TOML: {e}") from None


def load_preset_file(game, path):
    """Register the preset of a TOML file (base preset + knob values) with the game, so line-ups can name it.

    Keys: name (default: the file's stem), base (a preset of the game), knobs (a table knob = value), doc,
    game (checked when given), command and tuning (provenance, kept as written).  Returns the StrategySpec.
    """
    from pathlib import Path

    from .players import StrategySpec

    raw = read_preset_file(path)
    where = f"preset file {path}"
    for key in raw:
        if key not in PRESET_FILE_KEYS:
            raise suggest(key, PRESET_FILE_KEYS, f"key in {where}")
    if raw.get("game", game.name) != game.name:
        raise UserError(f"{where} is a preset of {raw['game']}, not of {game.name}")
    name = raw.get("name", Path(path).stem)
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_-]*", name):
        raise UserError(
            f"{where}: name must be one word of letters, digits, _ and - (got {name!r}), e.g. name = "
            f'"{re.sub(r"[^A-Za-z0-9_-]+", "_", Path(path).stem).strip("_-") or "my_preset"}"'
        )
    if "base" not in raw:
        raise UserError(
            f'{where} names no base preset (base = "..."). Valid: {", ".join(s.name for s in game.strategies)}'
        )
    try:
        base = game.strategy(str(raw["base"]))
    except UserError as e:
        raise UserError(f"{where}: {e}") from None
    if base.knobs is None:
        raise UserError(f"{where}: base {base.name} has no knobs")
    knobs = raw.get("knobs", {})
    if not isinstance(knobs, dict):
        raise UserError(f"{where}: knobs must be a table of knob = value (got {knobs!r})")
    try:
        row = base.knobs.vector(knobs, base=base.weights, who=name)
    except UserError as e:
        raise UserError(f"{where}: {e}") from None
    old = next((s for s in game.strategies if s.name == name), None)
    if old is not None and not old.origin:
        raise UserError(
            f'{where}: {name} is a built-in preset of {game.name}; give the file another name (name = "...")'
        )
    spec = StrategySpec(
        name,
        base.sid,
        str(raw.get("doc", f"{base.name} with knobs from {path}")),
        row,
        base.sees_hidden,
        knobs=base.knobs,
        changes=base.knobs.changed(row),
        origin=str(path),
    )
    if old is not None:
        game.strategies.remove(old)
    game.strategies.append(spec)
    return spec


def write_preset_file(path, game, name, base, values, doc="", command="", tuning=None):
    """A preset file: base preset + every knob value (so it still means the same if defaults change)."""
    from pathlib import Path

    lines = [f"# {name}: a preset of {game.name} ({base}); load with --strategy-file {Path(path).name}"]
    if command:
        lines.append(f"# made by: {command}")
    lines += [f"game = {_toml(game.name)}", f"name = {_toml(name)}", f"base = {_toml(base)}"]
    if doc:
        lines.append(f"doc = {_toml(doc)}")
    if command:
        lines.append(f"command = {_toml(command)}")
    if tuning:
        lines.append("tuning = {" + ", ".join(f"{k} = {_toml(v)}" for k, v in tuning.items()) + "}")
    lines.append("")
    lines.append("[knobs]")
    lines += [f"{k} = {_toml(v)}" for k, v in values.items()]
    text = "\n".join(lines) + "\n"
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)  # atomic: a reader never sees half a file
    return path


def _toml(v):
    import json

    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    return json.dumps(str(v))


def load_files(game, paths):
    """Register every preset file of a --strategy-file list (None or empty: nothing)."""
    game = _game(game)
    return [load_preset_file(game, p) for p in (paths or [])]


def _game(game):
    from .game import get_game

    return get_game(game) if isinstance(game, str) else game


def strategies_folder(game):
    """The folder of a game's strategies package (strategies/<game>/): its bots, presets and BOTS.md."""
    import importlib.util
    from pathlib import Path

    return Path(importlib.util.find_spec(game.strategy_module).origin).resolve().parent


def tuned_folder(game):
    """Where a game ships its tuned presets: strategies/<game>/tuned/*.toml."""
    return strategies_folder(game) / "tuned"


def load_shipped(game):
    """Register the game's shipped tuned presets; {base preset: StrategySpec}.  A preset of the same name already
    loaded from another file (--strategy-file) stays: the file the user named wins over the shipped one."""
    import tomllib
    from pathlib import Path

    out = {}
    for path in sorted(tuned_folder(game).glob("*.toml")):
        raw = tomllib.loads(path.read_text())
        name = raw.get("name", path.stem)
        given = next((s for s in game.strategies if s.name == name and s.origin), None)
        if given is not None and Path(given.origin).resolve() != path.resolve():
            out[raw.get("base")] = given
        else:
            out[raw.get("base")] = load_preset_file(game, path)
    return out


def expand_lineup(game, names):
    """A line-up as given, with the word `tuned` standing for the game's default line-up played by its shipped
    tuned presets (each preset that has one; the others as they are).  Names of shipped tuned presets
    (<preset>_tuned) can also be used directly.  Loads the shipped files only when asked for."""
    # names that are not strings (a bad sweep file) pass through: build_sweep refuses them with one line
    if not names or not any(isinstance(n, str) and (n == "tuned" or n.endswith("_tuned")) for n in names):
        return names
    game = _game(game)
    shipped = load_shipped(game)
    if "tuned" in names and not shipped:
        raise UserError(
            f"{game.name} ships no tuned presets (looked in {tuned_folder(game)}); make one with "
            f"sim tune and load it with --strategy-file"
        )
    out = []
    for n in names:
        if n == "tuned":
            out += [shipped[b].name if b in shipped else b for b in game.default_lineup]
        else:
            out.append(n)
    return out


def expand_sweep_lineups(raw, files=None):
    """A raw sweep dict with --strategy-file presets loaded and `tuned` expanded in its line-ups (a game given by
    name only; a GameSpec in `game` is left to build_sweep)."""
    if not isinstance(raw.get("game"), str):
        return raw
    raw = dict(raw)
    load_files(raw["game"], files)
    for key in ("lineup", "strategies"):
        if isinstance(raw.get(key), str):
            raw[key] = [t.strip() for t in raw[key].split(",") if t.strip()]
        if isinstance(raw.get(key), list):
            raw[key] = expand_lineup(raw["game"], raw[key])
    if isinstance(raw.get("lineups"), list):
        raw["lineups"] = [expand_lineup(raw["game"], x) if isinstance(x, list) else x for x in raw["lineups"]]
    return raw
