"""Pig's engine: the protocol of docs/ARCHITECTURE.md, assembled from the files that hold each concern.

state.py    the state record, structural sizes and the fields a seat cannot see
actions.py  the action codec and the legal-action list
rules.py    setup, current player, apply_action, is_over: the rulebook
outcome.py  the results columns, write_outcome and standings (the per-round trace of `sim run --standings`)
The GameSpec names this module; the core reads everything below from it.
"""

from .actions import CODEC, HOLD, MAX_ACTIONS, ROLL, legal_actions  # noqa: F401
from .outcome import standings, write_outcome  # noqa: F401
from .rules import COMPILE_IN_CHILD, EV_ROLL, apply_action, current_player, is_over, setup  # noqa: F401
from .state import HIDDEN_FIELDS, MAX_ITEMS, MAX_PLAYERS, MAX_STEPS, STATE_DTYPE  # noqa: F401

# the functions a first compile's child process compiles (rules.COMPILE_IN_CHILD) are read as engine attributes
from .rules import _next  # noqa: F401,E402
