"""The final scoring (RULES.md, game end): the VP of towns, railroads, buildings, town + railroad pairs and the
bonus buildings, as the game stands."""

import numba as nb
import numpy as np

from . import params as P
from .components import owns, rr_vp, town_vp
from .state import BT_BANK, BT_GOVERNOR, BT_MAYOR, BT_RAILBARON, N_RR, N_TOWNS


@nb.njit(cache=True, _nrt=False, inline="always")
def _vp_rest(s, p, seat, nt):
    """(railroads, buildings, pairs, bonus, railroad cards) VP of a seat that owns nt towns: the scoring rules
    in one place for vp_parts and standings."""
    vr = 0
    nr = 0
    for co in range(N_RR):
        k = s.rr_own[seat, co]
        vr += rr_vp(p, co, k)
        nr += k
    n_buildings = s.n_bld[seat]
    vb = n_buildings * np.int64(p[P.P_BUILDING_VP])
    vpair = min(nt, nr) * np.int64(p[P.P_PAIR_VP])
    bonus = 0
    if owns(s, seat, BT_GOVERNOR):
        bonus += nt * np.int64(p[P.P_GOVERNOR_VP])
    if owns(s, seat, BT_RAILBARON):
        bonus += nr * np.int64(p[P.P_RAILBARON_VP])
    if owns(s, seat, BT_MAYOR):
        bonus += n_buildings * np.int64(p[P.P_MAYOR_VP])
    if owns(s, seat, BT_BANK):
        bonus += s.money[seat] // np.int64(p[P.P_BANK_PER_VP])
    return vr, vb, vpair, bonus, nr


@nb.njit(cache=True, _nrt=False)
def vp_parts(s, p, seat):
    """(towns, railroads, buildings, pairs, bonus) VP of a seat as the game stands."""
    vt = 0
    nt = 0
    for t in range(N_TOWNS):
        if s.town_owner[t] == seat:
            vt += town_vp(p, t)
            nt += 1
    vr, vb, vpair, bonus, _ = _vp_rest(s, p, seat, nt)
    return vt, vr, vb, vpair, bonus


@nb.njit(cache=True, _nrt=False)
def score_all_seats(s, p):
    """Every seat's vp_total * 1000 + money into s.lv (towns and railroad cards into s.lv_nt, s.lv_nr): the sums of
    vp_parts, with one pass over the towns for all seats."""
    n = s.n
    for o in range(n):
        s.lv_vt[o] = 0
        s.lv_nt[o] = 0
    for t in range(N_TOWNS):
        o = s.town_owner[t]
        if o >= 0:
            s.lv_vt[o] += town_vp(p, t)
            s.lv_nt[o] += 1
    for seat in range(n):
        vr, vb, vpair, bonus, nr = _vp_rest(s, p, seat, s.lv_nt[seat])
        s.lv[seat] = (s.lv_vt[seat] + vr + vb + vpair + bonus) * 1000 + s.money[seat]
        s.lv_nr[seat] = nr


@nb.njit(cache=True, _nrt=False)
def vp_total(s, p, seat):
    a, b, c, d, e = vp_parts(s, p, seat)
    return a + b + c + d + e
