"""What the table shows, asked by the rules and the legal-action list alike: who has which character or special
role, who is in range, the dice, the arrows; and the state machine's small helpers (who decides, the return stack
of sub-procedures)."""

import numba as nb
import numpy as np

from sim.kernel import declared
from sim.rng import rand_below

from . import params as P
from .state import (
    BLACKJACK,
    CALAMITY,
    DIE_FACES,
    DYN,
    I64,
    MAX_PLAYERS,
    ROSE,
    SRC_BULLET,
    SRC_GATLING,
    SRC_SHOT,
    on_state,
    param_int,
    param_on,
)


@nb.njit(cache=True, _nrt=False, inline="always")
def is_char(s, seat, c):
    """Seat has character c and its ability works (living, not the Ghost)."""
    return s.char[seat] == c and s.alive[seat] == 1


@declared(on_state(I64, I64), _nrt=False)
def find_char(s, c):
    for i in range(s.n):
        if s.char[i] == c and s.alive[i] == 1:
            return i
    return -1


@declared(on_state(I64, I64, I64), _nrt=False)
def find_special(s, special, exclude):
    """Seat holding an unused special role `special` that can still act (living, not the Ghost), or -1."""
    for i in range(s.n):
        if s.special[i] == special and s.special_state[i] == 0 and s.alive[i] == 1 and i != exclude:
            return i
    return -1


@nb.njit(cache=True, _nrt=False)
def n_living(s):
    c = 0
    for i in range(s.n):
        c += s.alive[i]
    return c


@nb.njit(cache=True, _nrt=False)
def walk(s, a, d, direction):
    """Seat d living steps from seat a (direction +1 or -1), counting living players only."""
    cur = a
    cnt = 0
    guard = 0
    n = s.n
    while cnt < d and guard < MAX_PLAYERS * MAX_PLAYERS:  # a bound on the steps: d < 8 laps of 8 seats
        cur = (cur + direction + n) % n
        if s.alive[cur] == 1:
            cnt += 1
        guard += 1
    return cur


@declared(on_state(I64, I64, I64), _nrt=False)
def be_mask(s, a, kind):
    """Bitmask of seats a Bull's Eye unit of kind 1/2 fired by seat a may hit."""
    m = n_living(s)
    if kind == 2 and m <= 3:
        kind = 1
    lo = kind
    hi = kind
    c = s.char[a]
    if c == ROSE:
        hi = kind + 1
    if c == CALAMITY:
        lo = 1
        hi = 1 if m <= 3 else 2
    mask = 0
    for d in range(lo, hi + 1):
        for direction in (1, -1):
            t = walk(s, a, d, direction)
            if t != a and s.alive[t] == 1:
                mask |= 1 << t
    return mask


@nb.njit(cache=True, _nrt=False)
def roll_die(s, i):
    if s.forced_pos < s.n_forced:
        f = s.forced[s.forced_pos]
        s.forced_pos += 1
        s.face[i] = f
    else:
        s.face[i] = DIE_FACES[s.die_type[i], rand_below(s.rng, 0, 6)]


@nb.njit(cache=True, _nrt=False)
def pack_faces(s):
    v = 0
    for i in range(s.nd):
        v |= (np.int64(s.face[i]) + 1) << (4 * i)
    return v


@nb.njit(cache=True, _nrt=False)
def locked_mask(s):
    m = 0
    bj = s.char[s.active] == BLACKJACK and s.alive[s.active] == 1
    for i in range(s.nd):
        if s.face[i] == DYN and ((not bj) or ((s.preset >> i) & 1) == 1):
            m |= 1 << i
    return m


@declared(on_state(I64, I64, I64), _nrt=False)
def count_face(s, f, mask):
    c = 0
    for i in range(s.nd):
        if ((mask >> i) & 1) == 1 and s.face[i] == f:
            c += 1
    return c


@nb.njit(cache=True, _nrt=False)
def all_dice(s):
    return (1 << s.nd) - 1


@nb.njit(cache=True, _nrt=False, inline="always")
def push_return(s, ret):
    s.ret_stack[s.ret_depth] = ret
    s.ret_depth += 1


@nb.njit(cache=True, _nrt=False)
def pop_return(s):
    s.ret_depth -= 1
    s.phase = s.ret_stack[s.ret_depth]


@nb.njit(cache=True, _nrt=False, inline="always")
def decide(s, kind, seat):
    s.dkind = kind
    s.decider = seat


@nb.njit(cache=True, _nrt=False)
def pile_tokens(s):
    return s.pile + (1 if s.chief_holder == -1 else 0)


@nb.njit(cache=True, _nrt=False, inline="always")
def holds_any(s, t):
    return s.arrows[t] > 0 or s.chief_holder == t


@declared(on_state(I64, I64), _nrt=False)
def bart_max(s, b):
    """Most hits of the pending batch Bart Cassidy (seat b) may take as arrows instead."""
    src = s.bt_src
    if src != SRC_SHOT and src != SRC_GATLING and not (src == SRC_BULLET and param_on(s, P.R_BART_BULLET)):
        return 0
    amt = s.bt_amt[b]
    room = s.pile
    if param_int(s, P.R_CHIEF_LAST) == 1 or s.chief_holder != -1:
        room = s.pile - 1  # may not take the last arrow of the pile
    if room < 0:
        room = 0
    return min(amt, room)


@declared(on_state(I64, I64, I64), _nrt=False)
def molly_max(s, m, t):
    """Most of seat t's pending life loss Molly Stark (seat m) may take in his place."""
    left = s.life[m] - s.bt_amt[m]
    if left < 0:
        left = 0
    return min(s.bt_amt[t], left)
