"""A deliberately broken engine for tests/test_toolkit.py: the template game (Pig) whose legal list can outgrow its
MAX_ACTIONS, to check that an overflow stops a run instead of being played from a truncated list."""
# ruff: noqa: F401  (the protocol names are re-exported for the kernel, unused here)

import numba as nb

from sim.games._template.engine import (
    COMPILE_IN_CHILD,
    HIDDEN_FIELDS,
    HOLD,
    MAX_ITEMS,
    MAX_PLAYERS,
    MAX_STEPS,
    ROLL,
    STATE_DTYPE,
    apply_action,
    current_player,
    is_over,
    setup,
    write_outcome,
)
from sim.toolkit import push

MAX_ACTIONS = 2


@nb.njit(cache=True)
def legal_actions(s, p, out):
    n = push(out, 0, ROLL)
    n = push(out, n, HOLD)
    if s.pot >= 15:  # the bug: a third entry (a repeat of HOLD) the list has no room for
        n = push(out, n, HOLD)
    return n
