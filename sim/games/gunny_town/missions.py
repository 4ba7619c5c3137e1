"""Gunny Town's missions (RULES.md "Missions"): progress, completion, and the face-up row's refill.

Every mission event a player causes (a hit, a purchase, a robbery...) is credited to the face-up missions and to his
secret mission; a mission is claimed automatically the moment its requirement is met, best VP first, at most
limits.missions_per_turn per player per turn.
"""

import numba as nb

from sim.events import log_event
from sim.kernel import one_copy
from sim.toolkit import put

from .cards import draw_secret
from .outcome import record_item
from .params import (
    C_BECOME,
    C_BUY,
    C_BUY_STORE,
    C_GIVE,
    C_HIT_DISTINCT,
    C_HIT_JOB,
    C_HIT_NEXT,
    C_KILL_JOB,
    C_NONE,
    C_OWN_STORES,
    C_ROB,
    C_USE_AMMO,
    MCOMP,
    MTIER,
    P_FACE_UP,
    P_HIT_DISTINCT_CAP,
    P_SECRET_ANYTIME,
    P_SECRET_IN_LIMIT,
    P_VP_TARGET,
    SCOMP,
)
from .queries import (
    int_param,
    mission_gn,
    mission_vp,
    missions_left,
    neighbour,
    secret_gn,
    secret_vp,
    stores_owned,
)
from .state import (
    E_MISSION,
    E_REFILL,
    E_SECRET,
    END_MISSIONS,
    END_VP,
    IT_MISSION,
    IT_SECRET,
    MAX_PLAYERS,
    MISSION_SLOTS,
)

VP_FIRST = 100  # claim order: VP first, then GN (no reward reaches 100 GN)


@one_copy(_nrt=False)
def _progress(kind, cmask, prog, x):
    """New progress of one component of kind `kind` (card argument cmask) for an event with argument x;
    returns -1 when the event does not match."""
    if kind == C_BECOME or kind == C_HIT_JOB or kind == C_KILL_JOB:
        if x >= 0 and ((cmask >> x) & 1):
            return prog + 1
        if kind == C_KILL_JOB and x >= 0:
            return prog + 1
        return -1
    if kind == C_BUY or kind == C_ROB:
        if (cmask >> x) & 1:
            return prog + 1
        return -1
    if kind == C_BUY_STORE:
        return prog + 1 if x == cmask else -1
    if kind == C_HIT_DISTINCT:
        return prog | (1 << x)
    return prog + 1


@one_copy(_nrt=False)
def credit(s, p, pl, kind, x):
    """Event `kind` (argument x) by pl: add progress on every face-up mission and pl's secret mission."""
    if kind == C_HIT_NEXT:
        if x != neighbour(s, p, pl):
            return
    for k in range(MISSION_SLOTS):
        m = s.face[k]
        if m < 0:
            continue
        for c in range(2):
            if MCOMP[m, c, 0] == kind:
                v = _progress(kind, MCOMP[m, c, 1], s.mprog[pl, k, c], x)
                if v >= 0:
                    s.mprog[pl, k, c] = v
    sc = s.secret[pl]
    if sc >= 0 and (s.job[pl] < 0 or int_param(p, P_SECRET_ANYTIME) == 1):
        for c in range(2):
            if SCOMP[sc, c, 0] == kind:
                v = _progress(kind, SCOMP[sc, c, 1], s.sprog[pl, c], x)
                if v >= 0:
                    s.sprog[pl, c] = v


@nb.njit(cache=True, _nrt=False)
def _popcount(x):
    k = 0
    while x:
        k += x & 1
        x >>= 1
    return k


@nb.njit(cache=True, _nrt=False)
def _comp_done(s, p, pl, kind, cnt, prog):
    if kind == C_NONE:
        return True
    if kind == C_USE_AMMO:
        return s.ammo_used[pl] >= cnt
    if kind == C_OWN_STORES:
        return stores_owned(s, pl) >= cnt
    if kind == C_GIVE:
        return False
    if kind == C_HIT_DISTINCT:
        if int_param(p, P_HIT_DISTINCT_CAP) == 1:
            cnt = min(cnt, s.n - 1)  # "hit 3 different players" with 2 opponents: hit both
        return _popcount(prog) >= cnt
    return prog >= cnt


@nb.njit(cache=True, _nrt=False)
def mission_ready(s, p, pl, k):
    m = s.face[k]
    if m < 0:
        return False
    return _comp_done(s, p, pl, MCOMP[m, 0, 0], MCOMP[m, 0, 2], s.mprog[pl, k, 0]) and _comp_done(
        s, p, pl, MCOMP[m, 1, 0], MCOMP[m, 1, 2], s.mprog[pl, k, 1]
    )


@nb.njit(cache=True, _nrt=False)
def secret_ready(s, p, pl):
    sc = s.secret[pl]
    if sc < 0 or (s.job[pl] >= 0 and int_param(p, P_SECRET_ANYTIME) == 0):
        return False
    return _comp_done(s, p, pl, SCOMP[sc, 0, 0], SCOMP[sc, 0, 2], s.sprog[pl, 0]) and _comp_done(
        s, p, pl, SCOMP[sc, 1, 0], SCOMP[sc, 1, 2], s.sprog[pl, 1]
    )


@one_copy(_nrt=False)
def complete_mission(s, p, pl, k):
    m = s.face[k]
    gn = mission_gn(p, m)
    vp = mission_vp(p, m)
    s.face[k] = -1
    s.gold[pl] += gn
    s.vp[pl] += vp
    s.vp_mis[pl] += vp
    s.n_missions[pl] += 1
    s.missions_turn[pl] += 1
    record_item(s, pl, IT_MISSION + m)
    log_event(s, E_MISSION, pl, m, vp, gn)
    if s.vp[pl] >= int_param(p, P_VP_TARGET) and s.end_trig == 0:
        s.end_trig = END_VP


@nb.njit(cache=True, _nrt=False)
def complete_secret(s, p, pl):
    sc = s.secret[pl]
    gn = secret_gn(p, sc)
    vp = secret_vp(p, sc)
    s.gold[pl] += gn
    s.vp[pl] += vp
    s.vp_sec[pl] += vp
    s.n_secret[pl] += 1
    if int_param(p, P_SECRET_IN_LIMIT) == 1:
        s.missions_turn[pl] += 1
    s.n_sdisc = put(s.sdisc, s.n_sdisc, sc)
    s.secret[pl] = -1
    record_item(s, pl, IT_SECRET + sc)
    log_event(s, E_SECRET, pl, sc, vp, gn)
    if s.job[pl] < 0:
        draw_secret(s, pl)
    if s.vp[pl] >= int_param(p, P_VP_TARGET) and s.end_trig == 0:
        s.end_trig = END_VP


@nb.njit(cache=True, _nrt=False)
def claim(s, p, pl):
    """Claim every mission pl now satisfies, most VP first, within the per-turn limit."""
    while True:
        in_limit = missions_left(s, p, pl) > 0
        best_k = -1
        best_v = -1
        if in_limit:
            for k in range(MISSION_SLOTS):
                if mission_ready(s, p, pl, k):
                    m = s.face[k]
                    v = VP_FIRST * mission_vp(p, m) + mission_gn(p, m)
                    if v > best_v:
                        best_v = v
                        best_k = k
        sec_ok = (in_limit or int_param(p, P_SECRET_IN_LIMIT) == 0) and secret_ready(s, p, pl)
        if sec_ok:
            sc = s.secret[pl]
            v = VP_FIRST * secret_vp(p, sc) + secret_gn(p, sc)
            if v > best_v:
                complete_secret(s, p, pl)
                continue
        if best_k >= 0:
            complete_mission(s, p, pl, best_k)
            continue
        break


@nb.njit(cache=True, _nrt=False)
def refill_missions(s, p):
    for k in range(int_param(p, P_FACE_UP)):
        if s.face[k] < 0 and s.n_mdeck > 0:
            s.n_mdeck -= 1
            s.face[k] = s.mdeck[s.n_mdeck]
            for pl in range(MAX_PLAYERS):
                s.mprog[pl, k, 0] = 0
                s.mprog[pl, k, 1] = 0
            log_event(s, E_REFILL, k, s.face[k], MTIER[s.face[k]], s.n_mdeck)
    active = 0
    for k in range(int_param(p, P_FACE_UP)):
        if s.face[k] >= 0:
            active += 1
    if active < int_param(p, P_FACE_UP) and s.end_trig == 0:
        s.end_trig = END_MISSIONS
