"""The game's scripted strategies: one jitted choose() for all of them, dispatched by strategy id (sid).

choose(s, p, seat, legal, n, sid, weights) returns an index into legal[:n].  It runs once per decision compiled
without reference counting, so it must not allocate arrays.  A strategy that reads what its seat could not see
(another seat's hand, a hidden role) must say so with StrategySpec(..., sees_hidden=True).
"""
import numba as nb


@nb.njit(cache=True)
def choose(s, p, seat, legal, n, sid, weights):
    # sid 1: hold once the turn total reaches weights[0]; legal is (ROLL, HOLD)
    return 1 if s.pot >= weights[0] else 0
