"""Cold Comfort's actions and the legal-action list.

Every action is declared once in CODEC (sim.toolkit.ActionCodec): its kind and named fields, packed into one int64.
The engine, the strategies, text.py and the tests encode and decode only through it.  Positions are grid positions
pos = y * G + x (state.py).  The generators of the choices a decision offers (enum_places: where the grown tile
fits; fire_targets: where a fire may be passed; tie_group: where a rolled die may land) live here with
legal_actions; the rules call them too.
"""

import numba as nb
import numpy as np

from sim.kernel import one_copy
from sim.toolkit import ActionCodec, low_bit, push

from .city import DX4, DY4, cell_pos, streets_ok, walk_dist
from .params import (
    CONNECT,
    COST_BUILD,
    COST_CAMPER,
    COST_DOWN,
    COST_UP,
    DISTANCE,
    FIRE_ON,
    FIRE_PASS,
    HOTEL_FIRST,
    INTO_NEW,
    N_DECK,
    RESIZE_RULE,
)
from .state import G, MARGIN, PH_FIRE, PH_LAND, PH_MAIN, PH_PLACE, SIZES

# Random play stays far below this (the contract test checks each step; 20 random games at 2 and at 6 players
# peaked at 395 and 390): the grown tile's placements are the longest list (every free spot near the map, two
# rotations, one or two drawn tiles).
MAX_ACTIONS = 4096

CODEC = ActionCodec(
    kinds={
        "END": (),  # end the turn
        "MINE": ("pos",),  # mine the camper at pos
        "HOST": ("pos", "camper"),  # host the camper at `camper` in the own hotel at pos
        "BUILD": ("pos", "size"),  # build a hotel of this size on the vacant lot at pos
        "BUILD_CAMPER": ("pos", "size"),  # ... on the lot at pos holding a camper (it becomes the guest)
        "RESIZE": ("pos", "size"),  # upgrade or downgrade the own hotel at pos to this size
        "FIRE": ("pos",),  # set fire to the own empty hotel at pos
        "PASS": ("pos",),  # pass the fire to the building at pos
        "STOP": (),  # let the fire die out
        "PLACE": ("tile", "rot", "pos"),  # place drawn city tile `tile` rotated rot * 90 degrees, SW corner at pos
        "LAND": ("pos", "pips"),  # break a distance tie: the rolled die of these pips lands at pos
    },
    fields={
        "pos": (G * G - 1).bit_length(),
        "camper": (G * G - 1).bit_length(),
        "size": (SIZES - 1).bit_length(),
        "pips": (SIZES - 1).bit_length(),
        "tile": (N_DECK - 1).bit_length(),
        "rot": 2,
    },
)
(A_END, A_MINE, A_HOST, A_BUILD, A_BUILD_CAMPER, A_RESIZE, A_FIRE, A_PASS, A_STOP, A_PLACE, A_LAND) = CODEC.kind_ids(
    *CODEC.kind_names
)
kind_of = CODEC.kind_getter()
pos_of, camper_of, size_of, pips_of, tile_of, rot_of = CODEC.getters("pos", "camper", "size", "pips", "tile", "rot")
(
    encode_mine,
    encode_host,
    encode_build,
    encode_build_camper,
    encode_resize,
    encode_fire,
    encode_pass,
    encode_place,
    encode_land,
) = (CODEC.encoder(k) for k in ("MINE", "HOST", "BUILD", "BUILD_CAMPER", "RESIZE", "FIRE", "PASS", "PLACE", "LAND"))


@nb.njit(cache=True, inline="always")
def place_rows(s, p):
    """Set up the placement scan's row masks: per row, bit x of row_free says grid square x is empty ground and bit
    x of row_near that reach_mask() would mark it (from free_row, reach_e and reach_c, kept as the city grows)."""
    y_lo = max(np.int64(s.miny) - 4, MARGIN)
    y_hi = min(np.int64(s.maxy) + 4, G - 1 - MARGIN)  # inclusive
    x_lo = max(np.int64(s.minx) - 4, MARGIN)
    x_hi = min(np.int64(s.maxx) + 4, G - 1 - MARGIN)  # inclusive; <= 61, so bit 63 stays clear
    row_free = s.row_free
    row_near = s.row_near
    xm = (np.int64(1) << (x_hi + 1)) - (np.int64(1) << x_lo)
    corner = p[CONNECT] == 1
    for y in range(y_lo - 2, y_hi + 3):
        row_free[y] = s.free_row[y] & xm if y_lo <= y <= y_hi else 0
        r = s.reach_e[y]
        if corner:
            r |= s.reach_c[y]
        row_near[y] = r & np.int64(0x3FFFFFFFFFFFFFFF)


@nb.njit(cache=True, inline="always")
def place_span(s, shape):
    """The footprint's width and height for shape 0 (2 x 3, rotations 0 and 2) or 1 (3 x 2, rotations 1 and 3),
    the range of its south-west corner's x (ax0..ax1-1; empty on no real map) and of its y (ay0..ay1-1)."""
    w = 2 + shape
    h = 3 - shape
    ax0 = max(np.int64(s.minx) - w - 1, MARGIN)
    ax1 = min(np.int64(s.maxx) + 3, G - MARGIN - w + 1)
    ay0 = max(np.int64(s.miny) - h - 1, MARGIN)
    ay1 = min(np.int64(s.maxy) + 3, G - MARGIN - h + 1)
    return w, h, ax0, ax1, ay0, ay1


@nb.njit(cache=True, inline="always")
def place_corners(s, w, h, ax0, ax1, ay):
    """Bit mask of the south-west corners x (ax0 <= x < ax1) in row ay where a w x h footprint lies on empty
    ground with a square that reach_mask() marks (place_rows' masks): a few shifts per row."""
    row_free = s.row_free
    row_near = s.row_near
    fe = row_free[ay]
    fr = row_near[ay]
    for y in range(ay + 1, ay + h):
        fe &= row_free[y]
        fr |= row_near[y]
    free = fe & (fe >> 1)
    near = fr | (fr >> 1)
    if w == 3:
        free &= fe >> 2
        near |= fr >> 2
    return free & near & ((np.int64(1) << ax1) - (np.int64(1) << ax0))


# The placement scan: place_rows, then per shape (place_span) and row the corners (place_corners) in increasing x
# (the lowest bit first), per corner each drawn tile in turn and its two rotations of that shape where its streets
# fit (streets_ok).  enum_places lists them; the strategies' quick placement (strategies/cold_comfort) scores them
# in the same order without the list.
@one_copy(_nrt=False)
def enum_places(s, p, out, n, first_only):
    """Push every legal placement (drawn tile, rotation, south-west corner) into out from n; the same set as
    place_check() == 0 over the whole grid, in the same order as a scan of the map's bounding box (rows, then
    columns, then drawn tile and rotation)."""
    place_rows(s, p)
    for shape in range(2):
        w, h, ax0, ax1, ay0, ay1 = place_span(s, shape)
        if ax1 <= ax0:  # (never on a real map; keeps the mask below sane)
            continue
        for ay in range(ay0, ay1):
            cand = place_corners(s, w, h, ax0, ax1, ay)
            while cand != 0:
                low = cand & -cand
                cand ^= low
                ax = np.int64(low_bit(low))
                for j in range(s.ndraw):
                    tid = np.int64(s.draw[j])
                    for rot in (shape, shape + 2):
                        if streets_ok(s, tid, rot, ax, ay):
                            if first_only:
                                return 1
                            n = push(out, n, encode_place(tid, rot, ay * G + ax))
    return n


@nb.njit(cache=True)
def any_place(s, p):
    dummy = np.empty(1, np.int64)
    return enum_places(s, p, dummy, 0, True) > 0


@nb.njit(cache=True, _nrt=False)
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


@nb.njit(cache=True, inline="always")
def landing_ok(s, c, v, stage, into_new, hotel_first):
    """Can a die of value v land in cell c at this stage (0 hotels, 1 lots; nearest_any: both at stage 0)?
    into_new, hotel_first: the rules roll.into_new_hotels and roll.hotel_priority (read once per scan)."""
    if s.die[c] != 0:
        return False
    hotel_ok = s.hsize[c] == v and (into_new or s.hbuilt[c] != s.turn)
    lot_ok = s.hsize[c] == 0 and s.cval[c] == v
    if hotel_first:
        return hotel_ok or lot_ok
    return hotel_ok if stage == 0 else lot_ok


@nb.njit(cache=True, _nrt=False)
def tie_group(s, p, out):
    """Cells (into out) at the minimum distance for the current value and stage; returns their number."""
    v = np.int64(s.land_v)
    stage = np.int64(s.land_stage)
    use_walk = p[DISTANCE] == 1
    into_new = p[INTO_NEW] == 1
    hotel_first = p[HOTEL_FIRST] == 1
    if use_walk:
        walk_dist(s, p, s.walk_to_cell)
    best = 1 << 30
    n = 0
    for c in range(s.ncell):
        if landing_ok(s, c, v, stage, into_new, hotel_first):
            if use_walk:
                dd = np.int64(s.walk_to_cell[c])
            else:
                dd = abs(np.int64(s.cx[c]) - np.int64(s.org_x)) + abs(np.int64(s.cy[c]) - np.int64(s.org_y))
            if dd < best:
                best = dd
                n = 0
            if dd == best:
                out[n] = c
                n += 1
    return n


@nb.njit(cache=True, inline="always")
def main_cells(s, p, cur):
    """A main decision's cells, each list in cell order: the campers (s.camper_cells[:ncamp]), the mover's empty
    hotels (s.hotel_cells[:nhot]) and the lots without a hotel it may build on (s.lot_cells[:nlot]); and the lot
    values it may build on (bit v: a hotel of size v in supply and affordable), on a vacant lot (okb) or on a
    camper (okc), none once it has built this turn.  Returns okb, okc, ncamp, nhot, nlot (legal_actions and the
    strategies' quick main decision list the actions of these cells in the same order)."""
    gold = np.int64(s.gold[cur])
    okb = np.int64(0)
    okc = np.int64(0)
    if s.built_act == 0:
        cb = np.int64(p[COST_BUILD])
        cc = np.int64(p[COST_CAMPER])
        for v in range(1, SIZES):
            if s.supply[cur, v] > 0:
                okb |= np.int64(gold >= cb * v) << v
                okc |= np.int64(gold >= cc * v) << v
    okv = okb | okc
    camps = s.camper_cells
    hots = s.hotel_cells
    lots = s.lot_cells
    ncamp = 0
    nhot = 0
    nlot = 0
    for c in range(np.int64(s.ncell)):  # branch-free: write every cell, advance the lists it belongs to
        free = s.hsize[c] == 0
        d = s.die[c]
        camps[ncamp] = c
        lots[nlot] = c
        hots[nhot] = c
        ncamp += np.int64(free & (d > 0))
        nlot += np.int64(free & (((okv >> np.int64(s.cval[c])) & 1) != 0))  # (bit 0, a public square: never)
        nhot += np.int64((not free) & (s.owner[c] == cur) & (d == 0))
    return okb, okc, ncamp, nhot, nlot


@nb.njit(cache=True, inline="always")
def resize_ok(s, p, cur, hs, ns):
    """May the mover resize its hotel of size hs to ns (a tile of ns in supply, the step the rule allows, gold)?"""
    if ns == hs or s.supply[cur, ns] <= 0:
        return False
    if p[RESIZE_RULE] == 1 and abs(ns - hs) != 1:
        return False
    cost = (ns - hs) * np.int64(p[COST_UP]) if ns > hs else (hs - ns) * np.int64(p[COST_DOWN])
    return np.int64(s.gold[cur]) >= cost


@nb.njit(cache=True, inline="always")
def fire_ok(s, p):
    """May the mover still set a fire this turn?"""
    return s.fired == 0 and p[FIRE_ON] == 1


@nb.njit(cache=True, _nrt=False)
def legal_actions(s, p, out):
    ph = s.phase
    n = 0
    if ph == PH_MAIN:
        cur = np.int64(s.cur)
        n = push(out, n, A_END)
        okb, okc, ncamp, nhot, nlot = main_cells(s, p, cur)
        camps = s.camper_cells
        hots = s.hotel_cells
        lots = s.lot_cells
        if s.acted == 0:
            for k in range(ncamp):
                n = push(out, n, encode_mine(cell_pos(s, np.int64(camps[k]))))
        for j in range(nhot):
            h = np.int64(hots[j])
            if s.hbuilt[h] != s.turn:
                hs = s.hsize[h]
                for k in range(ncamp):
                    c = np.int64(camps[k])
                    if s.die[c] == hs:
                        n = push(out, n, encode_host(cell_pos(s, h), cell_pos(s, c)))
        if s.built_act == 0:
            for k in range(nlot):
                c = np.int64(lots[k])
                v = np.int64(s.cval[c])
                if s.die[c] == 0:
                    if (okb >> v) & 1:
                        n = push(out, n, encode_build(cell_pos(s, c), v))
                elif (okc >> v) & 1:
                    n = push(out, n, encode_build_camper(cell_pos(s, c), v))
            for j in range(nhot):
                h = np.int64(hots[j])
                hs = np.int64(s.hsize[h])
                for ns in range(1, 7):
                    if resize_ok(s, p, cur, hs, ns):
                        n = push(out, n, encode_resize(cell_pos(s, h), ns))
        if fire_ok(s, p):
            for j in range(nhot):
                h = np.int64(hots[j])
                if s.hbuilt[h] != s.turn:
                    n = push(out, n, encode_fire(cell_pos(s, h)))
    elif ph == PH_FIRE:
        m = fire_targets(s, p, s.choice_cells)
        for i in range(m):
            n = push(out, n, encode_pass(cell_pos(s, s.choice_cells[i])))
        if p[FIRE_PASS] == 1 or n == 0:
            n = push(out, n, A_STOP)
    elif ph == PH_PLACE:
        n = enum_places(s, p, out, n, False)
    elif ph == PH_LAND:
        m = tie_group(s, p, s.choice_cells)
        v = np.int64(s.land_v)
        for i in range(m):
            n = push(out, n, encode_land(cell_pos(s, s.choice_cells[i]), v))
    if n == 0:
        n = push(out, n, A_END)
    return n
