"""What a Saloon Tycoon seat cannot see, re-sampled for the search player (sim/search.py; issue 24).

Hidden: the other seats' Tycoon cards and the order of the Tycoon deck (re-dealt together from the same cards:
every hand keeps its size), and the other seats' secret claims still in hand (dealt or kept: re-dealt among those
same slots, each keeping its state).  Public and kept: the board, tiles, cubes, gold, characters, open claims,
scored secret claims, the discards.  Not modelled: that a held secret claim could be any claim not yet seen
(the ones never dealt or dropped are not mixed in), and what play reveals about hands and claims."""

import numba as nb
import numpy as np

from sim.rng import rand_below, shuffle

from .params import MAX_CARD_TYPES
from .state import MAX_SEC_HAND, SEC_DEALT, SEC_KEPT


@nb.njit(cache=True, inline="always")
def _sec_hidden(s, seat, j, k):
    return j != seat and k < s.sec_n[j] and (s.sec_state[j, k] == SEC_DEALT or s.sec_state[j, k] == SEC_KEPT)


@nb.njit(cache=True)
def _sec_slot(s, seat, v):
    """Seat and slot of the v-th hidden secret claim."""
    for j in range(s.n):
        for k in range(MAX_SEC_HAND):
            if _sec_hidden(s, seat, j, k):
                if v == 0:
                    return j, k
                v -= 1
    return -1, -1


@nb.njit(cache=True)
def determinize(s, p, seat):
    """Re-sample what `seat` cannot see in s, drawing from chance stream 0 of s.  Returns the cards re-dealt."""
    # Tycoon cards: the opponents' cards go on the deck, the deck is shuffled, every hand is dealt back its size
    n0 = s.deck_n
    for j in range(s.n):
        if j != seat:
            for c in range(MAX_CARD_TYPES):
                for _ in range(s.hand[j, c]):
                    s.deck[s.deck_n] = c
                    s.deck_n += 1
                s.hand[j, c] = 0
    pool = s.deck_n
    shuffle(s.rng, 0, s.deck, s.deck_n)
    for j in range(s.n):
        if j != seat:
            for _ in range(np.int64(s.hand_n[j])):
                s.deck_n -= 1
                s.hand[j, s.deck[s.deck_n]] += 1
    # secret claims in the opponents' hands: permuted among their slots
    m = 0
    for j in range(s.n):
        for k in range(MAX_SEC_HAND):
            if _sec_hidden(s, seat, j, k):
                m += 1
    for i in range(m - 1, 0, -1):
        a0, a1 = _sec_slot(s, seat, i)
        b0, b1 = _sec_slot(s, seat, rand_below(s.rng, 0, i + 1))
        s.sec[a0, a1], s.sec[b0, b1] = s.sec[b0, b1], s.sec[a0, a1]
    return pool - n0
