"""Saloon Tycoon (Second Edition) rules, jitted: setup, the turn, what an action does, the end.  See RULES.md for
every rule and reading.

Turn = Income (automatic), then decisions: free actions (buy a cube onto a tile, stake a claim), Tycoon actions
(earn, draw, play, build, bribe) while actions remain, and End turn.  Effects that need a decision (placing bonus
cubes, hand-limit discards, optional bonus plays, the "take an action" bonus, card builds, character moves) are
tasks on a small stack; automatic ones (roofs, citizens, draws without discards, card resolution) are settled at
once (effects.py holds what each action and effect does).  All component numbers are read from the parameter vector p
(see params.py).
"""

import numba as nb
import numpy as np

from sim.events import log_event
from sim.kernel import one_copy
from sim.rng import shuffle

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
from .effects import (
    build_tile,
    check_outlaws,
    draw_one,
    forget_stakes,
    gain,
    move_char,
    pay,
    place_cube,
    play_card,
    push_task,
    remove_card,
    settle,
    stake_claim,
    tile_tables,
    to_discard,
)
from .events import (
    E_DISCARD,
    E_EARN,
    E_END_TRIGGER,
    E_GAME_END,
    E_INCOME,
    E_KEEP,
    E_SKIP,
    E_TURN,
)
from .params import (
    CF_COPIES,
    MAX_CARD_TYPES,
    MAX_DECK,
    MAX_OPEN,
    MAX_SECRET,
    MAX_TILE_TYPES,
    N_CHARS,
    P_BRIBE,
    P_CUBES_PER_PLAYER,
    P_DRAW,
    P_EARN,
    P_FLAT_MALUS,
    P_MIN_INCOME,
    P_N_CARDS,
    P_N_OPEN,
    P_N_SECRET,
    P_N_TILES,
    P_OPEN_EXTRA,
    P_R_ANGIE_ACTION_BONUS,
    P_R_CUBE_BUY,
    P_R_FLAT_TIMING,
    P_ROOFS_L,
    P_ROOFS_S,
    P_SECRET_DEALT,
    P_SECRET_KEPT,
    P_STALL_ROUNDS,
    P_START_GOLD,
    P_START_HAND,
    P_TURN_CAP,
    TF_COPIES,
)
from .queries import (
    cparam,
    end_scores,
    income_of,
    purchase_price,
    total_vp,
    tparam,
)
from .state import (
    ANGIE,
    FLATFOOT,
    MAX_PLAYERS,
    MAX_SEC_HAND,
    MAX_TILES,
    N_CLAIM_IDS,
    N_VP,
    NFLOORS,
    NPOS,
    PH_KEEP,
    PH_OVER,
    PH_PLAY,
    ROOF_LARGE,
    ROOF_SMALL,
    SEC_DEALT,
    SEC_DROPPED,
    SEC_KEPT,
    TK_ACTION,
    TK_CARD,
    TK_DISCARD1,
    TK_DRAW,
    VP_CITIZENS,
    VP_OUTLAWS,
    VP_UNFINISHED,
)


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
        forget_stakes(s, i)
        s.stake_kept[i] = 0
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
    tile_tables(s, p)
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
            draw_one(s, i)
    # Open claims: players + 2 face up
    no = np.int64(p[P_N_OPEN])
    for j in range(MAX_OPEN):
        s.open_ids[j] = j
    shuffle(s.rng, 0, s.open_ids, no)
    s.n_open_up = min(no, n + np.int64(p[P_OPEN_EXTRA]))
    s.stake_open = (np.int64(1) << s.n_open_up) - 1
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
                s.stake_kept[i] |= np.int64(1) << j
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
    gain(s, seat, inc)
    log_event(s, E_INCOME, seat, inc, s.gold[seat], 0)
    check_outlaws(s, p, False)


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
                    s.stake_kept[seat] |= np.int64(1) << j
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
        gain(s, seat, g)
        log_event(s, E_EARN, seat, g, s.gold[seat], 0)
    elif kind == DRAW:
        _use_action(s, kind)
        push_task(s, TK_DRAW, np.int64(p[P_DRAW]), 1)
    elif kind == PLAY:
        via_bonus = _use_action(s, kind)
        c = card_of(a)
        remove_card(s, seat, c)
        angie = s.char_owner[ANGIE] == seat and (not via_bonus or p[P_R_ANGIE_ACTION_BONUS] == 1)
        if angie:
            push_task(s, TK_CARD, c, 0)
            push_task(s, TK_DISCARD1, 0, 0)
        else:
            play_card(s, p, seat, c, 0)
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
        build_tile(s, p, seat, tile_of(a), floor_of(a), footprint_of(a), ign, disc)
    elif kind == BRIBE:
        _use_action(s, kind)
        pay(s, seat, np.int64(p[P_BRIBE]))
        move_char(s, character_of(a), seat_of(a), 0)
    elif kind == MOVE:
        s.n_tasks -= 1
        move_char(s, character_of(a), seat_of(a), 1)
    elif kind == BUY:
        price = purchase_price(s, p, seat)
        if s.buy_run == 0 and p[P_R_CUBE_BUY] == 0:
            s.buy_run = 1  # consecutive buys are one purchase, paid at the price it started with
            s.buy_price = price
        pay(s, seat, price)
        place_cube(s, p, seat, own_tile_of(a), 0)
    elif kind == PLACE:
        top = s.n_tasks - 1
        src = s.task[top, 2]
        s.task[top, 1] -= 1
        if s.task[top, 1] <= 0:
            s.n_tasks -= 1
        place_cube(s, p, seat, own_tile_of(a), src)
    elif kind == CHEAP_CUBE:
        top = s.n_tasks - 1
        price = s.task[top, 2]
        s.task[top, 1] -= 1
        if s.task[top, 1] <= 0:
            s.n_tasks -= 1
        pay(s, seat, price)
        place_cube(s, p, seat, own_tile_of(a), 0)
    elif kind == DISCARD:
        c = card_of(a)
        remove_card(s, seat, c)
        to_discard(s, c)
        log_event(s, E_DISCARD, seat, c, 0, 0)
        if s.n_tasks > 0 and s.task[s.n_tasks - 1, 0] == TK_DISCARD1:
            s.n_tasks -= 1
    elif kind == BONUS_PLAY:
        s.n_tasks -= 1
        c = card_of(a)
        remove_card(s, seat, c)
        play_card(s, p, seat, c, 1)
    elif kind == SKIP:
        if s.n_tasks > 0:
            log_event(s, E_SKIP, seat, s.task[s.n_tasks - 1, 0], 0, 0)
            s.n_tasks -= 1
    elif kind == STAKE:
        stake_claim(s, p, seat, claim_of(a))
    settle(s, p)


@nb.njit(cache=True, _nrt=False)
def _end_turn(s, p):
    seat = s.cur
    if p[P_R_FLAT_TIMING] == 1:
        check_outlaws(s, p, True)
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
