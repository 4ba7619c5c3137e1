"""Parameters of Cold Comfort (rules draft 1.8), built from data/cold_comfort.json.

Every rule number and every reading of an ambiguity (C1..C28 of the engineering note) is a named parameter;
provenance F = rulebook, D = derived, A = assumed.  The index constants are compile-time slots for engine.py.
The city deck itself (tile layouts) is component data, loaded here into constant arrays (all ASSUMED).
"""

import json
from pathlib import Path

import numpy as np

from sim.params import ParamTable

DATA_FILE = Path(__file__).resolve().parent / "data" / "cold_comfort.json"
DATA = json.loads(DATA_FILE.read_text())
R = DATA["rules"]

PARAMS = ParamTable()
_a = PARAMS.add

# ---- dice and setup ----
DICE_BASE = _a(
    "dice.base",
    R["dice_base"]["v"],
    lo=0,
    hi=30,
    prov="D",
    src="rulebook dice table (3N+6)",
    doc="dice in the game = dice.base + dice.per_player * players",
)
DICE_PER_PLAYER = _a(
    "dice.per_player",
    R["dice_per_player"]["v"],
    lo=0,
    hi=6,
    prov="D",
    src="rulebook dice table",
    doc="extra dice per player (the total is capped at 60)",
)
GROW_BASE = _a(
    "grow.trigger_base",
    R["grow_trigger_base"]["v"],
    lo=0,
    hi=30,
    prov="F",
    src="rulebook Step 3",
    doc="a scoring round starts when the pool holds players + this many dice at the end of a turn",
)
GROW_RULE = _a(
    "grow.trigger_rule",
    "at_least",
    kind="choice",
    choices=("at_least", "exactly"),
    prov="A",
    src="note C7",
    doc="'sufficient dice': at least the trigger (default) or exactly the trigger",
)
GOLD_START = _a(
    "gold.start",
    R["start_gold"]["v"],
    lo=0,
    hi=100,
    prov="F",
    src="rulebook Setup",
    doc="starting gold of the first player",
)
GOLD_STEP = _a(
    "gold.start_step",
    R["start_gold_step"]["v"],
    lo=-10,
    hi=20,
    prov="F",
    src="rulebook Setup",
    doc="extra starting gold per player who starts before you (first-player compensation)",
)
SETUP_DICE = _a(
    "setup.dice_per_tile",
    R["setup_dice_per_tile"]["v"],
    lo=0,
    hi=12,
    prov="F",
    src="rulebook Heart of the City",
    doc="dice rolled for each setup tile",
)
SETUP_MIN_POOL = _a(
    "setup.extra_tile_min_pool",
    R["setup_extra_tile_min_pool"]["v"],
    lo=0,
    hi=40,
    prov="F",
    src="rulebook Tiles 3 and 4",
    doc="a 3rd/4th setup tile is added only if the pool holds this many",
)
SETUP_MAX = _a(
    "setup.max_tiles",
    R["setup_max_tiles"]["v"],
    lo=2,
    hi=4,
    prov="F",
    src="rulebook Tiles 3 and 4",
    doc="setup tiles at most (2 = never add the north/south tiles)",
)
HOTELS = _a(
    "hotels.size_1",
    R["hotel_sizes_per_character"]["v"]["1"],
    lo=0,
    hi=6,
    prov="A",
    src="note 3.3 / C18",
    doc="hotel tiles of size 1 per player",
)
for _v in range(2, 7):
    _k = _a(
        f"hotels.size_{_v}",
        R["hotel_sizes_per_character"]["v"][str(_v)],
        lo=0,
        hi=6,
        prov="A",
        src="note 3.3 / C18",
        doc=f"hotel tiles of size {_v} per player",
    )
    assert _k == HOTELS + _v - 1

# ---- costs ----
COST_BUILD = _a(
    "cost.build_per_value",
    R["build_cost_per_value"]["v"],
    lo=0,
    hi=20,
    prov="F",
    src="rulebook Build",
    doc="gold per hotel value to build on a vacant lot",
)
COST_CAMPER = _a(
    "cost.build_on_camper_per_value",
    R["build_on_camper_cost_per_value"]["v"],
    lo=0,
    hi=20,
    prov="F",
    src="rulebook Build option",
    doc="gold per value to build on a lot holding a camper",
)
COST_UP = _a(
    "cost.upgrade_per_step",
    R["upgrade_cost_per_value_step"]["v"],
    lo=0,
    hi=20,
    prov="F",
    src="rulebook Upgrade",
    doc="gold per step of value when upgrading",
)
COST_DOWN = _a(
    "cost.downgrade_per_step",
    R["downgrade_cost"]["v"],
    lo=0,
    hi=20,
    prov="F",
    src="rulebook Downgrade",
    doc="gold per step when downgrading (free in the rules)",
)
RESIZE_RULE = _a(
    "build.resize",
    "any",
    kind="choice",
    choices=("any", "one_step"),
    prov="A",
    src="note C17",
    doc="upgrade/downgrade to any size in supply (default) or by one step only",
)
RESIZED_NEW = _a(
    "build.resized_is_new",
    "off",
    kind="bool",
    prov="A",
    src="reading of 'built this turn'",
    doc="an upgraded/downgraded hotel counts as built this turn (no Host/Fire in it this turn)",
)

# ---- fire ----
FIRE_ON = _a("fire.allowed", "on", kind="bool", prov="F", src="rulebook Fire", doc="the Fire action exists")
FIRE_INS = _a(
    "fire.insurance_per_value",
    R["fire_insurance_per_value"]["v"],
    lo=0,
    hi=10,
    prov="F",
    src="rulebook Fire",
    doc="insurance per value of a burned hotel",
)
FIRE_OCC = _a(
    "fire.occupied",
    "burns",
    kind="choice",
    choices=("burns", "survives"),
    prov="A",
    src="note C19",
    doc="an occupied hotel hit by fire burns (insurance paid, guest leaves unpaid) or survives (guest leaves)",
)
FIRE_PASS = _a(
    "fire.pass",
    "mandatory",
    kind="choice",
    choices=("mandatory", "optional"),
    prov="A",
    src="note C20",
    doc="the burned hotel's owner must pass the fire if a building is adjacent, or may stop it",
)

# ---- growth and roll ----
CONNECT = _a(
    "grow.connect",
    "edge_or_street",
    kind="choice",
    choices=("edge_or_street", "also_corner"),
    prov="A",
    src="note C3",
    doc="a new tile touches an edge or lies one street away; alternative: corners count too",
)
DRAW = _a(
    "grow.draw",
    "top",
    kind="choice",
    choices=("top", "draw2_keep1"),
    prov="A",
    src="note C6",
    doc="the grown tile is the top of the deck, or the best of two (the other goes to the bottom)",
)
HOTEL_FIRST = _a(
    "roll.hotel_priority",
    "hotels_first",
    kind="choice",
    choices=("hotels_first", "nearest_any"),
    prov="A",
    src="note C10",
    doc="extra dice prefer any matching hotel over any lot, or the nearest space",
)
DISTANCE = _a(
    "roll.distance",
    "manhattan",
    kind="choice",
    choices=("manhattan", "walk"),
    prov="A",
    src="note C11",
    doc="walking distance: Manhattan over every square, or shortest path over streets and tiles only",
)
TIE_RULE = _a(
    "roll.tie_break",
    "next_player",
    kind="choice",
    choices=("next_player", "random"),
    prov="F",
    src="rulebook Roll (alternative note C12)",
    doc="who breaks distance ties when dice land",
)
INTO_NEW = _a(
    "roll.into_new_hotels",
    "on",
    kind="bool",
    prov="A",
    src="note C13",
    doc="rolled dice may land in a hotel built this turn",
)

# ---- scoring and end ----
BLOCK_RULE = _a(
    "score.block",
    "sum",
    kind="choice",
    choices=("sum", "count", "highest_die"),
    prov="A",
    src="note C21",
    doc="block strength: sum of pips, number of dice, or the highest single die",
)
EMPTY_RULE = _a(
    "score.empty_hotels",
    "link_only",
    kind="choice",
    choices=("link_only", "add_size"),
    prov="A",
    src="note C22",
    doc="empty hotels link a block and add 0, or count as a die of their size",
)
PTS_TILE = _a(
    "score.points_per_tile",
    R["points_per_tile"]["v"],
    lo=0,
    hi=10,
    prov="F",
    src="rulebook Score",
    doc="neighbourhood points per tile",
)
PTS_PUBLIC = _a(
    "score.points_per_public_square",
    R["points_per_public_square"]["v"],
    lo=0,
    hi=10,
    prov="F",
    src="rulebook Public Buildings",
    doc="neighbourhood points per public-building square",
)
ROUNDS = _a(
    "end.scoring_rounds",
    R["scoring_rounds"]["v"],
    lo=1,
    hi=9,
    prov="F",
    src="rulebook Game End",
    doc="the game ends after this many scoring rounds (at most 9: the deck holds 24 tiles)",
)
GOLD_PER_VP = _a(
    "end.gold_per_point",
    R["gold_per_end_point"]["v"],
    lo=1,
    hi=100,
    prov="F",
    src="rulebook Game End",
    doc="gold per end-game point",
)
TIE_BREAK = _a(
    "end.tie_break",
    "shared",
    kind="choice",
    choices=("shared", "most_gold"),
    prov="A",
    src="note C25",
    doc="tied totals share the win, or the most remaining gold wins (still tied: shared)",
)
TURN_CAP = _a(
    "end.turn_cap",
    R["turn_cap"]["v"],
    lo=10,
    hi=2000,
    prov="A",
    src="note C26",
    doc="safety cap on turns; a capped game is reported as end_reason=turn_cap, never silently",
)

# ---- interventions (sim effect): default none, which leaves every game as printed ----
HOTEL_ITEMS = tuple(f"hotel_size_{v}" for v in range(1, 7))  # the items a hotel of size v counts as (outcome.py)
ITEM_REMOVE = _a(
    "item.remove",
    "none",
    kind="choice",
    choices=("none",) + HOTEL_ITEMS,
    prov="D",
    src="sim effect",
    doc="take the hotels of this size out of the game: no player has one in supply (choice k = size k; "
    "the deck, the dice and everything else are as printed)",
)

# ---- the city deck (component data, ASSUMED) as constant arrays for the engine ----
DECK = DATA["city_deck"]["tiles"]
N_DECK = len(DECK)
TILE_VALS = np.zeros((N_DECK, 6), np.int64)  # canonical square k = row*2 + col; 0 = public building
TILE_STREETS = np.zeros(N_DECK, np.int64)  # bit 0 N, 1 E, 2 S, 3 W (canonical orientation)
_SIDE = {"N": 0, "E": 1, "S": 2, "W": 3}
for _i, _t in enumerate(DECK):
    assert _t["id"] == _i + 1
    for _r in range(3):
        for _c in range(2):
            TILE_VALS[_i, _r * 2 + _c] = _t["rows"][_r][_c]
    for _s in _t["streets"]:
        TILE_STREETS[_i] |= 1 << _SIDE[_s]
