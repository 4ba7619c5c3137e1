"""Gunny Town's life points, jail and job badges (RULES.md "Turn", "Life and jail", T "Life Points", "Jobs").

A player at 0 LP goes to jail: he loses his badge, his horse and some VP, and skips his next turn; whoever put him
there scores the kill.  A badge changes hands at its location, in a duel or by a bribe.
"""

import numba as nb

from sim.events import log_event
from sim.kernel import one_copy

from .cards import draw_secret
from .missions import credit
from .outcome import record_item
from .params import (
    C_BECOME,
    C_KILL,
    C_KILL_JOB,
    J_UNDERTAKER,
    L_JAIL,
    LOC_SQ,
    P_JAIL_VP,
    P_LP_MAX,
    P_UNDERTAKER_BONUS,
    P_UNDERTAKER_SELF,
)
from .queries import int_param
from .state import E_JAIL, E_LOSE_JOB, E_LP, E_TAKE_JOB, E_UNDERTAKER, IT_JOB


@one_copy(_nrt=False)
def give_job(s, p, pl, j):
    """pl takes badge j (returning his own, G17); 'become' events for missions."""
    if s.job[pl] >= 0:
        s.job_holder[s.job[pl]] = -1
    s.job[pl] = j
    s.job_holder[j] = pl
    s.jobs_taken[pl] += 1
    record_item(s, pl, IT_JOB + j)
    log_event(s, E_TAKE_JOB, pl, j, 0, 0)
    credit(s, p, pl, C_BECOME, j)


@nb.njit(cache=True, _nrt=False)
def drop_job(s, pl):
    """pl loses his badge (it returns to the board); a jobless player holds a secret mission again."""
    j = s.job[pl]
    if j >= 0:
        s.job_holder[j] = -1
        s.job[pl] = -1
        log_event(s, E_LOSE_JOB, pl, j, 0, 0)
        if s.secret[pl] < 0:
            draw_secret(s, pl)


@one_copy(_nrt=False)
def gain_lp(s, p, pl, k):
    """pl gains up to k LP (never above limits.lp_max); returns the LP gained."""
    before = s.lp[pl]
    s.lp[pl] = min(int_param(p, P_LP_MAX), s.lp[pl] + k)
    return s.lp[pl] - before


@one_copy(_nrt=False)
def lose_lp(s, p, pl, k, by):
    """pl loses k LP; at 0 he goes to jail (by = the player who caused it, -1 none).  Returns True if jailed."""
    s.lp[pl] -= k
    log_event(s, E_LP, pl, -k, s.lp[pl], 0)
    if s.lp[pl] <= 0:
        go_to_jail(s, p, pl, by)
        return True
    return False


@nb.njit(cache=True, _nrt=False)
def go_to_jail(s, p, pl, by):
    """pl has no LP left (RULES.md "Life and jail"): jail, the Undertaker's bonus, the killer's mission credit."""
    victim_job = s.job[pl]
    s.lp[pl] = 0
    u = s.job_holder[J_UNDERTAKER]
    if u >= 0 and (u != pl or int_param(p, P_UNDERTAKER_SELF) == 1):
        s.gold[u] += int_param(p, P_UNDERTAKER_BONUS)
        log_event(s, E_UNDERTAKER, u, int_param(p, P_UNDERTAKER_BONUS), pl, 0)
    s.pos[pl] = LOC_SQ[L_JAIL]
    s.skip[pl] = 1
    s.jail_visits[pl] += 1
    drop_job(s, pl)
    s.horse[pl] = 0
    loss = min(s.vp[pl], int_param(p, P_JAIL_VP))
    s.vp[pl] -= loss
    log_event(s, E_JAIL, pl, by, loss, 0)
    if pl == s.cur:
        s.turn_over = 1
    if by >= 0 and by != pl:
        credit(s, p, by, C_KILL, 0)
        if victim_job >= 0:
            credit(s, p, by, C_KILL_JOB, victim_job)
