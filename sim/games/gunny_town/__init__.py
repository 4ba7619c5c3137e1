"""Gunny Town (Roussignol Edition, 2021) on the simulation core."""

import sim

sim.use_game_cache(__name__)  # before anything jitted of this game is imported

from sim.game import GameSpec

from .actions import CODEC
from .outcome import GAME_COLUMNS, ITEM_KINDS, ITEM_NAMES, SEAT_COLUMNS
from .params import JOB_NAMES, PARAMS
from .text import action_text, event_text


GAME = GameSpec(
    name="gunny_town",
    title="Gunny Town",
    engine="sim.games.gunny_town.engine",
    strategy_module="strategies.gunny_town",
    actions=CODEC,
    params=PARAMS,
    players=(2, 6),
    default_players=4,
    default_lineup=("mission_chaser", "gunslinger", "businessman"),
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    labels={
        "end_reason": ["none", "vp_target", "missions_out", "round_cap"],
        "final_job": ["BANDIT"] + list(JOB_NAMES),
    },
    item_names=ITEM_NAMES,
    item_kinds=ITEM_KINDS,
    event_text=event_text,
    action_text=action_text,
    assumed_components=(
        "Results rest on an ASSUMED board (layout, locations, store prices, pickups) and ASSUMED "
        "decks (ammunition mix, chest cards, mission and secret-mission cards, starting gold): the "
        "real ones are not public; say 'on the assumed board and decks'."
    ),
    rules_version="EN/FR work-in-progress draft rulebook (2021) + engineering note gunny_town.md",
    # what the report reads in the tables (sim.game.GameSpec)
    length_column="turns",
    points_prefix="vp_",
    money_column="gold",
)
