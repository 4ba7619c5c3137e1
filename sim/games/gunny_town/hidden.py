"""What a Gunny Town seat cannot see, re-sampled for the search player (sim/search.py; issue 24).

Hidden (state.HIDDEN_FIELDS): the other seats' ammunition cards and the order of the ammunition deck (re-dealt
together from the same cards: every hand keeps its size), the challenger's face-down card while the seat is the
defender choosing its own (dealt from the same pool), the other seats' secret missions that have no progress yet
(re-dealt with the secret deck), the order of the chest deck, and the order of the mission deck within each tier.
Public and kept: positions, gold, VP, weapons, horses, jobs, stores, discards, face-up missions, hand sizes. Not
modelled: which missions of each tier were drawn into the deck at setup (kept), a secret mission with progress
(kept: its progress counters belong to that card), and what play reveals about hands."""

import numba as nb
import numpy as np

from sim.rng import rand_below

from .params import MTIER
from .state import N_AMMO_TYPES, PH_DCARD


@nb.njit(cache=True, _nrt=False)
def determinize(s, p, seat):
    """Re-sample what `seat` cannot see in s, drawing from chance stream 0 of s.  Returns the cards re-dealt."""
    # ammunition: the opponents' cards (and a hidden face-down card) go on the deck, the deck is shuffled, and
    # every hand is dealt back its size from the top (the deck's end)
    n0 = s.n_adeck
    sizes = np.uint64(0)  # 8 bits per seat: no scratch array
    for j in range(s.n):
        if j != seat:
            k = 0
            for c in range(N_AMMO_TYPES):
                for _ in range(s.hand[j, c]):
                    s.adeck[s.n_adeck] = c
                    s.n_adeck += 1
                k += s.hand[j, c]
                s.hand[j, c] = 0
            sizes |= np.uint64(k) << np.uint64(8 * j)
    ccard = s.phase == PH_DCARD and seat == s.d_t and s.d_ccard >= 0
    if ccard:
        s.adeck[s.n_adeck] = s.d_ccard
        s.n_adeck += 1
    pool = s.n_adeck
    for i in range(s.n_adeck - 1, 0, -1):
        k = rand_below(s.rng, 0, i + 1)
        s.adeck[i], s.adeck[k] = s.adeck[k], s.adeck[i]
    if ccard:
        s.n_adeck -= 1
        s.d_ccard = s.adeck[s.n_adeck]
    for j in range(s.n):
        if j != seat:
            for _ in range(np.int64((sizes >> np.uint64(8 * j)) & np.uint64(255))):
                s.n_adeck -= 1
                s.hand[j, s.adeck[s.n_adeck]] += 1
    # secret missions: the deck and the opponents' unprogressed secrets are one pool (virtual slots, swapped)
    total = s.n_sdeck
    for j in range(s.n):
        if _secret_hidden(s, seat, j):
            total += 1
    for i in range(total - 1, 0, -1):
        k = rand_below(s.rng, 0, i + 1)
        if k != i:
            a = _secret_slot(s, seat, i)
            b = _secret_slot(s, seat, k)
            x = s.sdeck[i] if a < 0 else s.secret[a]
            y = s.sdeck[k] if b < 0 else s.secret[b]
            if a < 0:
                s.sdeck[i] = y
            else:
                s.secret[a] = y
            if b < 0:
                s.sdeck[k] = x
            else:
                s.secret[b] = x
    for i in range(s.n_cdeck - 1, 0, -1):
        k = rand_below(s.rng, 0, i + 1)
        s.cdeck[i], s.cdeck[k] = s.cdeck[k], s.cdeck[i]
    i = 0
    while i < s.n_mdeck:  # the mission deck is stacked by tier: shuffle within each tier's run
        j = i
        while j + 1 < s.n_mdeck and MTIER[s.mdeck[j + 1]] == MTIER[s.mdeck[i]]:
            j += 1
        for a in range(j, i, -1):
            b = i + rand_below(s.rng, 0, a - i + 1)
            s.mdeck[a], s.mdeck[b] = s.mdeck[b], s.mdeck[a]
        i = j + 1
    return pool - n0


@nb.njit(cache=True, _nrt=False, inline="always")
def _secret_hidden(s, seat, j):
    return j != seat and s.secret[j] >= 0 and s.sprog[j, 0] == 0 and s.sprog[j, 1] == 0


@nb.njit(cache=True, _nrt=False)
def _secret_slot(s, seat, v):
    """Virtual slot v of the secret pool: -1 for the deck (index v), else the opponent holding slot v."""
    if v < s.n_sdeck:
        return -1
    v -= s.n_sdeck
    for j in range(s.n):
        if _secret_hidden(s, seat, j):
            if v == 0:
                return j
            v -= 1
    return -1
