"""determinize(s, p, seat): what the seat cannot see, re-sampled for the search player (sim/search.py).

The search player copies the true state for its rollouts; before each one it calls this to re-deal everything the
deciding seat could not know (other seats' hands, deck orders, hidden roles), consistently with what it has seen,
drawing from chance stream 0 of s (rand_below(s.rng, 0, n)).  It must keep every public field and conserve every
component (a test per game checks both).  A game without this module has a search player that reads hidden
information (sees_hidden=True).

Pig hides nothing (scores and the turn total are public; the future dice are re-seeded by the search), so there is
nothing to re-sample: its search player does not peek."""

import numba as nb


@nb.njit(cache=True)
def determinize(s, p, seat):
    return 0
