"""Saloon Tycoon (Second Edition) rules, jitted.  See RULES.md for every rule and reading.

Turn = Income (automatic), then decisions: free actions (buy a cube onto a tile, stake a claim), Tycoon actions
(earn, draw, play, build, bribe) while actions remain, and End turn.  Effects that need a decision (placing bonus
cubes, hand-limit discards, optional bonus plays, the "take an action" bonus, card builds, character moves) are
tasks on a small stack; automatic ones (roofs, citizens, draws without discards, card resolution) are settled at
once.  While a task is pending only its decisions are legal.

Board of one player: 9 ground positions, 0 = the Saloon's square (S), 1-4 = lots A1-A4, 5-8 = lots B1-B4, each
with 3 floors.  A footprint is S (large, floors 2-3 only), one lot (small) or a pair of neighbouring lots (large).
All component numbers are read from the parameter vector p (see params.py).
"""
import numba as nb
import numpy as np

from sim.events import log_event
from sim.kernel import LEGAL_TYPE, one_copy
from sim.rng import rand_below, shuffle

from .params import (
    B_ACTION, B_CITIZEN, B_CUBES, B_DRAW, B_GOLD, B_PLAY, CF_CHEAP_N, CF_CHEAP_PRICE, CF_COPIES, CF_CUBES,
    CF_DISCOUNT, CF_DRAW, CF_EXTRA, CF_EXTRA_NOPLAY, CF_GOLD, CF_GOLD_INCOME, CF_IGNORE_LOT, CF_MOVE, CF_BUILD,
    CF_STEAL_CARDS, CF_STEAL_GOLD, CS, KF_PER, KF_POINTS, KF_TERM0, KS, MAX_CARD_TYPES, MAX_DECK, MAX_OPEN,
    MAX_SECRET, MAX_TERMS, MAX_TILE_TYPES, N_CHARS, P_ANGIE_TILES, P_BRIBE, P_CARD0, P_CHAR0, P_CIT_PTS,
    P_CUBE_PRICE, P_CUBES_PER_PLAYER, P_DRAW, P_EARN, P_FIN_L, P_FIN_S, P_FLAT_GOLD, P_FLAT_MALUS, P_HAND_LIMIT,
    P_LOT0, P_MIN_INCOME, P_N_CARDS, P_N_OPEN, P_N_SECRET, P_N_TILES, P_OPEN0, P_OPEN_EXTRA, P_PHIN_CUBES,
    P_PHIN_PRICE, P_R_ANGIE_ACTION_BONUS, P_R_ANGIE_ROOFS, P_R_BRIBE_TARGET, P_R_FINAL_OUTLAWS, P_R_FLAT_TIMING,
    P_R_CUBE_BUY, P_R_FOOTPRINTS, P_R_LIMIT_ALL_DRAWS, P_R_PHIN_COUNT, P_R_ROOF_EMPTY, P_R_SALOON_SCORES,
    P_R_STEAL_LIMIT,
    P_R_THEATER, P_R_TIE_CLAIMS, P_ROOF_PTS, P_ROOFS_L, P_ROOFS_S, P_SECRET0, P_SECRET_DEALT, P_SECRET_KEPT,
    P_START_GOLD, P_START_HAND, P_STALL_ROUNDS, P_SYD_PTS, P_TILE0, P_TURN_CAP, P_UNF_L, P_UNF_S, R_ABOVE_SALOON, R_ANY,
    R_CIT,
    R_CIT_F, R_CIT_M, R_CUBES, R_DISTINCT, R_F, R_FINISHED, R_FLOOR3, R_FULL_ARM, R_GOLD, R_HAND, R_INCOME,
    R_LARGE_EXCL, R_LARGE_ROOFS, R_LOTS_GE, R_M, R_NAMED, R_OUTLAWS, R_OUTLAWS_MAX, R_ROOFS, R_SPECIAL,
    R_TILE_TYPE, R_TILES, TF_ABOVE, TF_BONUS, TF_BONUS_N, TF_CITIZEN, TF_COPIES, TF_COST, TF_CUBES, TF_FMAX,
    TF_FMIN, TF_FORBID, TF_LARGE, TF_REQ, TF_SPECIAL, TS,
)

MAX_PLAYERS = 4
MAX_ACTIONS = 1024
MAX_ITEMS = 128          # observed at most 93 per 4-player game; overflow is counted in items_truncated
MAX_STEPS = 20_000
MAX_EVENTS = 64
MAX_TILES = 27          # tiles one board can hold (9 positions x 3 floors)
NPOS = 9
NFLOORS = 3
MAX_TASKS = 32
N_CLAIM_IDS = MAX_OPEN + MAX_SECRET
MAX_SEC_HAND = 8

# characters: the four outlaws have fixed indices (checked by params.validate)
FLATFOOT, ANGIE, SYDNEY, PHINEUS = 0, 1, 2, 3

# action kinds: action = kind * ASTRIDE + argument
ASTRIDE = 100_000
K_END, K_EARN, K_DRAW, K_PLAY, K_BUILD, K_BRIBE, K_BUY, K_STAKE, K_PLACE, K_DISCARD, K_BPLAY, K_SKIP, K_MOVE, \
    K_CBUILD, K_CHEAP, K_DROP = range(16)

# tasks
TK_CUBES, TK_DRAW, TK_PLAYOPT, TK_ACTION, TK_ROOF, TK_CITIZEN, TK_DISCARD1, TK_CARD, TK_CHEAP, TK_CBUILD, TK_MOVE, \
    TK_GOLD, TK_TODISC = range(1, 14)

PH_KEEP, PH_PLAY, PH_OVER = 0, 1, 2

# victory point sources
VP_TILES, VP_ROOFS, VP_LOTS, VP_CLAIMS, VP_CITIZENS, VP_OUTLAWS, VP_UNFINISHED = range(7)
N_VP = 8

# items
IT_TILE = 0
IT_ROOF_S = 16
IT_ROOF_L = 17
IT_CLAIM = 18
IT_CARD = IT_CLAIM + N_CLAIM_IDS
IT_CHAR = IT_CARD + MAX_CARD_TYPES
N_ITEM_IDS = IT_CHAR + N_CHARS

# events
(E_TURN, E_INCOME, E_EARN, E_DRAW, E_DISCARD, E_PLAY, E_BUILD, E_CUBE, E_CUBES_LOST, E_FINISH, E_ROOF, E_NO_ROOF,
 E_CHAR_IN, E_CHAR_MOVE, E_CLAIM, E_GOLD, E_STEAL_GOLD, E_STEAL_CARD, E_END_TRIGGER, E_GAME_END, E_KEEP,
 E_LOT_REP, E_NO_CITIZEN, E_EXTRA, E_RESHUFFLE, E_SKIP) = range(1, 27)

# footprints: fp 0 = Saloon square; 1..8 single lots; 9..12 aligned pairs; 13, 14 unaligned pairs (option)
FP_A = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 3, 5, 7, 2, 6], np.int64)
FP_B = np.array([-1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 4, 6, 8, 3, 7], np.int64)
FP_LARGE = np.array([1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], np.int64)
N_FP = 15
NB_IN = np.array([-1, 0, 1, 2, 3, 0, 5, 6, 7], np.int64)
NB_OUT = np.array([-1, 2, 3, 4, -1, 6, 7, 8, -1], np.int64)

STATE_DTYPE = np.dtype([
    ("rng", np.uint64, 2), ("ev", np.int32, (MAX_EVENTS, 5)), ("n_ev", np.int32), ("log_on", np.int8),
    ("n", np.int32), ("cur", np.int32), ("phase", np.int32), ("over", np.int32), ("turn_total", np.int32),
    ("end_trig", np.int32), ("trig_seat", np.int32), ("final_left", np.int32), ("depleted", np.int32),
    ("buy_run", np.int32), ("buy_price", np.int32),
    ("pile", np.int32), ("pile0", np.int32), ("reserve", np.int32), ("gold_in", np.int32), ("gold_out", np.int32),
    ("last_prog", np.int32),
    ("gold", np.int32, MAX_PLAYERS), ("vp", np.int32, (MAX_PLAYERS, N_VP)), ("turns", np.int32, MAX_PLAYERS),
    ("claims_n", np.int32, MAX_PLAYERS), ("cards_played", np.int32, MAX_PLAYERS),
    ("hand", np.int16, (MAX_PLAYERS, MAX_CARD_TYPES)), ("hand_n", np.int32, MAX_PLAYERS),
    ("deck", np.int8, MAX_DECK), ("deck_n", np.int32), ("disc", np.int8, MAX_DECK), ("disc_n", np.int32),
    ("supply", np.int16, MAX_TILE_TYPES),
    ("tt", np.int8, (MAX_PLAYERS, MAX_TILES)), ("tf", np.int8, (MAX_PLAYERS, MAX_TILES)),
    ("tp", np.int8, (MAX_PLAYERS, MAX_TILES)), ("tc", np.int8, (MAX_PLAYERS, MAX_TILES)),
    ("tfin", np.int8, (MAX_PLAYERS, MAX_TILES)), ("ntile", np.int32, MAX_PLAYERS),
    ("cell", np.int8, (MAX_PLAYERS, NFLOORS, NPOS)),
    ("roofs", np.int32, (MAX_PLAYERS, 2)), ("roof_pile", np.int32, 2),
    ("cubes_board", np.int32, MAX_PLAYERS), ("cubes_bought", np.int32, MAX_PLAYERS), ("built", np.int32, MAX_PLAYERS),
    ("types_built", np.int64, MAX_PLAYERS),
    ("char_owner", np.int8, N_CHARS), ("char_turn", np.int32, N_CHARS),
    ("open_ids", np.int8, MAX_OPEN), ("n_open_up", np.int32), ("claim_by", np.int8, N_CLAIM_IDS),
    ("sec", np.int8, (MAX_PLAYERS, MAX_SEC_HAND)), ("sec_state", np.int8, (MAX_PLAYERS, MAX_SEC_HAND)),
    ("sec_n", np.int32, MAX_PLAYERS), ("keep_left", np.int32), ("sec_pool", np.int8, MAX_SECRET),
    ("acts_any", np.int32), ("acts_noplay", np.int32),
    ("tk", np.int32, (MAX_TASKS, 3)), ("tk_n", np.int32),
    ("it", np.int16, (MAX_ITEMS, 3)), ("n_it", np.int32), ("it_lost", np.int32),
    ("tt_mask", np.int64, 5),      # tile-type bit masks from the parameters (setup): see _tile_tables
    ("tt_req", np.int8, MAX_TILE_TYPES), ("tt_forb", np.int8, MAX_TILE_TYPES), ("tt_cost", np.int32, MAX_TILE_TYPES),
    ("ai", np.float64, MAX_TILE_TYPES),   # scratch for scripted strategies (never read by the rules)
    ("ai_bm", np.float64), ("ai_late", np.int32), ("ai_leader", np.int32),   # strategy scratch (per-call caches)
])

SEC_DEALT, SEC_KEPT, SEC_DROPPED, SEC_SCORED = 0, 1, 2, 3


# ---------------------------------------------------------------- small helpers
@nb.njit(cache=True, _nrt=False, inline="always")
def tparam(p, t, f):
    return p[P_TILE0 + t * TS + f]


@nb.njit(cache=True, _nrt=False, inline="always")
def cparam(p, c, f):
    return p[P_CARD0 + c * CS + f]


@nb.njit(cache=True, _nrt=False, inline="always")
def kbase(gid):
    """Slot base of claim gid (open: 0..MAX_OPEN-1, secret: MAX_OPEN + index)."""
    if gid < MAX_OPEN:
        return P_OPEN0 + gid * KS
    return P_SECRET0 + (gid - MAX_OPEN) * KS


@nb.njit(cache=True, _nrt=False, inline="always")
def char_is_female(p, c):
    return p[P_CHAR0 + 2 * c] == 0


@nb.njit(cache=True, _nrt=False, inline="always")
def char_is_citizen(p, c):
    return p[P_CHAR0 + 2 * c + 1] == 1


@one_copy(_nrt=False)
def _item(s, seat, iid):
    if s.n_it < MAX_ITEMS - N_CHARS:
        s.it[s.n_it, 0] = seat
        s.it[s.n_it, 1] = iid
        s.it[s.n_it, 2] = s.turn_total
        s.n_it += 1
    else:
        s.it_lost += 1


@nb.njit(cache=True, _nrt=False, inline="always")
def _gain(s, seat, x):
    s.gold[seat] += x
    s.gold_in += x


@nb.njit(cache=True, _nrt=False, inline="always")
def _pay(s, seat, x):
    s.gold[seat] -= x
    s.gold_out += x


@nb.njit(cache=True, _nrt=False, inline="always")
def _push(s, kind, a, b):
    if s.tk_n < MAX_TASKS:
        s.tk[s.tk_n, 0] = kind
        s.tk[s.tk_n, 1] = a
        s.tk[s.tk_n, 2] = b
        s.tk_n += 1


@nb.njit(cache=True, _nrt=False, inline="always")
def income_of(s, seat):
    """Income track = tiles on the board (Saloon and roofs included)."""
    return s.ntile[seat] + s.roofs[seat, 0] + s.roofs[seat, 1]


@nb.njit(cache=True, _nrt=False, inline="always")
def restricted(s):
    """The active player is in the final round after someone else triggered the end: no character moves or gains."""
    return s.end_trig == 1 and s.cur != s.trig_seat


@nb.njit(cache=True, _nrt=False, inline="always")
def purchase_price(s, p, seat):
    """Price of the next bought cube: within a purchase (rule.cube_purchase = all_then_place) the price the
    purchase started with, so Phineus arriving at the 5th cube does not reprice the rest; else cube_price."""
    if s.buy_run == 1 and p[P_R_CUBE_BUY] == 0:
        return s.buy_price
    return cube_price(s, p, seat)


@nb.njit(cache=True, _nrt=False, inline="always")
def cube_price(s, p, seat):
    if s.char_owner[PHINEUS] == seat:
        return np.int32(p[P_PHIN_PRICE])
    return np.int32(p[P_CUBE_PRICE])


@nb.njit(cache=True, _nrt=False, inline="always")
def has_open_space(s, p, seat):
    for i in range(s.ntile[seat]):
        if s.tc[seat, i] < tparam(p, s.tt[seat, i], TF_CUBES):
            return True
    return False


@nb.njit(cache=True, _nrt=False, inline="always")
def tile_open(s, p, seat, i):
    return s.tc[seat, i] < tparam(p, s.tt[seat, i], TF_CUBES)


@nb.njit(cache=True, _nrt=False, inline="always")
def count_type(s, seat, t):
    k = 0
    for i in range(s.ntile[seat]):
        if s.tt[seat, i] == t:
            k += 1
    return k


# ---------------------------------------------------------------- deck
@one_copy(_nrt=False)
def _draw_one(s, seat):
    if s.deck_n == 0:
        if s.disc_n == 0:
            return -1
        for i in range(s.disc_n):
            s.deck[i] = s.disc[i]
        s.deck_n = s.disc_n
        s.disc_n = 0
        shuffle(s.rng, 0, s.deck, s.deck_n)
        log_event(s, E_RESHUFFLE, s.deck_n, 0, 0, 0)
    s.deck_n -= 1
    c = s.deck[s.deck_n]
    s.hand[seat, c] += 1
    s.hand_n[seat] += 1
    return c


@nb.njit(cache=True, _nrt=False, inline="always")
def _to_discard(s, c):
    if s.disc_n < MAX_DECK:
        s.disc[s.disc_n] = c
        s.disc_n += 1


@nb.njit(cache=True, _nrt=False, inline="always")
def _remove_card(s, seat, c):
    s.hand[seat, c] -= 1
    s.hand_n[seat] -= 1


# ---------------------------------------------------------------- setup
@nb.njit(cache=True, _nrt=False)
def setup(s, p, n_players):
    n = n_players
    s.n = n
    s.cur = 0
    s.over = 0
    s.turn_total = 0
    s.end_trig = 0
    s.trig_seat = -1
    s.final_left = 0
    s.depleted = 0
    s.buy_run = 0
    s.buy_price = 0
    s.pile = np.int32(p[P_CUBES_PER_PLAYER]) * n
    s.pile0 = s.pile
    s.reserve = 0
    s.gold_in = 0
    s.gold_out = 0
    s.last_prog = 0
    s.tk_n = 0
    s.n_it = 0
    s.it_lost = 0
    s.acts_any = 0
    s.acts_noplay = 0
    for i in range(MAX_PLAYERS):
        s.gold[i] = 0
        s.turns[i] = 0
        s.claims_n[i] = 0
        s.cards_played[i] = 0
        s.hand_n[i] = 0
        s.ntile[i] = 0
        s.cubes_board[i] = 0
        s.cubes_bought[i] = 0
        s.built[i] = 0
        s.types_built[i] = 1
        s.sec_n[i] = 0
        for k in range(N_VP):
            s.vp[i, k] = 0
        for k in range(MAX_CARD_TYPES):
            s.hand[i, k] = 0
        for k in range(MAX_TILES):
            s.tt[i, k] = -1
            s.tf[i, k] = 0
            s.tp[i, k] = 0
            s.tc[i, k] = 0
            s.tfin[i, k] = 0
        for f in range(NFLOORS):
            for q in range(NPOS):
                s.cell[i, f, q] = -1
        s.roofs[i, 0] = 0
        s.roofs[i, 1] = 0
        for k in range(MAX_SEC_HAND):
            s.sec[i, k] = -1
            s.sec_state[i, k] = SEC_DROPPED
    s.roof_pile[0] = np.int32(p[P_ROOFS_S])
    s.roof_pile[1] = np.int32(p[P_ROOFS_L])
    for c in range(N_CHARS):
        s.char_owner[c] = -1
        s.char_turn[c] = -1
    for g in range(N_CLAIM_IDS):
        s.claim_by[g] = -1
    nt = np.int64(p[P_N_TILES])
    for t in range(MAX_TILE_TYPES):
        s.supply[t] = np.int16(tparam(p, t, TF_COPIES)) if t < nt else 0
    _tile_tables(s, p)
    # Saloon: each player's start tile on the corner square
    for i in range(n):
        s.tt[i, 0] = 0
        s.tf[i, 0] = 0
        s.tp[i, 0] = 0
        s.ntile[i] = 1
        s.cell[i, 0, 0] = 0
        s.gold[i] = np.int32(p[P_START_GOLD])
    # Tycoon deck
    nc = np.int64(p[P_N_CARDS])
    k = 0
    for c in range(nc):
        for _ in range(np.int64(cparam(p, c, CF_COPIES))):
            if k < MAX_DECK:
                s.deck[k] = c
                k += 1
    s.deck_n = k
    s.disc_n = 0
    shuffle(s.rng, 0, s.deck, s.deck_n)
    for i in range(n):
        for _ in range(np.int64(p[P_START_HAND])):
            _draw_one(s, i)
    # Open claims: players + 2 face up
    no = np.int64(p[P_N_OPEN])
    for j in range(MAX_OPEN):
        s.open_ids[j] = j
    shuffle(s.rng, 0, s.open_ids, no)
    s.n_open_up = min(no, n + np.int64(p[P_OPEN_EXTRA]))
    # Secret claims: deal 4, keep 2 (the drops are decisions)
    ns = np.int64(p[P_N_SECRET])
    ids = s.sec_pool
    for j in range(MAX_SECRET):
        ids[j] = j
    shuffle(s.rng, 0, ids, ns)
    dealt = min(np.int64(p[P_SECRET_DEALT]), MAX_SEC_HAND)
    q = 0
    for i in range(n):
        for j in range(dealt):
            if q < ns:
                s.sec[i, j] = MAX_OPEN + ids[q]
                s.sec_state[i, j] = SEC_DEALT
                s.sec_n[i] += 1
                q += 1
    s.phase = PH_KEEP
    s.cur = -1
    _next_keeper(s, p, 0)


@one_copy(_nrt=False)
def _next_keeper(s, p, start):
    """Move the keep phase to the next seat that must drop secret claims, or start the first turn."""
    for i in range(start, s.n):
        drop = s.sec_n[i] - np.int64(p[P_SECRET_KEPT])
        if drop > 0:
            s.cur = i
            s.keep_left = drop
            return
        for j in range(MAX_SEC_HAND):
            if s.sec_state[i, j] == SEC_DEALT:
                s.sec_state[i, j] = SEC_KEPT
    s.phase = PH_PLAY
    _start_turn(s, p, 0)


@one_copy(_nrt=False)
def _start_turn(s, p, seat):
    s.cur = seat
    s.turns[seat] += 1
    s.depleted = 0
    s.acts_any = 1
    s.acts_noplay = 0
    log_event(s, E_TURN, seat, s.turns[seat], s.turn_total, 0)
    inc = income_of(s, seat)
    if s.char_owner[FLATFOOT] == seat:
        inc -= np.int32(p[P_FLAT_MALUS])
    inc = max(inc, np.int32(p[P_MIN_INCOME]))
    _gain(s, seat, inc)
    log_event(s, E_INCOME, seat, inc, s.gold[seat], 0)
    _outlaws(s, p, False)


# ---------------------------------------------------------------- characters
@one_copy(_nrt=False)
def _give_char(s, c, seat):
    s.char_owner[c] = seat
    s.char_turn[c] = s.turn_total
    log_event(s, E_CHAR_IN, seat, c, 0, 0)


@nb.njit(cache=True, _nrt=False, inline="always")
def _outlaws(s, p, at_end):
    """First-to triggers of the four outlaws for the active player (checked whenever his state changes)."""
    if s.phase != PH_PLAY:
        return
    seat = s.cur
    if restricted(s) and p[P_R_FINAL_OUTLAWS] == 0:
        return
    if s.char_owner[FLATFOOT] < 0 and s.gold[seat] >= p[P_FLAT_GOLD]:
        if p[P_R_FLAT_TIMING] == 0 or at_end:
            _give_char(s, FLATFOOT, seat)
    if s.char_owner[ANGIE] < 0 and s.built[seat] >= p[P_ANGIE_TILES]:
        _give_char(s, ANGIE, seat)
    if s.char_owner[PHINEUS] < 0:
        k = s.cubes_board[seat] if p[P_R_PHIN_COUNT] == 0 else s.cubes_bought[seat]
        if k >= p[P_PHIN_CUBES]:
            _give_char(s, PHINEUS, seat)


@one_copy(_nrt=False)
def _move_char(s, c, dest, how):
    log_event(s, E_CHAR_MOVE, c, s.char_owner[c], dest, how)
    s.char_owner[c] = dest
    s.char_turn[c] = s.turn_total


# ---------------------------------------------------------------- building
@nb.njit(cache=True, _nrt=False, inline="always")
def _adjacent_ground(s, seat, q):
    a = NB_IN[q]
    if a >= 0 and s.cell[seat, 0, a] >= 0:
        return True
    b = NB_OUT[q]
    return b >= 0 and s.cell[seat, 0, b] >= 0


@nb.njit(cache=True, _nrt=False, inline="always")
def _spot_free(s, seat, f, fp, fp_any, large_all):
    """Can a tile of fp's size stand at floor f (0-based) on footprint fp of this board?  fp_any: the rule
    large_footprints is any_neighbour; large_all: bit mask of the large tile types (s.tt_mask[TM_LARGE])."""
    if fp >= 13 and not fp_any:
        return False
    a = FP_A[fp]
    b = FP_B[fp]
    if s.cell[seat, f, a] >= 0:
        return False
    if b >= 0 and s.cell[seat, f, b] >= 0:
        return False
    if fp == 0:
        if f == 0:
            return False
        x = s.cell[seat, f - 1, 0]
        return x >= 0 and s.tfin[seat, x] == 1
    if f == 0:
        if b < 0:
            return _adjacent_ground(s, seat, a)
        na = NB_IN[a]
        nb_ = NB_OUT[b]
        return (na >= 0 and s.cell[seat, 0, na] >= 0) or (nb_ >= 0 and s.cell[seat, 0, nb_] >= 0)
    x = s.cell[seat, f - 1, a]
    if x < 0 or s.tfin[seat, x] == 0:
        return False
    if b < 0:
        return (large_all >> s.tt[seat, x]) & 1 == 0
    y = s.cell[seat, f - 1, b]
    if y < 0 or s.tfin[seat, y] == 0:
        return False
    if x == y:
        return (large_all >> s.tt[seat, x]) & 1 == 1 and s.tp[seat, x] == fp
    return (large_all >> s.tt[seat, x]) & 1 == 0 and (large_all >> s.tt[seat, y]) & 1 == 0


@nb.njit(cache=True, _nrt=False, inline="always")
def lot_gold(p, f, fp):
    if f != 0 or fp == 0:
        return 0
    g = np.int64(p[P_LOT0 + 2 * (FP_A[fp] - 1)])
    if FP_B[fp] >= 0:
        g += np.int64(p[P_LOT0 + 2 * (FP_B[fp] - 1)])
    return g


@nb.njit(cache=True, _nrt=False, inline="always")
def lot_rep(p, f, fp):
    if f != 0 or fp == 0:
        return 0
    r = np.int64(p[P_LOT0 + 2 * (FP_A[fp] - 1) + 1])
    if FP_B[fp] >= 0:
        r += np.int64(p[P_LOT0 + 2 * (FP_B[fp] - 1) + 1])
    return r


TM_LARGE, TM_F0, TM_F1, TM_F2, TM_ABOVE = range(5)


@nb.njit(cache=True, _nrt=False)
def _tile_tables(s, p):
    """Per-game copies of the tile-type parameters gen_builds needs (they never change during a game):
    tt_mask[TM_LARGE] large types (the Saloon included); tt_mask[TM_F0/F1/F2] types whose floor range admits that
    floor (TM_F0 also excludes tiles that must stand above the Saloon); tt_mask[TM_ABOVE] those tiles;
    tt_req / tt_forb the required / forbidding tile type (-1 none); tt_cost the gold cost."""
    nt = np.int64(p[P_N_TILES])
    one = np.int64(1)
    for j in range(5):
        s.tt_mask[j] = 0
    for t in range(MAX_TILE_TYPES):
        s.tt_req[t] = -1
        s.tt_forb[t] = -1
        s.tt_cost[t] = 0
    for t in range(nt):
        bit = one << t
        if tparam(p, t, TF_LARGE) == 1:
            s.tt_mask[TM_LARGE] |= bit
        fmin = tparam(p, t, TF_FMIN)
        fmax = tparam(p, t, TF_FMAX)
        above = tparam(p, t, TF_ABOVE) == 1
        if above:
            s.tt_mask[TM_ABOVE] |= bit
        if not (1 < fmin or 1 > fmax) and not above:
            s.tt_mask[TM_F0] |= bit
        if not (2 < fmin or 2 > fmax):
            s.tt_mask[TM_F1] |= bit
        if not (3 < fmin or 3 > fmax):
            s.tt_mask[TM_F2] |= bit
        s.tt_req[t] = np.int64(tparam(p, t, TF_REQ))
        s.tt_forb[t] = np.int64(tparam(p, t, TF_FORBID))
        s.tt_cost[t] = np.int64(tparam(p, t, TF_COST))


@nb.njit(cache=True, _nrt=False, inline="always")
def tile_allowed_mask(s, p, seat):
    """Bit t set when tile type t is in supply and its built / not-built prerequisites hold."""
    m = np.int64(0)
    nt = np.int64(p[P_N_TILES])
    for t in range(1, nt):
        if s.supply[t] <= 0:
            continue
        req = np.int64(tparam(p, t, TF_REQ))
        if req >= 0 and (s.types_built[seat] >> req) & 1 == 0:
            continue
        forb = np.int64(tparam(p, t, TF_FORBID))
        if forb >= 0 and (s.types_built[seat] >> forb) & 1 == 1:
            continue
        m |= np.int64(1) << t
    return m


@nb.njit(cache=True, _nrt=False, inline="always")
def tile_fits(p, t, f, fp):
    """Size, floor and position constraints of tile type t at (f, fp)."""
    if tparam(p, t, TF_LARGE) != FP_LARGE[fp]:
        return False
    if f + 1 < tparam(p, t, TF_FMIN) or f + 1 > tparam(p, t, TF_FMAX):
        return False
    if tparam(p, t, TF_ABOVE) == 1:
        if f == 0:
            return False
        if p[P_R_THEATER] == 0 and fp != 0:
            return False
    return True


@nb.njit(cache=True, _nrt=False, inline="always")
def build_cost(p, t, f, fp, ignore_lot, discount):
    c = np.int64(tparam(p, t, TF_COST)) - discount
    if c < 0:
        c = 0
    if not ignore_lot:
        c += lot_gold(p, f, fp)
    return c


@one_copy(_nrt=False)
def gen_builds(s, p, seat, out, k, kind, ignore_lot, discount):
    """Append every affordable legal (tile, floor, footprint) build as actions of `kind`.

    Order: floor, footprint, tile type (ascending).  The size / floor / position tests of tile_fits are folded
    into bit masks once per call, so each spot only visits the tile types that fit it."""
    nt = np.int64(p[P_N_TILES])
    one = np.int64(1)
    # tile_allowed_mask from the per-game tables
    mask = np.int64(0)
    tb = s.types_built[seat]
    for t in range(1, nt):
        if s.supply[t] <= 0:
            continue
        req = s.tt_req[t]
        if req >= 0 and (tb >> req) & 1 == 0:
            continue
        forb = s.tt_forb[t]
        if forb >= 0 and (tb >> forb) & 1 == 1:
            continue
        mask |= one << t
    if mask == 0:
        return k
    gold = s.gold[seat]
    large_all = s.tt_mask[TM_LARGE]   # every large tile type (the Saloon included): for the tiles below a spot
    m_large = mask & large_all
    m_small = mask & ~large_all
    m_f0 = mask & s.tt_mask[TM_F0]    # allowed tile types whose floor range (and position rule) admits floor 0, 1, 2
    m_f1 = mask & s.tt_mask[TM_F1]
    m_f2 = mask & s.tt_mask[TM_F2]
    m_above = s.tt_mask[TM_ABOVE]
    cheapest = one << 40
    for t in range(1, nt):
        if (mask >> t) & 1:
            c = max(np.int64(s.tt_cost[t]) - discount, 0)
            if c < cheapest:
                cheapest = c
    if cheapest > gold:
        return k
    # floors holding a finished tile: only those can carry a tile on the floor above (_spot_free)
    fin_floors = 0
    for i in range(s.ntile[seat]):
        if s.tfin[seat, i] == 1:
            fin_floors |= 1 << s.tf[seat, i]
    theater_any = p[P_R_THEATER] != 0
    fp_any = p[P_R_FOOTPRINTS] != 0
    for f in range(NFLOORS):
        if f > 0 and (fin_floors >> (f - 1)) & 1 == 0:
            continue
        mf = m_f0 if f == 0 else (m_f1 if f == 1 else m_f2)
        if mf == 0:
            continue
        for fp in range(N_FP):
            m = (m_large if FP_LARGE[fp] == 1 else m_small) & mf
            if fp != 0 and not theater_any:
                m &= ~m_above
            if m == 0:
                continue
            lg = np.int64(0) if ignore_lot else lot_gold(p, f, fp)
            if cheapest + lg > gold:
                continue
            if not _spot_free(s, seat, f, fp, fp_any, large_all):
                continue
            for t in range(1, nt):
                if (m >> t) & 1 == 0:
                    continue
                c = np.int64(s.tt_cost[t]) - discount
                if c < 0:
                    c = 0
                if c + lg > gold:
                    continue
                if k < MAX_ACTIONS:
                    out[k] = kind * ASTRIDE + t * 1000 + f * 100 + fp
                    k += 1
    return k


@nb.njit(cache=True, _nrt=False)
def _build(s, p, seat, t, f, fp, ignore_lot, discount):
    cost = build_cost(p, t, f, fp, ignore_lot, discount)
    _pay(s, seat, cost)
    s.supply[t] -= 1
    i = s.ntile[seat]
    s.ntile[seat] = i + 1
    s.tt[seat, i] = t
    s.tf[seat, i] = f
    s.tp[seat, i] = fp
    s.tc[seat, i] = 0
    s.tfin[seat, i] = 0
    s.cell[seat, f, FP_A[fp]] = i
    if FP_B[fp] >= 0:
        s.cell[seat, f, FP_B[fp]] = i
    s.built[seat] += 1
    s.types_built[seat] |= np.int64(1) << t
    s.last_prog = s.turn_total
    log_event(s, E_BUILD, seat, t, f * 100 + fp, cost)
    r = lot_rep(p, f, fp)
    if r != 0:
        s.vp[seat, VP_LOTS] += r
        log_event(s, E_LOT_REP, seat, r, fp, 0)
    _item(s, seat, IT_TILE + t)


# ---------------------------------------------------------------- cubes and finishing
@one_copy(_nrt=False)
def _place_cube(s, p, seat, i, src):
    s.tc[seat, i] += 1
    s.cubes_board[seat] += 1
    s.last_prog = s.turn_total
    if src == 0:
        s.cubes_bought[seat] += 1
    if s.pile > 0:
        s.pile -= 1
        if s.pile == 0:
            s.depleted = 1
    else:
        s.reserve += 1
    log_event(s, E_CUBE, seat, s.tt[seat, i], src, s.pile)
    t = s.tt[seat, i]
    if s.tc[seat, i] == np.int64(tparam(p, t, TF_CUBES)):
        _finish_tile(s, p, seat, i)


@nb.njit(cache=True, _nrt=False)
def _finish_tile(s, p, seat, i):
    t = s.tt[seat, i]
    s.tfin[seat, i] = 1
    large = tparam(p, t, TF_LARGE) == 1
    pts = np.int32(p[P_FIN_L]) if large else np.int32(p[P_FIN_S])
    if t == 0 and p[P_R_SALOON_SCORES] == 0:
        pts = 0
    s.vp[seat, VP_TILES] += pts
    log_event(s, E_FINISH, seat, t, s.tf[seat, i], pts)
    # order of the rulebook: score, bonus, roof.  The stack resolves the top first, so the roof goes below.
    if s.tf[seat, i] == NFLOORS - 1:
        _push(s, TK_ROOF, 1 if large else 0, 0)
    b = np.int64(tparam(p, t, TF_BONUS))
    bn = np.int64(tparam(p, t, TF_BONUS_N))
    if b == B_CUBES:
        _push(s, TK_CUBES, bn, 1)
    elif b == B_DRAW:
        _push(s, TK_DRAW, bn, 0)
    elif b == B_PLAY:
        _push(s, TK_PLAYOPT, 0, 0)
    elif b == B_ACTION:
        _push(s, TK_ACTION, 0, 0)
    elif b == B_CITIZEN:
        _push(s, TK_CITIZEN, np.int64(tparam(p, t, TF_CITIZEN)), 0)
    elif b == B_GOLD:
        _push(s, TK_GOLD, bn, 0)


# ---------------------------------------------------------------- cards
@one_copy(_nrt=False)
def _richest_opponent(s, seat, by_cards):
    best = -1
    bv = -1
    for d in range(1, s.n):
        o = (seat + d) % s.n
        v = s.hand_n[o] if by_cards else s.gold[o]
        if v > bv:
            bv = v
            best = o
    return best


@one_copy(_nrt=False)
def _play_card(s, p, seat, c, how):
    """Resolve Tycoon card c (already out of the hand); it goes to the discard pile once resolved."""
    s.cards_played[seat] += 1
    log_event(s, E_PLAY, seat, c, how, 0)
    _item(s, seat, IT_CARD + c)
    _push(s, TK_TODISC, c, 0)
    g = np.int64(cparam(p, c, CF_GOLD))
    if g > 0:
        _gain(s, seat, g)
        log_event(s, E_GOLD, seat, g, s.gold[seat], 0)
    if cparam(p, c, CF_GOLD_INCOME) == 1:
        g = income_of(s, seat)
        _gain(s, seat, g)
        log_event(s, E_GOLD, seat, g, s.gold[seat], 1)
    g = np.int64(cparam(p, c, CF_STEAL_GOLD))
    if g > 0:
        v = _richest_opponent(s, seat, False)
        x = min(g, s.gold[v])
        s.gold[v] -= x
        s.gold[seat] += x
        log_event(s, E_STEAL_GOLD, seat, v, x, 0)
    g = np.int64(cparam(p, c, CF_STEAL_CARDS))
    if g > 0:
        v = _richest_opponent(s, seat, True)
        for _ in range(g):
            if s.hand_n[v] == 0:
                break
            if p[P_R_STEAL_LIMIT] == 1 and s.hand_n[seat] >= p[P_HAND_LIMIT]:
                break
            r = rand_below(s.rng, 0, s.hand_n[v])
            for cc in range(MAX_CARD_TYPES):
                if r < s.hand[v, cc]:
                    _remove_card(s, v, cc)
                    s.hand[seat, cc] += 1
                    s.hand_n[seat] += 1
                    log_event(s, E_STEAL_CARD, seat, v, cc, 0)
                    break
                r -= s.hand[v, cc]
    g = np.int64(cparam(p, c, CF_EXTRA))
    if g > 0:
        if cparam(p, c, CF_EXTRA_NOPLAY) == 1:
            s.acts_noplay += g
        else:
            s.acts_any += g
        log_event(s, E_EXTRA, seat, g, 0, 0)
    # effects needing decisions, pushed so they resolve in the order draw, cubes, cheap cubes, build, move
    if cparam(p, c, CF_MOVE) == 1:
        _push(s, TK_MOVE, 0, 0)
    if cparam(p, c, CF_BUILD) == 1:
        _push(s, TK_CBUILD, np.int64(cparam(p, c, CF_IGNORE_LOT)), np.int64(cparam(p, c, CF_DISCOUNT)))
    g = np.int64(cparam(p, c, CF_CHEAP_N))
    if g > 0:
        _push(s, TK_CHEAP, g, np.int64(cparam(p, c, CF_CHEAP_PRICE)))
    g = np.int64(cparam(p, c, CF_CUBES))
    if g > 0:
        _push(s, TK_CUBES, g, 2)
    g = np.int64(cparam(p, c, CF_DRAW))
    if g > 0:
        _push(s, TK_DRAW, g, 0)


@nb.njit(cache=True, _nrt=False, inline="always")
def card_playable(s, p, seat, c):
    if s.hand[seat, c] <= 0:
        return False
    if cparam(p, c, CF_MOVE) == 1 and s.end_trig == 1:
        return False
    return True


# ---------------------------------------------------------------- claims
@nb.njit(cache=True, _nrt=False, inline="always")
def claim_points(s, p, seat, gid):
    base = kbase(gid)
    per = np.int64(p[base + KF_PER])
    if per > 0:
        k = 0
        for c in range(N_CHARS):
            if s.char_owner[c] == seat:
                k += 1
        return per * k
    return np.int64(p[base + KF_POINTS])


@nb.njit(cache=True, _nrt=False)
def _stake(s, p, seat, gid):
    pts = claim_points(s, p, seat, gid)
    first = True
    for g in range(N_CLAIM_IDS):
        if s.claim_by[g] >= 0:
            first = False
            break
    s.claim_by[gid] = seat
    if gid >= MAX_OPEN:
        for j in range(MAX_SEC_HAND):
            if s.sec[seat, j] == gid:
                s.sec_state[seat, j] = SEC_SCORED
    s.vp[seat, VP_CLAIMS] += pts
    s.claims_n[seat] += 1
    log_event(s, E_CLAIM, seat, gid, pts, 0)
    _item(s, seat, IT_CLAIM + gid)
    if first and s.char_owner[SYDNEY] < 0:
        if not restricted(s) or p[P_R_FINAL_OUTLAWS] == 1:
            _give_char(s, SYDNEY, seat)


# ---------------------------------------------------------------- settling automatic tasks
@nb.njit(cache=True, _nrt=False)
def _draw_need(s, p, seat, n, is_action):
    """(cards that will be drawn, discards still needed first)."""
    k = min(n, s.deck_n + s.disc_n)
    if p[P_R_LIMIT_ALL_DRAWS] == 0 and is_action == 0:
        return k, 0
    need = s.hand_n[seat] + k - np.int64(p[P_HAND_LIMIT])
    return k, max(need, 0)


@nb.njit(cache=True, _nrt=False)
def _settle(s, p):
    """Resolve automatic tasks until a decision is needed or the stack is empty."""
    seat = s.cur
    while s.tk_n > 0:
        top = s.tk_n - 1
        kind = s.tk[top, 0]
        a = s.tk[top, 1]
        b = s.tk[top, 2]
        if kind == TK_CUBES:
            if a <= 0:
                s.tk_n -= 1
            elif not has_open_space(s, p, seat):
                log_event(s, E_CUBES_LOST, seat, a, 0, 0)
                s.tk_n -= 1
            else:
                break
        elif kind == TK_DRAW:
            k, need = _draw_need(s, p, seat, a, b)
            if need > 0 and s.hand_n[seat] > 0:
                break
            s.tk_n -= 1
            for _ in range(k):
                _draw_one(s, seat)
            log_event(s, E_DRAW, seat, k, s.hand_n[seat], 0)
        elif kind == TK_PLAYOPT:
            if s.hand_n[seat] == 0:
                s.tk_n -= 1
            else:
                break
        elif kind == TK_ACTION or kind == TK_CBUILD or kind == TK_MOVE:
            break
        elif kind == TK_DISCARD1:
            if s.hand_n[seat] == 0:
                s.tk_n -= 1
            else:
                break
        elif kind == TK_CHEAP:
            if a <= 0 or s.gold[seat] < b or not has_open_space(s, p, seat):
                s.tk_n -= 1
            else:
                break
        elif kind == TK_ROOF:
            s.tk_n -= 1
            if s.roof_pile[a] > 0 or p[P_R_ROOF_EMPTY] == 1:
                if s.roof_pile[a] > 0:
                    s.roof_pile[a] -= 1
                s.roofs[seat, a] += 1
                pts = np.int32(p[P_ROOF_PTS])
                s.vp[seat, VP_ROOFS] += pts
                if p[P_R_ANGIE_ROOFS] == 1:
                    s.built[seat] += 1
                log_event(s, E_ROOF, seat, a, pts, 0)
                _item(s, seat, IT_ROOF_L if a == 1 else IT_ROOF_S)
            else:
                log_event(s, E_NO_ROOF, seat, a, 0, 0)
        elif kind == TK_CITIZEN:
            s.tk_n -= 1
            if a >= 0:
                if restricted(s):
                    log_event(s, E_NO_CITIZEN, seat, a, 0, 0)
                else:
                    _give_char(s, a, seat)
        elif kind == TK_GOLD:
            s.tk_n -= 1
            _gain(s, seat, a)
            log_event(s, E_GOLD, seat, a, s.gold[seat], 2)
        elif kind == TK_CARD:
            s.tk_n -= 1
            _play_card(s, p, seat, a, b)
        elif kind == TK_TODISC:
            s.tk_n -= 1
            _to_discard(s, a)
        else:
            s.tk_n -= 1
        _outlaws(s, p, False)
    _outlaws(s, p, False)


# ---------------------------------------------------------------- protocol
@nb.njit(cache=True, _nrt=False)
def current_player(s):
    return s.cur


@one_copy(_nrt=False)
def _gen_tycoon(s, p, seat, out, k, play_ok, angie_applies):
    out[k] = K_EARN * ASTRIDE
    k += 1
    out[k] = K_DRAW * ASTRIDE
    k += 1
    if play_ok:
        need2 = angie_applies and s.char_owner[ANGIE] == seat
        if not need2 or s.hand_n[seat] >= 2:
            for c in range(MAX_CARD_TYPES):
                if card_playable(s, p, seat, c):
                    out[k] = K_PLAY * ASTRIDE + c
                    k += 1
    k = gen_builds(s, p, seat, out, k, K_BUILD, False, 0)
    if s.end_trig == 0 and s.gold[seat] >= p[P_BRIBE]:
        k = _gen_moves(s, p, seat, out, k, K_BRIBE)
    return k


@one_copy(_nrt=False)
def _gen_moves(s, p, seat, out, k, kind):
    own_only = p[P_R_BRIBE_TARGET] == 1
    for c in range(N_CHARS):
        o = s.char_owner[c]
        if o < 0:
            continue
        for d in range(s.n):
            if d == o:
                continue
            if own_only and d != seat:
                continue
            if k < MAX_ACTIONS:
                out[k] = kind * ASTRIDE + c * 10 + d
                k += 1
    return k


def COMPILE_IN_PARENT(state, params):
    """The first compile on two processes (sim.kernel.compile_ahead): the legal actions are compiled beside the
    moves, while the child compiles the strategies (which take longer than the moves)."""
    return {"legal_actions": (state, params, LEGAL_TYPE)}


@nb.njit(cache=True, _nrt=False)
def legal_actions(s, p, out):
    seat = s.cur
    k = 0
    if s.phase == PH_KEEP:
        for j in range(MAX_SEC_HAND):
            if s.sec_state[seat, j] == SEC_DEALT:
                out[k] = K_DROP * ASTRIDE + s.sec[seat, j]
                k += 1
        return k
    if s.phase != PH_PLAY:
        out[0] = K_END * ASTRIDE
        return 1
    if s.tk_n > 0:
        top = s.tk_n - 1
        kind = s.tk[top, 0]
        if kind == TK_CUBES or kind == TK_CHEAP:
            ak = K_PLACE if kind == TK_CUBES else K_CHEAP
            for i in range(s.ntile[seat]):
                if tile_open(s, p, seat, i):
                    out[k] = ak * ASTRIDE + i
                    k += 1
            if kind == TK_CHEAP:
                out[k] = K_SKIP * ASTRIDE
                k += 1
        elif kind == TK_DRAW or kind == TK_DISCARD1:
            for c in range(MAX_CARD_TYPES):
                if s.hand[seat, c] > 0:
                    out[k] = K_DISCARD * ASTRIDE + c
                    k += 1
        elif kind == TK_PLAYOPT:
            for c in range(MAX_CARD_TYPES):
                if card_playable(s, p, seat, c):
                    out[k] = K_BPLAY * ASTRIDE + c
                    k += 1
            out[k] = K_SKIP * ASTRIDE
            k += 1
        elif kind == TK_ACTION:
            k = _gen_tycoon(s, p, seat, out, k, True, p[P_R_ANGIE_ACTION_BONUS] == 1)
        elif kind == TK_CBUILD:
            k = gen_builds(s, p, seat, out, k, K_CBUILD, s.tk[top, 1] == 1, s.tk[top, 2])
            out[k] = K_SKIP * ASTRIDE
            k += 1
        elif kind == TK_MOVE:
            if not restricted(s):
                k = _gen_moves(s, p, seat, out, k, K_MOVE)
            out[k] = K_SKIP * ASTRIDE
            k += 1
        if k == 0:  # cannot happen with a consistent stack; never leave the game without a move
            out[0] = K_SKIP * ASTRIDE
            k = 1
        return k
    # main step: free actions, Tycoon actions, end of turn
    out[k] = K_END * ASTRIDE
    k += 1
    if s.acts_any + s.acts_noplay > 0:
        k = _gen_tycoon(s, p, seat, out, k, s.acts_any > 0, True)
    if s.gold[seat] >= purchase_price(s, p, seat):
        for i in range(s.ntile[seat]):
            if tile_open(s, p, seat, i):
                out[k] = K_BUY * ASTRIDE + i
                k += 1
    return _gen_stakes(s, p, seat, out, k)


@nb.njit(cache=True, inline="always")
def claim_term(p, base, q):
    """Term q of the claim card whose parameters start at base: (kind, 0 = none; its argument; its count)."""
    t = base + KF_TERM0 + 3 * q
    return np.int64(p[t]), np.int64(p[t + 1]), np.int64(p[t + 2])


@nb.njit(cache=True, _nrt=False)
def _gen_stakes(s, p, seat, out, k):
    """Stake actions: the unscored open claims, then the seat's kept secret claims, whose requirements are met.

    Every claim requirement is checked here (the one place of the claim rules); the seat's character and tile
    counts are taken once per call, when a claim first needs them."""
    chars_done = False
    c_any = 0
    c_f = 0
    c_m = 0
    c_cit = 0
    c_cit_f = 0
    c_cit_m = 0
    c_out = 0
    tiles_done = False
    t_fin = 0
    t_spec = 0
    t_large = 0
    t_f3 = 0
    t_above = 0
    nu = s.n_open_up
    for j in range(nu + MAX_SEC_HAND):
        if j < nu:
            g = np.int64(s.open_ids[j])
            if s.claim_by[g] >= 0:
                continue
        else:
            if s.sec_state[seat, j - nu] != SEC_KEPT:
                continue
            g = np.int64(s.sec[seat, j - nu])
        base = kbase(g)
        ok = True
        for q in range(MAX_TERMS):
            kind, a, n = claim_term(p, base, q)
            if kind == 0:
                continue
            if kind == R_NAMED:
                r = s.char_owner[a] == seat
            elif kind <= R_OUTLAWS_MAX:
                if not chars_done:
                    chars_done = True
                    for c in range(N_CHARS):
                        if s.char_owner[c] != seat:
                            continue
                        cit = char_is_citizen(p, c)
                        fem = char_is_female(p, c)
                        c_any += 1
                        if fem:
                            c_f += 1
                        else:
                            c_m += 1
                        if cit:
                            c_cit += 1
                            if fem:
                                c_cit_f += 1
                            else:
                                c_cit_m += 1
                        else:
                            c_out += 1
                if kind == R_ANY:
                    v = c_any
                elif kind == R_F:
                    v = c_f
                elif kind == R_M:
                    v = c_m
                elif kind == R_CIT:
                    v = c_cit
                elif kind == R_CIT_F:
                    v = c_cit_f
                elif kind == R_CIT_M:
                    v = c_cit_m
                elif kind == R_OUTLAWS or kind == R_OUTLAWS_MAX:
                    v = c_out
                else:
                    v = 0
                r = v <= n if kind == R_OUTLAWS_MAX else v >= n
            elif kind == R_TILES:
                r = s.ntile[seat] >= n
            elif kind == R_TILE_TYPE:
                r = count_type(s, seat, a) >= n
            elif kind == R_ROOFS:
                r = s.roofs[seat, 0] + s.roofs[seat, 1] >= n
            elif kind == R_LARGE_ROOFS:
                r = s.roofs[seat, 1] >= n
            elif kind == R_GOLD:
                r = s.gold[seat] >= n
            elif kind == R_INCOME:
                r = income_of(s, seat) >= n
            elif kind == R_HAND:
                r = s.hand_n[seat] >= n
            elif kind == R_CUBES:
                r = s.cubes_board[seat] >= n
            elif kind == R_LOTS_GE:
                v = 0
                for x in range(1, NPOS):
                    if s.cell[seat, 0, x] >= 0 and p[P_LOT0 + 2 * (x - 1)] >= a:
                        v += 1
                r = v >= n
            elif kind == R_FULL_ARM:
                okA = s.cell[seat, 0, 1] >= 0 and s.cell[seat, 0, 2] >= 0 and s.cell[seat, 0, 3] >= 0 and \
                    s.cell[seat, 0, 4] >= 0
                okB = s.cell[seat, 0, 5] >= 0 and s.cell[seat, 0, 6] >= 0 and s.cell[seat, 0, 7] >= 0 and \
                    s.cell[seat, 0, 8] >= 0
                r = (okA or okB) or n == 0
            elif kind == R_DISTINCT:
                m = np.int64(0)
                for i in range(1, s.ntile[seat]):
                    m |= np.int64(1) << s.tt[seat, i]
                v = 0
                while m:
                    v += m & 1
                    m >>= 1
                r = v >= n
            else:
                if not tiles_done:
                    tiles_done = True
                    for i in range(s.ntile[seat]):
                        t = s.tt[seat, i]
                        if s.tfin[seat, i] == 1:
                            t_fin += 1
                        if tparam(p, t, TF_SPECIAL) == 1:
                            t_spec += 1
                        if t != 0 and tparam(p, t, TF_LARGE) == 1:
                            t_large += 1
                        if s.tf[seat, i] == 2:
                            t_f3 += 1
                        if s.tp[seat, i] == 0 and s.tf[seat, i] > 0:
                            t_above += 1
                if kind == R_FINISHED:
                    v = t_fin
                elif kind == R_SPECIAL:
                    v = t_spec
                elif kind == R_LARGE_EXCL:
                    v = t_large
                elif kind == R_FLOOR3:
                    v = t_f3
                elif kind == R_ABOVE_SALOON:
                    v = t_above
                else:
                    v = 0
                r = v >= n
            if not r:
                ok = False
                break
        if ok:
            out[k] = K_STAKE * ASTRIDE + g
            k += 1
    return k


@nb.njit(cache=True, _nrt=False)
def _use_action(s, kind):
    """Consume the Tycoon action: from the 'take an action' bonus if one is pending, else from the turn's count."""
    if s.tk_n > 0 and s.tk[s.tk_n - 1, 0] == TK_ACTION:
        s.tk_n -= 1
        return True
    if kind != K_PLAY and s.acts_noplay > 0:
        s.acts_noplay -= 1
    else:
        s.acts_any -= 1
    return False


@nb.njit(cache=True, _nrt=False)
def apply_action(s, p, a):
    kind = a // ASTRIDE
    arg = a % ASTRIDE
    seat = s.cur
    if s.phase == PH_KEEP:
        for j in range(MAX_SEC_HAND):
            if s.sec[seat, j] == arg and s.sec_state[seat, j] == SEC_DEALT:
                s.sec_state[seat, j] = SEC_DROPPED
                s.sec_n[seat] -= 1
                log_event(s, E_KEEP, seat, arg, 0, 0)
                break
        s.keep_left -= 1
        if s.keep_left <= 0:
            for j in range(MAX_SEC_HAND):
                if s.sec_state[seat, j] == SEC_DEALT:
                    s.sec_state[seat, j] = SEC_KEPT
            _next_keeper(s, p, seat + 1)
        return
    if s.phase != PH_PLAY:
        return
    if kind != K_BUY and s.tk_n == 0:
        s.buy_run = 0          # another main-step action ends a cube purchase
    if kind == K_END:
        _end_turn(s, p)
        return
    if kind == K_EARN:
        _use_action(s, kind)
        g = np.int64(p[P_EARN])
        _gain(s, seat, g)
        log_event(s, E_EARN, seat, g, s.gold[seat], 0)
    elif kind == K_DRAW:
        _use_action(s, kind)
        _push(s, TK_DRAW, np.int64(p[P_DRAW]), 1)
    elif kind == K_PLAY:
        via_bonus = _use_action(s, kind)
        _remove_card(s, seat, arg)
        angie = s.char_owner[ANGIE] == seat and (not via_bonus or p[P_R_ANGIE_ACTION_BONUS] == 1)
        if angie:
            _push(s, TK_CARD, arg, 0)
            _push(s, TK_DISCARD1, 0, 0)
        else:
            _play_card(s, p, seat, arg, 0)
    elif kind == K_BUILD or kind == K_CBUILD:
        ign = False
        disc = 0
        if kind == K_BUILD:
            _use_action(s, kind)
        else:
            top = s.tk_n - 1
            ign = s.tk[top, 1] == 1
            disc = s.tk[top, 2]
            s.tk_n -= 1
        _build(s, p, seat, arg // 1000, (arg // 100) % 10, arg % 100, ign, disc)
    elif kind == K_BRIBE:
        _use_action(s, kind)
        _pay(s, seat, np.int64(p[P_BRIBE]))
        _move_char(s, arg // 10, arg % 10, 0)
    elif kind == K_MOVE:
        s.tk_n -= 1
        _move_char(s, arg // 10, arg % 10, 1)
    elif kind == K_BUY:
        price = purchase_price(s, p, seat)
        if s.buy_run == 0 and p[P_R_CUBE_BUY] == 0:
            s.buy_run = 1      # consecutive buys are one purchase, paid at the price it started with
            s.buy_price = price
        _pay(s, seat, price)
        _place_cube(s, p, seat, arg, 0)
    elif kind == K_PLACE:
        top = s.tk_n - 1
        src = s.tk[top, 2]
        s.tk[top, 1] -= 1
        if s.tk[top, 1] <= 0:
            s.tk_n -= 1
        _place_cube(s, p, seat, arg, src)
    elif kind == K_CHEAP:
        top = s.tk_n - 1
        price = s.tk[top, 2]
        s.tk[top, 1] -= 1
        if s.tk[top, 1] <= 0:
            s.tk_n -= 1
        _pay(s, seat, price)
        _place_cube(s, p, seat, arg, 0)
    elif kind == K_DISCARD:
        _remove_card(s, seat, arg)
        _to_discard(s, arg)
        log_event(s, E_DISCARD, seat, arg, 0, 0)
        if s.tk_n > 0 and s.tk[s.tk_n - 1, 0] == TK_DISCARD1:
            s.tk_n -= 1
    elif kind == K_BPLAY:
        s.tk_n -= 1
        _remove_card(s, seat, arg)
        _play_card(s, p, seat, arg, 1)
    elif kind == K_SKIP:
        if s.tk_n > 0:
            log_event(s, E_SKIP, seat, s.tk[s.tk_n - 1, 0], 0, 0)
            s.tk_n -= 1
    elif kind == K_STAKE:
        _stake(s, p, seat, arg)
    _settle(s, p)


@nb.njit(cache=True, _nrt=False)
def _end_turn(s, p):
    seat = s.cur
    if p[P_R_FLAT_TIMING] == 1:
        _outlaws(s, p, True)
    s.turn_total += 1
    if s.end_trig == 0 and s.depleted == 1:
        s.end_trig = 1
        s.trig_seat = seat
        s.final_left = s.n - 1
        log_event(s, E_END_TRIGGER, seat, s.pile, s.reserve, 0)
        if s.final_left <= 0:
            _game_over(s, p, 1)
            return
    elif s.end_trig == 1:
        s.final_left -= 1
        if s.final_left <= 0:
            _game_over(s, p, 1)
            return
    if s.turn_total >= p[P_TURN_CAP]:
        _game_over(s, p, 2)
        return
    if p[P_STALL_ROUNDS] > 0 and s.end_trig == 0 and s.turn_total - s.last_prog >= p[P_STALL_ROUNDS] * s.n:
        _game_over(s, p, 3)
        return
    _start_turn(s, p, (seat + 1) % s.n)


@one_copy(_nrt=False)
def _game_over(s, p, how):
    s.over = how
    s.phase = PH_OVER
    for i in range(s.n):
        u = 0
        for j in range(s.ntile[i]):
            if s.tfin[i, j] == 0:
                u += np.int32(p[P_UNF_L]) if tparam(p, s.tt[i, j], TF_LARGE) == 1 else np.int32(p[P_UNF_S])
        s.vp[i, VP_UNFINISHED] = u
        cit = 0
        for c in range(N_CHARS):
            if s.char_owner[c] == i and char_is_citizen(p, c):
                cit += np.int32(p[P_CIT_PTS])
        s.vp[i, VP_CITIZENS] = cit
        s.vp[i, VP_OUTLAWS] = np.int32(p[P_SYD_PTS]) if s.char_owner[SYDNEY] == i else 0
        log_event(s, E_GAME_END, i, total_vp(s, i), s.gold[i], 0)


@nb.njit(cache=True, _nrt=False, inline="always")
def total_vp(s, seat):
    t = 0
    for k in range(N_VP):
        t += s.vp[seat, k]
    return t


@nb.njit(cache=True, _nrt=False)
def is_over(s):
    return s.over != 0


GAME_COLUMNS = ("turns_total", "rounds", "end_reason", "trigger_seat", "reserve_cubes", "items_truncated")
SEAT_COLUMNS = ("rank", "win", "order", "vp_tiles", "vp_roofs", "vp_lots", "vp_claims", "vp_citizens", "vp_outlaws",
                "vp_unfinished", "vp_total", "gold", "tiles_floor1", "tiles_floor2", "tiles_floor3", "roofs",
                "turns_taken", "ended_game", "claims", "cards_played", "citizens", "outlaws")


@nb.njit(cache=True, _nrt=False)
def _beats(s, p, i, j):
    """Seat i strictly ahead of seat j: Rep, then gold, then claims."""
    a = total_vp(s, i)
    b = total_vp(s, j)
    if a != b:
        return a > b
    if s.gold[i] != s.gold[j]:
        return s.gold[i] > s.gold[j]
    if p[P_R_TIE_CLAIMS] == 1 and s.claims_n[i] != s.claims_n[j]:
        return s.claims_n[i] > s.claims_n[j]
    return False


@nb.njit(cache=True, _nrt=False)
def write_outcome(s, p, game_int, seat_int, seat_f, items):
    n = s.n
    game_int[0] = s.turn_total
    r = 0
    for i in range(n):
        r = max(r, s.turns[i])
    game_int[1] = r
    game_int[2] = s.over - 1
    game_int[3] = s.trig_seat
    game_int[4] = s.reserve
    game_int[5] = s.it_lost
    n_win = 0
    for i in range(n):
        better = 0
        for j in range(n):
            if j != i and _beats(s, p, j, i):
                better += 1
        if better == 0:
            n_win += 1
    for i in range(n):
        better = 0
        for j in range(n):
            if j != i and _beats(s, p, j, i):
                better += 1
        win = 1 if better == 0 else 0
        seat_int[i, 0] = better + 1
        seat_int[i, 1] = win
        seat_int[i, 2] = i
        for k in range(7):
            seat_int[i, 3 + k] = s.vp[i, k]
        seat_int[i, 10] = total_vp(s, i)
        seat_int[i, 11] = s.gold[i]
        for f in range(NFLOORS):
            seat_int[i, 12 + f] = 0
        for j in range(s.ntile[i]):
            seat_int[i, 12 + s.tf[i, j]] += 1
        seat_int[i, 15] = s.roofs[i, 0] + s.roofs[i, 1]
        seat_int[i, 16] = s.turns[i]
        seat_int[i, 17] = 1 if s.trig_seat == i else 0
        seat_int[i, 18] = s.claims_n[i]
        seat_int[i, 19] = s.cards_played[i]
        cit = 0
        out = 0
        for c in range(N_CHARS):
            if s.char_owner[c] == i:
                if char_is_citizen(p, c):
                    cit += 1
                else:
                    out += 1
        seat_int[i, 20] = cit
        seat_int[i, 21] = out
        seat_f[i, 0] = total_vp(s, i)
        seat_f[i, 1] = win / n_win if win else 0.0
    m = 0
    for j in range(s.n_it):
        if m < items.shape[0]:
            items[m, 0] = s.it[j, 0]
            items[m, 1] = s.it[j, 1]
            items[m, 2] = s.it[j, 2]
            m += 1
    for c in range(N_CHARS):
        if s.char_owner[c] >= 0 and m < items.shape[0]:
            items[m, 0] = s.char_owner[c]
            items[m, 1] = IT_CHAR + c
            items[m, 2] = s.char_turn[c]
            m += 1
    return m
