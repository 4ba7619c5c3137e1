"""Scripted Saloon Tycoon players: one greedy evaluator whose knobs (weights) make the archetypes.

Every legal action gets a value in Reputation-point equivalents; the best is taken (ties broken at random from the
policy stream).  Ending the turn is worth 0, so a player keeps taking free actions while they pay and always uses
his Tycoon action.  None of them reads hidden information (other players' hands or secret claims).

Knobs: the table K below (name, default, range, doc; claimev in detail here); presets: PRESETS.
claimev: 0 = a claim counts as its points when secret claims are kept and in claimtile; 1 = as its points times
the chance estimated from the state (see _claim_chance: hopeless claims are dropped and not chased, near-complete
ones chased).
"""

import sim

sim.use_game_cache("sim.games.saloon_tycoon")  # these bots compile into their game's cache (sim/__init__.py)

import math

import numba as nb
import numpy as np

from sim.games.saloon_tycoon.actions import (
    BONUS_PLAY,
    BRIBE,
    BUILD,
    BUY,
    CARD_BUILD,
    CHEAP_CUBE,
    DISCARD,
    DRAW,
    DROP,
    EARN,
    END_TURN,
    MOVE,
    PLACE,
    PLAY,
    SKIP,
    STAKE,
    bribes_listed,
    buys_listed,
    card_of,
    character_of,
    claim_of,
    encode_buy,
    encode_play,
    floor_of,
    footprint_of,
    gen_builds,
    gen_moves,
    gen_stakes,
    kind_of,
    own_tile_of,
    plays_listed,
    seat_of,
    tile_of,
)
from sim.games.saloon_tycoon.params import (
    B_ACTION,
    B_CITIZEN,
    B_CUBES,
    B_DRAW,
    B_GOLD,
    B_PLAY,
    CF_BUILD,
    CF_CHEAP_N,
    CF_COPIES,
    CF_CUBES,
    CF_DRAW,
    CF_EXTRA,
    CF_GOLD,
    CF_GOLD_INCOME,
    CF_MOVE,
    CF_STEAL_CARDS,
    CF_STEAL_GOLD,
    KF_PER,
    MAX_CARD_TYPES,
    MAX_TERMS,
    MAX_TILE_TYPES,
    P_ANGIE_TILES,
    P_BRIBE,
    P_CUBE_PRICE,
    P_DRAW,
    P_EARN,
    P_FIN_L,
    P_FIN_S,
    P_FLAT_GOLD,
    P_FLAT_MALUS,
    P_HAND_LIMIT,
    P_N_CARDS,
    P_N_TILES,
    P_PHIN_CUBES,
    P_PHIN_PRICE,
    P_ROOF_PTS,
    R_ABOVE_SALOON,
    R_ANY,
    R_CIT,
    R_CIT_F,
    R_CIT_M,
    R_CUBES,
    R_DISTINCT,
    R_F,
    R_FINISHED,
    R_FLOOR3,
    R_FULL_ARM,
    R_GOLD,
    R_HAND,
    R_INCOME,
    R_LARGE_EXCL,
    R_LARGE_ROOFS,
    R_LOTS_GE,
    R_M,
    R_NAMED,
    R_OUTLAWS,
    R_OUTLAWS_MAX,
    R_ROOFS,
    R_SPECIAL,
    R_TILE_TYPE,
    R_TILES,
    TF_ABOVE,
    TF_BONUS,
    TF_BONUS_N,
    TF_CITIZEN,
    TF_COPIES,
    TF_COST,
    TF_CUBES,
    TF_FMIN,
    TF_LARGE,
    TF_SPECIAL,
)
from sim.games.saloon_tycoon.queries import (
    LOT_GOLD,
    build_cost,
    card_playable,
    char_is_citizen,
    char_is_female,
    claim_points,
    claim_term,
    count_type,
    cparam,
    income_of,
    kbase,
    lot_gold,
    lot_param,
    lot_rep,
    tile_open,
    total_vp,
    tparam,
)
from sim.games.saloon_tycoon.state import (
    ANGIE,
    ARM_LOTS,
    ARMS,
    FLATFOOT,
    FP_A,
    FP_LARGE,
    MAX_SEC_HAND,
    N_CHARS,
    NFLOORS,
    PH_PLAY,
    PHINEUS,
    ROOF_LARGE,
    ROOF_SMALL,
    SEC_KEPT,
    SYDNEY,
    TK_ACTION,
)
from sim.kernel import one_copy
from sim.knobs import KnobTable, Preset, strategies
from sim.rng import GOLDEN, float_of, rand_float

# Knobs (the weights row).  Defaults are the tall builder's; each preset in PRESETS lists what it changes.
K = KnobTable()
W_UP = K.add("up", 2.5, 0.0, 5.0, doc="Rep-equivalent per floor above the ground when building (tall builders)")
W_OUT = K.add("out", 0.2, 0.0, 4.0, doc="value per Reputation point of an outer lot (wide builders)")
W_LOTGOLD = K.add("lotgold", 1.5, 0.0, 3.0, doc="extra weight on the lot's gold surcharge (1 = priced like any gold)")
W_CLAIM = K.add("claim", 1.0, 0.0, 4.0, doc="multiplier on a claim's points")
W_SYDNEY = K.add(
    "sydney",
    2.0,
    0.0,
    10.0,
    doc="points a claim must beat to be the first one scored (Sydney Smythe costs 5 at the end)",
)
W_CUBE = K.add("cube", 0.0, 0.0, 5.0, doc="extra desire per bought cube (cube rusher: drains the timer)")
W_CHAR = K.add(
    "char", 0.6, 0.0, 5.0, doc="multiplier on character values: special tiles' Citizens, bribes, character cards"
)
W_OUTLAW = K.add("outlaw", 3.0, 0.0, 8.0, doc="penalty for triggering an outlaw on oneself")
W_RESERVE = K.add("reserve", 0.0, 0.0, 10.0, doc="gold kept back when buying cubes")
W_ROOF = K.add("roof", 4.0, 0.0, 8.0, doc="extra value of finishing on the 3rd floor (roof +4 and +1 income)")
W_GOLD = K.add("gold", 0.5, 0.0, 2.0, doc="value of one gold in Rep")
W_DRAW = K.add("draw", 1.0, 0.0, 3.0, doc="value of the Draw action with a short hand")
W_CLAIMTILE = K.add("claimtile", 0.5, 0.0, 6.0, doc="value of building a tile a visible claim still needs")
W_CLAIMEV = K.add(
    "claimev",
    1.0,
    0.0,
    1.0,
    doc="weight of the estimated chance of completing a claim (0: a claim counts as its points; see the module doc)",
)
W_INCOME = K.add(
    "income",
    1.0,
    0.0,
    2.0,
    doc="value, in gold, of each own turn left of the +1 income a new tile brings (0: a build is valued by its "
    "points and bonus only, as before the audit of issue 24)",
)
W_DRAWN = K.add(
    "drawn",
    0.3,
    0.0,
    1.0,
    doc="share of a card's played value counted for each card the Draw action brings (it still needs a Tycoon "
    "action to play; 0: Draw is worth only the flat `draw`, as before issue 24's audit; 0.3 set by the audit: "
    "with 0.5 Draw itself was flagged, mean regret +0.069 at 4 players; see _draw_value)",
)
W_FINISHODDS = K.add(
    "finishodds",
    1.0,
    0.0,
    1.0,
    doc="weight of the chance of finishing a new tile (see _finish_chance) on what only a finished tile brings "
    "(0: counted in full, as before issue 24's audit)",
)
W_OUTLAWGOLD = K.add(
    "outlawgold",
    1,
    0,
    1,
    kind="bool",
    doc="1: dumping an own outlaw on a rival is valued by the gold it costs (Phineus, Flatfoot; see _move_value); "
    "0: a flat 3 Rep x `char`, as before issue 24's audit",
)
W_PHINCHAIN = K.add(
    "phinchain",
    1.0,
    0.0,
    1.0,
    doc="share of `outlaw` charged to a cube that finishes a tile whose bonus cubes then bring Phineus Pillbottom "
    "(5 cubes on the board; see _phin_chain), and half of it to building such a tile when its own cubes and its "
    "bonus would; 0: not seen, as before the second pass of issue 24's audit",
)
W_CUBEWAIT = K.add(
    "cubewait",
    0.0,
    0.0,
    1.0,
    doc="share of a bought cube's value dropped when it does not finish its tile and the gold left cannot finish it "
    "this turn (it can be bought as well later, and the gold kept pays for a build first; see _cube_value); 0: "
    "bought as before the second pass of issue 24's audit",
)
W_DRAWTURNS = K.add(
    "drawturns",
    1.0,
    0.0,
    1.0,
    doc="share of the Draw action's card value dropped for the cards the player cannot play any more: the Tycoon "
    "actions left (this turn's and one per own turn left) minus the cards already held (see _draw_value); 0: every "
    "drawn card counted, as before the third pass of issue 24's audit",
)
W_PLAYSHARE = K.add(
    "playshare",
    1.0,
    0.0,
    1.0,
    doc="share of the own turns left whose Tycoon action `drawturns` counts as a card play (measured: `tall` plays "
    "0.43 cards a turn at 2 players, 0.54 at 4, bonus plays included, but 0.5 lost to 1 head to head: 49.7% "
    "against 50.3% at 2 players; 1: every turn)",
)
W_EARNPLAN = K.add(
    "earnplan",
    1.0,
    0.0,
    1.0,
    doc="share counted, on top of its gold, of the best build that Earn makes affordable when another Tycoon "
    "action is left this turn to build it (Hired Hands; see _earn_plan); 0: Earn is worth its gold only, as before "
    "the third pass of issue 24's audit",
)
W_BRIBEBACK = K.add(
    "bribeback",
    1,
    0,
    1,
    kind="bool",
    doc="1: an outlaw dumped on a rival who could bribe him back is still worth it when this player could then bribe "
    "him away again at its next turn and the rival could not pay two bribes (the rival's own `outlawgold` check then "
    "keeps him: see _sent_back); 0: any rival who can pay the bribe is expected to send him back, as before the "
    "third pass of issue 24's audit",
)
W_BRIBEWAR = K.add(
    "bribewar",
    1,
    0,
    1,
    kind="bool",
    doc="1: a rival who can pay the bribe is expected to send a dumped outlaw back only when its income is at least "
    "this player's (the one who would outlast a bribe war keeps him away; every bot reads the same rule, so the "
    "holder it predicts keeps him does keep him: see _sent_back); 0: the `bribeback` rule, as before the fourth pass "
    "of issue 24's audit",
)
W_CUBEFIRST = K.add(
    "cubefirst",
    1.0,
    0.0,
    1.0,
    doc="share counted, when the best Tycoon action would leave too little gold for the best cube, of the best Tycoon "
    "action still affordable after that cube (the cube is bought first when the two together beat the Tycoon "
    "action alone; never before a unique special tile; see _cube_first_may); 0: one action at a time, as before the "
    "fourth pass of issue 24's audit (head to head +0.019 +- 0.006 at 2 players, neutral at 4: see BOTS.md)",
)
N_WEIGHTS = len(K)

PRESETS = [
    Preset("tall", 1, "Tall builder: builds up on finished tiles, finishes 3rd floors for roofs.", {}),
    Preset(
        "wide",
        1,
        "Wide builder: spreads over the outer lots for their Reputation.",
        dict(up=0.0, out=1.6, lotgold=0.6, roof=0.0, cubefirst=0.0),  # cubefirst: -0.018 +- 0.006 head to head
    ),
    Preset(
        "claims",
        1,
        "Claim hunter: builds what its claims need and stakes every claim at once (ignores Sydney Smythe).",
        dict(
            up=0.8, out=0.5, lotgold=1.0, claim=2.0, sydney=0.0, char=0.8, outlaw=1.0, roof=1.5, draw=1.2, claimtile=3.0
        ),
    ),
    Preset(
        "rusher",
        1,
        "Cube rusher: buys cubes whenever it can and empties the pile itself when it can "
        "(measured: it does not yet end more games than the others; see BOTS.md).",
        dict(up=0.8, out=0.3, lotgold=1.0, sydney=1.0, cube=2.5, char=0.4, outlaw=1.0, roof=1.5, gold=0.4, draw=0.6),
    ),
    Preset(
        "characters",
        1,
        "Character player: special tiles for Citizens, bribes Citizens home and dumps "
        "outlaws on the leader, avoids outlaw triggers.",
        dict(up=1.0, out=0.3, lotgold=1.0, sydney=5.0, char=2.0, outlaw=4.0, roof=2.0),
    ),
]
STRATEGIES = strategies(K, PRESETS)


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
    bv = -(10**9)
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
def _finish_value(s, p, seat, i, w, pending):
    """Value of finishing own tile i; `pending`: cubes still to land from the current effect after this one (they
    take open spaces before the tile's bonus cubes)."""
    t = s.tile_type[seat, i]
    v = p[P_FIN_L] if tparam(p, t, TF_LARGE) == 1 else p[P_FIN_S]
    bonus = _bonus_value(p, t, w)
    if np.int64(tparam(p, t, TF_BONUS)) == B_CUBES:
        n = tparam(p, t, TF_BONUS_N)
        room = _open_spaces(s, p, seat) - (tparam(p, t, TF_CUBES) - s.tile_cubes[seat, i]) - pending
        room = max(room, 0.0)
        v -= w[W_PHINCHAIN] * _phin_chain(s, p, seat, pending, min(n, room), w)
    v += bonus
    if s.tile_floor[seat, i] == NFLOORS - 1:
        v += p[P_ROOF_PTS] + 1.0 + w[W_ROOF]
    v += 1.0  # opens the space above
    return v


@nb.njit(cache=True, _nrt=False, inline="always")
def _phin_chain(s, p, seat, pending, extra, w):
    """`outlaw` when the finishing cube, the current effect's cubes and then `extra` bonus cubes bring Phineus
    Pillbottom to this player and the cubes alone would not (outlaws do not arrive in others' final turns).  The
    audit of issue 24 (second pass) found bonus cubes of a Pantry triggering him early its worst cube placements."""
    if s.char_owner[PHINEUS] >= 0 or extra <= 0.0 or (s.end_trig == 1 and s.cur != s.trig_seat):
        return 0.0
    k = s.cubes_board[seat] + 1.0 + pending
    if k >= p[P_PHIN_CUBES] or k + extra < p[P_PHIN_CUBES]:
        return 0.0
    return w[W_OUTLAW]


@nb.njit(cache=True, _nrt=False, inline="always")
def _cube_value(s, p, seat, i, w, pending, paid):
    """Value of one cube on own tile i (`pending`: cubes of the current effect still to land after it): the
    finishing value when it finishes the tile, else a share of it, and for a bought cube (`paid` gold > 0) whose
    tile the gold left cannot finish this turn, times 1 - `cubewait` (off in every preset; see BOTS.md)."""
    t = s.tile_type[seat, i]
    left = tparam(p, t, TF_CUBES) - s.tile_cubes[seat, i]
    fv = _finish_value(s, p, seat, i, w, pending)
    if left <= 1:
        return fv
    v = fv / left * 0.6
    price = p[P_PHIN_PRICE] if s.char_owner[PHINEUS] == seat else p[P_CUBE_PRICE]
    need = max(left - 1.0 - pending, 0.0) * price
    if need <= 0.0:
        return v
    if paid > 0.0 and s.gold[seat] - paid < need:
        v *= 1.0 - w[W_CUBEWAIT]
    return v


@one_copy(_nrt=False)
def _can_end_now(s, p, seat, reserve_bribe):
    """Could this player still empty the timer pile this turn (after a bribe)?  Then a stolen Citizen stays stolen
    (the others cannot move characters in their final turns)."""
    price = p[P_PHIN_PRICE] if s.char_owner[PHINEUS] == seat else p[P_CUBE_PRICE]
    if s.gold[seat] - (p[P_BRIBE] if reserve_bribe else 0) < s.pile * price:
        return False
    space = 0
    for i in range(s.n_tiles[seat]):
        space += tparam(p, s.tile_type[seat, i], TF_CUBES) - s.tile_cubes[seat, i]
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


# Share of the cubes placed that are bought (4 players, tall in every seat, 8 replayed audit games: 573 of 863;
# the rest come from cards and finishing bonuses): how many of its pile share Phineus Pillbottom's holder pays for.
BOUGHT_SHARE = 0.66


@nb.njit(cache=True, _nrt=False, inline="always")
def _outlaw_gold(s, p, c):
    """Gold outlaw c still costs its holder by the end: Phineus Pillbottom the price surcharge on the bought part
    of an even share of the timer pile, Flatfoot Fleming the income malus in each own turn left; 0 for the others."""
    if c == PHINEUS:
        return (p[P_PHIN_PRICE] - p[P_CUBE_PRICE]) * BOUGHT_SHARE * s.pile / s.n
    if c == FLATFOOT:
        return p[P_FLAT_MALUS] * (_turns_left(s) - 1.0)
    return 0.0


@nb.njit(cache=True, _nrt=False, inline="always")
def _sent_back(s, p, seat, d, gold, w):
    """Would rival d bribe an outlaw costing `gold` straight back?  It costs d as much (the same pile share), d can
    pay the bribe at its next turn, and the end is not triggered (no bribes then).  Valuing only the gold, two bots
    bribed Phineus back and forth until the game stalled (2 players, issue 24)."""
    if s.end_trig == 1:
        return False
    b = p[P_BRIBE]
    inc = income_of(s, d)
    if not (gold * (1.0 + 1.0 / (s.n - 1.0)) > b and s.gold[d] + inc >= b):
        return False
    if w[W_BRIBEWAR] == 1.0:
        # the richer income outlasts a bribe war; the rival applies the same test the other way round, so a rival
        # predicted to keep him does keep him (ties: sent back, no bribe, so no war between equal players)
        return inc >= income_of(s, seat)
    if w[W_BRIBEBACK] == 0.0:
        return True
    # d's own check (this one) keeps him when this player, having paid the bribe now, could pay another at its next
    # turn, unless d could then pay a second one too; so no bribing back and forth between two rich players
    return s.gold[seat] - b + income_of(s, seat) < b or s.gold[d] + 2.0 * inc >= 2.0 * b


@nb.njit(cache=True, _nrt=False, inline="always")
def _move_may_pay(p, seat, c, o, d):
    """May moving character c from saloon o to saloon d be worth something to `seat` (else _move_value is -20): a
    Citizen brought to it, or an outlaw of its own sent away?"""
    if char_is_citizen(p, c):
        return d == seat and o != seat
    return o == seat and d != seat


@nb.njit(cache=True, _nrt=False, inline="always")
def _move_value(s, p, seat, c, d, w, gv):
    """Value to `seat` of moving character c to saloon d.  Only called from choose (uses its per-call caches)."""
    o = s.char_owner[c]
    if not _move_may_pay(p, seat, c, o, d):
        return -20.0
    if char_is_citizen(p, c):
        # a Citizen stolen early is stolen back: only worth it near the end
        return 8.0 * w[W_CHAR] * (1.0 if _late(s, p, seat) else 0.1)
    hurt = 1.0 if d == _leader_c(s, seat) else 0.3  # a rival's loss counts in full only for the leader
    gold = _outlaw_gold(s, p, c) if w[W_OUTLAWGOLD] == 1.0 else 0.0
    if gold > 0.0 and _sent_back(s, p, seat, d, gold, w):
        return 0.0
    if gold > 0.0:
        # the gold it would cost this player, saved, and what it costs the rival, which helps this player as
        # much as a gain of its own in a 2-player game and a share 1 / (players - 1) of it among more (the others
        # gain alike).  A flat 3 Rep x `char` before issue 24's audit, which found bribing Phineus away the best
        # action in 2-player builds.
        return gold * gv * (1.0 + hurt / (s.n - 1.0))
    sev = 3.0
    if c == SYDNEY:
        sev = 5.0 if _late(s, p, seat) else 1.5
    return sev * w[W_CHAR] * hurt


@nb.njit(cache=True, _nrt=False)
def _best_move(s, p, seat, w, gv):
    """Best character move value, computed at most once per choose call (cached in s.ai_bm; -1 = not yet)."""
    if s.ai_bm >= 0.0:
        return s.ai_bm
    best = 0.0
    for c in range(N_CHARS):
        if s.char_owner[c] < 0:
            continue
        for d in range(s.n):
            if d != s.char_owner[c]:
                v = _move_value(s, p, seat, c, d, w, gv)
                if v > best:
                    best = v
    s.ai_bm = best
    return best


@nb.njit(cache=True, _nrt=False)
def _open_spaces(s, p, seat):
    """Open cube spaces on the seat's board: cubes a card brings beyond them are lost (R).  Computed at most once
    per choose call (cached in s.ai_room; NaN = not yet)."""
    if not np.isnan(s.ai_room):
        return s.ai_room
    k = 0.0
    for i in range(s.n_tiles[seat]):
        k += tparam(p, s.tile_type[seat, i], TF_CUBES) - s.tile_cubes[seat, i]
    s.ai_room = k
    return k


@nb.njit(cache=True, _nrt=False, inline="always")
def _card_value(s, p, seat, c, w, gv):
    v = cparam(p, c, CF_GOLD) * gv
    room = _open_spaces(s, p, seat)
    v += min(cparam(p, c, CF_CUBES), room) * 1.5
    if cparam(p, c, CF_GOLD_INCOME) == 1:
        v += income_of(s, seat) * gv
    v += cparam(p, c, CF_EXTRA) * 1.8
    v += min(cparam(p, c, CF_CHEAP_N), room) * 0.8
    if cparam(p, c, CF_BUILD) == 1:
        v += 3.0
    v += cparam(p, c, CF_STEAL_GOLD) * gv * 1.5
    v += cparam(p, c, CF_STEAL_CARDS) * 0.8
    if cparam(p, c, CF_MOVE) == 1:
        v += _best_move(s, p, seat, w, gv)
    v += cparam(p, c, CF_DRAW) * 0.7
    return v


@nb.njit(cache=True, _nrt=False, inline="always")
def _on_bonus_action(s):
    """True while a bonus action (a card's extra action) is being taken: it does not use up one of the turn's own."""
    return s.n_tasks > 0 and s.task[s.n_tasks - 1, 0] == TK_ACTION


@nb.njit(cache=True, _nrt=False)
def _draw_value(s, p, seat, w, gv):
    """_draw_value_now computed at most once per choose call (cached in s.ai_draw; NaN = not yet)."""
    if np.isnan(s.ai_draw):
        s.ai_draw = _draw_value_now(s, p, seat, w, gv)
    return s.ai_draw


@nb.njit(cache=True, _nrt=False)
def _draw_value_now(s, p, seat, w, gv):
    """Value of the Draw action: the flat `draw` with a short hand, plus `drawn` x the mean played value of a card
    of the deck (by copies) for each card it adds, or for each card it replaces beyond the hand limit, the mean's
    gain over the worst card held.  Flat alone (a short hand 1 Rep, the price of Earn), Draw lost to card plays,
    builds and Earn where the audit found it best (issue 24)."""
    v = w[W_DRAW] if s.hand_n[seat] <= 3 else 0.1 * w[W_DRAW]
    if w[W_DRAWN] == 0.0:
        return v
    tot = 0.0
    k = 0.0
    for c in range(np.int64(p[P_N_CARDS])):
        m = cparam(p, c, CF_COPIES)
        if m > 0:
            tot += m * _card_value(s, p, seat, c, w, gv)
            k += m
    if k == 0.0:
        return v
    mean = tot / k
    draw = p[P_DRAW]
    added = max(0.0, min(draw, p[P_HAND_LIMIT] - s.hand_n[seat]))
    swap = draw - added  # cards that replace held ones (hand limit): worth their gain over the worst held
    kt = w[W_DRAWTURNS]
    if kt > 0.0:
        # card plays left after this Draw: this turn's remaining Tycoon actions (a bonus action or Hired Hands'
        # actions leave the turn's own) and one per own turn left; the cards held take them first
        now = s.acts_any
        if not _on_bonus_action(s) and s.acts_noplay <= 0:
            now -= 1
        plays = now + w[W_PLAYSHARE] * (_turns_left(s) - 1.0)
        idle = added - max(0.0, min(added, plays - s.hand_n[seat]))
        if idle >= added:
            v *= 1.0 - kt
        added -= kt * idle
        swap += kt * idle  # an idle card still widens the choice
    gain = added * mean
    if swap > 0.0:  # the worst card held matters only for cards that replace one (the same sum when none does)
        gain += swap * max(0.0, mean - _worst_card(s, p, seat, w, -1, gv))
    return v + w[W_DRAWN] * gain


@one_copy(_nrt=False)
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
def _finish_chance(s, p, seat, t, cost):
    """Share of a new tile's finishing value counted: the gold left after building it plus the income of the own
    turns left, against what its cubes cost (1 when it covers them; near the end a tile that cannot be finished
    scores only as unfinished, and the audit of issue 24 found late upper-floor builds the costliest blunders)."""
    price = p[P_PHIN_PRICE] if s.char_owner[PHINEUS] == seat else p[P_CUBE_PRICE]
    need = tparam(p, t, TF_CUBES) * price
    have = s.gold[seat] - cost + (income_of(s, seat) + 1.0) * (_turns_left(s) - 1.0)
    return min(1.0, max(0.0, have / max(need, 1.0)))


@nb.njit(cache=True, _nrt=False, inline="always")
def _build_value(s, p, seat, a, ignore_lot, discount, w, gv):
    """Value of the build (or card build) action a."""
    t = tile_of(a)
    f = floor_of(a)
    fp = footprint_of(a)
    cost = build_cost(p, t, f, fp, ignore_lot, discount)
    lg = 0 if ignore_lot else lot_gold(p, f, fp)
    fin = p[P_FIN_L] if tparam(p, t, TF_LARGE) == 1 else p[P_FIN_S]
    # what only a finished tile brings: its finishing points and bonus, the floor it opens, the roof, the Citizen
    later = 0.5 * fin + _bonus_value(p, t, w) * 0.5 + w[W_UP] * f
    if f == NFLOORS - 1:
        later += w[W_ROOF]
    if tparam(p, t, TF_SPECIAL) == 1:
        later += w[W_CHAR] * 2.0
    if np.int64(tparam(p, t, TF_BONUS)) == B_CUBES and s.char_owner[PHINEUS] < 0:
        # its bonus cubes would bring Phineus Pillbottom on top of its own (the audit's early Pantry builds)
        k = s.cubes_board[seat] + tparam(p, t, TF_CUBES)
        if k < p[P_PHIN_CUBES] <= k + tparam(p, t, TF_BONUS_N):
            later -= 0.5 * w[W_PHINCHAIN] * w[W_OUTLAW]
    k = w[W_FINISHODDS]
    v = 2.0 + (1.0 - k + k * _finish_chance(s, p, seat, t, cost)) * later
    v += w[W_INCOME] * gv * (_turns_left(s) - 1.0)
    v += w[W_OUT] * lot_rep(p, f, fp)
    v += w[W_CUBE] * 0.5 * tparam(p, t, TF_CUBES) / (1.0 + cost)  # the rusher wants cheap cube spaces
    v -= cost * gv + lg * gv * (w[W_LOTGOLD] - 1.0)
    v += w[W_CLAIMTILE] * s.ai[t]
    if s.char_owner[ANGIE] < 0 and s.built[seat] + 1 >= p[P_ANGIE_TILES] and s.pile > 2 * s.n:
        v -= w[W_OUTLAW]
    return v


@nb.njit(cache=True, _nrt=False, inline="always")
def _earn_value(s, p, seat, w, gv):
    v = 2.0 * gv
    if s.char_owner[FLATFOOT] < 0 and s.gold[seat] < p[P_FLAT_GOLD] <= s.gold[seat] + 2:
        v -= w[W_OUTLAW]
    return v


@nb.njit(cache=True, _nrt=False, inline="always")
def _play_value(s, p, seat, kind, c, w, gv):
    v = _card_value(s, p, seat, c, w, gv)
    if kind == PLAY and s.char_owner[ANGIE] == seat:
        v -= _worst_card(s, p, seat, w, c, gv)
    return v


@nb.njit(cache=True, _nrt=False, inline="always")
def _bribe_value(s, p, seat, kind, a, w, gv):
    v = _move_value(s, p, seat, character_of(a), seat_of(a), w, gv)
    if kind == BRIBE:
        v -= p[P_BRIBE] * gv
    return v


@nb.njit(cache=True, _nrt=False, inline="always")
def _buy_value(s, p, seat, kind, a, w, gv):
    if kind == BUY:
        price = p[P_PHIN_PRICE] if s.char_owner[PHINEUS] == seat else p[P_CUBE_PRICE]
        if s.gold[seat] - price < w[W_RESERVE]:
            return -1.0
    else:
        price = s.task[s.n_tasks - 1, 2]
    v = _cube_value(s, p, seat, own_tile_of(a), w, 0.0, price) + w[W_CUBE] - price * gv
    if w[W_CUBE] > 0 and s.end_trig == 0 and _can_end_now(s, p, seat, False):
        v += 2.0 * w[W_CUBE]  # the rusher ends the game himself when it can
    # dodge Phineus only while building is an alternative (else every careful player waits: a standoff)
    if s.char_owner[PHINEUS] < 0 and s.cubes_board[seat] + 1 >= p[P_PHIN_CUBES] and s.ai[0] > 0:
        v -= w[W_OUTLAW]
    return v


@nb.njit(cache=True, _nrt=False, inline="always")
def _stake_value(s, p, seat, a, w):
    pts = claim_points(s, p, seat, claim_of(a))
    v = w[W_CLAIM] * pts
    if s.char_owner[SYDNEY] < 0 and s.end_trig == 0:
        v -= w[W_SYDNEY]
    return v


@nb.njit(cache=True, _nrt=False, inline="always")
def _value(s, p, seat, a, w, n_legal, gv):
    """The value of action a.  Each kind's value is its own helper, so that _quick_main, which knows the kind at
    each place, inlines only that kind's (one inlined _value per place took minutes of its first compile)."""
    kind = kind_of(a)
    if kind == END_TURN or kind == SKIP:
        return 0.0
    if kind == EARN:
        return _earn_value(s, p, seat, w, gv)
    if kind == DRAW:
        return _draw_value(s, p, seat, w, gv)
    if kind == PLAY or kind == BONUS_PLAY:
        return _play_value(s, p, seat, kind, card_of(a), w, gv)
    if kind == BUILD:
        return _build_value(s, p, seat, a, False, 0, w, gv)
    if kind == CARD_BUILD:
        top = s.n_tasks - 1
        return _build_value(s, p, seat, a, s.task[top, 1] == 1, s.task[top, 2], w, gv) + 1.0
    if kind == BRIBE or kind == MOVE:
        return _bribe_value(s, p, seat, kind, a, w, gv)
    if kind == BUY or kind == CHEAP_CUBE:
        return _buy_value(s, p, seat, kind, a, w, gv)
    if kind == PLACE:
        return _cube_value(s, p, seat, own_tile_of(a), w, s.task[s.n_tasks - 1, 1] - 1.0, 0.0)
    if kind == STAKE:
        return _stake_value(s, p, seat, a, w)
    if kind == DISCARD:
        return -_card_value(s, p, seat, card_of(a), w, gv)
    if kind == DROP:
        g = claim_of(a)
        return -_claim_prospect(s, p, seat, g) * _ev_factor(s, p, seat, g, w)
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


# ---------------------------------------------------------------- claim completion estimate (weight claimev)
# A claim's estimated chance is the product of two parts.
# - Board totals that every board grows anyway (tiles, income, finished tiles, cubes, tile types, 3rd-floor tiles,
#   roofs, large and special tiles, tiles above the Saloon): the measured gain over the turns left (GR_*), scaled
#   for the steady totals by the player's own progress so far, and the chance of reaching the requirement with a
#   spread growing with the gain (normal approximation).
# - Requirements that need particular moves (named tile types, characters, outlaw limits, gold, cards, lots):
#   the Tycoon actions (A) and gold (G) they still cost, and a factor F for what is not in the player's hands
#   alone (too few copies of a tile left for the rivals' needs, a rival may build a unique tile or trigger an
#   outlaw first, a character in a rival's saloon must be bribed home, an outlaw may still land in a saloon that
#   must stay clean).  The share of the player's remaining turns and gold they need, frac = A / L + G / budget,
#   gives F ** F_EXP / (1 + exp(CH_K * (frac - CH_M))).
# The chance is 1 when every requirement is met now, 0 when one can no longer be met.  Only public information is
# read.  Calibration (default line-up keeping random secret claims, 3,000 games): estimated 0.0-0.1 -> 4% scored,
# 0.3-0.4 -> 35%, 0.6-0.7 -> 70%, 0.9-1.0 -> 89%.  Claims needing several characters (Front Page) are
# underestimated (4% against 11%), the 4-point two-tile claims too (36-47% against 47-86%).
CH_K = 5.0  # CH_K, CH_M, F_EXP: fitted (log loss) on those games
CH_M = 0.3
F_EXP = 0.75
F_RACE = 0.6  # set by hand (the fit rescales F by F_EXP): a unique special tile still in supply
F_BRIBE = 0.4  # a character in a rival's saloon: bribed home (and kept: it can be bribed back)
F_OUTLAW = 0.5  # an outlaw not yet in town: its trigger is a race
F_RISK = 0.5  # "no outlaws": each outlaw not yet in town lands in this saloon with about F_RISK / players
CUBES_S = 3.0  # cube spaces of a common small / large tile (default data)
CUBES_L = 4.0
K_OWN = 0.4  # weight of the measured pace against the player's own pace so far (as a share of a game)
# Measured pace (default line-up, 4 players, 2,000 games): a board total gains about (a + b * L) per turn over the L
# own turns left (roofs and 3rd floors come late, b < 0; tiles and tile types early, b > 0).
GR_TILES = (0.317, 0.0119)
GR_INCOME = (0.583, -0.0012)
GR_FINISHED = (0.590, -0.0021)
GR_CUBES = (2.142, -0.0187)
GR_DISTINCT = (0.254, 0.0099)
GR_FLOOR3 = (0.211, -0.0069)
GR_ROOFS = (0.266, -0.0130)
GR_LROOFS = (0.223, -0.0134)
GR_LARGE = (0.346, -0.0120)
GR_SPECIAL = (0.143, -0.0032)
GR_ABOVE = (0.221, -0.0054)

# What one requirement of a claim still needs (see _claim_need): met now, short of it (with its cost), or out of
# this player's reach.
TERM_MET = 0
TERM_SHORT = 1
TERM_OUT = 2
GOLD_PER_ACTION = 5.0  # gold counted as worth one Tycoon action when comparing ways to meet a requirement
F_SHED = 0.8  # an extra outlaw bribed away: the rival may bribe him back (factor per outlaw)
ARM_SHARE_LARGE = 0.75  # actions per empty lot of an arm: large tiles cover two lots with one action
LOT_DETOUR_GOLD = 1.0  # extra gold per wanted lot: the cheaper lots on the way to it
SAVING_EXTRA = 2.0  # gold saved per turn on top of the income (about an Earn action's gold)
CARDS_PER_ACTION = 2.0  # cards a Tycoon action adds to the hand (a Draw, default rules)
SPREAD = 0.6  # spread of a board total's gain (c of _grow_chance), cubes and special tiles apart
SPREAD_CUBES = 1.1
SPREAD_SPECIAL = 0.8


@nb.njit(cache=True, _nrt=False, inline="always")
def _turns_left(s):
    """Own turns left, this one included, read from the timer pile (measured on the default line-up at 2 and 4
    players: about 13.7 with a full pile, 7.6 at half, 2 near empty)."""
    if s.end_trig == 1:
        return 1.0
    return 1.5 + 12.5 * s.pile / max(s.pile0, 1)


@one_copy(_nrt=False)
def _avg_cost(p, large):
    """Mean gold cost of the common (not special) tiles of one size."""
    tot = 0.0
    k = 0
    want = 1 if large else 0
    for t in range(1, np.int64(p[P_N_TILES])):
        if tparam(p, t, TF_SPECIAL) == 0 and tparam(p, t, TF_LARGE) == want and tparam(p, t, TF_COPIES) > 0:
            tot += tparam(p, t, TF_COST)
            k += 1
    if k == 0:
        return 7.0 if large else 4.0
    return tot / k


@nb.njit(cache=True, _nrt=False)
def _stack_cost(s, p, seat, ftgt, fin, large, price, cs, cl):
    """(actions, gold): the cheapest way to get one more tile of that size on floor ftgt (0-based; filled when
    `fin`), stacking on a free top of the board or on a new ground column."""
    csz = cl if large else cs
    nc = CUBES_L if large else CUBES_S
    ba = 0.0
    bg = 0.0
    best = 1e18
    for i in range(s.n_tiles[seat]):
        f = np.int64(s.tile_floor[seat, i])
        if f > ftgt or (FP_LARGE[s.tile_footprint[seat, i]] == 1) != large:
            continue
        if f < NFLOORS - 1 and s.cell[seat, f + 1, FP_A[s.tile_footprint[seat, i]]] >= 0:
            continue
        left = tparam(p, s.tile_type[seat, i], TF_CUBES) - s.tile_cubes[seat, i]
        if f == ftgt:
            a = 0.0
            g = left * price if fin else 0.0
        else:
            a = np.float64(ftgt - f)
            g = left * price + a * csz + (a - 1.0) * nc * price + (nc * price if fin else 0.0)
        c = a + g / GOLD_PER_ACTION
        if c < best:
            best = c
            ba = a
            bg = g
    # a new column from the ground (about 2 gold of lot surcharge)
    a = np.float64(ftgt + 1)
    g = a * csz + 2.0 + (a - 1.0) * nc * price + (nc * price if fin else 0.0)
    if a + g / GOLD_PER_ACTION < best:
        ba = a
        bg = g
    return ba, bg


@nb.njit(cache=True, _nrt=False)
def _saloon_column(s, p, seat, d, price, cl):
    """(actions, gold) for d more tiles above the Saloon, or (-1, 0) when they do not fit."""
    top = 0
    for f in range(1, NFLOORS):
        if s.cell[seat, f, 0] >= 0:
            top = f
    if top + d > NFLOORS - 1:
        return -1.0, 0.0
    j = s.cell[seat, top, 0]
    g = (tparam(p, s.tile_type[seat, j], TF_CUBES) - s.tile_cubes[seat, j]) * price
    g += d * cl + (d - 1) * CUBES_L * price
    return np.float64(d), g


@one_copy(_nrt=False)
def _tile_path(s, p, seat, t, fill, price, cs, cl):
    """(actions, gold, factor) to build tile type t (and fill it when `fill`): its prerequisite tile, the floor
    it needs, and a race for a unique copy.  Factor 0 when it cannot be built by this player."""
    if s.supply[t] <= 0:
        return 0.0, 0.0, 0.0
    forb = s.type_forbid[t]
    if forb >= 0 and (s.types_built[seat] >> forb) & 1 == 1:
        return 0.0, 0.0, 0.0
    a = 1.0
    g = np.float64(tparam(p, t, TF_COST))
    req = s.type_req[t]
    if req >= 0 and (s.types_built[seat] >> req) & 1 == 0:
        if s.supply[req] <= 0:
            return 0.0, 0.0, 0.0
        a += 1.0
        g += s.type_cost[req]
    large = tparam(p, t, TF_LARGE) == 1
    fmin = np.int64(tparam(p, t, TF_FMIN)) - 1
    if tparam(p, t, TF_ABOVE) == 1:
        sa, sg = _saloon_column(s, p, seat, 1, price, cl)
        if sa < 0:
            return 0.0, 0.0, 0.0
        g += sg - cl  # the column helper prices a common large tile on top; this one is t
    elif fmin > 0:
        sa, sg = _stack_cost(s, p, seat, fmin - 1, True, large, price, cs, cl)
        a += sa
        g += sg
    if fill:
        g += tparam(p, t, TF_CUBES) * price
    f = F_RACE if tparam(p, t, TF_COPIES) <= 1 else 1.0
    return a, g, f


@nb.njit(cache=True, _nrt=False)
def _char_cost(s, p, seat, c, price, cs, cl):
    """(actions, gold, factor) to get character c into this saloon."""
    o = s.char_owner[c]
    if o == seat:
        return 0.0, 0.0, 1.0
    if s.end_trig == 1:
        return 0.0, 0.0, 0.0
    bribe = np.float64(p[P_BRIBE])
    if o >= 0:
        return 1.0, bribe, F_BRIBE
    if char_is_citizen(p, c):
        t = -1
        for u in range(1, np.int64(p[P_N_TILES])):
            if np.int64(tparam(p, u, TF_BONUS)) == B_CITIZEN and np.int64(tparam(p, u, TF_CITIZEN)) == c:
                t = u
        if t < 0:
            return 0.0, 0.0, 0.0
        for i in range(s.n_tiles[seat]):
            if s.tile_type[seat, i] == t:
                return 0.0, (tparam(p, t, TF_CUBES) - s.tile_cubes[seat, i]) * price, 1.0
        a, g, f = _tile_path(s, p, seat, t, True, price, cs, cl)
        if f <= 0.0:
            return 1.0, bribe, F_BRIBE * 0.5  # a rival will have it: bribe it later
        return a, g, f
    if c == FLATFOOT:
        return 0.0, max(0.0, p[P_FLAT_GOLD] - s.gold[seat]), F_OUTLAW
    if c == ANGIE:
        d = max(0.0, p[P_ANGIE_TILES] - s.built[seat])
        return d, d * cs, F_OUTLAW
    if c == PHINEUS:
        return 0.0, max(0.0, p[P_PHIN_CUBES] - s.cubes_board[seat]) * price, F_OUTLAW
    return 0.5, 0.0, F_OUTLAW  # Sydney Smythe: the first claim scored


@nb.njit(cache=True, _nrt=False, inline="always")
def _char_kind_ok(p, c, kind):
    if kind == R_ANY:
        return True
    cit = char_is_citizen(p, c)
    fem = char_is_female(p, c)
    if kind == R_F:
        return fem
    if kind == R_M:
        return not fem
    if kind == R_CIT:
        return cit
    if kind == R_CIT_F:
        return cit and fem
    if kind == R_CIT_M:
        return cit and not fem
    return not cit  # R_OUTLAWS


@nb.njit(cache=True, _nrt=False)
def _chars_cost(s, p, seat, kind, d, price, cs, cl):
    """(actions, gold, factor) for d more characters of a kind: the d easiest to get."""
    used = np.int64(0)
    A = 0.0
    G = 0.0
    F = 1.0
    for _ in range(d):
        best = -1
        bs = 1e18
        ba = 0.0
        bg = 0.0
        bf = 0.0
        for c in range(N_CHARS):
            if (used >> c) & 1 == 1 or s.char_owner[c] == seat or not _char_kind_ok(p, c, kind):
                continue
            a, g, f = _char_cost(s, p, seat, c, price, cs, cl)
            if f <= 0.0:
                continue
            sc = (a + g / GOLD_PER_ACTION + 1.0) / f
            if sc < bs:
                bs = sc
                best = c
                ba = a
                bg = g
                bf = f
        if best < 0:
            return 0.0, 0.0, 0.0
        used |= np.int64(1) << best
        A += ba
        G += bg
        F *= bf
    return A, G, F


@nb.njit(cache=True, _nrt=False, inline="always")
def _grow_chance(s, seat, steady, v, v0, gr, c, n):
    """Chance that a board total now at v (v0 at the start) reaches n by the end: the measured pace gr for the
    turns left, scaled for the steady totals by the player's own progress against the measured one; spread
    c * sqrt(gain) (normal approximation)."""
    L = _turns_left(s)
    gain = (gr[0] + gr[1] * L) * L
    if steady:
        full = (gr[0] + gr[1] * 14.0) * 14.0
        past = max(full - gain, 0.0)
        rho = (v - v0 + K_OWN * full) / (past + K_OWN * full)
        gain *= min(max(rho, 0.25), 2.5)
    z = (v + gain - n + 0.5) / (c * np.sqrt(max(gain, 0.0)) + 0.25)
    return 0.5 * (1.0 + math.erf(z / np.sqrt(2.0)))


@one_copy(_nrt=False)
def _claim_need(s, p, seat, g, plus):
    """(actions, gold, factor, chance of the board totals, unmet terms) of claim g for this seat (factor or chance
    0: out of reach), as if one more tile of type `plus` were built (-1: as the board is).  Each requirement kind
    is estimated by its own helper; the products and sums are taken here, in term order."""
    base = kbase(g)
    price = np.float64(p[P_PHIN_PRICE] if s.char_owner[PHINEUS] == seat else p[P_CUBE_PRICE])
    cs = _avg_cost(p, False)
    cl = _avg_cost(p, True)
    A = 0.0
    G = 0.0
    F = 1.0
    P = 1.0
    short = 0
    for q in range(MAX_TERMS):
        kind, x, n = claim_term(p, base, q)
        if kind == 0:
            continue
        a = 0.0
        gg = 0.0
        f = 1.0
        pg = 1.0
        state = TERM_SHORT
        if kind == R_NAMED:
            if s.char_owner[x] == seat:
                continue
            a, gg, f = _char_cost(s, p, seat, x, price, cs, cl)
        elif kind <= R_OUTLAWS:
            state, a, gg, f = _chars_need(s, p, seat, kind, n, price, cs, cl)
        elif kind == R_OUTLAWS_MAX:
            have, free = _outlaws_of(s, p, seat)
            for _ in range(free):
                F *= 1.0 - F_RISK / s.n  # an outlaw not yet in town may still land here, met or not
            state, a, gg, f = _shed_outlaws_need(s, p, have, n)
        elif kind == R_TILE_TYPE:
            state, a, gg, f = _tile_type_need(s, p, seat, x, n, plus, price, cs, cl)
        elif kind == R_LOTS_GE:
            state, a, gg = _lots_need(s, p, seat, x, n, cs)
        elif kind == R_FULL_ARM:
            state, a, gg = _full_arm_need(s, p, seat, n, cs)
        elif kind == R_GOLD:
            state, a, gg = _gold_need(s, seat, n)
        elif kind == R_HAND:
            state, a = _hand_need(s, p, seat, n)
        else:
            state, pg = _board_total_need(s, p, seat, kind, n, plus, price, cs, cl)
        if state == TERM_MET:
            continue
        if state == TERM_OUT or f <= 0.0 or pg <= 0.0:
            return 0.0, 0.0, 0.0, 0.0, short + 1
        short += 1
        A += a
        G += gg
        F *= f
        P *= pg
    return A, G, F, P, short


@nb.njit(cache=True, _nrt=False)
def _chars_need(s, p, seat, kind, n, price, cs, cl):
    """(state, actions, gold, factor) for at least n characters of a kind (R_ANY .. R_OUTLAWS) in this saloon."""
    have = 0
    for c in range(N_CHARS):
        if s.char_owner[c] == seat and _char_kind_ok(p, c, kind):
            have += 1
    if have >= n:
        return TERM_MET, 0.0, 0.0, 1.0
    a, gg, f = _chars_cost(s, p, seat, kind, n - have, price, cs, cl)
    return TERM_SHORT, a, gg, f


@nb.njit(cache=True, _nrt=False)
def _outlaws_of(s, p, seat):
    """(outlaws in this saloon, outlaws in no saloon yet)."""
    have = 0
    free = 0
    for c in range(N_CHARS):
        if not char_is_citizen(p, c):
            if s.char_owner[c] == seat:
                have += 1
            elif s.char_owner[c] < 0:
                free += 1
    return have, free


@nb.njit(cache=True, _nrt=False)
def _shed_outlaws_need(s, p, have, n):
    """(state, actions, gold, factor) to hold at most n outlaws: bribe the extra ones away, before the end is
    triggered (no bribes after it)."""
    if have <= n:
        return TERM_MET, 0.0, 0.0, 1.0
    if s.end_trig == 1:
        return TERM_OUT, 0.0, 0.0, 0.0
    e = have - n
    return TERM_SHORT, np.float64(e), e * np.float64(p[P_BRIBE]), F_SHED**e


@one_copy(_nrt=False)
def _tile_type_need(s, p, seat, x, n, plus, price, cs, cl):
    """(state, actions, gold, factor) for n tiles of type x: the first by its path (prerequisite, floor, race for a
    unique copy), the others at their cost; out of reach when the supply is short."""
    have = count_type(s, seat, x)
    sup = s.supply[x]
    if x == plus:
        have += 1
        sup -= 1
    if have >= n:
        return TERM_MET, 0.0, 0.0, 1.0
    d = n - have
    if d > sup:
        return TERM_OUT, 0.0, 0.0, 0.0
    a1, g1, f = _tile_path(s, p, seat, x, False, price, cs, cl)
    a = a1 + (d - 1)
    gg = g1 + (d - 1) * tparam(p, x, TF_COST)
    spare = sup - d
    if spare < s.n - 1:
        f *= (spare + 1.0) / s.n  # rivals may take the copies it needs
    return TERM_SHORT, a, gg, f


@nb.njit(cache=True, _nrt=False)
def _lots_need(s, p, seat, x, n, cs):
    """(state, actions, gold) for n ground lots whose gold surcharge is at least x: the empty such lots, priced at
    their mean."""
    have = 0
    empties = 0
    eg = 0.0
    for lot in range(1, 1 + ARMS * ARM_LOTS):
        lg = lot_param(p, lot, LOT_GOLD)
        if lg >= x:
            if s.cell[seat, 0, lot] >= 0:
                have += 1
            else:
                empties += 1
                eg += lg + cs + LOT_DETOUR_GOLD
    if have >= n:
        return TERM_MET, 0.0, 0.0
    d = n - have
    if d > empties:
        return TERM_OUT, 0.0, 0.0
    return TERM_SHORT, np.float64(d), eg * d / empties


@nb.njit(cache=True, _nrt=False)
def _full_arm_need(s, p, seat, n, cs):
    """(state, actions, gold) to fill every lot of one arm (n = 0: no requirement): the arm nearest to full."""
    best_arm = 1e18
    ba = 0.0
    bgg = 0.0
    for arm in range(ARMS):
        ea = 0.0
        egold = 0.0
        for j in range(ARM_LOTS):
            lot = 1 + ARM_LOTS * arm + j
            if s.cell[seat, 0, lot] < 0:
                ea += 1.0
                egold += lot_param(p, lot, LOT_GOLD) + cs
        if ea + egold / GOLD_PER_ACTION < best_arm:
            best_arm = ea + egold / GOLD_PER_ACTION
            ba = ea
            bgg = egold
    if n == 0 or ba == 0.0:
        return TERM_MET, 0.0, 0.0
    return TERM_SHORT, ARM_SHARE_LARGE * ba, bgg


@nb.njit(cache=True, _nrt=False)
def _gold_need(s, seat, n):
    """(state, actions, gold) to hold n gold: the gold missing, and the turns of saving instead of spending it."""
    if s.gold[seat] >= n:
        return TERM_MET, 0.0, 0.0
    gg = np.float64(n - s.gold[seat])
    return TERM_SHORT, gg / (income_of(s, seat) + SAVING_EXTRA), gg


@nb.njit(cache=True, _nrt=False)
def _hand_need(s, p, seat, n):
    """(state, actions) to hold n cards; out of reach above the hand limit."""
    if s.hand_n[seat] >= n:
        return TERM_MET, 0.0
    if n > p[P_HAND_LIMIT]:
        return TERM_OUT, 0.0
    return TERM_SHORT, np.ceil((n - s.hand_n[seat]) / CARDS_PER_ACTION)


@one_copy(_nrt=False)
def _board_total_need(s, p, seat, kind, n, plus, price, cs, cl):
    """(state, chance) for a board total that every board grows anyway to reach n (see _grow_chance)."""
    v0 = 0.0
    c = SPREAD
    steady = False
    if kind == R_TILES or kind == R_INCOME or kind == R_CUBES or kind == R_DISTINCT or kind == R_FINISHED:
        steady = True  # totals that grow at the player's own pace
    if kind == R_TILES or kind == R_INCOME:
        v0 = 1.0  # the Saloon, and its income
    if kind == R_CUBES:
        c = SPREAD_CUBES
    elif kind == R_SPECIAL:
        c = SPREAD_SPECIAL
    if (
        kind == R_TILES
        or kind == R_INCOME
        or kind == R_CUBES
        or kind == R_DISTINCT
        or kind == R_ROOFS
        or kind == R_LARGE_ROOFS
    ):
        v, reach = _board_count(s, seat, kind, n, plus)
    else:
        v, reach = _tile_count(s, p, seat, kind, n, plus, price, cs, cl)
    if not reach:
        return TERM_OUT, 0.0
    if v >= n:
        return TERM_MET, 1.0
    return TERM_SHORT, _grow_chance(s, seat, steady, v, v0, _pace(kind), c, n)


@nb.njit(cache=True, _nrt=False, inline="always")
def _pace(kind):
    """The measured pace (GR_*) of a board total."""
    if kind == R_TILES:
        return GR_TILES
    if kind == R_INCOME:
        return GR_INCOME
    if kind == R_CUBES:
        return GR_CUBES
    if kind == R_DISTINCT:
        return GR_DISTINCT
    if kind == R_ROOFS:
        return GR_ROOFS
    if kind == R_LARGE_ROOFS:
        return GR_LROOFS
    if kind == R_SPECIAL:
        return GR_SPECIAL
    if kind == R_FINISHED:
        return GR_FINISHED
    if kind == R_LARGE_EXCL:
        return GR_LARGE
    if kind == R_FLOOR3:
        return GR_FLOOR3
    return GR_ABOVE


@one_copy(_nrt=False)
def _board_count(s, seat, kind, n, plus):
    """(value, reachable) of a counted board total: tiles, income, cubes, tile types, roofs, large roofs (roofs
    are out of reach when the roof pile is short)."""
    v = 0.0
    if kind == R_TILES:
        v = np.float64(s.n_tiles[seat] + (plus >= 0))
    elif kind == R_INCOME:
        v = np.float64(income_of(s, seat) + (plus >= 0))
    elif kind == R_CUBES:
        v = np.float64(s.cubes_board[seat])
    elif kind == R_DISTINCT:
        m = s.types_built[seat]
        if plus >= 0:
            m |= np.int64(1) << plus
        m >>= 1
        while m:
            v += m & 1
            m >>= 1
    elif kind == R_ROOFS:
        v = np.float64(s.roofs[seat, ROOF_SMALL] + s.roofs[seat, ROOF_LARGE])
        if v < n and s.roof_pile[ROOF_SMALL] + s.roof_pile[ROOF_LARGE] < n - v:
            return v, False
    else:  # R_LARGE_ROOFS
        v = np.float64(s.roofs[seat, ROOF_LARGE])
        if v < n and s.roof_pile[ROOF_LARGE] < n - v:
            return v, False
    return v, True


@one_copy(_nrt=False)
def _tile_count(s, p, seat, kind, n, plus, price, cs, cl):
    """(value, reachable) of a total of tiles of a sort: special, finished, large (the Saloon excluded), on the 3rd
    floor, above the Saloon.  Special tiles and the floors above the Saloon are out of reach when too few are
    left to build."""
    avail = 0
    if kind == R_SPECIAL:
        for t in range(1, np.int64(p[P_N_TILES])):
            if tparam(p, t, TF_SPECIAL) == 1:
                ta, tg, tf = _tile_path(s, p, seat, t, False, price, cs, cl)
                if tf > 0.0:
                    avail += 1
    elif kind == R_ABOVE_SALOON:
        top = 0
        for f3 in range(1, NFLOORS):
            if s.cell[seat, f3, 0] >= 0:
                top = f3
        avail = NFLOORS - 1 - top
    v = 0.0
    for i in range(s.n_tiles[seat]):
        t = s.tile_type[seat, i]
        if kind == R_SPECIAL:
            v += tparam(p, t, TF_SPECIAL)
        elif kind == R_FINISHED:
            v += s.tile_finished[seat, i]
        elif kind == R_LARGE_EXCL:
            if i > 0:
                v += tparam(p, t, TF_LARGE)
        elif kind == R_FLOOR3:
            if s.tile_floor[seat, i] == NFLOORS - 1:
                v += 1.0
        elif s.tile_footprint[seat, i] == 0 and s.tile_floor[seat, i] > 0:
            v += 1.0
    if plus >= 0:  # the tile assumed built
        if kind == R_SPECIAL and tparam(p, plus, TF_SPECIAL) == 1:
            v += 1.0
        elif kind == R_LARGE_EXCL and tparam(p, plus, TF_LARGE) == 1:
            v += 1.0
    if (kind == R_SPECIAL or kind == R_ABOVE_SALOON) and v < n and v + avail < n:
        return v, False
    return v, True


@one_copy(_nrt=False)
def _claim_chance(s, p, seat, g, plus):
    """Estimated chance that this seat completes claim g (as if one more tile of type `plus` were built; -1: none).
    For an open claim it is the chance of meeting it, not of being first."""
    A, G, F, P, short = _claim_need(s, p, seat, g, plus)
    if short == 0:
        return 1.0
    if F <= 0.0 or P <= 0.0:
        return 0.0
    L = _turns_left(s)
    budget = s.gold[seat] + L * (income_of(s, seat) + 1.0) + 0.25 * L * (L - 1.0)
    c = F**F_EXP * P
    if A > 0.0 or G > 0.0:
        c /= 1.0 + np.exp(CH_K * (A / L + G / budget - CH_M))
    return c


@nb.njit(cache=True, _nrt=False, inline="always")
def _ev_factor(s, p, seat, g, w):
    """Share of a claim's points it is counted at when secret claims are kept: 1 - claimev + claimev x the
    estimated chance (exactly 1 when claimev = 0)."""
    k = w[W_CLAIMEV]
    if k == 0.0:
        return 1.0
    return 1.0 - k + k * _claim_chance(s, p, seat, g, -1)


@nb.njit(cache=True, _nrt=False)
def _prepare_claim_interest(s, p, seat, w):
    """s.ai[t] = interest in one more tile of type t from the claims that still want it: half the claim's points,
    half again for an open claim.  For an own secret claim this is scaled by 1 - claimev + claimev x 2 x the
    estimated chance of completing the claim with that tile: a hopeless claim is not chased, one that the tile
    nearly completes is chased up to twice as hard.  (Scaling the open claims' interest the same way, or valuing
    a tile by the points it adds, made the bots weaker: see BOTS.md.)"""
    for t in range(MAX_TILE_TYPES):
        s.ai[t] = 0.0
    for j in range(MAX_SEC_HAND):
        if s.sec_state[seat, j] == SEC_KEPT:
            _add_interest(s, p, seat, s.sec[seat, j], 1.0, w[W_CLAIMEV])
    for g in range(s.n_open_up):
        gid = s.open_ids[g]
        if s.claim_by[gid] < 0:
            _add_interest(s, p, seat, gid, 0.5, 0.0)


@nb.njit(cache=True, _nrt=False)
def _add_interest(s, p, seat, g, share, k):
    base = kbase(g)
    for j in range(MAX_TERMS):
        kind, t, n = claim_term(p, base, j)
        if kind == R_TILE_TYPE:
            if 0 <= t < MAX_TILE_TYPES and count_type(s, seat, t) < n:
                v = claim_points(s, p, seat, g) * 0.5 * share
                if k != 0.0:
                    v *= 1.0 - k + k * 2.0 * _claim_chance(s, p, seat, g, t)
                s.ai[t] += v


@nb.njit(cache=True, _nrt=False)
def _earn_plan(s, p, seat, legal, n, w):
    """Value of the best build that only Earn's gold makes affordable, when a Tycoon action is left after Earn to
    build it (0 otherwise).  A greedy choice sees one action at a time: with Hired Hands' two extra actions the bots
    drew twice where earning and then building was better (the audit of issue 24, third pass: Draw's regret lay
    mostly in those turns).  The builds are listed in legal[n:] (scratch past the legal actions; s.ai_full = 1 when
    they do not all fit)."""
    left = s.acts_any + s.acts_noplay
    if not _on_bonus_action(s):
        left -= 1
    if left < 1:
        return 0.0
    g0 = s.gold[seat]
    s.gold[seat] = g0 + np.int64(p[P_EARN])
    m = gen_builds(s, p, seat, legal, n, False, False, 0)
    if m > legal.shape[0]:
        s.ai_full = 1
        m = legal.shape[0]
    best = 0.0
    if m > n:
        if s.ai[0] == 0.0:
            _prepare_claim_interest(s, p, seat, w)
        gv = _gold_value(s, seat, w)
        for j in range(n, m):
            a = legal[j]
            if build_cost(p, tile_of(a), floor_of(a), footprint_of(a), False, 0) <= g0:
                continue  # affordable without Earn: no plan needed
            v = _build_value(s, p, seat, a, False, 0, w, gv)
            if v > best:
                best = v
    s.gold[seat] = g0
    return best


@nb.njit(cache=True, _nrt=False)
def choose(s, p, seat, legal, n, sid, weights):
    builds = False
    for k in range(n):
        kind = kind_of(legal[k])
        if kind == BUILD or kind == CARD_BUILD:
            builds = True
            break
    _start_decision(s, p, seat, weights, builds)
    gv = _gold_value(s, seat, weights)  # the same for every action of this decision
    best = 0
    bv = -1e18
    ck = -1  # best cube bought
    cv = -1e18
    left = s.gold[seat] - _cube_price(s, p, seat)
    t = 0.0  # the cube-first rule's best Tycoon action
    for k in range(n):
        u = _planned_value(s, p, seat, legal[k], legal, n, weights, gv)
        t = _tycoon_seen(u, _tycoon_cost(p, legal[k]), left, t)
        v = u + 1e-6 * rand_float(s.rng, 1)
        if kind_of(legal[k]) == BUY and v > cv:
            cv = v
            ck = k
        if v > bv:
            bv = v
            best = k
    if weights[W_CUBEFIRST] > 0.0 and ck >= 0 and best != ck and _cube_first_may(s, p, seat, legal[best]):
        if cv + weights[W_CUBEFIRST] * t > bv:
            return ck
    return best


@nb.njit(cache=True, _nrt=False, inline="always")
def _start_decision(s, p, seat, w, builds):
    """The per-call state of choose (and quick_choice): s.ai[t], the claim interest per tile type, with s.ai[0] (the
    Saloon, never built) > 0 flagging that a build is legal now (`builds`); the caches of values that do not change
    while one decision is evaluated, emptied."""
    for t in range(MAX_TILE_TYPES):
        s.ai[t] = 0.0
    s.ai_late = -1
    s.ai_leader = -2
    s.ai_bm = -1.0
    s.ai_room = np.nan
    s.ai_draw = np.nan
    s.ai_earn = np.nan
    s.ai_full = 0
    if builds:
        _prepare_claim_interest(s, p, seat, w)
        s.ai[0] = 1.0


@nb.njit(cache=True, _nrt=False, inline="always")
def _planned_value(s, p, seat, a, legal, n, w, gv):
    """The value of action a, Earn with the build its gold makes affordable (knob earnplan; listed in legal[n:])."""
    if kind_of(a) == EARN:
        return _planned_earn(s, p, seat, legal, n, w, gv)
    return _value(s, p, seat, a, w, n, gv)


@nb.njit(cache=True, _nrt=False, inline="always")
def _planned_earn(s, p, seat, legal, n, w, gv):
    """_planned_value of Earn."""
    v = _earn_value(s, p, seat, w, gv)
    if w[W_EARNPLAN] > 0.0:
        if np.isnan(s.ai_earn):  # once per choose call
            s.ai_earn = _earn_plan(s, p, seat, legal, n, w)
        v += w[W_EARNPLAN] * s.ai_earn
    return v


@nb.njit(cache=True, _nrt=False)
def _tycoon_cost(p, a):
    """Gold a Tycoon action pays (-1: not a Tycoon action)."""
    kind = kind_of(a)
    if kind == BUILD:
        return np.float64(build_cost(p, tile_of(a), floor_of(a), footprint_of(a), False, 0))
    if kind == BRIBE:
        return np.float64(p[P_BRIBE])
    if kind == EARN or kind == DRAW or kind == PLAY:
        return 0.0
    return -1.0


@nb.njit(cache=True, _nrt=False, inline="always")
def _cube_price(s, p, seat):
    """The price the seat pays for a cube (more while it holds Phineus Pillbottom)."""
    return p[P_PHIN_PRICE] if s.char_owner[PHINEUS] == seat else p[P_CUBE_PRICE]


@nb.njit(cache=True, _nrt=False)
def _cube_first_may(s, p, seat, a):
    """May the best cube be bought before the chosen action a (knob cubefirst)?  a is a Tycoon action but a unique
    special tile's build, and it would leave too little gold for the cube, which is affordable now.  Then the cube
    is bought first if its value plus `cubefirst` x the best Tycoon action still affordable after it (t of
    _tycoon_seen, kept as the actions are scored) beats the chosen action's.  A greedy choice sees one action at a
    time: the audit of issue 24 (fourth pass) found buying a cube the better move against many builds that spent the
    gold first.  Never before a unique special tile (deferring it lost the Citizen races: 2.5 fewer Citizen points a
    game at 2 players)."""
    cost = _tycoon_cost(p, a)
    if cost < 0.0:
        return False
    if kind_of(a) == BUILD and tparam(p, tile_of(a), TF_SPECIAL) == 1:
        return False  # a unique tile waits for no cube: a rival may build it first
    price = _cube_price(s, p, seat)
    # not when the cube is still affordable after the action: bought next, in any order
    return s.gold[seat] - cost < price and s.gold[seat] - price >= 0


@nb.njit(cache=True, _nrt=False)
def quick_choice(s, p, seat, sid, weights):
    """The action choose would pick, named without the legal-action list (sim.kernel's quick_choice), in the main
    step (no task pending: most decisions of a game); -1 for every other decision."""
    if s.phase != PH_PLAY or s.n_tasks > 0:
        return np.int64(-1)
    return _quick_main(s, p, seat, weights)


@nb.njit(cache=True, _nrt=False, inline="always")
def _seen(v, a, i, x, best, best_a, bv):
    """choose's loop at place i of the list for action a of value v: its noise draw (the policy stream's state x
    advanced once), and the running best (the first place of the highest value)."""
    x = np.uint64(x + GOLDEN)
    v += 1e-6 * float_of(x)
    if v > bv:
        return x, v, i, a, v
    return x, v, best, best_a, bv


@nb.njit(cache=True, _nrt=False, inline="always")
def _tycoon_seen(v, c, left, t):
    """The cube-first rule's best Tycoon action as the actions are scored: the highest value (no noise, at least 0)
    of those costing c <= left gold.  The chosen action is never among them: the rule applies only when it costs more
    than left (_cube_first_may)."""
    if 0.0 <= c <= left and v > t:
        return v
    return t


@nb.njit(cache=True, _nrt=False)
def _quick_main(s, p, seat, w):
    """choose in the main step without the legal-action list: the actions are generated in the list's order
    (actions.legal_actions: End turn; while actions remain Earn, Draw, the card plays, the builds, the bribes; the
    cubes to buy; the claims to stake) and scored as they are found, each with the noise draw of its place in the
    list.  The builds, the bribes and the stakes come from the engine's own generators into the scratch list
    s.ai_list.  A bribe that cannot be worth anything (_move_may_pay) is valued at -20 less its price by choose,
    below End turn's value (at least 0): it takes its place and its draw but is not scored.  the cube-first rule's best
    other Tycoon action is kept as the actions are scored (_tycoon_seen).  Returns the action, the policy stream
    advanced exactly as choose on the list advances it (not at all when only End turn is listed: the kernel then
    asks no one), or -1 (nothing drawn) when a list outgrows the scratch list."""
    acts = s.acts_any + s.acts_noplay > 0
    scratch = s.ai_list
    nb_ = gen_builds(s, p, seat, scratch, 0, False, False, 0) if acts else 0
    if nb_ > scratch.shape[0]:
        return np.int64(-1)
    _start_decision(s, p, seat, w, nb_ > 0)
    gv = _gold_value(s, seat, w)
    left = s.gold[seat] - _cube_price(s, p, seat)
    x = s.rng[1]
    x, v, best, best_a, bv = _seen(0.0, np.int64(END_TURN), 0, x, 0, np.int64(END_TURN), -1e18)
    i = 1  # the place of the next action in the list
    t = 0.0  # the cube-first rule's best Tycoon action
    if acts:
        u = _planned_earn(s, p, seat, scratch, nb_, w, gv)
        x, v, best, best_a, bv = _seen(u, np.int64(EARN), i, x, best, best_a, bv)
        t = _tycoon_seen(u, 0.0, left, t)
        u = _draw_value(s, p, seat, w, gv)
        x, v, best, best_a, bv = _seen(u, np.int64(DRAW), i + 1, x, best, best_a, bv)
        t = _tycoon_seen(u, 0.0, left, t)
        i += 2
        if plays_listed(s, seat, s.acts_any > 0, True):
            for c in range(MAX_CARD_TYPES):
                if card_playable(s, p, seat, c):
                    a = encode_play(c)
                    u = _play_value(s, p, seat, PLAY, c, w, gv)
                    x, v, best, best_a, bv = _seen(u, a, i, x, best, best_a, bv)
                    t = _tycoon_seen(u, 0.0, left, t)
                    i += 1
        for j in range(nb_):
            a = scratch[j]  # BUILD
            u = _build_value(s, p, seat, a, False, 0, w, gv)
            x, v, best, best_a, bv = _seen(u, a, i, x, best, best_a, bv)
            t = _tycoon_seen(u, _tycoon_cost(p, a), left, t)
            i += 1
        if bribes_listed(s, p, seat):
            m = gen_moves(s, p, seat, scratch, nb_, False)  # after the builds: Earn's builds are scored
            if m > scratch.shape[0]:
                return np.int64(-1)
            price = np.float64(p[P_BRIBE])
            for j in range(nb_, m):
                a = scratch[j]
                c = character_of(a)
                if _move_may_pay(p, seat, c, s.char_owner[c], seat_of(a)):
                    u = _bribe_value(s, p, seat, BRIBE, a, w, gv)
                    x, v, best, best_a, bv = _seen(u, a, i, x, best, best_a, bv)
                    t = _tycoon_seen(u, price, left, t)
                else:
                    x = np.uint64(x + GOLDEN)
                i += 1
    ck = -1  # the best cube bought
    ck_a = np.int64(-1)
    cv = -1e18
    if buys_listed(s, p, seat):
        for ti in range(s.n_tiles[seat]):
            if tile_open(s, p, seat, ti):
                a = encode_buy(ti)
                u = _buy_value(s, p, seat, BUY, a, w, gv)
                x, v, best, best_a, bv = _seen(u, a, i, x, best, best_a, bv)
                if v > cv:
                    cv = v
                    ck = i
                    ck_a = a
                i += 1
    m = gen_stakes(s, p, seat, scratch, 0)  # the builds are scored: the scratch list is free
    if m > scratch.shape[0]:
        return np.int64(-1)
    for j in range(m):
        a = scratch[j]
        x, v, best, best_a, bv = _seen(_stake_value(s, p, seat, a, w), a, i, x, best, best_a, bv)
        i += 1
    if i == 1:
        return best_a  # End turn alone: the kernel asks no one
    if s.ai_full != 0:
        return np.int64(-1)  # Earn's builds outgrew the scratch list: choose on the list
    s.rng[1] = x
    if w[W_CUBEFIRST] > 0.0 and ck >= 0 and best != ck and _cube_first_may(s, p, seat, best_a):
        if cv + w[W_CUBEFIRST] * t > bv:
            return ck_a
    return best_a
