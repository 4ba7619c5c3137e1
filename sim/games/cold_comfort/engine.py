"""Cold Comfort's engine: the protocol of docs/ARCHITECTURE.md, assembled from the files that hold each concern.

state.py    the state record, structural sizes, phases and the fields a seat cannot see
city.py     the grid: tiles on it, streets, where a new tile may go, walking distance
scoring.py  neighbourhoods, blocks and street gangs, and their strength
actions.py  the actions and the legal-action list
rules.py    setup, the turn, the scoring round, fire, the end: the rulebook
outcome.py  the results columns and write_outcome
The GameSpec names this module; the core reads everything below from it.
"""

from .actions import CODEC, MAX_ACTIONS, legal_actions  # noqa: F401
from .outcome import standings, write_outcome  # noqa: F401
from .rules import apply_action, current_player, is_over, setup  # noqa: F401
from .state import HIDDEN_FIELDS, MAX_ITEMS, MAX_PLAYERS, MAX_STEPS, STATE_DTYPE  # noqa: F401
