"""Gunny Town's location actions (RULES.md "Location actions"): badges, pickups, stores, the Armory and the Stables, the
extra move, chests, robberies, the Saloon bet and the judge.

A turn has one location action, before or after the move (loc_state); at one location it may be several of the
location's sub-actions (loc_done marks each one used).
"""

import numba as nb

from sim.events import log_event
from sim.kernel import one_copy

from .actions import (
    K_BET,
    K_BRIBE,
    K_BUY_HORSE,
    K_BUY_STORE,
    K_BUY_UNIT,
    K_BUY_WEAPON,
    K_CHEST,
    K_EXTRA,
    K_FREE_UNIT,
    K_PICK_AMMO,
    K_PICK_GN,
    K_ROB_BANK,
    K_ROB_SALOON,
    K_ROB_STORE,
    K_TAKE_JOB,
    K_TAKEOVER,
    amount_of,
    job_of,
    kind_of,
    part2_of,
    part_of,
    seat_of,
    store_of,
    weapon_of,
)
from .cards import cheapest_card, discard_ammo, draw_ammo, draw_ammo_card, draw_chest, use_card
from .life import drop_job, gain_lp, give_job, lose_lp
from .missions import credit
from .outcome import record_item
from .params import (
    BUY_HORSE,
    C_BRIBE,
    C_BUY,
    C_BUY_STORE,
    C_CASINO_WIN,
    C_ROB,
    J_BANKER,
    P_BANKER,
    P_BANKER_BONUS,
    P_BRIBE_COST,
    P_CASINO_GROSS,
    P_CASINO_MULT,
    P_CHEST,
    P_EXTRA_COST,
    P_EXTRA_SQ,
    P_EXTRA_USES_ACTION,
    P_HORSE_COST,
    P_MULTI_WEAPONS,
    P_ROB_BANK,
    P_ROB_SALOON,
    P_ROB_STORE,
    P_ROB_STORE_CARDS,
    P_STORE_MISSION_EXTRA,
    ROB_AT_BANK,
    ROB_AT_SALOON,
    ROB_AT_STORE,
    STORE_SELLS_LP,
)
from .queries import best_weapon_cost, int_param, removed, store_price, unit_price, weapon_cost
from .state import (
    B_AMMO,
    B_BANK,
    B_BET,
    B_BRIBE,
    B_CHEST,
    B_EXTRA,
    B_FREE,
    B_GN,
    B_HORSE,
    B_JOB,
    B_ROB,
    B_ROBSAL,
    B_STORE,
    B_TAKEOVER,
    B_UNIT,
    B_WEAPON,
    CHEST,
    E_BET,
    E_BRIBE,
    E_BUY_HORSE,
    E_BUY_STORE,
    E_BUY_UNIT,
    E_BUY_WEAPON,
    E_CHEST,
    E_EXTRA,
    E_FREE_UNIT,
    E_PICK_AMMO,
    E_PICK_GN,
    E_ROB,
    HEAD,
    IT_HORSE,
    IT_STORE,
    IT_WEAPON,
    LOC_CLOSED,
    LOC_OPEN,
    LOC_USED_AFTER_MOVE,
    LOC_USED_BEFORE_MOVE,
    PH_EXTRA,
    PH_PAIR,
    PH_PRE,
)

CHEST_FIELDS = 5  # each chest card's parameters are consecutive: lp, gn, ammo, weapon, horse (params.py)


@one_copy(_nrt=False)
def mark_location_used(s, bit):
    """A sub-action of the location is used: the turn's location action is taken, before or after the move."""
    s.loc_done |= bit
    if s.loc_state == LOC_OPEN:
        s.loc_state = LOC_USED_BEFORE_MOVE if s.phase == PH_PRE else LOC_USED_AFTER_MOVE


@nb.njit(cache=True, _nrt=False)
def open_chest(s, p, pl):
    """pl draws a chest card and takes what it gives (or loses the LP it costs)."""
    c = draw_chest(s)
    if c < 0:
        return
    base = P_CHEST + CHEST_FIELDS * c
    log_event(s, E_CHEST, pl, c, 0, 0)
    lp = int_param(p, base)
    gn = int_param(p, base + 1)
    am = int_param(p, base + 2)
    w = int_param(p, base + 3)
    hz = int_param(p, base + 4)
    s.gold[pl] += gn
    if am > 0:
        draw_ammo(s, p, pl, am)
    if w >= 0 and not removed(p, IT_WEAPON + w):
        if int_param(p, P_MULTI_WEAPONS) == 1:
            s.wmask[pl] |= 1 << w
        elif weapon_cost(p, w) > best_weapon_cost(s, p, pl):
            s.wmask[pl] = 1 << w
    if hz > 0 and not removed(p, IT_HORSE):
        s.horse[pl] = 1
    if lp > 0:
        gain_lp(s, p, pl, lp)
    elif lp < 0:
        lose_lp(s, p, pl, -lp, -1)


@nb.njit(cache=True, _nrt=False)
def settle_bet(s, p, a):
    """The bet s.bet on the body parts named by PAIR action a: the top ammunition card decides."""
    pl = s.cur
    part = part_of(a)
    part2 = part2_of(a)
    amount = s.bet
    c = draw_ammo_card(s)
    if c < 0:
        log_event(s, E_BET, pl, amount, -1, 0)
        return
    discard_ammo(s, c)
    if c == part or c == part2:
        mult = int_param(p, P_CASINO_MULT)
        gain = amount * mult if int_param(p, P_CASINO_GROSS) == 0 else amount * (mult - 1)
        s.gold[pl] += gain
        s.casino_net[pl] += gain
        log_event(s, E_BET, pl, amount, c, gain)
        credit(s, p, pl, C_CASINO_WIN, 0)
    else:
        s.gold[pl] -= amount
        s.casino_net[pl] -= amount
        log_event(s, E_BET, pl, amount, c, -amount)


@nb.njit(cache=True, _nrt=False)
def store_action(s, p, a):
    """Buy a unit, take the owner's free unit, buy the store (or take it over for its mission), rob it."""
    pl = s.cur
    kind = kind_of(a)
    st = store_of(a)
    if kind == K_BUY_UNIT or kind == K_FREE_UNIT:
        if kind == K_BUY_UNIT:
            mark_location_used(s, B_UNIT)
            unit = unit_price(p, st)
            s.gold[pl] -= unit
            owner = s.store_owner[st]
            if owner >= 0:
                s.gold[owner] += unit
            log_event(s, E_BUY_UNIT, pl, st, unit, owner)
        else:
            mark_location_used(s, B_FREE)
            log_event(s, E_FREE_UNIT, pl, st, 0, 0)
        if STORE_SELLS_LP[st]:
            gain_lp(s, p, pl, 1)
        else:
            draw_ammo(s, p, pl, 1)
    elif kind == K_BUY_STORE or kind == K_TAKEOVER:
        price = store_price(p, st)
        prev = s.store_owner[st]
        if kind == K_TAKEOVER:
            mark_location_used(s, B_TAKEOVER)
            price += int_param(p, P_STORE_MISSION_EXTRA)
        else:
            mark_location_used(s, B_STORE)
        s.gold[pl] -= price
        s.store_owner[st] = pl
        s.store_turn[st] = s.turn
        record_item(s, pl, IT_STORE + st)
        log_event(s, E_BUY_STORE, pl, st, price, prev)
        credit(s, p, pl, C_BUY_STORE, st)
    elif kind == K_ROB_STORE:
        mark_location_used(s, B_ROB)
        for _ in range(int_param(p, P_ROB_STORE_CARDS)):
            c = cheapest_card(s, pl)
            if c >= 0:
                use_card(s, pl, c)
        owner = s.store_owner[st]
        g = int_param(p, P_ROB_STORE)
        if owner >= 0:
            g = min(g, s.gold[owner])
            s.gold[owner] -= g
        s.gold[pl] += g
        log_event(s, E_ROB, pl, ROB_AT_STORE, g, owner)
        credit(s, p, pl, C_ROB, ROB_AT_STORE)


@nb.njit(cache=True, _nrt=False)
def location_action(s, p, a):
    """Location action a of the active player at his square."""
    pl = s.cur
    kind = kind_of(a)
    if kind == K_BUY_UNIT or kind == K_FREE_UNIT or kind == K_BUY_STORE or kind == K_TAKEOVER or kind == K_ROB_STORE:
        store_action(s, p, a)
    elif kind == K_TAKE_JOB:
        mark_location_used(s, B_JOB)
        give_job(s, p, pl, job_of(a))
    elif kind == K_PICK_GN:
        mark_location_used(s, B_GN)
        s.gold[pl] += amount_of(a)
        log_event(s, E_PICK_GN, pl, amount_of(a), 0, 0)
    elif kind == K_PICK_AMMO:
        mark_location_used(s, B_AMMO)
        got = draw_ammo(s, p, pl, amount_of(a))
        log_event(s, E_PICK_AMMO, pl, got, 0, 0)
    elif kind == K_BUY_WEAPON:
        w = weapon_of(a)
        mark_location_used(s, B_WEAPON)
        s.gold[pl] -= weapon_cost(p, w)
        if int_param(p, P_MULTI_WEAPONS) == 1:
            s.wmask[pl] |= 1 << w
        else:
            s.wmask[pl] = 1 << w
        record_item(s, pl, IT_WEAPON + w)
        log_event(s, E_BUY_WEAPON, pl, w, weapon_cost(p, w), 0)
        credit(s, p, pl, C_BUY, w)
    elif kind == K_BUY_HORSE:
        mark_location_used(s, B_HORSE)
        s.gold[pl] -= int_param(p, P_HORSE_COST)
        s.horse[pl] = 1
        record_item(s, pl, IT_HORSE)
        log_event(s, E_BUY_HORSE, pl, int_param(p, P_HORSE_COST), 0, 0)
        credit(s, p, pl, C_BUY, BUY_HORSE)
    elif kind == K_EXTRA:
        s.gold[pl] -= int_param(p, P_EXTRA_COST)
        log_event(s, E_EXTRA, pl, int_param(p, P_EXTRA_COST), s.phase, 0)
        uses = int_param(p, P_EXTRA_USES_ACTION) == 1
        if uses:
            mark_location_used(s, B_EXTRA)
        else:
            s.loc_done |= B_EXTRA
        if s.phase == PH_PRE:
            s.extra_range += int_param(p, P_EXTRA_SQ)
        else:
            # the second leg's end has no location action unless the turn's one is still open and unspent
            if uses or s.loc_state != LOC_OPEN:
                s.loc_state = LOC_CLOSED
            s.phase = PH_EXTRA
    elif kind == K_CHEST:
        mark_location_used(s, B_CHEST)
        open_chest(s, p, pl)
    elif kind == K_ROB_BANK:
        mark_location_used(s, B_BANK)
        use_card(s, pl, HEAD)
        s.gold[pl] += int_param(p, P_ROB_BANK)
        log_event(s, E_ROB, pl, ROB_AT_BANK, int_param(p, P_ROB_BANK), -1)
        banker = s.job_holder[J_BANKER]
        if int_param(p, P_BANKER) == 1 and banker >= 0:
            s.gold[banker] += int_param(p, P_BANKER_BONUS)
        credit(s, p, pl, C_ROB, ROB_AT_BANK)
    elif kind == K_BET:
        mark_location_used(s, B_BET)
        s.bet = amount_of(a)
        s.d_ret = s.phase
        s.phase = PH_PAIR
    elif kind == K_ROB_SALOON:
        mark_location_used(s, B_ROBSAL)
        use_card(s, pl, CHEST if s.hand[pl, CHEST] > 0 else HEAD)
        s.gold[pl] += int_param(p, P_ROB_SALOON)
        log_event(s, E_ROB, pl, ROB_AT_SALOON, int_param(p, P_ROB_SALOON), -1)
        credit(s, p, pl, C_ROB, ROB_AT_SALOON)
    elif kind == K_BRIBE:
        mark_location_used(s, B_BRIBE)
        s.gold[pl] -= int_param(p, P_BRIBE_COST)
        t = seat_of(a)
        log_event(s, E_BRIBE, pl, t, s.job[t], 0)
        drop_job(s, t)
        credit(s, p, pl, C_BRIBE, 0)
