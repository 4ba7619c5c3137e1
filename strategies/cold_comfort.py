"""Scripted heuristics for Cold Comfort.  Every strategy scores each legal action with the same feature terms and
plays the best (random tie-break from the policy stream); the archetypes differ in their weights and in a few
sid-specific rules.  Weight slots (all knobs, see the presets in sim/games/cold_comfort/__init__.py):

  0 W_GOLD     value of a dollar (costs count half: a hotel keeps earning)
  1 W_GUEST    value per pip of a guest (income at the next Collect)
  2 W_BLOCK    value of growing a block: per own hotel next to the square, and per pip a guest adds
  3 W_HOOD     value per neighbourhood point where it builds / where a grown tile lands next to its lead
  4 W_MINE     bias for Mine (on top of the expected 3.5 gold)
  5 W_FIRE     value per rival hotel next to an own empty hotel it could burn (and of passing fire to rivals)
  6 W_BUILD    bias for building a new hotel
  7 W_END      value of ending the turn (actions must beat it)
  8 W_NEAR     placement: value of the grown tile's highest lot being near its own empty hotels
  9 W_RESERVE  gold it keeps: spending below this costs W_GOLD per dollar short
 10 W_SIZE     value per size of a newly built hotel
 11 W_FIRESELF cost per size of burning its own hotel

sid 1 builder, 2 host, 3 miner, 4 arsonist, 5 saver.  None reads hidden information (the game has none).
Shared sub-policies: passing a fire goes to the leader's empty hotel, then any rival's, then an occupied rival
hotel, then a public building (stopping it), its own hotels last (note section 3.4).  Breaking a landing tie puts
the die in its own hotel, else on a vacant lot (next to its hotels if it can), else in the weakest rival's hotel
(the note's "then the leader's" would hand the leader a paying guest; this bot does not).  The arsonist only sets
fires that reach a rival hotel.
"""
import numba as nb
import numpy as np

from sim.games.cold_comfort.engine import (A_BUILD, A_BUILD_CAMPER, A_END, A_FIRE, A_HOST, A_LAND, A_MINE, A_PASS,
                                           A_PLACE, A_RESIZE, A_STOP, CMAX, DEBRUIJN, DEBRUIJN_IDX, DX4, DY4, G, MP,
                                           OFF_U, OFF_V, TMAX, arg_of, cell_at, ensure_hoods, hood_control, kind_of)
from sim.games.cold_comfort.params import COST_BUILD, COST_CAMPER, COST_DOWN, COST_UP, FIRE_INS, TILE_VALS
from sim.rng import rand_float

assert G == 64                                            # choose() decodes grid positions with shifts
HIGH_K = np.argmax(TILE_VALS, axis=1).astype(np.int64)   # per deck tile: square of its highest lot (first if tied)
INV1 = 1.0 / (1.0 + np.arange(4 * G, dtype=np.float64))  # INV1[d] = 1 / (1 + d), bit-identical to the division
W_GOLD, W_GUEST, W_BLOCK, W_HOOD, W_MINE, W_FIRE, W_BUILD, W_END, W_NEAR, W_RESERVE, W_SIZE, W_FIRESELF = range(12)
SID_BUILDER, SID_HOST, SID_MINER, SID_ARSONIST, SID_SAVER = 1, 2, 3, 4, 5


@nb.njit(cache=True, inline="always")
def own_adjacent(s, c, seat):
    """Own hotels orthogonally next to cell c."""
    x = np.int64(s.cx[c])
    y = np.int64(s.cy[c])
    k = 0
    for d in range(4):                    # branch-free: a square that is no cell reads cell 0 and counts nothing
        g = np.int64(s.grid[y + DY4[d], x + DX4[d]])
        gg = g if g >= 0 else 0
        k += np.int64((g >= 0) & (s.hsize[gg] > 0) & (s.owner[gg] == seat))
    return k


@nb.njit(cache=True, inline="always")
def rival_adjacent(s, c, seat, occupied):
    x = np.int64(s.cx[c])
    y = np.int64(s.cy[c])
    k = 0
    for d in range(4):
        g = np.int64(s.grid[y + DY4[d], x + DX4[d]])
        if g >= 0 and s.hsize[g] > 0 and s.owner[g] != seat and s.hbuilt[g] != s.turn:
            if (s.die[g] > 0) == occupied:
                k += 1
    return k


@nb.njit(cache=True)
def leader(s, seat):
    best = -1
    who = -1
    for i in range(s.n):
        if i != seat:
            v = s.vp[i] * 5 + s.gold[i]
            if v > best:
                best = v
                who = i
    return who


# The scoring helpers take the record and scalars only (the seat's weights are copied into s.scr_w, the rule
# numbers they need are passed by value): array arguments would cost reference-count updates on every option.
@nb.njit(cache=True)
def reserve_penalty(s, seat, cost):
    w = s.scr_w
    left = s.gold[seat] - cost
    if left < w[W_RESERVE]:
        return w[W_GOLD] * (w[W_RESERVE] - left)
    return 0.0


@nb.njit(cache=True)
def score_main(s, seat, a, sid, cost_build, cost_camper, cost_up, cost_down, fire_ins):
    w = s.scr_w
    camp = s.scr_camp
    k = kind_of(a)
    arg = arg_of(a)
    if k == A_END:
        return w[W_END]
    if k == A_MINE:
        return w[W_MINE] + 3.5 * w[W_GOLD]
    if k == A_HOST:
        h = cell_at(s, arg >> 12)
        c = cell_at(s, arg & 4095)
        v = np.float64(s.die[c])
        return w[W_GUEST] * v + w[W_BLOCK] * 0.5 * v * (1.0 + own_adjacent(s, h, seat))
    if k == A_BUILD or k == A_BUILD_CAMPER:
        c = cell_at(s, arg >> 3)
        v = np.int64(arg & 7)
        per = cost_build if k == A_BUILD else cost_camper
        cost = per * v
        sc = w[W_BUILD] + w[W_SIZE] * v - 0.5 * w[W_GOLD] * cost - reserve_penalty(s, seat, cost)
        sc += w[W_BLOCK] * own_adjacent(s, c, seat)
        sc += w[W_HOOD] * 0.5 * s.h_val[s.t_hood[c // 6]]
        if k == A_BUILD_CAMPER:
            sc += (w[W_GUEST] + 0.5 * w[W_BLOCK]) * v
        elif camp[v] > 0:
            sc += 0.5 * w[W_GUEST] * v
        return sc
    if k == A_RESIZE:
        h = cell_at(s, arg >> 3)
        ns = np.int64(arg & 7)
        hs = np.int64(s.hsize[h])
        cost = (ns - hs) * cost_up if ns > hs else (hs - ns) * cost_down
        sc = -0.5 * w[W_GOLD] * cost - reserve_penalty(s, seat, cost) - 0.5
        if camp[ns] > 0:
            sc += w[W_GUEST] * ns
        if camp[hs] > 0:
            sc -= w[W_GUEST] * hs
        return sc
    if k == A_FIRE:
        h = cell_at(s, arg)
        hs = np.float64(s.hsize[h])
        re = rival_adjacent(s, h, seat, False)
        ro = rival_adjacent(s, h, seat, True)
        sc = w[W_FIRE] * (re + 0.6 * ro) + (w[W_GOLD] * fire_ins - w[W_FIRESELF]) * hs
        sc -= w[W_BLOCK] * own_adjacent(s, h, seat)
        if sid == SID_ARSONIST and re + ro == 0:
            sc -= 5.0                     # burns only to reach rivals
        return sc
    return 0.0


@nb.njit(cache=True)
def score_pass(s, seat, a, w_fire, lead):
    if kind_of(a) == A_STOP:
        return 0.4
    c = cell_at(s, arg_of(a))
    if s.hsize[c] == 0:
        return 0.5                        # a public building stops it
    o = np.int64(s.owner[c])
    if o == seat:
        return -5.0 - s.hsize[c]
    sc = 2.0 if s.die[c] == 0 else 1.5
    if o == lead:
        sc += 2.0
    return sc + 0.1 * s.hsize[c] + 0.5 * w_fire


@nb.njit(cache=True)
def choose(s, p, seat, legal, n, sid, weights):
    w = weights
    best = -1e300
    pick = 0
    ties = 0
    k0 = kind_of(legal[0])
    if k0 == A_END or k0 == A_MINE or k0 == A_HOST or k0 == A_BUILD or k0 == A_BUILD_CAMPER or k0 == A_RESIZE \
            or k0 == A_FIRE:
        n1 = n2 = n3 = n4 = n5 = n6 = 0       # campers per value (counted branch-free)
        for c in range(s.ncell):
            d = np.int64(s.die[c]) * np.int64(s.hsize[c] == 0)
            n1 += np.int64(d == 1)
            n2 += np.int64(d == 2)
            n3 += np.int64(d == 3)
            n4 += np.int64(d == 4)
            n5 += np.int64(d == 5)
            n6 += np.int64(d == 6)
        camp = s.scr_camp
        camp[0] = 0
        camp[1] = n1
        camp[2] = n2
        camp[3] = n3
        camp[4] = n4
        camp[5] = n5
        camp[6] = n6
        ensure_hoods(s, p)
        for j in range(12):
            s.scr_w[j] = w[j]
        cost_build = p[COST_BUILD]
        cost_camper = p[COST_CAMPER]
        cost_up = p[COST_UP]
        cost_down = p[COST_DOWN]
        fire_ins = p[FIRE_INS]
        for i in range(n):
            sc = score_main(s, seat, legal[i], sid, cost_build, cost_camper, cost_up, cost_down, fire_ins)
            if sc > best + 1e-9:
                best = sc
                pick = i
                ties = 1
            elif sc > best - 1e-9:
                ties += 1
                if rand_float(s.rng, 1) * ties < 1.0:
                    pick = i
        return pick
    if k0 == A_PASS or k0 == A_STOP:
        lead = leader(s, seat)
        w_fire = w[W_FIRE]
        for i in range(n):
            sc = score_pass(s, seat, legal[i], w_fire, lead)
            if sc > best + 1e-9:
                best = sc
                pick = i
                ties = 1
            elif sc > best - 1e-9:
                ties += 1
                if rand_float(s.rng, 1) * ties < 1.0:
                    pick = i
        return pick
    if k0 == A_LAND:
        for i in range(n):
            c = cell_at(s, arg_of(legal[i]) // 8)
            if s.hsize[c] > 0:
                o = np.int64(s.owner[c])
                sc = 10.0 if o == seat else -1.0 - 0.1 * (s.vp[o] * 5 + s.gold[o])
            else:
                sc = 0.5 * own_adjacent(s, c, seat)
            if sc > best + 1e-9:
                best = sc
                pick = i
                ties = 1
            elif sc > best - 1e-9:
                ties += 1
                if rand_float(s.rng, 1) * ties < 1.0:
                    pick = i
        return pick
    # A_PLACE: near own empty hotels, next to neighbourhoods it leads, away from rivals' leads
    ensure_hoods(s, p)
    hood = s.t_hood
    nh = np.int64(s.n_hood)
    best_p = np.zeros(TMAX, np.int64)
    best_g = np.zeros(TMAX, np.int64)
    winners = np.zeros((TMAX, MP), np.int64)
    hood_control(s, p, hood, nh, best_p, best_g, winners)
    lead_mine = np.zeros(TMAX, np.float64)
    for h in range(nh):
        if best_p[h] >= best_g[h] and best_p[h] > 0:
            others = 0
            for i in range(s.n):
                if i != seat:
                    others += winners[h, i]
            lead_mine[h] = (1.0 if winners[h, seat] else 0.0) - (1.0 if others > 0 else 0.0)
    hx = np.empty(CMAX, np.int64)
    hy = np.empty(CMAX, np.int64)
    nhot = 0
    for c in range(s.ncell):
        if s.hsize[c] > 0 and s.die[c] == 0 and s.owner[c] == seat:
            hx[nhot] = s.cx[c]
            hy[nhot] = s.cy[c]
            nhot += 1
    use_hood = w[W_HOOD] != 0.0
    # every placement square lies within the map's bounding box grown by 4 (enum_places): local arrays over it
    x0 = np.int64(s.minx) - 4
    y0 = np.int64(s.miny) - 4
    bw = np.int64(s.maxx) + 5 - x0
    bh = np.int64(s.maxy) + 5 - y0
    # flat arrays over that box, square (x, y) at (y - y0) * bw + (x - x0)
    memo = np.full(bh * bw, -1.0)             # near() of a highest-lot square, once computed (same sum, same order)
    adj = np.zeros(bh * bw, np.int32)         # bit h set: the square touches a tile of neighbourhood h
    offs = np.empty((4, 6), np.int64)         # flat offset of each footprint square from the south-west corner
    for r in range(4):
        for k in range(6):
            offs[r, k] = OFF_V[r, k] * bw + OFF_U[r, k]
    if use_hood:
        for c in range(s.ncell):
            q = (np.int64(s.cy[c]) - y0) * bw + np.int64(s.cx[c]) - x0
            bit = np.int32(1 << np.int64(hood[c // 6]))
            for d in range(4):
                adj[q + DY4[d] * bw + DX4[d]] |= bit
    for i in range(n):
        arg = arg_of(legal[i])             # >= 0: the divisions below are shifts and masks (G = 64)
        pos = arg & 4095
        tr = arg >> 12
        tid = tr >> 2
        rot = tr & 3
        ax = pos & 63
        ay = pos >> 6
        bk = HIGH_K[tid]
        ox = ax + OFF_U[rot, bk]
        oy = ay + OFF_V[rot, bk]
        q0 = (ay - y0) * bw + (ax - x0)
        qo = q0 + offs[rot, bk]
        near = memo[qo]
        if near < 0.0:
            near = 0.0
            for j in range(nhot):
                near += INV1[abs(hx[j] - ox) + abs(hy[j] - oy)]
            memo[qo] = near
        sc = w[W_NEAR] * near
        if use_hood:
            m = np.int64(0)
            for k in range(6):
                m |= np.int64(adj[q0 + offs[rot, k]])
            while m != 0:                  # the set bits in increasing h
                low = m & -m
                m ^= low
                sc += w[W_HOOD] * lead_mine[DEBRUIJN_IDX[((low * DEBRUIJN) >> 58) & 63]]
        if sc > best + 1e-9:
            best = sc
            pick = i
            ties = 1
        elif sc > best - 1e-9:
            ties += 1
            if rand_float(s.rng, 1) * ties < 1.0:
                pick = i
    return pick
