"""Saloon Tycoon's actions and the legal-action list.

Every action is declared once in CODEC (sim.toolkit.ActionCodec): its kind and named fields.  While a task is
pending (bonus cubes, a hand-limit discard, an optional bonus play, the "take an action" bonus, a card build, a
character move) only its decisions are legal; otherwise the main step: End turn, the Tycoon actions while actions
remain, the free actions (buy a cube, stake a claim).
"""

import numba as nb
import numpy as np

from sim.kernel import LEGAL_TYPE, one_copy
from sim.toolkit import ActionCodec, low_bit, push

from .params import (
    MAX_CARD_TYPES,
    MAX_OPEN,
    MAX_TERMS,
    MAX_TILE_TYPES,
    N_CHARS,
    P_BRIBE,
    P_N_TILES,
    P_R_ANGIE_ACTION_BONUS,
    P_R_BRIBE_TARGET,
    P_R_FOOTPRINTS,
    P_R_THEATER,
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
    TF_LARGE,
    TF_SPECIAL,
)
from .queries import (
    LOT_GOLD,
    card_playable,
    char_is_citizen,
    char_is_female,
    claim_term,
    count_type,
    income_of,
    kbase,
    lot_gold,
    lot_param,
    purchase_price,
    restricted,
    tile_open,
    tparam,
)
from .state import (
    ANGIE,
    ARM_LOTS,
    ARMS,
    FP_A,
    FP_B,
    FP_LARGE,
    FP_UNALIGNED,
    MAX_PLAYERS,
    MAX_SEC_HAND,
    MAX_TILES,
    N_CLAIM_IDS,
    N_FP,
    N_SC,
    NB_IN,
    NB_OUT,
    NFLOORS,
    NPOS,
    PH_KEEP,
    PH_PLAY,
    ROOF_LARGE,
    ROOF_SMALL,
    SC_CHARS,
    SC_CUBES,
    SC_FINISHED,
    SC_GOLD,
    SC_HAND,
    SC_ROOFS,
    SC_TILES,
    SEC_DEALT,
    STAKE_OPEN_BITS,
    TK_ACTION,
    TK_CBUILD,
    TK_CHEAP,
    TK_CUBES,
    TK_DISCARD1,
    TK_DRAW,
    TK_MOVE,
    TK_PLAYOPT,
    TM_ABOVE,
    TM_F0,
    TM_F1,
    TM_F2,
    TM_LARGE,
)


def _bits(n):
    """Bits of a field whose values are 0..n-1."""
    return max(1, (n - 1).bit_length())


CODEC = ActionCodec(
    kinds={
        "END_TURN": (),
        "EARN": (),  # the Tycoon actions
        "DRAW": (),
        "PLAY": ("card",),
        "BUILD": ("tile", "floor", "footprint"),
        "BRIBE": ("character", "seat"),
        "BUY": ("own_tile",),  # free actions (own_tile: a tile instance of the seat's board)
        "STAKE": ("claim",),
        "PLACE": ("own_tile",),  # decisions of a pending task: a bonus or card cube
        "DISCARD": ("card",),  # hand limit, or Moonshine Angie's discard
        "BONUS_PLAY": ("card",),  # a tile's "play a card" bonus
        "SKIP": (),  # decline an optional task
        "MOVE": ("character", "seat"),  # a card's character move
        "CARD_BUILD": ("tile", "floor", "footprint"),
        "CHEAP_CUBE": ("own_tile",),  # a card's cubes at a set price
        "DROP": ("claim",),  # setup: drop a dealt secret claim
    },
    fields={
        "card": _bits(MAX_CARD_TYPES),
        "tile": _bits(MAX_TILE_TYPES),
        "floor": _bits(NFLOORS),
        "footprint": _bits(N_FP),
        "character": _bits(N_CHARS),
        "seat": _bits(MAX_PLAYERS),
        "own_tile": _bits(MAX_TILES),
        "claim": _bits(N_CLAIM_IDS),
    },
)
(
    END_TURN,
    EARN,
    DRAW,
    PLAY,
    BUILD,
    BRIBE,
    BUY,
    STAKE,
    PLACE,
    DISCARD,
    BONUS_PLAY,
    SKIP,
    MOVE,
    CARD_BUILD,
    CHEAP_CUBE,
    DROP,
) = CODEC.kind_ids(*CODEC.kind_names)
kind_of = CODEC.kind_getter()
card_of, tile_of, floor_of, footprint_of, character_of, seat_of, own_tile_of, claim_of = CODEC.getters(
    "card", "tile", "floor", "footprint", "character", "seat", "own_tile", "claim"
)
encode_play = CODEC.encoder("PLAY")
encode_build = CODEC.encoder("BUILD")
encode_bribe = CODEC.encoder("BRIBE")
encode_buy = CODEC.encoder("BUY")
encode_stake = CODEC.encoder("STAKE")
encode_place = CODEC.encoder("PLACE")
encode_discard = CODEC.encoder("DISCARD")
encode_bonus_play = CODEC.encoder("BONUS_PLAY")
encode_move = CODEC.encoder("MOVE")
encode_card_build = CODEC.encoder("CARD_BUILD")
encode_cheap_cube = CODEC.encoder("CHEAP_CUBE")
encode_drop = CODEC.encoder("DROP")

# Length of the legal-action list.  The longest lists are the builds of a rich seat (every affordable tile type on
# every free spot: at most 3 floors x 15 footprints x 15 types); random play stays far below it (at most 67 legal
# actions in 300 random games at each of 2, 3 and 4 players; the contract test checks every step).
MAX_ACTIONS = 1024


def _footprint_bits():
    """Per footprint: the bit mask of its ground positions, and of the ground positions next to it along its arm
    (one of them must hold a tile for a ground build: queries.spot_free)."""
    bits = np.zeros(N_FP, np.int64)
    near = np.zeros(N_FP, np.int64)
    for fp in range(N_FP):
        a, b = FP_A[fp], FP_B[fp]
        bits[fp] = (1 << a) | ((1 << b) if b >= 0 else 0)
        for q in (NB_IN[a], NB_OUT[b if b >= 0 else a]):
            if q >= 0:
                near[fp] |= 1 << q
    return bits, near


FP_BITS, FP_NEAR = _footprint_bits()
FLOOR_BITS = 16  # gen_builds's board masks: one floor every FLOOR_BITS bits (9 positions, 15 footprints)


@one_copy(_nrt=False)
def gen_builds(s, p, seat, out, k, card_build, ignore_lot, discount):
    """Append every affordable legal (tile, floor, footprint) build: BUILD actions, or CARD_BUILD ones for a card
    build (which may ignore the lot's gold and take a discount).

    Order: floor, footprint, tile type (ascending).  The size, floor and position limits of the tile types are
    folded into bit masks once per game (effects.tile_tables), so each spot only visits the tile types that fit it.
    The board is read once into bit masks (a floor every FLOOR_BITS bits), so that whether a spot is free is a few
    bit tests: the rule queries.spot_free states, checked against this listing by the play tests."""
    nt = np.int64(p[P_N_TILES])
    one = np.int64(1)
    # the tile types in supply whose required / forbidding tile types allow them
    mask = np.int64(0)
    tb = s.types_built[seat]
    for t in range(1, nt):
        if s.supply[t] <= 0:
            continue
        req = s.type_req[t]
        if req >= 0 and (tb >> req) & 1 == 0:
            continue
        forb = s.type_forbid[t]
        if forb >= 0 and (tb >> forb) & 1 == 1:
            continue
        mask |= one << t
    if mask == 0:
        return k
    gold = np.int64(s.gold[seat])
    large_all = s.type_mask[TM_LARGE]  # every large tile type (the Saloon included): for the tiles below a spot
    m_large = mask & large_all
    m_small = mask & ~large_all
    m_f0 = mask & s.type_mask[TM_F0]  # allowed tile types whose floor range (and position rule) admits floor 0, 1, 2
    m_f1 = mask & s.type_mask[TM_F1]
    m_f2 = mask & s.type_mask[TM_F2]
    m_above = s.type_mask[TM_ABOVE]
    cheapest = one << 40
    b = mask
    while b:
        t = low_bit(b)
        b &= b - 1
        c = max(np.int64(s.type_cost[t]) - discount, 0)
        if c < cheapest:
            cheapest = c
    if cheapest > gold:
        return k
    # the board: positions taken, positions under a finished tile, under a finished small tile, and the footprints
    # of the finished large tiles (bit fp)
    taken = np.int64(0)
    fin = np.int64(0)
    fin_small = np.int64(0)
    fin_large_fp = np.int64(0)
    for i in range(s.n_tiles[seat]):
        sh = FLOOR_BITS * np.int64(s.tile_floor[seat, i])
        fp = np.int64(s.tile_footprint[seat, i])
        pos = FP_BITS[fp] << sh
        taken |= pos
        if s.tile_finished[seat, i] == 1:
            fin |= pos
            if (large_all >> s.tile_type[seat, i]) & 1 == 1:
                fin_large_fp |= one << (fp + sh)
            else:
                fin_small |= pos
    theater_any = p[P_R_THEATER] != 0
    n_fp = N_FP if p[P_R_FOOTPRINTS] != 0 else FP_UNALIGNED
    for f in range(NFLOORS):
        below = FLOOR_BITS * (f - 1)
        if f > 0 and (fin >> below) & ((one << NPOS) - 1) == 0:
            continue  # no finished tile to carry one on this floor
        mf = m_f0 if f == 0 else (m_f1 if f == 1 else m_f2)
        if mf == 0:
            continue
        here = taken >> (FLOOR_BITS * f)
        for fp in range(n_fp):
            pos = FP_BITS[fp]
            if here & pos != 0:
                continue
            if f == 0:  # a lot (never the Saloon's square) next to a tile along its arm
                if fp == 0 or taken & FP_NEAR[fp] == 0:
                    continue
            elif fp == 0:  # above the Saloon: on a finished tile there
                if (fin >> below) & 1 == 0:
                    continue
            elif (fin_small >> below) & pos != pos and (fin_large_fp >> (below + fp)) & 1 == 0:
                continue  # on finished small tiles, or (a large footprint) on one finished large tile of it
            m = (m_large if FP_LARGE[fp] == 1 else m_small) & mf
            if fp != 0 and not theater_any:
                m &= ~m_above
            if m == 0:
                continue
            budget = gold - (np.int64(0) if ignore_lot else lot_gold(p, f, fp))
            if cheapest > budget:
                continue
            while m:
                t = low_bit(m)
                m &= m - 1
                c = np.int64(s.type_cost[t]) - discount
                if c < 0:
                    c = 0
                if c > budget:
                    continue
                if card_build:
                    k = push(out, k, encode_card_build(t, f, fp))
                else:
                    k = push(out, k, encode_build(t, f, fp))
    return k


@nb.njit(cache=True, _nrt=False, inline="always")
def plays_listed(s, seat, play_ok, angie_applies):
    """Are card plays (PLAY, each card_playable card in card order) among the Tycoon actions?  play_ok: the action
    may be a play; with Moonshine Angie (angie_applies) a play needs two cards in hand."""
    if not play_ok:
        return False
    return not (angie_applies and s.char_owner[ANGIE] == seat) or s.hand_n[seat] >= 2


@nb.njit(cache=True, _nrt=False, inline="always")
def bribes_listed(s, p, seat):
    """Are bribes among the Tycoon actions (after the builds, in gen_moves's order)?"""
    return s.end_trig == 0 and s.gold[seat] >= p[P_BRIBE]


@nb.njit(cache=True, _nrt=False, inline="always")
def buys_listed(s, p, seat):
    """Are cube purchases (BUY, each tile_open tile in tile order) listed in the main step?"""
    return s.gold[seat] >= purchase_price(s, p, seat)


@one_copy(_nrt=False)
def _gen_tycoon(s, p, seat, out, k, play_ok, angie_applies):
    """The Tycoon actions: EARN, DRAW, the card plays, the builds, the bribes (strategies' quick_choice walks them
    in this order without the list)."""
    k = push(out, k, EARN)
    k = push(out, k, DRAW)
    if plays_listed(s, seat, play_ok, angie_applies):
        for c in range(MAX_CARD_TYPES):
            if card_playable(s, p, seat, c):
                k = push(out, k, encode_play(c))
    k = gen_builds(s, p, seat, out, k, False, False, 0)
    if bribes_listed(s, p, seat):
        k = gen_moves(s, p, seat, out, k, False)
    return k


@one_copy(_nrt=False)
def gen_moves(s, p, seat, out, k, by_card):
    """Character moves: BRIBE actions, or MOVE ones for a card's move (by_card)."""
    own_only = p[P_R_BRIBE_TARGET] == 1
    for c in range(N_CHARS):
        o = s.char_owner[c]
        if o < 0:
            continue
        for d in range(s.n):
            if d == o:
                continue
            if own_only and d != seat:
                continue
            if by_card:
                k = push(out, k, encode_move(c, d))
            else:
                k = push(out, k, encode_bribe(c, d))
    return k


def COMPILE_IN_PARENT(state, params):
    """The first compile on two processes (sim.kernel.compile_ahead): the legal actions are compiled beside the
    moves, while the child compiles the strategies (which take longer than the moves)."""
    return {"legal_actions": (state, params, LEGAL_TYPE)}


@nb.njit(cache=True, _nrt=False)
def legal_actions(s, p, out):
    """Fill out[:n] with the legal actions of the seat to act and return n; every action goes through push."""
    seat = s.cur
    k = 0
    if s.phase == PH_KEEP:
        for j in range(MAX_SEC_HAND):
            if s.sec_state[seat, j] == SEC_DEALT:
                k = push(out, k, encode_drop(s.sec[seat, j]))
        return k
    if s.phase != PH_PLAY:
        return push(out, 0, END_TURN)
    if s.n_tasks > 0:
        top = s.n_tasks - 1
        task = s.task[top, 0]
        if task == TK_CUBES or task == TK_CHEAP:
            for i in range(s.n_tiles[seat]):
                if tile_open(s, p, seat, i):
                    if task == TK_CUBES:
                        k = push(out, k, encode_place(i))
                    else:
                        k = push(out, k, encode_cheap_cube(i))
            if task == TK_CHEAP:
                k = push(out, k, SKIP)
        elif task == TK_DRAW or task == TK_DISCARD1:
            for c in range(MAX_CARD_TYPES):
                if s.hand[seat, c] > 0:
                    k = push(out, k, encode_discard(c))
        elif task == TK_PLAYOPT:
            for c in range(MAX_CARD_TYPES):
                if card_playable(s, p, seat, c):
                    k = push(out, k, encode_bonus_play(c))
            k = push(out, k, SKIP)
        elif task == TK_ACTION:
            k = _gen_tycoon(s, p, seat, out, k, True, p[P_R_ANGIE_ACTION_BONUS] == 1)
        elif task == TK_CBUILD:
            k = gen_builds(s, p, seat, out, k, True, s.task[top, 1] == 1, s.task[top, 2])
            k = push(out, k, SKIP)
        elif task == TK_MOVE:
            if not restricted(s):
                k = gen_moves(s, p, seat, out, k, True)
            k = push(out, k, SKIP)
        if k == 0:  # cannot happen with a consistent stack; never leave the game without a move
            k = push(out, 0, SKIP)
        return k
    # main step: end of turn, the Tycoon actions while actions remain, the free actions (buy a cube, stake a claim);
    # the strategies' quick_choice walks this order without the list
    k = push(out, k, END_TURN)
    if s.acts_any + s.acts_noplay > 0:
        k = _gen_tycoon(s, p, seat, out, k, s.acts_any > 0, True)
    if buys_listed(s, p, seat):
        for i in range(s.n_tiles[seat]):
            if tile_open(s, p, seat, i):
                k = push(out, k, encode_buy(i))
    return gen_stakes(s, p, seat, out, k)


@nb.njit(cache=True, _nrt=False, inline="always")
def _bit_claim(s, b):
    """The claim id of claim bit b (see state.STAKE_OPEN_BITS)."""
    if b < STAKE_OPEN_BITS:
        return np.int64(s.open_ids[b])
    return np.int64(MAX_OPEN + b - STAKE_OPEN_BITS)


@nb.njit(cache=True, _nrt=False)
def gen_stakes(s, p, seat, out, k):
    """Stake actions: the unscored open claims, then the seat's kept secret claims, whose requirements are met.

    The claims the seat may stake are s.stake_open's and those in s.stake_kept[seat]'s hand slots.  A claim's check
    is cached per seat and claim bit (s.stake_known, s.stake_met; state.STAKE_OPEN_BITS) and re-done only after
    something it read changed: the rules set the seat's SC_* bits in s.stake_dirty (effects.touch), and
    s.stake_reads[seat, c] holds the claims whose check read SC_* c.  Invariant (tests/games/saloon_tycoon/
    test_play.py): every cached check not made stale by stake_dirty equals claim_met recomputed from the state."""
    d = s.stake_dirty[seat]
    if d != 0:
        stale = np.int64(0)
        for c in range(N_SC):
            if (d >> c) & 1:
                stale |= s.stake_reads[seat, c]
        s.stake_known[seat] &= ~stale
        s.stake_dirty[seat] = 0
    one = np.int64(1)
    secret = np.int64(0)
    hs = s.stake_kept[seat]
    while hs != 0:
        secret |= one << (STAKE_OPEN_BITS + s.sec[seat, low_bit(hs)] - MAX_OPEN)
        hs &= hs - 1
    cand = s.stake_open | secret
    todo = cand & ~s.stake_known[seat]
    if todo != 0:
        known = s.stake_known[seat] | todo
        met = s.stake_met[seat] & ~todo
        chars_done = False
        chars = (0, 0, 0, 0, 0, 0, 0)
        tiles_done = False
        tiles = (0, 0, 0, 0, 0)
        while todo != 0:
            bit = todo & -todo
            todo ^= bit
            ok, reads, chars_done, chars, tiles_done, tiles = _claim_check(
                s, p, seat, _bit_claim(s, low_bit(bit)), chars_done, chars, tiles_done, tiles
            )
            if ok:
                met |= bit
            for c in range(N_SC):
                s.stake_reads[seat, c] = (s.stake_reads[seat, c] & ~bit) | (((reads >> c) & 1) * bit)
        s.stake_known[seat] = known
        s.stake_met[seat] = met
    met = s.stake_met[seat]
    m = s.stake_open & met
    while m != 0:
        k = push(out, k, encode_stake(_bit_claim(s, low_bit(m))))
        m &= m - 1
    if secret & met:  # in hand-slot order
        hs = s.stake_kept[seat]
        while hs != 0:
            g = np.int64(s.sec[seat, low_bit(hs)])
            if (met >> (STAKE_OPEN_BITS + g - MAX_OPEN)) & 1:
                k = push(out, k, encode_stake(g))
            hs &= hs - 1
    return k


@nb.njit(cache=True, _nrt=False)
def claim_met(s, p, seat, g):
    """(Does the seat meet claim g's requirements?, the SC_* bits its check reads), from the state alone."""
    ok, reads, _, _, _, _ = _claim_check(s, p, seat, g, False, (0, 0, 0, 0, 0, 0, 0), False, (0, 0, 0, 0, 0))
    return ok, reads


@nb.njit(cache=True, _nrt=False, inline="always")
def _claim_check(s, p, seat, g, chars_done, chars, tiles_done, tiles):
    """Claim g's check for the seat (every claim requirement is checked here, _term_met: the one place of the claim
    rules): (met?, the SC_* bits of the terms read, and the seat's character and tile counts, taken when a term
    first needs them and passed on to the next claim).  The terms after the first unmet one are not read: whatever
    they say, the claim stays unmet until that term changes."""
    base = kbase(g)
    ok = True
    reads = 0
    for q in range(MAX_TERMS):
        kind, a, n = claim_term(p, base, q)
        if kind == 0:
            continue
        reads |= _term_reads(kind)
        if R_ANY <= kind <= R_OUTLAWS_MAX:
            if not chars_done:
                chars_done = True
                chars = _char_counts(s, p, seat)
        elif _is_tile_total(kind) and not tiles_done:
            tiles_done = True
            tiles = _tile_counts(s, p, seat)
        if not _term_met(s, p, seat, kind, a, n, chars, tiles):
            ok = False
            break
    return ok, reads, chars_done, chars, tiles_done, tiles


@nb.njit(cache=True, _nrt=False, inline="always")
def _term_reads(kind):
    """The SC_* bits of what _term_met reads for a requirement kind."""
    if kind <= R_OUTLAWS_MAX:
        return 1 << SC_CHARS
    if kind == R_ROOFS or kind == R_LARGE_ROOFS:
        return 1 << SC_ROOFS
    if kind == R_INCOME:
        return (1 << SC_TILES) | (1 << SC_ROOFS)
    if kind == R_FINISHED:
        return 1 << SC_FINISHED
    if kind == R_GOLD:
        return 1 << SC_GOLD
    if kind == R_HAND:
        return 1 << SC_HAND
    if kind == R_CUBES:
        return 1 << SC_CUBES
    return 1 << SC_TILES  # the tiles built: their number, types, places


@nb.njit(cache=True, _nrt=False, inline="always")
def _term_met(s, p, seat, kind, a, n, chars, tiles):
    """Does the seat meet the claim requirement (kind, argument a, count n)?  chars, tiles: the seat's counts
    (_char_counts, _tile_counts), taken by the caller when the kind reads them."""
    if kind == R_NAMED:
        return s.char_owner[a] == seat
    if kind <= R_OUTLAWS_MAX:
        v = _char_total(kind, chars)
        return v <= n if kind == R_OUTLAWS_MAX else v >= n
    if kind == R_TILES:
        return s.n_tiles[seat] >= n
    if kind == R_TILE_TYPE:
        return count_type(s, seat, a) >= n
    if kind == R_ROOFS:
        return s.roofs[seat, ROOF_SMALL] + s.roofs[seat, ROOF_LARGE] >= n
    if kind == R_LARGE_ROOFS:
        return s.roofs[seat, ROOF_LARGE] >= n
    if kind == R_GOLD:
        return s.gold[seat] >= n
    if kind == R_INCOME:
        return income_of(s, seat) >= n
    if kind == R_HAND:
        return s.hand_n[seat] >= n
    if kind == R_CUBES:
        return s.cubes_board[seat] >= n
    if kind == R_LOTS_GE:
        return _lots_built(s, p, seat, a) >= n
    if kind == R_FULL_ARM:
        return _arm_full(s, seat) or n == 0
    if kind == R_DISTINCT:
        return _distinct_types(s, seat) >= n
    return _tile_total(kind, tiles) >= n


@nb.njit(cache=True, _nrt=False)
def _char_counts(s, p, seat):
    """The seat's characters: (all, female, male, Citizens, female Citizens, male Citizens, outlaws)."""
    c_any = 0
    c_f = 0
    c_m = 0
    c_cit = 0
    c_cit_f = 0
    c_cit_m = 0
    c_out = 0
    for c in range(N_CHARS):
        if s.char_owner[c] != seat:
            continue
        cit = char_is_citizen(p, c)
        fem = char_is_female(p, c)
        c_any += 1
        if fem:
            c_f += 1
        else:
            c_m += 1
        if cit:
            c_cit += 1
            if fem:
                c_cit_f += 1
            else:
                c_cit_m += 1
        else:
            c_out += 1
    return c_any, c_f, c_m, c_cit, c_cit_f, c_cit_m, c_out


@nb.njit(cache=True, _nrt=False, inline="always")
def _char_total(kind, chars):
    """The count of _char_counts a character requirement (R_ANY .. R_OUTLAWS_MAX) reads."""
    c_any, c_f, c_m, c_cit, c_cit_f, c_cit_m, c_out = chars
    if kind == R_ANY:
        return c_any
    if kind == R_F:
        return c_f
    if kind == R_M:
        return c_m
    if kind == R_CIT:
        return c_cit
    if kind == R_CIT_F:
        return c_cit_f
    if kind == R_CIT_M:
        return c_cit_m
    if kind == R_OUTLAWS or kind == R_OUTLAWS_MAX:
        return c_out
    return 0


@nb.njit(cache=True, _nrt=False, inline="always")
def _is_tile_total(kind):
    """Is kind a requirement on a total of _tile_counts?"""
    return kind == R_FINISHED or kind == R_SPECIAL or kind == R_LARGE_EXCL or kind == R_FLOOR3 or kind == R_ABOVE_SALOON


@nb.njit(cache=True, _nrt=False)
def _tile_counts(s, p, seat):
    """The seat's tiles: (finished, special, large but the Saloon, on the top floor, above the Saloon)."""
    t_fin = 0
    t_spec = 0
    t_large = 0
    t_top = 0
    t_above = 0
    for i in range(s.n_tiles[seat]):
        t = s.tile_type[seat, i]
        if s.tile_finished[seat, i] == 1:
            t_fin += 1
        if tparam(p, t, TF_SPECIAL) == 1:
            t_spec += 1
        if t != 0 and tparam(p, t, TF_LARGE) == 1:
            t_large += 1
        if s.tile_floor[seat, i] == NFLOORS - 1:
            t_top += 1
        if s.tile_footprint[seat, i] == 0 and s.tile_floor[seat, i] > 0:
            t_above += 1
    return t_fin, t_spec, t_large, t_top, t_above


@nb.njit(cache=True, _nrt=False, inline="always")
def _tile_total(kind, tiles):
    """The count of _tile_counts a tile requirement reads."""
    t_fin, t_spec, t_large, t_top, t_above = tiles
    if kind == R_FINISHED:
        return t_fin
    if kind == R_SPECIAL:
        return t_spec
    if kind == R_LARGE_EXCL:
        return t_large
    if kind == R_FLOOR3:
        return t_top
    if kind == R_ABOVE_SALOON:
        return t_above
    return 0


@nb.njit(cache=True, _nrt=False)
def _lots_built(s, p, seat, gold):
    """Built ground lots whose gold surcharge is at least `gold`."""
    v = 0
    for x in range(1, NPOS):
        if s.cell[seat, 0, x] >= 0 and lot_param(p, x, LOT_GOLD) >= gold:
            v += 1
    return v


@nb.njit(cache=True, _nrt=False)
def _arm_full(s, seat):
    """Is every lot of one arm (A1-A4 or B1-B4) built on?"""
    for arm in range(ARMS):
        full = True
        for j in range(ARM_LOTS):
            if s.cell[seat, 0, 1 + ARM_LOTS * arm + j] < 0:
                full = False
        if full:
            return True
    return False


@nb.njit(cache=True, _nrt=False)
def _distinct_types(s, seat):
    """Distinct tile types the seat has built, the Saloon (tile 0) apart."""
    m = np.int64(0)
    for i in range(1, s.n_tiles[seat]):
        m |= np.int64(1) << s.tile_type[seat, i]
    v = 0
    while m:
        v += m & 1
        m >>= 1
    return v
