"""BANG! The Dice Game + Old Saloon (all five modules): the engine protocol of docs/ARCHITECTURE.md, assembled from
the files that hold each concern.

state.py    the state record, structural sizes, the rules' enumerations, the fields a seat cannot see
table.py    what the table shows (characters, range, dice, arrows) and the state machine's small helpers
actions.py  the actions and the legal-action list
deal.py     setup: roles, special roles and characters dealt
phases.py   the turn, phase by phase, and the sub-procedures (damage, heal, reveal)
damage.py   arrows and the Indians, damage batches, healing, reveals, elimination and victory
rules.py    current_player, apply_action, is_over, what a decision does, the loop to the next decision
outcome.py  the results columns and write_outcome

The game is a state machine: run_auto (rules.py) runs automatic phases until a decision with two or more legal
options is pending; a decision with one option is applied automatically.  The GameSpec names this module; the core,
the strategies, text.py and the tests read everything below from it.
"""

from .actions import *  # noqa: F401,F403
from .damage import *  # noqa: F401,F403
from .deal import setup  # noqa: F401
from .outcome import *  # noqa: F401,F403
from .phases import *  # noqa: F401,F403
from .rules import *  # noqa: F401,F403
from .state import *  # noqa: F401,F403
from .table import *  # noqa: F401,F403

# the phase functions a first compile's child process compiles (rules.CHILD_PHASES) are read as engine attributes
from .phases import _damage_eliminations, _damage_reactions, _gatling_and_turn_end, _heal, _reveal  # noqa: F401
