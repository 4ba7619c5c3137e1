"""Arrows and the Indian attack, damage batches, healing, reveals, elimination and victory: the sub-procedures
the turn's phases call (through the return stack) and the rule functions they share."""

import numba as nb

from sim.events import log_event
from sim.kernel import declared

from . import params as P
from .state import (
    BOOL,
    DEPUTY,
    ER_ALL_DEAD,
    ER_BANDITS_DEAD,
    ER_LAST_STANDING,
    ER_PERSONAL_KILL,
    ER_SHERIFF_DEAD,
    EV_ARROW,
    EV_ELIM,
    EV_GHOST,
    EV_INDIANS,
    EV_STEAL,
    EV_WIN,
    I64,
    JOURDONNAIS,
    MAX_PLAYERS,
    OUTLAW,
    PH_ARROW_LOOP,
    PH_DMG_BART,
    PH_HEAL,
    PH_OVER,
    PH_REVEAL,
    RENEGADE,
    SRC_GATLING,
    SRC_INDIANS,
    SRC_SHOT,
    VOID,
    WT_3P_DEPUTY,
    WT_LAW,
    WT_NONE,
    WT_OUTLAWS,
    WT_RENEGADE,
    on_state,
    param_int,
    param_on,
)
from .actions import D_NONE
from .table import n_living, pile_tokens, push_return


@declared(on_state(VOID, I64), _nrt=False)
def discard_one(s, t):
    """Return one arrow of seat t to the pile (a regular one first, else the Chief's Arrow; with
    rule.chief_arrow_discard = chief_first the Chief's Arrow first)."""
    if s.chief_holder == t and param_int(s, P.R_CHIEF_DISCARD) == 1:
        s.chief_holder = -1
    elif s.arrows[t] > 0:
        s.arrows[t] -= 1
        s.pile += 1
    elif s.chief_holder == t:
        s.chief_holder = -1


@declared(on_state(VOID, I64), _nrt=False)
def discard_all(s, t):
    s.pile += s.arrows[t]
    s.arrows[t] = 0
    if s.chief_holder == t:
        s.chief_holder = -1


@declared(on_state(BOOL, I64, BOOL), _nrt=False)
def take_token(s, taker, chief):
    """Seat takes one token from the pile (chief: the Chief's Arrow).  Returns 1 if the Indians attack now."""
    if chief:
        s.chief_holder = taker
        if s.chief_turn[taker] < 0:
            s.chief_turn[taker] = s.turn
    else:
        s.pile -= 1
        s.arrows[taker] += 1
    s.arrows_taken[taker] += 1
    log_event(s, EV_ARROW, taker, 1 if chief else 0, s.pile, s.chief_holder)
    return attack_due(s, 0)


@nb.njit(cache=True, _nrt=False, inline="always")
def attack_due(s, more):
    """The Indian attack fires once `more` further arrows leave the pile: when the last regular arrow goes
    (rule.chief_attack_trigger = last_regular) or the last token, the Chief's Arrow included (last_token)."""
    if param_int(s, P.R_CHIEF_LAST) == 1:
        return s.pile - more <= 0
    return pile_tokens(s) - more <= 0


@nb.njit(cache=True, _nrt=False)
def forced_take(s, taker):
    """An arrow the taker cannot choose (El Gringo's): regular if any, else the Chief's Arrow."""
    if s.pile > 0:
        return take_token(s, taker, False)
    return take_token(s, taker, True)


@nb.njit(cache=True, _nrt=False)
def clear_batch(s):
    for i in range(MAX_PLAYERS):
        s.bt_amt[i] = 0
    s.bt_no_gringo = 0


@nb.njit(cache=True, _nrt=False, inline="always")
def start_batch(s, src, shooter, ret):
    s.bt_src = src
    s.bt_shooter = shooter
    s.bt_i = 0
    push_return(s, ret)
    s.phase = PH_DMG_BART


@declared(on_state(VOID, I64), _nrt=False)
def start_indian(s, ret):
    """Indian attack: every living player loses life per arrow held (Chief's Arrow rules), all arrows return."""
    log_event(s, EV_INDIANS, s.active, s.pile, 0, 0)
    s.roll_attack = 1  # an attack since the last roll: that roll's arrows can no longer be handed back
    clear_batch(s)
    cv = param_int(s, P.CHIEF_VALUE)
    h = s.chief_holder
    unique = False
    if h >= 0:
        mine = s.arrows[h] + cv
        unique = True
        for t in range(s.n):
            if t != h and s.alive[t] == 1 and s.arrows[t] >= mine:
                unique = False
    for t in range(s.n):
        if s.alive[t] == 1:
            amt = s.arrows[t] + (cv if h == t else 0)
            if h == t and unique:
                amt = 0
            if s.char[t] == JOURDONNAIS and amt > param_int(s, P.JOUR_CAP):
                amt = param_int(s, P.JOUR_CAP)
            s.bt_amt[t] = amt
    for t in range(s.n):
        s.arrows[t] = 0
    s.pile = param_int(s, P.ARROWS)
    if s.chief_holder >= 0:
        s.chief_holder = -1
    start_batch(s, SRC_INDIANS, -1, ret)


@nb.njit(cache=True, _nrt=False, inline="always")
def start_heal(s, tgt, amt, src, healer, ret):
    s.h_tgt = tgt
    s.h_amt = amt
    s.h_src = src
    s.h_healer = healer
    push_return(s, ret)
    s.phase = PH_HEAL


@nb.njit(cache=True, _nrt=False, inline="always")
def start_reveal(s, seat, ret):
    s.rv_seat = seat
    s.rv_cancel = 0
    push_return(s, ret)
    s.phase = PH_REVEAL


@declared(on_state(VOID, I64, I64, I64), _nrt=False)
def finish(s, team, seat, reason):
    s.over = 1
    s.winner_team = team
    s.winner_seat = seat
    s.end_reason = reason
    s.phase = PH_OVER
    s.dkind = D_NONE
    s.decider = -1
    log_event(s, EV_WIN, team, seat, reason, 0)


@nb.njit(cache=True, _nrt=False)
def personal_killer(s, t):
    c = s.elim_cause[t]
    if c == SRC_SHOT or c == SRC_GATLING:
        return s.killer[t]
    if c == SRC_INDIANS and param_on(s, P.R_3P_INDIAN):
        return s.active
    return -1


@nb.njit(cache=True, _nrt=False)
def check_victory(s, newly):
    if s.three == 1:
        for t in range(s.n):
            if ((newly >> t) & 1) == 1 and s.lms == 0:
                for h in range(s.n):
                    if s.target3[h] == t and s.alive[h] == 1 and personal_killer(s, t) == h:
                        finish(s, WT_3P_DEPUTY + s.role[h] - DEPUTY, h, ER_PERSONAL_KILL)
                        return
        if newly != 0:
            s.lms = 1
        c = n_living(s)
        if c <= 1 and s.lms == 1:
            if c == 0:
                finish(s, WT_NONE, -1, ER_ALL_DEAD)
            else:
                for h in range(s.n):
                    if s.alive[h] == 1:
                        finish(s, WT_3P_DEPUTY + s.role[h] - DEPUTY, h, ER_LAST_STANDING)
        return
    if s.alive[s.sheriff] == 0:
        c = n_living(s)
        last = -1
        for i in range(s.n):
            if s.alive[i] == 1:
                last = i
        if c == 1 and s.role[last] == RENEGADE:
            finish(s, WT_RENEGADE, last, ER_SHERIFF_DEAD)
        else:
            finish(s, WT_OUTLAWS, -1, ER_SHERIFF_DEAD if c > 0 else ER_ALL_DEAD)
        return
    for i in range(s.n):
        if s.alive[i] == 1 and (s.role[i] == OUTLAW or s.role[i] == RENEGADE):
            return
    finish(s, WT_LAW, s.sheriff, ER_BANDITS_DEAD)


@nb.njit(cache=True, _nrt=False)
def eliminate_batch(s):
    """Eliminate every living seat at 0 life (order from the active player).  Returns the bitmask of them."""
    newly = 0
    n = s.n
    for k in range(n):
        t = (s.active + k) % n
        if s.alive[t] == 1 and s.life[t] <= 0:
            s.life[t] = 0
            s.alive[t] = 0
            s.role_known[t] = 1
            s.elim_cause[t] = s.bt_src
            s.killer[t] = s.bt_shooter
            s.elim_turn[t] = s.turn
            discard_all(s, t)
            if s.gt_holder == t:
                s.gt_holder = -1
            s.n_dead += 1
            newly |= 1 << t
            if t == s.active:
                s.active_died = 1
            log_event(s, EV_ELIM, t, s.role[t], s.bt_src, s.bt_shooter)
    if newly != 0 and s.ghost_done == 0:
        s.ghost_done = 1
        if param_on(s, P.M_GHOST) and n >= param_int(s, P.GHOST_MIN) and s.three == 0:
            for k in range(n):
                t = (s.active + k) % n
                if ((newly >> t) & 1) == 1 and t != s.sheriff:
                    s.ghost_seat = t
                    s.role_known[t] = 1
                    log_event(s, EV_GHOST, t, s.role[t], s.ghost_team, 0)
                    break
    return newly


@nb.njit(cache=True, _nrt=False)
def do_arrow(s, opt):
    a = s.active
    s.ar_owed -= 1
    taker = s.ar_taker
    if s.ar_elena >= 0:
        s.ar_elena = -1
    if opt == 2:
        log_event(s, EV_STEAL, a, s.chief_holder, 0, 0)
        s.chief_holder = a
        if s.chief_turn[a] < 0:
            s.chief_turn[a] = s.turn
        s.arrows_taken[a] += 1
        return
    if taker == a:
        if opt == 1:
            s.roll_chief = 1
        else:
            s.roll_took += 1
    if take_token(s, taker, opt == 1):
        start_indian(s, PH_ARROW_LOOP)
