"""Raccoon Tycoon (Forbidden Games, 2018; Glenn Drover): the GameSpec."""
import sim

sim.use_game_cache(__name__)  # before anything jitted of this game is imported

from sim.game import GameSpec, StrategySpec

import strategies.raccoon_tycoon as S

from . import engine as E
from .params import BTYPE_NAMES, BTYPE_UPGRADE_NAMES, RAILROADS, TOWNS, T
from .text import action_text, event_text

ITEM_NAMES = tuple(BTYPE_NAMES) + tuple(f"{u} (upgrade)" for u in BTYPE_UPGRADE_NAMES) + tuple(RAILROADS) + tuple(TOWNS)
ITEM_KINDS = ("building",) * len(BTYPE_NAMES) + ("upgrade",) * len(BTYPE_UPGRADE_NAMES) + ("railroad",) * len(RAILROADS) \
    + ("town",) * len(TOWNS)
assert len(ITEM_NAMES) == E.N_ITEM_IDS

STRATEGIES = [
    StrategySpec("rail_baron", S.S_BARON, "Railroad baron: values railroads by marginal set VP plus pairs, starts "
                 "auctions, bids to deny the VP leader; likes the Rail Baron.", S.W_BARON),
    StrategySpec("town_builder", S.S_TOWNS, "Town builder: produces and hoards the face-up town's commodity (wheat and "
                 "wood favoured), buys every town it can; likes Brick Works and Governor's Mansion.", S.W_TOWNS),
    StrategySpec("market_trader", S.S_TRADER, "Market trader: plays cards that raise what it holds, sells near the top "
                 "of the track; likes trading firms, Export and Freight Companies, the Bank.", S.W_TRADER),
    StrategySpec("building_engine", S.S_ENGINE, "Building engine: buys B and P buildings early and upgrades them, "
                 "then converts the larger production into towns; likes the Mayor's Office.", S.W_ENGINE),
    StrategySpec("balanced", S.S_BALANCED, "Balanced: weighs towns and railroads alike and chases town + railroad "
                 "pairs.", S.W_BALANCED),
    StrategySpec("rail_baron_denier", S.S_BARON, "Rail baron preset that bids up to the leader's full value of a "
                 "railroad to deny it (deny = 1.0).", S.W_BARON[:4] + (1.0,) + S.W_BARON[5:]),
    StrategySpec("market_trader_patient", S.S_TRADER, "Market trader preset that waits for higher peaks "
                 "(peak = 1.0, raise = 1.5).", S.W_TRADER[:6] + (1.0, 1.5) + S.W_TRADER[8:]),
]

GAME = GameSpec(
    name="raccoon_tycoon",
    title="Raccoon Tycoon",
    engine="sim.games.raccoon_tycoon.engine",
    strategy_module="strategies.raccoon_tycoon",
    params=T,
    players=(2, 5),
    default_players=4,
    strategies=STRATEGIES,
    default_lineup=("rail_baron", "town_builder", "market_trader", "balanced"),
    game_columns=E.GAME_COLUMNS,
    seat_columns=E.SEAT_COLUMNS,
    labels={"end_reason": list(E.END_LABELS)},
    item_names=ITEM_NAMES,
    item_kinds=ITEM_KINDS,
    item_columns=("price",),
    event_text=event_text,
    rules_doc="sim/games/raccoon_tycoon/RULES.md",
    assumed_components="",
    rules_version="Raccoon Tycoon rulebook (Forbidden Games 2018); P&P deck transcription DJS commit 6b19209",
)
GAME.action_text = action_text   # used by sim replay (getattr)
