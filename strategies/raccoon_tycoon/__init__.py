"""Scripted Raccoon Tycoon players.

One utility model in dollars, five archetypes (strategy ids 1..5) that differ in their weights and a few building
preferences.  Every legal action gets a dollar utility; the best one is played (ties broken by a small random term
from the policy stream).  Auction bids are value-based: a player stays in while the next bid is below
max(what the card is worth to me, deny_weight x what it is worth to the current VP leader among the others),
keeping a cash reserve.  Starting an auction (knob startodds) is valued by its outcome played out in advance with
every seat bidding that way: one I would lose (the starter who loses acts again) is started only if the winner would
not gain much over the price, so a poor player no longer opens auction after auction that a rich one wins at the
minimum.  In the two-player variant the starter bids only once and the other may raise by $1, so
the starter bids the lower of its own limit and the opponent's limit as estimated with its own weights (rather than
the minimum, which hands the card to any opponent who values it more).  A start I would lose is made only if that
valuation and the plain one (start x (my value - minimum bid) + 1) both prefer it (knob oddsand).  A sale earns a
premium on the cash that fills my shortfall (knob liquid): tokens only pay once sold, and cash wins the next
auction.  A town's VP counts more with more players (knob towncrowd): more rivals bid for each
railroad, nobody contests the towns.  Above a cash level a dollar spent counts less the richer I am (knob
rich): money left at the end scores nothing, so surplus cash buys VP.  Nothing hidden is read: money is secret in
the rulebook but is easy to track from play, and the P&P hands of others are not looked at.

Knobs: the table K below (name, default, range, doc); presets: PRESETS (the knobs each changes).
"""

import sim

sim.use_game_cache("sim.games.raccoon_tycoon")  # these bots compile into their game's cache (sim/__init__.py)

import numba as nb
import numpy as np

from sim.games.raccoon_tycoon import engine as E
from sim.games.raccoon_tycoon import params as P
from sim.kernel import one_copy
from sim.knobs import KnobTable, Preset, strategies
from sim.rng import GOLDEN, float_of

S_BARON, S_TOWNS, S_TRADER, S_ENGINE, S_BALANCED = 1, 2, 3, 4, 5

# Knobs (the weights row).  Defaults are the balanced player's; each preset below lists what it changes.
K = KnobTable()
W_DPV = K.add("dpv", 5.0, 1.0, 12.0, doc="dollars one VP is worth to me")
W_TOWN = K.add("town", 1.1, 0.0, 4.0, doc="multiplier on the VP of towns")
W_RAIL = K.add("rail", 1.1, 0.0, 4.0, doc="multiplier on the VP of railroads (marginal set VP)")
W_BUILD = K.add("build", 1.0, 0.0, 4.0, doc="multiplier on the value of buildings (their VP and their powers)")
W_DENY = K.add("deny", 0.4, 0.0, 1.5, doc="share of the leader's value of a railroad I will bid to deny it")
W_PAIR = K.add("pair", 2.0, 0.0, 4.0, doc="multiplier on the town+railroad pair bonus")
W_PEAK = K.add("peak", 0.4, 0.0, 1.5, doc="how much a price near the track top lowers a token's worth (sell urge)")
W_RAISE = K.add("raise", 0.6, 0.0, 3.0, doc="dollars per $1 price rise on a token I hold (cards that pump my stock)")
W_RESERVE = K.add("reserve", 0.0, 0.0, 20.0, doc="cash kept back when bidding")
W_START = K.add("start", 1.0, 0.0, 3.0, doc="multiplier on starting an auction")
W_ENGINE = K.add("engine", 0.8, 0.0, 4.0, doc="multiplier on production powers (B and P buildings, hand size)")
W_NOISE = K.add("noise", 0.3, 0.0, 2.0, doc="random tie-break amplitude in dollars")
W_FOCUS = K.add(
    "focus",
    0.0,
    0.0,
    6.0,
    doc="extra dollars per VP for towns of my favourite commodities (wheat, wood) / my railroad companies",
)
W_STARTODDS = K.add(
    "startodds",
    1.0,
    0.0,
    3.0,
    doc="0: every auction start is worth start x (my value - minimum bid); >0: the auction is first played out with "
    "every seat bidding like me (limits from public information): if I would win, as before; if I would lose, I act "
    "again and the start is worth 1 - startodds x the winner's net gain (his value by my weights - the price)",
)
W_LASTCARD = K.add(
    "lastcard",
    1.0,
    0.0,
    1.0,
    doc="1: in the last railroad's auction, or once the game's end is triggered, my bid limit is all my money "
    "(left-over money only breaks ties) and I bid it at once; 0: the value-based limit, raised $1 at a time",
)
W_LIQUID = K.add(
    "liquid",
    1.0,
    0.0,
    3.0,
    doc="extra dollars per dollar of a sale's proceeds that fill my cash shortfall (the cash I have a use for, the "
    "need of _cash_penalty, minus my money): tokens only pay once sold, and selling takes a turn",
)
W_LIQEND = K.add(
    "liqend",
    1.0,
    0.0,
    2.0,
    doc="0: the liquid premium on every sale; >0: once fewer than liqend x players railroad cards are left, only "
    "on a sale that lifts my money above every other player's (the last railroads go to the richest bidder)",
)
W_ODDSAND = K.add(
    "oddsand",
    1.0,
    0.0,
    1.0,
    doc="with startodds: 0: a start I would lose is worth my best other action + 1 - startodds x the winner's gain; "
    "1: at most its value without startodds (start x (my value - minimum bid) + 1), so a start I would lose is "
    "made only if both valuations prefer it",
)
W_TOWNCROWD = K.add(
    "towncrowd",
    1.0,
    0.0,
    2.0,
    doc="a town's VP (its own and the pair bonus) counts 1 + towncrowd x (players - 2) / 2 times: the more players "
    "bid for the railroads, the dearer their VP and the better an uncontested town",
)
W_RICH = K.add(
    "rich",
    0.0,
    0.0,
    200.0,
    doc="0: a dollar spent is a dollar; >0: above this much money a dollar spent (a building's or upgrade's cost, a "
    "railroad's price) counts rich / my money (not below what it scores with my Bank): cash left at the end scores "
    "nothing, so a rich player buys VP it would refuse at face value",
)
N_WEIGHTS = len(K)

_BARON = {
    "town": 0.8,
    "rail": 1.5,
    "build": 0.7,
    "deny": 0.6,
    "pair": 1.0,
    "peak": 0.3,
    "raise": 0.5,
    "start": 1.2,
    "engine": 0.6,
    "focus": 2.0,
}
_TRADER = {
    "dpv": 4.0,
    "town": 1.0,
    "rail": 0.8,
    "build": 0.8,
    "deny": 0.2,
    "pair": 1.0,
    "peak": 0.9,
    "raise": 1.2,
    "start": 0.8,
    "engine": 0.6,
    "lastcard": 0.0,
    "rich": 10.0,
}
PRESETS = [
    Preset(
        "rail_baron",
        S_BARON,
        "Railroad baron: values railroads by marginal set VP plus pairs, starts "
        "auctions, bids to deny the VP leader; likes the Rail Baron.",
        _BARON,
    ),
    Preset(
        "town_builder",
        S_TOWNS,
        "Town builder: produces and hoards the face-up town's commodity (wheat and "
        "wood favoured), buys every town it can; likes Brick Works and Governor's Mansion.",
        {
            "town": 2.0,
            "rail": 0.6,
            "build": 0.8,
            "deny": 0.1,
            "pair": 1.0,
            "peak": 0.2,
            "raise": 0.3,
            "reserve": 4.0,
            "start": 0.4,
            "focus": 2.0,
            "rich": 10.0,
        },
    ),
    Preset(
        "market_trader",
        S_TRADER,
        "Market trader: plays cards that raise what it holds, sells near the top "
        "of the track; likes trading firms, Export and Freight Companies, the Bank.",
        _TRADER,
    ),
    Preset(
        "building_engine",
        S_ENGINE,
        "Building engine: buys B and P buildings early and upgrades them, "
        "then converts the larger production into towns; likes the Mayor's Office.",
        {
            "dpv": 4.0,
            "town": 1.0,
            "rail": 0.8,
            "build": 1.4,
            "deny": 0.2,
            "pair": 1.0,
            "start": 0.8,
            "engine": 1.5,
            "rich": 10.0,
        },
    ),
    Preset(
        "balanced",
        S_BALANCED,
        "Balanced: weighs towns and railroads alike and chases town + railroad pairs.",
        {"rich": 10.0},
    ),
    Preset(
        "rail_baron_denier",
        S_BARON,
        "Rail baron preset that bids up to the leader's full value of a railroad to deny it (deny = 1.0).",
        {**_BARON, "deny": 1.0},
    ),
    Preset(
        "market_trader_patient",
        S_TRADER,
        "Market trader preset that waits for higher peaks (peak = 1.0, raise = 1.5).",
        {**_TRADER, "peak": 1.0, "raise": 1.5},
    ),
]
STRATEGIES = strategies(K, PRESETS)


@nb.njit(cache=True, inline="always")
def _frac_left(s):
    """Rough share of the game still to play: the nearer of the two end triggers."""
    tl = s.town_n + (1 if s.town_offer >= 0 else 0)
    rl = s.rr_n + (1 if s.rr_offer[0] >= 0 else 0) + (1 if s.rr_offer[1] >= 0 else 0)
    owned = 0
    for o in range(s.n):
        for co in range(E.N_RR):
            owned += s.rr_own[o, co]
    rt = rl + owned
    ft = tl / E.N_TOWNS
    fr = rl / rt if rt > 0 else 0.0
    return min(ft, fr)


@nb.njit(cache=True, inline="always")
def _counts(s, seat):
    nt = 0
    for t in range(E.N_TOWNS):
        if s.town_owner[t] == seat:
            nt += 1
    nr = 0
    for co in range(E.N_RR):
        nr += s.rr_own[seat, co]
    return nt, nr


@nb.njit(cache=True, inline="always")
def _token_value(s, p, seat, c, sid, w, t, tc, tcost):
    """Dollar value to seat of holding one more token of c (the face-up town t or -1, its commodity tc and seat's
    named cost tcost given, as token_values looks them up once)."""
    price = np.float64(s.price[c])
    lo = np.float64(s.pmin[c])
    hi = np.float64(s.pmax[c])
    pos = (price - lo) / (hi - lo) if hi > lo else 0.0
    v = price * (1.0 - w[W_PEAK] * pos) + 0.15 * (hi - price)
    if t >= 0 and tc == c and s.hold[seat, c] < tcost:
        bonus = w[W_DPV] * w[W_TOWN] * E.town_vp(p, t) / max(tcost, 1)
        if sid == S_TOWNS and (c == E.WHEAT or c == E.WOOD):
            bonus += w[W_FOCUS]
        v = max(v, 0.8 * bonus)
    return v


@nb.njit(cache=True, inline="always")
def token_values(s, p, seat, sid, w):
    """(_token_value of each commodity), the face-up town looked up once."""
    t = s.town_offer
    tc = -1
    tcost = 0
    if t >= 0:
        tc = E.town_com(p, t)
        tcost = E.town_cost_named(s, p, seat, t)
    return (
        _token_value(s, p, seat, 0, sid, w, t, tc, tcost),
        _token_value(s, p, seat, 1, sid, w, t, tc, tcost),
        _token_value(s, p, seat, 2, sid, w, t, tc, tcost),
        _token_value(s, p, seat, 3, sid, w, t, tc, tcost),
        _token_value(s, p, seat, 4, sid, w, t, tc, tcost),
        _token_value(s, p, seat, 5, sid, w, t, tc, tcost),
    )


@nb.njit(cache=True, inline="always")
def rail_value(s, p, seat, co, w, nt, nr):
    """Dollar value of one more card of railroad co to seat, which owns nt towns and nr railroad cards."""
    k = s.rr_own[seat, co]
    marg = E.rr_vp(p, co, k + 1) - E.rr_vp(p, co, k)
    vp = w[W_RAIL] * marg
    if nt > nr:
        vp += w[W_PAIR] * p[P.P_PAIR_VP]
    if E.owns(s, seat, E.BT_RAILBARON):
        vp += p[P.P_RAILBARON_VP]
    if k > 0:
        vp += w[W_FOCUS] * 0.25 * k
    return w[W_DPV] * vp


@nb.njit(cache=True, inline="always")
def town_value(s, p, seat, t, sid, w, nt, nr):
    vp = w[W_TOWN] * E.town_vp(p, t)
    if nr > nt:
        vp += w[W_PAIR] * p[P.P_PAIR_VP]
    if w[W_TOWNCROWD] > 0.0:
        vp *= 1.0 + w[W_TOWNCROWD] * (s.n - 2) / 2.0
    if E.owns(s, seat, E.BT_GOVERNOR):
        vp += p[P.P_GOVERNOR_VP]
    return w[W_DPV] * (vp + 0.5)  # + tempo: the face-up town is contested


@nb.njit(cache=True, inline="always")
def _best_bonus(s, p, seat):
    """Dollar size of the best B building (or Machine Shop) seat already uses."""
    best = 0.0
    for i in range(s.n_btile):
        t = s.btile[i]
        if s.tile_owner[t] == seat:
            b = E.bonus_amount(s, p, t) * (6.0 if s.tile_type[t] == E.BT_MACHINE else s.price[s.tile_type[t]])
            best = max(best, b)
    return best


@one_copy(_nrt=False)
def building_value(s, p, seat, bt, sid, w, level2, fl, nt, nr, bbest):
    """Dollar value of owning one more tile of type bt (or of its +2 side when level2), given the share of the game
    left fl, seat's towns nt and railroad cards nr, and its best bonus building bbest."""
    prods = 12.0 * fl  # productions I still expect to make
    v = 0.0
    if not level2:
        v += w[W_BUILD] * w[W_DPV] * p[P.P_BUILDING_VP]
        if E.owns(s, seat, E.BT_MAYOR):
            v += w[W_DPV] * p[P.P_MAYOR_VP]
        v += 0.3 * p[P.P_STORAGE_PER_BLD]
    eng = w[W_ENGINE]
    if bt < E.N_BASIC_BT or bt == E.BT_MACHINE:
        # only one B building is used per production: value the gain over the best one I already use
        best = bbest
        amt = p[P.P_BONUS_PLUS2] if level2 else p[P.P_BONUS_PLUS1]
        unit = 6.0 if bt == E.BT_MACHINE else np.float64(s.price[bt]) + 1.0
        mine = amt * unit
        if level2:
            mine -= p[P.P_BONUS_PLUS1] * unit
            best = 0.0
        v += eng * prods * 0.6 * max(mine - best, 0.0)
    elif bt == E.BT_COTTAGE or bt == E.BT_FACTORY:
        cur = E.prod_max(s, p, seat)
        new = p[P.P_COTTAGE_MAX] if bt == E.BT_COTTAGE else p[P.P_FACTORY_MAX]
        v += eng * prods * 0.5 * max(new - cur, 0.0) * 4.0
    elif bt == E.BT_WAREHOUSE:
        v += 0.3 * p[P.P_WAREHOUSE] * (1.0 + (sid == S_TRADER))
    elif bt == E.BT_SMUGGLER or bt == E.BT_BLACKMARKET:
        v += eng * 2.0 * fl
    elif bt == E.BT_FIRM_WW or bt == E.BT_FIRM_CI or bt == E.BT_FIRM_GL:
        v += p[P.P_FIRM_PER_UNIT] * 25.0 * fl * (1.5 if sid == S_TRADER else 1.0)
    elif bt == E.BT_AUCTION:
        rl = s.rr_n + 2
        v += p[P.P_AUCTION_HOUSE] * rl * 0.8
    elif bt == E.BT_EXPORT:
        v += p[P.P_EXPORT_RAISE] * 3.0 * 4.0 * fl * (2.0 if sid == S_TRADER else 0.7)
    elif bt == E.BT_FREIGHT:
        v += 15.0 * fl * (2.0 if sid == S_TRADER else 0.5)
    elif bt == E.BT_CONSTRUCTION:
        v += 6.0 * fl * (2.0 if sid == S_ENGINE else 0.5)
    elif bt == E.BT_TRADINGFLOOR:
        v += 6.0 * fl
    elif bt == E.BT_BRICK:
        v += w[W_DPV] * 0.5 * 6.0 * fl * (2.0 if sid == S_TOWNS else 1.0)
    elif bt == E.BT_GOVERNOR:
        v += w[W_DPV] * p[P.P_GOVERNOR_VP] * (nt + 4.0 * fl) * (1.5 if sid == S_TOWNS else 1.0)
    elif bt == E.BT_RAILBARON:
        v += w[W_DPV] * p[P.P_RAILBARON_VP] * (nr + 4.0 * fl) * (1.5 if sid == S_BARON else 1.0)
    elif bt == E.BT_MAYOR:
        v += w[W_DPV] * p[P.P_MAYOR_VP] * (s.n_bld[seat] + 1 + 3.0 * fl) * (1.5 if sid == S_ENGINE else 1.0)
    elif bt == E.BT_BANK:
        v += w[W_DPV] * (s.money[seat] + 40.0 * fl) / p[P.P_BANK_PER_VP] * (1.5 if sid == S_TRADER else 1.0)
    return v


@nb.njit(cache=True, _nrt=False)
def _cheapest_tokens(s, seat, k, tv):
    """Dollar value of the k least valuable tokens seat holds (what an any-commodity payment costs it)."""
    used = 0  # bit mask of commodities already spent
    total = 0.0
    left = k
    for _ in range(E.NC):
        if left <= 0:
            break
        best = -1
        bv = 1e18
        for c in range(E.NC):
            if (used >> c) & 1 == 0 and s.hold[seat, c] > 0:
                v = tv[c]
                if v < bv:
                    bv = v
                    best = c
        if best < 0:
            break
        used |= 1 << best
        q = min(left, np.int64(s.hold[seat, best]))
        total += q * bv
        left -= q
    return total


@nb.njit(cache=True, inline="always")
def _pump(s, card, c, w):
    """Dollars per token of c I will hold when card raises c's price (0 if it does not)."""
    r = s.pp_price[card, c]
    if r > 0:
        return w[W_RAISE] * min(np.int64(r), np.int64(s.pmax[c] - s.price[c]))
    return 0.0


@nb.njit(cache=True, inline="always")
def _prod_terms(s, seat, card, tv, w):
    """A production option's utility is linear in the tokens it takes: (dollars per token of each commodity, then
    the part that does not depend on the option), the same for every option of one card."""
    r0, r1, r2 = _pump(s, card, 0, w), _pump(s, card, 1, w), _pump(s, card, 2, w)
    r3, r4, r5 = _pump(s, card, 3, w), _pump(s, card, 4, w), _pump(s, card, 5, w)
    base = (
        r0 * s.hold[seat, 0]
        + r1 * s.hold[seat, 1]
        + r2 * s.hold[seat, 2]
        + r3 * s.hold[seat, 3]
        + r4 * s.hold[seat, 4]
        + r5 * s.hold[seat, 5]
    )
    return (tv[0] + r0, tv[1] + r1, tv[2] + r2, tv[3] + r3, tv[4] + r4, tv[5] + r5, base)


@nb.njit(cache=True, inline="always")
def _prod_utility(s, seat, a, tv, th, cap, terms):
    """Utility of production option a from its card's _prod_terms; storage overflow costs my cheapest tokens."""
    u = terms[6]
    taken = 0
    for c in range(E.NC):
        x = E.taken(a, c)
        u += x * terms[c]
        taken += x
    excess = th + taken + 1 - cap
    if excess > 0:
        minv = 1e18
        for c in range(E.NC):
            if s.hold[seat, c] + E.taken(a, c) > 0:
                minv = min(minv, tv[c])
        u -= excess * minv
    return u


@nb.njit(cache=True, inline="always")
def _cash_penalty(s, seat, w, need):
    """Share of a sale's cash that is discounted: cash is only worth something if there is something to buy."""
    return 0.3 if s.money[seat] > need + w[W_RESERVE] + 10 else 0.0


@nb.njit(cache=True, inline="always")
def _shortfall(s, seat, w, need):
    """Knobs liquid and liqend: (dollars per dollar of proceeds, the cash shortfall they fill, the proceeds a sale
    must exceed to earn the premium: -1 for any sale, else the richest other player's money minus mine)."""
    gap = -1.0
    if w[W_LIQEND] > 0.0:
        rl = s.rr_n + (1 if s.rr_offer[0] >= 0 else 0) + (1 if s.rr_offer[1] >= 0 else 0)
        if rl < w[W_LIQEND] * s.n:
            richest = 0
            for o in range(s.n):
                if o != seat:
                    richest = max(richest, np.int64(s.money[o]))
            gap = max(np.float64(richest - s.money[seat]), 0.0)
    return w[W_LIQUID], max(need - np.float64(s.money[seat]), 0.0), gap


@nb.njit(cache=True, inline="always")
def _sell_utility(s, p, seat, a, tvc, pen, liq):
    """Utility of sale a (tvc: my value of one token of its commodity; pen: _cash_penalty; liq: _shortfall)."""
    c = E.commodity_of(a)
    return _sale_utility(s, seat, c, E.qty_of(a), E.sale_price(s, p, c, E.export_of(a)), tvc, pen, liq)


@nb.njit(cache=True, inline="always")
def _sale_utility(s, seat, c, q, price, tvc, pen, liq):
    """_sell_utility of selling q tokens of c at price (E.sale_price)."""
    drop = min(q, price - np.int64(s.pmin[c]))
    left = s.hold[seat, c] - q
    u = q * price - q * tvc - 0.5 * left * drop - pen * q * price
    if liq[0] > 0.0 and q * price > liq[2]:
        u += liq[0] * min(np.float64(q * price), liq[1])
    return u


@nb.njit(cache=True, inline="always")
def utility(s, p, seat, a, sid, w, tv, need, nt, nr, fl, bbest, th, cap):
    """Dollar utility of legal action a.  tv: token values by commodity; need: cash I have a use for; the rest is the
    per-decision context (seat's counts, share of the game left, best bonus building, tokens held and storage
    limit): the same for every action of one decision, so _choose_best computes it once."""
    kind = E.kind_of(a)
    if kind == E.A_PROD:
        return _prod_utility(s, seat, a, tv, th, cap, _prod_terms(s, seat, E.card_of(a), tv, w))
    if kind == E.A_SELL:
        return _sell_utility(
            s, p, seat, a, tv[E.commodity_of(a)], _cash_penalty(s, seat, w, need), _shortfall(s, seat, w, need)
        )
    if kind == E.A_AUCTION:
        co = E.railroad_of(a)
        mine = rail_value(s, p, seat, co, w, nt, nr)
        return w[W_START] * (mine - E.rr_min_bid(p, co) * _dollar(s, p, seat, w)) + 1.0
    if kind == E.A_BUY:
        bt = s.tile_type[E.tile_of(a)]
        dol = _dollar(s, p, seat, w)
        return building_value(s, p, seat, bt, sid, w, False, fl, nt, nr, bbest) - E.bt_cost(p, bt) * dol
    if kind == E.A_UPGRADE:
        bt = s.tile_type[E.tile_of(a)]
        dol = _dollar(s, p, seat, w)
        return building_value(s, p, seat, bt, sid, w, True, fl, nt, nr, bbest) - E.upgrade_price(s, p, bt) * dol
    if kind == E.A_TOWN_NAMED:
        t = E.town_of(a)
        c = E.town_com(p, t)
        k = E.town_cost_named(s, p, seat, t)
        return town_value(s, p, seat, t, sid, w, nt, nr) - k * np.float64(s.price[c]) * (1.0 - 0.5 * w[W_PEAK])
    if kind == E.A_TOWN_ANY:
        t = E.town_of(a)
        k = E.town_cost_any(s, p, seat, t)
        return town_value(s, p, seat, t, sid, w, nt, nr) - _cheapest_tokens(s, seat, k, tv)
    if kind == E.A_DECLARE:
        return 1e9
    if kind == E.A_END_TURN or kind == E.A_PASS or kind == E.A_TF_SKIP:
        return 0.0
    if kind == E.A_PAY or kind == E.A_DISCARD:
        return E.qty_of(a) * (100.0 - tv[E.commodity_of(a)])  # shed the cheapest tokens, in bulk
    if kind == E.A_BONUS:
        t = E.tile_of(a)
        bt = s.tile_type[t]
        amt = E.bonus_amount(s, p, t)
        if bt == E.BT_MACHINE:
            best = 0.0
            for c in range(E.NC):
                best = max(best, tv[c])
            return amt * best
        return amt * tv[bt] * (1.0 if s.supply[bt] > 0 else 0.0)
    if kind == E.A_BONUS_ANY or kind == E.A_COMP:
        return tv[E.commodity_of(a)]
    if kind == E.A_TF_TARGET:
        c = E.commodity_of(a)
        return tv[c] - s.price[c]
    if kind == E.A_TF_QTY:
        c = E.commodity_of(a)
        q = E.qty_of(a)
        t = s.town_offer
        need = 0
        if t >= 0 and E.town_com(p, t) == c:
            need = E.town_cost_named(s, p, seat, t) - s.hold[seat, c]
        return -abs(q - max(need, 1))
    return 0.0


@nb.njit(cache=True, inline="always")
def _dollar(s, p, seat, w):
    """Knob rich: what a dollar I spend is worth to me (1 below rich dollars, less the richer I am; with my Bank,
    at least the VP it scores)."""
    if w[W_RICH] <= 0.0 or s.money[seat] <= w[W_RICH]:
        return 1.0
    m = w[W_RICH] / np.float64(s.money[seat])
    if E.owns(s, seat, E.BT_BANK):
        m = max(m, w[W_DPV] / p[P.P_BANK_PER_VP])
    return min(m, 1.0)


@nb.njit(cache=True, inline="always")
def _last_card(s, w):
    """Knob lastcard on and this is the last railroad card (the other offer slot empty, the deck empty) or the
    game's end is already triggered: money left at the end only breaks ties."""
    return w[W_LASTCARD] > 0.0 and (s.end_trig != 0 or (s.rr_n == 0 and (s.rr_offer[0] < 0 or s.rr_offer[1] < 0)))


@nb.njit(cache=True, inline="always")
def _limit_lead(s, p, seat, w, co, lead, last):
    """bid_limit for railroad co, the VP leader among the others (lead, -1: none) and _last_card (last) given."""
    mine = rail_value(s, p, seat, co, w, s.lv_nt[seat], s.lv_nr[seat])
    deny = 0.0
    if lead >= 0:
        k = s.rr_own[lead, co]
        deny = w[W_DENY] * w[W_DPV] * (E.rr_vp(p, co, k + 1) - E.rr_vp(p, co, k))
    lim = max(mine, deny) / _dollar(s, p, seat, w)
    if last:
        lim = max(lim, np.float64(s.money[seat]))
    return min(lim, s.money[seat] - w[W_RESERVE])


@nb.njit(cache=True, _nrt=False)
def _limit_co(s, p, seat, w, co):
    """bid_limit for railroad co; s.lv and s.lv_nt, s.lv_nr must be current (E.score_all_seats)."""
    # the VP leader among the others
    lead = -1
    bv = -1
    for o in range(s.n):
        if o == seat:
            continue
        v = s.lv[o]
        if v > bv:
            bv = v
            lead = o
    return _limit_lead(s, p, seat, w, co, lead, _last_card(s, w))


@one_copy(_nrt=False)
def _limits_co(s, p, w, co):
    """_limit_co of every seat into s.bl_lim.  The leader among the others of a seat is the first seat of the
    highest s.lv (top), or for top itself the first of the highest among the rest (second): one pass for all."""
    top = -1
    bv = -1
    for o in range(s.n):
        if s.lv[o] > bv:
            bv = s.lv[o]
            top = o
    second = -1
    bv = -1
    for o in range(s.n):
        if o != top and s.lv[o] > bv:
            bv = s.lv[o]
            second = o
    last = _last_card(s, w)
    for o in range(s.n):
        s.bl_lim[o] = _limit_lead(s, p, o, w, co, second if o == top else top, last)


@nb.njit(cache=True, _nrt=False)
def bid_limit(s, p, seat, w):
    # each seat's VP and money, towns and railroad cards (E.score_all_seats), computed once per auction
    if s.lv_key != s.auc_serial:
        E.score_all_seats(s, p)
        s.lv_key = s.auc_serial
    return _limit_co(s, p, seat, w, s.auc_co)


@nb.njit(cache=True, _nrt=False)
def predict_auction(s, p, starter, co, w):
    """(winner or -1, price) of an auction of railroad co started by starter if every seat bids as choose's auction
    branch does with weights w (limits from public information).  s.lv must be current (E.score_all_seats); the
    limits are written to the scratch s.bl_lim, whose cache key (bl_key, an auction serial) stays stale, so the
    next auction recomputes them."""
    n = s.n
    _limits_co(s, p, w, co)
    lo = E.rr_min_bid(p, co)
    must = p[P.P_AUCTION_OPEN] == 0
    lim0 = s.bl_lim[starter]
    if E.two_player_auction(s, p):
        other = 1 - starter
        amount = -1
        if lo <= lim0:
            amount = min(np.int64(np.floor(lim0)), max(lo, np.int64(np.ceil(s.bl_lim[other]))))
            amount = max(min(amount, np.int64(s.money[starter])), lo)
        elif must:
            amount = lo
        nm = lo if amount < 0 else amount + 1
        if s.money[other] >= nm and nm <= s.bl_lim[other]:
            return other, nm
        if amount < 0:
            return -1, 0
        return starter, amount
    leader = -1
    high = 0
    passed = 0
    if lo <= lim0 or must:
        leader = starter
        high = lo
    else:
        passed |= 1 << starter
    j = starter
    while True:
        nxt = -1
        for _ in range(n):
            j += 1
            if j >= n:
                j = 0
            if (passed >> j) & 1 or j == leader:
                continue
            nxt = j
            break
        if nxt < 0:
            break
        nm = lo if leader < 0 else high + 1
        if s.money[nxt] >= nm and nm <= s.bl_lim[nxt]:
            leader = nxt
            high = nm
        else:
            passed |= 1 << nxt
    return leader, high


@nb.njit(cache=True, inline="always")
def _my_limit(s, p, seat, w):
    """bid_limit of seat in the current auction.  Nothing it reads (holdings, VP, money) changes during an auction,
    so it is computed once per bidder and auction (s.bl_lim, keyed by the auction's serial)."""
    if s.bl_key[seat] != s.auc_serial:
        s.bl_lim[seat] = bid_limit(s, p, seat, w)
        s.bl_key[seat] = s.auc_serial
    return s.bl_lim[seat]


@nb.njit(cache=True, inline="always")
def quick_choice(s, p, seat, sid, weights):
    """The action choose would pick, decided without the legal-action list (sim.kernel's quick_choice), in the two
    kinds of decision that make most of a game's time: the main phase's (_quick_main) and the bid of an auction
    with more than two players (two decisions in three).  A bid: the next minimum while it is within my limit,
    else pass; when money only breaks ties (_last_card), jump to the highest listed amount within the limit at once
    (a $1 ladder up to a fortune would take thousands of decisions).  -1 for every other decision."""
    if s.over != 0:
        return np.int64(-1)
    if s.phase == E.PH_MAIN:
        return _quick_main(s, p, seat, sid, weights)
    if s.phase != E.PH_AUCTION or E.two_player_auction(s, p):
        return np.int64(-1)
    w = weights
    lim = _my_limit(s, p, seat, w)
    lo = E.auction_next_min(s, p)
    can_pass = E.may_pass_bid(s, p, seat)
    if s.money[seat] < lo:
        return np.int64(E.A_PASS_BID) if can_pass else np.int64(-1)
    if lo <= lim and _last_card(s, w):
        return E.encode_bid(E.highest_bid_listed(s, p, seat, lo, lim))
    if lo <= lim or not can_pass:
        return E.encode_bid(lo)
    return np.int64(E.A_PASS_BID)


@nb.njit(cache=True, inline="always")  # into the kernel's decide: an auction bid costs no call; the main-phase
def choose(s, p, seat, legal, n, sid, weights):  # search (_choose_best) stays one
    w = weights
    if s.phase == E.PH_AUCTION:
        if not E.two_player_auction(s, p):
            a = quick_choice(s, p, seat, sid, w)
            for i in range(n):
                if legal[i] == a:
                    return i
            return 0
        # two players: the starter bids once and the other may raise by $1, so bidding the minimum hands the card
        # to any opponent who values it more.  Bid up to what the opponent is estimated to pay (its limit by my
        # weights, from public information), never above my own limit.  The engine lists the bids in ascending
        # order (lo_amt, lo_amt + 1, ...), then the pass (if allowed).
        lim = _my_limit(s, p, seat, w)
        lowest = -1
        lo_amt = 1 << 40
        if E.kind_of(legal[0]) == E.A_BID:
            lowest = 0
            lo_amt = E.amount_of(legal[0])
        pas = n - 1 if E.kind_of(legal[n - 1]) != E.A_BID else -1
        bids = n if pas < 0 else n - 1
        if lowest >= 0 and lo_amt <= lim and seat == s.auc_starter and s.auc_leader < 0:
            other = 1 - seat
            opp = bid_limit(s, p, other, w)
            amount = min(np.int64(np.floor(lim)), max(lo_amt, np.int64(np.ceil(opp))))
            return min(amount - lo_amt, bids - 1)
        if lowest >= 0 and lo_amt <= lim and _last_card(s, w):
            k = 0
            for i in range(bids):
                if E.amount_of(legal[i]) <= lim:
                    k = i
            return k
        if lowest >= 0 and (lo_amt <= lim or pas < 0):
            return lowest
        return pas if pas >= 0 else 0
    return _choose_best(s, p, seat, legal, n, sid, w)


@nb.njit(cache=True, inline="always")
def _context(s, p, seat, sid, w):
    """What utility reads besides the action, the same for every action of one decision: token values, the cash I
    have a use for (need), my towns and railroad cards, the share of the game left, my best bonus building, tokens
    held, the storage limit, the sale terms _cash_penalty and _shortfall."""
    tv = token_values(s, p, seat, sid, w)
    need = 0.0
    nt = 0
    nr = 0
    fl = 0.0
    bbest = 0.0
    ph = s.phase
    if ph == E.PH_MAIN or ph == E.PH_SELL2 or ph == E.PH_BUILD2:
        nt, nr = _counts(s, seat)
        fl = _frac_left(s)
        bbest = _best_bonus(s, p, seat)
    if ph == E.PH_MAIN or ph == E.PH_SELL2:
        for k in range(E.N_BLD_OFFER):
            t = s.bld_offer[k]
            if t >= 0:
                need = max(need, np.float64(E.bt_cost(p, s.tile_type[t])))
        for k in range(E.N_RR_OFFER):
            co = s.rr_offer[k]
            if co >= 0:
                need = max(need, 0.8 * rail_value(s, p, seat, co, w, nt, nr))
    th = E.total_hold(s, seat)
    cap = E.storage_cap(s, p, seat)
    return tv, need, nt, nr, fl, bbest, th, cap, _cash_penalty(s, seat, w, need), _shortfall(s, seat, w, need)


@nb.njit(cache=True, _nrt=False)
def _choose_best(s, p, seat, legal, n, sid, w):
    """Every phase but the auction: the legal action of highest utility (plus the noise term)."""
    tv, need, nt, nr, fl, bbest, th, cap, pen, liq = _context(s, p, seat, sid, w)
    best = 0
    bu = -1e300
    pcard = -1  # production options come grouped by card: their terms are computed once a card
    terms = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    sc = -1  # sales come grouped by commodity: its token value is looked up once a commodity
    tvc = 0.0
    # the policy stream, advanced in a local and stored back once (sim.rng.float_of).  Mixing only the draws that
    # could change the choice gives the same numbers but measured 2% slower (a hard-to-predict branch).
    x = s.rng[1]
    odds = w[W_STARTODDS] > 0.0
    bu_rest = -1e300  # the best action other than an auction: what I do after losing one
    ai1 = -1  # with startodds the auction starts (at most one per offer slot) are valued after the loop, with the
    ai2 = -1  # noise each drew in its place
    ar1 = 0.0
    ar2 = 0.0
    for i in range(n):
        a = legal[i]
        kind = E.kind_of(a)
        x = np.uint64(x + GOLDEN)
        if kind == E.A_AUCTION and odds:
            if ai1 < 0:
                ai1 = i
                ar1 = float_of(x)
            else:
                ai2 = i
                ar2 = float_of(x)
            continue
        if kind == E.A_PROD:
            if E.card_of(a) != pcard:
                pcard = E.card_of(a)
                terms = _prod_terms(s, seat, pcard, tv, w)
            u = _prod_utility(s, seat, a, tv, th, cap, terms)
        elif kind == E.A_SELL:
            if E.commodity_of(a) != sc:
                sc = E.commodity_of(a)
                tvc = tv[sc]
            u = _sell_utility(s, p, seat, a, tvc, pen, liq)
        else:
            u = utility(s, p, seat, a, sid, w, tv, need, nt, nr, fl, bbest, th, cap)
        u += w[W_NOISE] * float_of(x)
        if kind != E.A_AUCTION:
            bu_rest = max(bu_rest, u)
        if u > bu:
            bu = u
            best = i
    s.rng[1] = x
    if ai1 >= 0:
        # the first index of the highest value is played, whatever order the values are compared in
        co1 = E.railroad_of(legal[ai1])
        co2 = E.railroad_of(legal[ai2]) if ai2 >= 0 else -1
        best = _auction_starts(s, p, seat, w, nt, nr, ai1, co1, ar1, ai2, co2, ar2, best, bu, bu_rest)
    return best


@nb.njit(cache=True, _nrt=False)
def _quick_main(s, p, seat, sid, w):
    """_choose_best in the main phase without the legal-action list: the productions and sales are generated in
    the list's order (actions.legal_actions) and scored as they are generated, each with the noise draw of its
    place in the list; the few actions after them are listed by the engine (legal_main_rest) into a scratch field.
    The action played, with the policy stream advanced exactly as choose on the list would (not at all when only
    one action is listed: the kernel then asks no one)."""
    tv, need, nt, nr, fl, bbest, th, cap, pen, liq = _context(s, p, seat, sid, w)
    noise = w[W_NOISE]
    x = s.rng[1]
    i = 0  # the place the next action has in the legal list
    best = 0
    best_a = np.int64(E.A_PASS)
    bu = -1e300
    bu_rest = -1e300
    # productions: the options of one card are every way to take k of its tokens (up to k, rule.production_take),
    # lexicographic in the commodities; a utility's terms are added in commodity order, as _prod_utility does
    pmax = E.prod_max(s, p, seat)
    upto = p[P.P_PROD_TAKE] == 1
    for h in range(s.hand_n[seat]):
        card = s.hand[seat, h]
        a0 = E.prod_avail(s, p, card, 0)
        a1 = E.prod_avail(s, p, card, 1)
        a2 = E.prod_avail(s, p, card, 2)
        a3 = E.prod_avail(s, p, card, 3)
        a4 = E.prod_avail(s, p, card, 4)
        a5 = E.prod_avail(s, p, card, 5)
        k = min(pmax, a0 + a1 + a2 + a3 + a4 + a5)
        # q_j: the tokens available from commodity j on.  With exactly k taken, commodity j - 1 takes at least what
        # the rest cannot supply; up to k, any amount (q_j = k puts no lower bound)
        q5 = k if upto else a5
        q4 = k if upto else a4 + q5
        q3 = k if upto else a3 + q4
        q2 = k if upto else a2 + q3
        q1 = k if upto else a1 + q2
        t = _prod_terms(s, seat, card, tv, w)
        for x0 in range(max(0, k - q1), min(a0, k) + 1):
            r0 = k - x0
            u0 = t[6] + x0 * t[0]
            for x1 in range(max(0, r0 - q2), min(a1, r0) + 1):
                r1 = r0 - x1
                u1 = u0 + x1 * t[1]
                for x2 in range(max(0, r1 - q3), min(a2, r1) + 1):
                    r2 = r1 - x2
                    u2 = u1 + x2 * t[2]
                    for x3 in range(max(0, r2 - q4), min(a3, r2) + 1):
                        r3 = r2 - x3
                        u3 = u2 + x3 * t[3]
                        for x4 in range(max(0, r3 - q5), min(a4, r3) + 1):
                            r4 = r3 - x4
                            u4 = u3 + x4 * t[4]
                            for x5 in range(r4 if not upto else 0, min(a5, r4) + 1):
                                u = u4 + x5 * t[5]
                                excess = th + (x0 + x1 + x2 + x3 + x4 + x5) + 1 - cap
                                if excess > 0:
                                    u -= excess * _min_value_held(s, seat, tv, x0, x1, x2, x3, x4, x5)
                                x = np.uint64(x + GOLDEN)
                                u += noise * float_of(x)
                                bu_rest = max(bu_rest, u)
                                if u > bu:
                                    bu = u
                                    best = i
                                    best_a = E.encode_prod(card, x0, x1, x2, x3, x4, x5)
                                i += 1
    # sales, by commodity, the plain sale before the Export Company's
    exp = E.can_export(s, p, seat)
    for c in range(E.NC):
        if s.hold[seat, c] == 0:
            continue
        tvc = tv[c]
        for xe in range(2 if exp else 1):
            price = E.sale_price(s, p, c, xe)
            for q in range(1, E.sale_qmax(s, p, seat, c, xe) + 1):
                u = _sale_utility(s, seat, c, q, price, tvc, pen, liq)
                x = np.uint64(x + GOLDEN)
                u += noise * float_of(x)
                bu_rest = max(bu_rest, u)
                if u > bu:
                    bu = u
                    best = i
                    best_a = E.encode_sell(c, q, xe)
                i += 1
    # the rest, as _choose_best scores them
    odds = w[W_STARTODDS] > 0.0
    ai1 = -1
    ai2 = -1
    co1 = -1
    co2 = -1
    ar1 = 0.0
    ar2 = 0.0
    m = E.legal_main_rest(s, p, seat, s.main_rest, 0)
    for j in range(m):
        a = s.main_rest[j]
        kind = E.kind_of(a)
        x = np.uint64(x + GOLDEN)
        if kind == E.A_AUCTION and odds:
            if ai1 < 0:
                ai1 = i
                co1 = E.railroad_of(a)
                ar1 = float_of(x)
            else:
                ai2 = i
                co2 = E.railroad_of(a)
                ar2 = float_of(x)
            i += 1
            continue
        u = utility(s, p, seat, a, sid, w, tv, need, nt, nr, fl, bbest, th, cap) + noise * float_of(x)
        if kind != E.A_AUCTION:
            bu_rest = max(bu_rest, u)
        if u > bu:
            bu = u
            best = i
            best_a = a
        i += 1
    if i <= 1:
        # one listed action (or none: the pass): played without asking, the stream untouched
        return best_a if ai1 < 0 else s.main_rest[0]
    s.rng[1] = x
    if ai1 >= 0:
        best = _auction_starts(s, p, seat, w, nt, nr, ai1, co1, ar1, ai2, co2, ar2, best, bu, bu_rest)
        if best == ai1:
            return s.main_rest[ai1 - (i - m)]
        if best == ai2:
            return s.main_rest[ai2 - (i - m)]
    return best_a


@nb.njit(cache=True, inline="always")
def _min_value_held(s, seat, tv, x0, x1, x2, x3, x4, x5):
    """The lowest token value among the commodities seat holds after taking x0..x5 (_prod_utility's overflow)."""
    minv = 1e18
    for c in range(E.NC):
        xc = x0 if c == 0 else (x1 if c == 1 else (x2 if c == 2 else (x3 if c == 3 else (x4 if c == 4 else x5))))
        if s.hold[seat, c] + xc > 0:
            minv = min(minv, tv[c])
    return minv


@one_copy(_nrt=False)
def _auction_starts(s, p, seat, w, nt, nr, ai1, co1, ar1, ai2, co2, ar2, best, bu, bu_rest):
    """Knob startodds: _choose_best's choice (best, of value bu; bu_rest the best value of an action that is no
    auction start) with the auction starts at places ai1 and ai2 of the list (-1: none), of railroads co1 and co2,
    and their noise draws ar1, ar2.
    A start I would win is worth its plain value (start x (my value - minimum bid) + 1 + noise); one I would lose
    is worth what I do next plus its own term (oddsand: at most the plain value), compared after every other
    action.  The outcome is played out in advance only for a start that could be chosen: with oddsand, one whose
    plain value is below bu_rest never is."""
    scored = False
    lose1 = -1  # auctions I expect to lose: index, value and plain value
    lose2 = -1
    ld1 = 0.0
    ld2 = 0.0
    ov1 = 0.0
    ov2 = 0.0
    for j in range(2):
        i = ai1 if j == 0 else ai2
        if i < 0:
            break
        r = ar1 if j == 0 else ar2
        co = co1 if j == 0 else co2
        # the plain value of the start: a start I win is worth it, a start I lose at most it (oddsand)
        mv = rail_value(s, p, seat, co, w, nt, nr) - E.rr_min_bid(p, co) * _dollar(s, p, seat, w)
        ov = w[W_START] * mv + 1.0 + w[W_NOISE] * r
        if w[W_ODDSAND] != 0.0 and ov < bu_rest:
            continue
        if not scored:
            E.score_all_seats(s, p)
            scored = True
        win, price = predict_auction(s, p, seat, co, w)
        if win == seat:
            if ov > bu or (ov == bu and i < best):
                bu = ov
                best = i
        else:
            # I act again; the winner's net gain (his value by my weights minus the price) is my loss
            g = 0.0
            if win >= 0:
                g = rail_value(s, p, win, co, w, s.lv_nt[win], s.lv_nr[win]) - price
            if lose1 < 0:
                lose1 = i
                ld1 = 1.0 - w[W_STARTODDS] * g + w[W_NOISE] * r
                ov1 = ov
            else:
                lose2 = i
                ld2 = 1.0 - w[W_STARTODDS] * g + w[W_NOISE] * r
                ov2 = ov
    if lose1 >= 0:
        v = bu_rest + ld1 if w[W_ODDSAND] == 0.0 else min(bu_rest + ld1, ov1)
        if v > bu:
            bu = v
            best = lose1
    if lose2 >= 0:
        v = bu_rest + ld2 if w[W_ODDSAND] == 0.0 else min(bu_rest + ld2, ov2)
        if v > bu:
            best = lose2
    return best
