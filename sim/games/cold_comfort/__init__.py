"""Cold Comfort (James Ernest / Crab Fragment Labs, rules draft 1.8, 2024-01-14) on the simulation core.

Results rest on an ASSUMED city deck and tile geometry (see RULES.md and data/cold_comfort.json).
"""

import sim

sim.use_game_cache(__name__)  # before anything jitted of this game is imported

from sim.game import GameSpec

from . import text
from .actions import CODEC
from .outcome import END_REASONS, GAME_COLUMNS, ITEM_KINDS, ITEM_NAMES, SEAT_COLUMNS
from .params import PARAMS


GAME = GameSpec(
    name="cold_comfort",
    title="Cold Comfort (rules draft 1.8)",
    engine="sim.games.cold_comfort.engine",
    strategy_module="strategies.cold_comfort",
    actions=CODEC,  # the action codec (actions.py): `sim audit` groups decisions by its kinds
    params=PARAMS,
    players=(2, 6),
    default_players=4,
    # every preset plays its last turn (and the final round's tile) by the projected final standings (W_ENDGAME)
    default_lineup=("builder", "host"),  # fits every player count (seats cycle builder, host, ...)
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    labels={"end_reason": list(END_REASONS)},
    item_names=ITEM_NAMES,
    item_kinds=ITEM_KINDS,
    outcome_kinds=("neighbourhood",),  # the neighbourhood-won item is the scoring itself
    event_text=text.event_text,
    action_text=text.action_text,
    assumed_components=(
        "Results rest on an ASSUMED city deck: the 24 city tiles (2x3 squares, lot values, public "
        "buildings, printed streets), the grid geometry with its street, block and walking-distance "
        "definitions, and the hotel sizes (two of each 1-6) are not public; label results "
        "'draft 1.8 rules, assumed city deck'."
    ),
    rules_version="draft 1.8 (2024-01-14)",
    # what the report reads in the tables (sim.game.GameSpec)
    length_column="turns",
    points_prefix="vp_",
    money_column="gold",
)
