"""Placeholder scripted strategy for BANG! The Dice Game (the real heuristics come later).

choose(s, p, seat, legal, n, sid, weights) -> index into legal[:n].  sid 1 = "simple": one plain rule per
decision kind (see engine.py's docstring for the decision kinds and the state fields).  It reads hidden roles
(sees_hidden=True) only to avoid shooting its own team; a belief-based bot should use role_known and the
public counters instead.
"""
import numba as nb

from sim.games.bang_dice.engine import (
    act_kind, act_arg, D_GOOD, D_UGLY, D_SID, D_SALOON, D_DOC, D_ELENA, D_ARROW, D_BROKEN, D_REROLL, D_GAMBLER,
    D_BE, D_SLAB, D_BEER, D_KIT, D_BART, D_MOLLY, D_LEFT, D_BAD, D_JUDGE, D_RIGHT, D_GHOST,
    ARROW, DYN, GAT, GATX2, SHERIFF, DEPUTY, OUTLAW, RENEGADE, role_team)


@nb.njit(cache=True)
def _enemy(s, me, t):
    """1 if seat t is an enemy of seat me (simple omniscient team test)."""
    if t == me:
        return 0
    tm = role_team(s, me)
    tt = role_team(s, t)
    if s.three == 1:
        return 1
    if tm == RENEGADE:
        # renegade: hunt everyone but the Sheriff while others live
        return 0 if s.role[t] == SHERIFF else 1
    if tm == DEPUTY:
        return 1 if (tt == OUTLAW or tt == RENEGADE) else 0
    return 1 if tt == DEPUTY else 0


@nb.njit(cache=True)
def choose(s, p, seat, legal, n, sid, weights):
    k = act_kind(legal[0])
    best = 0
    bestv = -1e9
    for i in range(n):
        x = act_arg(legal[i])
        v = 0.0
        if k == D_REROLL:
            # re-roll every die that is not a Gatling; stop when nothing to gain
            m = 0
            for d in range(s.nd):
                f = s.face[d]
                if f != GAT and f != GATX2 and f != DYN:
                    m |= 1 << d
            v = 1.0 if x == m else (0.5 if x == 0 else 0.0)
        elif k == D_BE or k == D_SLAB or k == D_KIT:
            t = x - (0 if k == D_BE else 1)
            if 0 <= t < s.n:
                v = _enemy(s, seat, t) * 10.0 - s.life[t] * 0.1
                if k == D_KIT:
                    v = (1 - _enemy(s, seat, t)) * 10.0 + s.arrows[t]
            else:
                v = 0.5
        elif k == D_BEER or k == D_SID:
            t = x
            v = (1 - _enemy(s, seat, t)) * 10.0 + (s.max_life[t] - s.life[t])
        elif k == D_BART:
            v = x
        elif k == D_MOLLY:
            v = -x
        elif k == D_ARROW:
            v = -x
        elif k == D_SALOON:
            v = 1.0 if x == 0 else 0.0
        elif k == D_LEFT or k == D_BAD or k == D_JUDGE or k == D_GAMBLER or k == D_RIGHT or k == D_GOOD:
            v = x
        else:
            v = 1.0 if i == 0 else 0.0
        if v > bestv:
            bestv = v
            best = i
    return best
