"""Neighbourhoods and blocks (rulebook Score): which tiles form a neighbourhood and what it is worth, the blocks
(one player's connected hotels) and street gangs (connected campers) in it and their strength.  Pure functions of
the map, shared by the scoring round (rules.score_round) and the strategies' look-ahead.
"""

import numba as nb
import numpy as np

from .city import DX4, DY4
from .params import BLOCK_RULE, EMPTY_RULE, PTS_PUBLIC, PTS_TILE
from .state import MP


@nb.njit(cache=True, _nrt=False)
def tile_hoods(s, hood):
    """Neighbourhood label per tile (connected by edge contact) into hood[:ntile]; returns their number."""
    nt = np.int64(s.ntile)
    for t in range(nt):
        hood[t] = -1
    nh = 0
    stack = s.hood_hstack
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
def die_strength(p, v, acc):
    """A block's strength acc with one more die (or counted hotel size) v, by score.block: sum, count or highest."""
    rule = p[BLOCK_RULE]
    if rule == 0:
        return acc + v
    if rule == 1:
        return acc + 1
    return max(acc, v)


@nb.njit(cache=True, _nrt=False)
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
            acc = die_strength(p, np.int64(s.die[c]), acc)
        elif add_size and s.hsize[c] > 0:
            acc = die_strength(p, np.int64(s.hsize[c]), acc)
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


@nb.njit(cache=True, _nrt=False)
def block_strengths(s, p, comp, strength, who):
    """Blocks (one player's connected hotels) and street gangs (connected campers).  comp[c] = block id or -1;
    strength[b], who[b] (seat, or -1 for a gang).  Returns the number of blocks."""
    nc = np.int64(s.ncell)
    for c in range(nc):
        comp[c] = -1
    nb_ = 0
    for c0 in range(nc):
        # (a cell holding neither a hotel nor a camper on a lot starts no block: search_block is not called)
        if comp[c0] < 0 and (s.hsize[c0] > 0 or (s.die[c0] > 0 and s.cval[c0] > 0)):
            # a cell reachable from c0 is in no earlier block (it would have reached c0), so "marked nb_" = visited
            acc, owner, _ = search_block(s, p, c0, comp, nb_, s.search_stack)
            if owner >= -1:
                strength[nb_] = acc
                who[nb_] = owner
                nb_ += 1
    return nb_


@nb.njit(cache=True, _nrt=False)
def hood_control(s, p, hood, nh, best_p, best_g, winners):
    """Per neighbourhood h: best player block strength best_p[h], best gang strength best_g[h];
    winners[h, seat] = 1 if the seat has a block of strength best_p[h].  The map searched (the rules and the
    strategies read the blocks kept in the state: blocks.kept_hood_control)."""
    nbk = block_strengths(s, p, s.block_of_cell, s.block_strength, s.block_owner)
    control_of_blocks(s, hood, nh, nbk, best_p, best_g, winners)


@nb.njit(cache=True, _nrt=False)
def control_of_blocks(s, hood, nh, nbk, best_p, best_g, winners):
    """hood_control of the nbk blocks in s.block_of_cell, s.block_strength, s.block_owner."""
    comp = s.block_of_cell
    strength = s.block_strength
    who = s.block_owner
    bhood = s.block_hood
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


@nb.njit(cache=True, _nrt=False)
def hood_value(s, p, hood, h):
    v = 0
    for t in range(s.ntile):
        if hood[t] == h:
            v += np.int64(p[PTS_TILE])
            for k in range(6):
                if s.cval[t * 6 + k] == 0:
                    v += np.int64(p[PTS_PUBLIC])
    return v


@nb.njit(cache=True, _nrt=False)
def ensure_hoods(s, p):
    """Cached neighbourhood label per tile (s.t_hood) and value per neighbourhood (s.h_val) for the rules and the
    strategies: as tile_hoods and hood_value find them, kept while the map has the tiles they were found for
    (hood_nt; clear_city forgets them).  One tile more than then (the grown tile): it joins the neighbourhoods it
    touches, without a search (_hoods_grown)."""
    nt = np.int64(s.ntile)
    if s.hood_nt == nt:
        return
    if s.hood_nt >= 0 and s.hood_nt == nt - 1:
        _hoods_grown(s, p, nt - 1)
    else:
        nh = tile_hoods(s, s.t_hood)
        for h in range(nh):
            s.h_val[h] = hood_value(s, p, s.t_hood, h)
        s.n_hood = nh
    s.hood_nt = nt


@nb.njit(cache=True, _nrt=False)
def _hoods_grown(s, p, t):
    """The labels and values of ensure_hoods after tile t (the last) joined the map: the neighbourhoods it touches
    merge with it into the lowest of their labels (tile_hoods labels them in the order of their lowest tile, and t is
    the highest), the labels above each merged one move down; a tile touching none is a neighbourhood of its own,
    the last label."""
    nh = np.int64(s.n_hood)
    touch = np.int64(0)  # bit h: tile t touches neighbourhood h
    v = np.int64(p[PTS_TILE])
    for k in range(6):
        c = t * 6 + k
        if s.cval[c] == 0:
            v += np.int64(p[PTS_PUBLIC])
        x = np.int64(s.cx[c])
        y = np.int64(s.cy[c])
        for d in range(4):
            g = np.int64(s.grid[y + DY4[d], x + DX4[d]])
            if g >= 0 and g // 6 != t:
                touch |= np.int64(1) << np.int64(s.t_hood[g // 6])
    if touch == 0:
        s.t_hood[t] = nh
        s.h_val[nh] = v
        s.n_hood = nh + 1
        return
    m = np.int64(0)
    while (touch >> m) & 1 == 0:
        m += 1
    gone = 0  # merged labels below h (each moves h down one)
    for h in range(nh):
        if (touch >> h) & 1:
            if h != m:
                v += np.int64(s.h_val[h])
                gone += 1
        elif gone > 0:
            s.h_val[h - gone] = s.h_val[h]
    s.h_val[m] += v
    for u in range(t):
        h = np.int64(s.t_hood[u])
        if (touch >> h) & 1:
            s.t_hood[u] = m
        else:
            s.t_hood[u] = h - _bits_below(touch & ~(np.int64(1) << m), h)
    s.t_hood[t] = m
    s.n_hood = nh - gone


@nb.njit(cache=True, inline="always")
def _bits_below(mask, h):
    """The set bits of mask below bit h."""
    x = mask & ((np.int64(1) << h) - 1)
    k = 0
    while x != 0:
        x &= x - 1
        k += 1
    return k
