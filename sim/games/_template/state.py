"""Pig's state: one numpy record per game, reused game after game, and what each seat cannot see.

rng, ev, n_ev and log_on are required by the core (chance streams and the event log of `sim replay`); the rest is
the game.  ev holds the events logged between two decisions (`sim replay` copies them out after each): size it for
the longest chain of automatic play, as events past its end are dropped.  Use int8 rather than bool for flags, and
no field names that are numpy.record attributes (size, shape, sum...).
"""

import numpy as np

MAX_PLAYERS = 4  # structural sizes, fixed at compile time
MAX_ITEMS = 5  # item rows write_outcome may fill per game
MAX_STEPS = 100_000  # decisions before the kernel stops a game as capped

STATE_DTYPE = np.dtype(
    [
        ("rng", np.uint64, 2),
        ("ev", np.int32, (64, 5)),
        ("n_ev", np.int32),
        ("log_on", np.int8),
        ("n", np.int8),
        ("cur", np.int8),
        ("score", np.int32, 4),
        ("pot", np.int32),
        ("turns", np.int32),
        ("over", np.int8),
        ("busts", np.int32, 4),
        ("half_turn", np.int32, 4),
        ("joker", np.int8),
    ]
)

# The fields a seat cannot see (other seats' hands, deck orders, hidden roles): hidden.determinize re-samples
# exactly these, and the contract test checks that strategies declared sees_hidden=False choose the same whatever
# they hold.  Pig hides nothing: scores and the turn total are public, and future dice are chance, not state.
HIDDEN_FIELDS = ()
