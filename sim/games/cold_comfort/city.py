"""The city map: squares of the grid, the tiles on it and where a new tile may go (note section 3, ASSUMED).

Tile geometry: canonical square k = row * 2 + col (row 0 north), placed by its south-west corner in one of four
rotations; a printed street side becomes street squares beside the tile, and a one-square gap between tile squares
in a row or column is a street.  The bitmask rows (free_row, reach_e, reach_c) let actions.enum_places test a
footprint with a few shifts per row.
"""

import numba as nb
import numpy as np

from .params import CONNECT, TILE_STREETS, TILE_VALS
from .state import EMPTY, G, MARGIN, OX, OY, STREET

# rotations: canonical square k = row*2 + col (row 0 north); local (u, v) from the south-west corner
ROT_W = np.array([2, 3, 2, 3], np.int64)
ROT_H = np.array([3, 2, 3, 2], np.int64)
OFF_U = np.zeros((4, 6), np.int64)
OFF_V = np.zeros((4, 6), np.int64)
for _k in range(6):
    _u, _v = _k % 2, 2 - _k // 2
    OFF_U[0, _k], OFF_V[0, _k] = _u, _v
    OFF_U[1, _k], OFF_V[1, _k] = _v, 1 - _u  # 90 deg clockwise: N->E, E->S, S->W, W->N
    OFF_U[2, _k], OFF_V[2, _k] = 1 - _u, 2 - _v
    OFF_U[3, _k], OFF_V[3, _k] = 2 - _v, _u  # 270 deg clockwise
DX4 = np.array([0, 1, 0, -1], np.int64)  # N, E, S, W
DY4 = np.array([1, 0, -1, 0], np.int64)

# printed street sides (bit 0 N, 1 E, 2 S, 3 W) of each deck tile in each rotation: side b of the canonical tile
# faces (b + rot) % 4
ROT_STREETS = np.zeros((len(TILE_STREETS), 4), np.int64)
for _t in range(len(TILE_STREETS)):
    for _r in range(4):
        for _b in range(4):
            if TILE_STREETS[_t] & (1 << _b):
                ROT_STREETS[_t, _r] |= 1 << ((_b + _r) % 4)


@nb.njit(cache=True, inline="always")
def cell_pos(s, c):
    return np.int64(s.cy[c]) * G + np.int64(s.cx[c])


@nb.njit(cache=True, inline="always")
def cell_at(s, pos):
    return np.int64(s.grid[pos >> 6, pos & 63])  # pos = y * G + x >= 0 with G = 64


@nb.njit(cache=True, _nrt=False)
def neighbour(s, c, d):
    """The grid square next to cell c in direction d (DX4, DY4): a cell number, or negative (street, empty)."""
    return np.int64(s.grid[np.int64(s.cy[c]) + DY4[d], np.int64(s.cx[c]) + DX4[d]])


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
    m = ROT_STREETS[tid, rot]
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
    s.kb_ok = 0  # the kept blocks (blocks.py): searched afresh on first use
    s.hood_nt = -1  # and the neighbourhoods (scoring.ensure_hoods)
    for y in range(3):
        set_square(s, OY + y, OX, STREET)


@nb.njit(cache=True)
def put_tile(s, tid, rot, ax, ay):
    """Put deck tile tid (0-based) on the grid with its south-west corner at grid (ax, ay); returns tile index."""
    t = np.int64(s.ntile)
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
        for d in range(4):  # the squares a new tile square may be put on (enum_places)
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
        s.kb_of[c] = -1  # in no kept block (blocks.py)
        s.kb_part[c] = 0
    s.ncell = (t + 1) * 6
    m = ROT_STREETS[tid, rot]
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


@nb.njit(cache=True, _nrt=False)
def walk_dist(s, p, dist):
    """Walking distance from the origin to every cell into dist[:ncell] (BFS over tile and street squares; 30000
    where none leads).  Its queue and the squares it has queued (a bit per square) are state fields."""
    for c in range(s.ncell):
        dist[c] = 30000
    seen = s.walk_seen
    for y in range(G):
        seen[y] = 0
    queue = s.walk_queue
    qdist = s.walk_qdist
    x0 = np.int64(s.org_x)
    y0 = np.int64(s.org_y)
    queue[0] = y0 * G + x0
    qdist[0] = 0
    seen[y0] |= np.int64(1) << x0
    head = 0
    tail = 1
    while head < tail:
        q = np.int64(queue[head])
        dd = np.int64(qdist[head])
        head += 1
        x = q & (G - 1)
        y = q >> 6  # q = y * G + x with G = 64
        g = np.int64(s.grid[y, x])
        if g >= 0:
            dist[g] = dd
        for k in range(4):
            x1 = x + DX4[k]
            y1 = y + DY4[k]
            if 0 <= x1 < G and 0 <= y1 < G and (seen[y1] >> x1) & 1 == 0 and s.grid[y1, x1] != EMPTY:
                seen[y1] |= np.int64(1) << x1
                queue[tail] = y1 * G + x1
                qdist[tail] = dd + 1
                tail += 1
