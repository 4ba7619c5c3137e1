"""What the components say, read from the parameter vector, and what follows from them for a seat: railroad,
town and building values and costs, a seat's limits (storage, hand, production), the auction's next minimum bid."""

import numba as nb
import numpy as np

from sim.kernel import one_copy

from . import params as P
from .state import (
    BT_BLACKMARKET,
    BT_BRICK,
    BT_CONSTRUCTION,
    BT_COTTAGE,
    BT_FACTORY,
    BT_SMUGGLER,
    BT_WAREHOUSE,
    MAX_HAND,
    MAX_ITEMS,
    NC,
)


@nb.njit(cache=True, inline="always")
def rr_min_bid(p, co):
    return np.int64(p[P.P_RR0 + np.int64(co) * P.RR_STRIDE])


@nb.njit(cache=True, inline="always")
def rr_vp(p, co, k):
    """Total VP for owning k cards of railroad co."""
    if k <= 0:
        return 0
    if k > P.RR_SET_MAX:
        k = P.RR_SET_MAX
    return np.int64(p[P.P_RR0 + np.int64(co) * P.RR_STRIDE + np.int64(k)])


@nb.njit(cache=True, inline="always")
def town_vp(p, t):
    return np.int64(p[P.P_TOWN0 + np.int64(t) * P.TOWN_STRIDE])


@nb.njit(cache=True, inline="always")
def town_com(p, t):
    return np.int64(p[P.P_TOWN0 + np.int64(t) * P.TOWN_STRIDE + P.TOWN_COMMODITY])


@nb.njit(cache=True, inline="always")
def bt_cost(p, bt):
    return np.int64(p[P.P_BLD0 + np.int64(bt) * P.BLD_STRIDE])


@nb.njit(cache=True, inline="always")
def bt_upcost(p, bt):
    return np.int64(p[P.P_BLD0 + np.int64(bt) * P.BLD_STRIDE + P.BLD_UPGRADE_COST])


@nb.njit(cache=True, inline="always")
def owns(s, seat, bt):
    return s.own_bt[seat, bt] > 0


@one_copy(_nrt=False)
def town_cost_named(s, p, seat, t):
    c = np.int64(p[P.P_TOWN0 + np.int64(t) * P.TOWN_STRIDE + P.TOWN_COST_NAMED])
    if owns(s, seat, BT_BRICK):
        c -= np.int64(p[P.P_BRICK])
    return max(c, 0)


@one_copy(_nrt=False)
def town_cost_any(s, p, seat, t):
    c = np.int64(p[P.P_TOWN0 + np.int64(t) * P.TOWN_STRIDE + P.TOWN_COST_ANY])
    if owns(s, seat, BT_BRICK):
        c -= np.int64(p[P.P_BRICK])
    return max(c, 0)


@nb.njit(cache=True, _nrt=False)
def upgrade_price(s, p, bt):
    full = bt_upcost(p, bt)
    if p[P.P_UPGRADE_COST] == 1:
        return max(full - bt_cost(p, bt), 0)
    return full


@one_copy(_nrt=False)
def storage_cap(s, p, seat):
    return (
        np.int64(p[P.P_STORAGE_BASE])
        + np.int64(p[P.P_STORAGE_PER_BLD]) * s.n_bld[seat]
        + np.int64(p[P.P_WAREHOUSE]) * s.own_bt[seat, BT_WAREHOUSE]
    )


@nb.njit(cache=True, _nrt=False)
def hand_limit(s, p, seat):
    h = np.int64(p[P.P_HAND])
    if owns(s, seat, BT_SMUGGLER):
        h = max(h, np.int64(p[P.P_SMUGGLER_HAND]))
    if owns(s, seat, BT_BLACKMARKET):
        h = max(h, np.int64(p[P.P_BLACKMARKET_HAND]))
    return min(h, MAX_HAND)


@one_copy(_nrt=False)
def prod_max(s, p, seat):
    """Maximum production: the best single P building applies (one P building per action)."""
    m = np.int64(p[P.P_PROD_MAX])
    if owns(s, seat, BT_COTTAGE):
        m = max(m, np.int64(p[P.P_COTTAGE_MAX]))
    if owns(s, seat, BT_FACTORY):
        m = max(m, np.int64(p[P.P_FACTORY_MAX]))
    return m


@one_copy(_nrt=False)
def total_hold(s, seat):
    t = 0
    for c in range(NC):
        t += s.hold[seat, c]
    return t


@one_copy(_nrt=False)
def add_item(s, seat, item, price):
    i = s.n_items
    if i < MAX_ITEMS:
        s.item_seat[i] = seat
        s.item_id[i] = item
        s.item_turn[i] = s.rnd
        s.item_price[i] = price
        s.n_items = i + 1


@nb.njit(cache=True, inline="always")
def two_player_auction(s, p):
    """The two-player variant applies: the starter bids once, the other raises once or passes (RULES)."""
    return s.n == 2 and p[P.P_TWO_PLAYER_AUCTION] == 1


@nb.njit(cache=True, _nrt=False)
def auction_next_min(s, p):
    if s.auc_leader < 0:
        return rr_min_bid(p, s.auc_co)
    return np.int64(s.auc_high) + 1


@nb.njit(cache=True, _nrt=False)
def construction_company_ready(s, p, seat):
    """Construction Company owned since before this turn (a tile bought this turn works from the next turn, unless
    rule.construction_company_same_turn)."""
    for i in range(s.n_tiles):
        if (
            s.tile_owner[i] == seat
            and s.tile_type[i] == BT_CONSTRUCTION
            and (s.tile_turn[i] < s.turn or p[P.P_CC_SAME_TURN] == 1)
        ):
            return True
    return False


@one_copy(_nrt=False)
def bonus_amount(s, p, t):
    return np.int64(p[P.P_BONUS_PLUS2]) if s.tile_level[t] == 2 else np.int64(p[P.P_BONUS_PLUS1])
