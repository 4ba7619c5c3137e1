"""Raccoon Tycoon's engine: the protocol of docs/ARCHITECTURE.md, assembled from the files that hold each concern.

state.py       the state record, structural sizes, enums and the fields a seat cannot see
components.py  what the components say (values and costs from the parameters) and a seat's limits
actions.py     the actions and the legal-action list
turn.py        whose decision it is, drawing cards, ending a turn and the game
production.py  the production action's stages
rules.py       setup and apply_action: the rulebook
scoring.py     the final scoring
outcome.py     the results columns and write_outcome
The GameSpec names this module; the core, text.py, hidden.py, the strategies and the tests read names from it.
"""

from .actions import *  # noqa: F401,F403
from .components import *  # noqa: F401,F403
from .outcome import *  # noqa: F401,F403
from .production import *  # noqa: F401,F403
from .rules import *  # noqa: F401,F403
from .scoring import *  # noqa: F401,F403
from .state import *  # noqa: F401,F403
from .turn import *  # noqa: F401,F403
