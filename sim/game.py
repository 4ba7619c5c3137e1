"""What a game is to the core: a GameSpec in `sim/games/<name>/__init__.py`, found by folder name.

Adding a game means adding a folder with a GameSpec called GAME; nothing else in the core changes.
"""

import importlib
import pkgutil
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .errors import UserError, suggest
from .params import ParamTable
from .players import RANDOM
from .search import search_strategy


@dataclass
class GameSpec:
    """Everything the core needs to run, store, analyse and replay one game.

    engine module (jitted) must define: STATE_DTYPE (a numpy structured dtype with a field `rng`, uint64[2]),
    MAX_PLAYERS, MAX_ACTIONS, MAX_ITEMS, MAX_STEPS, setup(s, p, n_players), current_player(s),
    legal_actions(s, p, out) -> n, apply_action(s, p, a), is_over(s) and
    write_outcome(s, p, game_int, seat_int, seat_f, items) -> n_items.
    strategy module (jitted) must define choose(s, p, seat, legal, n, sid, weights) -> index into legal.
    current_player, legal_actions and choose run once per decision, compiled without reference counting (see
    docs/ARCHITECTURE.md), so they must not allocate arrays unless decisions_allocate is set.
    Optional: standings(s, p, out) -> round (jitted): out[i] = seat i's standing now, the round number (0 at the
    start, +1 per completed round); `sim run --standings` records it (sim.kernel_traced.play_traced).
    """

    name: str
    title: str
    engine: str  # dotted module path of the jitted rules
    strategy_module: str  # dotted module path of the game's strategies package (strategies.<name>): choose(), K,
    #                       PRESETS and STRATEGIES; bound by `strategies` below, never imported by the engine
    params: ParamTable
    players: tuple  # (min, max)
    default_players: int
    default_lineup: tuple
    game_columns: tuple  # names of game_int columns written by write_outcome
    seat_columns: tuple  # names of seat_int columns (must include 'rank', 'win' and 'order')
    labels: dict = field(default_factory=dict)  # column -> list of labels for categorical int columns
    item_names: tuple = ()  # item ids -> names, for the items table
    item_kinds: tuple = ()  # per item: its kind ('character', 'special_role', ...)
    item_columns: tuple = ()  # extra int columns of the items table (e.g. 'price'), items[k, 3:]
    event_text: object = None  # fn(event_row, names) -> str, for sim replay
    action_text: object = None  # fn(action) -> str, for sim replay
    assumed_components: str = ""  # non-empty: results rest on assumed components (said in reports)
    turn_order_note: str = ""  # non-empty: what turn-order position 1 stands for when the rules fix it
    rules_version: str = ""
    decisions_allocate: bool = False  # legal_actions or choose allocate arrays: decide keeps reference counting
    search_rollout: str = ""  # rollout policy of the search player (default: the first preset of the line-up)
    search_rollouts: int = 0  # rollouts per action of plain `search` (0: sim.search.DEFAULT_ROLLOUTS); a cheap game
    #                           whose decisions are close calls (BANG) affords more within the 1 s a game
    search_margin: bool = True  # the search breaks ties in win share by score margin (own score minus the best
    #                           other seat's); False where the score is not what a seat plays for (BANG: life points,
    #                           and a deputy does not gain from the sheriff's wounds)
    actions: object = None  # sim.toolkit.ActionCodec of the engine's actions (kinds for `sim audit`, text)
    # What the report reads in the results tables, declared here rather than guessed from column names:
    length_column: str = "steps"  # games column measuring a game's length in the game's own unit (turns, rounds);
    #                               "steps" (decisions, written for every game) when the game has none
    points_prefix: str = ""  # seat columns <prefix><source> split the score into points by source (e.g.
    #                               "vp_"); a game declaring them scores in points: the report shows score margins,
    #                               ties on top score and points by source
    role_columns: tuple = ()  # seat label columns dealt at setup (role, character): the roles section
    dealt_kinds: tuple = ()  # item kinds dealt at setup rather than acquired in play (the report's wording)
    outcome_kinds: tuple = ()  # item kinds that record a result (a neighbourhood won), not a choice: measured,
    #                            never headlined (holding one restates winning)
    side_column: str = ""  # games column naming the winning side of a team game: the sides section
    seat_side_column: str = ""  # seat column naming a seat's side there (a role column judged as a side)
    money_column: str = ""  # seat column of the money a seat holds at the end: bot health's money left
    standing_unit: str = "points"  # what the engine's standings() measures, in words (the report's arc section)

    def engine_module(self):
        return importlib.import_module(self.engine)

    @cached_property
    def strategies(self):
        """The game's presets (StrategySpecs), from its strategies package.  The rules never import their bots: a
        game is bound to its strategies here, on first use, so the two packages have no import cycle.  The list is
        the package's own, so presets registered later (tuned or file presets, sim.knobs) are seen everywhere."""
        return importlib.import_module(self.strategy_module).STRATEGIES

    def code_version(self):
        """Hash of every source the game's compiled play depends on (its numba cache key): results written by
        another code version are not resumed into the same folder."""
        from . import game_cache_root

        return game_cache_root(self.engine.rsplit(".", 1)[0]).name.rsplit("-", 1)[-1]

    def strategy(self, name):
        for s in [RANDOM] + list(self.strategies):
            if s.name == name:
                return s
        # the rollout search player exists for every game (sim/search.py)
        found = search_strategy(self, name)
        if found is not None:
            return found
        raise suggest(name, self.strategy_names(), f"strategy for {self.name}")

    def strategy_names(self):
        return [RANDOM.name] + [s.name for s in self.strategies]

    def weights_matrix(self, names):
        """Weights of the given strategies as a 2-D float array (row per strategy, zero-padded)."""
        specs = [self.strategy(n) for n in names]
        width = max([len(s.weights) for s in specs] + [1])
        out = np.zeros((len(specs), width))
        for i, s in enumerate(specs):
            out[i, : len(s.weights)] = s.weights
        return out

    def check_players(self, n):
        lo, hi = self.players
        if not lo <= n <= hi:
            raise UserError(f"{self.name} is played by {lo}-{hi} players (got {n})")


def game_names():
    import sim.games

    return sorted(m.name for m in pkgutil.iter_modules(sim.games.__path__) if m.ispkg and not m.name.startswith("_"))


_EXTRA = {}


def register(spec):
    """Register a game that lives outside sim/games (used by tests for a toy game)."""
    _EXTRA[spec.name] = spec


def get_game(name):
    if name in _EXTRA:
        return _EXTRA[name]
    names = game_names()
    if name not in names:
        raise suggest(name, names + list(_EXTRA), "game")
    return importlib.import_module(f"sim.games.{name}").GAME
