"""Gunny Town's actions and the legal-action list (RULES.md "Turn": what a player may do in each phase).

Every action is declared once in CODEC (sim.toolkit.ActionCodec): its kind and named fields, packed into one int64.
The engine, the strategies, text.py, hidden.py and the tests encode and decode only through it.  The order of the
legal list is part of the game's behaviour (the strategies break ties by it): keep it.
"""

import numba as nb

from sim.kernel import one_copy
from sim.toolkit import ActionCodec, push

from .params import (
    DIST,
    F_BANK,
    F_BRIBE,
    F_CASINO,
    F_CHEST,
    F_EXTRA,
    F_FORT,
    F_HORSE,
    F_ROBSAL,
    F_WEAPONS,
    J_BANKER,
    L_BANK,
    LOC_AT,
    LOC_FLAGS,
    LOC_JOB,
    LOC_STORE,
    NJOB,
    NSQ,
    NSTORE,
    P_BANKER,
    P_BRIBE_COST,
    P_CASINO_CAP,
    P_CASINO_PARTS,
    P_DUELS_PER_SIDE,
    P_EXTRA_COST,
    P_EXTRA_SQ,
    P_FORT_BONUS,
    P_HAND_MAX,
    P_HORSE_COST,
    P_LOC_AMMO,
    P_LOC_GN,
    P_LP_MAX,
    P_MIN_MOVE,
    P_MOVE_END_LOC,
    P_ROB_STORE_CARDS,
    P_STORE_MISSION_EXTRA,
    P_STORE_ONE_SUB,
    STORE_SELLS_LP,
    STREET,
)
from .queries import (
    removed,
    can_duel,
    give_slot,
    hand_size,
    int_param,
    missions_left,
    move_range,
    store_mission_slot,
    store_price,
    unit_price,
    weapon_cost,
)
from .state import (
    IT_ENTRY,
    IT_HORSE,
    IT_JOB,
    IT_STORE,
    IT_WEAPON,
    B_AMMO,
    B_BANK,
    B_BET,
    B_BRIBE,
    B_CHEST,
    B_EXTRA,
    B_FREE,
    B_GN,
    B_HORSE,
    B_JOB,
    B_ROB,
    B_ROBSAL,
    B_STORE,
    B_TAKEOVER,
    B_UNIT,
    B_WEAPON,
    CHEST,
    DODGE,
    ENTRY_ARMORY,
    ENTRY_STABLES,
    FAKE,
    HEAD,
    LOC_OPEN,
    LOC_USED_AFTER_MOVE,
    LOC_USED_BEFORE_MOVE,
    MAX_PLAYERS,
    N_AMMO_TYPES,
    NW,
    PH_CCARD,
    PH_DCARD,
    PH_ENTRY,
    PH_EXTRA,
    PH_PAIR,
    PH_POST,
    PH_PRE,
    PH_WIN,
    W_FRIGHTEN,
    W_FRIGHTEN_JOB,
    W_HIT,
    W_HIT_JOB,
)


def _bits(count):
    """Bits that hold the values 0..count-1."""
    return max(1, (count - 1).bit_length())


CODEC = ActionCodec(
    kinds={
        "ENTER": ("entry",),  # the first turn's square: ENTRY_STABLES (free horse) or ENTRY_ARMORY (pistol)
        "MOVE": ("square",),  # the mandatory move, to a street square
        "MOVE2": ("square",),  # the paid extra move's second leg
        "END": (),
        "DUEL": ("seat",),  # challenge a seat
        "CCARD": ("card",),  # the challenger lays a card face down
        "DCARD": ("card",),  # the defender lays a card, or FAKE
        "WIN": ("choice",),  # the round winner's choice (W_HIT ...)
        "TAKE_JOB": ("job",),
        "PICK_GN": ("amount",),
        "PICK_AMMO": ("amount",),
        "BUY_UNIT": ("store",),
        "BUY_STORE": ("store",),
        "ROB_STORE": ("store",),
        "FREE_UNIT": ("store",),  # the owner's free unit
        "TAKEOVER": ("store",),  # buy an owned store for its mission
        "STORE_PAY": ("store",),  # pay the bank for the mission of a store already owned
        "BUY_WEAPON": ("weapon",),
        "BUY_HORSE": (),
        "EXTRA": (),  # pay for the extra move
        "CHEST": (),
        "ROB_BANK": (),
        "BET": ("amount",),  # stake at the Saloon
        "PAIR": ("part", "part2"),  # the body parts named for the bet (part == part2 when one is named)
        "ROB_SALOON": (),
        "BRIBE": ("seat",),  # bribe the judge against a job holder
        "GIVE": (),  # 'give 1 ammunition to each opponent' mission
    },
    fields={
        "entry": 1,
        "square": _bits(NSQ),
        "seat": _bits(MAX_PLAYERS),
        "card": _bits(FAKE + 1),
        "choice": 2,
        "job": _bits(NJOB),
        "amount": 20,
        "store": _bits(NSTORE),
        "weapon": _bits(NW),
        "part": _bits(N_AMMO_TYPES),
        "part2": _bits(N_AMMO_TYPES),
    },
)
(
    K_ENTER,
    K_MOVE,
    K_MOVE2,
    K_END,
    K_DUEL,
    K_CCARD,
    K_DCARD,
    K_WIN,
    K_TAKE_JOB,
    K_PICK_GN,
    K_PICK_AMMO,
    K_BUY_UNIT,
    K_BUY_STORE,
    K_ROB_STORE,
    K_FREE_UNIT,
    K_TAKEOVER,
    K_STORE_PAY,
    K_BUY_WEAPON,
    K_BUY_HORSE,
    K_EXTRA,
    K_CHEST,
    K_ROB_BANK,
    K_BET,
    K_PAIR,
    K_ROB_SALOON,
    K_BRIBE,
    K_GIVE,
) = CODEC.kind_ids(*CODEC.kind_names)
kind_of = CODEC.kind_getter()
(entry_of, square_of, seat_of, card_of, choice_of, job_of, amount_of, store_of, weapon_of, part_of, part2_of) = (
    CODEC.getters("entry", "square", "seat", "card", "choice", "job", "amount", "store", "weapon", "part", "part2")
)
encode_enter = CODEC.encoder("ENTER")
encode_move = CODEC.encoder("MOVE")
encode_move2 = CODEC.encoder("MOVE2")
encode_duel = CODEC.encoder("DUEL")
encode_ccard = CODEC.encoder("CCARD")
encode_dcard = CODEC.encoder("DCARD")
encode_win = CODEC.encoder("WIN")
encode_take_job = CODEC.encoder("TAKE_JOB")
encode_pick_gn = CODEC.encoder("PICK_GN")
encode_pick_ammo = CODEC.encoder("PICK_AMMO")
encode_buy_unit = CODEC.encoder("BUY_UNIT")
encode_buy_store = CODEC.encoder("BUY_STORE")
encode_rob_store = CODEC.encoder("ROB_STORE")
encode_free_unit = CODEC.encoder("FREE_UNIT")
encode_takeover = CODEC.encoder("TAKEOVER")
encode_store_pay = CODEC.encoder("STORE_PAY")
encode_buy_weapon = CODEC.encoder("BUY_WEAPON")
encode_bet = CODEC.encoder("BET")
encode_pair = CODEC.encoder("PAIR")
encode_bribe = CODEC.encoder("BRIBE")

MAX_ACTIONS = 160  # length of the legal-action list (the longest: a move's destinations plus a location's options)
# The largest stake (an all-in gambler's gold can grow past a million in a 150-round game): a limit of the model,
# not a rule, kept where it was so the recorded results stay comparable; the amount field holds it.
MAX_BET = 999_999
assert MAX_BET <= CODEC.mask("amount")
BETS_EXACT = 20  # stakes 1..20 are offered one by one; above, BET_STEPS even steps up to the cap
BET_STEPS = 20


@one_copy(_nrt=False)
def _moves(s, p, out, n, kind, lo, hi):
    here = s.pos[s.cur]
    need_loc = int_param(p, P_MOVE_END_LOC) == 1
    for sq in range(NSQ):
        if STREET[sq]:
            d = DIST[here, sq]
            if d >= lo and d <= hi and (not need_loc or LOC_AT[sq] >= 0):
                n = push(out, n, encode_move(sq) if kind == K_MOVE else encode_move2(sq))
    return n


@nb.njit(cache=True, _nrt=False)
def _duel_limit_ok(s, p):
    lim = int_param(p, P_DUELS_PER_SIDE)
    if lim == 0:
        return True
    if s.phase == PH_PRE:
        return s.duel_pre < lim
    return s.duel_post < lim


@nb.njit(cache=True, _nrt=False)
def bet_amounts(s, p, out, n):
    """The Saloon stakes offered: every amount up to 2 x BETS_EXACT, else 1..BETS_EXACT and BET_STEPS even steps
    up to the cap (the player's gold, or casino.bet_cap)."""
    cap = min(s.gold[s.cur], MAX_BET)
    c = int_param(p, P_CASINO_CAP)
    if c > 0:
        cap = min(cap, c)
    if cap <= 2 * BETS_EXACT:
        for a in range(1, cap + 1):
            n = push(out, n, encode_bet(a))
    else:
        for a in range(1, BETS_EXACT + 1):
            n = push(out, n, encode_bet(a))
        for i in range(1, BET_STEPS + 1):
            a = BETS_EXACT + ((cap - BETS_EXACT) * i) // BET_STEPS
            n = push(out, n, encode_bet(a))
    return n


@one_copy(_nrt=False)
def _location_options(s, p, out, n):
    """The location actions open at the active player's square (RULES.md "Location actions")."""
    pl = s.cur
    loc = LOC_AT[s.pos[pl]]
    if loc < 0:
        return n
    done = s.loc_done
    gold = s.gold[pl]
    flags = LOC_FLAGS[loc]
    # job badge
    j = LOC_JOB[loc]
    if loc == L_BANK and int_param(p, P_BANKER) == 1:
        j = J_BANKER
    if j >= 0 and not (done & B_JOB) and s.job_holder[j] < 0 and not removed(p, IT_JOB + j):
        n = push(out, n, encode_take_job(j))
    # pickups
    g = int_param(p, P_LOC_GN + loc)
    a = int_param(p, P_LOC_AMMO + loc)
    if flags & F_FORT and int_param(p, P_FORT_BONUS) == 1:
        g += a
        a = 0
    if g > 0 and not (done & B_GN):
        n = push(out, n, encode_pick_gn(g))
    if a > 0 and not (done & B_AMMO) and hand_size(s, pl) < int_param(p, P_HAND_MAX):
        n = push(out, n, encode_pick_ammo(a))
    # store
    st = LOC_STORE[loc]
    if st >= 0:
        owner = s.store_owner[st]
        store_done = done & (B_UNIT | B_STORE | B_ROB | B_FREE | B_TAKEOVER)
        one = int_param(p, P_STORE_ONE_SUB) == 1
        if STORE_SELLS_LP[st]:
            useful = s.lp[pl] < int_param(p, P_LP_MAX)
        else:
            useful = hand_size(s, pl) < int_param(p, P_HAND_MAX)
        if owner == pl:
            if store_done == 0 and s.store_turn[st] != s.turn and useful:
                n = push(out, n, encode_free_unit(st))
        elif not (done & (B_ROB | B_FREE)):
            price = store_price(p, st)
            unit = unit_price(p, st)
            if not (done & B_UNIT) and gold >= unit and useful and not (one and store_done):
                n = push(out, n, encode_buy_unit(st))
            if (
                owner < 0
                and not (done & B_STORE)
                and gold >= price
                and not (one and store_done)
                and not removed(p, IT_STORE + st)
            ):
                n = push(out, n, encode_buy_store(st))
            if (
                owner >= 0
                and not (done & B_TAKEOVER)
                and store_mission_slot(s, st) >= 0
                and missions_left(s, p, pl) > 0
                and gold >= price + int_param(p, P_STORE_MISSION_EXTRA)
                and not (one and store_done)
            ):
                n = push(out, n, encode_takeover(st))
            if store_done == 0 and s.wmask[pl] != 0 and hand_size(s, pl) >= int_param(p, P_ROB_STORE_CARDS):
                n = push(out, n, encode_rob_store(st))
    if flags & F_WEAPONS and not (done & B_WEAPON):
        for w in range(NW):
            if gold >= weapon_cost(p, w) and not ((s.wmask[pl] >> w) & 1) and not removed(p, IT_WEAPON + w):
                n = push(out, n, encode_buy_weapon(w))
    if (
        flags & F_HORSE
        and not (done & B_HORSE)
        and s.horse[pl] == 0
        and gold >= int_param(p, P_HORSE_COST)
        and not removed(p, IT_HORSE)
    ):
        n = push(out, n, K_BUY_HORSE)
    if flags & F_EXTRA and not (done & B_EXTRA) and gold >= int_param(p, P_EXTRA_COST) and int_param(p, P_EXTRA_SQ) > 0:
        n = push(out, n, K_EXTRA)
    if flags & F_CHEST and not (done & B_CHEST):
        n = push(out, n, K_CHEST)
    if flags & F_BANK and not (done & B_BANK) and s.wmask[pl] != 0 and s.hand[pl, HEAD] > 0:
        n = push(out, n, K_ROB_BANK)
    if flags & F_CASINO and not (done & B_BET) and gold > 0:
        n = bet_amounts(s, p, out, n)
    if flags & F_ROBSAL and not (done & B_ROBSAL) and s.wmask[pl] != 0 and (s.hand[pl, HEAD] + s.hand[pl, CHEST]) > 0:
        n = push(out, n, K_ROB_SALOON)
    if flags & F_BRIBE and not (done & B_BRIBE) and gold >= int_param(p, P_BRIBE_COST):
        for t in range(s.n):
            if t != pl and s.job[t] >= 0:
                n = push(out, n, encode_bribe(t))
    return n


@nb.njit(cache=True, _nrt=False)
def _mission_options(s, p, out, n):
    """The missions that are claimed by an action: give ammunition to each opponent, pay for an owned store."""
    pl = s.cur
    if give_slot(s, p, pl) >= 0:
        n = push(out, n, K_GIVE)
    if missions_left(s, p, pl) > 0 and s.gold[pl] >= int_param(p, P_STORE_MISSION_EXTRA):
        for st in range(NSTORE):
            if s.store_owner[st] == pl and store_mission_slot(s, st) >= 0:
                n = push(out, n, encode_store_pay(st))
    return n


@nb.njit(cache=True, _nrt=False)
def legal_actions(s, p, out):
    """Fill out[:n] with the legal actions of the player who decides now and return n.  Every action goes through
    push, which never writes past the list and makes an overflow a clear error rather than a silent cut."""
    ph = s.phase
    pl = s.cur
    n = 0
    if ph == PH_ENTRY:
        if not removed(p, IT_ENTRY + ENTRY_STABLES):
            n = push(out, n, encode_enter(ENTRY_STABLES))
        if not removed(p, IT_ENTRY + ENTRY_ARMORY):
            n = push(out, n, encode_enter(ENTRY_ARMORY))
        return n
    if ph == PH_PRE or ph == PH_POST:
        if not s.first or ph == PH_POST:
            # the first turn starts with the move (G3): nothing before it
            if _duel_limit_ok(s, p):
                for t in range(s.n):
                    if can_duel(s, p, pl, t):
                        n = push(out, n, encode_duel(t))
            st = s.loc_state
            if (ph == PH_PRE and (st == LOC_OPEN or st == LOC_USED_BEFORE_MOVE)) or (
                ph == PH_POST and (st == LOC_OPEN or st == LOC_USED_AFTER_MOVE)
            ):
                n = _location_options(s, p, out, n)
            n = _mission_options(s, p, out, n)
        if ph == PH_PRE:
            n = _moves(s, p, out, n, K_MOVE, int_param(p, P_MIN_MOVE), move_range(s, p, pl))
        else:
            n = push(out, n, K_END)
        return n
    if ph == PH_EXTRA:
        n = _moves(s, p, out, n, K_MOVE2, 1, int_param(p, P_EXTRA_SQ))
        if n == 0:
            n = push(out, n, encode_move2(s.pos[pl]))
        return n
    if ph == PH_PAIR:
        if int_param(p, P_CASINO_PARTS) >= 2:
            for a in range(HEAD, N_AMMO_TYPES):
                for b in range(a + 1, N_AMMO_TYPES):
                    n = push(out, n, encode_pair(a, b))
        else:
            for a in range(HEAD, N_AMMO_TYPES):
                n = push(out, n, encode_pair(a, a))
        return n
    if ph == PH_CCARD:
        for c in range(HEAD, N_AMMO_TYPES):  # every card but Dodge
            if s.hand[s.d_c, c] > 0:
                n = push(out, n, encode_ccard(c))
        return n
    if ph == PH_DCARD:
        t = s.d_t
        for c in range(DODGE, N_AMMO_TYPES):
            if s.hand[t, c] > 0:
                n = push(out, n, encode_dcard(c))
        n = push(out, n, encode_dcard(FAKE))
        return n
    if ph == PH_WIN:
        lo = s.d_loser
        n = push(out, n, encode_win(W_HIT))
        if s.job[lo] >= 0:
            n = push(out, n, encode_win(W_HIT_JOB))
        if s.horse[lo] and s.d_faked == 0:
            n = push(out, n, encode_win(W_FRIGHTEN))
            if s.job[lo] >= 0:
                n = push(out, n, encode_win(W_FRIGHTEN_JOB))
        return n
    return n
