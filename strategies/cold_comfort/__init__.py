"""Scripted heuristics for Cold Comfort.  Every strategy scores each legal action with the same feature terms and
plays the best (random tie-break from the policy stream); the archetypes differ in their weights and in a few
sid-specific rules.  Weight slots (all knobs: the table K and the presets PRESETS below):

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
 10 W_SIZE     value per size of a newly built hotel, and per size a resize adds (scaled by the horizon)
 11 W_FIRESELF cost per size of burning its own hotel
 12 W_ENDGAME  end-game look-ahead, 0..1 (0 = none).  On a main or fire decision that must be the seat's last
               (last_turn) and on placing the tile that starts the final scoring round, a move's score becomes
               (1 - k) x its usual score + k x (the change it makes to the seat's projected final margin over the
               best rival, in gold units (W_GOLD x end.gold_per_point per point), + ENDGAME_EPS x its usual score)
 13 W_HORIZON  turns a new hotel needs to pay back (0 = off): the build bias, the size value, the later-guest value
               of building and resizing scale by h = min(1, expected own turns after this one / W_HORIZON), and
               their cost counts (1 - h / 2) instead of half
 14 W_CAMPERCOST  share k of a camper lot's surcharge, (cost.build_on_camper_per_value - cost.build_per_value) x
               size, counted in full: it buys one guest, not a hotel that keeps earning, so it counts (1 - h / 2) +
               k h / 2 of its gold instead of the build cost's (1 - h / 2) (0 = the old bots)

sid 1 builder, 2 host, 3 miner, 4 arsonist, 5 saver.  None reads hidden information (the undrawn deck order).
Shared sub-policies: passing a fire goes to the leader's empty hotel, then any rival's, then an occupied rival
hotel, then a public building (stopping it), its own hotels last (note section 3.4).  Breaking a landing tie puts
the die in its own hotel, else on a vacant lot (next to its hotels if it can), else in the weakest rival's hotel
(the note's "then the leader's" would hand the leader a paying guest; this bot does not).  The arsonist only sets
fires that reach a rival hotel (before its last turn, where W_ENDGAME decides).
"""

import sim

sim.use_game_cache("sim.games.cold_comfort")  # these bots compile into their game's cache (sim/__init__.py)

import numba as nb
import numpy as np

from sim.games.cold_comfort.actions import (
    A_BUILD,
    A_BUILD_CAMPER,
    A_END,
    A_FIRE,
    A_HOST,
    A_LAND,
    A_MINE,
    A_PASS,
    A_RESIZE,
    A_STOP,
    camper_of,
    encode_build,
    encode_build_camper,
    encode_fire,
    encode_host,
    encode_mine,
    encode_place,
    encode_resize,
    fire_ok,
    kind_of,
    main_cells,
    place_corners,
    place_rows,
    place_span,
    pos_of,
    resize_ok,
    rot_of,
    size_of,
    tile_of,
)
from sim.games.cold_comfort.city import (
    DX4,
    DY4,
    OFF_U,
    OFF_V,
    cell_at,
    cell_pos,
    neighbour,
    streets_ok,
)
from sim.games.cold_comfort.blocks import kept_blocks, kept_hood_control
from sim.games.cold_comfort.scoring import die_strength, ensure_hoods, search_block
from sim.games.cold_comfort.state import (
    LOOK_COLS,
    LOOK_ROWS,
    MP,
    PH_MAIN,
    PH_PLACE,
    PLACE_BOX,
    PLACE_MEMO,
    SIZES,
    TMAX,
    G,
)
from sim.games.cold_comfort.params import (
    BLOCK_RULE,
    COST_BUILD,
    COST_CAMPER,
    COST_DOWN,
    COST_UP,
    EMPTY_RULE,
    FIRE_INS,
    FIRE_OCC,
    FIRE_PASS,
    GOLD_PER_VP,
    GROW_BASE,
    GROW_RULE,
    N_DECK,
    PTS_PUBLIC,
    PTS_TILE,
    RESIZED_NEW,
    ROUNDS,
    TILE_VALS,
)
from sim.kernel import one_copy
from sim.knobs import KnobTable, Preset, strategies
from sim.rng import GOLDEN, float_of, rand_float
from sim.toolkit import low_bit

assert G == 64  # choose() decodes grid positions with shifts
HIGH_K = np.argmax(TILE_VALS, axis=1).astype(np.int64)  # per deck tile: square of its highest lot (first if tied)
INV1 = 1.0 / (1.0 + np.arange(4 * G, dtype=np.float64))  # INV1[d] = 1 / (1 + d), bit-identical to the division
# Knobs (the weights row).  Defaults are the old host's (size and horizon 0); each preset in PRESETS lists what it
# changes.
K = KnobTable()
W_GOLD = K.add("gold", 1.0, 0.0, 3.0, doc="value of a dollar (costs count half: a hotel keeps earning)")
W_GUEST = K.add("guest", 3.0, 0.0, 6.0, doc="value per pip of a guest (income at the next Collect)")
W_BLOCK = K.add(
    "block", 1.0, 0.0, 5.0, doc="value of growing a block: per own hotel next to the square, and per pip a guest adds"
)
W_HOOD = K.add(
    "hood",
    0.5,
    0.0,
    3.0,
    doc="value per neighbourhood point where it builds / where a grown tile lands next to its lead",
)
W_MINE = K.add("mine", -1.0, -4.0, 4.0, doc="bias for Mine (on top of the expected 3.5 gold)")
W_FIRE = K.add(
    "fire",
    0.0,
    0.0,
    8.0,
    doc="value per rival hotel next to an own empty hotel it could burn (and of passing fire to rivals)",
)
W_BUILD = K.add("build", 2.0, 0.0, 5.0, doc="bias for building a new hotel")
W_END = K.add("end", 0.0, -2.0, 2.0, doc="value of ending the turn (actions must beat it)")
W_NEAR = K.add(
    "near", 3.0, 0.0, 6.0, doc="placement: value of the grown tile's highest lot being near its own empty hotels"
)
W_RESERVE = K.add("reserve", 0.0, 0.0, 15.0, doc="gold it keeps: spending below this costs `gold` per dollar short")
W_SIZE = K.add("size", 0.0, 0.0, 2.0, doc="value per size of a newly built hotel, and per size a resize adds")
W_FIRESELF = K.add("fireself", 1.5, 0.0, 4.0, doc="cost per size of burning its own hotel")
W_ENDGAME = K.add(
    "endgame",
    1.0,
    0.0,
    1.0,
    doc="end-game look-ahead share k on a seat's last decisions (0 = none; see the module doc)",
)
W_HORIZON = K.add("horizon", 0.0, 0.0, 6.0, doc="turns a new hotel needs to pay back (0 = off; see the module doc)")
W_CAMPERCOST = K.add(
    "campercost",
    1.0,
    0.0,
    1.0,
    doc="share of a camper lot's surcharge over a vacant lot's price counted in full (0 = discounted like the build "
    "cost; see the module doc)",
)
N_W = len(K)  # weights copied into s.bot_weights; slot S_HZ of it holds the decision's horizon factor
S_HZ = 15
ENDGAME_EPS = 0.05  # the usual score's share in an end-game score: orders moves that change the margin alike
SID_BUILDER, SID_HOST, SID_MINER, SID_ARSONIST, SID_SAVER = 1, 2, 3, 4, 5

# Presets (what each is for: BOTS.md; the measurements: git history).  endgame 1 in every preset, horizon 2 and
# size 1.5 in the builder's were measured head to head; horizon made the old host, arsonist and saver (size 0)
# weaker and is 0 in the last two; campercost 1
# made the miner (and, with size 0, the arsonist and saver) weaker and is 0 there; build 0 (no bias per hotel on top
# of the size value) made the builder stronger and the host, host_blocky, miner and arsonist weaker; mine 0 in the
# miner's (0.5 before) and -2 in the arsonist's (-1 before) measured head to head; block 1.5 and reserve 0 (2 and 2
# before) in the builder's, size 2 and horizon 2 in the host's (0 and 0 before), size 1 and campercost 1 in the
# arsonist's and the saver's (0 and 0 before), size 0.2 in the miner's (0 before; 1 stops it mining), size 2 in the
# saver's (1 before) measured.
PRESETS = [
    Preset(
        "builder",
        SID_BUILDER,
        "Builds hotels next to its own to grow blocks in valuable neighbourhoods; places "
        "grown tiles where its blocks lead; weighs a new hotel by the turns left to pay it back.",
        dict(guest=1.5, block=1.5, hood=1.0, mine=-2.0, build=0.0, near=1.0, size=1.5, horizon=2.0),
    ),
    Preset(
        "host",
        SID_HOST,
        "Maximises guests and income: hosts the best campers, builds and resizes hotels to "
        "match the campers on the map, places grown tiles near its empty hotels.",
        dict(size=2.0, horizon=2.0),
    ),
    Preset(
        "miner",
        SID_MINER,
        "Mines whenever the best hosting move is worth less than a mined die; keeps a gold reserve.",
        dict(guest=2.0, block=0.5, hood=0.3, mine=0.0, near=1.0, reserve=4.0, campercost=0.0, size=0.2),
    ),
    # fireself: build cost per value
    Preset(
        "arsonist",
        SID_ARSONIST,
        "Burns its own empty hotels (the smaller the better) next to rivals' hotels, "
        "empty or occupied, and passes the fire into the leader's chain (only through its own empty "
        "hotels, as the rules allow). The only bot that sets fires before its last turn.",
        dict(guest=1.5, mine=-2.0, fire=4.0, near=1.0, fireself=2.0, size=1.0),
    ),
    Preset(
        "saver",
        SID_SAVER,
        "Converts gold to points: spends only above a reserve, ends turns early, mines when idle.",
        dict(
            gold=1.2,
            guest=2.0,
            block=0.5,
            hood=0.3,
            mine=-1.5,
            build=2.5,
            end=0.5,
            near=1.0,
            reserve=8.0,
            size=2.0,
        ),
    ),
    Preset(
        "host_blocky",
        SID_HOST,
        "Preset of host with the builder's block weight (a knob example).",
        dict(block=3.0, hood=1.0, size=0.5),
    ),
]
STRATEGIES = strategies(K, PRESETS)


@nb.njit(cache=True, inline="always")
def own_adjacent(s, c, seat):
    """Own hotels orthogonally next to cell c."""
    x = np.int64(s.cx[c])
    y = np.int64(s.cy[c])
    k = 0
    for d in range(4):  # branch-free: a square that is no cell reads cell 0 and counts nothing
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


@nb.njit(cache=True, _nrt=False)
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


# The scoring helpers take the record and scalars only (the seat's weights are copied into s.bot_weights, the rule
# numbers they need are passed by value): array arguments would cost reference-count updates on every option.
@nb.njit(cache=True, _nrt=False)
def reserve_penalty(s, seat, cost):
    w = s.bot_weights
    left = s.gold[seat] - cost
    if left < w[W_RESERVE]:
        return w[W_GOLD] * (w[W_RESERVE] - left)
    return 0.0


@nb.njit(cache=True, inline="always")
def resize_of(s, a, cost_up, cost_down):
    """A resize action's hotel cell, new size, old size and gold cost."""
    h = cell_at(s, pos_of(a))
    ns = size_of(a)
    hs = np.int64(s.hsize[h])
    return h, ns, hs, (ns - hs) * cost_up if ns > hs else (hs - ns) * cost_down


@nb.njit(cache=True, inline="always")
def score_host(s, seat, h, c):
    """Host the camper of cell c in the seat's hotel h."""
    w = s.bot_weights
    v = np.float64(s.die[c])
    return w[W_GUEST] * v + w[W_BLOCK] * 0.5 * v * (1.0 + own_adjacent(s, h, seat))


@nb.njit(cache=True, inline="always")
def score_build(s, seat, c, v, on_camper, cost_build, cost_camper):
    """Build a hotel of size v on lot c (on_camper: the lot holds a camper, which becomes its guest)."""
    w = s.bot_weights
    per = cost_camper if on_camper else cost_build
    cost = per * v
    hz = w[S_HZ]
    sc = hz * (w[W_BUILD] + w[W_SIZE] * v) - (1.0 - 0.5 * hz) * w[W_GOLD] * cost - reserve_penalty(s, seat, cost)
    sc += w[W_BLOCK] * own_adjacent(s, c, seat)
    sc += w[W_HOOD] * 0.5 * s.h_val[s.t_hood[c // 6]]
    if on_camper:
        sc += (w[W_GUEST] + 0.5 * w[W_BLOCK]) * v
        sc -= w[W_CAMPERCOST] * 0.5 * hz * w[W_GOLD] * (cost_camper - cost_build) * v
    elif s.camper_values[v] > 0:
        sc += hz * 0.5 * w[W_GUEST] * v
    return sc


@nb.njit(cache=True, inline="always")
def score_resize(s, seat, ns, hs, cost):
    """Resize the seat's hotel from size hs to ns for cost gold."""
    w = s.bot_weights
    camp = s.camper_values
    hz = w[S_HZ]
    sc = hz * w[W_SIZE] * (ns - hs) - (1.0 - 0.5 * hz) * w[W_GOLD] * cost - reserve_penalty(s, seat, cost) - 0.5
    if camp[ns] > 0:
        sc += w[W_GUEST] * ns
    if camp[hs] > 0:
        sc -= w[W_GUEST] * hs
    return sc


@nb.njit(cache=True, inline="always")
def score_fire(s, seat, h, sid, fire_ins):
    """Set fire to the seat's empty hotel h."""
    w = s.bot_weights
    hs = np.float64(s.hsize[h])
    re = rival_adjacent(s, h, seat, False)
    ro = rival_adjacent(s, h, seat, True)
    sc = w[W_FIRE] * (re + 0.6 * ro) + (w[W_GOLD] * fire_ins - w[W_FIRESELF]) * hs
    sc -= w[W_BLOCK] * own_adjacent(s, h, seat)
    if sid == SID_ARSONIST and re + ro == 0:
        sc -= 5.0  # burns only to reach rivals
    return sc


@nb.njit(cache=True, inline="always")
def score_main(s, seat, a, sid, cost_build, cost_camper, cost_up, cost_down, fire_ins):
    """A main-phase action's usual score (the seat's weights in s.bot_weights: main_setup)."""
    w = s.bot_weights
    k = kind_of(a)
    pos = pos_of(a)
    if k == A_END:
        return w[W_END]
    if k == A_MINE:
        return w[W_MINE] + 3.5 * w[W_GOLD]
    if k == A_HOST:
        return score_host(s, seat, cell_at(s, pos), cell_at(s, camper_of(a)))
    if k == A_BUILD or k == A_BUILD_CAMPER:
        return score_build(s, seat, cell_at(s, pos), size_of(a), k == A_BUILD_CAMPER, cost_build, cost_camper)
    if k == A_RESIZE:
        _, ns, hs, cost = resize_of(s, a, cost_up, cost_down)
        return score_resize(s, seat, ns, hs, cost)
    if k == A_FIRE:
        return score_fire(s, seat, cell_at(s, pos), sid, fire_ins)
    return 0.0


@nb.njit(cache=True, _nrt=False)
def score_pass(s, seat, a, w_fire, lead):
    if kind_of(a) == A_STOP:
        return 0.4
    c = cell_at(s, pos_of(a))
    if s.hsize[c] == 0:
        return 0.5  # a public building stops it
    o = np.int64(s.owner[c])
    if o == seat:
        return -5.0 - s.hsize[c]
    sc = 2.0 if s.die[c] == 0 else 1.5
    if o == lead:
        sc += 2.0
    return sc + 0.1 * s.hsize[c] + 0.5 * w_fire


# ---------------------------------------------------------------- end-game awareness (W_HORIZON, W_ENDGAME)
@nb.njit(cache=True, _nrt=False)
def horizon(s, p, turns):
    """The share of a new investment's payback still to come: the seat's expected turns after this one before the
    game ends, over `turns` (W_HORIZON), capped at 1; 1 when the knob is 0.  Expected turns: the scoring rounds
    still to start, less half of the current one, times the turns a round has taken so far in this game (the player
    count before the first round), over the player count, less this turn."""
    if turns <= 0.0:
        return 1.0
    r = np.int64(s.rounds)
    n = np.float64(s.n)
    per_round = (s.turn - s.first_round_turn) / r if r >= 1 and s.first_round_turn >= 0 else n
    after = (np.float64(p[ROUNDS]) - r - 0.5) * per_round / n - 1.0
    return min(1.0, max(0.0, after / turns))


# The game ends right after the final scoring round, with no Collect: a guest hosted in the final round never pays,
# a hotel built then earns nothing, and gold left counts gold // end.gold_per_point.  On the seat's last turn the
# bots therefore score moves by the final standings they lead to (final_margin), and the player who grows the city
# for the final round places the tile by the same measure (place_delta).
@nb.njit(cache=True, _nrt=False)
def last_turn(s, p, seat):
    """Must the final scoring round come before the seat's next turn?  True when the next scoring round is the last
    and the pool plus the guests of the seats whose turns start before the seat's next one reach the trigger: the pool
    only grows between scoring rounds (Collect, Mine, a burned guest), so some turn before then starts the round.
    (Under grow.trigger_rule = exactly the pool can pass the trigger: never true there.)"""
    if p[GROW_RULE] != 0 or np.int64(s.rounds) != np.int64(p[ROUNDS]) - 1:
        return False
    need = np.int64(s.n) + np.int64(p[GROW_BASE]) - np.int64(s.pool)
    if need <= 0:
        return True
    n = np.int64(s.n)
    # the seats whose Collect comes before the seat's next turn: first, ..., seat - 1
    first = np.int64(s.cur) + 1
    upto = (seat - first) % n
    for c in range(s.ncell):
        if s.hsize[c] > 0 and s.die[c] > 0:
            need -= np.int64((np.int64(s.owner[c]) - first) % n < upto)
    return need <= 0


@nb.njit(cache=True, inline="always")
def margin_of(s, seat, tot):
    """The seat's total minus the best rival's."""
    top = -1e300
    for i in range(s.n):
        if i != seat:
            top = max(top, tot[i])
    return tot[seat] - top


# The look-ahead scores every legal move of a last turn by the final standings it leads to.  A move changes one or
# two cells, so the map's blocks and each neighbourhood's control are found once per decision (blocks_base) and,
# per move, only the blocks that touch a changed cell are searched again and only their neighbourhoods scored
# again (hood_control_after): a move far from a neighbourhood leaves its share as it was.  A move that changes no
# block at all (a lone empty hotel built, an empty hotel resized, where empty hotels only link) skips even that:
# look_ahead keeps the best rival's total and the seat's points and shares, and only its gold points change
# (gold_margin).
# The functions called with constant cells (-1) are one_copy: numba would compile a copy per constant.
(
    R_COMP,
    R_STR,
    R_WHO,
    R_HOOD,
    R_START,
    R_CELLS,
    R_MARK,
    R_SEEN,
    R_SIG,
    R_SHARE,
    R_HSTART,
    R_HBLK,
    R_CTRL0,
    R_CTRL,
    R_AFF,
    R_CAMP,
) = range(16)
BLK_ROWS = LOOK_ROWS  # the work array `blk` (the state's look_blk): rows,
BLK_COLS = LOOK_COLS  # base blocks and searched ones (<= the occupied cells + 2); the last: the epoch
CW = MP + 2  # a neighbourhood's control in R_CTRL0 / R_CTRL at h * CW: best block, best gang, winner flags
SUM0 = TMAX * CW  # R_CTRL0[SUM0 + seat]: the seat's shares of the map as it stands
GOLD0 = SUM0 + MP  # R_CTRL0[GOLD0 + seat]: its gold, and R_CTRL0[GP0 + seat] its gold points (divisions are slow)
GP0 = SUM0 + 2 * MP
TOP0 = GP0 + MP  # R_CTRL0[TOP0]: the best rival's projected total as the map stands, R_CTRL0[TOP0 + 1]: the seat's
# points and shares (look_ahead): a move that changes no block changes the margin only by the seat's gold points
HMARK = TMAX  # R_AFF[HMARK + h]: the epoch that listed neighbourhood h in R_AFF[:na]
MARKED = 2 * TMAX  # R_AFF[MARKED:]: the base blocks marked by the epoch
TOPMARK = BLK_COLS - 1 - TMAX  # R_AFF[TOPMARK + h]: the epoch that marked a best block or gang of neighbourhood h
CAMPERS = 8  # R_CAMP[CAMPERS + R_CAMP[v]:CAMPERS + R_CAMP[v + 1]]: the lots with a camper of value v


@nb.njit(cache=True, _nrt=False)
def _holds(s, c, add_size):
    """What cell c holds, as far as blocks and gangs go (a hotel's size only where empty hotels add it)."""
    hs = np.int64(s.hsize[c])
    if not add_size:
        hs = min(hs, 1)
    return ((np.int64(s.owner[c]) + 1) << 8) | (hs << 4) | np.int64(s.die[c])


@nb.njit(cache=True, _nrt=False)
def _same_kind(s, c, sig):
    """Does cell c hold what signature sig (_holds) says it held: a hotel of the same owner, or a camper on a lot?"""
    if s.hsize[c] > 0:
        return (sig >> 4) & 15 > 0 and np.int64(s.owner[c]) + 1 == sig >> 8
    return (sig >> 4) & 15 == 0 and sig & 15 > 0 and s.die[c] > 0 and s.cval[c] > 0


@nb.njit(cache=True, _nrt=False)
def _emptied(s, c):
    """Does cell c hold nothing that joins a block or gang (search_block would find none through it)?"""
    return s.hsize[c] == 0 and not (s.die[c] > 0 and s.cval[c] > 0)


@nb.njit(cache=True, _nrt=False)
def _links(s, blk, c, b):
    """How many of cell c's neighbours are in base block b."""
    k = 0
    for d in range(4):
        g = neighbour(s, c, d)
        k += np.int64(g >= 0 and blk[R_COMP, g] == b)
    return k


@nb.njit(cache=True, _nrt=False)
def _part(p, sig):
    """A cell's own strength from its signature, as search_block folds it into its block's (die_strength of its
    die, or of its size where empty hotels add it; 0 if neither)."""
    if sig & 15 > 0:
        return die_strength(p, sig & 15, 0)
    if (sig >> 4) & 15 > 0 and p[EMPTY_RULE] == 1:
        return die_strength(p, (sig >> 4) & 15, 0)
    return 0


@nb.njit(cache=True, _nrt=False)
def _fold(blk, b, bp, bg):
    """Block b of blk into a neighbourhood's best block strength bp (a seat's) or best gang strength bg."""
    if blk[R_WHO, b] < 0:
        return bp, max(bg, blk[R_STR, b])
    return max(bp, blk[R_STR, b]), bg


@nb.njit(cache=True, _nrt=False)
def _score_hood(blk, nbk, nn, h, ep, ctrl):
    """Control of neighbourhood h into ctrl[h * CW:]: as hood_control, over the base blocks of h not marked ep and
    the searched blocks nbk..nn-1 of h.  Where epoch ep (> 0) marked none of h's best base blocks or gangs (R_AFF at
    TOPMARK + h), the unmarked base blocks have the best strengths and winners of the base control (R_CTRL0): only
    the searched blocks are folded into them."""
    o = h * CW
    if ep > 0 and blk[R_AFF, TOPMARK + h] != ep:
        ctrl0 = blk[R_CTRL0]
        bp0 = ctrl0[o]
        bp = bp0
        bg = ctrl0[o + 1]
        for b in range(nbk, nn):
            if blk[R_HOOD, b] == h:
                bp, bg = _fold(blk, b, bp, bg)
        ctrl[o] = bp
        ctrl[o + 1] = bg
        for i in range(MP):
            ctrl[o + 2 + i] = ctrl0[o + 2 + i] if bp == bp0 else 0
        if bp > 0:
            for b in range(nbk, nn):
                if blk[R_HOOD, b] == h and blk[R_WHO, b] >= 0 and blk[R_STR, b] == bp:
                    ctrl[o + 2 + blk[R_WHO, b]] = 1
        return
    bp = 0
    bg = 0
    for i in range(MP):
        ctrl[o + 2 + i] = 0
    for j in range(blk[R_HSTART, h], blk[R_HSTART, h + 1]):
        b = blk[R_HBLK, j]
        if blk[R_MARK, b] != ep:
            bp, bg = _fold(blk, b, bp, bg)
    for b in range(nbk, nn):
        if blk[R_HOOD, b] == h:
            bp, bg = _fold(blk, b, bp, bg)
    ctrl[o] = bp
    ctrl[o + 1] = bg
    if bp > 0:
        for j in range(blk[R_HSTART, h], blk[R_HSTART, h + 1]):
            b = blk[R_HBLK, j]
            if blk[R_MARK, b] != ep and blk[R_WHO, b] >= 0 and blk[R_STR, b] == bp:
                ctrl[o + 2 + blk[R_WHO, b]] = 1
        for b in range(nbk, nn):
            if blk[R_HOOD, b] == h and blk[R_WHO, b] >= 0 and blk[R_STR, b] == bp:
                ctrl[o + 2 + blk[R_WHO, b]] = 1


@nb.njit(cache=True, _nrt=False)
def _share(blk, h, ctrl, n):
    """What each winner of neighbourhood h scores by control ctrl (as score_round: a gang above every block, or no
    block, and nobody scores; tied blocks split value // k)."""
    o = h * CW
    if ctrl[o] > 0 and ctrl[o] >= ctrl[o + 1]:
        k = 0
        for i in range(n):
            k += ctrl[o + 2 + i]
        return np.float64(blk[R_SHARE, h * (MP + 1) + k])
    return 0.0


@nb.njit(cache=True, _nrt=False)
def blocks_base(s, p, blk):
    """The map's blocks as hood_control finds them, kept in blk for hood_control_after: block per cell (R_COMP),
    strength, owner and neighbourhood per block (that of its highest-numbered cell, as hood_control), its cells
    (R_CELLS[R_START[b]:R_START[b + 1]]), the blocks of each neighbourhood (R_HBLK[R_HSTART[h]:R_HSTART[h + 1]]);
    what each cell holds (R_SIG); each neighbourhood's share when k blocks tie there (R_SHARE[h * (MP + 1) + k]:
    integer divisions are slow), its control (R_CTRL0) and each seat's shares (R_CTRL0[SUM0 + seat]); the campers
    by value (R_CAMP).  Returns the number of blocks."""
    nc = np.int64(s.ncell)
    nh = np.int64(s.n_hood)
    nbk = kept_blocks(s, p, s.block_of_cell, s.block_strength, s.block_owner)
    add_size = p[EMPTY_RULE] == 1
    for c in range(nc):
        blk[R_SIG, c] = _holds(s, c, add_size)
    for h in range(nh):
        for k in range(1, MP + 1):
            blk[R_SHARE, h * (MP + 1) + k] = np.int64(s.h_val[h]) // k
    start = blk[R_START]
    hstart = blk[R_HSTART]
    for b in range(nbk + 1):
        start[b] = 0
    for h in range(nh + 1):
        hstart[h] = 0
    for c in range(nc):
        b = np.int64(s.block_of_cell[c])
        blk[R_COMP, c] = b
        if b >= 0:
            blk[R_HOOD, b] = s.t_hood[c // 6]
            start[b + 1] += 1
    for b in range(nbk):
        blk[R_STR, b] = s.block_strength[b]
        blk[R_WHO, b] = s.block_owner[b]
        start[b + 1] += start[b]
        hstart[blk[R_HOOD, b] + 1] += 1
    for h in range(nh):
        hstart[h + 1] += hstart[h]
    fill = blk[R_SEEN]  # next free slot per block, then per neighbourhood (R_SEEN is reset below)
    for b in range(nbk):
        fill[b] = start[b]
    for c in range(nc):
        b = blk[R_COMP, c]
        if b >= 0:
            blk[R_CELLS, fill[b]] = c
            fill[b] += 1
    for h in range(nh):
        fill[h] = hstart[h]
    for b in range(nbk):
        h = blk[R_HOOD, b]
        blk[R_HBLK, fill[h]] = b
        fill[h] += 1
    for c in range(BLK_COLS):
        blk[R_MARK, c] = 0
        blk[R_SEEN, c] = 0
    for c in range(2 * TMAX):
        blk[R_AFF, c] = 0
    for h in range(TMAX):
        blk[R_AFF, TOPMARK + h] = 0
    camp = blk[R_CAMP]
    for v in range(CAMPERS):
        camp[v] = 0
    for c in range(nc):
        if s.hsize[c] == 0 and s.die[c] > 0:
            camp[np.int64(s.die[c]) + 1] += 1
    for v in range(1, CAMPERS):
        camp[v] += camp[v - 1]
    for c in range(nc):  # in cell order within a value; camp[v] ends as the start of v + 1 ...
        if s.hsize[c] == 0 and s.die[c] > 0:
            v = np.int64(s.die[c])
            camp[CAMPERS + camp[v]] = c
            camp[v] += 1
    for v in range(CAMPERS - 1, 0, -1):  # ... so shift back by one value
        camp[v] = camp[v - 1]
    camp[0] = 0
    ctrl0 = blk[R_CTRL0]
    n = np.int64(s.n)
    per = np.int64(p[GOLD_PER_VP])
    for i in range(MP):
        ctrl0[SUM0 + i] = 0
        ctrl0[GOLD0 + i] = np.int64(s.gold[i])
        ctrl0[GP0 + i] = np.int64(s.gold[i]) // per
    for h in range(nh):
        _score_hood(blk, nbk, nbk, h, -1, ctrl0)
        share = _share(blk, h, ctrl0, n)
        for i in range(n):
            ctrl0[SUM0 + i] += np.int64(share) * ctrl0[h * CW + 2 + i]
    return nbk


@nb.njit(cache=True, _nrt=False)
def _joined(s, a, b):
    """Are neighbouring cells a and b in one block (hotels of one owner) or one gang (campers on lots) as they stand?"""
    if s.hsize[a] > 0:
        return s.hsize[b] > 0 and s.owner[b] == s.owner[a]
    return (s.die[a] > 0 and s.cval[a] > 0) and (s.hsize[b] == 0 and s.die[b] > 0 and s.cval[b] > 0)


@nb.njit(cache=True, inline="always")
def _mark(blk, b, ep):
    """Base block b marked by epoch ep (searched again or replaced); its neighbourhood flagged (R_AFF at TOPMARK)
    where it was the best block or gang there (_score_hood then folds all the neighbourhood's blocks again)."""
    blk[R_MARK, b] = ep
    h = blk[R_HOOD, b]
    if blk[R_STR, b] == blk[R_CTRL0, h * CW + (1 if blk[R_WHO, b] < 0 else 0)]:
        blk[R_AFF, TOPMARK + h] = ep


@nb.njit(cache=True, _nrt=False)
def _list_hood(blk, h, ep, na):
    """Neighbourhood h into the epoch's list of changed ones (once); returns its new length."""
    if blk[R_AFF, HMARK + h] != ep:
        blk[R_AFF, HMARK + h] = ep
        blk[R_AFF, na] = h
        na += 1
    return na


@nb.njit(cache=True, _nrt=False)
def _mark_block(blk, b, ep, nm):
    """Base block b marked (epoch ep) and listed after the nm already marked; returns the new count."""
    if blk[R_MARK, b] != ep:
        _mark(blk, b, ep)
        blk[R_AFF, MARKED + nm] = b
        nm += 1
    return nm


@nb.njit(cache=True, _nrt=False)
def _mark_around(s, blk, m, ep, nm):
    """Mark the base blocks that changed cell m may have changed: its own, and each neighbour's that it joins as it
    stands (a neighbour it joined before was in its own block; any other block is as it was)."""
    b = blk[R_COMP, m]
    if b >= 0:
        nm = _mark_block(blk, b, ep, nm)
    x = np.int64(s.cx[m])
    y = np.int64(s.cy[m])
    for d in range(4):
        g = np.int64(s.grid[y + DY4[d], x + DX4[d]])
        if g >= 0:
            b = blk[R_COMP, g]
            if b >= 0 and _joined(s, m, g):
                nm = _mark_block(blk, b, ep, nm)
    return nm


@one_copy(_nrt=False)
def hood_control_after(s, p, blk, nbk, m1, m2):
    """hood_control of the map as it stands, where blk holds blocks_base of the map before cells m1 and m2 (-1:
    none) changed.  A block touching neither keeps its strength; the cells of the others and the changed cells are
    searched afresh, and the neighbourhoods of both scored again.  Returns na: the control of neighbourhood
    h = R_AFF[j], j < na, is in R_CTRL, that of any other as it was (R_CTRL0).  Equal to hood_control
    (tests/test_cold_comfort_play.py)."""
    ep = blk[R_MARK, BLK_COLS - 1] + 1  # marks of earlier calls are stale
    blk[R_MARK, BLK_COLS - 1] = ep
    add_size = p[EMPTY_RULE] == 1
    if m1 >= 0 and _holds(s, m1, add_size) == blk[R_SIG, m1]:
        m1 = -1  # as it was (a resized hotel where size does not count): nothing to search
    if m2 >= 0 and _holds(s, m2, add_size) == blk[R_SIG, m2]:
        m2 = -1
    nm = 0
    if m2 >= 0:
        nm = _mark_around(s, blk, m2, ep, nm)
    na = 0
    # the searched blocks, kept in the spare rows' tails: strength in R_STR, owner in R_WHO, hood in R_HOOD from nbk
    nn = nbk
    if m1 >= 0:
        # m1's block without a search, where a sum or count strength changes by m1's part alone: m1 holds what it
        # held, only another die or size (a guest hosted, a hotel resized, a guest burned out), or m1 is emptied
        # and its block loses a cell that links none of its others (a camper mined, a hotel burned down at the
        # block's edge).  Its neighbourhood stays: a block's cells touch, so they lie in one neighbourhood (and
        # one tile's neighbourhood is all its neighbours')
        b = blk[R_COMP, m1]
        kept = -1
        if b >= 0 and blk[R_MARK, b] != ep and p[BLOCK_RULE] != 2:
            sig = blk[R_SIG, m1]
            if _same_kind(s, m1, sig):
                kept = _part(p, _holds(s, m1, add_size))
            elif _emptied(s, m1) and _links(s, blk, m1, b) == 1:
                kept = 0
        if kept >= 0:
            _mark(blk, b, ep)
            blk[R_STR, nn] = blk[R_STR, b] - _part(p, blk[R_SIG, m1]) + kept
            blk[R_WHO, nn] = blk[R_WHO, b]
            blk[R_HOOD, nn] = blk[R_HOOD, b]
            nn += 1
            na = _list_hood(blk, blk[R_HOOD, b], ep, na)
            m1 = -1
        elif b < 0 and m2 < 0 and not _emptied(s, m1):
            # the only change: m1, in no block before, now holds a hotel or a camper (a hotel built on an empty
            # lot): its block is m1 and the blocks of the neighbours it joins, its strength theirs and m1's folded
            # (a sum, a count or the highest die alike)
            st = _part(p, _holds(s, m1, add_size))
            top = p[BLOCK_RULE] == 2
            merged = False
            for d in range(4):
                g = neighbour(s, m1, d)
                if g >= 0:
                    bg = blk[R_COMP, g]
                    if bg >= 0 and blk[R_MARK, bg] != ep and _joined(s, m1, g):
                        _mark(blk, bg, ep)
                        st = max(st, blk[R_STR, bg]) if top else st + blk[R_STR, bg]
                        merged = True
            if st > 0 or merged:
                h = np.int64(s.t_hood[m1 // 6])
                blk[R_STR, nn] = st
                blk[R_WHO, nn] = np.int64(s.owner[m1]) if s.hsize[m1] > 0 else -1
                blk[R_HOOD, nn] = h
                nn += 1
                na = _list_hood(blk, h, ep, na)
            m1 = -1
        else:
            nm = _mark_around(s, blk, m1, ep, nm)
    for j in range(-2, nm):
        if j < 0:
            c0 = m1 if j == -2 else m2
            lo = 0
            hi = 1 if c0 >= 0 else 0
        else:
            b = blk[R_AFF, MARKED + j]
            na = _list_hood(blk, blk[R_HOOD, b], ep, na)
            lo = blk[R_START, b]
            hi = blk[R_START, b + 1]
        for k in range(lo, hi):
            c = c0 if j < 0 else blk[R_CELLS, k]
            if blk[R_SEEN, c] == ep:
                continue
            st, who, top = search_block(s, p, c, blk[R_SEEN], ep, s.search_stack)
            if st > 0:  # (a block or gang of strength 0 neither controls nor blocks a neighbourhood)
                h = np.int64(s.t_hood[top // 6])
                blk[R_STR, nn] = st
                blk[R_WHO, nn] = who
                blk[R_HOOD, nn] = h
                nn += 1
                na = _list_hood(blk, h, ep, na)
    for j in range(na):
        _score_hood(blk, nbk, nn, blk[R_AFF, j], ep, blk[R_CTRL])
    return na


@one_copy(_nrt=False)
def final_margin(s, p, seat, blk, nbk, m1, m2, tot):
    """The seat's projected final total minus the best rival's if the map scored as it stands and the game ended:
    points so far + this scoring's shares + gold // end.gold_per_point.  blk: blocks_base before cells m1, m2
    changed (-1: none); the shares of the neighbourhoods the change reaches replace theirs as they were.  Totals into
    tot (whole numbers, so exact in any order)."""
    na = hood_control_after(s, p, blk, nbk, m1, m2)
    per = np.int64(p[GOLD_PER_VP])
    n = np.int64(s.n)
    ctrl0 = blk[R_CTRL0]
    ctrl = blk[R_CTRL]
    for i in range(n):
        g = np.int64(s.gold[i])
        gp = ctrl0[GP0 + i] if g == ctrl0[GOLD0 + i] else g // per
        tot[i] = np.float64(np.int64(s.vp[i]) + gp + ctrl0[SUM0 + i])
    for j in range(na):
        h = blk[R_AFF, j]
        was = _share(blk, h, ctrl0, n)
        now = _share(blk, h, ctrl, n)
        o = h * CW + 2
        for i in range(n):
            tot[i] += now * ctrl[o + i] - was * ctrl0[o + i]
    return margin_of(s, seat, tot)


@nb.njit(cache=True, inline="always")
def gold_margin(s, p, blk, g):
    """final_margin of a move that changes no block or gang and only the deciding seat's gold, to g (look_ahead
    keeps the rest of the totals)."""
    ctrl0 = blk[R_CTRL0]
    return np.float64(np.int64(ctrl0[TOP0 + 1]) + g // np.int64(p[GOLD_PER_VP]) - np.int64(ctrl0[TOP0]))


@one_copy(_nrt=False)
def burn_delta(s, p, seat, c, blk, nbk, m, tot, base):
    """final_margin after the fire enters hotel c (any owner) and stops there, minus base: insurance to its owner,
    the hotel (and its guest) leaves the map; under fire.occupied = survives an occupied hotel only loses its guest.
    (An empty hotel's owner would pass the fire on: not followed.)  m: a cell already changed since blk (or -1)."""
    o = np.int64(s.owner[c])
    hs = np.int64(s.hsize[c])
    g = np.int64(s.die[c])
    if g > 0 and p[FIRE_OCC] == 1:
        s.die[c] = 0
        d = final_margin(s, p, seat, blk, nbk, c, m, tot) - base
        s.die[c] = g
        return d
    ins = hs * np.int64(p[FIRE_INS])
    s.gold[o] += ins
    s.owner[c] = -1
    s.hsize[c] = 0
    s.die[c] = 0
    d = final_margin(s, p, seat, blk, nbk, c, m, tot) - base
    s.gold[o] -= ins
    s.owner[c] = o
    s.hsize[c] = hs
    s.die[c] = g
    return d


@one_copy(_nrt=False)
def end_delta(s, p, seat, a, blk, nbk, tot, base, cost_build, cost_camper, cost_up, cost_down):
    """Change a main-phase action makes to final_margin (in points); each board change is made in place and undone.
    Mine: the camper gone and the expected gold points over the six rolls.  Resize: the better of the resized hotel
    empty or hosting a matching camper at once.  Fire: the insurance, then the best building to pass the fire to (as
    burn_delta)."""
    k = kind_of(a)
    pos = pos_of(a)
    if k == A_MINE:
        per = np.int64(p[GOLD_PER_VP])
        c = cell_at(s, pos)
        v = s.die[c]
        s.die[c] = 0
        g0 = np.int64(s.gold[seat])
        acc = 0.0
        for r in range(1, 7):  # the margin moves one for one with the seat's gold points
            acc += np.float64((g0 + r) // per - g0 // per)
        d = final_margin(s, p, seat, blk, nbk, c, -1, tot) - base + acc / 6.0
        s.die[c] = v
        return d
    if k == A_HOST:
        h = cell_at(s, pos)
        c = cell_at(s, camper_of(a))
        v = s.die[c]
        s.die[c] = 0
        s.die[h] = v
        d = final_margin(s, p, seat, blk, nbk, h, c, tot) - base
        s.die[h] = 0
        s.die[c] = v
        return d
    if k == A_BUILD or k == A_BUILD_CAMPER:
        c = cell_at(s, pos)
        v = size_of(a)
        cost = (cost_build if k == A_BUILD else cost_camper) * v
        if k == A_BUILD and p[EMPTY_RULE] != 1 and own_adjacent(s, c, seat) == 0:
            # an empty hotel (its size does not count) beside none of its owner's: it joins no block and is a
            # block of strength 0, so no neighbourhood's control moves (as hood_control_after finds)
            return gold_margin(s, p, blk, np.int64(s.gold[seat]) - cost) - base
        s.gold[seat] -= cost
        s.owner[c] = seat
        s.hsize[c] = v
        d = final_margin(s, p, seat, blk, nbk, c, -1, tot) - base
        s.gold[seat] += cost
        s.owner[c] = -1
        s.hsize[c] = 0
        return d
    if k == A_RESIZE:
        h, ns, hs, cost = resize_of(s, a, cost_up, cost_down)
        s.gold[seat] -= cost
        s.hsize[h] = ns
        if p[EMPTY_RULE] != 1:  # an empty hotel's size does not count: no block changes
            d = gold_margin(s, p, blk, np.int64(s.gold[seat])) - base
        else:
            d = final_margin(s, p, seat, blk, nbk, h, -1, tot) - base
        if s.hbuilt[h] != s.turn and p[RESIZED_NEW] == 0:
            for j in range(CAMPERS + blk[R_CAMP, ns], CAMPERS + blk[R_CAMP, ns + 1]):  # the campers of value ns
                c = blk[R_CAMP, j]
                s.die[c] = 0
                s.die[h] = ns
                d = max(d, final_margin(s, p, seat, blk, nbk, h, c, tot) - base)
                s.die[h] = 0
                s.die[c] = ns
        s.gold[seat] += cost
        s.hsize[h] = hs
        return d
    if k == A_FIRE:
        h = cell_at(s, pos)
        hs = np.int64(s.hsize[h])
        ins = hs * np.int64(p[FIRE_INS])
        s.gold[seat] += ins
        s.owner[h] = -1
        s.hsize[h] = 0
        d0 = final_margin(s, p, seat, blk, nbk, h, -1, tot)
        best = -1e300
        x = np.int64(s.cx[h])
        y = np.int64(s.cy[h])
        for q in range(4):
            g = np.int64(s.grid[y + DY4[q], x + DX4[q]])
            if g >= 0:
                if s.hsize[g] > 0 and s.hbuilt[g] != s.turn:
                    best = max(best, burn_delta(s, p, seat, g, blk, nbk, h, tot, 0.0))
                elif s.hsize[g] == 0 and s.cval[g] == 0:
                    best = max(best, d0)  # a public building stops it
        if best < -1e299 or p[FIRE_PASS] == 1:
            best = max(best, d0)  # nowhere to pass it, or the fire may be let die
        s.gold[seat] -= ins
        s.owner[h] = seat
        s.hsize[h] = hs
        return best - base
    return 0.0


@nb.njit(cache=True, _nrt=False)
def place_base(s, p, seat, sb, gb, sh, tot, gang, val):
    """For placing the tile that starts the final scoring round: per neighbourhood each seat's best block strength
    (sb), the best street gang (gb) and each seat's share as the map stands (sh); the projected final totals (tot);
    per drawn tile its expected street gang (each lot takes a die of its value with probability 1 - (5/6)^pool, the
    pips summed as if connected) and its neighbourhood points.  Returns the seat's margin as the map stands."""
    nh = np.int64(s.n_hood)
    nc = np.int64(s.ncell)
    comp = s.block_of_cell
    strength = s.block_strength
    who = s.block_owner
    nbk = kept_blocks(s, p, comp, strength, who)
    bh = s.block_hood
    for c in range(nc):
        b = comp[c]
        if b >= 0:
            bh[b] = s.t_hood[c // 6]
    for b in range(nbk):
        h = bh[b]
        if who[b] < 0:
            gb[h] = max(gb[h], np.float64(strength[b]))
        else:
            sb[h, who[b]] = max(sb[h, who[b]], np.float64(strength[b]))
    per = np.int64(p[GOLD_PER_VP])
    n = np.int64(s.n)
    for i in range(n):
        tot[i] = np.float64(np.int64(s.vp[i]) + np.int64(s.gold[i]) // per)
    for h in range(nh):
        top = 0.0
        for i in range(n):
            top = max(top, sb[h, i])
        if top > 0.0 and top >= gb[h]:
            k = 0
            for i in range(n):
                k += np.int64(sb[h, i] == top)
            for i in range(n):
                if sb[h, i] == top:
                    sh[h, i] = np.float64(np.int64(s.h_val[h]) // k)
                    tot[i] += sh[h, i]
    pe = 1.0 - (5.0 / 6.0) ** np.int64(s.pool)
    for j in range(s.ndraw):
        tid = np.int64(s.draw[j])
        g = 0.0
        v = p[PTS_TILE]
        for k in range(6):
            lv = TILE_VALS[tid, k]
            g += pe * lv
            if lv == 0:
                v += p[PTS_PUBLIC]
        gang[tid] = g
        val[tid] = v
    return margin_of(s, seat, tot)


@nb.njit(cache=True, _nrt=False)
def place_delta(s, seat, m, gang, val, sb, gb, sh, tot, new, best):
    """Projected final margin if the grown tile joins the neighbourhoods in bit mask m into one: its value is theirs
    plus the tile's, its best gang the best of theirs and the tile's expected gang, each seat's best block the best
    of its blocks there; shares as score_round.  A tile touching no neighbourhood changes nothing (its own gang)."""
    n = np.int64(s.n)
    for i in range(n):
        new[i] = tot[i]
    if m == 0:
        return margin_of(s, seat, new)
    v = val
    g = gang
    for i in range(n):  # each seat's best block in the merged neighbourhood
        best[i] = 0.0
    mm = m
    while mm != 0:
        low = mm & -mm
        mm ^= low
        h = low_bit(low)
        v += s.h_val[h]
        g = max(g, gb[h])
        for i in range(n):
            new[i] -= sh[h, i]
            best[i] = max(best[i], sb[h, i])
    top = 0.0
    for i in range(n):
        top = max(top, best[i])
    if top > 0.0 and top >= g:
        k = 0
        for i in range(n):
            k += np.int64(best[i] == top)
        share = np.float64(np.int64(v) // k)
        for i in range(n):
            if best[i] == top:
                new[i] += share
    return margin_of(s, seat, new)


@nb.njit(cache=True, inline="always")
def _take(s, sc, i, best, pick, ties):
    """The running best of a decision's scores: (best, pick, ties) after action i scored sc; an exact tie replaces
    the pick with probability 1 / ties (the policy stream), so tied actions are picked uniformly."""
    if sc > best + 1e-9:
        return sc, i, 1
    if sc > best - 1e-9:
        ties += 1
        if rand_float(s.rng, 1) * ties < 1.0:
            pick = i
    return best, pick, ties


@nb.njit(cache=True, _nrt=False)
def look_ahead(s, p, seat):
    """The end-game look-ahead's work arrays (totals; blocks and control, blocks_base: state fields), the map's
    blocks and the seat's final margin as the map stands."""
    tot = s.look_tot
    blk = s.look_blk
    nbk = blocks_base(s, p, blk)
    base = final_margin(s, p, seat, blk, nbk, -1, -1, tot)
    top = -1e300
    for i in range(s.n):
        if i != seat:
            top = max(top, tot[i])
    ctrl0 = blk[R_CTRL0]
    ctrl0[TOP0] = np.int64(top)  # whole numbers (final_margin)
    ctrl0[TOP0 + 1] = np.int64(s.vp[seat]) + ctrl0[SUM0 + seat]
    return tot, blk, nbk, base


@nb.njit(cache=True, _nrt=False)
def choose_last_main(s, p, seat, legal, n, sid, w, cost_build, cost_camper, cost_up, cost_down, fire_ins):
    """choose on a main decision of the seat's last turn: the usual score blended with the change to the final
    margin (W_ENDGAME).  Its work arrays are state fields (look_ahead)."""
    kend = w[W_ENDGAME]
    tot, blk, nbk, base = look_ahead(s, p, seat)
    unit = w[W_GOLD] * p[GOLD_PER_VP]  # a final point in gold units
    best = -1e300
    pick = 0
    ties = 0
    for i in range(n):
        sc = score_main(s, seat, legal[i], sid, cost_build, cost_camper, cost_up, cost_down, fire_ins)
        d = end_delta(s, p, seat, legal[i], blk, nbk, tot, base, cost_build, cost_camper, cost_up, cost_down)
        sc = (1.0 - kend) * sc + kend * (unit * d + ENDGAME_EPS * sc)
        best, pick, ties = _take(s, sc, i, best, pick, ties)
    return pick


@nb.njit(cache=True, _nrt=False)
def choose_last_pass(s, p, seat, legal, n, w, lead):
    """choose on passing (or stopping) a fire on the seat's last turn, blended as choose_last_main: a fire passed
    into a hotel is scored by burn_delta."""
    kend = w[W_ENDGAME]
    ensure_hoods(s, p)
    tot, blk, nbk, base = look_ahead(s, p, seat)
    unit = w[W_GOLD] * p[GOLD_PER_VP]
    best = -1e300
    pick = 0
    ties = 0
    for i in range(n):
        sc = score_pass(s, seat, legal[i], w[W_FIRE], lead)
        d = 0.0
        if kind_of(legal[i]) == A_PASS:
            c = cell_at(s, pos_of(legal[i]))
            if s.hsize[c] > 0:
                d = burn_delta(s, p, seat, c, blk, nbk, -1, tot, base)
        sc = (1.0 - kend) * sc + kend * (unit * d + ENDGAME_EPS * sc)
        best, pick, ties = _take(s, sc, i, best, pick, ties)
    return pick


@nb.njit(cache=True, inline="always")
def main_setup(s, p, w):
    """What a main decision's scores read besides the map: which camper values are on the map (s.camper_values),
    the neighbourhoods (ensure_hoods), the seat's weights with the decision's horizon factor (s.bot_weights).
    Returns the rule costs the scores take by value: build, build on a camper, resize up, down, fire insurance."""
    has = np.int64(0)  # bit v: a camper of value v is on the map (set branch-free)
    for c in range(s.ncell):
        has |= np.int64(s.hsize[c] == 0) << np.int64(s.die[c])
    camp = s.camper_values
    for v in range(SIZES):
        camp[v] = (has >> v) & 1 if v > 0 else 0
    ensure_hoods(s, p)
    for j in range(N_W):
        s.bot_weights[j] = w[j]
    s.bot_weights[S_HZ] = horizon(s, p, w[W_HORIZON])
    return p[COST_BUILD], p[COST_CAMPER], p[COST_UP], p[COST_DOWN], p[FIRE_INS]


@nb.njit(cache=True, _nrt=False)
def choose(s, p, seat, legal, n, sid, weights):
    """The index in legal[:n] of the best-scored action (ties at random from the policy stream); the decision's
    kind is that of its first legal action (every decision offers actions of its own phase only)."""
    w = weights
    best = -1e300
    pick = 0
    ties = 0
    k0 = kind_of(legal[0])
    if (
        k0 == A_END
        or k0 == A_MINE
        or k0 == A_HOST
        or k0 == A_BUILD
        or k0 == A_BUILD_CAMPER
        or k0 == A_RESIZE
        or k0 == A_FIRE
    ):
        cost_build, cost_camper, cost_up, cost_down, fire_ins = main_setup(s, p, w)
        if w[W_ENDGAME] > 0.0 and last_turn(s, p, seat):
            return choose_last_main(s, p, seat, legal, n, sid, w, cost_build, cost_camper, cost_up, cost_down, fire_ins)
        for i in range(n):
            sc = score_main(s, seat, legal[i], sid, cost_build, cost_camper, cost_up, cost_down, fire_ins)
            best, pick, ties = _take(s, sc, i, best, pick, ties)
        return pick
    if k0 == A_PASS or k0 == A_STOP:
        lead = leader(s, seat)
        w_fire = w[W_FIRE]
        if w[W_ENDGAME] > 0.0 and last_turn(s, p, seat):
            return choose_last_pass(s, p, seat, legal, n, w, lead)
        for i in range(n):
            sc = score_pass(s, seat, legal[i], w_fire, lead)
            best, pick, ties = _take(s, sc, i, best, pick, ties)
        return pick
    if k0 == A_LAND:
        for i in range(n):
            c = cell_at(s, pos_of(legal[i]))
            if s.hsize[c] > 0:
                o = np.int64(s.owner[c])
                sc = 10.0 if o == seat else -1.0 - 0.1 * (s.vp[o] * 5 + s.gold[o])
            else:
                sc = 0.5 * own_adjacent(s, c, seat)
            best, pick, ties = _take(s, sc, i, best, pick, ties)
        return pick
    return choose_place(s, p, seat, legal, n, w, PLACE_BOX)


@nb.njit(cache=True, _nrt=False)
def place_setup(s, p, seat, w, box):
    """What choose_place and quick_place work out once per placement decision: the lead term of each neighbourhood
    (s.place_lead_w, bit h of lead_m), the seat's empty hotels (s.place_hx, place_hy[:nhot]), the end-game base
    (place_base, where this tile starts the final scoring round) and the map's box arrays (place_memo, place_adj);
    the scalars as a tuple for place_score."""
    ensure_hoods(s, p)
    hood = s.t_hood
    nh = np.int64(s.n_hood)
    best_p = s.ctl_best_p
    best_g = s.ctl_best_g
    winners = s.ctl_winners
    kept_hood_control(s, p, hood, nh, best_p, best_g, winners)
    lead_w = s.place_lead_w  # per neighbourhood its lead term, where not zero (bit h of lead_m)
    lead_m = np.int64(0)
    use_hood = w[W_HOOD] != 0.0
    if use_hood:
        for h in range(nh):
            if best_p[h] >= best_g[h] and best_p[h] > 0:
                others = 0
                for i in range(s.n):
                    if i != seat:
                        others += winners[h, i]
                lead = (1.0 if winners[h, seat] else 0.0) - (1.0 if others > 0 else 0.0)
                if lead != 0.0:
                    lead_w[h] = w[W_HOOD] * lead
                    lead_m |= np.int64(1) << h
    hx = s.place_hx
    hy = s.place_hy
    nhot = 0
    for c in range(s.ncell):
        if s.hsize[c] > 0 and s.die[c] == 0 and s.owner[c] == seat:
            hx[nhot] = s.cx[c]
            hy[nhot] = s.cy[c]
            nhot += 1
    # end-game: this tile starts the final scoring round; score each placement by the projected final margin
    kend = w[W_ENDGAME]
    endp = kend > 0.0 and np.int64(s.rounds) == np.int64(p[ROUNDS]) - 1
    e_base = 0.0
    e_unit = w[W_GOLD] * p[GOLD_PER_VP]
    if endp:
        for h in range(TMAX):
            s.place_gb[h] = 0.0
            for i in range(MP):
                s.place_sb[h, i] = 0.0
                s.place_sh[h, i] = 0.0
        for j in range(PLACE_MEMO):
            s.place_key[j] = -1
        e_base = place_base(s, p, seat, s.place_sb, s.place_gb, s.place_sh, s.look_tot, s.place_gang, s.place_val)
    # every placement square lies within the map's bounding box grown by 4 (enum_places): where that box fits the
    # state's arrays, flat arrays over it, square (x, y) at (y - y0) * bw + (x - x0): near() of a highest-lot square
    # once computed (memo), and the neighbourhoods each square touches (adj, bit h); else both per action
    x0 = np.int64(s.minx) - 4
    y0 = np.int64(s.miny) - 4
    bw = np.int64(s.maxx) + 5 - x0
    bh = np.int64(s.maxy) + 5 - y0
    boxed = bw * bh <= box
    memo = s.place_memo
    adj = s.place_adj
    if boxed:
        for q in range(bw * bh):
            memo[q] = -1.0
            adj[q] = 0
        if use_hood or endp:
            for c in range(s.ncell):
                q = (np.int64(s.cy[c]) - y0) * bw + np.int64(s.cx[c]) - x0
                bit = np.int32(1 << np.int64(hood[c // 6]))
                for d in range(4):
                    adj[q + DY4[d] * bw + DX4[d]] |= bit
    mask_q = s.place_mask_q  # per rotation the last footprint's corner and its mask: the drawn tiles come in turn
    for r in range(4):
        mask_q[r] = -1
    return use_hood, lead_m, nhot, endp, kend, e_base, e_unit, x0, y0, bw, boxed


@nb.njit(cache=True, inline="always")
def place_near(s, tid, rot, ax, ay, ctx):
    """near_hotels of the highest lot of drawn tile tid rotated rot with its south-west corner at (ax, ay), from the
    box's memo where the box fits (place_setup's ctx)."""
    _, _, nhot, _, _, _, _, x0, y0, bw, boxed = ctx
    bk = HIGH_K[tid]
    ox = ax + OFF_U[rot, bk]
    oy = ay + OFF_V[rot, bk]
    if boxed:
        memo = s.place_memo
        qo = (oy - y0) * bw + ox - x0
        near = memo[qo]
        if near < 0.0:
            near = near_hotels(s.place_hx, s.place_hy, nhot, ox, oy)
            memo[qo] = near
        return near
    return near_hotels(s.place_hx, s.place_hy, nhot, ox, oy)


@nb.njit(cache=True, inline="always")
def place_leads(s, sc, m, lead_m):
    """sc plus the lead terms of the neighbourhoods in mask m, in increasing h (each added in turn)."""
    lm = m & lead_m
    while lm != 0:
        low = lm & -lm
        lm ^= low
        sc += s.place_lead_w[low_bit(low)]
    return sc


@nb.njit(cache=True, inline="always")
def place_end(s, seat, m, tid, sc, ctx):
    """The end-game blend of a placement's usual score sc (the tile that starts the final scoring round): place_delta
    of the neighbourhoods it touches (mask m) and the tile, memoised per pair."""
    _, _, _, _, kend, e_base, e_unit, _, _, _, _ = ctx
    key = m * N_DECK + tid  # place_delta depends on the mask and the tile only: once per pair
    slot = (key * 0x9E3779B1 >> 24) & (PLACE_MEMO - 1)
    if s.place_key[slot] != key:
        s.place_key[slot] = key
        s.place_d[slot] = (
            place_delta(
                s,
                seat,
                m,
                s.place_gang[tid],
                s.place_val[tid],
                s.place_sb,
                s.place_gb,
                s.place_sh,
                s.look_tot,
                s.place_new,
                s.place_best,
            )
            - e_base
        )
    return (1.0 - kend) * sc + kend * (e_unit * s.place_d[slot] + ENDGAME_EPS * sc)


@nb.njit(cache=True, inline="always")
def place_score(s, seat, w, tid, rot, ax, ay, ctx):
    """The score of placing drawn tile tid rotated rot with its south-west corner at (ax, ay); ctx: place_setup's
    scalars.  Near its own empty hotels (W_NEAR), next to neighbourhoods it leads and away from rivals' leads
    (W_HOOD); the tile that starts the final scoring round by the projected final margin (W_ENDGAME, place_delta)."""
    use_hood, lead_m, _, endp, _, _, _, x0, y0, bw, boxed = ctx
    pos = ay * G + ax
    sc = w[W_NEAR] * place_near(s, tid, rot, ax, ay, ctx)
    mask_q = s.place_mask_q
    mask_m = s.place_mask_m
    if mask_q[rot] != pos:
        m = np.int64(0)
        if use_hood or endp:
            if boxed:
                adj = s.place_adj
                q0 = (ay - y0) * bw + ax - x0
                for k in range(6):
                    m |= np.int64(adj[q0 + OFF_V[rot, k] * bw + OFF_U[rot, k]])
            else:
                m = footprint_hoods(s, s.t_hood, ax, ay, rot)
        mask_q[rot] = pos
        mask_m[rot] = m
    m = np.int64(mask_m[rot])
    sc = place_leads(s, sc, m, lead_m)
    if endp:
        sc = place_end(s, seat, m, tid, sc, ctx)
    return sc


@nb.njit(cache=True, _nrt=False)
def choose_place(s, p, seat, legal, n, w, box):
    """choose on placing the grown tile: every listed placement scored by place_score.  Its work arrays are state
    fields (place_*, ctl_*); those over the map's box are used where the box has at most `box` squares (PLACE_BOX;
    the same choice without them)."""
    ctx = place_setup(s, p, seat, w, box)
    best = -1e300
    pick = 0
    ties = 0
    for i in range(n):
        a = legal[i]
        pos = pos_of(a)
        sc = place_score(s, seat, w, tile_of(a), rot_of(a), pos & (G - 1), pos >> 6, ctx)  # pos = ay * G + ax
        best, pick, ties = _take(s, sc, i, best, pick, ties)
    return pick


@nb.njit(cache=True, _nrt=False)
def quick_place(s, p, seat, w, box):
    """choose_place without the legal-action list: the placements of the game's scan (enum_places: place_rows,
    place_span, place_corners, streets_ok) scored as they are found, in the list's order, so the running best, its
    ties and their draws from the policy stream are those of choose_place on the list.  Per corner, the
    neighbourhoods the footprint touches once for both rotations of its shape (the same rectangle); a placement is
    checked against the streets (streets_ok) only where its score reaches the running best (one below it changes
    nothing, legal or not); the policy stream is kept in a local (sim.rng.float_of).  The placement it picks, or -1
    where none is legal (the list then offers END alone)."""
    ctx = place_setup(s, p, seat, w, box)
    use_hood, lead_m, _, endp, _, _, _, x0, y0, bw, boxed = ctx
    w_near = w[W_NEAR]
    adj = s.place_adj
    best = -1e300
    pick = np.int64(-1)
    ties = 0
    x = s.rng[1]
    place_rows(s, p)
    for shape in range(2):
        fw, fh, ax0, ax1, ay0, ay1 = place_span(s, shape)
        if ax1 <= ax0:
            continue
        for ay in range(ay0, ay1):
            cand = place_corners(s, fw, fh, ax0, ax1, ay)
            while cand != 0:
                low = cand & -cand
                cand ^= low
                ax = np.int64(low_bit(low))
                m = np.int64(0)
                if use_hood or endp:
                    if boxed:
                        q0 = (ay - y0) * bw + ax - x0
                        for k in range(6):
                            m |= np.int64(adj[q0 + OFF_V[shape, k] * bw + OFF_U[shape, k]])
                    else:
                        m = footprint_hoods(s, s.t_hood, ax, ay, shape)
                for j in range(s.ndraw):
                    tid = np.int64(s.draw[j])
                    for rot in (shape, shape + 2):
                        sc = place_leads(s, w_near * place_near(s, tid, rot, ax, ay, ctx), m, lead_m)
                        if endp:
                            sc = place_end(s, seat, m, tid, sc, ctx)
                        if sc > best - 1e-9 and streets_ok(s, tid, rot, ax, ay):
                            if sc > best + 1e-9:  # as _take
                                best = sc
                                pick = encode_place(tid, rot, ay * G + ax)
                                ties = 1
                            else:
                                ties += 1
                                x += GOLDEN
                                if float_of(x) * ties < 1.0:
                                    pick = encode_place(tid, rot, ay * G + ax)
    s.rng[1] = x
    return pick


@nb.njit(cache=True, _nrt=False)
def quick_main(s, p, seat, sid, w):
    """choose on a main decision without the legal-action list: the actions of the game's list (legal_actions,
    PH_MAIN) generated in its order and scored as they are found (the same score functions as score_main), so the
    running best, its ties and their draws from the policy stream are those of choose on the list; the policy
    stream is kept in a local (sim.rng.float_of).  -1 on the seat's last turn (the end-game look-ahead scores the
    list: choose_last_main)."""
    if w[W_ENDGAME] > 0.0 and last_turn(s, p, seat):
        return np.int64(-1)
    cost_build, cost_camper, cost_up, cost_down, fire_ins = main_setup(s, p, w)
    x = s.rng[1]
    # END first (the running best: no draw)
    best = s.bot_weights[W_END]
    pick = np.int64(A_END)
    ties = 1
    cur = np.int64(s.cur)
    okb, okc, ncamp, nhot, nlot = main_cells(s, p, cur)
    camps = s.camper_cells
    hots = s.hotel_cells
    lots = s.lot_cells
    if s.acted == 0:
        sc = s.bot_weights[W_MINE] + 3.5 * s.bot_weights[W_GOLD]  # every Mine scores alike
        for k in range(ncamp):
            if sc > best + 1e-9:
                best = sc
                pick = encode_mine(cell_pos(s, np.int64(camps[k])))
                ties = 1
            elif sc > best - 1e-9:
                ties += 1
                x += GOLDEN
                if float_of(x) * ties < 1.0:
                    pick = encode_mine(cell_pos(s, np.int64(camps[k])))
    for j in range(nhot):
        h = np.int64(hots[j])
        if s.hbuilt[h] != s.turn:
            hs = s.hsize[h]
            for k in range(ncamp):
                c = np.int64(camps[k])
                if s.die[c] == hs:
                    sc = score_host(s, seat, h, c)
                    if sc > best + 1e-9:
                        best = sc
                        pick = encode_host(cell_pos(s, h), cell_pos(s, c))
                        ties = 1
                    elif sc > best - 1e-9:
                        ties += 1
                        x += GOLDEN
                        if float_of(x) * ties < 1.0:
                            pick = encode_host(cell_pos(s, h), cell_pos(s, c))
    if s.built_act == 0:
        for k in range(nlot):
            c = np.int64(lots[k])
            v = np.int64(s.cval[c])
            on_camper = s.die[c] != 0
            if (okc if on_camper else okb) >> v & 1:
                sc = score_build(s, seat, c, v, on_camper, cost_build, cost_camper)
                if sc > best - 1e-9:
                    a = encode_build_camper(cell_pos(s, c), v) if on_camper else encode_build(cell_pos(s, c), v)
                    if sc > best + 1e-9:
                        best = sc
                        pick = a
                        ties = 1
                    else:
                        ties += 1
                        x += GOLDEN
                        if float_of(x) * ties < 1.0:
                            pick = a
        for j in range(nhot):
            h = np.int64(hots[j])
            hs = np.int64(s.hsize[h])
            for ns in range(1, 7):
                if resize_ok(s, p, cur, hs, ns):
                    sc = score_resize(s, seat, ns, hs, (ns - hs) * cost_up if ns > hs else (hs - ns) * cost_down)
                    if sc > best + 1e-9:
                        best = sc
                        pick = encode_resize(cell_pos(s, h), ns)
                        ties = 1
                    elif sc > best - 1e-9:
                        ties += 1
                        x += GOLDEN
                        if float_of(x) * ties < 1.0:
                            pick = encode_resize(cell_pos(s, h), ns)
    if fire_ok(s, p):
        for j in range(nhot):
            h = np.int64(hots[j])
            if s.hbuilt[h] != s.turn:
                sc = score_fire(s, seat, h, sid, fire_ins)
                if sc > best + 1e-9:
                    best = sc
                    pick = encode_fire(cell_pos(s, h))
                    ties = 1
                elif sc > best - 1e-9:
                    ties += 1
                    x += GOLDEN
                    if float_of(x) * ties < 1.0:
                        pick = encode_fire(cell_pos(s, h))
    s.rng[1] = x
    return pick


@nb.njit(cache=True, inline="always")
def quick_choice(s, p, seat, sid, weights):
    """A main decision's action (quick_main) or the grown tile's placement (quick_place) without the legal-action
    list (sim.kernel's quick_choice): the one choose picks from the list.  -1 for every other decision and on the
    seat's last turn."""
    if s.phase == PH_MAIN:
        return quick_main(s, p, seat, sid, weights)
    if s.phase == PH_PLACE:
        return quick_place(s, p, seat, weights, PLACE_BOX)
    return np.int64(-1)


@nb.njit(cache=True, inline="always")
def near_hotels(hx, hy, nhot, ox, oy):
    """The placement term of square (ox, oy): the sum over the seat's empty hotels (hx, hy)[:nhot] of 1 / (1 + the
    distance)."""
    near = 0.0
    for j in range(nhot):
        near += INV1[abs(np.int64(hx[j]) - ox) + abs(np.int64(hy[j]) - oy)]
    return near


@nb.njit(cache=True, _nrt=False)
def footprint_hoods(s, hood, ax, ay, rot):
    """Bit mask of the neighbourhoods whose tiles touch (orthogonally) a square of the footprint of a tile rotated
    rot with its south-west corner at (ax, ay) (choose_place's adj where the map's box outgrows the state's arrays)."""
    m = np.int64(0)
    for k in range(6):
        x = ax + OFF_U[rot, k]
        y = ay + OFF_V[rot, k]
        for d in range(4):
            g = np.int64(s.grid[y + DY4[d], x + DX4[d]])
            if g >= 0:
                m |= np.int64(1) << np.int64(hood[g // 6])
    return m
