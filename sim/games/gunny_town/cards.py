"""Gunny Town's decks and hands: drawing with a reshuffle of the discards (sim.toolkit refill/put), discarding.

The ammunition deck (AMMO_BUF room), the chest deck and the secret-mission deck: each is drawn from its end and
refilled from its discards, shuffled with the chance stream, when it runs out.
"""

import numba as nb

from sim.kernel import one_copy
from sim.toolkit import put, refill

from .params import P_HAND_MAX
from .queries import hand_size, int_param
from .state import DISCARD_ORDER, N_AMMO_TYPES


@one_copy(_nrt=False)
def draw_ammo(s, p, pl, k):
    """Draw up to k ammunition cards into pl's hand (never beyond the hand limit); returns cards drawn."""
    got = 0
    for _ in range(k):
        if hand_size(s, pl) >= int_param(p, P_HAND_MAX):
            break
        c = draw_ammo_card(s)
        if c < 0:
            break
        s.hand[pl, c] += 1
        got += 1
    return got


@nb.njit(cache=True, _nrt=False)
def draw_ammo_card(s):
    """The top ammunition card (the discards reshuffled first if the deck is empty); -1 if there is none."""
    if s.n_adeck == 0:
        s.n_adeck = refill(s.rng, s.adeck, s.adisc, s.n_adisc)
        s.n_adisc = 0
    if s.n_adeck == 0:
        return -1
    s.n_adeck -= 1
    return s.adeck[s.n_adeck]


@one_copy(_nrt=False)
def discard_ammo(s, c):
    s.n_adisc = put(s.adisc, s.n_adisc, c)


@one_copy(_nrt=False)
def use_card(s, pl, c):
    """pl plays or discards one card of type c from his hand (counts as 'used ammunition')."""
    s.hand[pl, c] -= 1
    discard_ammo(s, c)
    s.ammo_used[pl] += 1


@nb.njit(cache=True, _nrt=False)
def cheapest_card(s, pl):
    """The card an automated discard gives up: the least useful pl holds (DISCARD_ORDER); -1 for an empty hand."""
    for i in range(N_AMMO_TYPES):
        c = DISCARD_ORDER[i]
        if s.hand[pl, c] > 0:
            return c
    return -1


@one_copy(_nrt=False)
def draw_secret(s, pl):
    """pl draws a secret mission (none if the deck and its discards are empty), its progress reset."""
    if s.n_sdeck == 0:
        s.n_sdeck = refill(s.rng, s.sdeck, s.sdisc, s.n_sdisc)
        s.n_sdisc = 0
    if s.n_sdeck == 0:
        s.secret[pl] = -1
        return
    s.n_sdeck -= 1
    s.secret[pl] = s.sdeck[s.n_sdeck]
    s.sprog[pl, 0] = 0
    s.sprog[pl, 1] = 0


@nb.njit(cache=True, _nrt=False)
def draw_chest(s):
    """The top chest card, put on the chest discards at once (the discards reshuffled first if the deck is empty);
    -1 if there is none."""
    if s.n_cdeck == 0:
        s.n_cdeck = refill(s.rng, s.cdeck, s.cdisc, s.n_cdisc)
        s.n_cdisc = 0
    if s.n_cdeck == 0:
        return -1
    s.n_cdeck -= 1
    c = s.cdeck[s.n_cdeck]
    s.n_cdisc = put(s.cdisc, s.n_cdisc, c)
    return c
