"""Pig, the template game: a tiny dice race (roll to add to a turn total; a 1 loses it; hold to bank it).

Copy this folder to `sim/games/<your_game>/` to start a game (docs/ADDING_A_GAME.md walks through it). It is also
the core's test game: registered by tests/conftest.py as `toy_pig`, played by the contract test. A folder whose
name starts with `_` is not listed by `sim games`.

This file declares the game to the core: one GameSpec called GAME.
"""

import sim

# First thing, before anything jitted of this game is imported: numba's cache for this game goes to a folder keyed
# by the hash of this folder's files, the jitted core and strategies/<name>/, so an edit never runs stale code.
sim.use_game_cache(__name__)

from sim.game import GameSpec  # noqa: E402 (after use_game_cache on purpose)

from .actions import CODEC  # noqa: E402
from .outcome import GAME_COLUMNS, ITEM_KINDS, ITEM_NAMES, SEAT_COLUMNS  # noqa: E402
from .params import PARAMS  # noqa: E402
from .text import action_text, event_text  # noqa: E402

GAME = GameSpec(
    name="toy_pig",  # the id users type: `sim run toy_pig`
    title="Pig (test game)",
    engine="sim.games._template.engine",  # the jitted rules (the engine protocol)
    strategy_module="strategies._template",  # the bots: choose(), knobs and presets (strategies/_template/)
    params=PARAMS,
    players=(2, 4),
    default_players=3,
    # The strategies and their presets are declared with their knob table in the strategies package; the registry
    # binds them to the game (GameSpec.strategies), so the rules never import their bots.  Id 0 is the core's
    # uniform-random player.
    default_lineup=("hold20", "hold10", "random"),
    # The outcome columns write_outcome fills, declared once in outcome.py (which writes them by name).
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    labels={"end_reason": ["target", "turn_cap"]},  # integer codes stored as these strings
    # Items are what seats acquire (cards, buildings, characters): item id -> name and kind.
    item_names=ITEM_NAMES,
    item_kinds=ITEM_KINDS,
    actions=CODEC,  # the action codec (actions.py): `sim audit` groups decisions by its kinds
    # How `sim replay` words an event row and an action (text.py).
    event_text=event_text,
    action_text=action_text,
    # What the report reads in the tables: the games column measuring length (default "steps", the decisions);
    # a score split into points by source (points_prefix), roles dealt to seats, a team game's side column, the
    # money column: see sim.game.GameSpec.  Pig's length is its turns and its standing (standings()) its score.
    length_column="turns",
)
