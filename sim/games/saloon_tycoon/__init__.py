"""Saloon Tycoon (Second Edition, Van Ryder Games 2021; design Robert Couch), 2-4 players."""

import sim

sim.use_game_cache(__name__)  # before anything jitted of this game is imported

from sim.game import GameSpec

from .actions import CODEC
from .outcome import GAME_COLUMNS, SEAT_COLUMNS
from .params import (
    CARD_NAMES,
    CHAR_NAMES,
    DATA_PATH,
    MAX_CARD_TYPES,
    MAX_OPEN,
    MAX_SECRET,
    MAX_TILE_TYPES,
    OPEN_NAMES,
    PARAMS,
    SECRET_NAMES,
    TILE_NAMES,
)
from .state import N_ITEM_IDS
from .text import action_text, event_text


def _item_tables():
    names, kinds = [], []
    for t in range(MAX_TILE_TYPES):
        names.append(f"tile:{TILE_NAMES[t]}" if t < len(TILE_NAMES) else f"tile:unused{t}")
        kinds.append("tile")
    names += ["roof:small", "roof:large"]
    kinds += ["tile", "tile"]
    for g in range(MAX_OPEN):
        names.append(f"open_claim:{OPEN_NAMES[g]}" if g < len(OPEN_NAMES) else f"open_claim:unused{g}")
        kinds.append("claim")
    for g in range(MAX_SECRET):
        names.append(f"secret_claim:{SECRET_NAMES[g]}" if g < len(SECRET_NAMES) else f"secret_claim:unused{g}")
        kinds.append("claim")
    for c in range(MAX_CARD_TYPES):
        names.append(f"card:{CARD_NAMES[c]}" if c < len(CARD_NAMES) else f"card:unused{c}")
        kinds.append("tycoon_card")
    for c in range(len(CHAR_NAMES)):
        names.append(f"character:{CHAR_NAMES[c]}")
        kinds.append("character_at_end")
    assert len(names) == N_ITEM_IDS
    return tuple(names), tuple(kinds)


_ITEM_NAMES, _ITEM_KINDS = _item_tables()


GAME = GameSpec(
    name="saloon_tycoon",
    title="Saloon Tycoon (Second Edition)",
    engine="sim.games.saloon_tycoon.engine",
    strategy_module="strategies.saloon_tycoon",
    actions=CODEC,
    params=PARAMS,
    players=(2, 4),
    default_players=4,
    default_lineup=("tall", "wide", "claims", "characters"),
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    labels={"end_reason": ["cube_pile", "turn_cap", "stalled"]},
    item_names=_ITEM_NAMES,
    item_kinds=_ITEM_KINDS,
    event_text=event_text,
    action_text=action_text,
    assumed_components=(
        "Results rest on ASSUMED components (" + str(DATA_PATH.name) + "): the player-board lot layout and lot "
        "costs, tile costs, cube spaces and finishing bonuses, 35 of the 37 Tycoon cards, 54 of the 56 claims and "
        "three Citizens' names and genders are not public; quote card- and claim-dependent results as 'on the "
        "assumed deck'."
    ),
    rules_version="Second Edition rulebook (c) 2021 Van Ryder Games; notes/saloon_tycoon.md defaults S1-S19",
    # what the report reads in the tables (sim.game.GameSpec)
    length_column="turns_total",
    points_prefix="vp_",
    money_column="gold",
)
