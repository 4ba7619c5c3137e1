"""Pig's rules, jitted: the engine protocol of docs/ARCHITECTURE.md on one state record.

The core seeds s.rng (stream 0: chance, stream 1: the strategies' own randomness), calls setup, then loops
current_player -> legal_actions -> the seat's strategy -> apply_action until is_over, and calls write_outcome.
Nothing here allocates: the state record is reused game after game, so setup must reset every field a game reads.
"""
import numba as nb
import numpy as np

from sim.events import log_event
from sim.rng import rand_below

from .params import P_BUST_FACE, P_TARGET, P_TURN_CAP

MAX_PLAYERS = 4        # structural sizes, fixed at compile time
MAX_ACTIONS = 2        # length of the legal-action list the kernel passes to legal_actions
MAX_ITEMS = 4          # item rows write_outcome may fill per game
MAX_STEPS = 100_000    # decisions before the kernel stops a game as capped
ROLL, HOLD = 0, 1      # the actions (a real game packs a kind and its arguments into one integer)
EV_ROLL = 1            # event kinds logged for `sim replay` (text.py words them)
# rng, ev, n_ev and log_on are required by the core (chance streams and the event log of `sim replay`);
# the rest is the game.  ev holds the events logged between two decisions (`sim replay` copies them out after
# each): size it for the longest chain of automatic play, as events past its end are dropped.  Use int8 rather
# than bool for flags, and no field names that are numpy.record attributes (size, shape, sum...).
STATE_DTYPE = np.dtype([("rng", np.uint64, 2), ("ev", np.int32, (64, 5)), ("n_ev", np.int32), ("log_on", np.int8),
                        ("n", np.int8), ("cur", np.int8), ("score", np.int32, 4), ("pot", np.int32),
                        ("turns", np.int32), ("over", np.int8), ("busts", np.int32, 4), ("half_turn", np.int32, 4)])


@nb.njit(cache=True)
def setup(s, p, n_players):
    """Start a game: every field a game reads is set here (the record is reused)."""
    s.n = n_players
    s.cur = 0
    s.pot = 0
    s.turns = 0
    s.over = 0
    for i in range(MAX_PLAYERS):
        s.score[i] = 0
        s.busts[i] = 0
        s.half_turn[i] = -1


@nb.njit(cache=True)
def current_player(s):
    """The seat that decides now."""
    return s.cur


@nb.njit(cache=True)
def legal_actions(s, p, out):
    """Fill out[:n] with the legal actions and return n (at least 1 while the game is not over)."""
    out[0] = ROLL
    out[1] = HOLD
    return 2


def COMPILE_IN_CHILD(state, params):
    """A first compile's child process compiles _next too (sim.kernel.compile_ahead; tested in test_core)."""
    return {"_next": (state, params)}


@nb.njit(cache=True)
def _next(s, p):
    s.pot = 0
    s.cur = (s.cur + 1) % s.n
    s.turns += 1
    if s.turns >= p[P_TURN_CAP]:
        s.over = 2


@nb.njit(cache=True)
def apply_action(s, p, a):
    """Apply the chosen action and resolve chance up to the next decision; log_event feeds `sim replay`."""
    if a == ROLL:
        d = rand_below(s.rng, 0, 6) + 1
        log_event(s, EV_ROLL, s.cur, d, 0, 0)
        if d == p[P_BUST_FACE]:
            s.busts[s.cur] += 1
            _next(s, p)
        else:
            s.pot += d
    else:
        s.score[s.cur] += s.pot
        if s.half_turn[s.cur] < 0 and s.score[s.cur] * 2 >= p[P_TARGET]:
            s.half_turn[s.cur] = s.turns
        if s.score[s.cur] >= p[P_TARGET]:
            s.over = 1
        else:
            _next(s, p)


@nb.njit(cache=True)
def is_over(s):
    return s.over != 0


@nb.njit(cache=True)
def write_outcome(s, p, game_int, seat_int, seat_f, items):
    """Fill the output rows (columns as named in the GameSpec); seat_f[i] = (score, win_share), ties split the
    win; items[k] = (seat, item id, turn acquired, ...).  Returns the number of item rows."""
    game_int[0] = s.turns
    game_int[1] = s.over - 1
    best = -1
    for i in range(s.n):
        best = max(best, s.score[i])
    k = 0
    for i in range(s.n):
        if s.score[i] == best:
            k += 1
    n_items = 0
    for i in range(s.n):
        win = 1 if s.score[i] == best else 0
        seat_int[i, 0] = 1 if win else 2
        seat_int[i, 1] = win
        seat_int[i, 2] = i
        seat_int[i, 3] = s.busts[i]
        seat_f[i, 0] = s.score[i]
        seat_f[i, 1] = win / k
        if s.half_turn[i] >= 0:
            items[n_items, 0] = i
            items[n_items, 1] = 0
            items[n_items, 2] = s.half_turn[i]
            n_items += 1
    return n_items
