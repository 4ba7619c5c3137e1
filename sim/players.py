"""What a player is to the core: a StrategySpec (a named scripted strategy with its knobs) and the generic
uniform-random player.  Games declare theirs as presets (sim.knobs); the search player builds its own
(sim.search).  Apart from sim.game so that the search and the registry need not import each other."""

from dataclasses import dataclass, field


@dataclass
class StrategySpec:
    """A named scripted strategy: an integer id dispatched inside the game's jitted `choose`, plus weights
    (its knobs, named by `knobs`; built from sim.knobs.Preset declarations)."""

    name: str
    sid: int  # 0 is reserved for the generic uniform-random agent
    doc: str
    weights: tuple = ()  # heuristic knobs; presets are strategies with the same sid and other weights
    sees_hidden: bool = False  # True if it reads hidden information (roles, hands) from the state
    knobs: object = None  # sim.knobs.KnobTable naming the weights (None: unnamed, e.g. random)
    changes: dict = field(default_factory=dict)  # the knobs this preset sets away from the table's defaults
    origin: str = ""  # a preset loaded from a file (--strategy-file): its path


RANDOM = StrategySpec("random", 0, "Uniform random over the legal actions (generic: works on every game).")
