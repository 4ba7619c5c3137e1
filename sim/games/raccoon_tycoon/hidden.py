"""What a Raccoon Tycoon seat cannot see, re-sampled for the search player (sim/search.py; issue 24).

Hidden: the other seats' P&P hands and the order of the P&P draw deck (re-dealt together from the same cards:
every hand keeps its size, the deck its size), the order of the railroad deck, the order of the face-down town
deck within each VP value (its VP order is public) and the order of the building stack.  Public and kept: money
(see RULES.md: it can be tracked from play), holdings, prices, the discards, every offer and owner.  Not
modelled: with 2 players, which town of each VP value was removed (the drawn order is re-sampled among those
left)."""

import numba as nb

from sim.rng import rand_below

from .engine import town_vp


@nb.njit(cache=True, _nrt=False)
def _shuffle_i8(s, arr, n):
    for i in range(n - 1, 0, -1):
        j = rand_below(s.rng, 0, i + 1)
        arr[i], arr[j] = arr[j], arr[i]


@nb.njit(cache=True, _nrt=False)
def determinize(s, p, seat):
    """Re-sample what `seat` cannot see in s, drawing from chance stream 0 of s.  Returns 0."""
    # P&P cards: the deck and the opponents' hands are one pool; shuffle it in place by swapping slot contents
    # through a virtual index (deck slots first, then each opponent's hand slots), so no scratch array is needed
    total = s.deck_n
    for j in range(s.n):
        if j != seat:
            total += s.hand_n[j]
    for i in range(total - 1, 0, -1):
        k = rand_below(s.rng, 0, i + 1)
        if k != i:
            ai, bi = _slot(s, seat, i)
            ak, bk = _slot(s, seat, k)
            x = s.deck[bi] if ai < 0 else s.hand[ai, bi]
            y = s.deck[bk] if ak < 0 else s.hand[ak, bk]
            if ai < 0:
                s.deck[bi] = y
            else:
                s.hand[ai, bi] = y
            if ak < 0:
                s.deck[bk] = x
            else:
                s.hand[ak, bk] = x
    _shuffle_i8(s, s.rr_deck, s.rr_n)
    _shuffle_i8(s, s.bld_stack, s.bld_n)
    # towns: shuffled within each run of equal VP (the deck is VP-ordered)
    i = 0
    while i < s.town_n:
        j = i
        while j + 1 < s.town_n and town_vp(p, s.town_deck[j + 1]) == town_vp(p, s.town_deck[i]):
            j += 1
        for a in range(j, i, -1):
            b = i + rand_below(s.rng, 0, a - i + 1)
            s.town_deck[a], s.town_deck[b] = s.town_deck[b], s.town_deck[a]
        i = j + 1
    return 0


@nb.njit(cache=True, _nrt=False)
def _slot(s, seat, v):
    """(owner, index) of virtual pool slot v: owner -1 = the deck, else an opponent's hand."""
    if v < s.deck_n:
        return -1, v
    v -= s.deck_n
    for j in range(s.n):
        if j != seat:
            if v < s.hand_n[j]:
                return j, v
            v -= s.hand_n[j]
    return -1, 0
