"""The blocks and street gangs kept in the state, so that the scoring round and the strategies read them instead of
searching the map (scoring.block_strengths) at every use.

Kept fields: per cell its block id (kb_of, -1 for none) and what it adds to its block's strength (kb_part); per
block id its strength (kb_str), its seat or -1 for a gang (kb_who) and one of its cells (kb_cell, -1: the id is
free); ids below kb_n are in use or free, the freed ones listed in kb_free[:kb_nfree] and taken first.  kb_ok = 0
says the kept blocks are not known: clear_city sets it (a new game, or a map built by hand), and the first reader
searches the whole map once.  While kb_ok = 1 the rules call changed(s, p, c) right after each change to what a
cell holds (a die, a hotel's owner or size): a die that only changes a block's strength, a lone cell joining or
leaving no other, a cell joining one block are updated in place; anything else (a block split or two merged)
searches the blocks through the cell and its neighbours again.  The ids are not those of block_strengths;
kept_blocks numbers them as it does (in the order of their lowest cell), so every reader sees the same blocks in
the same order, and kept_hood_control reads them by id (the control of a neighbourhood does not depend on it).
"""

import numba as nb
import numpy as np

from .city import neighbour
from .params import BLOCK_RULE, EMPTY_RULE
from .scoring import block_strengths, die_strength, search_block
from .state import CMAX, MP

FRESH = 5  # ids one change may take (the cell and its four neighbours)


@nb.njit(cache=True, inline="always")
def holder(s, c):
    """What cell c holds as far as blocks go: a hotel's owner, -1 for a camper on a lot, -2 for neither."""
    if s.hsize[c] > 0:
        return np.int64(s.owner[c])
    if s.die[c] > 0 and s.cval[c] > 0:
        return np.int64(-1)
    return np.int64(-2)


@nb.njit(cache=True, inline="always")
def part(s, p, c):
    """What cell c adds to its block's strength, as search_block folds it: its die, or its size where empty hotels
    add it."""
    if s.die[c] > 0:
        return die_strength(p, np.int64(s.die[c]), 0)
    if s.hsize[c] > 0 and p[EMPTY_RULE] == 1:
        return die_strength(p, np.int64(s.hsize[c]), 0)
    return np.int64(0)


@nb.njit(cache=True, _nrt=False)
def rebuild(s, p):
    """Search the whole map: the kept blocks from scratch (kb_ok = 1)."""
    nc = np.int64(s.ncell)
    nbk = block_strengths(s, p, s.kb_of, s.kb_str, s.kb_who)
    for b in range(nbk):
        s.kb_cell[b] = -1
    for c in range(nc):
        s.kb_part[c] = part(s, p, c)
        b = s.kb_of[c]
        if b >= 0 and s.kb_cell[b] < 0:
            s.kb_cell[b] = c
    s.kb_n = nbk
    s.kb_nfree = 0
    s.kb_ok = 1


@nb.njit(cache=True, inline="always")
def _new_id(s):
    """A block id no cell has: one freed earlier (kb_free), else the next unused."""
    k = np.int64(s.kb_nfree)
    if k > 0:
        s.kb_nfree = k - 1
        return np.int64(s.kb_free[k - 1])
    b = np.int64(s.kb_n)
    s.kb_n = b + 1
    return b


@nb.njit(cache=True, inline="always")
def _free(s, b):
    """Block id b freed (no cell has it any more)."""
    s.kb_cell[b] = -1
    s.kb_free[s.kb_nfree] = b
    s.kb_nfree += 1


@nb.njit(cache=True, inline="always")
def _fresh(s, b, c, who, st):
    """Block id b: cell c's block, of seat who (-1: a gang) and strength st."""
    s.kb_of[c] = b
    s.kb_str[b] = st
    s.kb_who[b] = who
    s.kb_cell[b] = c


@nb.njit(cache=True, _nrt=False)
def _search_again(s, p, c, b):
    """The blocks through cell c searched again (c changed what it holds and was in block b, or -1): b and the blocks
    c joins are taken apart (kb_cell -1, their ids listed in kb_map), then searched from c and from each neighbour
    still in one of them (a part of b after a split).  Every cell of those blocks is reached from one of them (a
    path to c ends at a neighbour), so no scan of the map is needed; their ids are freed once all are searched."""
    new = holder(s, c)
    s.kb_of[c] = -1
    gone = s.kb_map
    ng = 0
    if b >= 0:
        s.kb_cell[b] = -1
        gone[0] = b
        ng = 1
    for d in range(4):
        q = neighbour(s, c, d)
        if q >= 0:
            bq = np.int64(s.kb_of[q])
            if bq >= 0 and s.kb_cell[bq] >= 0 and new >= -1 and s.kb_who[bq] == new:
                s.kb_cell[bq] = -1
                gone[ng] = bq
                ng += 1
    for d in range(-1, 4):
        q = c if d < 0 else neighbour(s, c, d)
        if q < 0:
            continue
        if d < 0:
            go = new >= -1
        else:
            bq = np.int64(s.kb_of[q])
            go = bq >= 0 and s.kb_cell[bq] < 0  # in a block taken apart, not reached by an earlier search
        if go:
            k = _new_id(s)
            st, who, _ = search_block(s, p, q, s.kb_of, k, s.search_stack)
            _fresh(s, k, q, who, st)
    for i in range(ng):
        _free(s, np.int64(gone[i]))


@nb.njit(cache=True, _nrt=False)
def changed(s, p, c):
    """Cell c has just changed what it holds (one cell at a time): the kept blocks updated (while kb_ok)."""
    if s.kb_ok == 0:
        return
    if np.int64(s.kb_n) > CMAX - FRESH:  # the ids run out: searched afresh, numbered anew
        rebuild(s, p)
        return
    new = holder(s, c)
    pt = part(s, p, c)
    was = np.int64(s.kb_part[c])
    s.kb_part[c] = pt
    b = np.int64(s.kb_of[c])
    top = p[BLOCK_RULE] == 2
    if b >= 0 and s.kb_who[b] == new:  # the same kind in the same block: only its strength changes
        if not top:
            s.kb_str[b] += pt - was
        elif pt >= s.kb_str[b]:
            s.kb_str[b] = pt
        elif was == s.kb_str[b]:  # the highest die may have left: the block's highest part again
            st = np.int64(0)
            for q in range(np.int64(s.ncell)):
                if s.kb_of[q] == b:
                    st = max(st, np.int64(s.kb_part[q]))
            s.kb_str[b] = st
        return
    if b >= 0:  # c leaves its block: alone in it, the block goes; else it may split
        for d in range(4):
            g = neighbour(s, c, d)
            if g >= 0 and s.kb_of[g] == b:
                _search_again(s, p, c, b)
                return
        _free(s, b)
        s.kb_of[c] = -1
    if new < -1:
        return
    join = np.int64(-1)  # the block c joins, if one
    for d in range(4):
        g = neighbour(s, c, d)
        if g >= 0:
            bg = np.int64(s.kb_of[g])
            if bg >= 0 and s.kb_who[bg] == new:
                if join >= 0 and bg != join:  # two blocks merge
                    _search_again(s, p, c, -1)
                    return
                join = bg
    if join < 0:
        _fresh(s, _new_id(s), c, new, pt)
        return
    s.kb_of[c] = join
    s.kb_str[join] = max(s.kb_str[join], pt) if top else s.kb_str[join] + pt


@nb.njit(cache=True, _nrt=False)
def kept_blocks(s, p, comp, strength, who):
    """block_strengths from the kept blocks (searched once if not known): comp[c] = block id or -1, strength[b],
    who[b], the blocks numbered as block_strengths does (in the order of their lowest cell).  Returns their number."""
    if s.kb_ok == 0:
        rebuild(s, p)
    nb_ = np.int64(s.kb_n)
    new = s.kb_map
    for b in range(nb_):
        new[b] = -1
    k = 0
    for c in range(np.int64(s.ncell)):
        b = np.int64(s.kb_of[c])
        if b >= 0:
            if new[b] < 0:
                new[b] = k
                strength[k] = s.kb_str[b]
                who[k] = s.kb_who[b]
                k += 1
            comp[c] = new[b]
        else:
            comp[c] = -1
    return k


@nb.njit(cache=True, _nrt=False)
def kept_hood_control(s, p, hood, nh, best_p, best_g, winners):
    """scoring.hood_control from the kept blocks (searched once if not known), read by block id: a block's
    neighbourhood is that of any of its cells (they touch, so their tiles are in one neighbourhood)."""
    if s.kb_ok == 0:
        rebuild(s, p)
    for h in range(nh):
        best_p[h] = 0
        best_g[h] = 0
        for i in range(MP):
            winners[h, i] = 0
    nb_ = np.int64(s.kb_n)
    for b in range(nb_):
        c = np.int64(s.kb_cell[b])
        if c >= 0:
            h = hood[c // 6]
            if s.kb_who[b] < 0:
                best_g[h] = max(best_g[h], s.kb_str[b])
            else:
                best_p[h] = max(best_p[h], s.kb_str[b])
    for b in range(nb_):
        c = np.int64(s.kb_cell[b])
        if c >= 0 and s.kb_who[b] >= 0:
            h = hood[c // 6]
            if s.kb_str[b] == best_p[h] and best_p[h] > 0:
                winners[h, s.kb_who[b]] = 1
