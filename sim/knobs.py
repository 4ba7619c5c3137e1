"""Named strategy knobs and presets as data.

A game's scripted strategies share one float `weights` row (see `choose(..., sid, weights)`).  Each slot of that
row is a knob declared once in a KnobTable, with a name, a default, a range, a type and one line of doc;
`KnobTable.add` returns the slot, which the strategy code uses as a compile-time constant (never a bare number).
A preset is a name, a strategy id and the knobs it changes from the table's defaults (`Preset`), declared in one
list per game (`PRESETS` in strategies/<game>.py) and turned into StrategySpecs by `strategies()`.

Studies change knobs by dotted name: `strategy.<preset>.<knob>` (see `split_overrides`).
"""
from dataclasses import dataclass, field

from .errors import UserError, suggest

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
        label = f"knob {who}{self.name}"
        if self.kind == "bool":
            table = {"1": 1.0, "true": 1.0, "on": 1.0, "yes": 1.0, "0": 0.0, "false": 0.0, "off": 0.0, "no": 0.0}
            key = str(raw).strip().lower() if not isinstance(raw, bool) else str(int(raw))
            if key not in table:
                raise UserError(f"{label} is a switch: use on/off (got '{raw}')")
            return table[key]
        try:
            value = float(raw)
        except (TypeError, ValueError):
            raise UserError(f"{label} needs a number in [{self.lo:g}, {self.hi:g}] (got '{raw}')") from None
        if value != value:
            raise UserError(f"{label} needs a number in [{self.lo:g}, {self.hi:g}] (got '{raw}')")
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
        """Weights row: `base` (a row, default the table's defaults) with `values` ({name: raw}) applied."""
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
    from .game import StrategySpec
    out = []
    for p in presets:
        row = table.vector(p.knobs, who=f"{p.name}.")
        out.append(StrategySpec(p.name, p.sid, p.doc, row, p.sees_hidden, knobs=table, changes=dict(p.knobs)))
    return out


def doc_lines(table):
    """One line per knob: name, default, range, type and doc (for `sim strategies`)."""
    width = max([len(k.name) for k in table.knobs] + [4])
    return [f"{k.name:{width}s} = {k.show(k.default):<6s} {f'[{k.kind} {k.lo:g}..{k.hi:g}]':16s} {k.doc}" for k in table.knobs]


def split_overrides(params):
    """({game parameter: value}, {(preset, knob): value}) from one overrides dict: names starting with
    'strategy.' are strategy knobs (strategy.<preset>.<knob>), everything else a game parameter."""
    game, knobs = {}, {}
    for name, value in (params or {}).items():
        if str(name).startswith(PREFIX):
            parts = name[len(PREFIX):].split(".")
            if len(parts) != 2 or not all(parts):
                raise UserError(f"a strategy knob is written strategy.<preset>.<knob> (got '{name}')")
            knobs[tuple(parts)] = value
        else:
            game[name] = value
    return game, knobs


def knob_of(spec, name):
    """(StrategySpec, Knob) named by 'strategy.<preset>.<knob>' (UserError naming what is valid)."""
    _, knobs = split_overrides({name: None})
    (preset, knob), = knobs
    s = spec.strategy(preset)
    if s.knobs is None or not len(s.knobs):
        raise UserError(f"strategy {preset} of {spec.name} has no knobs")
    return s, s.knobs.knob(knob, f"{preset}.")
