"""The protocol the core calls (current_player, apply_action, is_over; setup is in deal.py), what a decision does
(apply_choice) and the loop that runs the automatic phases until the next decision (run_auto).

Decisions with a single legal option are applied automatically.  The parameters are copied into s.pf at every
entry point so that no internal function takes the array p (numba increfs and decrefs it on every call)."""

import numba as nb
import numpy as np

from sim.events import log_event
from sim.kernel import LEGAL_TYPE

from . import params as P
from .state import (
    DR_KIT,
    DT_COWARD,
    DT_LOUD,
    EV_BART,
    EV_BROKEN,
    EV_DISCARD,
    EV_ELENA,
    EV_GHOST_GIVE,
    EV_JUDGE,
    EV_MOLLY,
    EV_REROLL,
    EV_SALOON,
    EV_SLAB,
    HS_BEER,
    HS_SID,
    JESSE,
    PH_BEER,
    PH_DMG_LEFT_APPLY,
    PH_DOC_APPLY,
    PH_END_ROLLING,
    PH_GAMBLER_APPLY,
    PH_HEAL_BAD_DONE,
    PH_RIGHT_APPLY,
    PH_ROLL,
    PH_SALOON,
    PH_START_REVEAL_APPLY,
    param_int,
    param_on,
    sync_params,
)
from .table import pop_return
from .damage import discard_one, do_arrow, start_heal, start_reveal, take_token
from .actions import (
    D_ARROW,
    D_BAD,
    D_BART,
    D_BE,
    D_BEER,
    D_BROKEN,
    D_DOC,
    D_ELENA,
    D_GAMBLER,
    D_GHOST,
    D_GOOD,
    D_JUDGE,
    D_KIT,
    D_LEFT,
    D_MOLLY,
    D_NONE,
    D_REROLL,
    D_RIGHT,
    D_SALOON,
    D_SID,
    D_SLAB,
    D_UGLY,
    SALOON_COWARD,
    SALOON_COWARD_EXTRA,
    SALOON_LOUD,
    SALOON_LOUD_EXTRA,
    WASTED,
    count_of,
    dice_of,
    die_of,
    face_of,
    gen_legal,
    kind_of,
    leg_key,
    reveal_of,
    saloon_of,
    seat2_of,
    seat_of,
    side_of,
    token_of,
    use_of,
)
from .phases import step


@nb.njit(cache=True, _nrt=False)
def apply_choice(s, action):  # one branch per decision kind (21): long by nature, each branch short
    """What the chosen action does (one branch per decision kind); run_auto then goes on to the next decision."""
    k = kind_of(action)
    a = s.active
    s.n_leg = 0
    s.dkind = D_NONE
    dec = s.decider
    s.decider = -1
    if k == D_GOOD:
        if reveal_of(action) == 1:
            s.rv_target = s.sheriff
            start_reveal(s, a, PH_START_REVEAL_APPLY)
    elif k == D_UGLY:
        if reveal_of(action) == 1:
            s.rv_target = seat_of(action)
            s.rv_target2 = seat2_of(action)
            start_reveal(s, a, PH_START_REVEAL_APPLY)
    elif k == D_SID:
        start_heal(s, seat_of(action), param_int(s, P.SID_HEAL), HS_SID, a, PH_SALOON)
    elif k == D_SALOON:
        x = saloon_of(action)
        s.saloon = x
        log_event(s, EV_SALOON, a, x, 0, 0)
        if x == SALOON_LOUD or x == SALOON_COWARD:
            s.die_type[s.nd - 1] = DT_LOUD if x == SALOON_LOUD else DT_COWARD
        elif x == SALOON_LOUD_EXTRA or x == SALOON_COWARD_EXTRA:
            s.die_type[s.nd] = DT_LOUD if x == SALOON_LOUD_EXTRA else DT_COWARD
            s.nd += 1
    elif k == D_DOC:
        if reveal_of(action) == 1:
            s.doc_die = die_of(action)
            s.doc_k = side_of(action)
            s.rv_target = a
            start_reveal(s, dec, PH_DOC_APPLY)
    elif k == D_ELENA:
        if use_of(action) == 1:
            s.ar_elena = seat_of(action)
            log_event(s, EV_ELENA, a, s.ar_elena, 0, 0)
    elif k == D_ARROW:
        do_arrow(s, token_of(action))
    elif k == D_BROKEN:
        t = seat_of(action)
        s.broken_owed -= 1
        s.arrows[t] -= 1
        s.pile += 1
        log_event(s, EV_BROKEN, a, t, 0, 0)
    elif k == D_REROLL:
        x = dice_of(action)
        log_event(s, EV_REROLL, a, x, s.roll_no, 0)
        if x == 0:
            s.stopped = 1
            s.phase = PH_END_ROLLING
        else:
            s.reroll_mask = x
            s.phase = PH_ROLL
    elif k == D_GAMBLER:
        if reveal_of(action) == 1:
            s.rv_target = a
            start_reveal(s, dec, PH_GAMBLER_APPLY)
    elif k == D_BE:
        t = seat_of(action)
        s.be_tgt[s.be_i] = t if t != WASTED else -1
        s.be_i += 1
    elif k == D_SLAB:
        if use_of(action) == 1:
            s.slab_tgt = seat_of(action)
            s.n_beer -= 1
            log_event(s, EV_SLAB, a, s.slab_tgt, 0, 0)
    elif k == D_BEER:
        t = seat_of(action)
        s.beer_i += 1
        amt = 1
        if t == a and s.char[a] == JESSE:
            low = s.jesse_low == 1 if param_on(s, P.R_JESSE_ONCE) else s.life[a] <= param_int(s, P.JESSE_THR)
            if low:
                amt = param_int(s, P.JESSE_HEAL)
        start_heal(s, t, amt, HS_BEER, a, PH_BEER)
    elif k == D_KIT:
        if use_of(action) == 0:
            s.kit_left = 0
        else:
            t = seat_of(action)
            s.kit_left -= 1
            discard_one(s, t)
            log_event(s, EV_DISCARD, t, 1, DR_KIT, a)
    elif k == D_BART:
        b = s.react_seat
        x = count_of(action)
        if x > 0:
            s.bt_amt[b] -= x
            for _ in range(x):
                take_token(s, b, False)
            log_event(s, EV_BART, b, x, 0, 0)
    elif k == D_MOLLY:
        x = count_of(action)
        if x > 0:
            t = s.react_seat
            s.bt_amt[t] -= x
            s.bt_amt[dec] += x
            log_event(s, EV_MOLLY, dec, t, x, 0)
    elif k == D_LEFT:
        if reveal_of(action) == 1:
            s.rv_target = s.react_seat
            start_reveal(s, dec, PH_DMG_LEFT_APPLY)
    elif k == D_BAD:
        if reveal_of(action) == 1:
            s.rv_target = s.h_tgt
            start_reveal(s, dec, PH_HEAL_BAD_DONE)
    elif k == D_JUDGE:
        if reveal_of(action) == 1:
            s.special_state[dec] = 1
            s.role_known[dec] = 1
            s.special_state[s.rv_seat] = 2
            s.rv_cancel = 1
            log_event(s, EV_JUDGE, dec, s.rv_seat, s.special[s.rv_seat], 0)
        pop_return(s)
    elif k == D_RIGHT:
        if reveal_of(action) == 1:
            s.rv_target = -1
            start_reveal(s, a, PH_RIGHT_APPLY)
    elif k == D_GHOST:
        f = face_of(action)
        t = seat_of(action)
        s.gt_face = f
        s.gt_x2 = 1 if (s.nd >= 2 and s.face[0] == s.face[1]) else 0
        s.gt_holder = t
        s.gt_used = 0
        log_event(s, EV_GHOST_GIVE, a, t, f, s.gt_x2)


MAX_AUTO_STEPS = 100_000  # a safety stop: a game runs about 850 automatic steps in all


@nb.njit(cache=True, _nrt=False)
def run_auto(s):
    """Run the automatic phases until a decision with two or more legal actions is pending (applying one-option
    decisions on the way) or the game is over."""
    guard = 0
    while s.over == 0 and guard < MAX_AUTO_STEPS:
        guard += 1
        if s.dkind != D_NONE:
            nl = gen_legal(s, s.leg)
            if nl >= 2:
                s.n_leg = nl
                s.leg_key = leg_key(s)
                return
            if nl == 1:
                apply_choice(s, np.int64(s.leg[0]))
            else:
                s.dkind = D_NONE  # nothing to decide (should not happen)
            continue
        s.n_step += 1
        step(s)


# The first compile on two processes (sim.kernel.compile_ahead): run_auto holds most of the engine's compile time,
# so the child, which has less to do, compiles its last steps (the ones this process would reach last, then loads),
# and the legal actions are compiled here, where run_auto needs gen_legal too, instead of in both processes.
CHILD_PHASES = ("_reveal", "_heal", "_damage_eliminations", "_damage_reactions", "_gatling_and_turn_end")


def COMPILE_IN_CHILD(state, params):
    return {name: (state, state.typeof("phase")) for name in CHILD_PHASES}


def COMPILE_IN_PARENT(state, params):
    return {"legal_actions": (state, params, LEGAL_TYPE)}


@nb.njit(cache=True, _nrt=False)
def current_player(s):
    return s.decider


@nb.njit(cache=True, _nrt=False)
def advance(s, p):
    sync_params(s, p)
    run_auto(s)


@nb.njit(cache=True, _nrt=False)
def apply_action(s, p, a):
    sync_params(s, p)
    apply_choice(s, a)
    run_auto(s)


@nb.njit(cache=True, _nrt=False)
def is_over(s):
    return s.over == 1
