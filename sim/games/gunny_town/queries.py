"""Questions about a Gunny Town state that change nothing: hands, weapons, sight, reach, open missions.

The rules, the legal-action list and the strategies all ask them here, so each is answered one way.
"""

import numba as nb
import numpy as np

from sim.kernel import one_copy

from .params import (
    P_ITEM_REMOVE,
    C_BUY_STORE,
    C_GIVE,
    LOC_AT,
    MCOMP,
    NSTORE,
    P_JOB,
    P_MISSION,
    P_MISSIONS_PER_TURN,
    P_MOVE_FOOT,
    P_MOVE_HORSE,
    P_NEIGHBOUR,
    P_R_HTH,
    P_SECRET,
    P_STORE,
    P_WEAPON,
    P_WEAPON_RANGE_ON,
    SIGHT,
)
from .state import DODGE, MISSION_SLOTS, N_AMMO_TYPES, NW

UNLIMITED_RANGE = 99  # a weapon's range when rule.weapon_range is off
WEAPON_FIELDS = 3  # each weapon's parameters are consecutive: cost, range, rounds (params.py)


@nb.njit(cache=True, _nrt=False, inline="always")
def int_param(p, k):
    """Parameter slot k as an integer."""
    return np.int64(p[k])


@one_copy(_nrt=False)
def hand_size(s, pl):
    t = 0
    for c in range(N_AMMO_TYPES):
        t += s.hand[pl, c]
    return t


@one_copy(_nrt=False)
def n_shooting(s, pl):
    """Cards a challenger can play (every card but Dodge)."""
    return hand_size(s, pl) - s.hand[pl, DODGE]


@one_copy(_nrt=False)
def neighbour(s, p, pl):
    if int_param(p, P_NEIGHBOUR) == 0:
        return (pl + 1) % s.n
    return (pl + s.n - 1) % s.n


@one_copy(_nrt=False)
def stores_owned(s, pl):
    k = 0
    for st in range(NSTORE):
        if s.store_owner[st] == pl:
            k += 1
    return k


@nb.njit(cache=True, _nrt=False)
def weapon_cost(p, w):
    return int_param(p, P_WEAPON + WEAPON_FIELDS * w)


@nb.njit(cache=True, _nrt=False)
def weapon_range(p, w):
    if int_param(p, P_WEAPON_RANGE_ON) == 0:
        return UNLIMITED_RANGE
    return int_param(p, P_WEAPON + WEAPON_FIELDS * w + 1)


@nb.njit(cache=True, _nrt=False)
def weapon_rounds(p, w):
    return int_param(p, P_WEAPON + WEAPON_FIELDS * w + 2)


@nb.njit(cache=True, _nrt=False)
def best_weapon_cost(s, p, pl):
    best = -1
    for w in range(NW):
        if (s.wmask[pl] >> w) & 1:
            best = max(best, weapon_cost(p, w))
    return best


@one_copy(_nrt=False)
def same_location(s, a, b):
    pos_a = s.pos[a]
    pos_b = s.pos[b]
    if pos_a == pos_b:
        return True
    la = LOC_AT[pos_a]
    return la >= 0 and la == LOC_AT[pos_b]


@one_copy(_nrt=False)
def hand_to_hand(s, p, a, b):
    """a and b may fight hand to hand: on one location (rule.hand_to_hand=location), or also on one plain street
    square (any_shared_square)."""
    if int_param(p, P_R_HTH) == 1:
        return same_location(s, a, b)
    la = LOC_AT[s.pos[a]]
    return la >= 0 and la == LOC_AT[s.pos[b]]


@one_copy(_nrt=False)
def fire_rounds(s, p, a, b):
    """Rounds a can fire at b: the best held weapon reaching b (straight sight within range, or the same
    location); 0 if none reaches.  Hand-to-hand without a weapon is handled by the caller."""
    best = 0
    close = same_location(s, a, b)
    sight = SIGHT[s.pos[a], s.pos[b]]
    for w in range(NW):
        if (s.wmask[a] >> w) & 1:
            if close or (sight >= 0 and sight <= weapon_range(p, w)):
                best = max(best, weapon_rounds(p, w))
    return best


@nb.njit(cache=True, _nrt=False)
def can_duel(s, p, c, t):
    if t == c or t >= s.n or s.pos[t] < 0 or s.skip[t] or s.lp[t] <= 0:
        return False
    if (s.challenged >> t) & 1:
        return False
    if n_shooting(s, c) == 0:
        return False
    if hand_to_hand(s, p, c, t):
        return True
    return fire_rounds(s, p, c, t) > 0


@nb.njit(cache=True, _nrt=False)
def missions_left(s, p, pl):
    return int_param(p, P_MISSIONS_PER_TURN) - s.missions_turn[pl]


@one_copy(_nrt=False)
def move_range(s, p, pl):
    r = int_param(p, P_MOVE_HORSE) if s.horse[pl] else int_param(p, P_MOVE_FOOT)
    return r + s.extra_range


@nb.njit(cache=True, _nrt=False)
def give_slot(s, p, pl):
    """Face-up slot of a claimable 'give 1 ammunition to each opponent' card, or -1."""
    if missions_left(s, p, pl) <= 0 or hand_size(s, pl) < s.n - 1:
        return -1
    for k in range(MISSION_SLOTS):
        m = s.face[k]
        if m >= 0 and MCOMP[m, 0, 0] == C_GIVE:
            return k
    return -1


@nb.njit(cache=True, _nrt=False)
def store_mission_slot(s, st):
    for k in range(MISSION_SLOTS):
        m = s.face[k]
        if m >= 0 and MCOMP[m, 0, 0] == C_BUY_STORE and MCOMP[m, 0, 1] == st:
            return k
    return -1


REWARD_FIELDS = 2  # each mission's and secret mission's reward parameters are consecutive: GN, VP (params.py)


@nb.njit(cache=True, _nrt=False, inline="always")
def mission_gn(p, m):
    return int_param(p, P_MISSION + REWARD_FIELDS * m)


@nb.njit(cache=True, _nrt=False, inline="always")
def mission_vp(p, m):
    return int_param(p, P_MISSION + REWARD_FIELDS * m + 1)


@nb.njit(cache=True, _nrt=False, inline="always")
def secret_gn(p, sc):
    return int_param(p, P_SECRET + REWARD_FIELDS * sc)


@nb.njit(cache=True, _nrt=False, inline="always")
def secret_vp(p, sc):
    return int_param(p, P_SECRET + REWARD_FIELDS * sc + 1)


STORE_FIELDS = 2  # each store's parameters are consecutive: price, unit price (params.py)


@nb.njit(cache=True, _nrt=False, inline="always")
def store_price(p, st):
    return int_param(p, P_STORE + STORE_FIELDS * st)


@nb.njit(cache=True, _nrt=False, inline="always")
def unit_price(p, st):
    return int_param(p, P_STORE + STORE_FIELDS * st + 1)


JOB_FIELDS = 3  # each job's income parameters are consecutive: gn, lp, ammo (params.py)


@nb.njit(cache=True, _nrt=False, inline="always")
def job_gn(p, j):
    return int_param(p, P_JOB + JOB_FIELDS * j)


@nb.njit(cache=True, _nrt=False, inline="always")
def job_lp(p, j):
    return int_param(p, P_JOB + JOB_FIELDS * j + 1)


@nb.njit(cache=True, _nrt=False, inline="always")
def job_ammo(p, j):
    return int_param(p, P_JOB + JOB_FIELDS * j + 2)


@nb.njit(cache=True, _nrt=False, inline="always")
def removed(p, item_id):
    """True if item.remove takes item item_id out of the game (a what-if of `sim effect`)."""
    return int_param(p, P_ITEM_REMOVE) == item_id + 1
