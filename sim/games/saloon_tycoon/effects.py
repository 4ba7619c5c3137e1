"""What Saloon Tycoon's actions do, jitted: characters arriving and moving, building, cubes and finishing, cards,
claims, and the settling of pending effects.  Effects that need a decision are tasks on a small stack (s.task);
settle resolves the automatic ones until a decision is needed.  rules.py calls these from apply_action.
"""

import numba as nb
import numpy as np

from sim.events import log_event
from sim.kernel import one_copy
from sim.rng import rand_below
from sim.toolkit import put, refill

from .events import (
    E_BUILD,
    E_CHAR_IN,
    E_CHAR_MOVE,
    E_CLAIM,
    E_CUBE,
    E_CUBES_LOST,
    E_DRAW,
    E_EXTRA,
    E_FINISH,
    E_GOLD,
    E_LOT_REP,
    E_NO_CITIZEN,
    E_NO_ROOF,
    E_PLAY,
    E_RESHUFFLE,
    E_ROOF,
    E_STEAL_CARD,
    E_STEAL_GOLD,
    WHERE_FLOOR,
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
    MAX_OPEN,
    MAX_TILE_TYPES,
    N_CHARS,
    P_ANGIE_TILES,
    P_FIN_L,
    P_FIN_S,
    P_FLAT_GOLD,
    P_HAND_LIMIT,
    P_N_TILES,
    P_PHIN_CUBES,
    P_R_ANGIE_ROOFS,
    P_R_FINAL_OUTLAWS,
    P_R_FLAT_TIMING,
    P_R_LIMIT_ALL_DRAWS,
    P_R_PHIN_COUNT,
    P_R_ROOF_EMPTY,
    P_R_SALOON_SCORES,
    P_R_STEAL_LIMIT,
    P_ROOF_PTS,
    TF_ABOVE,
    TF_BONUS,
    TF_BONUS_N,
    TF_CITIZEN,
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
    has_open_space,
    income_of,
    lot_rep,
    restricted,
    tparam,
)
from .state import (
    MAX_PLAYERS,
    N_SC,
    SC_CHARS,
    SC_CUBES,
    SC_FINISHED,
    SC_GOLD,
    SC_HAND,
    SC_ROOFS,
    SC_TILES,
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
    MAX_SEC_HAND,
    MAX_TASKS,
    N_CLAIM_IDS,
    NFLOORS,
    PH_PLAY,
    PHINEUS,
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
    VP_CLAIMS,
    VP_LOTS,
    VP_ROOFS,
    VP_TILES,
)


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
def touch(s, seat, what):
    """Seat's SC_* `what` (something a claim requirement reads) changed: its cached claim checks that read it are
    re-checked at its next stake list (actions.gen_stakes)."""
    s.stake_dirty[seat] |= 1 << what


@nb.njit(cache=True, _nrt=False)
def forget_stakes(s, seat):
    """Drop the seat's cached claim checks (setup, or a state written by hand): its next stake list checks every
    claim."""
    s.stake_known[seat] = 0
    s.stake_met[seat] = 0
    s.stake_dirty[seat] = 0
    for c in range(N_SC):
        s.stake_reads[seat, c] = 0


@nb.njit(cache=True, _nrt=False, inline="always")
def gain(s, seat, x):
    s.gold[seat] += x
    s.gold_in += x
    touch(s, seat, SC_GOLD)


@nb.njit(cache=True, _nrt=False, inline="always")
def pay(s, seat, x):
    s.gold[seat] -= x
    s.gold_out += x
    touch(s, seat, SC_GOLD)


@nb.njit(cache=True, _nrt=False, inline="always")
def push_task(s, kind, a, b):
    """Put a pending effect on the task stack (resolved top first by settle and the task's decisions)."""
    if s.n_tasks < MAX_TASKS:
        s.task[s.n_tasks, 0] = kind
        s.task[s.n_tasks, 1] = a
        s.task[s.n_tasks, 2] = b
        s.n_tasks += 1


# ---------------------------------------------------------------- deck
@one_copy(_nrt=False)
def draw_one(s, seat):
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
    touch(s, seat, SC_HAND)
    return c


@nb.njit(cache=True, _nrt=False, inline="always")
def to_discard(s, c):
    s.disc_n = put(s.disc, s.disc_n, c)


@nb.njit(cache=True, _nrt=False, inline="always")
def remove_card(s, seat, c):
    s.hand[seat, c] -= 1
    s.hand_n[seat] -= 1
    touch(s, seat, SC_HAND)


# ---------------------------------------------------------------- characters
@nb.njit(cache=True, _nrt=False, inline="always")
def _chars_touched(s, c, dest):
    """Character c goes from its saloon (if any) to seat dest's: both seats' characters change."""
    o = s.char_owner[c]
    if 0 <= o < MAX_PLAYERS:
        touch(s, o, SC_CHARS)
    if 0 <= dest < MAX_PLAYERS:
        touch(s, dest, SC_CHARS)


@one_copy(_nrt=False)
def _give_char(s, c, seat):
    _chars_touched(s, c, seat)
    s.char_owner[c] = seat
    s.char_turn[c] = s.turn_total
    log_event(s, E_CHAR_IN, seat, c, 0, 0)


@nb.njit(cache=True, _nrt=False, inline="always")
def check_outlaws(s, p, at_end):
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
def move_char(s, c, dest, how):
    log_event(s, E_CHAR_MOVE, c, s.char_owner[c], dest, how)
    _chars_touched(s, c, dest)
    s.char_owner[c] = dest
    s.char_turn[c] = s.turn_total


@nb.njit(cache=True, _nrt=False)
def tile_tables(s, p):
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
def build_tile(s, p, seat, t, f, fp, ignore_lot, discount):
    cost = build_cost(p, t, f, fp, ignore_lot, discount)
    pay(s, seat, cost)
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
    touch(s, seat, SC_TILES)
    s.last_prog = s.turn_total
    log_event(s, E_BUILD, seat, t, f * WHERE_FLOOR + fp, cost)
    r = lot_rep(p, f, fp)
    if r != 0:
        s.vp[seat, VP_LOTS] += r
        log_event(s, E_LOT_REP, seat, r, fp, 0)
    _item(s, seat, IT_TILE + t)


# ---------------------------------------------------------------- cubes and finishing
@one_copy(_nrt=False)
def place_cube(s, p, seat, i, src):
    s.tile_cubes[seat, i] += 1
    s.cubes_board[seat] += 1
    touch(s, seat, SC_CUBES)
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
    touch(s, seat, SC_FINISHED)
    large = tparam(p, t, TF_LARGE) == 1
    pts = np.int32(p[P_FIN_L]) if large else np.int32(p[P_FIN_S])
    if t == 0 and p[P_R_SALOON_SCORES] == 0:
        pts = 0
    s.vp[seat, VP_TILES] += pts
    log_event(s, E_FINISH, seat, t, s.tile_floor[seat, i], pts)
    # order of the rulebook: score, bonus, roof.  The stack resolves the top first, so the roof goes below.
    if s.tile_floor[seat, i] == NFLOORS - 1:
        push_task(s, TK_ROOF, 1 if large else 0, 0)
    b = np.int64(tparam(p, t, TF_BONUS))
    bn = np.int64(tparam(p, t, TF_BONUS_N))
    if b == B_CUBES:
        push_task(s, TK_CUBES, bn, 1)
    elif b == B_DRAW:
        push_task(s, TK_DRAW, bn, 0)
    elif b == B_PLAY:
        push_task(s, TK_PLAYOPT, 0, 0)
    elif b == B_ACTION:
        push_task(s, TK_ACTION, 0, 0)
    elif b == B_CITIZEN:
        push_task(s, TK_CITIZEN, np.int64(tparam(p, t, TF_CITIZEN)), 0)
    elif b == B_GOLD:
        push_task(s, TK_GOLD, bn, 0)


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
def play_card(s, p, seat, c, how):
    """Resolve Tycoon card c (already out of the hand); it goes to the discard pile once resolved."""
    s.cards_played[seat] += 1
    log_event(s, E_PLAY, seat, c, how, 0)
    _item(s, seat, IT_CARD + c)
    push_task(s, TK_TODISC, c, 0)
    g = np.int64(cparam(p, c, CF_GOLD))
    if g > 0:
        gain(s, seat, g)
        log_event(s, E_GOLD, seat, g, s.gold[seat], 0)
    if cparam(p, c, CF_GOLD_INCOME) == 1:
        g = income_of(s, seat)
        gain(s, seat, g)
        log_event(s, E_GOLD, seat, g, s.gold[seat], 1)
    g = np.int64(cparam(p, c, CF_STEAL_GOLD))
    if g > 0:
        v = _richest_opponent(s, seat, False)
        x = min(g, s.gold[v])
        s.gold[v] -= x
        s.gold[seat] += x
        touch(s, v, SC_GOLD)
        touch(s, seat, SC_GOLD)
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
                    remove_card(s, v, cc)
                    s.hand[seat, cc] += 1
                    s.hand_n[seat] += 1
                    touch(s, seat, SC_HAND)
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
        push_task(s, TK_MOVE, 0, 0)
    if cparam(p, c, CF_BUILD) == 1:
        push_task(s, TK_CBUILD, np.int64(cparam(p, c, CF_IGNORE_LOT)), np.int64(cparam(p, c, CF_DISCOUNT)))
    g = np.int64(cparam(p, c, CF_CHEAP_N))
    if g > 0:
        push_task(s, TK_CHEAP, g, np.int64(cparam(p, c, CF_CHEAP_PRICE)))
    g = np.int64(cparam(p, c, CF_CUBES))
    if g > 0:
        push_task(s, TK_CUBES, g, 2)
    g = np.int64(cparam(p, c, CF_DRAW))
    if g > 0:
        push_task(s, TK_DRAW, g, 0)


@nb.njit(cache=True, _nrt=False)
def stake_claim(s, p, seat, gid):
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
                s.stake_kept[seat] &= ~(np.int64(1) << j)
    else:
        for j in range(s.n_open_up):
            if s.open_ids[j] == gid:
                s.stake_open &= ~(np.int64(1) << j)
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
def settle(s, p):
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
                draw_one(s, seat)
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
                touch(s, seat, SC_ROOFS)
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
            gain(s, seat, a)
            log_event(s, E_GOLD, seat, a, s.gold[seat], 2)
        elif kind == TK_CARD:
            s.n_tasks -= 1
            play_card(s, p, seat, a, b)
        elif kind == TK_TODISC:
            s.n_tasks -= 1
            to_discard(s, a)
        else:
            s.n_tasks -= 1
        check_outlaws(s, p, False)
    check_outlaws(s, p, False)
