"""Raccoon Tycoon rules, jitted.  See RULES.md in this folder for every rule and each reading.

State: one record of STATE_DTYPE per game.  Seats 0..n-1 sit clockwise; `order` = (seat - start player) mod n.
Actions are `kind << 24 | arg`; every argument names what it acts on (card, commodity, tile, town, railroad),
so text.action_text prints an action without the state.

Decision phases (who decides: current_player):
  COMP      setup: the seat choosing its free start tokens picks one commodity at a time
  MAIN      the active player picks one of the five actions (or, after losing an auction he started, acts again)
  TF_TARGET Trading Floor: buy from (seat, commodity) or skip;  TF_QTY: how many
  BONUS     which B building to use;  BONUS_ANY: the Machine Shop / Water Mill commodity, one token at a time
  DISCARD   over the storage limit after production: discard (commodity, quantity)
  AUCTION   the bidder in turn bids an amount or passes
  PAY       paying a town with 'any commodity': (commodity, quantity) until paid
  SELL2     Freight Company: a second sale or end the turn;  BUILD2: Construction Company second purchase or end
"""
import numba as nb
import numpy as np

from sim.events import log_event
from sim.kernel import LEGAL_TYPE, one_copy
from sim.rng import rand_below, shuffle
from . import params as P

MAX_PLAYERS = 5
NC = 6
MAX_HAND = 8
N_CARDS = P.N_CARDS
N_RR = len(P.RAILROADS)
MAX_RR = 4 * N_RR
N_TOWNS = len(P.TOWNS)
N_BT = P.N_BTYPES
MAX_TILES = 6 + 2 * (N_BT - 6)
MAX_ACTIONS = 256
MAX_ITEMS = 96
MAX_STEPS = 30000
MAX_EVENTS = 64
BID_RAISES = (0, 1, 2, 3, 5, 10, 20)   # bids offered over the next minimum, plus the bidder's whole money (RULES.md)
# ... except in the two-player variant, where each side bids only once: every amount from the minimum, as many as fit
# beside the pass and the maximum in MAX_ACTIONS (RULES.md)

# building types
BT_MACHINE = 6 + P.ADV_KEYS.index("machine_shop")
BT_FIRM_WW = 6 + P.ADV_KEYS.index("firm_wood_wheat")
BT_FIRM_CI = 6 + P.ADV_KEYS.index("firm_coal_iron")
BT_FIRM_GL = 6 + P.ADV_KEYS.index("firm_goods_luxury")
BT_WAREHOUSE = 6 + P.ADV_KEYS.index("warehouse")
BT_CONSTRUCTION = 6 + P.ADV_KEYS.index("construction_company")
BT_FREIGHT = 6 + P.ADV_KEYS.index("freight_company")
BT_GOVERNOR = 6 + P.ADV_KEYS.index("governors_mansion")
BT_RAILBARON = 6 + P.ADV_KEYS.index("rail_baron")
BT_BANK = 6 + P.ADV_KEYS.index("bank")
BT_AUCTION = 6 + P.ADV_KEYS.index("auction_house")
BT_SMUGGLER = 6 + P.ADV_KEYS.index("smuggler")
BT_BLACKMARKET = 6 + P.ADV_KEYS.index("black_market")
BT_BRICK = 6 + P.ADV_KEYS.index("brick_works")
BT_MAYOR = 6 + P.ADV_KEYS.index("mayors_office")
BT_TRADINGFLOOR = 6 + P.ADV_KEYS.index("trading_floor")
BT_EXPORT = 6 + P.ADV_KEYS.index("export_company")
BT_COTTAGE = 6 + P.ADV_KEYS.index("cottage_industry")
BT_FACTORY = 6 + P.ADV_KEYS.index("factory")
# commodities
WHEAT, WOOD, IRON, COAL, GOODS, LUXURY = 0, 1, 2, 3, 4, 5

# items: building types 0..24, upgrades 25..31 (6 basic + Water Mill), railroads, towns
IT_UPGRADE0 = N_BT
IT_RR0 = N_BT + 7
IT_TOWN0 = IT_RR0 + N_RR
N_ITEM_IDS = IT_TOWN0 + N_TOWNS

# phases
PH_COMP, PH_MAIN, PH_TF_TARGET, PH_TF_QTY, PH_BONUS, PH_BONUS_ANY, PH_DISCARD, PH_AUCTION, PH_PAY, PH_SELL2, \
    PH_BUILD2, PH_OVER = range(12)

# action kinds
A_PROD, A_SELL, A_AUCTION, A_BUY, A_UPGRADE, A_TOWN_NAMED, A_TOWN_ANY, A_BID, A_PASS_BID, A_TF_TARGET, A_TF_SKIP, \
    A_TF_QTY, A_BONUS, A_BONUS_ANY, A_DISCARD, A_PAY, A_COMP, A_END_TURN, A_DECLARE, A_PASS = range(1, 21)

# end reasons
END_NONE, END_TOWNS, END_RAILROADS, END_SUDDEN, END_DECK = 0, 1, 2, 3, 4

# events
(E_START, E_COMP, E_TURN, E_PROD, E_TF, E_BONUS, E_PRICE, E_DISCARD, E_DRAW, E_RESHUFFLE, E_SELL, E_FIRM, E_AUCTION,
 E_BID, E_PASS, E_WON, E_UNSOLD, E_COMMISSION, E_RR_REVEAL, E_BUY, E_UPGRADE, E_BLD_REVEAL, E_TOWN, E_PAY,
 E_TOWN_REVEAL, E_TRIGGER, E_END, E_DECLARE, E_NOTHING) = range(1, 30)

STATE_DTYPE = np.dtype([
    ("rng", np.uint64, (2,)),
    ("ev", np.int32, (MAX_EVENTS, 5)),
    ("n_ev", np.int32),
    ("log_on", np.int8),
    ("n", np.int8),
    ("sp", np.int8),             # start player seat
    ("cur", np.int8),            # active player (whose turn it is)
    ("phase", np.int8),
    ("over", np.int8),
    ("end_trig", np.int8),
    ("end_reason", np.int8),
    ("winner_sd", np.int8),      # sudden-death winner or -1
    ("turn", np.int32),          # player-turns started (1 = the first)
    ("rnd", np.int32),            # round number (not "round": np.record has a method of that name)
    ("price", np.int16, (NC,)),
    ("pmin", np.int16, (NC,)),
    ("pmax", np.int16, (NC,)),
    ("supply", np.int16, (NC,)),
    ("hold", np.int16, (MAX_PLAYERS, NC)),
    ("money", np.int32, (MAX_PLAYERS,)),
    ("hand", np.int8, (MAX_PLAYERS, MAX_HAND)),
    ("hand_n", np.int8, (MAX_PLAYERS,)),
    ("deck", np.int8, (N_CARDS,)),
    ("deck_n", np.int16),
    ("disc", np.int8, (N_CARDS,)),
    ("disc_n", np.int16),
    ("pp_price", np.int8, (N_CARDS, NC)),
    ("pp_prod", np.int8, (N_CARDS, NC)),
    ("pp_code", np.int64, (N_CARDS, 2)),    # the parameters pp_price/pp_prod were decoded from (setup)
    ("rr_deck", np.int8, (MAX_RR,)),
    ("rr_n", np.int16),
    ("rr_offer", np.int8, (2,)),
    ("rr_own", np.int8, (MAX_PLAYERS, N_RR)),
    ("town_deck", np.int8, (N_TOWNS,)),
    ("town_n", np.int16),
    ("town_offer", np.int8),
    ("town_owner", np.int8, (N_TOWNS,)),
    ("tile_type", np.int8, (MAX_TILES,)),
    ("n_tiles", np.int16),
    ("btile", np.int16, (MAX_TILES,)),     # tiles that give a production bonus (B tiles, Machine Shop), ascending
    ("n_btile", np.int16),
    ("utile", np.int16, (MAX_TILES,)),     # tiles with a +2 side (upgrade cost > 0), ascending
    ("n_utile", np.int16),
    ("tile_owner", np.int8, (MAX_TILES,)),
    ("tile_level", np.int8, (MAX_TILES,)),
    ("tile_turn", np.int32, (MAX_TILES,)),
    ("bld_offer", np.int8, (4,)),
    ("bld_stack", np.int8, (MAX_TILES,)),
    ("bld_n", np.int16),
    ("own_bt", np.int8, (MAX_PLAYERS, N_BT)),     # tiles owned per building type
    ("n_bld", np.int8, (MAX_PLAYERS,)),
    # per-turn / per-action scratch
    ("auctions_turn", np.int8),
    ("builds_turn", np.int8),
    ("sales_turn", np.int8),
    ("sale1_c", np.int8),
    ("export_used", np.int8),
    ("prod_card", np.int8),
    ("tf_seat", np.int8),
    ("tf_c", np.int8),
    ("bonus_left", np.int8),
    ("pay_left", np.int8),
    ("comp_k", np.int8),         # turn-order position choosing free tokens
    ("comp_left", np.int8),
    ("comp_got", np.int8, (MAX_PLAYERS, NC)),
    ("auc_slot", np.int8),
    ("auc_co", np.int8),
    ("auc_starter", np.int8),
    ("auc_bidder", np.int8),
    ("auc_leader", np.int8),
    ("auc_high", np.int32),
    ("auc_passed", np.int8, (MAX_PLAYERS,)),
    ("auc_serial", np.int32),    # auctions started this game (a key for the strategies' per-auction cache)
    # strategy scratch (strategies/raccoon_tycoon.py): each bidder's limit, valid while bl_key == auc_serial
    ("bl_key", np.int32, (MAX_PLAYERS,)),
    ("bl_lim", np.float64, (MAX_PLAYERS,)),
    ("lv_key", np.int32),                      # ... and each seat's VP * 1000 + money, valid while lv_key == auc_serial
    ("lv", np.int64, (MAX_PLAYERS,)),
    ("lv_vt", np.int64, (MAX_PLAYERS,)),       # standings(): town VP, towns and railroad cards of each seat
    ("lv_nt", np.int64, (MAX_PLAYERS,)),
    ("lv_nr", np.int64, (MAX_PLAYERS,)),
    # statistics
    ("sold", np.int32, (MAX_PLAYERS,)),
    ("revenue", np.int32, (MAX_PLAYERS,)),
    ("auc_won", np.int16, (MAX_PLAYERS,)),
    ("auc_spend", np.int32, (MAX_PLAYERS,)),
    ("bld_spend", np.int32, (MAX_PLAYERS,)),
    ("town_tokens", np.int32, (MAX_PLAYERS,)),
    ("comp_recv", np.int8, (MAX_PLAYERS,)),
    ("n_prod", np.int16, (MAX_PLAYERS,)),
    ("turns_taken", np.int16, (MAX_PLAYERS,)),
    ("firm_income", np.int32, (MAX_PLAYERS,)),
    ("commission", np.int32, (MAX_PLAYERS,)),
    ("item_seat", np.int8, (MAX_ITEMS,)),
    ("item_id", np.int16, (MAX_ITEMS,)),
    ("item_turn", np.int32, (MAX_ITEMS,)),
    ("item_price", np.int32, (MAX_ITEMS,)),
    ("n_items", np.int16),
])

GAME_COLUMNS = ("turns", "rounds", "end_reason", "first_player", "towns_left", "railroads_left", "buildings_left")
END_LABELS = ("none", "towns", "railroads", "sudden_death", "deck_out")
SEAT_COLUMNS = ("rank", "win", "order", "vp_towns", "vp_railroads", "vp_buildings", "vp_pairs", "vp_bonus", "vp_total",
                "money", "commodities_sold", "sale_revenue", "auctions_won", "auction_spend", "compensation",
                "towns", "railroads", "buildings", "building_spend", "town_tokens_spent", "productions", "turns",
                "firm_income", "commission")


# ------------------------------------------------------------------ encoding
@nb.njit(cache=True, inline="always")
def enc(kind, arg):
    return (np.int64(kind) << 24) | np.int64(arg)


@nb.njit(cache=True, inline="always")
def a_kind(a):
    return np.int64(a) >> 24


@nb.njit(cache=True, inline="always")
def a_arg(a):
    return np.int64(a) & 0xFFFFFF


# ------------------------------------------------------------------ parameter helpers
@nb.njit(cache=True, inline="always")
def rr_min_bid(p, co):
    return np.int64(p[P.P_RR0 + np.int64(co) * P.RR_STRIDE])


@nb.njit(cache=True, inline="always")
def rr_vp(p, co, k):
    """Total VP for owning k cards of railroad co."""
    if k <= 0:
        return 0
    if k > 4:
        k = 4
    return np.int64(p[P.P_RR0 + np.int64(co) * P.RR_STRIDE + np.int64(k)])


@nb.njit(cache=True, inline="always")
def town_vp(p, t):
    return np.int64(p[P.P_TOWN0 + np.int64(t) * P.TOWN_STRIDE])


@nb.njit(cache=True, inline="always")
def town_com(p, t):
    return np.int64(p[P.P_TOWN0 + np.int64(t) * P.TOWN_STRIDE + 1])


@nb.njit(cache=True, inline="always")
def bt_cost(p, bt):
    return np.int64(p[P.P_BLD0 + np.int64(bt) * P.BLD_STRIDE])


@nb.njit(cache=True, inline="always")
def bt_upcost(p, bt):
    return np.int64(p[P.P_BLD0 + np.int64(bt) * P.BLD_STRIDE + 1])


@nb.njit(cache=True, inline="always")
def owns(s, seat, bt):
    return s.own_bt[seat, bt] > 0


@one_copy(_nrt=False)
def town_cost_named(s, p, seat, t):
    c = np.int64(p[P.P_TOWN0 + np.int64(t) * P.TOWN_STRIDE + 2])
    if owns(s, seat, BT_BRICK):
        c -= np.int64(p[P.P_BRICK])
    return max(c, 0)


@one_copy(_nrt=False)
def town_cost_any(s, p, seat, t):
    c = np.int64(p[P.P_TOWN0 + np.int64(t) * P.TOWN_STRIDE + 3])
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
    return (np.int64(p[P.P_STORAGE_BASE]) + np.int64(p[P.P_STORAGE_PER_BLD]) * s.n_bld[seat]
            + np.int64(p[P.P_WAREHOUSE]) * s.own_bt[seat, BT_WAREHOUSE])


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


@nb.njit(cache=True, _nrt=False, inline="always")
def _vp_rest(s, p, seat, nt):
    """(railroads, buildings, pairs, bonus, railroad cards) VP of a seat that owns nt towns: the scoring rules
    in one place for vp_parts and standings."""
    vr = 0
    nr = 0
    for co in range(N_RR):
        k = s.rr_own[seat, co]
        vr += rr_vp(p, co, k)
        nr += k
    nb_ = s.n_bld[seat]
    vb = nb_ * np.int64(p[P.P_BUILDING_VP])
    vpair = min(nt, nr) * np.int64(p[P.P_PAIR_VP])
    bonus = 0
    if owns(s, seat, BT_GOVERNOR):
        bonus += nt * np.int64(p[P.P_GOVERNOR_VP])
    if owns(s, seat, BT_RAILBARON):
        bonus += nr * np.int64(p[P.P_RAILBARON_VP])
    if owns(s, seat, BT_MAYOR):
        bonus += nb_ * np.int64(p[P.P_MAYOR_VP])
    if owns(s, seat, BT_BANK):
        bonus += s.money[seat] // np.int64(p[P.P_BANK_PER_VP])
    return vr, vb, vpair, bonus, nr


@nb.njit(cache=True, _nrt=False)
def vp_parts(s, p, seat):
    """(towns, railroads, buildings, pairs, bonus) VP of a seat as the game stands."""
    vt = 0
    nt = 0
    for t in range(N_TOWNS):
        if s.town_owner[t] == seat:
            vt += town_vp(p, t)
            nt += 1
    vr, vb, vpair, bonus, _ = _vp_rest(s, p, seat, nt)
    return vt, vr, vb, vpair, bonus


@nb.njit(cache=True, _nrt=False)
def standings(s, p):
    """Every seat's vp_total * 1000 + money into s.lv (towns and railroad cards into s.lv_nt, s.lv_nr): the sums of
    vp_parts, with one pass over the towns for all seats."""
    n = s.n
    for o in range(n):
        s.lv_vt[o] = 0
        s.lv_nt[o] = 0
    for t in range(N_TOWNS):
        o = s.town_owner[t]
        if o >= 0:
            s.lv_vt[o] += town_vp(p, t)
            s.lv_nt[o] += 1
    for seat in range(n):
        vr, vb, vpair, bonus, nr = _vp_rest(s, p, seat, s.lv_nt[seat])
        s.lv[seat] = (s.lv_vt[seat] + vr + vb + vpair + bonus) * 1000 + s.money[seat]
        s.lv_nr[seat] = nr


@nb.njit(cache=True, _nrt=False)
def vp_total(s, p, seat):
    a, b, c, d, e = vp_parts(s, p, seat)
    return a + b + c + d + e


@one_copy(_nrt=False)
def add_item(s, seat, item, price):
    i = s.n_items
    if i < MAX_ITEMS:
        s.item_seat[i] = seat
        s.item_id[i] = item
        s.item_turn[i] = s.rnd
        s.item_price[i] = price
        s.n_items = i + 1


# ------------------------------------------------------------------ setup
@nb.njit(cache=True, _nrt=False)
def _digit(v, c):
    """Digit c (0 = wheat, leftmost of six) of a six-digit icon code."""
    d = np.int64(v)
    for _ in range(NC - 1 - c):
        d //= 10
    return d % 10


@one_copy(_nrt=False)
def draw_card(s, p, seat):
    """Draw one P&P card into seat's hand; reshuffle the discards into the deck when empty (rule.empty_deck)."""
    if s.deck_n == 0:
        if p[P.P_EMPTY_DECK] == 1 or s.disc_n == 0:
            return False
        for i in range(s.disc_n):
            s.deck[i] = s.disc[i]
        s.deck_n = s.disc_n
        s.disc_n = 0
        shuffle(s.rng, 0, s.deck, s.deck_n)
        log_event(s, E_RESHUFFLE, s.deck_n, 0, 0, 0)
    s.deck_n -= 1
    s.hand[seat, s.hand_n[seat]] = s.deck[s.deck_n]
    s.hand_n[seat] += 1
    return True


@nb.njit(cache=True, _nrt=False)
def refill(s, p, seat):
    lim = hand_limit(s, p, seat)
    k = 0
    while s.hand_n[seat] < lim:
        if not draw_card(s, p, seat):
            break
        k += 1
    if k > 0:
        log_event(s, E_DRAW, seat, k, s.hand_n[seat], 0)


@nb.njit(cache=True, _nrt=False)
def setup(s, p, n_players):
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
    # market and supply
    for c in range(NC):
        s.pmin[c] = np.int16(p[P.P_PRICE_MIN0 + c * P.MK_STRIDE])
        s.pmax[c] = np.int16(p[P.P_PRICE_MIN0 + c * P.MK_STRIDE + 1])
        s.price[c] = s.pmin[c]
        s.supply[c] = np.int16(p[P.P_SUPPLY])
    # P&P cards
    for i in range(N_CARDS):
        pr = np.int64(p[P.P_PP0 + i * P.PP_STRIDE])
        pd = np.int64(p[P.P_PP0 + i * P.PP_STRIDE + 1])
        if pr != s.pp_code[i, 0] or pd != s.pp_code[i, 1]:   # decoded once while a state plays one design
            s.pp_code[i, 0] = pr
            s.pp_code[i, 1] = pd
            for c in range(NC - 1, -1, -1):      # the same digits as _digit, last commodity first
                s.pp_price[i, c] = pr % 10
                s.pp_prod[i, c] = pd % 10
                pr //= 10
                pd //= 10
        s.deck[i] = i
    s.deck_n = N_CARDS
    s.disc_n = 0
    shuffle(s.rng, 0, s.deck, s.deck_n)
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
    # railroads
    m = 0
    for co in range(N_RR):
        if n >= p[P.P_RR0 + co * P.RR_STRIDE + 6]:
            for _ in range(np.int64(p[P.P_RR0 + co * P.RR_STRIDE + 5])):
                s.rr_deck[m] = co
                m += 1
    s.rr_n = m
    shuffle(s.rng, 0, s.rr_deck, s.rr_n)
    for k in range(2):
        s.rr_offer[k] = -1
        if s.rr_n > 0:
            s.rr_n -= 1
            s.rr_offer[k] = s.rr_deck[s.rr_n]
            log_event(s, E_RR_REVEAL, s.rr_offer[k], k, 0, 0)
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
    # buildings: basic tiles shuffled, some on offer; advanced tiles shuffled into the stack
    nt = 0
    for bt in range(N_BT):
        for _ in range(np.int64(p[P.P_BLD0 + bt * P.BLD_STRIDE + 2])):
            s.tile_type[nt] = bt
            s.tile_owner[nt] = -1
            s.tile_level[nt] = 1
            s.tile_turn[nt] = 0
            nt += 1
    s.n_tiles = nt
    nb_ = 0
    nu = 0
    for t in range(nt):
        bt = s.tile_type[t]
        if bt < 6 or bt == BT_MACHINE:
            s.btile[nb_] = t
            nb_ += 1
        if bt_upcost(p, bt) > 0:
            s.utile[nu] = t
            nu += 1
    s.n_btile = nb_
    s.n_utile = nu
    nbasic = 0
    for i in range(nt):
        if s.tile_type[i] < 6:
            nbasic += 1
    # basic tiles are tiles 0..nbasic-1 (types 0-5 come first)
    order = s.bld_stack      # scratch: shuffle the basic tile ids in the stack array first
    for i in range(nbasic):
        order[i] = i
    shuffle(s.rng, 0, order, nbasic)
    n_basic_offer = np.int64(p[P.P_BASIC_OFFER])
    if p[P.P_OPT_BASIC_BY_PLAYERS] == 1:
        n_basic_offer = min(n, 4)
    n_basic_offer = min(n_basic_offer, nbasic, 4)
    for k in range(4):
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
            s.bld_stack[m] = order[i]      # order is bld_stack itself and m < i: moving down is safe
            m += 1
    s.bld_n = m
    for k in range(4):
        if s.bld_offer[k] < 0 and s.bld_n > 0:
            s.bld_n -= 1
            s.bld_offer[k] = s.bld_stack[s.bld_n]
    for k in range(4):
        if s.bld_offer[k] >= 0:
            log_event(s, E_BLD_REVEAL, s.bld_offer[k], s.tile_type[s.bld_offer[k]], k, 0)
    # per-turn scratch
    s.cur = s.sp
    _reset_turn(s)
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


@nb.njit(cache=True, _nrt=False)
def _reset_turn(s):
    s.auctions_turn = 0
    s.builds_turn = 0
    s.sales_turn = 0
    s.sale1_c = -1
    s.export_used = 0
    s.prod_card = -1


# ------------------------------------------------------------------ queries
@nb.njit(cache=True, _nrt=False)
def current_player(s):
    if s.phase == PH_AUCTION:
        return np.int64(s.auc_bidder)
    if s.phase == PH_COMP:
        return np.int64((s.sp + s.comp_k) % s.n)
    return np.int64(s.cur)


@nb.njit(cache=True, _nrt=False)
def is_over(s):
    return s.over != 0


@nb.njit(cache=True, inline="always")
def _push(out, n, a):
    if n < out.shape[0]:
        out[n] = a
        return n + 1
    return n


@nb.njit(cache=True, inline="always")
def two_player_auction(s, p):
    """The two-player variant applies: the starter bids once, the other raises once or passes (RULES)."""
    return s.n == 2 and p[P.P_TWO_PLAYER_AUCTION] == 1


@nb.njit(cache=True, _nrt=False)
def auction_next_min(s, p):
    if s.auc_leader < 0:
        return rr_min_bid(p, s.auc_co)
    return np.int64(s.auc_high) + 1


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


@nb.njit(cache=True, _nrt=False)
def _cc_ready(s, p, seat):
    """Construction Company owned since before this turn (a tile bought this turn works from the next turn, unless
    rule.construction_company_same_turn)."""
    for i in range(s.n_tiles):
        if s.tile_owner[i] == seat and s.tile_type[i] == BT_CONSTRUCTION and (
                s.tile_turn[i] < s.turn or p[P.P_CC_SAME_TURN] == 1):
            return True
    return False


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


def COMPILE_IN_CHILD(state, params):
    """... and the child compiles the price stage of a production (about 3 s of the moves' 14 s), which evens
    out the two halves (26.6 s and 26.4 s, against 31.6 s and 22.5 s with nothing named here)."""
    return {"_price_stage": (state, params)}


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


# ------------------------------------------------------------------ turn flow
@one_copy(_nrt=False)
def _trigger(s, reason):
    if s.end_trig == 0:
        s.end_trig = 1
        s.end_reason = reason
        log_event(s, E_TRIGGER, reason, s.cur, s.rnd, 0)


@nb.njit(cache=True, _nrt=False)
def _finish(s):
    s.over = 1
    s.phase = PH_OVER
    log_event(s, E_END, s.end_reason, s.rnd, s.turn, 0)


@nb.njit(cache=True, _nrt=False)
def end_turn(s, p):
    seat = s.cur
    if p[P.P_REFILL] == 1:
        refill(s, p, seat)
    s.turns_taken[seat] += 1
    if p[P.P_EMPTY_DECK] == 1 and s.deck_n == 0 and s.end_trig == 0:
        # rule.empty_deck = stop: once the deck and every hand are empty nobody can produce again; the game
        # would stall, so it ends like the other triggers (an ASSUMED completion of that reading, RULES.md)
        empty = True
        for o in range(s.n):
            if s.hand_n[o] > 0:
                empty = False
        if empty:
            _trigger(s, END_DECK)
    if s.end_trig:
        if p[P.P_GAME_END] == 1 or seat == (s.sp + s.n - 1) % s.n:
            _finish(s)
            return
    nxt = seat + 1       # (seat + 1) % n
    if nxt >= s.n:
        nxt = 0
    s.cur = nxt
    if s.cur == s.sp:
        s.rnd += 1
    s.turn += 1
    _reset_turn(s)
    s.phase = PH_MAIN
    log_event(s, E_TURN, s.cur, s.rnd, s.turn, 0)


@nb.njit(cache=True, _nrt=False)
def _after_take(s, p):
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
    _bonus_stage(s, p)


@one_copy(_nrt=False)
def _give(s, p, seat, c, q):
    """Give up to q tokens of c from the supply; returns how many were given."""
    if p[P.P_SUPPLY_LIMIT] == 1:
        q = min(q, np.int64(s.supply[c]))
    if q > 0:
        s.hold[seat, c] += q
        s.supply[c] -= q
    return q


@one_copy(_nrt=False)
def _bonus_amount(s, p, t):
    return np.int64(p[P.P_BONUS_PLUS2]) if s.tile_level[t] == 2 else np.int64(p[P.P_BONUS_PLUS1])


@nb.njit(cache=True, _nrt=False)
def _bonus_stage(s, p):
    seat = s.cur
    k = 0
    only = -1
    for i in range(s.n_btile):
        t = s.btile[i]
        if s.tile_owner[t] == seat:
            k += 1
            only = t
    if k == 0:
        _price_stage(s, p)
    elif k == 1:
        _use_bonus(s, p, only)
    else:
        s.phase = PH_BONUS


@nb.njit(cache=True, _nrt=False)
def _any_supply(s, p):
    if p[P.P_SUPPLY_LIMIT] == 0:
        return True
    for c in range(NC):
        if s.supply[c] > 0:
            return True
    return False


@one_copy(_nrt=False)
def _use_bonus(s, p, t):
    seat = s.cur
    bt = s.tile_type[t]
    amt = _bonus_amount(s, p, t)
    if bt < 6:
        got = _give(s, p, seat, bt, amt)
        log_event(s, E_BONUS, seat, t, bt, got)
        _price_stage(s, p)
    else:
        s.bonus_left = amt
        if s.bonus_left > 0 and _any_supply(s, p):
            s.phase = PH_BONUS_ANY
        else:
            _price_stage(s, p)


@nb.njit(cache=True, _nrt=False)
def _price_stage(s, p):
    card = s.prod_card
    for c in range(NC):
        r = s.pp_price[card, c]
        if r > 0:
            s.price[c] = min(s.price[c] + r, s.pmax[c])
            log_event(s, E_PRICE, c, r, s.price[c], 0)
    _storage_stage(s, p)


@nb.njit(cache=True, _nrt=False)
def _storage_stage(s, p):
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
            _discard(s, seat, last, excess)
        else:
            s.phase = PH_DISCARD
            return
    _end_production(s, p)


@one_copy(_nrt=False)
def _discard(s, seat, c, q):
    s.hold[seat, c] -= q
    s.supply[c] += q
    log_event(s, E_DISCARD, seat, c, q, 0)


@nb.njit(cache=True, _nrt=False)
def _end_production(s, p):
    seat = s.cur
    if p[P.P_REFILL] == 0:
        refill(s, p, seat)
    s.prod_card = -1
    end_turn(s, p)


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
    for k in range(4):
        if s.bld_offer[k] == t:
            s.bld_offer[k] = -1
            if s.bld_n > 0:
                s.bld_n -= 1
                s.bld_offer[k] = s.bld_stack[s.bld_n]
                log_event(s, E_BLD_REVEAL, s.bld_offer[k], s.tile_type[s.bld_offer[k]], k, 0)


@nb.njit(cache=True, _nrt=False)
def _after_build(s, p):
    s.builds_turn += 1
    if s.builds_turn == 1 and _cc_ready(s, p, s.cur):
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
        j += 1               # next seat clockwise, (j + 1) % n without a division
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
        _trigger(s, END_RAILROADS)
    s.cur = starter
    if w == starter:
        end_turn(s, p)
    else:
        s.phase = PH_MAIN      # the starter lost (or nobody bought): he acts again


@nb.njit(cache=True, _nrt=False)
def _finish_town(s, p):
    if s.town_n > 0:
        s.town_n -= 1
        s.town_offer = s.town_deck[s.town_n]
        log_event(s, E_TOWN_REVEAL, s.town_offer, 0, 0, 0)
    else:
        s.town_offer = -1
        _trigger(s, END_TOWNS)
    end_turn(s, p)


@nb.njit(cache=True, inline="always")
def apply_action(s, p, a):
    kind = a_kind(a)
    if kind == A_BID or kind == A_PASS_BID:
        # the auction's bids and passes (two moves in three) do not enter the other moves' big body
        seat = np.int64(s.auc_bidder)
        if kind == A_BID:
            s.auc_high = a_arg(a)
            s.auc_leader = seat
            log_event(s, E_BID, seat, a_arg(a), 0, 0)
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
    if s.end_trig and s.over == 0 and p[P.P_GAME_END] == 1 and (s.phase == PH_MAIN or s.phase == PH_SELL2
                                                              or s.phase == PH_BUILD2):
        _finish(s)


@nb.njit(cache=True, _nrt=False)
def _apply_other(s, p, a):
    kind = a_kind(a)
    arg = a_arg(a)
    seat = current_player(s)
    if kind == A_PROD:
        card = arg >> 18
        for h in range(s.hand_n[seat]):
            if s.hand[seat, h] == card:
                s.hand_n[seat] -= 1
                s.hand[seat, h] = s.hand[seat, s.hand_n[seat]]
                break
        s.disc[s.disc_n] = card
        s.disc_n += 1
        s.prod_card = card
        s.n_prod[seat] += 1
        for c in range(NC):
            x = (arg >> (3 * c)) & 7
            if x > 0:
                _give(s, p, seat, c, x)
        log_event(s, E_PROD, seat, card, arg & 0x3FFFF, 0)
        _after_take(s, p)
    elif kind == A_SELL:
        c = (arg >> 8) & 15
        q = arg & 255
        _sell(s, p, seat, c, q, (arg >> 12) & 1)
        _after_sale(s, p, c)
    elif kind == A_AUCTION:
        k = arg >> 8
        co = arg & 255
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
        if s.money[seat] < rr_min_bid(p, co):      # only under may_decline: he cannot open
            s.auc_passed[seat] = 1
            log_event(s, E_PASS, seat, 1, 0, 0)
            _auction_advance(s, p)
    elif kind == A_BUY:
        _take_tile(s, p, seat, arg, bt_cost(p, s.tile_type[arg]))
        _after_build(s, p)
    elif kind == A_UPGRADE:
        bt = s.tile_type[arg]
        price = upgrade_price(s, p, bt)
        s.money[seat] -= price
        s.bld_spend[seat] += price
        s.tile_level[arg] = 2
        item = IT_UPGRADE0 + (bt if bt < 6 else 6)
        add_item(s, seat, item, price)
        log_event(s, E_UPGRADE, seat, arg, bt, price)
        _after_build(s, p)
    elif kind == A_TOWN_NAMED or kind == A_TOWN_ANY:
        t = arg
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
        c = (arg >> 8) & 15
        q = arg & 255
        _pay(s, seat, c, q)
        _pay_stage(s, p)
    elif kind == A_TF_TARGET:
        s.tf_seat = arg >> 8
        s.tf_c = arg & 255
        s.phase = PH_TF_QTY
    elif kind == A_TF_SKIP:
        _bonus_stage(s, p)
    elif kind == A_TF_QTY:
        c = s.tf_c
        q = arg & 255
        o = s.tf_seat
        cost = q * np.int64(s.price[c])
        s.money[seat] -= cost
        s.money[o] += cost
        s.hold[seat, c] += q
        s.hold[o, c] -= q
        log_event(s, E_TF, seat, o, c, q * 1000 + s.price[c])
        _bonus_stage(s, p)
    elif kind == A_BONUS:
        _use_bonus(s, p, arg)
    elif kind == A_BONUS_ANY:
        c = arg
        got = _give(s, p, seat, c, 1)
        log_event(s, E_BONUS, seat, -1, c, got)
        s.bonus_left -= 1
        if s.bonus_left > 0 and _any_supply(s, p):
            s.phase = PH_BONUS_ANY
        else:
            _price_stage(s, p)
    elif kind == A_DISCARD:
        c = (arg >> 8) & 15
        q = arg & 255
        _discard(s, seat, c, q)
        _storage_stage(s, p)
    elif kind == A_COMP:
        _give_comp(s, seat, arg)
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
        _finish(s)
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


# ------------------------------------------------------------------ outcome
@nb.njit(cache=True, _nrt=False)
def _beats(s, seat_int, o, seat):
    """Seat o finishes ahead of seat: sudden-death declarer first, then more VP, then more money."""
    if s.winner_sd >= 0:
        if seat == s.winner_sd:
            return False
        if o == s.winner_sd:
            return True
    if seat_int[o, 8] != seat_int[seat, 8]:
        return seat_int[o, 8] > seat_int[seat, 8]
    return seat_int[o, 9] > seat_int[seat, 9]


@nb.njit(cache=True, _nrt=False)
def write_outcome(s, p, game_int, seat_int, seat_f, items):
    n = s.n
    game_int[0] = s.turn
    game_int[1] = s.rnd
    game_int[2] = s.end_reason if s.over else END_NONE
    game_int[3] = s.sp
    game_int[4] = s.town_n + (1 if s.town_offer >= 0 else 0)
    game_int[5] = s.rr_n + (1 if s.rr_offer[0] >= 0 else 0) + (1 if s.rr_offer[1] >= 0 else 0)
    left = np.int64(s.bld_n)
    for k in range(4):
        if s.bld_offer[k] >= 0:
            left += 1
    game_int[6] = left
    for seat in range(MAX_PLAYERS):
        for j in range(seat_int.shape[1]):
            seat_int[seat, j] = 0
        seat_f[seat, 0] = 0.0
        seat_f[seat, 1] = 0.0
    for seat in range(n):
        vt, vr, vb, vpair, bonus = vp_parts(s, p, seat)
        tot = vt + vr + vb + vpair + bonus
        nt = 0
        for t in range(N_TOWNS):
            if s.town_owner[t] == seat:
                nt += 1
        nr = 0
        for co in range(N_RR):
            nr += s.rr_own[seat, co]
        r = seat_int[seat]
        r[2] = (seat - s.sp + n) % n
        r[3] = vt
        r[4] = vr
        r[5] = vb
        r[6] = vpair
        r[7] = bonus
        r[8] = tot
        r[9] = s.money[seat]
        r[10] = s.sold[seat]
        r[11] = s.revenue[seat]
        r[12] = s.auc_won[seat]
        r[13] = s.auc_spend[seat]
        r[14] = s.comp_recv[seat]
        r[15] = nt
        r[16] = nr
        r[17] = s.n_bld[seat]
        r[18] = s.bld_spend[seat]
        r[19] = s.town_tokens[seat]
        r[20] = s.n_prod[seat]
        r[21] = s.turns_taken[seat]
        r[22] = s.firm_income[seat]
        r[23] = s.commission[seat]
        seat_f[seat, 0] = tot
    # rank by (VP, money); the sudden-death declarer is first outright
    nwin = 0
    for seat in range(n):
        better = 0
        for o in range(n):
            if _beats(s, seat_int, o, seat):
                better += 1
        seat_int[seat, 0] = better + 1
        if better == 0:
            seat_int[seat, 1] = 1
            nwin += 1
    for seat in range(n):
        if seat_int[seat, 1] == 1:
            seat_f[seat, 1] = 1.0 / nwin
    m = 0
    for i in range(min(s.n_items, items.shape[0])):
        items[i, 0] = s.item_seat[i]
        items[i, 1] = s.item_id[i]
        items[i, 2] = s.item_turn[i]
        items[i, 3] = s.item_price[i]
        m += 1
    return m
