"""BANG! The Dice Game (dV Giochi 2013) with the five Old Saloon modules."""

import sim

sim.use_game_cache(__name__)  # before anything jitted of this game is imported


from sim.game import GameSpec

from . import params as P
from .actions import CODEC
from .outcome import GAME_COLUMNS, ITEM_KINDS, ITEM_NAMES, SEAT_COLUMNS
from .state import CAUSE_LABELS, END_LABELS, ROLE_NAMES, SPECIAL_NAMES, WINNER_LABELS
from .text import action_text, event_text


_ROLES = [r.lower() for r in ROLE_NAMES]

GAME = GameSpec(
    name="bang_dice",
    title="BANG! The Dice Game + Old Saloon",
    engine="sim.games.bang_dice.engine",
    strategy_module="strategies.bang_dice",
    actions=CODEC,
    params=P.TABLE,
    players=(3, 8),
    default_players=5,
    default_lineup=("belief",),
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    labels={
        "winner_team": list(WINNER_LABELS),
        "end_reason": list(END_LABELS),
        "role": _ROLES,
        "role_end": _ROLES,
        "special_role": [s.lower().replace(" ", "_") for s in SPECIAL_NAMES],
        "character": list(P.CHAR_IDS),
        "eliminated_by": list(CAUSE_LABELS),
    },
    item_names=ITEM_NAMES,
    item_kinds=ITEM_KINDS,
    event_text=event_text,
    turn_order_note=(
        "The Sheriff always takes the first turn (in the 3-player game, the Deputy), so position 1 "
        "is that role, not a seat a player could choose: its win share measures that side, "
        "and the other positions are counted from its left."
    ),
    assumed_components="Ghost token set (one per base face + x2) is assumed; see RULES.md",
    rules_version="2026-11-22",
    # what the report reads in the tables (sim.game.GameSpec)
    length_column="turns",
    role_columns=("role", "special_role", "character"),
    dealt_kinds=("character", "special_role"),
    side_column="winner_team",
    seat_side_column="role",
    standing_unit="life points",
    # one decision rarely moves a five-seat team game by much: at 5 players `search` with 16 rollouts gained
    # +0.003 (not significant, 5,000 games), with 64 +0.022 (+0.011 to +0.033, 1,000 games) for 0.15 CPU s a game
    search_rollouts=64,
    # life margin as a tie-break loses: every choice `search4` made against belief's came from it, and they cost
    # -0.003 (-0.005 to -0.001) of win share at 5 players (10,000 games); without it it never leaves belief's choice
    search_margin=False,
)
GAME.action_text = action_text  # used by sim replay when present
