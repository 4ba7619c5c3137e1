"""Scripted Saloon Tycoon players: one greedy evaluator whose knobs (weights) make the archetypes.

Every legal action gets a value in Reputation-point equivalents; the best is taken (ties broken at random from the
policy stream).  Ending the turn is worth 0, so a player keeps taking free actions while they pay and always uses
his Tycoon action.  None of them reads hidden information (other players' hands or secret claims).

Weights (index: meaning):
 0 up        Rep-equivalent per floor above the ground when building (tall builders)
 1 out       value per Reputation point of an outer lot (wide builders)
 2 lotgold   extra weight on the lot's gold surcharge (1 = priced like any gold)
 3 claim     multiplier on a claim's points
 4 sydney    points a claim must beat to be the first one scored (Sydney Smythe costs 5 at the end)
 5 cube      extra desire per bought cube (cube rusher: drains the timer)
 6 char      multiplier on character values: special tiles' Citizens, bribes, character cards
 7 outlaw    penalty for triggering an outlaw on oneself
 8 reserve   gold kept back when buying cubes
 9 roof      extra value of finishing on the 3rd floor (roof +4 and +1 income)
10 gold      value of one gold in Rep
11 draw      value of the Draw action with a short hand
12 claimtile value of building a tile a visible claim still needs
"""
import numba as nb
import numpy as np

from sim.games.saloon_tycoon.engine import (
    ANGIE, ASTRIDE, FLATFOOT, K_BPLAY, K_BRIBE, K_BUILD, K_BUY, K_CBUILD, K_CHEAP, K_DISCARD, K_DRAW, K_DROP, K_EARN,
    K_END, K_MOVE, K_PLACE, K_PLAY, K_SKIP, K_STAKE, MAX_SEC_HAND, N_CHARS, NFLOORS, PHINEUS, SEC_KEPT, SYDNEY,
    build_cost, char_is_citizen, claim_points, count_type, cparam, income_of, kbase, lot_gold, lot_rep, total_vp,
    tparam,
)
from sim.games.saloon_tycoon.params import (
    B_ACTION, B_CITIZEN, B_CUBES, B_DRAW, B_GOLD, B_PLAY, CF_BUILD, CF_CHEAP_N, CF_CUBES, CF_DRAW, CF_EXTRA, CF_GOLD,
    CF_GOLD_INCOME, CF_MOVE, CF_STEAL_CARDS, CF_STEAL_GOLD, KF_PER, KF_TERM0, MAX_CARD_TYPES, MAX_TERMS, MAX_TILE_TYPES,
    P_ANGIE_TILES,
    P_BRIBE, P_CUBE_PRICE, P_FIN_L, P_FIN_S, P_FLAT_GOLD, P_PHIN_CUBES, P_PHIN_PRICE, P_ROOF_PTS, R_TILE_TYPE,
    TF_BONUS, TF_BONUS_N, TF_CUBES, TF_LARGE, TF_SPECIAL,
)
from sim.kernel import one_copy
from sim.rng import rand_float

W_UP, W_OUT, W_LOTGOLD, W_CLAIM, W_SYDNEY, W_CUBE, W_CHAR, W_OUTLAW, W_RESERVE, W_ROOF, W_GOLD, W_DRAW, \
    W_CLAIMTILE = range(13)
N_WEIGHTS = 13


@nb.njit(cache=True, _nrt=False, inline="always")
def _gold_value(s, seat, w):
    """Gold is worth less to a rich player (otherwise a hoard never gets spent on expensive lots)."""
    g = s.gold[seat]
    if g <= 15:
        return w[W_GOLD]
    return w[W_GOLD] * 15.0 / g


@nb.njit(cache=True, _nrt=False)
def _leader(s, seat):
    best = -1
    bv = -10**9
    for d in range(1, s.n):
        o = (seat + d) % s.n
        v = total_vp(s, o)
        if v > bv:
            bv = v
            best = o
    return best


@nb.njit(cache=True, _nrt=False, inline="always")
def _bonus_value(p, t, w):
    b = np.int64(tparam(p, t, TF_BONUS))
    n = tparam(p, t, TF_BONUS_N)
    if b == B_CUBES:
        return 1.5 * n
    if b == B_DRAW:
        return 1.0 * n
    if b == B_PLAY or b == B_ACTION:
        return 2.5
    if b == B_CITIZEN:
        return 5.0 * w[W_CHAR]
    if b == B_GOLD:
        return n * w[W_GOLD]
    return 0.0


@nb.njit(cache=True, _nrt=False, inline="always")
def _finish_value(s, p, seat, i, w):
    t = s.tt[seat, i]
    v = p[P_FIN_L] if tparam(p, t, TF_LARGE) == 1 else p[P_FIN_S]
    v += _bonus_value(p, t, w)
    if s.tf[seat, i] == NFLOORS - 1:
        v += p[P_ROOF_PTS] + 1.0 + w[W_ROOF]
    v += 1.0  # opens the space above
    return v


@nb.njit(cache=True, _nrt=False, inline="always")
def _cube_value(s, p, seat, i, w):
    t = s.tt[seat, i]
    left = tparam(p, t, TF_CUBES) - s.tc[seat, i]
    fv = _finish_value(s, p, seat, i, w)
    if left <= 1:
        return fv
    return fv / left * 0.6


@one_copy(_nrt=False)
def _can_end_now(s, p, seat, reserve_bribe):
    """Could this player still empty the timer pile this turn (after a bribe)?  Then a stolen Citizen stays stolen
    (the others cannot move characters in their final turns)."""
    price = p[P_PHIN_PRICE] if s.char_owner[PHINEUS] == seat else p[P_CUBE_PRICE]
    if s.gold[seat] - (p[P_BRIBE] if reserve_bribe else 0) < s.pile * price:
        return False
    space = 0
    for i in range(s.ntile[seat]):
        space += tparam(p, s.tt[seat, i], TF_CUBES) - s.tc[seat, i]
    return space >= s.pile


@nb.njit(cache=True, _nrt=False, inline="always")
def _late(s, p, seat):
    """_can_end_now(s, p, seat, True) computed at most once per choose call (cached in s.ai_late; -1 = not yet)."""
    if s.ai_late < 0:
        s.ai_late = 1 if _can_end_now(s, p, seat, True) else 0
    return s.ai_late == 1


@nb.njit(cache=True, _nrt=False, inline="always")
def _leader_c(s, seat):
    """_leader(s, seat) computed at most once per choose call (cached in s.ai_leader; -2 = not yet)."""
    if s.ai_leader == -2:
        s.ai_leader = _leader(s, seat)
    return s.ai_leader


@nb.njit(cache=True, _nrt=False, inline="always")
def _move_value(s, p, seat, c, d, w):
    """Value to `seat` of moving character c to saloon d.  Only called from choose (uses its per-call caches)."""
    o = s.char_owner[c]
    if char_is_citizen(p, c):
        if d == seat and o != seat:
            # a Citizen stolen early is stolen back: only worth it near the end
            return 8.0 * w[W_CHAR] * (1.0 if _late(s, p, seat) else 0.1)
        return -20.0
    if o == seat and d != seat:
        sev = 3.0
        if c == SYDNEY:
            sev = 5.0 if _late(s, p, seat) else 1.5
        bonus = 1.0 if d == _leader_c(s, seat) else 0.3
        return sev * w[W_CHAR] * bonus
    return -20.0


@nb.njit(cache=True, _nrt=False)
def _best_move(s, p, seat, w):
    """Best character move value, computed at most once per choose call (cached in s.ai_bm; -1 = not yet)."""
    if s.ai_bm >= 0.0:
        return s.ai_bm
    best = 0.0
    for c in range(N_CHARS):
        if s.char_owner[c] < 0:
            continue
        for d in range(s.n):
            if d != s.char_owner[c]:
                v = _move_value(s, p, seat, c, d, w)
                if v > best:
                    best = v
    s.ai_bm = best
    return best


@nb.njit(cache=True, _nrt=False, inline="always")
def _card_value(s, p, seat, c, w, gv):
    v = cparam(p, c, CF_GOLD) * gv
    v += cparam(p, c, CF_CUBES) * 1.5
    if cparam(p, c, CF_GOLD_INCOME) == 1:
        v += income_of(s, seat) * gv
    v += cparam(p, c, CF_EXTRA) * 1.8
    v += cparam(p, c, CF_CHEAP_N) * 0.8
    if cparam(p, c, CF_BUILD) == 1:
        v += 3.0
    v += cparam(p, c, CF_STEAL_GOLD) * gv * 1.5
    v += cparam(p, c, CF_STEAL_CARDS) * 0.8
    if cparam(p, c, CF_MOVE) == 1:
        v += _best_move(s, p, seat, w)
    v += cparam(p, c, CF_DRAW) * 0.7
    return v


@nb.njit(cache=True, _nrt=False)
def _worst_card(s, p, seat, w, skip, gv):
    best = 1e9
    for c in range(MAX_CARD_TYPES):
        k = s.hand[seat, c] - (1 if c == skip else 0)
        if k > 0:
            v = _card_value(s, p, seat, c, w, gv)
            if v < best:
                best = v
    return 0.0 if best == 1e9 else best


@nb.njit(cache=True, _nrt=False, inline="always")
def _build_value(s, p, seat, arg, ignore_lot, discount, w, gv):
    t = arg // 1000
    f = (arg // 100) % 10
    fp = arg % 100
    cost = build_cost(p, t, f, fp, ignore_lot, discount)
    lg = 0 if ignore_lot else lot_gold(p, f, fp)
    fin = p[P_FIN_L] if tparam(p, t, TF_LARGE) == 1 else p[P_FIN_S]
    v = 0.5 * fin + 2.0 + _bonus_value(p, t, w) * 0.5
    v += w[W_UP] * f
    v += w[W_OUT] * lot_rep(p, f, fp)
    v += w[W_CUBE] * 0.5 * tparam(p, t, TF_CUBES) / (1.0 + cost)   # the rusher wants cheap cube spaces
    v -= cost * gv + lg * gv * (w[W_LOTGOLD] - 1.0)
    if f == NFLOORS - 1:
        v += w[W_ROOF]
    if tparam(p, t, TF_SPECIAL) == 1:
        v += w[W_CHAR] * 2.0
    v += w[W_CLAIMTILE] * s.ai[t]
    if s.char_owner[ANGIE] < 0 and s.built[seat] + 1 >= p[P_ANGIE_TILES] and s.pile > 2 * s.n:
        v -= w[W_OUTLAW]
    return v


@nb.njit(cache=True, _nrt=False, inline="always")
def _value(s, p, seat, a, w, n_legal, gv):
    kind = a // ASTRIDE
    arg = a % ASTRIDE
    if kind == K_END or kind == K_SKIP:
        return 0.0
    if kind == K_EARN:
        v = 2.0 * gv
        if s.char_owner[FLATFOOT] < 0 and s.gold[seat] < p[P_FLAT_GOLD] <= s.gold[seat] + 2:
            v -= w[W_OUTLAW]
        return v
    if kind == K_DRAW:
        return w[W_DRAW] if s.hand_n[seat] <= 3 else 0.1 * w[W_DRAW]
    if kind == K_PLAY or kind == K_BPLAY:
        v = _card_value(s, p, seat, arg, w, gv)
        if kind == K_PLAY and s.char_owner[ANGIE] == seat:
            v -= _worst_card(s, p, seat, w, arg, gv)
        return v
    if kind == K_BUILD:
        return _build_value(s, p, seat, arg, False, 0, w, gv)
    if kind == K_CBUILD:
        top = s.tk_n - 1
        return _build_value(s, p, seat, arg, s.tk[top, 1] == 1, s.tk[top, 2], w, gv) + 1.0
    if kind == K_BRIBE or kind == K_MOVE:
        v = _move_value(s, p, seat, arg // 10, arg % 10, w)
        if kind == K_BRIBE:
            v -= p[P_BRIBE] * gv
        return v
    if kind == K_BUY or kind == K_CHEAP:
        if kind == K_BUY:
            price = p[P_PHIN_PRICE] if s.char_owner[PHINEUS] == seat else p[P_CUBE_PRICE]
            if s.gold[seat] - price < w[W_RESERVE]:
                return -1.0
        else:
            price = s.tk[s.tk_n - 1, 2]
        v = _cube_value(s, p, seat, arg, w) + w[W_CUBE] - price * gv
        if w[W_CUBE] > 0 and s.end_trig == 0 and _can_end_now(s, p, seat, False):
            v += 2.0 * w[W_CUBE]       # the rusher ends the game himself when it can
        # dodge Phineus only while building is an alternative (else every careful player waits: a standoff)
        if s.char_owner[PHINEUS] < 0 and s.cubes_board[seat] + 1 >= p[P_PHIN_CUBES] and s.ai[0] > 0:
            v -= w[W_OUTLAW]
        return v
    if kind == K_PLACE:
        return _cube_value(s, p, seat, arg, w)
    if kind == K_STAKE:
        pts = claim_points(s, p, seat, arg)
        v = w[W_CLAIM] * pts
        if s.char_owner[SYDNEY] < 0 and s.end_trig == 0:
            v -= w[W_SYDNEY]
        return v
    if kind == K_DISCARD:
        return -_card_value(s, p, seat, arg, w, gv)
    if kind == K_DROP:
        return -_claim_prospect(s, p, seat, arg)
    return 0.0


@nb.njit(cache=True, _nrt=False)
def _claim_prospect(s, p, seat, g):
    """Points a claim is expected to score: its points, or for a per-character claim (Poker Night) the characters
    held now plus an even share of those still in no saloon.  Its value now would be 0 at setup, so the claim that
    grows was always the one dropped."""
    per = np.int64(p[kbase(g) + KF_PER])
    if per == 0:
        return np.float64(claim_points(s, p, seat, g))
    held = 0
    free = 0
    for c in range(N_CHARS):
        if s.char_owner[c] == seat:
            held += 1
        elif s.char_owner[c] < 0:
            free += 1
    return per * (held + free / s.n)


@nb.njit(cache=True, _nrt=False)
def _prepare_claim_interest(s, p, seat):
    """s.ai[t] = claim points (own secret claims, half for open ones) still wanting one more tile of type t."""
    for t in range(MAX_TILE_TYPES):
        s.ai[t] = 0.0
    for j in range(MAX_SEC_HAND):
        if s.sec_state[seat, j] == SEC_KEPT:
            _add_interest(s, p, seat, s.sec[seat, j], 1.0)
    for g in range(s.n_open_up):
        gid = s.open_ids[g]
        if s.claim_by[gid] < 0:
            _add_interest(s, p, seat, gid, 0.5)


@nb.njit(cache=True, _nrt=False)
def _add_interest(s, p, seat, g, share):
    base = kbase(g)
    for j in range(MAX_TERMS):
        if np.int64(p[base + KF_TERM0 + 3 * j]) == R_TILE_TYPE:
            t = np.int64(p[base + KF_TERM0 + 3 * j + 1])
            if 0 <= t < MAX_TILE_TYPES and count_type(s, seat, t) < p[base + KF_TERM0 + 3 * j + 2]:
                s.ai[t] += claim_points(s, p, seat, g) * 0.5 * share


@nb.njit(cache=True, _nrt=False)
def choose(s, p, seat, legal, n, sid, weights):
    # s.ai[t]: claim interest per tile type; s.ai[0] (the Saloon, never built) > 0 flags that a build is legal now
    for t in range(MAX_TILE_TYPES):
        s.ai[t] = 0.0
    # per-call caches of values that do not change while one decision is evaluated
    s.ai_late = -1
    s.ai_leader = -2
    s.ai_bm = -1.0
    for k in range(n):
        kind = legal[k] // ASTRIDE
        if kind == K_BUILD or kind == K_CBUILD:
            _prepare_claim_interest(s, p, seat)
            s.ai[0] = 1.0
            break
    gv = _gold_value(s, seat, weights)   # the same for every action of this decision
    best = 0
    bv = -1e18
    for k in range(n):
        v = _value(s, p, seat, legal[k], weights, n, gv) + 1e-6 * rand_float(s.rng, 1)
        if v > bv:
            bv = v
            best = k
    return best
