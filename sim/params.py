"""Named, typed, provenance-tagged game parameters, resolved into one float64 vector for the jitted engine.

Every number a designer might change (a life value, a cost, a rule switch, an ambiguity's reading) is a
parameter with a dotted name.  Games declare them once (`ParamTable.add` returns the slot index, which the
engine uses as a compile-time constant); runs and sweeps override them by name without recompiling.
"""

from dataclasses import dataclass, field

import numpy as np

from .errors import UserError, suggest
from .inputs import finite

PROVENANCE = {"F": "fact (rulebook or cited public source)", "D": "derived from facts", "A": "ASSUMED"}
KINDS = ("int", "float", "bool", "choice")


@dataclass
class Param:
    name: str
    default: float
    kind: str = "int"
    lo: float = None
    hi: float = None
    choices: tuple = ()
    prov: str = "F"
    src: str = ""
    doc: str = ""
    alt_prov: dict = field(default_factory=dict)  # a reading's alternatives that are not a rulebook-supported
    #   reading: {value as written: ("literal" | "contradicts", the rulebook's words)} (sim readings)

    def parse(self, raw):
        """Turn a user's value (string or number) into the engine's float, or raise a one-line UserError."""
        if self.kind == "bool":
            text = str(raw).strip().lower()
            table = {"1": 1, "true": 1, "on": 1, "yes": 1, "0": 0, "false": 0, "off": 0, "no": 0}
            if isinstance(raw, bool):
                return float(raw)
            if text not in table:
                raise UserError(f"parameter {self.name} is a switch: use on/off (got '{raw}')")
            return float(table[text])
        if self.kind == "choice":
            text = str(raw).strip()
            if text in self.choices:
                return float(self.choices.index(text))
            raise UserError(f"parameter {self.name}: '{raw}' is not a valid choice. Valid: {', '.join(self.choices)}")
        value = finite(raw, f"parameter {self.name}")  # (a TOML true is not the number 1)
        if self.kind == "int" and value != int(value):
            raise UserError(f"parameter {self.name} needs a whole number (got '{raw}')")
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise UserError(f"parameter {self.name}={raw} is out of range [{self.lo}, {self.hi}]")
        return value

    def show(self, value):
        """The value as a user would write it."""
        if self.kind == "bool":
            return "on" if value else "off"
        if self.kind == "choice":
            return self.choices[int(value)]
        return str(int(value)) if self.kind == "int" else repr(float(value))


@dataclass
class ParamTable:
    params: list = field(default_factory=list)

    def add(self, name, default, kind="int", lo=None, hi=None, choices=(), prov="F", src="", doc="", alt_prov=None):
        """Declare a parameter; returns its slot in the vector (use it as a module-level constant). alt_prov: a
        reading's alternatives that are a literal reading or contradict the rulebook (Param.alt_prov)."""
        if kind not in KINDS or prov not in PROVENANCE:
            raise ValueError(f"bad kind/provenance for {name}")
        if any(p.name == name for p in self.params):
            raise ValueError(f"duplicate parameter {name}")
        p = Param(name, 0.0, kind, lo, hi, tuple(choices), prov, src, doc, dict(alt_prov or {}))
        p.default = p.parse(default)
        self.params.append(p)
        return len(self.params) - 1

    def __len__(self):
        return len(self.params)

    @property
    def names(self):
        return [p.name for p in self.params]

    def index(self, name):
        for i, p in enumerate(self.params):
            if p.name == name:
                return i
        raise suggest(name, self.names, "parameter")

    def defaults(self):
        return np.array([p.default for p in self.params], dtype=np.float64)

    def resolve(self, overrides=None):
        """Default vector with `overrides` ({name: value}) applied; unknown names and bad values raise UserError."""
        vec = self.defaults()
        for name, raw in (overrides or {}).items():
            i = self.index(name)
            vec[i] = self.params[i].parse(raw)
        return vec

    def describe(self, vec):
        """{name: value as written} for every parameter: what a manifest records."""
        return {p.name: p.show(v) for p, v in zip(self.params, vec)}

    def changed(self, vec):
        """Only the parameters whose value differs from the printed game's default."""
        return {p.name: p.show(v) for p, v in zip(self.params, vec) if v != p.default}

    def assumed(self):
        """Names of ASSUMED parameters (provenance A): every result rests on them."""
        return [p.name for p in self.params if p.prov == "A"]
