"""Gunny Town's engine: the protocol of docs/ARCHITECTURE.md, assembled from the files that hold each concern.

state.py      the state record, sizes, enums and the fields a seat cannot see
actions.py    the action codec and the legal-action list
rules.py      setup, the turn, current player, apply_action, is_over
queries.py    questions about the state that change nothing (hands, weapons, sight, reach)
cards.py      decks and hands
life.py       life points, jail and job badges
missions.py   mission progress, claims and the face-up row
duels.py      duels
locations.py  location actions
outcome.py    the results columns, write_outcome and standings
The GameSpec names this module; the core, text.py and the tests read the names below from it.
"""

from .actions import (  # noqa: F401
    CODEC,
    K_BET,
    K_BRIBE,
    K_BUY_HORSE,
    K_BUY_STORE,
    K_BUY_UNIT,
    K_BUY_WEAPON,
    K_CCARD,
    K_CHEST,
    K_DCARD,
    K_DUEL,
    K_END,
    K_ENTER,
    K_EXTRA,
    K_FREE_UNIT,
    K_GIVE,
    K_MOVE,
    K_MOVE2,
    K_PAIR,
    K_PICK_AMMO,
    K_PICK_GN,
    K_ROB_BANK,
    K_ROB_SALOON,
    K_ROB_STORE,
    K_STORE_PAY,
    K_TAKE_JOB,
    K_TAKEOVER,
    K_WIN,
    MAX_ACTIONS,
    legal_actions,
)
from .outcome import GAME_COLUMNS, SEAT_COLUMNS, standings, write_outcome  # noqa: F401
from .rules import apply_action, current_player, is_over, setup  # noqa: F401
from .state import *  # noqa: F401,F403  (sizes, enums, STATE_DTYPE, HIDDEN_FIELDS)
