"""Saloon Tycoon's engine: the protocol of docs/ARCHITECTURE.md, assembled from the files that hold each concern.

state.py    the state record, structural sizes and enums, the fields a seat cannot see
queries.py  read-only questions about a state (prices, income, where a tile may stand, what a claim asks)
actions.py  the action codec and the legal-action list
rules.py    setup, current player, apply_action, is_over: the rulebook
outcome.py  the results columns, write_outcome and the standings during play
The GameSpec names this module; the core reads everything below from it.
"""

from .actions import CODEC, COMPILE_IN_PARENT, MAX_ACTIONS, legal_actions  # noqa: F401
from .outcome import GAME_COLUMNS, SEAT_COLUMNS, standings, write_outcome  # noqa: F401
from .rules import apply_action, current_player, is_over, setup  # noqa: F401
from .state import HIDDEN_FIELDS, MAX_EVENTS, MAX_ITEMS, MAX_PLAYERS, MAX_STEPS, N_ITEM_IDS, STATE_DTYPE  # noqa: F401
from .state import SEC_DEALT, SEC_KEPT  # noqa: F401  (read by tests/test_search_games.py)
