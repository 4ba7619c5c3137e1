"""What a Cold Comfort seat cannot see, re-sampled for the search player (sim/search.py; issue 24).

Hidden: only the order of the undrawn city deck (deck[deck_pos:]).  Everything else is public: the map, the
hotels, the campers and their dice, gold, the drawn tiles.  determinize shuffles the undrawn tiles; the rollouts'
later dice are new draws of the re-seeded chance stream."""

import numba as nb

from sim.rng import rand_below

from .params import N_DECK


@nb.njit(cache=True, _nrt=False)
def determinize(s, p, seat):
    """Shuffle the undrawn city tiles of s, drawing from chance stream 0 of s.  Returns how many."""
    lo = s.deck_pos
    for i in range(N_DECK - 1, lo, -1):
        k = lo + rand_below(s.rng, 0, i - lo + 1)
        s.deck[i], s.deck[k] = s.deck[k], s.deck[i]
    return N_DECK - lo
