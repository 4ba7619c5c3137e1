"""Pig's rules, jitted: setup, whose turn it is, what an action does, and when the game ends.

The core seeds s.rng (stream 0: chance, stream 1: the strategies' own randomness), calls setup, then loops
current_player -> legal_actions -> the seat's strategy -> apply_action until is_over, and calls write_outcome.
Nothing here allocates: the state record is reused game after game, so setup must reset every field a game reads.
A real game names its functions after the rulebook's sections (e.g. _income, _auction, _final_scoring).
"""

import numba as nb
import numpy as np

from sim.events import log_event
from sim.rng import rand_below, rand_float

from .actions import ROLL
from .params import P_BUST_FACE, P_JOKER, P_JOKER_COPIES, P_TARGET, P_TURN_CAP
from .state import MAX_PLAYERS

EV_ROLL = 1  # event kinds logged for `sim replay` (text.py words them)


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
    s.joker = -1
    if p[P_JOKER] > 0:  # a joker of known causal effect: its holder wins at once with chance p[P_JOKER]
        holder = rand_below(s.rng, 0, n_players)
        live = rand_float(s.rng, 0) < p[P_JOKER]
        if p[P_JOKER_COPIES] > 0:
            s.joker = holder
            if live:
                s.score[holder] = np.int32(p[P_TARGET])
                s.over = 1


@nb.njit(cache=True)
def current_player(s):
    """The seat that decides now."""
    return s.cur


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
