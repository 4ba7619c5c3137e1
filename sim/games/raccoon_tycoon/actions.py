"""Raccoon Tycoon's actions and the legal-action list.

Every action is declared once in CODEC (sim.toolkit.ActionCodec): its kind and named fields, packed into one int64.
Every field names what the action acts on (card, commodity, tile, town, railroad), so text.action_text words an
action without the state.  The engine, the strategies, text.py and the tests encode and decode only through it."""

import numba as nb
import numpy as np

from sim.kernel import LEGAL_TYPE
from sim.toolkit import ActionCodec, push

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
from .params import COMMODITIES
from .state import (
    BT_EXPORT,
    MAX_PLAYERS,
    MAX_TILES,
    N_BLD_OFFER,
    N_CARDS,
    N_RR,
    N_RR_OFFER,
    N_TOWNS,
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


def _bits(count):
    """Bits that hold the values 0..count-1."""
    return max(1, (count - 1).bit_length())


TAKE_BITS = 3  # tokens of one commodity a production takes: up to 7 (limits.production and its buildings)
CODEC = ActionCodec(
    kinds={
        "PROD": ("card",) + COMMODITIES,  # play a P&P card, taking these tokens
        "SELL": ("commodity", "qty", "export"),  # export: the Export Company raises the price first
        "AUCTION": ("slot", "railroad"),
        "BUY": ("tile",),
        "UPGRADE": ("tile",),
        "TOWN_NAMED": ("town",),
        "TOWN_ANY": ("town",),
        "BID": ("amount",),
        "PASS_BID": (),
        "TF_TARGET": ("seat", "commodity"),
        "TF_SKIP": (),
        "TF_QTY": ("commodity", "qty"),
        "BONUS": ("tile",),
        "BONUS_ANY": ("commodity",),
        "DISCARD": ("commodity", "qty"),
        "PAY": ("commodity", "qty"),
        "COMP": ("commodity",),  # a free start token
        "END_TURN": (),
        "DECLARE": (),
        "PASS": (),
    },
    fields={
        "card": _bits(N_CARDS),
        **{c: TAKE_BITS for c in COMMODITIES},
        "commodity": _bits(NC),
        "qty": 8,
        "export": 1,
        "slot": 1,
        "railroad": _bits(N_RR),
        "tile": _bits(MAX_TILES),
        "town": _bits(N_TOWNS),
        "amount": 24,
        "seat": _bits(MAX_PLAYERS),
    },
    overlap=True,
)  # the fields of all kinds together take more than the 62 bits of an action
(
    A_PROD,
    A_SELL,
    A_AUCTION,
    A_BUY,
    A_UPGRADE,
    A_TOWN_NAMED,
    A_TOWN_ANY,
    A_BID,
    A_PASS_BID,
    A_TF_TARGET,
    A_TF_SKIP,
    A_TF_QTY,
    A_BONUS,
    A_BONUS_ANY,
    A_DISCARD,
    A_PAY,
    A_COMP,
    A_END_TURN,
    A_DECLARE,
    A_PASS,
) = range(len(CODEC.kinds))
assert CODEC.kind_names[A_PASS] == "PASS"

kind_of = CODEC.kind_getter()
card_of, commodity_of, qty_of, export_of, slot_of, railroad_of, tile_of, town_of, amount_of, seat_of = CODEC.getters(
    "card", "commodity", "qty", "export", "slot", "railroad", "tile", "town", "amount", "seat"
)
encode_prod = CODEC.encoder("PROD")
encode_sell = CODEC.encoder("SELL")
encode_auction = CODEC.encoder("AUCTION")
encode_buy = CODEC.encoder("BUY")
encode_upgrade = CODEC.encoder("UPGRADE")
encode_town_named = CODEC.encoder("TOWN_NAMED")
encode_town_any = CODEC.encoder("TOWN_ANY")
encode_bid = CODEC.encoder("BID")
encode_tf_target = CODEC.encoder("TF_TARGET")
encode_tf_qty = CODEC.encoder("TF_QTY")
encode_bonus = CODEC.encoder("BONUS")
encode_bonus_any = CODEC.encoder("BONUS_ANY")
encode_discard = CODEC.encoder("DISCARD")
encode_pay = CODEC.encoder("PAY")
encode_comp = CODEC.encoder("COMP")

# The six take fields of PROD sit side by side (one commodity after the other), so the production options are
# built and read by commodity index: take(c, x) is the part of an action that takes x tokens of c, taken(a, c) reads it.
TAKE_SHIFT = CODEC.shift[COMMODITIES[0]]
assert all(CODEC.shift[c] == TAKE_SHIFT + TAKE_BITS * k for k, c in enumerate(COMMODITIES))
assert TAKE_SHIFT + TAKE_BITS * len(COMMODITIES) <= 31  # the production event logs its action in an int32


@nb.njit(inline="always")
def take(c, x):
    return np.int64(x) << (TAKE_SHIFT + TAKE_BITS * c)


@nb.njit(inline="always")
def taken(a, c):
    return (a >> (TAKE_SHIFT + TAKE_BITS * c)) & ((1 << TAKE_BITS) - 1)


BID_RAISES = (0, 1, 2, 3, 5, 10, 20)  # bids offered over the next minimum, plus the bidder's whole money (RULES.md)
# In the two-player variant each side bids only once: every amount from the minimum is listed, up to this many, and
# the bidder's whole money (RULES.md)
TWO_PLAYER_BID_AMOUNTS = 254
# The longest legal list is a two-player bid (every amount, the whole money and the pass); random play lists at most
# 130 actions in the other phases (production 'up to', 2 to 5 players, 100 games each)
MAX_ACTIONS = TWO_PLAYER_BID_AMOUNTS + 2
# Auctions a turn may start when auctions may be declined and no cap is set: one may end unsold (R6), so an
# uncapped turn could loop (ASSUMED, RULES.md)
DECLINED_AUCTION_CAP = 3


@nb.njit(cache=True, inline="always")
def prod_avail(s, p, card, c):
    """Tokens of c a production with P&P card `card` may take (the card's amount, within the supply if limited)."""
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
        a0 = prod_avail(s, p, card, 0)
        a1 = prod_avail(s, p, card, 1)
        a2 = prod_avail(s, p, card, 2)
        a3 = prod_avail(s, p, card, 3)
        a4 = prod_avail(s, p, card, 4)
        a5 = prod_avail(s, p, card, 5)
        k = min(pmax, a0 + a1 + a2 + a3 + a4 + a5)
        base = encode_prod(card, 0, 0, 0, 0, 0, 0)
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
                        i0 = c
                        v0 = a
                    elif m == 1:
                        i1 = c
                        v1 = a
                    elif m == 2:
                        i2 = c
                        v2 = a
                    elif m == 3:
                        i3 = c
                        v3 = a
                    m += 1
            if m == 0:
                n = push(out, n, base)
                continue
            if m == 1:
                n = push(out, n, base | take(i0, k))
                continue
            if m == 2:
                for y0 in range(max(0, k - v1), min(v0, k) + 1):
                    n = push(out, n, base | take(i0, y0) | take(i1, k - y0))
                continue
            if m == 3:
                for y0 in range(max(0, k - v1 - v2), min(v0, k) + 1):
                    r0 = k - y0
                    for y1 in range(max(0, r0 - v2), min(v1, r0) + 1):
                        n = push(out, n, base | take(i0, y0) | take(i1, y1) | take(i2, r0 - y1))
                continue
            if m == 4:
                for y0 in range(max(0, k - v1 - v2 - v3), min(v0, k) + 1):
                    r0 = k - y0
                    for y1 in range(max(0, r0 - v2 - v3), min(v1, r0) + 1):
                        r1 = r0 - y1
                        for y2 in range(max(0, r1 - v3), min(v2, r1) + 1):
                            n = push(out, n, base | take(i0, y0) | take(i1, y1) | take(i2, y2) | take(i3, r1 - y2))
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
                                n = push(out, n, encode_prod(card, x0, x1, x2, x3, x4, r4))
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
                                    n = push(out, n, encode_prod(card, x0, x1, x2, x3, x4, x5))
                            elif r4 <= a5:
                                n = push(out, n, encode_prod(card, x0, x1, x2, x3, x4, r4))
    return n


@nb.njit(cache=True, inline="always")
def can_export(s, p, seat):
    return owns(s, seat, BT_EXPORT) and (p[P.P_EXPORT_EACH] == 1 or s.export_used == 0)


@nb.njit(cache=True, inline="always")
def sale_price(s, p, c, export):
    """The price a sale of c gets: with export, the Export Company raises it first (up to the track's top)."""
    price = np.int64(s.price[c])
    if export:
        price = min(price + np.int64(p[P.P_EXPORT_RAISE]), np.int64(s.pmax[c]))
    return price


@nb.njit(cache=True, inline="always")
def sale_qmax(s, p, seat, c, export):
    """The most tokens of c seat's sale may take (0: no such sale is listed).  An export sale is listed only where
    the raise changes the price; with rule.price_floor a sale may not push the price below the track."""
    if export and s.price[c] >= s.pmax[c]:
        return 0  # the raise would change nothing: same as a plain sale
    qmax = np.int64(s.hold[seat, c])
    if p[P.P_PRICE_FLOOR] == 1:
        qmax = min(qmax, sale_price(s, p, c, export) - np.int64(s.pmin[c]))
    return qmax


@nb.njit(cache=True, inline="always")
def _legal_sell(s, p, seat, out, n, skip_c):
    exp = can_export(s, p, seat)
    for c in range(NC):
        if c == skip_c or s.hold[seat, c] == 0:
            continue
        for x in range(2 if exp else 1):
            for q in range(1, sale_qmax(s, p, seat, c, x) + 1):
                n = push(out, n, encode_sell(c, q, x))
    return n


@nb.njit(cache=True, inline="always")
def _legal_build(s, p, seat, out, n):
    money = np.int64(s.money[seat])
    for k in range(N_BLD_OFFER):
        t = s.bld_offer[k]
        if t >= 0 and bt_cost(p, s.tile_type[t]) <= money:
            n = push(out, n, encode_buy(t))
    same = p[P.P_UPGRADE_SAME_TURN] == 1
    for i in range(s.n_utile):  # the tiles with a +2 side, ascending
        t = s.utile[i]
        if s.tile_owner[t] == seat and s.tile_level[t] == 1:
            bt = s.tile_type[t]
            if bt_upcost(p, bt) > 0 and upgrade_price(s, p, bt) <= money and (same or s.tile_turn[t] < s.turn):
                n = push(out, n, encode_upgrade(t))
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
def may_pass_bid(s, p, seat):
    """seat, to bid in the current auction, may pass: all but the starter of an auction that must open (R6)."""
    return not (seat == s.auc_starter and s.auc_leader < 0 and p[P.P_AUCTION_OPEN] == 0)


@nb.njit(cache=True, inline="always")
def highest_bid_listed(s, p, seat, lo, cap):
    """The highest amount _legal_bids lists for seat (outside the two-player variant; lo the next minimum, which
    seat can pay) that is at most cap, or lo if none is."""
    money = np.int64(s.money[seat])
    best = lo
    for r in BID_RAISES:
        b = lo + r
        if b > money or b > cap:
            break
        best = b
    if money > lo + BID_RAISES[-1] and money <= cap:
        best = money
    return best


@nb.njit(cache=True, inline="always")
def _legal_bids(s, p, out):
    n = 0
    seat = s.auc_bidder
    lo = auction_next_min(s, p)
    money = np.int64(s.money[seat])
    if two_player_auction(s, p):
        # each side bids once: every amount from the minimum (TWO_PLAYER_BID_AMOUNTS of them at most) and the
        # bidder's maximum
        hi = min(money, lo + TWO_PLAYER_BID_AMOUNTS - 1)
        for b in range(lo, hi + 1):
            n = push(out, n, encode_bid(b))
        if money > hi and hi >= lo:
            n = push(out, n, encode_bid(money))
    elif money >= lo:
        # the next minimum, a few raises above it (BID_RAISES) and the bidder's maximum: any amount up to all his
        # money can be bid in one step, and a uniform random bidder passes often enough to let auctions end
        for r in BID_RAISES:
            b = lo + r
            if b > money:
                break
            n = push(out, n, encode_bid(b))
        if money > lo + BID_RAISES[-1]:
            n = push(out, n, encode_bid(money))
    if may_pass_bid(s, p, seat):
        n = push(out, n, A_PASS_BID)
    return n


@nb.njit(cache=True, inline="always")
def legal_main_rest(s, p, seat, out, n):
    """The main phase's actions after the productions and sales, appended to out[:n]: auction starts, buildings,
    towns and the sudden-death declaration.  The strategies' quick path generates the productions and sales itself
    and has only these few listed."""
    cap = np.int64(p[P.P_AUCTION_CAP])
    if cap == 0 and p[P.P_AUCTION_OPEN] == 1:
        cap = DECLINED_AUCTION_CAP
    if cap == 0 or s.auctions_turn < cap:
        for k in range(N_RR_OFFER):
            co = s.rr_offer[k]
            if co >= 0 and (p[P.P_AUCTION_OPEN] == 1 or rr_min_bid(p, co) <= s.money[seat]):
                n = push(out, n, encode_auction(k, co))
    n = _legal_build(s, p, seat, out, n)
    t = s.town_offer
    if t >= 0:
        if s.hold[seat, town_com(p, t)] >= town_cost_named(s, p, seat, t):
            n = push(out, n, encode_town_named(t))
        if total_hold(s, seat) >= town_cost_any(s, p, seat, t):
            n = push(out, n, encode_town_any(t))
    if p[P.P_OPT_SUDDEN] == 1 and s.money[seat] >= p[P.P_SUDDEN_MONEY]:
        n = push(out, n, A_DECLARE)
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
        n = legal_main_rest(s, p, seat, out, n)
        if n == 0:
            n = push(out, n, A_PASS)
    elif ph == PH_COMP:
        seat = current_player(s)
        for c in range(NC):
            if s.comp_got[seat, c] == 0 and (s.supply[c] > 0 or p[P.P_SUPPLY_LIMIT] == 0):
                n = push(out, n, encode_comp(c))
    elif ph == PH_TF_TARGET:
        seat = s.cur
        for o in range(s.n):
            if o == seat:
                continue
            for c in range(NC):
                if s.hold[o, c] > 0 and s.price[c] <= s.money[seat]:
                    n = push(out, n, encode_tf_target(o, c))
        n = push(out, n, A_TF_SKIP)
    elif ph == PH_TF_QTY:
        seat = s.cur
        c = s.tf_c
        qmax = np.int64(s.hold[s.tf_seat, c])
        if s.price[c] > 0:
            qmax = min(qmax, np.int64(s.money[seat]) // np.int64(s.price[c]))
        for q in range(1, qmax + 1):
            n = push(out, n, encode_tf_qty(c, q))
    elif ph == PH_BONUS:
        seat = s.cur
        for i in range(s.n_btile):
            t = s.btile[i]
            if s.tile_owner[t] == seat:
                n = push(out, n, encode_bonus(t))
    elif ph == PH_BONUS_ANY:
        for c in range(NC):
            if s.supply[c] > 0 or p[P.P_SUPPLY_LIMIT] == 0:
                n = push(out, n, encode_bonus_any(c))
    elif ph == PH_DISCARD:
        seat = s.cur
        excess = total_hold(s, seat) - storage_cap(s, p, seat)
        for c in range(NC):
            for q in range(1, min(np.int64(s.hold[seat, c]), excess) + 1):
                n = push(out, n, encode_discard(c, q))
    elif ph == PH_PAY:
        seat = s.cur
        for c in range(NC):
            for q in range(1, min(np.int64(s.hold[seat, c]), np.int64(s.pay_left)) + 1):
                n = push(out, n, encode_pay(c, q))
    elif ph == PH_SELL2:
        seat = s.cur
        skip = -1 if p[P.P_FREIGHT_SAME] == 1 else s.sale1_c
        n = _legal_sell(s, p, seat, out, n, skip)
        n = push(out, n, A_END_TURN)
    elif ph == PH_BUILD2:
        seat = s.cur
        n = _legal_build(s, p, seat, out, n)
        n = push(out, n, A_END_TURN)
    return n
