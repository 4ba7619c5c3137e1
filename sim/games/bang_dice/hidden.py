"""What a BANG! seat cannot see, re-sampled for the search player (sim/search.py; issue 24).

Hidden: the role (and dealt role, and special role) of every other living seat whose role is not public, i.e. not
the Sheriff, not role_known (3-player game, dead players, revealed special roles, the old Sheriff after The Good),
and whose special role is unrevealed.  Everything else (characters, life, arrows, dice, the belief counters) is
public.  determinize deals those seats' (role, dealt role, special role) triples again in a uniformly random
order: the roles in play are conserved and every public fact is kept.  Not modelled: what the seat could infer
from play (the `belief` strategy's counters would weight the deal), and that the set of special roles in play is
itself hidden (with module 3 on, the triples keep the specials that were dealt)."""

import numba as nb

from sim.rng import rand_below


@nb.njit(cache=True, inline="always")
def _hidden(s, seat, i):
    return i != seat and i != s.sheriff and s.role_known[i] == 0 and s.special_state[i] == 0


@nb.njit(cache=True)
def _nth_hidden(s, seat, j):
    """The j-th hidden seat (at most 8 seats: a scan costs less than a scratch array would)."""
    for i in range(s.n):
        if _hidden(s, seat, i):
            if j == 0:
                return i
            j -= 1
    return -1


@nb.njit(cache=True)
def determinize(s, p, seat):
    """Re-deal the hidden roles of s as seen by `seat`, drawing from chance stream 0 of s.  Returns how many
    seats' roles were re-dealt."""
    m = 0
    for i in range(s.n):
        if _hidden(s, seat, i):
            m += 1
    for j in range(m - 1, 0, -1):  # Fisher-Yates over the hidden seats' triples
        a = _nth_hidden(s, seat, j)
        b = _nth_hidden(s, seat, rand_below(s.rng, 0, j + 1))
        if a != b:
            s.role[a], s.role[b] = s.role[b], s.role[a]
            s.role0[a], s.role0[b] = s.role0[b], s.role0[a]
            s.special[a], s.special[b] = s.special[b], s.special[a]
    return m
