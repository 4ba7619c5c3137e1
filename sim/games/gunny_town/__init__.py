"""Gunny Town (Roussignol Edition, 2021) on the simulation core."""
import sim

sim.use_game_cache(__name__)  # before anything jitted of this game is imported

from sim.game import GameSpec, StrategySpec

from . import engine as E
from .params import (JOB_NAMES, MISSIONS, PARAMS, SECRETS, STORE_NAMES, WEAPON_NAMES)
from .text import action_text, event_text

ITEM_NAMES = tuple(
    [f"weapon:{w}" for w in WEAPON_NAMES] + ["horse"] + [f"job:{j}" for j in JOB_NAMES]
    + [f"store:{s}" for s in STORE_NAMES]
    + [f"mission:t{m[3]}:{k:02d}:{m[0]}" for k, m in enumerate(MISSIONS)]
    + [f"secret:{k}:{m[0]}" for k, m in enumerate(SECRETS)]
    + ["start:STABLES", "start:ARMORY"])
ITEM_KINDS = tuple(["weapon"] * 5 + ["horse"] + ["job"] * len(JOB_NAMES) + ["store"] * len(STORE_NAMES)
                   + [f"mission_t{m[3]}" for m in MISSIONS] + ["secret_mission"] * len(SECRETS) + ["start"] * 2)
assert len(ITEM_NAMES) == E.N_ITEM_IDS == len(ITEM_KINDS)

# = strategies.gunny_town.KNOBS (checked in the tests)
KNOBS = ("duel", "weapon", "store", "rob", "job", "casino", "bet_fraction", "mission_vp", "gold", "ammo", "life",
         "fake", "travel_discount", "secret_vp", "risk_life", "extra_move", "sheriff_penalty")

_K = "Knobs: " + ", ".join(KNOBS) + "."
STRATEGIES = [
    StrategySpec("gunslinger", 1, "Duels, weapons and bounty missions: buys the best weapon it can, challenges "
                 "whoever it can hit, chases hit/kill missions. " + _K,
                 (3.0, 1.5, 0.2, 0.8, 0.5, 0.0, 0.0, 3.0, 0.5, 1.5, 1.5, 0.7, 0.6, 0.8, 0.5,
                  1.0, 0.0)),
    StrategySpec("businessman", 2, "Stores, investments and robberies: buys stores, collects free units and "
                 "shoppers' money, robs the bank and stores. " + _K,
                 (0.3, 0.6, 2.0, 1.5, 0.5, 0.3, 0.1, 3.0, 1.0, 0.8, 1.5, 0.5, 0.6, 0.8, 1.0,
                  1.0, 0.0)),
    StrategySpec("lawman", 3, "Jobs and their incomes: takes the best free badge, duels holders for theirs. " + _K,
                 (0.8, 0.8, 0.3, 0.2, 2.5, 0.0, 0.0, 3.0, 0.7, 1.0, 1.5, 0.5, 0.6, 0.2, 1.0,
                  1.0, 0.0)),
    StrategySpec("gambler", 4, "The Saloon bet: goes to the Saloon and stakes bet_fraction of its gold each "
                 "visit (positive expectation under the default reading, see the note's balance warning). " + _K,
                 (0.2, 0.3, 0.3, 0.5, 0.3, 2.5, 0.25, 3.0, 1.0, 0.8, 1.5, 0.6, 0.6, 0.8, 1.0,
                  1.0, 0.0)),
    StrategySpec("mission_chaser", 5, "Plans moves toward the face-up missions (and its secret mission) it can "
                 "progress, valued by VP and discounted per turn of travel. " + _K,
                 (0.8, 0.8, 0.5, 0.6, 0.6, 0.2, 0.1, 3.0, 0.5, 1.0, 1.5, 0.5, 0.7, 2.0, 1.0,
                  1.0, 0.0)),
    StrategySpec("gambler_all_in", 4, "Gambler preset that stakes all its gold at every visit. " + _K,
                 (0.2, 0.3, 0.3, 0.5, 0.3, 2.5, 1.0, 3.0, 1.0, 0.8, 1.5, 0.6, 0.6, 0.8, 1.0,
                  1.0, 0.0)),
]

GAME = GameSpec(
    name="gunny_town",
    title="Gunny Town",
    engine="sim.games.gunny_town.engine",
    strategy_module="strategies.gunny_town",
    params=PARAMS,
    players=(2, 6),
    default_players=4,
    strategies=STRATEGIES,
    default_lineup=("mission_chaser", "gunslinger", "businessman"),
    game_columns=E.GAME_COLUMNS,
    seat_columns=E.SEAT_COLUMNS,
    labels={"end_reason": ["none", "vp_target", "missions_out", "round_cap"],
            "final_job": ["BANDIT"] + list(JOB_NAMES)},
    item_names=ITEM_NAMES,
    item_kinds=ITEM_KINDS,
    event_text=event_text,
    action_text=action_text,
    rules_doc="sim/games/gunny_town/RULES.md",
    assumed_components=("Results rest on an ASSUMED board (layout, locations, store prices, pickups) and ASSUMED "
                        "decks (ammunition mix, chest cards, mission and secret-mission cards, starting gold): the "
                        "real ones are not public; say 'on the assumed board and decks'."),
    rules_version="EN/FR work-in-progress draft rulebook (2021) + engineering note gunny_town.md",
)
