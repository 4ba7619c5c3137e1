"""Cold Comfort's rules (draft 1.8), jitted: setup, the turn (Collect, actions, end of turn), the scoring round
(grow the city, roll the pool, land the dice, score the neighbourhoods), fire, and the end of the game.

The core seeds s.rng, calls setup, then loops current_player -> legal_actions -> the seat's strategy ->
apply_action until is_over, and calls write_outcome.  The state record is reused, so setup resets every field.
"""

import numba as nb
import numpy as np

from sim.events import log_event
from sim.kernel import one_copy
from sim.rng import rand_below, shuffle

from .actions import (
    A_BUILD,
    A_BUILD_CAMPER,
    A_END,
    A_FIRE,
    A_HOST,
    A_MINE,
    A_RESIZE,
    A_STOP,
    any_place,
    camper_of,
    fire_targets,
    kind_of,
    pos_of,
    rot_of,
    size_of,
    tie_group,
    tile_of,
)
from .blocks import changed, kept_hood_control
from .city import cell_at, cell_pos, clear_city, highest_lot, put_tile
from .outcome import ITEM_HOOD, ITEM_HOTEL
from .params import (
    COST_BUILD,
    COST_CAMPER,
    COST_DOWN,
    COST_UP,
    DICE_BASE,
    DICE_PER_PLAYER,
    DRAW,
    FIRE_INS,
    FIRE_OCC,
    GOLD_PER_VP,
    GOLD_START,
    GOLD_STEP,
    GROW_BASE,
    GROW_RULE,
    HOTEL_FIRST,
    HOTELS,
    ITEM_REMOVE,
    N_DECK,
    RESIZED_NEW,
    ROUNDS,
    SETUP_DICE,
    SETUP_MAX,
    SETUP_MIN_POOL,
    TIE_RULE,
    TILE_STREETS,
    TURN_CAP,
)
from .scoring import ensure_hoods
from .state import (
    MARGIN,
    MAX_DICE,
    MAX_ITEMS,
    MP,
    OVER_ROUNDS,
    OVER_TURN_CAP,
    OX,
    OY,
    PH_FIRE,
    PH_LAND,
    PH_MAIN,
    PH_OVER,
    PH_PLACE,
    SIZES,
    G,
)

# event kinds logged for `sim replay` (row = kind, a, b, c, d; positions are grid pos); text.py words them
(
    EV_SETUP_TILE,
    EV_SETUP_DIE,
    EV_TURN,
    EV_COLLECT,
    EV_MINE,
    EV_HOST,
    EV_BUILD,
    EV_RESIZE,
    EV_FIRE,
    EV_BURN,
    EV_FIRE_OUT,
    EV_SCORING,
    EV_GROW,
    EV_LAND_TILE,
    EV_LAND_HOTEL,
    EV_LAND_LOT,
    EV_RETURN,
    EV_HOOD,
    EV_HOOD_WIN,
    EV_END,
    EV_NO_PLACE,
    EV_MAP,
    EV_SETUP_DONE,
    EV_CAP,
    EV_GUEST_LEAVES,
    EV_DRAW,
    EV_ROLL,
) = range(1, 28)

# why a fire went out (the EV_FIRE_OUT event's first value)
FIRE_OUT_OCCUPIED, FIRE_OUT_PUBLIC, FIRE_OUT_NOTHING_NEXT, FIRE_OUT_LET_DIE = range(4)
EVENT_COUNT_BASE = 100  # EV_ROLL packs three per-value dice counts as c1 + c2 * 100 + c3 * 100^2 (a pool < 100)
EVENT_GUEST_BASE = 1000  # EV_BUILD packs the cost and the guest's pips as cost + guest * 1000 (a cost < 1000)

# setup: anchors (world, south-west corner), footprint shape (0 vertical / 1 horizontal), side the long street faces
SETUP_AX = np.array([-2, 1, -1, -1], np.int64)
SETUP_AY = np.array([0, 0, 4, -3], np.int64)
SETUP_ROT_STREET = np.array([2, 0, 3, 1], np.int64)  # rotation turning the canonical W street to face Main Street
SETUP_ROT_FREE = np.array([0, 0, 1, 1], np.int64)  # base rotation (then +0 or +2 at random) for street-less tiles


@one_copy()
def add_item(s, seat, item, when):
    i = s.n_items
    if i < MAX_ITEMS:
        s.items[i, 0] = seat
        s.items[i, 1] = item
        s.items[i, 2] = when
        s.n_items = i + 1
    else:
        s.items_dropped += 1


@nb.njit(cache=True)
def trigger(s, p):
    return np.int64(s.n) + np.int64(p[GROW_BASE])


@nb.njit(cache=True)
def scoring_due(s, p):
    t = trigger(s, p)
    if p[GROW_RULE] == 0:
        return s.pool >= t
    return s.pool == t


@nb.njit(cache=True)
def fill_from_pool(s, p, t, ndice):
    """Roll ndice dice from the pool for tile t; each lot takes one die of its value; the rest go back."""
    nd = min(ndice, np.int64(s.pool))
    s.pool -= nd
    for _ in range(nd):
        v = rand_below(s.rng, 0, 6) + 1
        placed = False
        for k in range(6):
            c = t * 6 + k
            if s.cval[c] == v and s.die[c] == 0 and s.hsize[c] == 0:
                s.die[c] = v
                changed(s, p, c)
                placed = True
                log_event(s, EV_SETUP_DIE, cell_pos(s, c), v, 0, 0)
                break
        if not placed:
            s.pool += 1


@nb.njit(cache=True)
def setup(s, p, n_players):
    n = np.int64(n_players)
    s.n = n
    s.cur = 0
    s.phase = PH_MAIN
    s.decider = 0
    s.over = 0
    s.turn = 0
    s.rounds = 0
    s.acted = 0
    s.built_act = 0
    s.fired = 0
    s.n_items = 0
    s.items_dropped = 0
    s.gang_wins = 0
    s.unclaimed = 0
    s.clipped = 0
    s.no_place = 0
    s.first_round_turn = -1
    s.fire_cell = -1
    s.hood_nt = -1
    s.land_v = 0
    s.land_stage = 0
    for v in range(7):
        s.land_left[v] = 0
    total = min(np.int64(p[DICE_BASE]) + np.int64(p[DICE_PER_PLAYER]) * n, MAX_DICE)
    s.total_dice = total
    s.pool = total
    for i in range(MP):
        s.gold[i] = 0
        s.vp[i] = 0
        s.vp_gold[i] = 0
        s.st_collect[i] = 0
        s.st_mine[i] = 0
        s.st_ins[i] = 0
        s.st_fires[i] = 0
        s.st_won[i] = 0
        s.st_lost[i] = 0
        s.st_hosted[i] = 0
        s.st_mines[i] = 0
        s.start_gold[i] = 0
        for v in range(7):
            s.supply[i, v] = 0
            s.st_built[i, v] = 0
    removed = np.int64(p[ITEM_REMOVE])  # the hotel size taken out of the game (sim effect); 0: none
    for i in range(n):
        g = np.int64(p[GOLD_START]) + np.int64(p[GOLD_STEP]) * i
        g = max(g, 0)
        s.gold[i] = g
        s.start_gold[i] = g
        for v in range(1, SIZES):
            s.supply[i, v] = 0 if v == removed else np.int64(p[HOTELS + v - 1])
    clear_city(s)
    for i in range(N_DECK):
        s.deck[i] = i
    shuffle(s.rng, 0, s.deck, N_DECK)
    s.deck_pos = 0
    nset = 0
    for j in range(4):
        if j >= np.int64(p[SETUP_MAX]):
            break
        if j >= 2 and s.pool < np.int64(p[SETUP_MIN_POOL]):
            break
        tid = np.int64(s.deck[s.deck_pos])
        s.deck_pos += 1
        if TILE_STREETS[tid] & 8:
            rot = SETUP_ROT_STREET[j]
        else:
            rot = SETUP_ROT_FREE[j] + 2 * rand_below(s.rng, 0, 2)
        ax = OX + SETUP_AX[j]
        ay = OY + SETUP_AY[j]
        t = put_tile(s, tid, rot, ax, ay)
        log_event(s, EV_SETUP_TILE, tid, ay * G + ax, rot, j)
        fill_from_pool(s, p, t, np.int64(p[SETUP_DICE]))
        nset += 1
    s.setup_tiles = nset
    log_event(s, EV_SETUP_DONE, nset, s.pool, 0, 0)
    log_event(s, EV_MAP, 0, 0, 0, 0)
    start_turn(s, p)


@nb.njit(cache=True)
def start_turn(s, p):
    s.acted = 0
    s.built_act = 0
    s.fired = 0
    s.phase = PH_MAIN
    s.decider = s.cur
    cur = np.int64(s.cur)
    log_event(s, EV_TURN, cur, s.turn, s.gold[cur], s.rounds)
    # Step 1: Collect
    for c in range(s.ncell):
        if s.owner[c] == cur and s.hsize[c] > 0 and s.die[c] > 0:
            v = np.int64(s.die[c])
            s.gold[cur] += v
            s.st_collect[cur] += v
            s.die[c] = 0
            changed(s, p, c)
            s.pool += 1
            log_event(s, EV_COLLECT, cur, cell_pos(s, c), v, 0)


@nb.njit(cache=True)
def next_turn(s, p):
    s.cur = (s.cur + 1) % s.n
    s.turn += 1
    if s.turn >= np.int64(p[TURN_CAP]):
        log_event(s, EV_CAP, s.turn, 0, 0, 0)
        finish(s, p, OVER_TURN_CAP)
        return
    start_turn(s, p)


@nb.njit(cache=True)
def end_turn(s, p):
    """Step 3: a scoring round if the pool is large enough, then the next player's turn."""
    if scoring_due(s, p):
        log_event(s, EV_SCORING, s.rounds + 1, s.pool, s.cur, 0)
        if s.first_round_turn < 0:
            s.first_round_turn = s.turn
        # draw the tile(s) to grow
        nd = 2 if p[DRAW] == 1 else 1
        s.ndraw = 0
        for _ in range(nd):
            if s.deck_pos < N_DECK:
                s.draw[s.ndraw] = s.deck[s.deck_pos]
                s.deck_pos += 1
                log_event(s, EV_DRAW, s.cur, s.draw[s.ndraw], 0, 0)
                s.ndraw += 1
        s.phase = PH_PLACE
        s.decider = s.cur
        if s.ndraw == 0 or not any_place(s, p):
            s.no_place += 1
            log_event(s, EV_NO_PLACE, s.cur, 0, 0, 0)
            score_round(s, p)
        return
    next_turn(s, p)


@nb.njit(cache=True)
def do_place(s, p, tid, rot, ax, ay):
    # the other drawn tile (draw-2 variant) goes to the bottom of the deck: it is never drawn again in 9 rounds
    t = put_tile(s, tid, rot, ax, ay)
    log_event(s, EV_GROW, tid, ay * G + ax, rot, s.cur)
    if (
        np.int64(s.minx) - 4 < MARGIN
        or np.int64(s.miny) - 4 < MARGIN
        or np.int64(s.maxx) + 4 > G - 1 - MARGIN
        or np.int64(s.maxy) + 4 > G - 1 - MARGIN
    ):
        s.clipped += 1
    # Roll: the whole pool
    counts = np.zeros(7, np.int64)
    nroll = np.int64(s.pool)
    for _ in range(nroll):
        counts[rand_below(s.rng, 0, 6) + 1] += 1
    s.pool = 0
    base = EVENT_COUNT_BASE
    log_event(
        s,
        EV_ROLL,
        nroll,
        counts[1] + base * (counts[2] + base * counts[3]),
        counts[4] + base * (counts[5] + base * counts[6]),
        0,
    )
    for k in range(6):
        c = t * 6 + k
        v = np.int64(s.cval[c])
        if v > 0 and counts[v] > 0:
            counts[v] -= 1
            s.die[c] = v
            changed(s, p, c)
            log_event(s, EV_LAND_TILE, cell_pos(s, c), v, 0, 0)
    hc = highest_lot(s, t)
    s.org_x = s.cx[hc]
    s.org_y = s.cy[hc]
    for v in range(7):
        s.land_left[v] = counts[v]
    s.land_v = 1
    s.land_stage = 0
    continue_landing(s, p)


@one_copy()
def land_die(s, p, c):
    v = np.int64(s.land_v)
    s.die[c] = v
    changed(s, p, c)
    s.land_left[v] -= 1
    if s.hsize[c] > 0:
        log_event(s, EV_LAND_HOTEL, cell_pos(s, c), v, s.owner[c], 0)
    else:
        log_event(s, EV_LAND_LOT, cell_pos(s, c), v, 0, 0)


@nb.njit(cache=True)
def continue_landing(s, p):
    """Land the extra dice, value by value, nearest first; stop at a tie that the next player must break."""
    grp = s.choice_cells
    nstage = 1 if p[HOTEL_FIRST] == 1 else 2
    while s.land_v <= 6:
        v = np.int64(s.land_v)
        if s.land_left[v] <= 0 or s.land_stage >= nstage:
            if s.land_left[v] > 0:
                s.pool += s.land_left[v]
                log_event(s, EV_RETURN, v, s.land_left[v], 0, 0)
                s.land_left[v] = 0
            s.land_v += 1
            s.land_stage = 0
            continue
        n = tie_group(s, p, grp)
        if n == 0:
            s.land_stage += 1
            continue
        left = np.int64(s.land_left[v])
        if n <= left:
            for i in range(n):
                land_die(s, p, grp[i])
            continue
        if p[TIE_RULE] == 1:
            land_die(s, p, grp[rand_below(s.rng, 0, n)])
            continue
        s.phase = PH_LAND
        s.decider = (s.cur + 1) % s.n
        return
    score_round(s, p)


@nb.njit(cache=True)
def score_round(s, p):
    ensure_hoods(s, p)  # neighbourhood per tile and value per neighbourhood (cached per map)
    hood = s.t_hood
    nh = np.int64(s.n_hood)
    best_p = s.ctl_best_p
    best_g = s.ctl_best_g
    winners = s.ctl_winners
    kept_hood_control(s, p, hood, nh, best_p, best_g, winners)
    rnd = np.int64(s.rounds) + 1
    for h in range(nh):
        val = np.int64(s.h_val[h])
        if best_g[h] > best_p[h]:
            s.gang_wins += 1
            log_event(s, EV_HOOD, h, val, -1, best_g[h])
            continue
        if best_p[h] == 0:
            s.unclaimed += 1
            log_event(s, EV_HOOD, h, val, -2, 0)
            continue
        k = 0
        for i in range(s.n):
            k += winners[h, i]
        share = val // k
        log_event(s, EV_HOOD, h, val, k, best_p[h])
        for i in range(s.n):
            if winners[h, i]:
                s.vp[i] += share
                s.st_won[i] += 1
                add_item(s, i, ITEM_HOOD, rnd)
                log_event(s, EV_HOOD_WIN, h, i, share, s.vp[i])
    s.rounds += 1
    log_event(s, EV_MAP, s.rounds, 0, 0, 0)
    if s.rounds >= np.int64(p[ROUNDS]):
        finish(s, p, OVER_ROUNDS)
        return
    next_turn(s, p)


@one_copy()
def finish(s, p, reason):
    s.over = reason
    s.phase = PH_OVER
    per = np.int64(p[GOLD_PER_VP])
    for i in range(s.n):
        s.vp_gold[i] = s.gold[i] // per
        log_event(s, EV_END, i, s.vp[i], s.vp_gold[i], s.gold[i])


@nb.njit(cache=True)
def burn(s, p, c):
    """Fire enters hotel c.  Returns True if the fire goes on (an empty hotel burned)."""
    o = np.int64(s.owner[c])
    size = np.int64(s.hsize[c])
    guest = np.int64(s.die[c])
    if guest > 0 and p[FIRE_OCC] == 1:
        s.die[c] = 0
        changed(s, p, c)
        s.pool += 1
        log_event(s, EV_GUEST_LEAVES, o, cell_pos(s, c), guest, 0)
        return False
    ins = size * np.int64(p[FIRE_INS])
    s.gold[o] += ins
    s.st_ins[o] += ins
    s.st_lost[o] += 1
    s.supply[o, size] += 1
    s.owner[c] = -1
    s.hsize[c] = 0
    s.hbuilt[c] = -1
    if guest > 0:
        s.die[c] = 0
        s.pool += 1
    changed(s, p, c)
    log_event(s, EV_BURN, o, cell_pos(s, c), size, guest)
    return guest == 0


@nb.njit(cache=True)
def fire_goes_on(s, p, c, owner):
    """After the empty hotel c burned: ask its former owner to pass the fire, or end it."""
    s.fire_cell = c
    n = fire_targets(s, p, s.choice_cells)
    if n == 0:
        log_event(s, EV_FIRE_OUT, FIRE_OUT_NOTHING_NEXT, cell_pos(s, c), 0, 0)
        s.phase = PH_MAIN
        s.decider = s.cur
        return
    s.phase = PH_FIRE
    s.decider = owner


@nb.njit(cache=True)
def current_player(s):
    return s.decider


@nb.njit(cache=True)
def is_over(s):
    return s.over != 0


@nb.njit(cache=True)
def apply_action(s, p, a):
    k = kind_of(a)
    pos = pos_of(a)
    cur = np.int64(s.cur)
    if s.phase == PH_MAIN:
        if k == A_END:
            end_turn(s, p)
        elif k == A_MINE:
            c = cell_at(s, pos)
            v = np.int64(s.die[c])
            roll = rand_below(s.rng, 0, 6) + 1
            s.die[c] = 0
            changed(s, p, c)
            s.pool += 1
            s.gold[cur] += roll
            s.st_mine[cur] += roll
            s.st_mines[cur] += 1
            s.acted = 1
            log_event(s, EV_MINE, cur, pos, v, roll)
            end_turn(s, p)  # Mine precludes every other action
        elif k == A_HOST:
            camper = camper_of(a)
            h = cell_at(s, pos)
            c = cell_at(s, camper)
            v = np.int64(s.die[c])
            s.die[c] = 0
            changed(s, p, c)
            s.die[h] = v
            changed(s, p, h)
            s.acted = 1
            s.st_hosted[cur] += 1
            log_event(s, EV_HOST, cur, camper, pos, v)
        elif k == A_BUILD or k == A_BUILD_CAMPER:
            v = size_of(a)
            c = cell_at(s, pos)
            cost = v * np.int64(p[COST_BUILD] if k == A_BUILD else p[COST_CAMPER])
            s.gold[cur] -= cost
            s.supply[cur, v] -= 1
            s.owner[c] = cur
            s.hsize[c] = v
            changed(s, p, c)
            s.hbuilt[c] = s.turn
            s.acted = 1
            s.built_act = 1
            s.st_built[cur, v] += 1
            add_item(s, cur, ITEM_HOTEL + v - 1, s.rounds + 1)
            log_event(s, EV_BUILD, cur, pos, v, cost + EVENT_GUEST_BASE * np.int64(s.die[c]))
        elif k == A_RESIZE:
            ns = size_of(a)
            c = cell_at(s, pos)
            hs = np.int64(s.hsize[c])
            cost = (ns - hs) * np.int64(p[COST_UP]) if ns > hs else (hs - ns) * np.int64(p[COST_DOWN])
            s.gold[cur] -= cost
            s.supply[cur, hs] += 1
            s.supply[cur, ns] -= 1
            s.hsize[c] = ns
            changed(s, p, c)
            if p[RESIZED_NEW] == 1:
                s.hbuilt[c] = s.turn
            s.acted = 1
            s.built_act = 1
            log_event(s, EV_RESIZE, cur, pos, hs, ns)
        elif k == A_FIRE:
            c = cell_at(s, pos)
            s.fired = 1
            s.acted = 1
            s.st_fires[cur] += 1
            log_event(s, EV_FIRE, cur, pos, s.hsize[c], 0)
            o = np.int64(s.owner[c])
            if burn(s, p, c):
                fire_goes_on(s, p, c, o)
    elif s.phase == PH_FIRE:
        if k == A_STOP:
            log_event(s, EV_FIRE_OUT, FIRE_OUT_LET_DIE, cell_pos(s, s.fire_cell), 0, 0)
            s.phase = PH_MAIN
            s.decider = s.cur
        else:
            c = cell_at(s, pos)
            if s.hsize[c] == 0:
                log_event(s, EV_FIRE_OUT, FIRE_OUT_PUBLIC, pos, 0, 0)
                s.phase = PH_MAIN
                s.decider = s.cur
            else:
                o = np.int64(s.owner[c])
                if burn(s, p, c):
                    fire_goes_on(s, p, c, o)
                else:
                    log_event(s, EV_FIRE_OUT, FIRE_OUT_OCCUPIED, pos, 0, 0)
                    s.phase = PH_MAIN
                    s.decider = s.cur
    elif s.phase == PH_PLACE:
        do_place(s, p, tile_of(a), rot_of(a), pos % G, pos // G)
    elif s.phase == PH_LAND:
        c = cell_at(s, pos)
        land_die(s, p, c)
        s.phase = PH_MAIN
        continue_landing(s, p)
