"""Pig's actions and the legal-action list.

Every action is declared once in CODEC (sim.toolkit.ActionCodec): its kind and named fields, packed into one int64.
The engine, the strategies, text.py and the tests encode and decode only through it.  Pig's two actions have no
fields; a real game's kinds carry them (e.g. "BUILD": ("tile", "spot")), read with the CODEC's jitted getters.
"""

import numba as nb

from sim.toolkit import ActionCodec, push

CODEC = ActionCodec(kinds={"ROLL": (), "HOLD": ()})
ROLL, HOLD = CODEC.kind_ids("ROLL", "HOLD")
kind_of = CODEC.kind_getter()

MAX_ACTIONS = 2  # length of the legal-action list the kernel passes to legal_actions


@nb.njit(cache=True)
def legal_actions(s, p, out):
    """Fill out[:n] with the legal actions and return n (at least 1 while the game is not over).  Every action goes
    through push, which never writes past the list and makes an overflow a clear error rather than a silent cut."""
    n = push(out, 0, ROLL)
    return push(out, n, HOLD)
