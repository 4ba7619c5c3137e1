"""Saloon Tycoon (Second Edition) rules, jitted: setup, the turn, what an action does, the end.  See RULES.md for
every rule and reading.

Turn = Income (automatic), then decisions: free actions (buy a cube onto a tile, stake a claim), Tycoon actions
(earn, draw, play, build, bribe) while actions remain, and End turn.  Effects that need a decision (placing bonus
cubes, hand-limit discards, optional bonus plays, the "take an action" bonus, card builds, character moves) are
tasks on a small stack; automatic ones (roofs, citizens, draws without discards, card resolution) are settled at
once.  All component numbers are read from the parameter vector p (see params.py).
"""

import numba as nb
import numpy as np

from sim.events import log_event
from sim.kernel import one_copy
from sim.rng import rand_below, shuffle
from sim.toolkit import put, refill

from .actions import (
    BONUS_PLAY,
    BRIBE,
    BUILD,
    BUY,
    CARD_BUILD,
    CHEAP_CUBE,
    DISCARD,
    DRAW,
    EARN,
    END_TURN,
    MOVE,
    PLACE,
    PLAY,
    SKIP,
    STAKE,
    card_of,
    character_of,
    claim_of,
    floor_of,
    footprint_of,
    kind_of,
    own_tile_of,
    seat_of,
    tile_of,
)
from .params import (
    B_ACTION,
    B_CITIZEN,
    B_CUBES,
    B_DRAW,
    B_GOLD,
    B_PLAY,
    CF_BUILD,
    CF_CHEAP_N,
    CF_CHEAP_PRICE,
    CF_COPIES,
    CF_CUBES,
    CF_DISCOUNT,
    CF_DRAW,
    CF_EXTRA,
    CF_EXTRA_NOPLAY,
    CF_GOLD,
    CF_GOLD_INCOME,
    CF_IGNORE_LOT,
    CF_MOVE,
    CF_STEAL_CARDS,
    CF_STEAL_GOLD,
    MAX_CARD_TYPES,
    MAX_DECK,
    MAX_OPEN,
    MAX_SECRET,
    MAX_TILE_TYPES,
    N_CHARS,
    P_ANGIE_TILES,
    P_BRIBE,
    P_CUBES_PER_PLAYER,
    P_DRAW,
    P_EARN,
    P_FIN_L,
    P_FIN_S,
    P_FLAT_GOLD,
    P_FLAT_MALUS,
    P_HAND_LIMIT,
    P_MIN_INCOME,
    P_N_CARDS,
    P_N_OPEN,
    P_N_SECRET,
    P_N_TILES,
    P_OPEN_EXTRA,
    P_PHIN_CUBES,
    P_R_ANGIE_ACTION_BONUS,
    P_R_ANGIE_ROOFS,
    P_R_CUBE_BUY,
    P_R_FINAL_OUTLAWS,
    P_R_FLAT_TIMING,
    P_R_LIMIT_ALL_DRAWS,
    P_R_PHIN_COUNT,
    P_R_ROOF_EMPTY,
    P_R_SALOON_SCORES,
    P_R_STEAL_LIMIT,
    P_ROOF_PTS,
    P_ROOFS_L,
    P_ROOFS_S,
    P_SECRET_DEALT,
    P_SECRET_KEPT,
    P_STALL_ROUNDS,
    P_START_GOLD,
    P_START_HAND,
    P_TURN_CAP,
    TF_ABOVE,
    TF_BONUS,
    TF_BONUS_N,
    TF_CITIZEN,
    TF_COPIES,
    TF_COST,
    TF_CUBES,
    TF_FMAX,
    TF_FMIN,
    TF_FORBID,
    TF_LARGE,
    TF_REQ,
)
from .queries import (
    build_cost,
    claim_points,
    cparam,
    end_scores,
    has_open_space,
    income_of,
    lot_rep,
    purchase_price,
    restricted,
    total_vp,
    tparam,
)
from .state import (
    ANGIE,
    FLATFOOT,
    FP_A,
    FP_B,
    IT_CARD,
    IT_CLAIM,
    IT_ROOF_L,
    IT_ROOF_S,
    IT_TILE,
    MAX_ITEMS,
    MAX_PLAYERS,
    MAX_SEC_HAND,
    MAX_TASKS,
    MAX_TILES,
    N_CLAIM_IDS,
    N_VP,
    NFLOORS,
    NPOS,
    PH_KEEP,
    PH_OVER,
    PH_PLAY,
    PHINEUS,
    ROOF_LARGE,
    ROOF_SMALL,
    SEC_DEALT,
    SEC_DROPPED,
    SEC_KEPT,
    SEC_SCORED,
    SYDNEY,
    TK_ACTION,
    TK_CARD,
    TK_CBUILD,
    TK_CHEAP,
    TK_CITIZEN,
    TK_CUBES,
    TK_DISCARD1,
    TK_DRAW,
    TK_GOLD,
    TK_MOVE,
    TK_PLAYOPT,
    TK_ROOF,
    TK_TODISC,
    TM_ABOVE,
    TM_F0,
    TM_F1,
    TM_F2,
    TM_LARGE,
    VP_CITIZENS,
    VP_CLAIMS,
    VP_LOTS,
    VP_OUTLAWS,
    VP_ROOFS,
    VP_TILES,
    VP_UNFINISHED,
)

# events logged for `sim replay` (text.py words them)
(
    E_TURN,
    E_INCOME,
    E_EARN,
    E_DRAW,
    E_DISCARD,
    E_PLAY,
    E_BUILD,
    E_CUBE,
    E_CUBES_LOST,
    E_FINISH,
    E_ROOF,
    E_NO_ROOF,
    E_CHAR_IN,
    E_CHAR_MOVE,
    E_CLAIM,
    E_GOLD,
    E_STEAL_GOLD,
    E_STEAL_CARD,
    E_END_TRIGGER,
    E_GAME_END,
    E_KEEP,
    E_LOT_REP,
    E_NO_CITIZEN,
    E_EXTRA,
    E_RESHUFFLE,
    E_SKIP,
) = range(1, 27)
WHERE_FLOOR = 100  # E_BUILD logs where as floor x WHERE_FLOOR + footprint (an event row has four numbers)


@one_copy(_nrt=False)
def _item(s, seat, iid):
    if s.n_item_rows < MAX_ITEMS - N_CHARS:
        s.item_rows[s.n_item_rows, 0] = seat
        s.item_rows[s.n_item_rows, 1] = iid
        s.item_rows[s.n_item_rows, 2] = s.turn_total
        s.n_item_rows += 1
    else:
        s.items_lost += 1


@nb.njit(cache=True, _nrt=False, inline="always")
def _gain(s, seat, x):
    s.gold[seat] += x
    s.gold_in += x


@nb.njit(cache=True, _nrt=False, inline="always")
def _pay(s, seat, x):
    s.gold[seat] -= x
    s.gold_out += x


@nb.njit(cache=True, _nrt=False, inline="always")
def _push_task(s, kind, a, b):
    """Put a pending effect on the task stack (resolved top first by _settle and the task's decisions)."""
    if s.n_tasks < MAX_TASKS:
        s.task[s.n_tasks, 0] = kind
        s.task[s.n_tasks, 1] = a
        s.task[s.n_tasks, 2] = b
        s.n_tasks += 1


# ---------------------------------------------------------------- deck
@one_copy(_nrt=False)
def _draw_one(s, seat):
    if s.deck_n == 0:
        if s.disc_n == 0:
            return -1
        s.deck_n = refill(s.rng, s.deck, s.disc, s.disc_n)
        s.disc_n = 0
        log_event(s, E_RESHUFFLE, s.deck_n, 0, 0, 0)
    s.deck_n -= 1
    c = s.deck[s.deck_n]
    s.hand[seat, c] += 1
    s.hand_n[seat] += 1
    return c


@nb.njit(cache=True, _nrt=False, inline="always")
def _to_discard(s, c):
    s.disc_n = put(s.disc, s.disc_n, c)


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
    s.n_tasks = 0
    s.n_item_rows = 0
    s.items_lost = 0
    s.acts_any = 0
    s.acts_noplay = 0
    for i in range(MAX_PLAYERS):
        s.gold[i] = 0
        s.turns[i] = 0
        s.claims_n[i] = 0
        s.cards_played[i] = 0
        s.hand_n[i] = 0
        s.n_tiles[i] = 0
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
            s.tile_type[i, k] = -1
            s.tile_floor[i, k] = 0
            s.tile_footprint[i, k] = 0
            s.tile_cubes[i, k] = 0
            s.tile_finished[i, k] = 0
        for f in range(NFLOORS):
            for q in range(NPOS):
                s.cell[i, f, q] = -1
        s.roofs[i, ROOF_SMALL] = 0
        s.roofs[i, ROOF_LARGE] = 0
        for k in range(MAX_SEC_HAND):
            s.sec[i, k] = -1
            s.sec_state[i, k] = SEC_DROPPED
    s.roof_pile[ROOF_SMALL] = np.int32(p[P_ROOFS_S])
    s.roof_pile[ROOF_LARGE] = np.int32(p[P_ROOFS_L])
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
        s.tile_type[i, 0] = 0
        s.tile_floor[i, 0] = 0
        s.tile_footprint[i, 0] = 0
        s.n_tiles[i] = 1
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


@nb.njit(cache=True, _nrt=False)
def _tile_tables(s, p):
    """Per-game copies of the tile-type parameters gen_builds needs (they never change during a game):
    type_mask[TM_LARGE] large types (the Saloon included); type_mask[TM_F0/F1/F2] types whose floor range admits that
    floor (TM_F0 also excludes tiles that must stand above the Saloon); type_mask[TM_ABOVE] those tiles;
    type_req / type_forbid the required / forbidding tile type (-1 none); type_cost the gold cost."""
    nt = np.int64(p[P_N_TILES])
    one = np.int64(1)
    for j in range(5):
        s.type_mask[j] = 0
    for t in range(MAX_TILE_TYPES):
        s.type_req[t] = -1
        s.type_forbid[t] = -1
        s.type_cost[t] = 0
    for t in range(nt):
        bit = one << t
        if tparam(p, t, TF_LARGE) == 1:
            s.type_mask[TM_LARGE] |= bit
        fmin = tparam(p, t, TF_FMIN)
        fmax = tparam(p, t, TF_FMAX)
        above = tparam(p, t, TF_ABOVE) == 1
        if above:
            s.type_mask[TM_ABOVE] |= bit
        if not (1 < fmin or 1 > fmax) and not above:
            s.type_mask[TM_F0] |= bit
        if not (2 < fmin or 2 > fmax):
            s.type_mask[TM_F1] |= bit
        if not (3 < fmin or 3 > fmax):
            s.type_mask[TM_F2] |= bit
        s.type_req[t] = np.int64(tparam(p, t, TF_REQ))
        s.type_forbid[t] = np.int64(tparam(p, t, TF_FORBID))
        s.type_cost[t] = np.int64(tparam(p, t, TF_COST))


@nb.njit(cache=True, _nrt=False)
def _build(s, p, seat, t, f, fp, ignore_lot, discount):
    cost = build_cost(p, t, f, fp, ignore_lot, discount)
    _pay(s, seat, cost)
    s.supply[t] -= 1
    i = s.n_tiles[seat]
    s.n_tiles[seat] = i + 1
    s.tile_type[seat, i] = t
    s.tile_floor[seat, i] = f
    s.tile_footprint[seat, i] = fp
    s.tile_cubes[seat, i] = 0
    s.tile_finished[seat, i] = 0
    s.cell[seat, f, FP_A[fp]] = i
    if FP_B[fp] >= 0:
        s.cell[seat, f, FP_B[fp]] = i
    s.built[seat] += 1
    s.types_built[seat] |= np.int64(1) << t
    s.last_prog = s.turn_total
    log_event(s, E_BUILD, seat, t, f * WHERE_FLOOR + fp, cost)
    r = lot_rep(p, f, fp)
    if r != 0:
        s.vp[seat, VP_LOTS] += r
        log_event(s, E_LOT_REP, seat, r, fp, 0)
    _item(s, seat, IT_TILE + t)


# ---------------------------------------------------------------- cubes and finishing
@one_copy(_nrt=False)
def _place_cube(s, p, seat, i, src):
    s.tile_cubes[seat, i] += 1
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
    log_event(s, E_CUBE, seat, s.tile_type[seat, i], src, s.pile)
    t = s.tile_type[seat, i]
    if s.tile_cubes[seat, i] == np.int64(tparam(p, t, TF_CUBES)):
        _finish_tile(s, p, seat, i)


@nb.njit(cache=True, _nrt=False)
def _finish_tile(s, p, seat, i):
    t = s.tile_type[seat, i]
    s.tile_finished[seat, i] = 1
    large = tparam(p, t, TF_LARGE) == 1
    pts = np.int32(p[P_FIN_L]) if large else np.int32(p[P_FIN_S])
    if t == 0 and p[P_R_SALOON_SCORES] == 0:
        pts = 0
    s.vp[seat, VP_TILES] += pts
    log_event(s, E_FINISH, seat, t, s.tile_floor[seat, i], pts)
    # order of the rulebook: score, bonus, roof.  The stack resolves the top first, so the roof goes below.
    if s.tile_floor[seat, i] == NFLOORS - 1:
        _push_task(s, TK_ROOF, 1 if large else 0, 0)
    b = np.int64(tparam(p, t, TF_BONUS))
    bn = np.int64(tparam(p, t, TF_BONUS_N))
    if b == B_CUBES:
        _push_task(s, TK_CUBES, bn, 1)
    elif b == B_DRAW:
        _push_task(s, TK_DRAW, bn, 0)
    elif b == B_PLAY:
        _push_task(s, TK_PLAYOPT, 0, 0)
    elif b == B_ACTION:
        _push_task(s, TK_ACTION, 0, 0)
    elif b == B_CITIZEN:
        _push_task(s, TK_CITIZEN, np.int64(tparam(p, t, TF_CITIZEN)), 0)
    elif b == B_GOLD:
        _push_task(s, TK_GOLD, bn, 0)


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
    _push_task(s, TK_TODISC, c, 0)
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
        _push_task(s, TK_MOVE, 0, 0)
    if cparam(p, c, CF_BUILD) == 1:
        _push_task(s, TK_CBUILD, np.int64(cparam(p, c, CF_IGNORE_LOT)), np.int64(cparam(p, c, CF_DISCOUNT)))
    g = np.int64(cparam(p, c, CF_CHEAP_N))
    if g > 0:
        _push_task(s, TK_CHEAP, g, np.int64(cparam(p, c, CF_CHEAP_PRICE)))
    g = np.int64(cparam(p, c, CF_CUBES))
    if g > 0:
        _push_task(s, TK_CUBES, g, 2)
    g = np.int64(cparam(p, c, CF_DRAW))
    if g > 0:
        _push_task(s, TK_DRAW, g, 0)


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
    while s.n_tasks > 0:
        top = s.n_tasks - 1
        kind = s.task[top, 0]
        a = s.task[top, 1]
        b = s.task[top, 2]
        if kind == TK_CUBES:
            if a <= 0:
                s.n_tasks -= 1
            elif not has_open_space(s, p, seat):
                log_event(s, E_CUBES_LOST, seat, a, 0, 0)
                s.n_tasks -= 1
            else:
                break
        elif kind == TK_DRAW:
            k, need = _draw_need(s, p, seat, a, b)
            if need > 0 and s.hand_n[seat] > 0:
                break
            s.n_tasks -= 1
            for _ in range(k):
                _draw_one(s, seat)
            log_event(s, E_DRAW, seat, k, s.hand_n[seat], 0)
        elif kind == TK_PLAYOPT:
            if s.hand_n[seat] == 0:
                s.n_tasks -= 1
            else:
                break
        elif kind == TK_ACTION or kind == TK_CBUILD or kind == TK_MOVE:
            break
        elif kind == TK_DISCARD1:
            if s.hand_n[seat] == 0:
                s.n_tasks -= 1
            else:
                break
        elif kind == TK_CHEAP:
            if a <= 0 or s.gold[seat] < b or not has_open_space(s, p, seat):
                s.n_tasks -= 1
            else:
                break
        elif kind == TK_ROOF:
            s.n_tasks -= 1
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
            s.n_tasks -= 1
            if a >= 0:
                if restricted(s):
                    log_event(s, E_NO_CITIZEN, seat, a, 0, 0)
                else:
                    _give_char(s, a, seat)
        elif kind == TK_GOLD:
            s.n_tasks -= 1
            _gain(s, seat, a)
            log_event(s, E_GOLD, seat, a, s.gold[seat], 2)
        elif kind == TK_CARD:
            s.n_tasks -= 1
            _play_card(s, p, seat, a, b)
        elif kind == TK_TODISC:
            s.n_tasks -= 1
            _to_discard(s, a)
        else:
            s.n_tasks -= 1
        _outlaws(s, p, False)
    _outlaws(s, p, False)


@nb.njit(cache=True, _nrt=False)
def current_player(s):
    return s.cur


@nb.njit(cache=True, _nrt=False)
def _use_action(s, kind):
    """Consume the Tycoon action: from the 'take an action' bonus if one is pending, else from the turn's count."""
    if s.n_tasks > 0 and s.task[s.n_tasks - 1, 0] == TK_ACTION:
        s.n_tasks -= 1
        return True
    if kind != PLAY and s.acts_noplay > 0:
        s.acts_noplay -= 1
    else:
        s.acts_any -= 1
    return False


@nb.njit(cache=True, _nrt=False)
def apply_action(s, p, a):
    kind = kind_of(a)
    seat = s.cur
    if s.phase == PH_KEEP:
        gid = claim_of(a)
        for j in range(MAX_SEC_HAND):
            if s.sec[seat, j] == gid and s.sec_state[seat, j] == SEC_DEALT:
                s.sec_state[seat, j] = SEC_DROPPED
                s.sec_n[seat] -= 1
                log_event(s, E_KEEP, seat, gid, 0, 0)
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
    if kind != BUY and s.n_tasks == 0:
        s.buy_run = 0  # another main-step action ends a cube purchase
    if kind == END_TURN:
        _end_turn(s, p)
        return
    if kind == EARN:
        _use_action(s, kind)
        g = np.int64(p[P_EARN])
        _gain(s, seat, g)
        log_event(s, E_EARN, seat, g, s.gold[seat], 0)
    elif kind == DRAW:
        _use_action(s, kind)
        _push_task(s, TK_DRAW, np.int64(p[P_DRAW]), 1)
    elif kind == PLAY:
        via_bonus = _use_action(s, kind)
        c = card_of(a)
        _remove_card(s, seat, c)
        angie = s.char_owner[ANGIE] == seat and (not via_bonus or p[P_R_ANGIE_ACTION_BONUS] == 1)
        if angie:
            _push_task(s, TK_CARD, c, 0)
            _push_task(s, TK_DISCARD1, 0, 0)
        else:
            _play_card(s, p, seat, c, 0)
    elif kind == BUILD or kind == CARD_BUILD:
        ign = False
        disc = 0
        if kind == BUILD:
            _use_action(s, kind)
        else:
            top = s.n_tasks - 1
            ign = s.task[top, 1] == 1
            disc = s.task[top, 2]
            s.n_tasks -= 1
        _build(s, p, seat, tile_of(a), floor_of(a), footprint_of(a), ign, disc)
    elif kind == BRIBE:
        _use_action(s, kind)
        _pay(s, seat, np.int64(p[P_BRIBE]))
        _move_char(s, character_of(a), seat_of(a), 0)
    elif kind == MOVE:
        s.n_tasks -= 1
        _move_char(s, character_of(a), seat_of(a), 1)
    elif kind == BUY:
        price = purchase_price(s, p, seat)
        if s.buy_run == 0 and p[P_R_CUBE_BUY] == 0:
            s.buy_run = 1  # consecutive buys are one purchase, paid at the price it started with
            s.buy_price = price
        _pay(s, seat, price)
        _place_cube(s, p, seat, own_tile_of(a), 0)
    elif kind == PLACE:
        top = s.n_tasks - 1
        src = s.task[top, 2]
        s.task[top, 1] -= 1
        if s.task[top, 1] <= 0:
            s.n_tasks -= 1
        _place_cube(s, p, seat, own_tile_of(a), src)
    elif kind == CHEAP_CUBE:
        top = s.n_tasks - 1
        price = s.task[top, 2]
        s.task[top, 1] -= 1
        if s.task[top, 1] <= 0:
            s.n_tasks -= 1
        _pay(s, seat, price)
        _place_cube(s, p, seat, own_tile_of(a), 0)
    elif kind == DISCARD:
        c = card_of(a)
        _remove_card(s, seat, c)
        _to_discard(s, c)
        log_event(s, E_DISCARD, seat, c, 0, 0)
        if s.n_tasks > 0 and s.task[s.n_tasks - 1, 0] == TK_DISCARD1:
            s.n_tasks -= 1
    elif kind == BONUS_PLAY:
        s.n_tasks -= 1
        c = card_of(a)
        _remove_card(s, seat, c)
        _play_card(s, p, seat, c, 1)
    elif kind == SKIP:
        if s.n_tasks > 0:
            log_event(s, E_SKIP, seat, s.task[s.n_tasks - 1, 0], 0, 0)
            s.n_tasks -= 1
    elif kind == STAKE:
        _stake(s, p, seat, claim_of(a))
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
    """The final scoring (how: the end reason, 1 + its label index)."""
    s.over = how
    s.phase = PH_OVER
    for i in range(s.n):
        s.vp[i, VP_UNFINISHED], s.vp[i, VP_CITIZENS], s.vp[i, VP_OUTLAWS] = end_scores(s, p, i)
        log_event(s, E_GAME_END, i, total_vp(s, i), s.gold[i], 0)


@nb.njit(cache=True, _nrt=False)
def is_over(s):
    return s.over != 0
