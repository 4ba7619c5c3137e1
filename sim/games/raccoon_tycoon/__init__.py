"""Raccoon Tycoon (Forbidden Games, 2018; Glenn Drover): the GameSpec."""

import sim

sim.use_game_cache(__name__)  # before anything jitted of this game is imported

from sim.game import GameSpec

from . import engine as E
from .params import BTYPE_NAMES, BTYPE_UPGRADE_NAMES, RAILROADS, TOWNS, T
from .text import action_text, event_text

ITEM_NAMES = tuple(BTYPE_NAMES) + tuple(f"{u} (upgrade)" for u in BTYPE_UPGRADE_NAMES) + tuple(RAILROADS) + tuple(TOWNS)
ITEM_KINDS = (
    ("building",) * len(BTYPE_NAMES)
    + ("upgrade",) * len(BTYPE_UPGRADE_NAMES)
    + ("railroad",) * len(RAILROADS)
    + ("town",) * len(TOWNS)
)
assert len(ITEM_NAMES) == E.N_ITEM_IDS


GAME = GameSpec(
    name="raccoon_tycoon",
    title="Raccoon Tycoon",
    engine="sim.games.raccoon_tycoon.engine",
    strategy_module="strategies.raccoon_tycoon",
    actions=E.CODEC,
    params=T,
    players=(2, 5),
    default_players=4,
    default_lineup=("rail_baron", "town_builder", "market_trader", "balanced"),
    # the search's rollout policy and the audit's default: the strongest preset (balanced wins about 38% of the
    # default line-up at 4 players, rail_baron about 10%; the 4-player field puts 0.50 on balanced)
    search_rollout="balanced",
    game_columns=E.GAME_COLUMNS,
    seat_columns=E.SEAT_COLUMNS,
    labels={"end_reason": list(E.END_LABELS)},
    item_names=ITEM_NAMES,
    item_kinds=ITEM_KINDS,
    item_columns=("price",),
    event_text=event_text,
    assumed_components="",
    rules_version="Raccoon Tycoon rulebook (Forbidden Games 2018); P&P deck transcription DJS commit 6b19209",
    # what the report reads in the tables (sim.game.GameSpec)
    length_column="turns",
    points_prefix="vp_",
    money_column="money",
)
GAME.action_text = action_text  # used by sim replay (getattr)
