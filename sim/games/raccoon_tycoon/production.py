"""The production action after its card's tokens are taken (RULES.md, production): the Trading Floor, the bonus
building, the card's price rises, the storage limit, then the end of the turn."""

import numba as nb
import numpy as np

from sim.events import log_event
from sim.kernel import one_copy
from sim.toolkit import put

from . import params as P
from .actions import card_of, taken
from .components import bonus_amount, owns, storage_cap, total_hold
from .state import (
    BT_TRADINGFLOOR,
    E_BONUS,
    E_DISCARD,
    E_PRICE,
    E_PROD,
    N_BASIC_BT,
    NC,
    PH_BONUS,
    PH_BONUS_ANY,
    PH_DISCARD,
    PH_TF_TARGET,
)
from .turn import end_turn, refill_hand


@nb.njit(cache=True, _nrt=False)
def after_take(s, p):
    """Production after the card's tokens are taken: Trading Floor, then the bonus building."""
    seat = s.cur
    if owns(s, seat, BT_TRADINGFLOOR):
        for o in range(s.n):
            if o == seat:
                continue
            for c in range(NC):
                if s.hold[o, c] > 0 and s.price[c] <= s.money[seat]:
                    s.phase = PH_TF_TARGET
                    return
    bonus_stage(s, p)


@one_copy(_nrt=False)
def give_tokens(s, p, seat, c, q):
    """Give up to q tokens of c from the supply; returns how many were given."""
    if p[P.P_SUPPLY_LIMIT] == 1:
        q = min(q, np.int64(s.supply[c]))
    if q > 0:
        s.hold[seat, c] += q
        s.supply[c] -= q
    return q


@nb.njit(cache=True, _nrt=False)
def bonus_stage(s, p):
    seat = s.cur
    k = 0
    only = -1
    for i in range(s.n_btile):
        t = s.btile[i]
        if s.tile_owner[t] == seat:
            k += 1
            only = t
    if k == 0:
        price_stage(s, p)
    elif k == 1:
        use_bonus(s, p, only)
    else:
        s.phase = PH_BONUS


@nb.njit(cache=True, _nrt=False)
def any_supply(s, p):
    if p[P.P_SUPPLY_LIMIT] == 0:
        return True
    for c in range(NC):
        if s.supply[c] > 0:
            return True
    return False


@one_copy(_nrt=False)
def use_bonus(s, p, t):
    seat = s.cur
    bt = s.tile_type[t]
    amt = bonus_amount(s, p, t)
    if bt < N_BASIC_BT:
        got = give_tokens(s, p, seat, bt, amt)
        log_event(s, E_BONUS, seat, t, bt, got)
        price_stage(s, p)
    else:
        s.bonus_left = amt
        if s.bonus_left > 0 and any_supply(s, p):
            s.phase = PH_BONUS_ANY
        else:
            price_stage(s, p)


@nb.njit(cache=True, _nrt=False)
def price_stage(s, p):
    card = s.prod_card
    for c in range(NC):
        r = s.pp_price[card, c]
        if r > 0:
            s.price[c] = min(s.price[c] + r, s.pmax[c])
            log_event(s, E_PRICE, c, r, s.price[c], 0)
    storage_stage(s, p)


@nb.njit(cache=True, _nrt=False)
def storage_stage(s, p):
    seat = s.cur
    excess = total_hold(s, seat) - storage_cap(s, p, seat)
    if excess > 0:
        kinds = 0
        last = -1
        for c in range(NC):
            if s.hold[seat, c] > 0:
                kinds += 1
                last = c
        if kinds == 1:
            discard(s, seat, last, excess)
        else:
            s.phase = PH_DISCARD
            return
    _end_production(s, p)


@one_copy(_nrt=False)
def discard(s, seat, c, q):
    s.hold[seat, c] -= q
    s.supply[c] += q
    log_event(s, E_DISCARD, seat, c, q, 0)


@nb.njit(cache=True, _nrt=False)
def _end_production(s, p):
    seat = s.cur
    if p[P.P_REFILL] == 0:
        refill_hand(s, p, seat)
    s.prod_card = -1
    end_turn(s, p)


@nb.njit(cache=True, _nrt=False)
def produce(s, p, seat, a):
    """seat plays the P&P card of production action a and takes its tokens; the stages after follow."""
    card = card_of(a)
    for h in range(s.hand_n[seat]):
        if s.hand[seat, h] == card:
            s.hand_n[seat] -= 1
            s.hand[seat, h] = s.hand[seat, s.hand_n[seat]]
            break
    s.disc_n = put(s.disc, s.disc_n, card)
    s.prod_card = card
    s.n_prod[seat] += 1
    for c in range(NC):
        x = taken(a, c)
        if x > 0:
            give_tokens(s, p, seat, c, x)
    log_event(s, E_PROD, seat, card, a, 0)  # the action: text.py words what it takes
    after_take(s, p)
