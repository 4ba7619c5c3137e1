"""Gunny Town's rules, jitted: setup, the turn, whose decision it is, what an action does, and the end.

A turn is phases of one active player (state.py): ENTRY (first turn only), PRE (duel / location action at the start
square / mission specials / the mandatory MOVE), EXTRA (the paid 2-square move after arriving at the Stables or the
Stagecoach), POST (duel / location action at the arrival square / END).  A duel inserts CCARD, DCARD and WIN phases
(duels.py), decided by whoever acts; a Saloon bet inserts PAIR (the body parts named).  Missions are claimed
automatically the moment their requirement is met (missions.py).  RULES.md states every rule and reading.
"""

import numba as nb
import numpy as np

from sim.events import log_event
from sim.rng import shuffle

from .actions import (
    K_CCARD,
    K_DCARD,
    K_DUEL,
    K_END,
    K_ENTER,
    K_GIVE,
    K_MOVE,
    K_MOVE2,
    K_PAIR,
    K_STORE_PAY,
    K_WIN,
    card_of,
    choice_of,
    entry_of,
    kind_of,
    seat_of,
    square_of,
    store_of,
)
from .cards import cheapest_card, discard_ammo, draw_ammo, draw_secret
from .duels import resolve_round, start_duel, winner_choice
from .life import gain_lp
from .locations import location_action, settle_bet
from .missions import claim, complete_mission, credit, refill_missions
from .outcome import record_item
from .params import (
    AMMO_ANATOMICAL,
    AMMO_UNIFORM,
    C_BUY_STORE,
    L_ARMORY,
    L_STABLES,
    LOC_SQ,
    MTIER,
    NCHEST,
    NMISSION,
    NSECRET,
    NSTORE,
    P_AMMO_CUSTOM,
    P_AMMO_DECK,
    P_BANDIT_GN,
    P_ENTRY_USES_ACTION,
    P_FINISH_ROUND,
    P_HAND_MAX,
    P_JAIL_LP,
    P_LP_MAX,
    P_MISSION_EXTRA,
    P_MULTI_WEAPONS,
    P_ROUND_CAP,
    P_START_AMMO_FIXED,
    P_START_AMMO_MODE,
    P_START_GOLD,
    P_START_LP,
    P_STORE_MISSION_EXTRA,
)
from .queries import give_slot, hand_size, int_param, job_ammo, job_gn, job_lp, removed
from .state import (
    IT_HORSE,
    IT_MISSION,
    IT_SECRET,
    IT_WEAPON,
    AMMO_BUF,
    E_END,
    E_ENTER,
    E_GIVE,
    E_INCOME,
    E_MOVE,
    E_SETUP,
    E_SKIP,
    E_STORE_PAY,
    E_TURN,
    END_CAP,
    ENTRY_STABLES,
    IT_ENTRY,
    LOC_CLOSED,
    LOC_OPEN,
    LOC_USED_BEFORE_MOVE,
    MAX_PLAYERS,
    MISSION_SLOTS,
    N_AMMO_TYPES,
    NJOBS,
    PH_CCARD,
    PH_DCARD,
    PH_ENTRY,
    PH_PAIR,
    PH_POST,
    PH_PRE,
    PH_WIN,
)

AMMO_DECK_UNIFORM, AMMO_DECK_ANATOMICAL = 0, 1  # deck.ammo's choices (else the deck.custom.* counts)
MISSION_TIERS = 3
PALM_PISTOL = 0  # the Armory's free weapon at entry (params.WEAPON_NAMES)
PALM_PISTOL_BIT = 1 << PALM_PISTOL


@nb.njit(cache=True)
def setup(s, p, n_players):
    """Start a game (RULES.md "Setup"): every field a game reads is set here (the record is reused)."""
    n = n_players
    s.n = n
    s.turn = 0
    s.rnd = 0
    s.over = 0
    s.end_trig = 0
    s.end_reason = 0
    s.turn_over = 0
    s.n_it = 0
    for pl in range(MAX_PLAYERS):
        s.pos[pl] = -1
        s.lp[pl] = int_param(p, P_START_LP)
        s.gold[pl] = int_param(p, P_START_GOLD)
        s.vp[pl] = 0
        s.vp_mis[pl] = 0
        s.vp_sec[pl] = 0
        s.job[pl] = -1
        s.horse[pl] = 0
        s.wmask[pl] = 0
        s.skip[pl] = 0
        for c in range(N_AMMO_TYPES):
            s.hand[pl, c] = 0
        s.jail_visits[pl] = 0
        s.duels_fought[pl] = 0
        s.duels_won[pl] = 0
        s.casino_net[pl] = 0
        s.n_missions[pl] = 0
        s.n_secret[pl] = 0
        s.jobs_taken[pl] = 0
        s.missions_turn[pl] = 0
        s.ammo_used[pl] = 0
        s.secret[pl] = -1
        s.sprog[pl, 0] = 0
        s.sprog[pl, 1] = 0
        s.turns_played[pl] = 0
        for k in range(MISSION_SLOTS):
            s.mprog[pl, k, 0] = 0
            s.mprog[pl, k, 1] = 0
    for j in range(NJOBS):
        s.job_holder[j] = -1
    for st in range(NSTORE):
        s.store_owner[st] = -1
        s.store_turn[st] = -1
    # ammunition deck
    mode = int_param(p, P_AMMO_DECK)
    na = 0
    for c in range(N_AMMO_TYPES):
        if mode == AMMO_DECK_UNIFORM:
            k = AMMO_UNIFORM[c]
        elif mode == AMMO_DECK_ANATOMICAL:
            k = AMMO_ANATOMICAL[c]
        else:
            k = int_param(p, P_AMMO_CUSTOM + c)
        for _ in range(k):
            if na < AMMO_BUF:
                s.adeck[na] = c
                na += 1
    s.n_adeck = na
    s.n_adisc = 0
    shuffle(s.rng, 0, s.adeck, na)
    for c in range(NCHEST):
        s.cdeck[c] = c
    s.n_cdeck = NCHEST
    s.n_cdisc = 0
    shuffle(s.rng, 0, s.cdeck, NCHEST)
    for c in range(NSECRET):
        s.sdeck[c] = c
    s.n_sdeck = NSECRET
    s.n_sdisc = 0
    shuffle(s.rng, 0, s.sdeck, NSECRET)
    for i in range(NSECRET):
        if removed(p, IT_SECRET + s.sdeck[i]):  # taken out after the shuffle, so the others keep their order
            for k in range(i, NSECRET - 1):
                s.sdeck[k] = s.sdeck[k + 1]
            s.n_sdeck = NSECRET - 1
            break
    # mission deck: per tier shuffle, draw players + 3; tier 3 at the bottom, tier 1 on top (top = end)
    tmp = np.empty(NMISSION, np.int32)
    nm = 0
    per = n + int_param(p, P_MISSION_EXTRA)
    for tier in range(MISSION_TIERS, 0, -1):
        nt = 0
        for m in range(NMISSION):
            if MTIER[m] == tier:
                tmp[nt] = m
                nt += 1
        shuffle(s.rng, 0, tmp, nt)
        taken = 0
        for i in range(nt):
            if taken == per:
                break
            if not removed(p, IT_MISSION + tmp[i]):  # a removed card: the next of the same shuffle instead
                s.mdeck[nm] = tmp[i]
                nm += 1
                taken += 1
    s.n_mdeck = nm
    for k in range(MISSION_SLOTS):
        s.face[k] = -1
    refill_missions(s, p)
    s.end_trig = 0
    # players: secret mission and ammunition
    if int_param(p, P_START_AMMO_MODE) == 0:
        na0 = n - 1
    else:
        na0 = int_param(p, P_START_AMMO_FIXED)
    for pl in range(n):
        draw_secret(s, pl)
        draw_ammo(s, p, pl, na0)
    log_event(s, E_SETUP, n, s.n_mdeck, na0, 0)
    s.cur = 0
    start_turn(s, p)


@nb.njit(cache=True, _nrt=False)
def start_turn(s, p):
    """Begin s.cur's turn (the caller guarantees he does not skip it)."""
    pl = s.cur
    s.turn_over = 0
    s.first = 0
    s.loc_state = LOC_OPEN
    s.loc_done = 0
    s.duel_pre = 0
    s.duel_post = 0
    s.challenged = 0
    s.extra_range = 0
    s.bet = 0
    for q in range(s.n):
        s.missions_turn[q] = 0
        s.ammo_used[q] = 0
    s.turns_played[pl] += 1
    log_event(s, E_TURN, pl, s.rnd, s.gold[pl], s.lp[pl])
    # income (G: jobs at the start of the turn; bandit 1 GN)
    j = s.job[pl]
    if j < 0:
        g = int_param(p, P_BANDIT_GN)
        lpi = 0
        am = 0
    else:
        g = job_gn(p, j)
        lpi = job_lp(p, j)
        am = job_ammo(p, j)
    s.gold[pl] += g
    lpi = gain_lp(s, p, pl, lpi) if lpi > 0 else 0
    am = draw_ammo(s, p, pl, am) if am > 0 else 0
    log_event(s, E_INCOME, pl, g, lpi, am)
    if s.pos[pl] < 0:
        s.phase = PH_ENTRY
    else:
        s.phase = PH_PRE
    claim(s, p, pl)


@nb.njit(cache=True, _nrt=False)
def end_turn(s, p):
    """Refill the missions, check the end, pass to the next player who does not skip."""
    refill_missions(s, p)
    while True:
        nxt = (s.cur + 1) % s.n
        if nxt == 0:
            s.rnd += 1
        if s.end_trig != 0 and (nxt == 0 or int_param(p, P_FINISH_ROUND) == 0):
            s.over = 1
            s.end_reason = s.end_trig
            log_event(s, E_END, s.end_reason, s.rnd, 0, 0)
            return
        if s.rnd >= int_param(p, P_ROUND_CAP):
            s.over = 1
            s.end_reason = END_CAP
            log_event(s, E_END, END_CAP, s.rnd, 0, 0)
            return
        s.turn += 1
        s.cur = nxt
        if s.skip[nxt]:
            # the skipped turn (jail): no income, no actions; LP restored when it ends (G19)
            s.skip[nxt] = 0
            s.lp[nxt] = min(int_param(p, P_JAIL_LP), int_param(p, P_LP_MAX))
            log_event(s, E_SKIP, nxt, s.lp[nxt], 0, 0)
            continue
        start_turn(s, p)
        return


@nb.njit(cache=True, _nrt=False)
def current_player(s):
    """The seat that decides now: the defender lays his card, the round's winner chooses, else the active player."""
    if s.phase == PH_DCARD:
        return s.d_t
    if s.phase == PH_WIN:
        return s.d_winner
    return s.cur


@nb.njit(cache=True, _nrt=False)
def is_over(s):
    return s.over != 0


@nb.njit(cache=True, _nrt=False)
def apply_action(s, p, a):
    """Apply the chosen action, claim the missions it completes, and end the turn when it is over."""
    kind = kind_of(a)
    pl = s.cur
    if kind == K_ENTER:
        entry = entry_of(a)
        loc = L_STABLES if entry == ENTRY_STABLES else L_ARMORY
        s.pos[pl] = LOC_SQ[loc]
        if entry == ENTRY_STABLES:
            if not removed(p, IT_HORSE):
                s.horse[pl] = 1
        elif not removed(p, IT_WEAPON + PALM_PISTOL):
            s.wmask[pl] = PALM_PISTOL_BIT if int_param(p, P_MULTI_WEAPONS) == 0 else (s.wmask[pl] | PALM_PISTOL_BIT)
        record_item(s, pl, IT_ENTRY + entry)
        log_event(s, E_ENTER, pl, loc, 0, 0)
        s.first = 1
        if int_param(p, P_ENTRY_USES_ACTION) == 1:
            s.loc_state = LOC_CLOSED
        s.phase = PH_PRE
    elif kind == K_MOVE or kind == K_MOVE2:
        sq = square_of(a)
        log_event(s, E_MOVE, pl, s.pos[pl], sq, 1 if kind == K_MOVE2 else 0)
        s.pos[pl] = sq
        if s.loc_state == LOC_USED_BEFORE_MOVE:
            s.loc_state = LOC_CLOSED  # "if you perform an action, your move action ends": none at arrival
        s.phase = PH_POST
    elif kind == K_END:
        s.turn_over = 1
    elif kind == K_DUEL:
        start_duel(s, p, seat_of(a))
    elif kind == K_CCARD:
        c = card_of(a)
        s.d_ccard = c
        s.hand[s.d_c, c] -= 1
        s.phase = PH_DCARD
    elif kind == K_DCARD:
        resolve_round(s, p, card_of(a))
    elif kind == K_WIN:
        winner_choice(s, p, choice_of(a))
    elif kind == K_PAIR:
        settle_bet(s, p, a)
        s.phase = s.d_ret
    elif kind == K_GIVE:
        k = give_slot(s, p, pl)
        for q in range(s.n):
            if q != pl:
                c = cheapest_card(s, pl)
                s.hand[pl, c] -= 1
                if hand_size(s, q) < int_param(p, P_HAND_MAX):
                    s.hand[q, c] += 1
                else:
                    discard_ammo(s, c)
        log_event(s, E_GIVE, pl, s.n - 1, 0, 0)
        complete_mission(s, p, pl, k)
    elif kind == K_STORE_PAY:
        st = store_of(a)
        s.gold[pl] -= int_param(p, P_STORE_MISSION_EXTRA)
        log_event(s, E_STORE_PAY, pl, st, int_param(p, P_STORE_MISSION_EXTRA), 0)
        credit(s, p, pl, C_BUY_STORE, st)
    else:
        location_action(s, p, a)
    if s.phase != PH_DCARD and s.phase != PH_WIN and s.phase != PH_CCARD:
        claim(s, p, pl)
    if s.turn_over and s.phase != PH_CCARD and s.phase != PH_DCARD and s.phase != PH_WIN and s.phase != PH_PAIR:
        end_turn(s, p)
