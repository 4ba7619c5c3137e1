"""The report's data model: findings, sections, the report, the item sample, and the constants they share."""

from dataclasses import dataclass, field

import pandas as pd


BT_BOOTSTRAP = 100  # bootstrap refits for the Bradley-Terry rating intervals


ITEMS_SHOWN = 10  # top and bottom ranked items per kind in charts and tables


EFFECT_ITEMS = 3  # items flagged by association whose causal effect the report measures (sim effect)


EFFECT_GAMES = 4000  # paired games per measured item (cached in <run>/effects/)


ROBUST_GAMES = 3000  # games per player count of the second population (cached in <run>/robust/)
ROBUST_WAIT_S = 1800  # a second report of the run waits this long for the first one's robustness run


ROBUST_LABELS = {"holds": "holds with other players", "depends": "depends on the bots"}


ALPHA = 0.05


VERDICTS = {  # key: (label, colour (Okabe-Ito, colour-blind safe), symbol so colour is never the only cue)
    "red": ("Strong", "#D55E00", "\u25b2"),
    "amber": ("Modest", "#E69F00", "\u25c6"),
    "green": ("Balanced", "#009E73", "\u2714"),
    "negligible": ("Negligible", "#3A8DBF", "\u2248"),
    "grey": ("Unclear", "#8C8C8C", "?"),
    "info": ("Fact", "#0072B2", "i"),
}


SEVERITY = {"red": 0, "amber": 1, "grey": 2, "negligible": 3, "green": 4, "info": 5}


@dataclass
class Finding:
    verdict: str
    text: str  # the plain-language sentence
    evidence: str  # the numbers behind it and the rule that gave the verdict
    kind: str  # seat, strategy, item, role, length, capped, sweep, balance
    section: str  # anchor of the section holding the evidence
    data: dict = field(default_factory=dict)  # machine-readable numbers (written as data-* attributes)
    next: str = ""  # the command a designer would run next (plain text; the first screen shows it)


@dataclass
class Section:
    anchor: str
    title: str
    body: list = field(default_factory=list)  # HTML fragments


@dataclass
class Report:
    title: str
    path: str
    manifest: dict
    is_sweep: bool
    findings: list = field(default_factory=list)
    sections: list = field(default_factory=list)
    notices: list = field(default_factory=list)  # HTML fragments shown above the findings
    tables: dict = field(default_factory=dict)  # the analysis tables behind the findings (for tests)
    family_alpha: float = ALPHA  # each family's error rate: ALPHA / the number of families
    spec: object = None  # the game's GameSpec (None: a game this code does not know)


ITEM_COLUMNS = ("config", "game", "seat", "players", "item", "kind", "turn", "price")  # what item strength reads


ITEM_ROWS = 250_000  # seat rows item strength is computed on (a sample of whole games above; items.py)


@dataclass
class ItemSample:
    """The items table as the report uses it, never read whole: `seats` and `items` are the seat rows and item
    rows of one sample of whole games (sim.analysis.items._sample_games, the sample item strength has always
    been computed on: every game when there are at most ITEM_ROWS seat rows); `rows`, `kinds` and `seen` (the
    items acquired at least once) are over the whole table, read column by column and batch by batch."""

    seats: pd.DataFrame
    items: pd.DataFrame
    rows: int
    kinds: set
    seen: set


@dataclass
class Study:
    """What a section reads: the report being built, the run, and its tables (of a sweep's reference
    configurations; `all_seats` / `all_games`: every configuration). Built once by sim.report.collect."""

    rep: Report
    run: object
    path: str
    spec: object
    seats: pd.DataFrame
    games: pd.DataFrame
    all_seats: pd.DataFrame
    all_games: pd.DataFrame
    isample: object = None  # ItemSample or None
    targets: object = None
    effects: bool = True
    robust: bool = True
    solves: list = field(default_factory=list)
    quiet: set = field(default_factory=set)
    configs: pd.DataFrame = None  # a sweep's configurations (sim/report/data.py _config_frame)

    @property
    def items(self):
        """The item rows of a sample of whole games, or None when the run has none."""
        return (
            self.isample.items if self.isample is not None and self.isample.rows and len(self.isample.items) else None
        )
