"""Cold Comfort (James Ernest, rules draft 1.8) as jitted rules on a real grid.

Geometry (ASSUMED, note section 3): the city is a G x G grid of squares (x east, y north, world (0,0) at grid
(OX, OY)); a tile covers 2 x 3 squares in one of four rotations; Main Street is three street squares at world
(0,0..2).  `grid[y, x]` holds -1 (empty ground), -2 (street) or the index of a city cell (a square of a placed tile).
Cells are stored compactly: cell = tile_index * 6 + k, with its lot value (1..6; 0 = public-building square), its
die (0 none; a die on a lot without a hotel is a camper, in a hotel a guest), hotel owner/size and built turn.

Decisions (current_player may not be the active player):
  PH_MAIN   the active player: Mine, Host, one build-type action, Fire, or end the turn
  PH_FIRE   the owner of the hotel that just burned passes the fire to an adjacent building
  PH_PLACE  the active player places the grown tile (position and rotation)
  PH_LAND   the next player breaks a walking-distance tie for a rolled die
Actions are kind * KMUL + argument; positions are pos = y * G + x in grid coordinates.
"""
import numba as nb
import numpy as np

from sim.events import log_event
from sim.kernel import one_copy
from sim.rng import rand_below, shuffle

from .params import (BLOCK_RULE, CONNECT, COST_BUILD, COST_CAMPER, COST_DOWN, COST_UP, DICE_BASE, DICE_PER_PLAYER,
                     DISTANCE, DRAW, EMPTY_RULE, FIRE_INS, FIRE_OCC, FIRE_ON, FIRE_PASS, GOLD_PER_VP, GOLD_START,
                     GOLD_STEP, GROW_BASE, GROW_RULE, HOTEL_FIRST, HOTELS, INTO_NEW, N_DECK, PTS_PUBLIC, PTS_TILE,
                     RESIZE_RULE, RESIZED_NEW, ROUNDS, SETUP_DICE, SETUP_MAX, SETUP_MIN_POOL, TIE_BREAK, TIE_RULE,
                     TILE_STREETS, TILE_VALS, TURN_CAP)

MAX_PLAYERS = 6
MAX_ACTIONS = 4096
MAX_ITEMS = 240
MAX_STEPS = 200_000
MAX_EVENTS = 160

G = 64                  # grid side (cell_at and the strategies decode positions with shifts: keep it 64)
OX = 32                 # grid x of world x = 0
OY = 30                 # grid y of world y = 0
MARGIN = 2              # tile squares stay within [MARGIN, G-1-MARGIN]
TMAX = 24               # tiles on the map at most (4 setup + 9 grown; the deck has 24)
CMAX = TMAX * 6
MAX_DICE = 60

EMPTY = -1
STREET = -2

PH_MAIN, PH_FIRE, PH_PLACE, PH_LAND, PH_OVER = 0, 1, 2, 3, 4

KMUL = 100_000_000
A_END, A_MINE, A_HOST, A_BUILD, A_BUILD_CAMPER, A_RESIZE, A_FIRE, A_PASS, A_STOP, A_PLACE, A_LAND = range(11)

# event kinds (row = kind, a, b, c, d); positions are grid pos
(EV_SETUP_TILE, EV_SETUP_DIE, EV_TURN, EV_COLLECT, EV_MINE, EV_HOST, EV_BUILD, EV_RESIZE, EV_FIRE, EV_BURN,
 EV_FIRE_OUT, EV_SCORING, EV_GROW, EV_LAND_TILE, EV_LAND_HOTEL, EV_LAND_LOT, EV_RETURN, EV_HOOD, EV_HOOD_WIN,
 EV_END, EV_NO_PLACE, EV_MAP, EV_SETUP_DONE, EV_CAP, EV_GUEST_LEAVES, EV_DRAW, EV_ROLL) = range(1, 28)

# items
ITEM_HOTEL = 0          # item ids 0..5: hotel of size 1..6 built; turn column = scoring round in progress (1..9)
ITEM_HOOD = 6           # neighbourhood won (alone or shared); turn column = the scoring round (1..9)

# rotations: canonical square k = row*2 + col (row 0 north); local (u, v) from the south-west corner
ROT_W = np.array([2, 3, 2, 3], np.int64)
ROT_H = np.array([3, 2, 3, 2], np.int64)
OFF_U = np.zeros((4, 6), np.int64)
OFF_V = np.zeros((4, 6), np.int64)
for _k in range(6):
    _u, _v = _k % 2, 2 - _k // 2
    OFF_U[0, _k], OFF_V[0, _k] = _u, _v
    OFF_U[1, _k], OFF_V[1, _k] = _v, 1 - _u          # 90 deg clockwise: N->E, E->S, S->W, W->N
    OFF_U[2, _k], OFF_V[2, _k] = 1 - _u, 2 - _v
    OFF_U[3, _k], OFF_V[3, _k] = 2 - _v, _u          # 270 deg clockwise
DX4 = np.array([0, 1, 0, -1], np.int64)               # N, E, S, W
DY4 = np.array([1, 0, -1, 0], np.int64)

# setup: anchors (world, south-west corner), footprint shape (0 vertical / 1 horizontal), side the long street faces
SETUP_AX = np.array([-2, 1, -1, -1], np.int64)
SETUP_AY = np.array([0, 0, 4, -3], np.int64)
SETUP_ROT_STREET = np.array([2, 0, 3, 1], np.int64)   # rotation turning the canonical W street to face Main Street
SETUP_ROT_FREE = np.array([0, 0, 1, 1], np.int64)     # base rotation (then +0 or +2 at random) for street-less tiles

# lowest set bit of a 64-bit mask: DEBRUIJN_IDX[((low * DEBRUIJN) >> 58) & 63] for low = a power of two
DEBRUIJN = np.int64(0x03F79D71B4CB0A89)
DEBRUIJN_IDX = np.zeros(64, np.int64)
for _i in range(64):
    DEBRUIJN_IDX[(((1 << _i) * 0x03F79D71B4CB0A89) & 0xFFFFFFFFFFFFFFFF) >> 58] = _i

# printed street sides (bit 0 N, 1 E, 2 S, 3 W) of each deck tile in each rotation (= rot_streets())
ROT_STREETS = np.zeros((len(TILE_STREETS), 4), np.int64)
for _t in range(len(TILE_STREETS)):
    for _r in range(4):
        for _b in range(4):
            if TILE_STREETS[_t] & (1 << _b):
                ROT_STREETS[_t, _r] |= 1 << ((_b + _r) % 4)

MP = MAX_PLAYERS
STATE_DTYPE = np.dtype([
    ("rng", np.uint64, 2), ("ev", np.int32, (MAX_EVENTS, 5)), ("n_ev", np.int32), ("log_on", np.int8),
    ("n", np.int8), ("cur", np.int8), ("phase", np.int8), ("decider", np.int8), ("over", np.int8),
    ("turn", np.int32), ("rounds", np.int8), ("pool", np.int16), ("total_dice", np.int16),
    ("acted", np.int8), ("built_act", np.int8), ("fired", np.int8),
    ("gold", np.int32, MP), ("vp", np.int32, MP), ("vp_gold", np.int32, MP), ("supply", np.int8, (MP, 7)),
    ("st_collect", np.int32, MP), ("st_mine", np.int32, MP), ("st_ins", np.int32, MP),
    ("st_built", np.int16, (MP, 7)), ("st_fires", np.int16, MP), ("st_won", np.int16, MP),
    ("st_lost", np.int16, MP), ("st_hosted", np.int16, MP), ("st_mines", np.int16, MP), ("start_gold", np.int32, MP),
    ("grid", np.int8, (G, G)),
    ("free_row", np.int64, G),    # bit x of row y: grid square (x, y) is empty ground (set_square keeps it)
    ("reach_e", np.int64, G),     # bit x of row y: a tile square is next to (x, y), or two squares away in a line
    ("reach_c", np.int64, G),     # ... or diagonally next to it (grow.connect = also_corner); put_tile keeps both
    ("ncell", np.int16), ("cx", np.int8, CMAX), ("cy", np.int8, CMAX), ("cval", np.int8, CMAX),
    ("die", np.int8, CMAX), ("owner", np.int8, CMAX), ("hsize", np.int8, CMAX), ("hbuilt", np.int32, CMAX),
    ("ntile", np.int8), ("t_id", np.int8, TMAX), ("t_x", np.int8, TMAX), ("t_y", np.int8, TMAX),
    ("t_rot", np.int8, TMAX), ("setup_tiles", np.int8),
    ("minx", np.int8), ("maxx", np.int8), ("miny", np.int8), ("maxy", np.int8),
    ("deck", np.int8, N_DECK), ("deck_pos", np.int8), ("draw", np.int8, 2), ("ndraw", np.int8),
    ("land_v", np.int8), ("land_stage", np.int8), ("land_left", np.int8, 7), ("org_x", np.int8), ("org_y", np.int8),
    ("fire_cell", np.int16), ("t_hood", np.int8, TMAX), ("h_val", np.int16, TMAX), ("hood_nt", np.int8),
    ("n_hood", np.int8),
    ("gang_wins", np.int16), ("unclaimed", np.int16), ("clipped", np.int16), ("no_place", np.int16),
    ("act_overflow", np.int16), ("first_round_turn", np.int32),
    ("items", np.int16, (MAX_ITEMS, 3)), ("n_items", np.int16), ("items_dropped", np.int16),
    ("scr_a", np.int16, CMAX), ("scr_b", np.int16, CMAX), ("scr_c", np.int16, CMAX),
    ("row_e", np.int64, G), ("row_r", np.int64, G),      # enum_places scratch: per-row bitmasks (x = bit)
    ("scr_d", np.int16, CMAX), ("scr_camp", np.int64, 7),  # legal_actions: campers; strategies: a camper of value v?
    ("scr_h", np.int16, CMAX), ("scr_l", np.int16, CMAX),  # legal_actions: own empty hotels; lots without hotel
    ("scr_str", np.int32, CMAX), ("scr_who", np.int8, CMAX),  # hood_control: per block strength, owner,
    ("scr_bh", np.int16, CMAX), ("scr_stk", np.int16, CMAX),  # neighbourhood; block_strengths: search stack
    ("scr_w", np.float64, 16),                              # strategies: the deciding seat's weights
])


# ---------------------------------------------------------------- small helpers
@nb.njit(cache=True, inline="always")
def enc(kind, arg):
    return kind * KMUL + arg


@nb.njit(cache=True, inline="always")
def kind_of(a):
    return a // KMUL


@nb.njit(cache=True, inline="always")
def arg_of(a):
    return a % KMUL


@nb.njit(cache=True, inline="always")
def cell_pos(s, c):
    return np.int64(s.cy[c]) * G + np.int64(s.cx[c])


@nb.njit(cache=True, inline="always")
def cell_at(s, pos):
    return np.int64(s.grid[pos >> 6, pos & 63])     # pos = y * G + x >= 0 with G = 64


@nb.njit(cache=True)
def neighbour(s, c, d):
    """The grid square next to cell c in direction d (DX4, DY4): a cell number, or negative (street, empty)."""
    return np.int64(s.grid[np.int64(s.cy[c]) + DY4[d], np.int64(s.cx[c]) + DX4[d]])


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


# ---------------------------------------------------------------- tiles on the grid
@nb.njit(cache=True, inline="always")
def rot_streets(mask, rot):
    out = 0
    for b in range(4):
        if mask & (1 << b):
            out |= 1 << ((b + rot) % 4)
    return out


@nb.njit(cache=True)
def reach_mask(s, p, reach):
    """reach[y, x] = 1 where a new tile square would connect: a tile square orthogonally adjacent, or two squares
    away in a straight line (one street between), or (grow.connect = also_corner) diagonally adjacent."""
    reach[:, :] = 0
    corner = p[CONNECT] == 1
    for c in range(s.ncell):
        x = np.int64(s.cx[c])
        y = np.int64(s.cy[c])
        for d in range(4):
            reach[y + DY4[d], x + DX4[d]] = 1
            reach[y + 2 * DY4[d], x + 2 * DX4[d]] = 1
        if corner:
            for dx in (-1, 1):
                for dy in (-1, 1):
                    reach[y + dy, x + dx] = 1


@nb.njit(cache=True)
def place_check(s, p, tid, rot, ax, ay, reach):
    """0 = legal; 1 = off the grid; 2 = covers a tile or street; 3 = its printed street would cover a tile;
    4 = not connected (neither edge contact nor exactly one street away).  reach from reach_mask()."""
    w = ROT_W[rot]
    h = ROT_H[rot]
    if ax < MARGIN or ay < MARGIN or ax + w - 1 > G - 1 - MARGIN or ay + h - 1 > G - 1 - MARGIN:
        return 1
    for k in range(6):
        if s.grid[ay + OFF_V[rot, k], ax + OFF_U[rot, k]] != EMPTY:
            return 2
    m = rot_streets(TILE_STREETS[tid], rot)
    if m & 1:
        for x in range(ax, ax + w):
            if s.grid[ay + h, x] >= 0:
                return 3
    if m & 4:
        for x in range(ax, ax + w):
            if s.grid[ay - 1, x] >= 0:
                return 3
    if m & 2:
        for y in range(ay, ay + h):
            if s.grid[y, ax + w] >= 0:
                return 3
    if m & 8:
        for y in range(ay, ay + h):
            if s.grid[y, ax - 1] >= 0:
                return 3
    for k in range(6):
        if reach[ay + OFF_V[rot, k], ax + OFF_U[rot, k]]:
            return 0
    return 4


@nb.njit(cache=True)
def set_square(s, y, x, v):
    """grid[y, x] = v, a tile cell or a street: the square is no longer empty ground (free_row)."""
    s.grid[y, x] = v
    s.free_row[y] &= ~(np.int64(1) << x)


@nb.njit(cache=True)
def clear_city(s):
    """No tile on the grid, only Main Street (three street squares)."""
    for y in range(G):
        for x in range(G):
            s.grid[y, x] = EMPTY
        s.free_row[y] = -1
        s.reach_e[y] = 0
        s.reach_c[y] = 0
    s.ncell = 0
    s.ntile = 0
    for y in range(3):
        set_square(s, OY + y, OX, STREET)


@nb.njit(cache=True)
def put_tile(s, tid, rot, ax, ay):
    """Put deck tile tid (0-based) on the grid with its south-west corner at grid (ax, ay); returns tile index."""
    t = np.int64(s.ntile)
    s.hood_nt = -1
    s.t_id[t] = tid
    s.t_x[t] = ax
    s.t_y[t] = ay
    s.t_rot[t] = rot
    s.ntile = t + 1
    w = ROT_W[rot]
    h = ROT_H[rot]
    for k in range(6):
        c = t * 6 + k
        x = ax + OFF_U[rot, k]
        y = ay + OFF_V[rot, k]
        set_square(s, y, x, c)
        for d in range(4):              # the squares a new tile square may be put on (enum_places)
            x2 = x + 2 * DX4[d]
            s.reach_e[y + DY4[d]] |= np.int64(1) << (x + DX4[d])
            if x2 <= 61:
                s.reach_e[y + 2 * DY4[d]] |= np.int64(1) << x2
        for dx in (-1, 1):
            for dy in (-1, 1):
                s.reach_c[y + dy] |= np.int64(1) << (x + dx)
        s.cx[c] = x
        s.cy[c] = y
        s.cval[c] = TILE_VALS[tid, k]
        s.die[c] = 0
        s.owner[c] = -1
        s.hsize[c] = 0
        s.hbuilt[c] = -1
    s.ncell = (t + 1) * 6
    m = rot_streets(TILE_STREETS[tid], rot)
    if m & 1:
        for x in range(ax, ax + w):
            set_square(s, ay + h, x, STREET)
    if m & 4:
        for x in range(ax, ax + w):
            set_square(s, ay - 1, x, STREET)
    if m & 2:
        for y in range(ay, ay + h):
            set_square(s, y, ax + w, STREET)
    if m & 8:
        for y in range(ay, ay + h):
            set_square(s, y, ax - 1, STREET)
    # every one-square gap between tile squares in a row or column is a street (note 3.1 (c), C4)
    for k in range(6):
        x = ax + OFF_U[rot, k]
        y = ay + OFF_V[rot, k]
        for d in range(4):
            if s.grid[y + DY4[d], x + DX4[d]] == EMPTY and s.grid[y + 2 * DY4[d], x + 2 * DX4[d]] >= 0:
                set_square(s, y + DY4[d], x + DX4[d], STREET)
    if t == 0:
        s.minx = ax
        s.maxx = ax + w - 1
        s.miny = ay
        s.maxy = ay + h - 1
    else:
        s.minx = min(s.minx, ax)
        s.maxx = max(s.maxx, ax + w - 1)
        s.miny = min(s.miny, ay)
        s.maxy = max(s.maxy, ay + h - 1)
    return t


@nb.njit(cache=True)
def highest_lot(s, t):
    """Cell of the highest-valued lot on tile t (first in reading order on a tie)."""
    best = -1
    bc = t * 6
    for k in range(6):
        c = t * 6 + k
        if s.cval[c] > best:
            best = s.cval[c]
            bc = c
    return bc


# ---------------------------------------------------------------- setup
@nb.njit(cache=True)
def fill_from_pool(s, t, ndice):
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
    s.act_overflow = 0
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
    for i in range(n):
        g = np.int64(p[GOLD_START]) + np.int64(p[GOLD_STEP]) * i
        g = max(g, 0)
        s.gold[i] = g
        s.start_gold[i] = g
        for v in range(1, 7):
            s.supply[i, v] = np.int64(p[HOTELS + v - 1])
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
        fill_from_pool(s, t, np.int64(p[SETUP_DICE]))
        nset += 1
    s.setup_tiles = nset
    log_event(s, EV_SETUP_DONE, nset, s.pool, 0, 0)
    log_event(s, EV_MAP, 0, 0, 0, 0)
    start_turn(s, p)


# ---------------------------------------------------------------- turn flow
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
            s.pool += 1
            log_event(s, EV_COLLECT, cur, cell_pos(s, c), v, 0)


@nb.njit(cache=True)
def next_turn(s, p):
    s.cur = (s.cur + 1) % s.n
    s.turn += 1
    if s.turn >= np.int64(p[TURN_CAP]):
        log_event(s, EV_CAP, s.turn, 0, 0, 0)
        finish(s, p, 2)
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


@nb.njit(cache=True, inline="always")
def streets_ok(s, tid, rot, ax, ay):
    """The tile's printed street edges would fall on no tile square."""
    w = ROT_W[rot]
    h = ROT_H[rot]
    m = ROT_STREETS[tid, rot]
    if m & 1:
        for x in range(ax, ax + w):
            if s.grid[ay + h, x] >= 0:
                return False
    if m & 4:
        for x in range(ax, ax + w):
            if s.grid[ay - 1, x] >= 0:
                return False
    if m & 2:
        for y in range(ay, ay + h):
            if s.grid[y, ax + w] >= 0:
                return False
    if m & 8:
        for y in range(ay, ay + h):
            if s.grid[y, ax - 1] >= 0:
                return False
    return True


@one_copy()
def enum_places(s, p, out, n, first_only):
    """Push every legal placement (drawn tile, rotation, south-west corner) into out from n; the same set as
    place_check() == 0 over the whole grid, in the same order as a scan of the map's bounding box (rows, then
    columns, then drawn tile and rotation).  Per row, bit x of row_e says grid square x is empty ground and bit x
    of row_r that reach_mask() would mark it (from free_row, reach_e and reach_c, kept as the city grows); a
    footprint's free/near test is then a few shifts per row."""
    y_lo = max(np.int64(s.miny) - 4, MARGIN)
    y_hi = min(np.int64(s.maxy) + 4, G - 1 - MARGIN)           # inclusive
    x_lo = max(np.int64(s.minx) - 4, MARGIN)
    x_hi = min(np.int64(s.maxx) + 4, G - 1 - MARGIN)           # inclusive; <= 61, so bit 63 stays clear
    re = s.row_e
    rr = s.row_r
    xm = (np.int64(1) << (x_hi + 1)) - (np.int64(1) << x_lo)
    corner = p[CONNECT] == 1
    for y in range(y_lo - 2, y_hi + 3):
        re[y] = s.free_row[y] & xm if y_lo <= y <= y_hi else 0
        r = s.reach_e[y]
        if corner:
            r |= s.reach_c[y]
        rr[y] = r & np.int64(0x3FFFFFFFFFFFFFFF)
    for shape in range(2):
        w = 2 + shape
        h = 3 - shape
        ax0 = max(np.int64(s.minx) - w - 1, MARGIN)
        ax1 = min(np.int64(s.maxx) + 3, G - MARGIN - w + 1)
        if ax1 <= ax0:                                          # (never on a real map; keeps the mask below sane)
            continue
        for ay in range(max(np.int64(s.miny) - h - 1, MARGIN), min(np.int64(s.maxy) + 3, G - MARGIN - h + 1)):
            fe = re[ay]
            fr = rr[ay]
            for y in range(ay + 1, ay + h):
                fe &= re[y]
                fr |= rr[y]
            free = fe & (fe >> 1)
            near = fr | (fr >> 1)
            if w == 3:
                free &= fe >> 2
                near |= fr >> 2
            cand = free & near & ((np.int64(1) << ax1) - (np.int64(1) << ax0))
            while cand != 0:
                low = cand & -cand
                cand ^= low
                ax = np.int64(DEBRUIJN_IDX[((low * DEBRUIJN) >> 58) & 63])
                for j in range(s.ndraw):
                    tid = np.int64(s.draw[j])
                    for rot in (shape, shape + 2):
                        if streets_ok(s, tid, rot, ax, ay):
                            if first_only:
                                return 1
                            n = _push(s, out, n, enc(A_PLACE, (tid * 4 + rot) * 4096 + ay * G + ax))
    return n


@nb.njit(cache=True)
def any_place(s, p):
    dummy = np.empty(1, np.int64)
    return enum_places(s, p, dummy, 0, True) > 0


@nb.njit(cache=True)
def do_place(s, p, tid, rot, ax, ay):
    # the other drawn tile (draw-2 variant) goes to the bottom of the deck: it is never drawn again in 9 rounds
    t = put_tile(s, tid, rot, ax, ay)
    log_event(s, EV_GROW, tid, ay * G + ax, rot, s.cur)
    if (np.int64(s.minx) - 4 < MARGIN or np.int64(s.miny) - 4 < MARGIN or np.int64(s.maxx) + 4 > G - 1 - MARGIN
            or np.int64(s.maxy) + 4 > G - 1 - MARGIN):
        s.clipped += 1
    # Roll: the whole pool
    counts = np.zeros(7, np.int64)
    nroll = np.int64(s.pool)
    for _ in range(nroll):
        counts[rand_below(s.rng, 0, 6) + 1] += 1
    s.pool = 0
    log_event(s, EV_ROLL, nroll, counts[1] + 100 * counts[2] + 10000 * counts[3],
              counts[4] + 100 * counts[5] + 10000 * counts[6], 0)
    for k in range(6):
        c = t * 6 + k
        v = np.int64(s.cval[c])
        if v > 0 and counts[v] > 0:
            counts[v] -= 1
            s.die[c] = v
            log_event(s, EV_LAND_TILE, cell_pos(s, c), v, 0, 0)
    hc = highest_lot(s, t)
    s.org_x = s.cx[hc]
    s.org_y = s.cy[hc]
    for v in range(7):
        s.land_left[v] = counts[v]
    s.land_v = 1
    s.land_stage = 0
    continue_landing(s, p)


# ---------------------------------------------------------------- landing of the extra dice
@nb.njit(cache=True)
def walk_dist(s, p, dist):
    """Walking distance from the origin to every cell into dist[:ncell] (BFS over tile and street squares)."""
    d = np.full((G, G), -1, np.int32)
    qx = np.empty(G * G, np.int32)
    qy = np.empty(G * G, np.int32)
    head = 0
    tail = 1
    qx[0] = s.org_x
    qy[0] = s.org_y
    d[s.org_y, s.org_x] = 0
    while head < tail:
        x = qx[head]
        y = qy[head]
        head += 1
        for k in range(4):
            x1 = x + DX4[k]
            y1 = y + DY4[k]
            if 0 <= x1 < G and 0 <= y1 < G and d[y1, x1] < 0 and s.grid[y1, x1] != EMPTY:
                d[y1, x1] = d[y, x] + 1
                qx[tail] = x1
                qy[tail] = y1
                tail += 1
    for c in range(s.ncell):
        v = d[s.cy[c], s.cx[c]]
        dist[c] = v if v >= 0 else 30000


@nb.njit(cache=True, inline="always")
def landing_ok(s, p, c, v, stage):
    """Can a die of value v land in cell c at this stage (0 hotels, 1 lots; nearest_any: both at stage 0)?"""
    if s.die[c] != 0:
        return False
    hotel_ok = (s.hsize[c] == v and (p[INTO_NEW] == 1 or s.hbuilt[c] != s.turn))
    lot_ok = s.hsize[c] == 0 and s.cval[c] == v
    if p[HOTEL_FIRST] == 1:
        return hotel_ok or lot_ok
    return hotel_ok if stage == 0 else lot_ok


@nb.njit(cache=True)
def tie_group(s, p, out):
    """Cells (into out) at the minimum distance for the current value and stage; returns their number."""
    v = np.int64(s.land_v)
    stage = np.int64(s.land_stage)
    use_walk = p[DISTANCE] == 1
    if use_walk:
        walk_dist(s, p, s.scr_c)
    best = 1 << 30
    n = 0
    for c in range(s.ncell):
        if landing_ok(s, p, c, v, stage):
            if use_walk:
                dd = np.int64(s.scr_c[c])
            else:
                dd = abs(np.int64(s.cx[c]) - np.int64(s.org_x)) + abs(np.int64(s.cy[c]) - np.int64(s.org_y))
            if dd < best:
                best = dd
                n = 0
            if dd == best:
                out[n] = c
                n += 1
    return n


@one_copy()
def land_die(s, p, c):
    v = np.int64(s.land_v)
    s.die[c] = v
    s.land_left[v] -= 1
    if s.hsize[c] > 0:
        log_event(s, EV_LAND_HOTEL, cell_pos(s, c), v, s.owner[c], 0)
    else:
        log_event(s, EV_LAND_LOT, cell_pos(s, c), v, 0, 0)


@nb.njit(cache=True)
def continue_landing(s, p):
    """Land the extra dice, value by value, nearest first; stop at a tie that the next player must break."""
    grp = s.scr_a
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


# ---------------------------------------------------------------- scoring
@nb.njit(cache=True)
def tile_hoods(s, hood):
    """Neighbourhood label per tile (connected by edge contact) into hood[:ntile]; returns their number."""
    nt = np.int64(s.ntile)
    for t in range(nt):
        hood[t] = -1
    nh = 0
    stack = np.empty(TMAX, np.int64)
    for t0 in range(nt):
        if hood[t0] >= 0:
            continue
        hood[t0] = nh
        sp = 1
        stack[0] = t0
        while sp > 0:
            sp -= 1
            t = stack[sp]
            for k in range(6):
                c = t * 6 + k
                x = np.int64(s.cx[c])
                y = np.int64(s.cy[c])
                for d in range(4):
                    g = np.int64(s.grid[y + DY4[d], x + DX4[d]])
                    if g >= 0:
                        u = g // 6
                        if hood[u] < 0:
                            hood[u] = nh
                            stack[sp] = u
                            sp += 1
        nh += 1
    return nh


@nb.njit(cache=True, inline="always")
def die_strength(p, v, acc, first):
    rule = p[BLOCK_RULE]
    if rule == 0:
        return acc + v
    if rule == 1:
        return acc + 1
    return max(acc, v)


@nb.njit(cache=True)
def search_block(s, p, c0, mark, tag, stack):
    """The block (one player's connected hotels) or street gang (connected campers) through cell c0, its cells
    marked mark[c] = tag (a cell otherwise marked is unvisited): (strength, seat or -1 for a gang, its highest cell
    number); seat -2 if c0 holds neither."""
    if s.hsize[c0] > 0:
        owner = np.int64(s.owner[c0])
    elif s.die[c0] > 0 and s.cval[c0] > 0:
        owner = -1
    else:
        return 0, -2, -1
    add_size = p[EMPTY_RULE] == 1
    mark[c0] = tag
    sp = 1
    stack[0] = c0
    acc = 0
    top = c0
    while sp > 0:
        sp -= 1
        c = np.int64(stack[sp])
        top = max(top, c)
        if s.die[c] > 0:
            acc = die_strength(p, np.int64(s.die[c]), acc, False)
        elif add_size and s.hsize[c] > 0:
            acc = die_strength(p, np.int64(s.hsize[c]), acc, False)
        x = np.int64(s.cx[c])
        y = np.int64(s.cy[c])
        for d in range(4):
            g = np.int64(s.grid[y + DY4[d], x + DX4[d]])
            if g >= 0 and mark[g] != tag:
                if owner >= 0:
                    ok = s.hsize[g] > 0 and s.owner[g] == owner
                else:
                    ok = s.hsize[g] == 0 and s.die[g] > 0 and s.cval[g] > 0
                if ok:
                    mark[g] = tag
                    stack[sp] = g
                    sp += 1
    return acc, owner, top


@nb.njit(cache=True)
def block_strengths(s, p, comp, strength, who):
    """Blocks (one player's connected hotels) and street gangs (connected campers).  comp[c] = block id or -1;
    strength[b], who[b] (seat, or -1 for a gang).  Returns the number of blocks."""
    nc = np.int64(s.ncell)
    for c in range(nc):
        comp[c] = -1
    nb_ = 0
    for c0 in range(nc):
        if comp[c0] < 0:
            # a cell reachable from c0 is in no earlier block (it would have reached c0), so "marked nb_" = visited
            acc, owner, _ = search_block(s, p, c0, comp, nb_, s.scr_stk)
            if owner >= -1:
                strength[nb_] = acc
                who[nb_] = owner
                nb_ += 1
    return nb_


@nb.njit(cache=True)
def hood_control(s, p, hood, nh, best_p, best_g, winners):
    """Per neighbourhood h: best player block strength best_p[h], best gang strength best_g[h];
    winners[h, seat] = 1 if the seat has a block of strength best_p[h]."""
    comp = s.scr_a
    strength = s.scr_str                # entries [0, nbk) are written below before they are read
    who = s.scr_who
    nbk = block_strengths(s, p, comp, strength, who)
    bhood = s.scr_bh
    for c in range(s.ncell):
        b = comp[c]
        if b >= 0:
            bhood[b] = hood[c // 6]
    for h in range(nh):
        best_p[h] = 0
        best_g[h] = 0
        for i in range(MP):
            winners[h, i] = 0
    for b in range(nbk):
        h = bhood[b]
        if who[b] < 0:
            best_g[h] = max(best_g[h], strength[b])
        else:
            best_p[h] = max(best_p[h], strength[b])
    for b in range(nbk):
        h = bhood[b]
        if who[b] >= 0 and strength[b] == best_p[h] and best_p[h] > 0:
            winners[h, who[b]] = 1


@nb.njit(cache=True)
def hood_value(s, p, hood, h):
    v = 0
    for t in range(s.ntile):
        if hood[t] == h:
            v += np.int64(p[PTS_TILE])
            for k in range(6):
                if s.cval[t * 6 + k] == 0:
                    v += np.int64(p[PTS_PUBLIC])
    return v


@nb.njit(cache=True)
def ensure_hoods(s, p):
    """Cached neighbourhood label per tile (s.t_hood) and value per neighbourhood (s.h_val) for the strategies."""
    if s.hood_nt == s.ntile:
        return
    nh = tile_hoods(s, s.t_hood)
    for h in range(nh):
        s.h_val[h] = hood_value(s, p, s.t_hood, h)
    s.n_hood = nh
    s.hood_nt = s.ntile


@nb.njit(cache=True)
def score_round(s, p):
    ensure_hoods(s, p)                  # neighbourhood per tile and value per neighbourhood (cached per map)
    hood = s.t_hood
    nh = np.int64(s.n_hood)
    best_p = np.zeros(TMAX, np.int64)
    best_g = np.zeros(TMAX, np.int64)
    winners = np.zeros((TMAX, MP), np.int64)
    hood_control(s, p, hood, nh, best_p, best_g, winners)
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
        finish(s, p, 1)
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


# ---------------------------------------------------------------- fire
@nb.njit(cache=True)
def fire_targets(s, p, out):
    """Buildings orthogonally adjacent to the square that just burned: hotels not built this turn, public buildings."""
    c0 = np.int64(s.fire_cell)
    x = np.int64(s.cx[c0])
    y = np.int64(s.cy[c0])
    n = 0
    for d in range(4):
        g = np.int64(s.grid[y + DY4[d], x + DX4[d]])
        if g >= 0:
            if s.hsize[g] > 0 and s.hbuilt[g] != s.turn:
                out[n] = g
                n += 1
            elif s.cval[g] == 0:
                out[n] = g
                n += 1
    return n


@nb.njit(cache=True)
def burn(s, p, c):
    """Fire enters hotel c.  Returns True if the fire goes on (an empty hotel burned)."""
    o = np.int64(s.owner[c])
    size = np.int64(s.hsize[c])
    guest = np.int64(s.die[c])
    if guest > 0 and p[FIRE_OCC] == 1:
        s.die[c] = 0
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
    log_event(s, EV_BURN, o, cell_pos(s, c), size, guest)
    return guest == 0


@nb.njit(cache=True)
def fire_goes_on(s, p, c, owner):
    """After the empty hotel c burned: ask its former owner to pass the fire, or end it."""
    s.fire_cell = c
    n = fire_targets(s, p, s.scr_b)
    if n == 0:
        log_event(s, EV_FIRE_OUT, 2, cell_pos(s, c), 0, 0)
        s.phase = PH_MAIN
        s.decider = s.cur
        return
    s.phase = PH_FIRE
    s.decider = owner


# ---------------------------------------------------------------- protocol
@nb.njit(cache=True)
def current_player(s):
    return s.decider


@nb.njit(cache=True)
def is_over(s):
    return s.over != 0


@nb.njit(cache=True, inline="always")
def _push(s, out, n, a):
    if n < MAX_ACTIONS:
        out[n] = a
        return n + 1
    s.act_overflow += 1
    return n


@nb.njit(cache=True)
def legal_actions(s, p, out):
    ph = s.phase
    n = 0
    if ph == PH_MAIN:
        cur = np.int64(s.cur)
        n = _push(s, out, n, enc(A_END, 0))
        nc = np.int64(s.ncell)
        gold = np.int64(s.gold[cur])
        # one pass over the cells: the campers, the player's empty hotels and the lots without a hotel, each
        # listed in cell order (so every kind of action below comes out in the order of a scan over the cells)
        camps = s.scr_d
        hots = s.scr_h
        lots = s.scr_l
        ncamp = 0
        nhot = 0
        nlot = 0
        for c in range(nc):                 # branch-free: write every cell, advance the lists it belongs to
            free = s.hsize[c] == 0
            d = s.die[c]
            camps[ncamp] = c
            lots[nlot] = c
            hots[nhot] = c
            ncamp += np.int64(free & (d > 0))
            nlot += np.int64(free & (s.cval[c] > 0))
            nhot += np.int64((not free) & (s.owner[c] == cur) & (d == 0))
        if s.acted == 0:
            for k in range(ncamp):
                n = _push(s, out, n, enc(A_MINE, cell_pos(s, np.int64(camps[k]))))
        for j in range(nhot):
            h = np.int64(hots[j])
            if s.hbuilt[h] != s.turn:
                hs = s.hsize[h]
                for k in range(ncamp):
                    c = np.int64(camps[k])
                    if s.die[c] == hs:
                        n = _push(s, out, n, enc(A_HOST, cell_pos(s, h) * 4096 + cell_pos(s, c)))
        if s.built_act == 0:
            cb = np.int64(p[COST_BUILD])
            cc = np.int64(p[COST_CAMPER])
            for k in range(nlot):
                c = np.int64(lots[k])
                v = np.int64(s.cval[c])
                if s.supply[cur, v] > 0:
                    if s.die[c] == 0:
                        if gold >= cb * v:
                            n = _push(s, out, n, enc(A_BUILD, cell_pos(s, c) * 8 + v))
                    elif gold >= cc * v:
                        n = _push(s, out, n, enc(A_BUILD_CAMPER, cell_pos(s, c) * 8 + v))
            one = p[RESIZE_RULE] == 1
            for j in range(nhot):
                h = np.int64(hots[j])
                hs = np.int64(s.hsize[h])
                for ns in range(1, 7):
                    if ns == hs or s.supply[cur, ns] <= 0:
                        continue
                    if one and abs(ns - hs) != 1:
                        continue
                    cost = (ns - hs) * np.int64(p[COST_UP]) if ns > hs else (hs - ns) * np.int64(p[COST_DOWN])
                    if gold >= cost:
                        n = _push(s, out, n, enc(A_RESIZE, cell_pos(s, h) * 8 + ns))
        if s.fired == 0 and p[FIRE_ON] == 1:
            for j in range(nhot):
                h = np.int64(hots[j])
                if s.hbuilt[h] != s.turn:
                    n = _push(s, out, n, enc(A_FIRE, cell_pos(s, h)))
    elif ph == PH_FIRE:
        m = fire_targets(s, p, s.scr_b)
        for i in range(m):
            n = _push(s, out, n, enc(A_PASS, cell_pos(s, s.scr_b[i])))
        if p[FIRE_PASS] == 1 or n == 0:
            n = _push(s, out, n, enc(A_STOP, 0))
    elif ph == PH_PLACE:
        n = enum_places(s, p, out, n, False)
    elif ph == PH_LAND:
        m = tie_group(s, p, s.scr_b)
        v = np.int64(s.land_v)
        for i in range(m):
            n = _push(s, out, n, enc(A_LAND, cell_pos(s, s.scr_b[i]) * 8 + v))
    if n == 0:
        n = _push(s, out, n, enc(A_END, 0))
    return n


@nb.njit(cache=True)
def apply_action(s, p, a):
    k = kind_of(a)
    arg = arg_of(a)
    cur = np.int64(s.cur)
    if s.phase == PH_MAIN:
        if k == A_END:
            end_turn(s, p)
        elif k == A_MINE:
            c = cell_at(s, arg)
            v = np.int64(s.die[c])
            roll = rand_below(s.rng, 0, 6) + 1
            s.die[c] = 0
            s.pool += 1
            s.gold[cur] += roll
            s.st_mine[cur] += roll
            s.st_mines[cur] += 1
            s.acted = 1
            log_event(s, EV_MINE, cur, arg, v, roll)
            end_turn(s, p)          # Mine precludes every other action
        elif k == A_HOST:
            h = cell_at(s, arg // 4096)
            c = cell_at(s, arg % 4096)
            v = np.int64(s.die[c])
            s.die[c] = 0
            s.die[h] = v
            s.acted = 1
            s.st_hosted[cur] += 1
            log_event(s, EV_HOST, cur, arg % 4096, arg // 4096, v)
        elif k == A_BUILD or k == A_BUILD_CAMPER:
            pos = arg // 8
            v = arg % 8
            c = cell_at(s, pos)
            cost = v * np.int64(p[COST_BUILD] if k == A_BUILD else p[COST_CAMPER])
            s.gold[cur] -= cost
            s.supply[cur, v] -= 1
            s.owner[c] = cur
            s.hsize[c] = v
            s.hbuilt[c] = s.turn
            s.acted = 1
            s.built_act = 1
            s.st_built[cur, v] += 1
            add_item(s, cur, ITEM_HOTEL + v - 1, s.rounds + 1)
            log_event(s, EV_BUILD, cur, pos, v, cost + 1000 * np.int64(s.die[c]))
        elif k == A_RESIZE:
            pos = arg // 8
            ns = arg % 8
            c = cell_at(s, pos)
            hs = np.int64(s.hsize[c])
            cost = (ns - hs) * np.int64(p[COST_UP]) if ns > hs else (hs - ns) * np.int64(p[COST_DOWN])
            s.gold[cur] -= cost
            s.supply[cur, hs] += 1
            s.supply[cur, ns] -= 1
            s.hsize[c] = ns
            if p[RESIZED_NEW] == 1:
                s.hbuilt[c] = s.turn
            s.acted = 1
            s.built_act = 1
            log_event(s, EV_RESIZE, cur, pos, hs, ns)
        elif k == A_FIRE:
            c = cell_at(s, arg)
            s.fired = 1
            s.acted = 1
            s.st_fires[cur] += 1
            log_event(s, EV_FIRE, cur, arg, s.hsize[c], 0)
            o = np.int64(s.owner[c])
            if burn(s, p, c):
                fire_goes_on(s, p, c, o)
    elif s.phase == PH_FIRE:
        if k == A_STOP:
            log_event(s, EV_FIRE_OUT, 3, cell_pos(s, s.fire_cell), 0, 0)
            s.phase = PH_MAIN
            s.decider = s.cur
        else:
            c = cell_at(s, arg)
            if s.hsize[c] == 0:
                log_event(s, EV_FIRE_OUT, 1, arg, 0, 0)          # a public building stops it
                s.phase = PH_MAIN
                s.decider = s.cur
            else:
                o = np.int64(s.owner[c])
                if burn(s, p, c):
                    fire_goes_on(s, p, c, o)
                else:
                    log_event(s, EV_FIRE_OUT, 0, arg, 0, 0)      # an occupied hotel stops it
                    s.phase = PH_MAIN
                    s.decider = s.cur
    elif s.phase == PH_PLACE:
        pos = arg % 4096
        tr = arg // 4096
        do_place(s, p, tr // 4, tr % 4, pos % G, pos // G)
    elif s.phase == PH_LAND:
        c = cell_at(s, arg // 8)
        land_die(s, p, c)
        s.phase = PH_MAIN
        continue_landing(s, p)


# ---------------------------------------------------------------- outcome
GAME_COLUMNS = ("turns", "rounds", "end_reason", "gang_wins", "unclaimed_hoods", "setup_tiles", "tiles",
                "first_round_turn", "grid_clipped", "no_place", "items_dropped")
SEAT_COLUMNS = ("rank", "win", "order", "vp_neighbourhoods", "vp_gold", "vp_total", "gold", "gold_collect",
                "gold_mine", "gold_insurance", "hotels_built_1", "hotels_built_2", "hotels_built_3",
                "hotels_built_4", "hotels_built_5", "hotels_built_6", "hotels_built", "hotels_burned",
                "fires_set", "neighbourhoods_won", "mines", "guests_hosted", "start_gold")


@nb.njit(cache=True, inline="always")
def final_key(s, p, i):
    """Sort key of a seat: points, then (tie_break most_gold) remaining gold."""
    key = np.int64(s.vp[i] + s.vp_gold[i]) * 100000
    if p[TIE_BREAK] == 1:
        key += np.int64(s.gold[i])
    return key


@nb.njit(cache=True)
def write_outcome(s, p, game_int, seat_int, seat_f, items):
    if s.over == 0:                      # stopped by the kernel's step cap: score the position as it stands
        per = np.int64(p[GOLD_PER_VP])
        for i in range(s.n):
            s.vp_gold[i] = s.gold[i] // per
    game_int[0] = s.turn + 1
    game_int[1] = s.rounds
    game_int[2] = s.over - 1 if s.over > 0 else 2
    game_int[3] = s.gang_wins
    game_int[4] = s.unclaimed
    game_int[5] = s.setup_tiles
    game_int[6] = s.ntile
    game_int[7] = s.first_round_turn
    game_int[8] = s.clipped
    game_int[9] = s.no_place
    game_int[10] = s.items_dropped
    n = np.int64(s.n)
    best = -1
    for i in range(n):
        best = max(best, final_key(s, p, i))
    k = 0
    for i in range(n):
        if final_key(s, p, i) == best:
            k += 1
    for i in range(n):
        key = final_key(s, p, i)
        r = 1
        for j in range(n):
            if final_key(s, p, j) > key:
                r += 1
        win = 1 if key == best else 0
        tot = s.vp[i] + s.vp_gold[i]
        row = seat_int[i]
        row[0] = r
        row[1] = win
        row[2] = i
        row[3] = s.vp[i]
        row[4] = s.vp_gold[i]
        row[5] = tot
        row[6] = s.gold[i]
        row[7] = s.st_collect[i]
        row[8] = s.st_mine[i]
        row[9] = s.st_ins[i]
        nb_ = 0
        for v in range(1, 7):
            row[9 + v] = s.st_built[i, v]
            nb_ += s.st_built[i, v]
        row[16] = nb_
        row[17] = s.st_lost[i]
        row[18] = s.st_fires[i]
        row[19] = s.st_won[i]
        row[20] = s.st_mines[i]
        row[21] = s.st_hosted[i]
        row[22] = s.start_gold[i]
        seat_f[i, 0] = tot
        seat_f[i, 1] = win / k
    m = np.int64(s.n_items)
    for j in range(m):
        items[j, 0] = s.items[j, 0]
        items[j, 1] = s.items[j, 1]
        items[j, 2] = s.items[j, 2]
    return m
