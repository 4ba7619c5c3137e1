"""Raccoon Tycoon rules, jitted: setup, what each action does (apply_action) and the actions' stages other than
production (production.py): selling, auctions, buildings and towns.  See RULES.md in this folder for every rule and
each reading."""

import numba as nb
import numpy as np

from sim.events import log_event
from sim.kernel import one_copy
from sim.rng import rand_below, shuffle

from . import params as P
from .actions import (
    A_AUCTION,
    A_BID,
    A_BONUS,
    A_BONUS_ANY,
    A_BUY,
    A_COMP,
    A_DECLARE,
    A_DISCARD,
    A_END_TURN,
    A_PASS,
    A_PASS_BID,
    A_PAY,
    A_PROD,
    A_SELL,
    A_TF_QTY,
    A_TF_SKIP,
    A_TF_TARGET,
    A_TOWN_ANY,
    A_TOWN_NAMED,
    A_UPGRADE,
    amount_of,
    commodity_of,
    export_of,
    kind_of,
    qty_of,
    railroad_of,
    seat_of,
    slot_of,
    tile_of,
    town_of,
)
from .components import (
    add_item,
    auction_next_min,
    bt_cost,
    bt_upcost,
    construction_company_ready,
    owns,
    rr_min_bid,
    town_com,
    town_cost_any,
    town_cost_named,
    town_vp,
    two_player_auction,
    upgrade_price,
)
from .production import any_supply, bonus_stage, discard, give_tokens, price_stage, produce, storage_stage, use_bonus
from .state import (
    BT_AUCTION,
    BT_FIRM_CI,
    BT_FIRM_GL,
    BT_FIRM_WW,
    BT_FREIGHT,
    BT_MACHINE,
    COAL,
    E_AUCTION,
    E_BID,
    E_BLD_REVEAL,
    E_BONUS,
    E_BUY,
    E_COMMISSION,
    E_COMP,
    E_DECLARE,
    E_FIRM,
    E_NOTHING,
    E_PASS,
    E_PAY,
    E_RR_REVEAL,
    E_SELL,
    E_START,
    E_TF,
    E_TOWN,
    E_TOWN_REVEAL,
    E_TURN,
    E_UNSOLD,
    E_UPGRADE,
    E_WON,
    END_NONE,
    END_RAILROADS,
    END_SUDDEN,
    END_TOWNS,
    IRON,
    IT_RR0,
    IT_TOWN0,
    IT_UPGRADE0,
    MAX_PLAYERS,
    N_BASIC_BT,
    N_BLD_OFFER,
    N_BT,
    N_CARDS,
    N_RR,
    N_RR_OFFER,
    N_TOWNS,
    NC,
    PH_AUCTION,
    PH_BONUS_ANY,
    PH_BUILD2,
    PH_COMP,
    PH_MAIN,
    PH_PAY,
    PH_SELL2,
    PH_TF_QTY,
    WHEAT,
    WOOD,
)
from .turn import current_player, draw_card, end_turn, finish_game, reset_turn, trigger_end


@nb.njit(cache=True, _nrt=False)
def setup(s, p, n_players):
    """Set up a game (RULES.md, setup): every field a game reads is reset here, as the record is reused."""
    n = n_players
    s.n = n
    s.over = 0
    s.end_trig = 0
    s.end_reason = END_NONE
    s.winner_sd = -1
    s.turn = 0
    s.rnd = 0
    s.n_items = 0
    s.auc_serial = 0
    s.lv_key = 0
    for seat in range(MAX_PLAYERS):
        s.money[seat] = np.int32(p[P.P_START_MONEY]) if seat < n else 0
        s.hand_n[seat] = 0
        s.n_bld[seat] = 0
        s.sold[seat] = 0
        s.revenue[seat] = 0
        s.auc_won[seat] = 0
        s.auc_spend[seat] = 0
        s.bld_spend[seat] = 0
        s.town_tokens[seat] = 0
        s.comp_recv[seat] = 0
        s.n_prod[seat] = 0
        s.turns_taken[seat] = 0
        s.firm_income[seat] = 0
        s.commission[seat] = 0
        s.auc_passed[seat] = 0
        s.bl_key[seat] = 0
        s.bl_lim[seat] = 0.0
        for c in range(NC):
            s.hold[seat, c] = 0
            s.comp_got[seat, c] = 0
        for co in range(N_RR):
            s.rr_own[seat, co] = 0
        for bt in range(N_BT):
            s.own_bt[seat, bt] = 0
    _set_up_market_and_cards(s, p)
    # start player
    if p[P.P_START_PLAYER] == 1:
        s.sp = 0
    else:
        s.sp = rand_below(s.rng, 0, n)
    log_event(s, E_START, n, s.sp, 0, 0)
    for k in range(n):
        seat = (s.sp + k) % n
        for _ in range(np.int64(p[P.P_HAND])):
            draw_card(s, p, seat)
    _set_up_railroads(s, p, n)
    _set_up_towns(s, p, n)
    _set_up_buildings(s, p, n)
    # per-turn scratch
    s.cur = s.sp
    reset_turn(s)
    _free_start_tokens(s, p, n)


@nb.njit(cache=True, _nrt=False)
def _set_up_market_and_cards(s, p):
    """The price tracks and the supply, and the P&P deck shuffled."""
    # market and supply
    for c in range(NC):
        s.pmin[c] = np.int16(p[P.P_PRICE_MIN0 + c * P.MK_STRIDE + P.MK_MIN])
        s.pmax[c] = np.int16(p[P.P_PRICE_MIN0 + c * P.MK_STRIDE + P.MK_MAX])
        s.price[c] = s.pmin[c]
        s.supply[c] = np.int16(p[P.P_SUPPLY])
    # P&P cards
    for i in range(N_CARDS):
        price_code = np.int64(p[P.P_PP0 + i * P.PP_STRIDE + P.PP_PRICE])
        prod_code = np.int64(p[P.P_PP0 + i * P.PP_STRIDE + P.PP_PRODUCTION])
        # decoded once while a state plays one design
        if price_code != s.pp_code[i, 0] or prod_code != s.pp_code[i, 1]:
            s.pp_code[i, 0] = price_code
            s.pp_code[i, 1] = prod_code
            for c in range(NC - 1, -1, -1):  # the decimal digits of the icon codes, last commodity first
                s.pp_price[i, c] = price_code % 10
                s.pp_prod[i, c] = prod_code % 10
                price_code //= 10
                prod_code //= 10
        s.deck[i] = i
    s.deck_n = N_CARDS
    s.disc_n = 0
    shuffle(s.rng, 0, s.deck, s.deck_n)


@nb.njit(cache=True, _nrt=False)
def _set_up_railroads(s, p, n):
    """The railroad deck for n players, shuffled, two cards face up."""
    # railroads
    m = 0
    for co in range(N_RR):
        if n >= p[P.P_RR0 + co * P.RR_STRIDE + P.RR_MIN_PLAYERS]:
            for _ in range(np.int64(p[P.P_RR0 + co * P.RR_STRIDE + P.RR_COPIES])):
                s.rr_deck[m] = co
                m += 1
    s.rr_n = m
    shuffle(s.rng, 0, s.rr_deck, s.rr_n)
    for k in range(N_RR_OFFER):
        s.rr_offer[k] = -1
        if s.rr_n > 0:
            s.rr_n -= 1
            s.rr_offer[k] = s.rr_deck[s.rr_n]
            log_event(s, E_RR_REVEAL, s.rr_offer[k], k, 0, 0)


@nb.njit(cache=True, _nrt=False)
def _set_up_towns(s, p, n):
    """The town deck, lowest VP on top."""
    # towns: ordered by VP (lowest on top), shuffled within a VP value; 2 players: one of each value removed
    m = 0
    for t in range(N_TOWNS):
        s.town_owner[t] = -1
        s.town_deck[m] = t
        m += 1
    shuffle(s.rng, 0, s.town_deck, m)
    # stable insertion sort by VP (ascending): the random order survives within a VP value
    for i in range(1, m):
        x = s.town_deck[i]
        j = i - 1
        while j >= 0 and town_vp(p, s.town_deck[j]) > town_vp(p, x):
            s.town_deck[j + 1] = s.town_deck[j]
            j -= 1
        s.town_deck[j + 1] = x
    if n == 2 and p[P.P_TWO_PLAYER_TOWNS] == 1:
        # after the shuffle+stable sort the first card of each VP run is a random one of that value: drop it
        w = 0
        for i in range(m):
            t = s.town_deck[i]
            if i == 0 or town_vp(p, s.town_deck[i - 1]) != town_vp(p, t):
                continue
            s.town_deck[w] = t
            w += 1
        m = w
    # the deck is drawn from the end of the array: reverse so the lowest VP is on top
    for i in range(m // 2):
        x = s.town_deck[i]
        s.town_deck[i] = s.town_deck[m - 1 - i]
        s.town_deck[m - 1 - i] = x
    s.town_n = m
    s.town_offer = -1
    if s.town_n > 0:
        s.town_n -= 1
        s.town_offer = s.town_deck[s.town_n]
        log_event(s, E_TOWN_REVEAL, s.town_offer, 0, 0, 0)


@nb.njit(cache=True, _nrt=False)
def _set_up_buildings(s, p, n):
    """The building tiles, the offer and the stack."""
    # buildings: basic tiles shuffled, some on offer; advanced tiles shuffled into the stack
    nt = 0
    for bt in range(N_BT):
        for _ in range(np.int64(p[P.P_BLD0 + bt * P.BLD_STRIDE + P.BLD_COPIES])):
            s.tile_type[nt] = bt
            s.tile_owner[nt] = -1
            s.tile_level[nt] = 1
            s.tile_turn[nt] = 0
            nt += 1
    s.n_tiles = nt
    n_btiles = 0
    n_utiles = 0
    for t in range(nt):
        bt = s.tile_type[t]
        if bt < N_BASIC_BT or bt == BT_MACHINE:
            s.btile[n_btiles] = t
            n_btiles += 1
        if bt_upcost(p, bt) > 0:
            s.utile[n_utiles] = t
            n_utiles += 1
    s.n_btile = n_btiles
    s.n_utile = n_utiles
    nbasic = 0
    for i in range(nt):
        if s.tile_type[i] < N_BASIC_BT:
            nbasic += 1
    # basic tiles are tiles 0..nbasic-1 (types 0-5 come first)
    order = s.bld_stack  # scratch: shuffle the basic tile ids in the stack array first
    for i in range(nbasic):
        order[i] = i
    shuffle(s.rng, 0, order, nbasic)
    n_basic_offer = np.int64(p[P.P_BASIC_OFFER])
    if p[P.P_OPT_BASIC_BY_PLAYERS] == 1:
        n_basic_offer = min(n, N_BLD_OFFER)
    n_basic_offer = min(n_basic_offer, nbasic, N_BLD_OFFER)
    for k in range(N_BLD_OFFER):
        s.bld_offer[k] = -1
    for k in range(n_basic_offer):
        s.bld_offer[k] = order[k]
    # advanced stack
    m = 0
    if p[P.P_OPT_BEGINNER] == 0:
        for i in range(nbasic, nt):
            s.bld_stack[m] = i
            m += 1
        shuffle(s.rng, 0, s.bld_stack, m)
    elif p[P.P_BEGINNER_BASIC] == 1:
        # the basic tiles not on offer (already shuffled) refill the offer instead of leaving the game
        for i in range(n_basic_offer, nbasic):
            s.bld_stack[m] = order[i]  # order is bld_stack itself and m < i: moving down is safe
            m += 1
    s.bld_n = m
    for k in range(N_BLD_OFFER):
        if s.bld_offer[k] < 0 and s.bld_n > 0:
            s.bld_n -= 1
            s.bld_offer[k] = s.bld_stack[s.bld_n]
    for k in range(N_BLD_OFFER):
        if s.bld_offer[k] >= 0:
            log_event(s, E_BLD_REVEAL, s.bld_offer[k], s.tile_type[s.bld_offer[k]], k, 0)


@nb.njit(cache=True, _nrt=False)
def _free_start_tokens(s, p, n):
    """The free start tokens (the game's first-player compensation): chosen by each seat in turn order, or dealt at
    random."""
    # free start tokens (first-player compensation)
    s.comp_k = 0
    s.comp_left = 0
    if p[P.P_COMP_MODE] == 1:
        for k in range(n):
            seat = (s.sp + k) % n
            want = min(np.int64(p[P.P_COMP0 + k]), NC)
            for _ in range(want):
                navail = 0
                for c in range(NC):
                    if s.comp_got[seat, c] == 0 and (s.supply[c] > 0 or p[P.P_SUPPLY_LIMIT] == 0):
                        navail += 1
                if navail == 0:
                    break
                r = rand_below(s.rng, 0, navail)
                for c in range(NC):
                    if s.comp_got[seat, c] == 0 and (s.supply[c] > 0 or p[P.P_SUPPLY_LIMIT] == 0):
                        if r == 0:
                            _give_comp(s, seat, c)
                            break
                        r -= 1
        _start_game(s)
    else:
        s.phase = PH_COMP
        _next_comp(s, p)


@nb.njit(cache=True, _nrt=False)
def _give_comp(s, seat, c):
    s.hold[seat, c] += 1
    s.supply[c] -= 1
    s.comp_got[seat, c] = 1
    s.comp_recv[seat] += 1
    log_event(s, E_COMP, seat, c, 0, 0)


@nb.njit(cache=True, _nrt=False)
def _comp_options(s, p, seat):
    k = 0
    for c in range(NC):
        if s.comp_got[seat, c] == 0 and (s.supply[c] > 0 or p[P.P_SUPPLY_LIMIT] == 0):
            k += 1
    return k


@nb.njit(cache=True, _nrt=False)
def _next_comp(s, p):
    """Move the free-token choice to the next seat that still has tokens to take; start the game when done."""
    n = s.n
    while s.comp_k < n:
        seat = (s.sp + s.comp_k) % n
        if s.comp_left == 0 and s.comp_recv[seat] == 0:
            s.comp_left = min(np.int64(p[P.P_COMP0 + s.comp_k]), NC)
        if s.comp_left > 0 and _comp_options(s, p, seat) > 0:
            return
        s.comp_k += 1
        s.comp_left = 0
    _start_game(s)


@nb.njit(cache=True, _nrt=False)
def _start_game(s):
    s.phase = PH_MAIN
    s.cur = s.sp
    s.turn = 1
    s.rnd = 1
    log_event(s, E_TURN, s.cur, s.rnd, s.turn, 0)


def COMPILE_IN_CHILD(state, params):
    """... and the child compiles the price stage of a production (about 3 s of the moves' 14 s), which evens
    out the two halves (26.6 s and 26.4 s, against 31.6 s and 22.5 s with nothing named here)."""
    return {"price_stage": (state, params)}


@nb.njit(cache=True, _nrt=False)
def _sell(s, p, seat, c, q, export):
    if export:
        s.price[c] = min(s.price[c] + np.int64(p[P.P_EXPORT_RAISE]), s.pmax[c])
        s.export_used = 1
    price = np.int64(s.price[c])
    s.money[seat] += q * price
    s.hold[seat, c] -= q
    s.supply[c] += q
    s.sold[seat] += q
    s.revenue[seat] += q * price
    s.price[c] = max(price - q, np.int64(s.pmin[c]))
    log_event(s, E_SELL, seat, c, q, price * 2 + export)
    # trading firms
    firm = BT_FIRM_WW if (c == WHEAT or c == WOOD) else (BT_FIRM_CI if (c == COAL or c == IRON) else BT_FIRM_GL)
    per = np.int64(p[P.P_FIRM_PER_UNIT])
    for o in range(s.n):
        k = s.own_bt[o, firm]
        if k > 0 and (o != seat or p[P.P_FIRM_OWN] == 1):
            s.money[o] += k * q * per
            s.firm_income[o] += k * q * per
            log_event(s, E_FIRM, o, firm, k * q * per, 0)


@nb.njit(cache=True, _nrt=False)
def _take_tile(s, p, seat, t, price):
    s.money[seat] -= price
    s.bld_spend[seat] += price
    s.tile_owner[t] = seat
    s.tile_level[t] = 1
    s.tile_turn[t] = s.turn
    bt = s.tile_type[t]
    s.own_bt[seat, bt] += 1
    s.n_bld[seat] += 1
    add_item(s, seat, bt, price)
    log_event(s, E_BUY, seat, t, bt, price)
    for k in range(N_BLD_OFFER):
        if s.bld_offer[k] == t:
            s.bld_offer[k] = -1
            if s.bld_n > 0:
                s.bld_n -= 1
                s.bld_offer[k] = s.bld_stack[s.bld_n]
                log_event(s, E_BLD_REVEAL, s.bld_offer[k], s.tile_type[s.bld_offer[k]], k, 0)


@nb.njit(cache=True, _nrt=False)
def _after_build(s, p):
    s.builds_turn += 1
    if s.builds_turn == 1 and construction_company_ready(s, p, s.cur):
        s.phase = PH_BUILD2
    else:
        end_turn(s, p)


@nb.njit(cache=True, _nrt=False)
def _after_sale(s, p, c):
    s.sales_turn += 1
    if s.sales_turn == 1:
        s.sale1_c = c
        if owns(s, s.cur, BT_FREIGHT):
            s.phase = PH_SELL2
            return
    end_turn(s, p)


@nb.njit(cache=True, _nrt=False)
def _auction_advance(s, p):
    """Next bidder clockwise who has not passed and is not the high bidder; players who cannot afford the next
    minimum pass automatically (passing is their only legal action).  Resolves the auction when no one is left."""
    n = s.n
    two = two_player_auction(s, p)
    if two and s.auc_bidder != s.auc_starter:
        _auction_resolve(s, p)
        return
    j = s.auc_bidder
    for _ in range(n):
        j += 1  # next seat clockwise, (j + 1) % n without a division
        if j >= n:
            j = 0
        if s.auc_passed[j] or j == s.auc_leader:
            continue
        if two and j == s.auc_starter:
            continue
        if s.money[j] < auction_next_min(s, p):
            s.auc_passed[j] = 1
            log_event(s, E_PASS, j, 1, 0, 0)
            if two:
                _auction_resolve(s, p)
                return
            continue
        s.auc_bidder = j
        return
    _auction_resolve(s, p)


@nb.njit(cache=True, _nrt=False)
def _auction_resolve(s, p):
    w = s.auc_leader
    co = s.auc_co
    starter = s.auc_starter
    if w >= 0:
        price = s.auc_high
        s.money[w] -= price
        s.rr_own[w, co] += 1
        s.auc_won[w] += 1
        s.auc_spend[w] += price
        add_item(s, w, IT_RR0 + co, price)
        log_event(s, E_WON, w, co, price, 0)
        k = s.auc_slot
        s.rr_offer[k] = -1
        if s.rr_n > 0:
            s.rr_n -= 1
            s.rr_offer[k] = s.rr_deck[s.rr_n]
            log_event(s, E_RR_REVEAL, s.rr_offer[k], k, 0, 0)
    else:
        log_event(s, E_UNSOLD, co, starter, 0, 0)
    com = np.int64(p[P.P_AUCTION_HOUSE])
    for o in range(s.n):
        k = s.own_bt[o, BT_AUCTION]
        if k > 0 and (o != starter or p[P.P_AUCTION_HOUSE_OWN] == 1):
            s.money[o] += k * com
            s.commission[o] += k * com
            log_event(s, E_COMMISSION, o, k * com, 0, 0)
    s.auctions_turn += 1
    if s.rr_n == 0 and s.rr_offer[0] < 0 and s.rr_offer[1] < 0:
        trigger_end(s, END_RAILROADS)
    s.cur = starter
    if w == starter:
        end_turn(s, p)
    else:
        s.phase = PH_MAIN  # the starter lost (or nobody bought): he acts again


@nb.njit(cache=True, _nrt=False)
def _finish_town(s, p):
    if s.town_n > 0:
        s.town_n -= 1
        s.town_offer = s.town_deck[s.town_n]
        log_event(s, E_TOWN_REVEAL, s.town_offer, 0, 0, 0)
    else:
        s.town_offer = -1
        trigger_end(s, END_TOWNS)
    end_turn(s, p)


@nb.njit(cache=True, inline="always")
def apply_action(s, p, a):
    kind = kind_of(a)
    if kind == A_BID or kind == A_PASS_BID:
        # the auction's bids and passes (two moves in three) do not enter the other moves' big body
        seat = np.int64(s.auc_bidder)
        if kind == A_BID:
            s.auc_high = amount_of(a)
            s.auc_leader = seat
            log_event(s, E_BID, seat, amount_of(a), 0, 0)
        else:
            s.auc_passed[seat] = 1
            log_event(s, E_PASS, seat, 0, 0, 0)
        _auction_advance(s, p)
        _end_if_immediate(s, p)
    else:
        _apply_other(s, p, a)


@nb.njit(cache=True, inline="always")
def _end_if_immediate(s, p):
    """rule.game_end = immediate: stop once the triggering action is fully resolved."""
    if (
        s.end_trig
        and s.over == 0
        and p[P.P_GAME_END] == 1
        and (s.phase == PH_MAIN or s.phase == PH_SELL2 or s.phase == PH_BUILD2)
    ):
        finish_game(s)


@nb.njit(cache=True, _nrt=False)
def _start_auction(s, p, seat, k, co):
    """seat puts the railroad co of offer slot k up for auction and opens the bidding (RULES.md, auction)."""
    s.auc_slot = k
    s.auc_co = co
    s.auc_starter = seat
    s.auc_bidder = seat
    s.auc_leader = -1
    s.auc_high = 0
    s.auc_serial += 1
    for o in range(MAX_PLAYERS):
        s.auc_passed[o] = 0
    s.phase = PH_AUCTION
    log_event(s, E_AUCTION, seat, co, rr_min_bid(p, co), 0)
    if s.money[seat] < rr_min_bid(p, co):  # only under may_decline: he cannot open
        s.auc_passed[seat] = 1
        log_event(s, E_PASS, seat, 1, 0, 0)
        _auction_advance(s, p)


@nb.njit(cache=True, _nrt=False)
def _apply_other(s, p, a):
    kind = kind_of(a)
    seat = current_player(s)
    if kind == A_PROD:
        produce(s, p, seat, a)
    elif kind == A_SELL:
        c = commodity_of(a)
        _sell(s, p, seat, c, qty_of(a), export_of(a))
        _after_sale(s, p, c)
    elif kind == A_AUCTION:
        _start_auction(s, p, seat, slot_of(a), railroad_of(a))
    elif kind == A_BUY:
        t = tile_of(a)
        _take_tile(s, p, seat, t, bt_cost(p, s.tile_type[t]))
        _after_build(s, p)
    elif kind == A_UPGRADE:
        t = tile_of(a)
        bt = s.tile_type[t]
        price = upgrade_price(s, p, bt)
        s.money[seat] -= price
        s.bld_spend[seat] += price
        s.tile_level[t] = 2
        item = IT_UPGRADE0 + (bt if bt < N_BASIC_BT else N_BASIC_BT)  # or the Water Mill
        add_item(s, seat, item, price)
        log_event(s, E_UPGRADE, seat, t, bt, price)
        _after_build(s, p)
    elif kind == A_TOWN_NAMED or kind == A_TOWN_ANY:
        t = town_of(a)
        s.town_owner[t] = seat
        if kind == A_TOWN_NAMED:
            cost = town_cost_named(s, p, seat, t)
            c = town_com(p, t)
            s.hold[seat, c] -= cost
            s.supply[c] += cost
            s.town_tokens[seat] += cost
            add_item(s, seat, IT_TOWN0 + t, cost)
            log_event(s, E_TOWN, seat, t, 0, cost)
            _finish_town(s, p)
        else:
            cost = town_cost_any(s, p, seat, t)
            add_item(s, seat, IT_TOWN0 + t, cost)
            log_event(s, E_TOWN, seat, t, 1, cost)
            s.pay_left = cost
            _pay_stage(s, p)
    elif kind == A_PAY:
        _pay(s, seat, commodity_of(a), qty_of(a))
        _pay_stage(s, p)
    elif kind == A_TF_TARGET:
        s.tf_seat = seat_of(a)
        s.tf_c = commodity_of(a)
        s.phase = PH_TF_QTY
    elif kind == A_TF_SKIP:
        bonus_stage(s, p)
    elif kind == A_TF_QTY:
        c = s.tf_c
        q = qty_of(a)
        o = s.tf_seat
        cost = q * np.int64(s.price[c])
        s.money[seat] -= cost
        s.money[o] += cost
        s.hold[seat, c] += q
        s.hold[o, c] -= q
        log_event(s, E_TF, seat, o, c, q * 1000 + s.price[c])
        bonus_stage(s, p)
    elif kind == A_BONUS:
        use_bonus(s, p, tile_of(a))
    elif kind == A_BONUS_ANY:
        c = commodity_of(a)
        got = give_tokens(s, p, seat, c, 1)
        log_event(s, E_BONUS, seat, -1, c, got)
        s.bonus_left -= 1
        if s.bonus_left > 0 and any_supply(s, p):
            s.phase = PH_BONUS_ANY
        else:
            price_stage(s, p)
    elif kind == A_DISCARD:
        discard(s, seat, commodity_of(a), qty_of(a))
        storage_stage(s, p)
    elif kind == A_COMP:
        _give_comp(s, seat, commodity_of(a))
        s.comp_left -= 1
        if s.comp_left == 0:
            s.comp_k += 1
        _next_comp(s, p)
    elif kind == A_END_TURN:
        end_turn(s, p)
    elif kind == A_DECLARE:
        s.winner_sd = seat
        s.end_reason = END_SUDDEN
        log_event(s, E_DECLARE, seat, s.money[seat], 0, 0)
        finish_game(s)
    elif kind == A_PASS:
        log_event(s, E_NOTHING, seat, 0, 0, 0)
        end_turn(s, p)
    _end_if_immediate(s, p)


@one_copy(_nrt=False)
def _pay(s, seat, c, q):
    s.hold[seat, c] -= q
    s.supply[c] += q
    s.pay_left -= q
    s.town_tokens[seat] += q
    log_event(s, E_PAY, seat, c, q, 0)


@nb.njit(cache=True, _nrt=False)
def _pay_stage(s, p):
    seat = s.cur
    if s.pay_left <= 0:
        _finish_town(s, p)
        return
    kinds = 0
    last = -1
    for c in range(NC):
        if s.hold[seat, c] > 0:
            kinds += 1
            last = c
    if kinds == 1:
        _pay(s, seat, last, s.pay_left)
        _finish_town(s, p)
    else:
        s.phase = PH_PAY
