"""Raccoon Tycoon's actions and the legal-action list.

Actions are `kind << 24 | arg`; every argument names what it acts on (card, commodity, tile, town, railroad), so
text.action_text prints an action without the state."""
import numba as nb
import numpy as np

from sim.kernel import LEGAL_TYPE

from . import params as P
from .components import (
    auction_next_min,
    bt_cost,
    bt_upcost,
    owns,
    prod_max,
    rr_min_bid,
    storage_cap,
    total_hold,
    town_com,
    town_cost_any,
    town_cost_named,
    two_player_auction,
    upgrade_price,
)
from .state import (
    BT_EXPORT,
    NC,
    PH_AUCTION,
    PH_BONUS,
    PH_BONUS_ANY,
    PH_BUILD2,
    PH_COMP,
    PH_DISCARD,
    PH_MAIN,
    PH_OVER,
    PH_PAY,
    PH_SELL2,
    PH_TF_QTY,
    PH_TF_TARGET,
)
from .turn import current_player

MAX_ACTIONS = 256
BID_RAISES = (0, 1, 2, 3, 5, 10, 20)   # bids offered over the next minimum, plus the bidder's whole money (RULES.md)
# ... except in the two-player variant, where each side bids only once: every amount from the minimum, as many as fit
# beside the pass and the maximum in MAX_ACTIONS (RULES.md)

A_PROD, A_SELL, A_AUCTION, A_BUY, A_UPGRADE, A_TOWN_NAMED, A_TOWN_ANY, A_BID, A_PASS_BID, A_TF_TARGET, A_TF_SKIP, \
    A_TF_QTY, A_BONUS, A_BONUS_ANY, A_DISCARD, A_PAY, A_COMP, A_END_TURN, A_DECLARE, A_PASS = range(1, 21)


@nb.njit(cache=True, inline="always")
def enc(kind, arg):
    return (np.int64(kind) << 24) | np.int64(arg)


@nb.njit(cache=True, inline="always")
def a_kind(a):
    return np.int64(a) >> 24


@nb.njit(cache=True, inline="always")
def a_arg(a):
    return np.int64(a) & 0xFFFFFF


@nb.njit(cache=True, inline="always")
def _push(out, n, a):
    if n < out.shape[0]:
        out[n] = a
        return n + 1
    return n


@nb.njit(cache=True, inline="always")
def _prod_avail(s, p, card, c):
    a = np.int64(s.pp_prod[card, c])
    if p[P.P_SUPPLY_LIMIT] == 1:
        a = min(a, np.int64(s.supply[c]))
    return a


@nb.njit(cache=True, inline="always")
def _legal_prod(s, p, seat, out, n):
    pmax = prod_max(s, p, seat)
    upto = p[P.P_PROD_TAKE] == 1
    for h in range(s.hand_n[seat]):
        card = s.hand[seat, h]
        a0 = _prod_avail(s, p, card, 0)
        a1 = _prod_avail(s, p, card, 1)
        a2 = _prod_avail(s, p, card, 2)
        a3 = _prod_avail(s, p, card, 3)
        a4 = _prod_avail(s, p, card, 4)
        a5 = _prod_avail(s, p, card, 5)
        k = min(pmax, a0 + a1 + a2 + a3 + a4 + a5)
        base = np.int64(card) << 18
        if not upto:
            # take exactly k: the same multisets in the same order as the loops below.  Up to four commodities
            # with tokens available (every printed card): loop over those only, the last one taking the rest.
            m = 0
            i0 = i1 = i2 = i3 = 0
            v0 = v1 = v2 = v3 = 0
            for c in range(NC):
                a = a0 if c == 0 else (a1 if c == 1 else (a2 if c == 2 else (a3 if c == 3 else (a4 if c == 4 else a5))))
                if a > 0:
                    if m == 0:
                        i0 = 3 * c
                        v0 = a
                    elif m == 1:
                        i1 = 3 * c
                        v1 = a
                    elif m == 2:
                        i2 = 3 * c
                        v2 = a
                    elif m == 3:
                        i3 = 3 * c
                        v3 = a
                    m += 1
            if m == 0:
                n = _push(out, n, enc(A_PROD, base))
                continue
            if m == 1:
                n = _push(out, n, enc(A_PROD, base | (k << i0)))
                continue
            if m == 2:
                for y0 in range(max(0, k - v1), min(v0, k) + 1):
                    n = _push(out, n, enc(A_PROD, base | (y0 << i0) | ((k - y0) << i1)))
                continue
            if m == 3:
                for y0 in range(max(0, k - v1 - v2), min(v0, k) + 1):
                    r0 = k - y0
                    for y1 in range(max(0, r0 - v2), min(v1, r0) + 1):
                        n = _push(out, n, enc(A_PROD, base | (y0 << i0) | (y1 << i1) | ((r0 - y1) << i2)))
                continue
            if m == 4:
                for y0 in range(max(0, k - v1 - v2 - v3), min(v0, k) + 1):
                    r0 = k - y0
                    for y1 in range(max(0, r0 - v2 - v3), min(v1, r0) + 1):
                        r1 = r0 - y1
                        for y2 in range(max(0, r1 - v3), min(v2, r1) + 1):
                            n = _push(out, n, enc(A_PROD, base | (y0 << i0) | (y1 << i1) | (y2 << i2)
                                                  | ((r1 - y2) << i3)))
                continue
            # five or six commodities: the loops below without the branches that cannot be completed
            # (s_j = tokens available from commodity j on)
            s5 = a5
            s4 = a4 + s5
            s3 = a3 + s4
            s2 = a2 + s3
            s1 = a1 + s2
            for x0 in range(max(0, k - s1), min(a0, k) + 1):
                r0 = k - x0
                for x1 in range(max(0, r0 - s2), min(a1, r0) + 1):
                    r1 = r0 - x1
                    for x2 in range(max(0, r1 - s3), min(a2, r1) + 1):
                        r2 = r1 - x2
                        for x3 in range(max(0, r2 - s4), min(a3, r2) + 1):
                            r3 = r2 - x3
                            for x4 in range(max(0, r3 - s5), min(a4, r3) + 1):
                                r4 = r3 - x4
                                pk = x0 | (x1 << 3) | (x2 << 6) | (x3 << 9) | (x4 << 12) | (r4 << 15)
                                n = _push(out, n, enc(A_PROD, base | pk))
            continue
        for x0 in range(min(a0, k) + 1):
            r0 = k - x0
            for x1 in range(min(a1, r0) + 1):
                r1 = r0 - x1
                for x2 in range(min(a2, r1) + 1):
                    r2 = r1 - x2
                    for x3 in range(min(a3, r2) + 1):
                        r3 = r2 - x3
                        for x4 in range(min(a4, r3) + 1):
                            r4 = r3 - x4
                            if upto:
                                for x5 in range(min(a5, r4) + 1):
                                    pk = x0 | (x1 << 3) | (x2 << 6) | (x3 << 9) | (x4 << 12) | (x5 << 15)
                                    n = _push(out, n, enc(A_PROD, base | pk))
                            elif r4 <= a5:
                                pk = x0 | (x1 << 3) | (x2 << 6) | (x3 << 9) | (x4 << 12) | (r4 << 15)
                                n = _push(out, n, enc(A_PROD, base | pk))
    return n


@nb.njit(cache=True, inline="always")
def _can_export(s, p, seat):
    return owns(s, seat, BT_EXPORT) and (p[P.P_EXPORT_EACH] == 1 or s.export_used == 0)


@nb.njit(cache=True, inline="always")
def _legal_sell(s, p, seat, out, n, skip_c):
    exp = _can_export(s, p, seat)
    refuse = p[P.P_PRICE_FLOOR] == 1
    for c in range(NC):
        if c == skip_c:
            continue
        h = np.int64(s.hold[seat, c])
        if h == 0:
            continue
        for x in range(2 if exp else 1):
            price = np.int64(s.price[c])
            if x == 1:
                if price >= s.pmax[c]:
                    continue    # the raise would change nothing: same as a plain sale
                price = min(price + np.int64(p[P.P_EXPORT_RAISE]), np.int64(s.pmax[c]))
            qmax = h
            if refuse:
                qmax = min(qmax, price - np.int64(s.pmin[c]))
            for q in range(1, qmax + 1):
                n = _push(out, n, enc(A_SELL, (x << 12) | (c << 8) | q))
    return n


@nb.njit(cache=True, inline="always")
def _legal_build(s, p, seat, out, n):
    money = np.int64(s.money[seat])
    for k in range(4):
        t = s.bld_offer[k]
        if t >= 0 and bt_cost(p, s.tile_type[t]) <= money:
            n = _push(out, n, enc(A_BUY, t))
    same = p[P.P_UPGRADE_SAME_TURN] == 1
    for i in range(s.n_utile):       # the tiles with a +2 side, ascending
        t = s.utile[i]
        if s.tile_owner[t] == seat and s.tile_level[t] == 1:
            bt = s.tile_type[t]
            if bt_upcost(p, bt) > 0 and upgrade_price(s, p, bt) <= money and (same or s.tile_turn[t] < s.turn):
                n = _push(out, n, enc(A_UPGRADE, t))
    return n


def COMPILE_IN_PARENT(state, params):
    """The first compile on two processes (sim.kernel.compile_ahead): the legal actions (about a third of the
    decisions' compile time) are compiled beside the moves, while the child compiles the strategies."""
    return {"legal_actions": (state, params, LEGAL_TYPE)}


@nb.njit(cache=True, _nrt=False)
def legal_actions(s, p, out):
    # the auction's bids (two decisions in three) are listed by a small function of their own; the other phases'
    # big body is called only for the rest (with apply_action's short path and choose inlined: about +5%)
    if s.phase == PH_AUCTION and s.over == 0:
        return _legal_bids(s, p, out)
    return _legal_other(s, p, out)


@nb.njit(cache=True, inline="always")
def _legal_bids(s, p, out):
    n = 0
    seat = s.auc_bidder
    lo = auction_next_min(s, p)
    money = np.int64(s.money[seat])
    base = enc(A_BID, 0)
    if two_player_auction(s, p):
        # each side bids once: every amount from the minimum, as many as fit, and the bidder's maximum
        hi = min(money, lo + MAX_ACTIONS - 3)
        for b in range(lo, hi + 1):
            out[n] = base | b
            n += 1
        if money > hi and hi >= lo:
            out[n] = base | money
            n += 1
    elif money >= lo:
        # the next minimum, a few raises above it (BID_RAISES) and the bidder's maximum: any amount up to all his
        # money can be bid in one step, and a uniform random bidder passes often enough to let auctions end
        for r in BID_RAISES:
            b = lo + r
            if b > money:
                break
            out[n] = base | b
            n += 1
        if money > lo + BID_RAISES[-1]:
            out[n] = base | money
            n += 1
    if not (seat == s.auc_starter and s.auc_leader < 0 and p[P.P_AUCTION_OPEN] == 0):
        n = _push(out, n, enc(A_PASS_BID, seat))
    return n


@nb.njit(cache=True, _nrt=False)
def _legal_other(s, p, out):
    n = 0
    ph = s.phase
    if ph == PH_OVER or s.over:
        return 0
    if ph == PH_MAIN:
        seat = s.cur
        n = _legal_prod(s, p, seat, out, n)
        n = _legal_sell(s, p, seat, out, n, -1)
        cap = np.int64(p[P.P_AUCTION_CAP])
        if cap == 0 and p[P.P_AUCTION_OPEN] == 1:
            cap = 3             # R6: an auction may end unsold, so an uncapped turn could loop
        if cap == 0 or s.auctions_turn < cap:
            for k in range(2):
                co = s.rr_offer[k]
                if co >= 0 and (p[P.P_AUCTION_OPEN] == 1 or rr_min_bid(p, co) <= s.money[seat]):
                    n = _push(out, n, enc(A_AUCTION, (k << 8) | np.int64(co)))
        n = _legal_build(s, p, seat, out, n)
        t = s.town_offer
        if t >= 0:
            if s.hold[seat, town_com(p, t)] >= town_cost_named(s, p, seat, t):
                n = _push(out, n, enc(A_TOWN_NAMED, t))
            if total_hold(s, seat) >= town_cost_any(s, p, seat, t):
                n = _push(out, n, enc(A_TOWN_ANY, t))
        if p[P.P_OPT_SUDDEN] == 1 and s.money[seat] >= p[P.P_SUDDEN_MONEY]:
            n = _push(out, n, enc(A_DECLARE, seat))
        if n == 0:
            n = _push(out, n, enc(A_PASS, seat))
    elif ph == PH_COMP:
        seat = current_player(s)
        for c in range(NC):
            if s.comp_got[seat, c] == 0 and (s.supply[c] > 0 or p[P.P_SUPPLY_LIMIT] == 0):
                n = _push(out, n, enc(A_COMP, c))
    elif ph == PH_TF_TARGET:
        seat = s.cur
        for o in range(s.n):
            if o == seat:
                continue
            for c in range(NC):
                if s.hold[o, c] > 0 and s.price[c] <= s.money[seat]:
                    n = _push(out, n, enc(A_TF_TARGET, (np.int64(o) << 8) | c))
        n = _push(out, n, enc(A_TF_SKIP, seat))
    elif ph == PH_TF_QTY:
        seat = s.cur
        c = s.tf_c
        qmax = np.int64(s.hold[s.tf_seat, c])
        if s.price[c] > 0:
            qmax = min(qmax, np.int64(s.money[seat]) // np.int64(s.price[c]))
        for q in range(1, qmax + 1):
            n = _push(out, n, enc(A_TF_QTY, (c << 8) | q))
    elif ph == PH_BONUS:
        seat = s.cur
        for i in range(s.n_btile):
            t = s.btile[i]
            if s.tile_owner[t] == seat:
                n = _push(out, n, enc(A_BONUS, t))
    elif ph == PH_BONUS_ANY:
        for c in range(NC):
            if s.supply[c] > 0 or p[P.P_SUPPLY_LIMIT] == 0:
                n = _push(out, n, enc(A_BONUS_ANY, c))
    elif ph == PH_DISCARD:
        seat = s.cur
        excess = total_hold(s, seat) - storage_cap(s, p, seat)
        for c in range(NC):
            for q in range(1, min(np.int64(s.hold[seat, c]), excess) + 1):
                n = _push(out, n, enc(A_DISCARD, (c << 8) | q))
    elif ph == PH_PAY:
        seat = s.cur
        for c in range(NC):
            for q in range(1, min(np.int64(s.hold[seat, c]), np.int64(s.pay_left)) + 1):
                n = _push(out, n, enc(A_PAY, (c << 8) | q))
    elif ph == PH_SELL2:
        seat = s.cur
        skip = -1 if p[P.P_FREIGHT_SAME] == 1 else s.sale1_c
        n = _legal_sell(s, p, seat, out, n, skip)
        n = _push(out, n, enc(A_END_TURN, seat))
    elif ph == PH_BUILD2:
        seat = s.cur
        n = _legal_build(s, p, seat, out, n)
        n = _push(out, n, enc(A_END_TURN, seat))
    return n
