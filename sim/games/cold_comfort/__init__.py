"""Cold Comfort (James Ernest / Crab Fragment Labs, rules draft 1.8, 2024-01-14) on the simulation core.

Results rest on an ASSUMED city deck and tile geometry (see RULES.md and data/cold_comfort.json).
"""
import sim

sim.use_game_cache(__name__)  # before anything jitted of this game is imported

from sim.game import GameSpec, StrategySpec

from . import text
from .engine import GAME_COLUMNS, SEAT_COLUMNS
from .params import PARAMS

# weights: see strategies/cold_comfort.py (W_* slots).  endgame 1 in every preset and horizon 2 in the builder's were
# measured head to head (RULES.md section 8); horizon made the host, arsonist and saver weaker and is 0 there.
#            gold  guest block hood  mine  fire  build end   near  reserve size fireself endgame horizon
BUILDER = (1.0, 1.5, 2.0, 1.0, -2.0, 0.0, 2.0, 0.0, 1.0, 2.0, 0.3, 1.5, 1.0, 2.0)
HOST = (1.0, 3.0, 1.0, 0.5, -1.0, 0.0, 2.0, 0.0, 3.0, 0.0, 0.0, 1.5, 1.0, 0.0)
MINER = (1.0, 2.0, 0.5, 0.3, 0.5, 0.0, 2.0, 0.0, 1.0, 4.0, 0.0, 1.5, 1.0, 0.0)
ARSONIST = (1.0, 1.5, 1.0, 0.5, -1.0, 4.0, 2.0, 0.0, 1.0, 0.0, 0.0, 2.0, 1.0, 0.0)  # fireself: build cost per value
SAVER = (1.2, 2.0, 0.5, 0.3, -1.5, 0.0, 2.5, 0.5, 1.0, 8.0, 0.0, 1.5, 1.0, 0.0)

GAME = GameSpec(
    name="cold_comfort",
    title="Cold Comfort (rules draft 1.8)",
    engine="sim.games.cold_comfort.engine",
    strategy_module="strategies.cold_comfort",
    params=PARAMS,
    players=(2, 6),
    default_players=4,
    strategies=[
        StrategySpec("builder", 1, "Builds hotels next to its own to grow blocks in valuable neighbourhoods; places "
                     "grown tiles where its blocks lead; weighs a new hotel by the turns left to pay it back.",
                     BUILDER),
        StrategySpec("host", 2, "Maximises guests and income: hosts the best campers, builds and resizes hotels to "
                     "match the campers on the map, places grown tiles near its empty hotels.", HOST),
        StrategySpec("miner", 3, "Mines whenever the best hosting move is worth less than a mined die; keeps a "
                     "gold reserve.", MINER),
        StrategySpec("arsonist", 4, "Burns its own empty hotels (the smaller the better) next to rivals' hotels, "
                     "empty or occupied, and passes the fire into the leader's chain (only through its own empty "
                     "hotels, as the rules allow). The only bot that sets fires before its last turn.", ARSONIST),
        StrategySpec("saver", 5, "Converts gold to points: spends only above a reserve, ends turns early, mines "
                     "when idle.", SAVER),
        StrategySpec("host_blocky", 2, "Preset of host with the builder's block weight (a knob example).",
                     (1.0, 3.0, 3.0, 1.0, -1.0, 0.0, 2.0, 0.0, 3.0, 0.0, 0.5, 1.5, 1.0, 0.0)),
    ],
    # every preset plays its last turn (and the final round's tile) by the projected final standings (W_ENDGAME)
    default_lineup=("builder", "host"),      # fits every player count (seats cycle builder, host, ...)
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    labels={"end_reason": ["nine_rounds", "turn_cap", "step_cap"]},
    item_names=("hotel_size_1", "hotel_size_2", "hotel_size_3", "hotel_size_4", "hotel_size_5", "hotel_size_6",
                "neighbourhood_won"),
    item_kinds=("hotel", "hotel", "hotel", "hotel", "hotel", "hotel", "neighbourhood"),
    event_text=text.event_text,
    action_text=text.action_text,
    rules_doc="sim/games/cold_comfort/RULES.md",
    assumed_components=("Results rest on an ASSUMED city deck: the 24 city tiles (2x3 squares, lot values, public "
                        "buildings, printed streets), the grid geometry with its street, block and walking-distance "
                        "definitions, and the hotel sizes (two of each 1-6) are not public; label results "
                        "'draft 1.8 rules, assumed city deck'."),
    rules_version="draft 1.8 (2024-01-14)",
    decisions_allocate=True,    # the strategies' look-ahead and the walking-distance option allocate arrays
)
