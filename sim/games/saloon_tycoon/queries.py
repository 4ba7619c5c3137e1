"""Read-only questions about a Saloon Tycoon state, shared by the rules, the legal-action list and the strategies:
component parameters by index, prices and income, where a tile may stand, what a claim asks and scores.  Nothing
here changes the state."""

import numba as nb
import numpy as np

from .params import (
    CF_MOVE,
    CS,
    KF_PER,
    KF_POINTS,
    KF_TERM0,
    KS,
    MAX_OPEN,
    N_CHARS,
    P_CARD0,
    P_CHAR0,
    P_CIT_PTS,
    P_CUBE_PRICE,
    P_LOT0,
    P_OPEN0,
    P_PHIN_PRICE,
    P_R_CUBE_BUY,
    P_SECRET0,
    P_SYD_PTS,
    P_TILE0,
    P_UNF_L,
    P_UNF_S,
    TF_COST,
    TF_CUBES,
    TF_LARGE,
    TS,
)
from .state import (
    FP_A,
    FP_B,
    FP_UNALIGNED,
    N_VP,
    NB_IN,
    NB_OUT,
    PHINEUS,
    ROOF_LARGE,
    ROOF_SMALL,
    SYDNEY,
)


# ---------------------------------------------------------------- small helpers
@nb.njit(cache=True, _nrt=False, inline="always")
def tparam(p, t, f):
    return p[P_TILE0 + t * TS + f]


@nb.njit(cache=True, _nrt=False, inline="always")
def cparam(p, c, f):
    return p[P_CARD0 + c * CS + f]


@nb.njit(cache=True, _nrt=False, inline="always")
def kbase(gid):
    """Slot base of claim gid (open: 0..MAX_OPEN-1, secret: MAX_OPEN + index)."""
    if gid < MAX_OPEN:
        return P_OPEN0 + gid * KS
    return P_SECRET0 + (gid - MAX_OPEN) * KS


@nb.njit(cache=True, _nrt=False, inline="always")
def char_is_female(p, c):
    return p[P_CHAR0 + 2 * c] == 0


@nb.njit(cache=True, _nrt=False, inline="always")
def char_is_citizen(p, c):
    return p[P_CHAR0 + 2 * c + 1] == 1


@nb.njit(cache=True, _nrt=False, inline="always")
def income_of(s, seat):
    """Income track = tiles on the board (Saloon and roofs included)."""
    return s.n_tiles[seat] + s.roofs[seat, ROOF_SMALL] + s.roofs[seat, ROOF_LARGE]


@nb.njit(cache=True, _nrt=False, inline="always")
def restricted(s):
    """The active player is in the final round after someone else triggered the end: no character moves or gains."""
    return s.end_trig == 1 and s.cur != s.trig_seat


@nb.njit(cache=True, _nrt=False, inline="always")
def purchase_price(s, p, seat):
    """Price of the next bought cube: within a purchase (rule.cube_purchase = all_then_place) the price the
    purchase started with, so Phineus arriving at the 5th cube does not reprice the rest; else cube_price."""
    if s.buy_run == 1 and p[P_R_CUBE_BUY] == 0:
        return s.buy_price
    return cube_price(s, p, seat)


@nb.njit(cache=True, _nrt=False, inline="always")
def cube_price(s, p, seat):
    if s.char_owner[PHINEUS] == seat:
        return np.int32(p[P_PHIN_PRICE])
    return np.int32(p[P_CUBE_PRICE])


@nb.njit(cache=True, _nrt=False, inline="always")
def has_open_space(s, p, seat):
    for i in range(s.n_tiles[seat]):
        if s.tile_cubes[seat, i] < tparam(p, s.tile_type[seat, i], TF_CUBES):
            return True
    return False


@nb.njit(cache=True, _nrt=False, inline="always")
def tile_open(s, p, seat, i):
    return s.tile_cubes[seat, i] < tparam(p, s.tile_type[seat, i], TF_CUBES)


@nb.njit(cache=True, _nrt=False, inline="always")
def count_type(s, seat, t):
    k = 0
    for i in range(s.n_tiles[seat]):
        if s.tile_type[seat, i] == t:
            k += 1
    return k


# ---------------------------------------------------------------- building
@nb.njit(cache=True, _nrt=False, inline="always")
def _adjacent_ground(s, seat, q):
    a = NB_IN[q]
    if a >= 0 and s.cell[seat, 0, a] >= 0:
        return True
    b = NB_OUT[q]
    return b >= 0 and s.cell[seat, 0, b] >= 0


@nb.njit(cache=True, _nrt=False, inline="always")
def spot_free(s, seat, f, fp, fp_any, large_all):
    """Can a tile of fp's size stand at floor f (0-based) on footprint fp of this board?  fp_any: the rule
    large_footprints is any_neighbour; large_all: bit mask of the large tile types (s.type_mask[TM_LARGE]).
    actions.gen_builds answers the same question from bit masks of the board; the play tests check that the two
    agree at every step of random games."""
    if fp >= FP_UNALIGNED and not fp_any:
        return False
    a = FP_A[fp]
    b = FP_B[fp]
    if s.cell[seat, f, a] >= 0:
        return False
    if b >= 0 and s.cell[seat, f, b] >= 0:
        return False
    if fp == 0:
        if f == 0:
            return False
        x = s.cell[seat, f - 1, 0]
        return x >= 0 and s.tile_finished[seat, x] == 1
    if f == 0:
        if b < 0:
            return _adjacent_ground(s, seat, a)
        na = NB_IN[a]
        nb_ = NB_OUT[b]
        return (na >= 0 and s.cell[seat, 0, na] >= 0) or (nb_ >= 0 and s.cell[seat, 0, nb_] >= 0)
    x = s.cell[seat, f - 1, a]
    if x < 0 or s.tile_finished[seat, x] == 0:
        return False
    if b < 0:
        return (large_all >> s.tile_type[seat, x]) & 1 == 0
    y = s.cell[seat, f - 1, b]
    if y < 0 or s.tile_finished[seat, y] == 0:
        return False
    if x == y:
        return (large_all >> s.tile_type[seat, x]) & 1 == 1 and s.tile_footprint[seat, x] == fp
    return (large_all >> s.tile_type[seat, x]) & 1 == 0 and (large_all >> s.tile_type[seat, y]) & 1 == 0


LOT_GOLD, LOT_REP = 0, 1  # a lot's two parameters: its extra gold and its Reputation


@nb.njit(cache=True, _nrt=False, inline="always")
def lot_param(p, lot, what):
    """Parameter `what` (LOT_GOLD or LOT_REP) of ground position `lot` (1-8: A1-A4, B1-B4)."""
    return p[P_LOT0 + 2 * (lot - 1) + what]


@nb.njit(cache=True, _nrt=False, inline="always")
def lot_gold(p, f, fp):
    if f != 0 or fp == 0:
        return 0
    g = np.int64(lot_param(p, FP_A[fp], LOT_GOLD))
    if FP_B[fp] >= 0:
        g += np.int64(lot_param(p, FP_B[fp], LOT_GOLD))
    return g


@nb.njit(cache=True, _nrt=False, inline="always")
def lot_rep(p, f, fp):
    if f != 0 or fp == 0:
        return 0
    r = np.int64(lot_param(p, FP_A[fp], LOT_REP))
    if FP_B[fp] >= 0:
        r += np.int64(lot_param(p, FP_B[fp], LOT_REP))
    return r


@nb.njit(cache=True, _nrt=False, inline="always")
def build_cost(p, t, f, fp, ignore_lot, discount):
    c = np.int64(tparam(p, t, TF_COST)) - discount
    if c < 0:
        c = 0
    if not ignore_lot:
        c += lot_gold(p, f, fp)
    return c


@nb.njit(cache=True, _nrt=False, inline="always")
def card_playable(s, p, seat, c):
    if s.hand[seat, c] <= 0:
        return False
    if cparam(p, c, CF_MOVE) == 1 and s.end_trig == 1:
        return False
    return True


# ---------------------------------------------------------------- claims
@nb.njit(cache=True, _nrt=False, inline="always")
def claim_points(s, p, seat, gid):
    base = kbase(gid)
    per = np.int64(p[base + KF_PER])
    if per > 0:
        k = 0
        for c in range(N_CHARS):
            if s.char_owner[c] == seat:
                k += 1
        return per * k
    return np.int64(p[base + KF_POINTS])


@nb.njit(cache=True, inline="always")
def claim_term(p, base, q):
    """Term q of the claim card whose parameters start at base: (kind, 0 = none; its argument; its count)."""
    t = base + KF_TERM0 + 3 * q
    return np.int64(p[t]), np.int64(p[t + 1]), np.int64(p[t + 2])


@nb.njit(cache=True, _nrt=False, inline="always")
def total_vp(s, seat):
    t = 0
    for k in range(N_VP):
        t += s.vp[seat, k]
    return t


@nb.njit(cache=True, _nrt=False, inline="always")
def end_scores(s, p, seat):
    """The final scoring's points of a board as it stands: (unfinished tiles' penalty, Citizens in the saloon,
    Sydney Smythe's penalty)."""
    unfinished = 0
    for j in range(s.n_tiles[seat]):
        if s.tile_finished[seat, j] == 0:
            large = tparam(p, s.tile_type[seat, j], TF_LARGE) == 1
            unfinished += np.int32(p[P_UNF_L]) if large else np.int32(p[P_UNF_S])
    citizens = 0
    for c in range(N_CHARS):
        if s.char_owner[c] == seat and char_is_citizen(p, c):
            citizens += np.int32(p[P_CIT_PTS])
    outlaws = np.int32(p[P_SYD_PTS]) if s.char_owner[SYDNEY] == seat else 0
    return unfinished, citizens, outlaws
