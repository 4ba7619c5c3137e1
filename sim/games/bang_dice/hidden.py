"""What a BANG! seat cannot see, re-sampled for the search player (sim/search.py; issue 24).

Hidden: the role (and dealt role, and special role) of every other living seat whose role is not public, i.e. not
the Sheriff, not role_known (3-player game, dead players, revealed special roles, the old Sheriff after The Good),
and whose special role is unrevealed.  Everything else (characters, life, arrows, dice, the belief counters) is
public.  determinize deals those seats' (role, dealt role, special role) triples again: the roles in play are
conserved and every public fact is kept.  The deal is weighted by what the seat has seen (`role_evidence`: who
damaged or healed the Sheriff and the seats whose roles it knows), the same evidence the `belief` strategy reads:
the hidden seats are visited in a random order and each draws one of the triples left with probability
proportional to how well its role fits that seat's evidence (`ROLE_DEAL_SCALE` = 0 deals uniformly).  Not
modelled: that the set of special roles in play is itself hidden (with module 3 on, the triples keep the
specials that were dealt)."""

import numba as nb
import numpy as np

from sim.rng import rand_below, rand_float

from .state import DEPUTY, MAX_PLAYERS, OUTLAW, RENEGADE

# How strongly evidence tilts the deal (assumed: the `belief` strategy's defaults, susp_dmg = susp_heal = 1,
# susp_scale = 0.7, so that the search's rollouts imagine the roles that its heuristic believes in).
EVIDENCE_DAMAGE = 1.0
EVIDENCE_HEAL = 1.0
ROLE_DEAL_SCALE = 0.7


@nb.njit(cache=True, _nrt=False)
def role_evidence(s, seat, t, damage, heal):
    """Public evidence, as `seat` sees it, that seat t is an Outlaw (> 0) or on the Sheriff's side (< 0): life it
    dealt to the Sheriff (x damage) less life it healed him (x heal), and half the damage weight for each hit on
    or heal of a seat whose role `seat` knows."""
    x = damage * s.dmg_to_sheriff[t] - heal * s.heal_to_sheriff[t]
    h = 0.5 * damage
    for v in range(s.n):
        if v == t or v == s.sheriff:
            continue
        if v == seat or s.role_known[v] == 1:
            r = s.role[v]
            if r == OUTLAW:
                x += h * (s.healed_by[t, v] - s.hit_by[t, v])
            elif r == DEPUTY:
                x += h * (s.hit_by[t, v] - s.healed_by[t, v])
    return x


@nb.njit(cache=True, _nrt=False)
def role_fit(role, x, scale):
    """How well `role` fits evidence x (a likelihood ratio; 1 when there is no evidence or scale is 0)."""
    up = 1.0 + scale * max(x, 0.0)
    dn = 1.0 + scale * max(-x, 0.0)
    if role == OUTLAW:
        return up / dn
    if role == DEPUTY:
        return dn / up
    if role == RENEGADE:
        return (1.0 + 0.5 * scale * max(-x, 0.0)) / (1.0 + 0.5 * scale * max(x, 0.0))
    return 1.0


@nb.njit(cache=True, inline="always")
def _hidden(s, seat, i):
    return i != seat and i != s.sheriff and s.role_known[i] == 0 and s.special_state[i] == 0


@nb.njit(cache=True)
def determinize(s, p, seat):
    """Re-deal the hidden roles of s as seen by `seat`, drawing from chance stream 0 of s.  Returns how many
    seats' roles were re-dealt."""
    seats = np.empty(MAX_PLAYERS, np.int64)
    role = np.empty(MAX_PLAYERS, np.int64)
    role0 = np.empty(MAX_PLAYERS, np.int64)
    special = np.empty(MAX_PLAYERS, np.int64)
    m = 0
    for i in range(s.n):
        if _hidden(s, seat, i):
            seats[m] = i
            role[m], role0[m], special[m] = s.role[i], s.role0[i], s.special[i]
            m += 1
    for j in range(m - 1, 0, -1):  # a random visiting order, so no seat is favoured by drawing first
        k = rand_below(s.rng, 0, j + 1)
        seats[j], seats[k] = seats[k], seats[j]
    left = m  # the triples role[:left] are still to be dealt
    for j in range(m):
        t = seats[j]
        x = role_evidence(s, seat, t, EVIDENCE_DAMAGE, EVIDENCE_HEAL)
        total = 0.0
        for q in range(left):
            total += role_fit(role[q], x, ROLE_DEAL_SCALE)
        u = rand_float(s.rng, 0) * total
        q = 0
        while q < left - 1:
            u -= role_fit(role[q], x, ROLE_DEAL_SCALE)
            if u <= 0.0:
                break
            q += 1
        s.role[t], s.role0[t], s.special[t] = role[q], role0[q], special[q]
        left -= 1
        role[q], role0[q], special[q] = role[left], role0[left], special[left]
    return m
