"""Saloon Tycoon's engine: the protocol of docs/ARCHITECTURE.md, assembled from the files that hold each concern.

state.py    the state record, structural sizes and enums, the fields a seat cannot see
queries.py  read-only questions about a state (prices, income, where a tile may stand, what a claim asks)
actions.py  the action codec and the legal-action list
rules.py    setup, the turn, apply_action, the end: the rulebook
effects.py  what actions do: building, cubes and finishing, cards, characters, claims, pending effects
events.py   the events logged for `sim replay`
outcome.py  the results columns, write_outcome and the standings during play
The GameSpec names this module; the core reads everything below from it.
"""

from .actions import CODEC, COMPILE_IN_PARENT, MAX_ACTIONS, legal_actions  # noqa: F401
from .outcome import GAME_COLUMNS, SEAT_COLUMNS, standings, write_outcome  # noqa: F401
from .rules import apply_action, current_player, is_over, setup  # noqa: F401
from .state import (  # noqa: F401  # noqa: F401  (read by tests/test_search_games.py)
    HIDDEN_FIELDS,
    MAX_EVENTS,
    MAX_ITEMS,
    MAX_PLAYERS,
    MAX_STEPS,
    N_ITEM_IDS,
    SEC_DEALT,
    SEC_KEPT,
    STATE_DTYPE,
)
