"""The turn, phase by phase: run_auto (rules.py) calls step() until a decision with two or more options is
pending.  A phase function groups the consecutive phases of one part of the rulebook; sub-procedures (damage,
heal, reveal) are phases too, entered with push_return and left with pop_return, so a reaction by another seat
(Bart, Molly, the Left Hand, The Bad, The Judge) is an ordinary decision of that seat."""

import numba as nb
import numpy as np

from sim.events import log_event

from . import params as P
from .state import (
    APACHE,
    ARROW,
    BAD,
    BART,
    BE1,
    BE1X2,
    BE2,
    BE2X2,
    BEER,
    BEERX2,
    BILL,
    BROKEN,
    BULLET,
    DEPUTY,
    DIE_FACES,
    DOC,
    DOCH,
    DR_GAMBLER,
    DR_GATLING,
    DR_LEFT,
    DR_PEDRO,
    DT_BASE,
    DYN,
    ELENA,
    EV_BAD,
    EV_BULLET,
    EV_DAMAGE,
    EV_DISCARD,
    EV_DOC,
    EV_DYNAMITE,
    EV_EXTRA,
    EV_GAMBLE,
    EV_GATLING,
    EV_GOOD,
    EV_HEAL,
    EV_KEEP_FINAL,
    EV_LEFT,
    EV_PRESET,
    EV_REVEAL,
    EV_ROLL,
    EV_SHOT,
    EV_TURN,
    EV_TURN_END,
    EV_UGLY,
    GAMBLER,
    GAT,
    GATX2,
    GOOD,
    GRINGO,
    HS_DOCH,
    HS_SUZY,
    HS_VULTURE,
    JESSE,
    JUDGE,
    KIT,
    LEFT,
    LUCKY,
    MAX_DICE,
    MOLLY,
    PAUL,
    PEDRO,
    PH_AFTER_ROLL,
    PH_ARROWS,
    PH_ARROW_LOOP,
    PH_BEER,
    PH_BEER_SETUP,
    PH_BE_APPLY,
    PH_BE_ASSIGN,
    PH_BE_DONE,
    PH_BILL,
    PH_BROKEN,
    PH_BULLET,
    PH_DMG_APPLY,
    PH_DMG_BART,
    PH_DMG_ELIM,
    PH_DMG_GRINGO,
    PH_DMG_LEFT,
    PH_DMG_LEFT_APPLY,
    PH_DMG_MOLLY,
    PH_DMG_VULTURE,
    PH_DOC_APPLY,
    PH_DYNAMITE,
    PH_DYN_DONE,
    PH_END_ROLLING,
    PH_END_TURN,
    PH_GAMBLER_APPLY,
    PH_GATLING,
    PH_GATLING_FIRE,
    PH_GHOST_GIVE,
    PH_HEAL,
    PH_HEAL_APPLY,
    PH_HEAL_BAD_DONE,
    PH_KIT,
    PH_NEXT_TURN,
    PH_REROLL,
    PH_RESOLVE,
    PH_REVEAL,
    PH_RIGHT_APPLY,
    PH_ROLL,
    PH_SALOON,
    PH_SID,
    PH_SLAB,
    PH_START_REVEAL_APPLY,
    PH_START_SPECIAL,
    PH_SUZY,
    PH_TURN_BEGIN,
    RIGHT,
    SHERIFF,
    SID,
    SLAB,
    SRC_BULLET,
    SRC_DYNAMITE,
    SRC_GATLING,
    SRC_INDIANS,
    SRC_SHOT,
    SUZY,
    UGLY,
    VERA,
    VULTURE,
    WILLY,
    param_int,
    param_on,
)
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
    D_REROLL,
    D_RIGHT,
    D_SALOON,
    D_SID,
    D_SLAB,
    D_UGLY,
)
from .table import (
    all_dice,
    bart_max,
    be_mask,
    count_face,
    decide,
    find_char,
    find_special,
    holds_any,
    is_char,
    locked_mask,
    molly_max,
    pack_faces,
    pop_return,
    roll_die,
)
from .damage import (
    attack_due,
    check_victory,
    clear_batch,
    discard_all,
    discard_one,
    do_arrow,
    eliminate_batch,
    forced_take,
    start_batch,
    start_heal,
    start_indian,
)


@nb.njit(cache=True, _nrt=False)
def takes_turn(s, i):
    return s.alive[i] == 1 or i == s.ghost_seat


@nb.njit(cache=True, _nrt=False)
def begin_turn_vars(s):
    a = s.active
    s.turn += 1
    s.turns_taken[a] += 1
    s.roll_no = 0
    s.roll_took = 0
    s.roll_chief = 0
    s.roll_attack = 0
    s.stopped = 0
    s.gambled = 0
    s.ignore_arrows = 0
    s.active_died = 0
    s.preset = 0
    s.rolled = 0
    s.saloon = 0
    s.slab_tgt = -1
    s.n_be = 0
    s.be_i = 0
    s.n_beer = 0
    s.beer_i = 0
    s.gat = 0
    s.gat_units = 0
    s.fire = 0
    s.kit_left = 0
    s.gringo_owed = 0
    s.ar_owed = 0
    s.ar_elena = -1
    s.broken_owed = 0
    ghost = a == s.ghost_seat
    s.ghost_turn = 1 if ghost else 0
    if ghost:
        s.nd = param_int(s, P.GHOST_DICE)
        s.max_roll = 1 + param_int(s, P.GHOST_REROLLS)
    else:
        s.nd = param_int(s, P.BASE_DICE)
        s.max_roll = param_int(s, P.LUCKY_ROLLS) if s.char[a] == LUCKY else param_int(s, P.MAX_ROLLS)
    for i in range(MAX_DICE):
        s.die_type[i] = DT_BASE
        s.face[i] = -1
    log_event(s, EV_TURN, a, s.turn, s.rnd, 1 if ghost else 0)


@nb.njit(cache=True, _nrt=False)
def _turn_start(s, ph):
    """The start of a turn: The Good or The Ugly may reveal, Sid Ketchum heals."""
    a = s.active
    if ph == PH_TURN_BEGIN:
        begin_turn_vars(s)
        if a == s.ghost_seat:
            s.phase = PH_ROLL
        else:
            s.phase = PH_START_SPECIAL
    elif ph == PH_START_SPECIAL:
        special = s.special[a]
        if s.special_state[a] == 0 and special == GOOD and a != s.sheriff:
            decide(s, D_GOOD, a)
        elif s.special_state[a] == 0 and special == UGLY:
            decide(s, D_UGLY, a)
        s.phase = PH_SID
    elif ph == PH_START_REVEAL_APPLY:
        if s.rv_cancel == 0:
            if s.special[a] == GOOD:
                old = s.sheriff
                s.role[old] = DEPUTY
                s.role[a] = SHERIFF
                s.special[old], s.special[a] = s.special[a], s.special[old]
                s.special_state[old] = 1
                s.special_state[a] = 1
                s.max_life[old] = param_int(s, P.LIFE + s.char[old])
                s.sheriff = a
                s.role_known[old] = 1
                log_event(s, EV_GOOD, a, old, 0, 0)
            else:
                i = s.rv_target
                j = s.rv_target2
                s.arrows[i], s.arrows[j] = s.arrows[j], s.arrows[i]
                if s.chief_holder == i:
                    s.chief_holder = j
                elif s.chief_holder == j:
                    s.chief_holder = i
                log_event(s, EV_UGLY, a, i, j, 0)
        s.phase = PH_SID
    elif ph == PH_SID:
        s.phase = PH_SALOON
        if is_char(s, a, SID):
            decide(s, D_SID, a)


@nb.njit(cache=True, _nrt=False)
def _roll_dice(s, ph):
    """Choosing the Saloon dice, a roll (the Ghost token presets dice), The Doc after a roll."""
    a = s.active
    if ph == PH_SALOON:
        if s.gt_holder == a and s.gt_used == 0:
            s.gt_used = 1
            cnt = 2 if s.gt_x2 == 1 else 1
            for i in range(cnt):
                s.face[i] = s.gt_face
                s.preset |= 1 << i
            log_event(s, EV_PRESET, a, s.gt_face, cnt, 0)
        s.phase = PH_ROLL
        if param_on(s, P.M_SALOON):
            decide(s, D_SALOON, a)
    elif ph == PH_ROLL:
        s.roll_no += 1
        if s.roll_no == 1:
            mask = all_dice(s) & ~s.preset
        else:
            mask = s.reroll_mask
            s.preset &= ~mask  # a re-rolled Ghost-token die is an ordinary die now (Black Jack's Dynamite)
        for i in range(s.nd):
            if ((mask >> i) & 1) == 1:
                roll_die(s, i)
        s.rolled = mask | (s.preset if s.roll_no == 1 else 0)
        s.roll_took = 0
        s.roll_chief = 0
        s.roll_attack = 0
        log_event(s, EV_ROLL, a, s.roll_no, pack_faces(s), s.rolled)
        s.phase = PH_AFTER_ROLL
        ph = PH_AFTER_ROLL  # nothing can intervene: go on in the same step
    if ph == PH_AFTER_ROLL:
        s.phase = PH_ARROWS
        d = find_special(s, DOC, -1)
        if d >= 0:
            decide(s, D_DOC, d)
    elif ph == PH_DOC_APPLY:
        if s.rv_cancel == 0:
            s.face[s.doc_die] = DIE_FACES[s.die_type[s.doc_die], s.doc_k]
            s.rolled |= 1 << s.doc_die
            s.preset &= ~(1 << s.doc_die)  # no longer the Ghost token's face
            log_event(s, EV_DOC, s.rv_seat, s.doc_die, s.face[s.doc_die], a)
        s.phase = PH_ARROWS


@nb.njit(cache=True, _nrt=False)
def _roll_arrows_and_bullets(s, ph):
    """A roll's Arrows (one by one: Elena, the Chief's Arrow), Broken Arrows and Bullets."""
    a = s.active
    n = s.n
    if ph == PH_ARROWS:
        s.phase = PH_BROKEN
        s.broken_owed = 0 if s.ghost_turn == 1 else count_face(s, BROKEN, s.rolled)
        if not (s.ghost_turn == 1 or s.char[a] == BILL or s.ignore_arrows == 1):
            c = count_face(s, ARROW, s.rolled)
            if c > 0:
                s.ar_owed = c
                s.ar_elena = -1
                s.ar_next = PH_BROKEN
                s.phase = PH_ARROW_LOOP
                if is_char(s, a, ELENA):
                    decide(s, D_ELENA, a)
                return
        ph = PH_BROKEN  # no arrows taken, nobody died: go on in the same step
    if ph == PH_ARROW_LOOP:
        if s.ar_owed <= 0:
            s.phase = s.ar_next
            return
        taker = a
        if s.ar_elena >= 0:
            taker = s.ar_elena
            if s.alive[taker] == 0:
                taker = a
        s.ar_taker = taker
        if s.alive[taker] == 0:
            s.ar_owed -= 1
            return
        nopt = 0
        if s.pile > 0:
            nopt += 1
        if s.chief_holder == -1:
            nopt += 1
        if taker == a and is_char(s, a, APACHE) and s.chief_holder >= 0 and s.chief_holder != a:
            nopt += 1
        if nopt >= 2:
            decide(s, D_ARROW, a)
        else:
            do_arrow(s, 0 if s.pile > 0 else 1)
    elif ph == PH_BROKEN:
        if s.broken_owed > 0:
            any_h = False
            for t in range(n):
                if s.alive[t] == 1 and s.arrows[t] > 0:
                    any_h = True
            if any_h:
                decide(s, D_BROKEN, a)
                return
            s.broken_owed = 0
        s.phase = PH_BULLET
        ph = PH_BULLET
    if ph == PH_BULLET:
        s.phase = PH_DYNAMITE
        if s.ghost_turn == 1:
            return
        c = count_face(s, BULLET, s.rolled)
        if c > 0:
            log_event(s, EV_BULLET, a, c, 0, 0)
            clear_batch(s)
            s.bt_amt[a] = c
            start_batch(s, SRC_BULLET, -1, PH_DYNAMITE)


@nb.njit(cache=True, _nrt=False)
def _dynamite_and_rerolls(s, ph):
    """Dynamite, then the re-roll decision, then The Gambler after the last roll."""
    a = s.active
    if ph == PH_DYNAMITE:
        s.phase = PH_REROLL
        c = count_face(s, DYN, all_dice(s))
        if c >= param_int(s, P.DYN_LIMIT) and s.ghost_turn == 0 and s.alive[a] == 1:
            s.stopped = 1
            log_event(s, EV_DYNAMITE, a, c, 0, 0)
            clear_batch(s)
            s.bt_amt[a] = param_int(s, P.DYN_DAMAGE)
            start_batch(s, SRC_DYNAMITE, -1, PH_DYN_DONE)
    elif ph == PH_DYN_DONE:
        if not param_on(s, P.R_DYN_RESOLVE):
            s.phase = PH_END_TURN
        else:
            s.phase = PH_REROLL
    elif ph == PH_REROLL:
        s.rolled = 0
        if s.stopped == 1 or s.roll_no >= s.max_roll:
            s.phase = PH_END_ROLLING
            return
        rr = all_dice(s) & ~locked_mask(s)
        if rr == 0:
            s.phase = PH_END_ROLLING
            return
        decide(s, D_REROLL, a)
    elif ph == PH_END_ROLLING:
        s.phase = PH_BILL
        if s.gambled == 0 and s.active_died == 0:
            g = find_special(s, GAMBLER, a)
            if g >= 0:
                decide(s, D_GAMBLER, g)


@nb.njit(cache=True, _nrt=False)
def _last_roll(s, ph):
    """The Gambler's forced re-roll, Bill Noface's arrows, and the final dice counted (or the Ghost's token)."""
    a = s.active
    if ph == PH_GAMBLER_APPLY:
        s.gambled = 1
        if s.rv_cancel == 0:
            log_event(s, EV_GAMBLE, s.rv_seat, a, 0, 0)
            s.reroll_mask = all_dice(s)
            s.preset = 0
            s.stopped = 1
            if param_int(s, P.R_GAMBLER_IGNORED) == 1 and s.roll_attack == 0:
                # "Ignore all results of your last roll": the arrows he took from the pile with it go back
                k = min(np.int64(s.roll_took), np.int64(s.arrows[a]))
                back = k
                s.arrows[a] -= k
                s.pile += k
                if s.roll_chief == 1 and s.chief_holder == a:
                    s.chief_holder = -1
                    back += 1
                if back > 0:
                    log_event(s, EV_DISCARD, a, back, DR_GAMBLER, 0)
            if not param_on(s, P.R_GAMBLER_ARROWS):
                s.ignore_arrows = 1
            s.phase = PH_ROLL
        else:
            s.phase = PH_BILL
    elif ph == PH_BILL:
        s.phase = PH_RESOLVE
        if is_char(s, a, BILL):
            c = count_face(s, ARROW, all_dice(s))
            if c > 0 and s.ignore_arrows == 0:
                s.ar_owed = c
                s.ar_elena = -1
                s.ar_next = PH_RESOLVE
                s.phase = PH_ARROW_LOOP
    elif ph == PH_RESOLVE:
        log_event(s, EV_KEEP_FINAL, a, pack_faces(s), s.nd, 0)
        if s.ghost_turn == 1:
            s.phase = PH_GHOST_GIVE
            decide(s, D_GHOST, a)
            return
        units = 0
        beers = 0
        gat_points = 0
        gat_dice = 0
        for i in range(s.nd):
            f = s.face[i]
            if f == BE1 or f == BE2:
                s.be_kind[units] = 1 if f == BE1 else 2
                s.be_tgt[units] = -1
                s.be_half[units] = 0
                units += 1
            elif f == BE1X2 or f == BE2X2:
                for h in range(2):
                    s.be_kind[units] = 1 if f == BE1X2 else 2
                    s.be_tgt[units] = -1
                    s.be_half[units] = h  # 1: the second half of a double Bull's Eye (one die)
                    units += 1
            elif f == BEER:
                beers += 1
            elif f == BEERX2:
                beers += 2
            elif f == GAT:
                gat_points += 1
                gat_dice += 1
            elif f == GATX2:
                gat_points += 2
                gat_dice += 1
        s.n_be = units
        s.be_i = 0
        s.n_beer = beers
        s.gat = gat_points
        s.gat_units = gat_dice
        s.phase = PH_BE_ASSIGN
    elif ph == PH_GHOST_GIVE:
        s.phase = PH_END_TURN


@nb.njit(cache=True, _nrt=False)
def _bullseyes(s, ph):
    """Bull's Eyes aimed one by one, Slab's double, then the shots resolved together."""
    a = s.active
    n = s.n
    if ph == PH_BE_ASSIGN:
        if s.be_i >= s.n_be:
            s.phase = PH_SLAB
            return
        m = be_mask(s, a, s.be_kind[s.be_i])
        if m == 0 and not param_on(s, P.R_BE_WASTE):
            s.be_tgt[s.be_i] = -1
            s.be_i += 1
            return
        decide(s, D_BE, a)
    elif ph == PH_SLAB:
        s.phase = PH_BE_APPLY
        if is_char(s, a, SLAB) and s.n_beer > 0:
            for i in range(s.n_be):
                if s.be_tgt[i] >= 0:
                    decide(s, D_SLAB, a)
                    return
    elif ph == PH_BE_APPLY:
        s.phase = PH_BE_DONE
        clear_batch(s)
        any_hit = False
        slab_done = False
        vera_die = param_int(s, P.R_VERA) == 1
        carry = 0  # per-die reading: reduction left over from the first half of a double Bull's Eye
        for i in range(s.n_be):
            t = s.be_tgt[i]
            if t < 0:
                continue
            d = 1
            if t == s.slab_tgt and not slab_done:
                d = 2
                slab_done = True
            if s.char[t] == VERA and vera_die:
                # one reduction per die: a double Bull's Eye is one die that "counts as two", so both halves
                # on Vera lose her 2 - 1 = 1 (the second half gets only what the first did not use)
                r = carry if (s.be_half[i] == 1 and s.be_tgt[i - 1] == t) else param_int(s, P.VERA_RED)
                cut = min(d, r)
                d -= cut
                carry = r - cut
            s.bt_amt[t] += d
            any_hit = True
            log_event(s, EV_SHOT, a, t, s.be_kind[i], d)
        if not vera_die:
            for t in range(n):
                if s.char[t] == VERA and s.bt_amt[t] > 0:
                    s.bt_amt[t] = max(0, s.bt_amt[t] - param_int(s, P.VERA_RED))
        if any_hit:
            start_batch(s, SRC_SHOT, a, PH_BE_DONE)
    elif ph == PH_BE_DONE:
        s.phase = PH_BEER_SETUP
        used = 0  # "each time you use three or more": results that hit nobody do not count
        for i in range(s.n_be):
            if s.be_tgt[i] >= 0:
                used += 1
        if is_char(s, a, DOCH) and used >= param_int(s, P.DOC_SHOTS):
            start_heal(s, a, param_int(s, P.DOC_HEAL), HS_DOCH, a, PH_BEER_SETUP)


@nb.njit(cache=True, _nrt=False)
def _beers_and_gatling_count(s, ph):
    """Beers given one by one, the Gatling counted, Kit Carlson discards."""
    a = s.active
    n = s.n
    if ph == PH_BEER_SETUP:
        s.jesse_low = 1 if (is_char(s, a, JESSE) and s.life[a] <= param_int(s, P.JESSE_THR)) else 0
        s.beer_i = 0
        s.phase = PH_BEER
    elif ph == PH_BEER:
        if s.beer_i >= s.n_beer:
            s.phase = PH_GATLING
            return
        decide(s, D_BEER, a)
    elif ph == PH_GATLING:
        need = param_int(s, P.WILLY_NEED) if is_char(s, a, WILLY) else param_int(s, P.GATLING_NEED)
        s.fire = 1 if s.gat >= need else 0
        s.phase = PH_GATLING_FIRE
        if is_char(s, a, KIT) and s.gat > 0:
            if s.fire == 1 and holds_any(s, a):
                log_event(s, EV_DISCARD, a, s.arrows[a] + (1 if s.chief_holder == a else 0), DR_GATLING, 0)
                discard_all(s, a)
            s.kit_left = s.gat if param_on(s, P.R_KIT_DOUBLE) else s.gat_units
            s.phase = PH_KIT
    elif ph == PH_KIT:
        if s.kit_left > 0:
            for t in range(n):
                if s.alive[t] == 1 and holds_any(s, t):
                    decide(s, D_KIT, a)
                    return
        s.kit_left = 0
        s.phase = PH_GATLING_FIRE


@nb.njit(cache=True, _nrt=False)
def _gatling_and_turn_end(s, ph):
    """The Gatling fires, Suzy Lafayette heals, the Right Hand of the Devil, and the next seat."""
    a = s.active
    n = s.n
    if ph == PH_GATLING_FIRE:
        s.phase = PH_SUZY
        if s.fire == 1:
            log_event(s, EV_GATLING, a, s.gat, 0, 0)
            gringo_hit = False
            clear_batch(s)
            for t in range(n):
                if t != a and s.alive[t] == 1 and s.char[t] != PAUL:
                    s.bt_amt[t] = 1
                    if s.char[t] == GRINGO:
                        gringo_hit = True
            if holds_any(s, a):
                log_event(s, EV_DISCARD, a, s.arrows[a] + (1 if s.chief_holder == a else 0), DR_GATLING, 0)
                discard_all(s, a)
            if gringo_hit and not param_on(s, P.R_GRINGO_AFTER):
                s.bt_no_gringo = 1
            start_batch(s, SRC_GATLING, a, PH_SUZY)
    elif ph == PH_SUZY:
        s.phase = PH_END_TURN
        if is_char(s, a, SUZY):
            for i in range(s.nd):
                f = s.face[i]
                if f == BE1 or f == BE2 or f == BE1X2 or f == BE2X2:
                    return
            start_heal(s, a, param_int(s, P.SUZY_HEAL), HS_SUZY, a, PH_END_TURN)
    elif ph == PH_END_TURN:
        log_event(s, EV_TURN_END, a, 0, 0, 0)
        if s.gt_holder == a and s.gt_used == 1:
            s.gt_holder = -1
            s.gt_used = 0
        s.phase = PH_NEXT_TURN
        if s.alive[a] == 1 and s.special[a] == RIGHT and s.special_state[a] == 0:
            decide(s, D_RIGHT, a)
    elif ph == PH_RIGHT_APPLY:
        if s.rv_cancel == 0:
            log_event(s, EV_EXTRA, a, 0, 0, 0)
            s.phase = PH_TURN_BEGIN
        else:
            s.phase = PH_NEXT_TURN
    elif ph == PH_NEXT_TURN:
        cur = a
        for k in range(1, n + 1):
            cur = (a + k) % n
            if cur == s.first_seat:
                s.rnd += 1
            if takes_turn(s, cur):
                break
        s.active = cur
        s.phase = PH_TURN_BEGIN


@nb.njit(cache=True, _nrt=False)
def _damage_reactions(s, ph):
    """Damage batch: Bart Cassidy and Molly Stark react, then the life is lost."""
    a = s.active
    n = s.n
    if ph == PH_DMG_BART:
        s.phase = PH_DMG_MOLLY
        s.bt_i = 0
        b = find_char(s, BART)
        if b >= 0 and s.bt_amt[b] > 0 and bart_max(s, b) > 0:
            s.react_seat = b
            decide(s, D_BART, b)
    elif ph == PH_DMG_MOLLY:
        m = find_char(s, MOLLY)
        while s.bt_i < n:
            t = (a + s.bt_i) % n
            s.bt_i += 1
            if m >= 0 and t != m and s.bt_amt[t] > 0 and molly_max(s, m, t) > 0:
                s.react_seat = t
                decide(s, D_MOLLY, m)
                return
        s.phase = PH_DMG_APPLY
    elif ph == PH_DMG_APPLY:
        src = s.bt_src
        sh = s.bt_shooter
        for t in range(n):
            amt = s.bt_amt[t]
            if amt <= 0 or s.alive[t] == 0:
                continue
            lost = min(amt, s.life[t])
            s.life[t] -= lost
            s.dmg_taken[t] += lost
            log_event(s, EV_DAMAGE, t, lost, src, sh)
            if src == SRC_INDIANS:
                s.indian_dmg[t] += lost
            if sh >= 0 and sh != t and (src == SRC_SHOT or src == SRC_GATLING):
                s.dmg_dealt[sh] += lost
                s.hit_by[sh, t] += lost
                if t == s.sheriff:
                    s.dmg_to_sheriff[sh] += lost
                if s.char[t] == GRINGO and lost > 0 and s.bt_no_gringo == 0:
                    s.gringo_owed += 1
                    s.gringo_seat = sh
            if s.char[t] == PEDRO and lost > 0 and s.life[t] > 0:
                d = 0
                for _ in range(lost):
                    if holds_any(s, t):
                        discard_one(s, t)
                        d += 1
                if d > 0:
                    log_event(s, EV_DISCARD, t, d, DR_PEDRO, 0)
        s.bt_i = 0
        s.phase = PH_DMG_LEFT


@nb.njit(cache=True, _nrt=False)
def _damage_eliminations(s, ph):
    """Damage batch: the Left Hand of the Devil saves, eliminations and victory, Vulture Sam, El Gringo."""
    a = s.active
    n = s.n
    if ph == PH_DMG_LEFT:
        while s.bt_i < n:
            t = (a + s.bt_i) % n
            s.bt_i += 1
            if s.alive[t] == 1 and s.life[t] <= 0:
                for L in range(n):
                    if s.special[L] == LEFT and s.special_state[L] == 0 and s.alive[L] == 1:
                        s.react_seat = t
                        decide(s, D_LEFT, L)
                        return
        s.phase = PH_DMG_ELIM
    elif ph == PH_DMG_LEFT_APPLY:
        t = s.react_seat
        if s.rv_cancel == 0:
            s.life[t] = param_int(s, P.LEFT_LIFE)
            if holds_any(s, t) and param_int(s, P.R_LEFT_DISCARD) == 0:
                log_event(s, EV_DISCARD, t, s.arrows[t] + (1 if s.chief_holder == t else 0), DR_LEFT, 0)
                discard_all(s, t)
            log_event(s, EV_LEFT, s.rv_seat, t, 0, 0)
        s.phase = PH_DMG_LEFT
    elif ph == PH_DMG_ELIM:
        newly = eliminate_batch(s)
        s.bt_newly = newly
        if newly != 0:
            check_victory(s, newly)
            if s.over == 1:
                return
        s.phase = PH_DMG_GRINGO
        v = find_char(s, VULTURE)
        if v >= 0 and newly != 0:
            c = 0
            for t in range(n):
                if ((newly >> t) & 1) == 1 and t != v:
                    c += 1
            s.vult_left = c
            s.phase = PH_DMG_VULTURE
    elif ph == PH_DMG_VULTURE:
        v = find_char(s, VULTURE)
        if s.vult_left > 0 and v >= 0:
            s.vult_left -= 1
            start_heal(s, v, param_int(s, P.VULTURE_GAIN), HS_VULTURE, v, PH_DMG_VULTURE)
        else:
            s.phase = PH_DMG_GRINGO
    elif ph == PH_DMG_GRINGO:
        if s.gringo_owed > 0:
            s.gringo_owed -= 1
            g = s.gringo_seat
            if s.alive[g] == 1:
                if (not param_on(s, P.R_GRINGO_ATTACK)) and attack_due(s, 1):
                    return  # A5 off: no arrow that would fire the attack
                if forced_take(s, g):
                    start_indian(s, PH_DMG_GRINGO)
            return
        pop_return(s)


@nb.njit(cache=True, _nrt=False)
def _heal(s, ph):
    """A heal: The Bad may cancel it, then the life is gained."""
    if ph == PH_HEAL:
        t = s.h_tgt
        if s.alive[t] == 0 or s.h_amt <= 0 or s.life[t] >= s.max_life[t]:
            if s.alive[t] == 1:
                log_event(s, EV_HEAL, t, 0, s.h_healer, s.h_src)
            pop_return(s)
            return
        s.phase = PH_HEAL_APPLY
        b = find_special(s, BAD, t)
        if b >= 0:
            decide(s, D_BAD, b)
    elif ph == PH_HEAL_BAD_DONE:
        if s.rv_cancel == 0:
            log_event(s, EV_BAD, s.rv_seat, s.h_tgt, s.h_amt, 0)
            pop_return(s)
        else:
            s.phase = PH_HEAL_APPLY
    elif ph == PH_HEAL_APPLY:
        t = s.h_tgt
        gain = min(np.int64(s.h_amt), np.int64(s.max_life[t] - s.life[t]))
        if gain < 0:
            gain = 0
        s.life[t] += gain
        h = s.h_healer
        log_event(s, EV_HEAL, t, gain, h, s.h_src)
        if h >= 0 and h != t:
            s.healed_by[h, t] += gain
            if t == s.sheriff:
                s.heal_to_sheriff[h] += gain
        pop_return(s)


@nb.njit(cache=True, _nrt=False)
def _reveal(s, ph):
    """A special role revealed: The Judge may cancel its effect."""
    if ph == PH_REVEAL:
        r = s.rv_seat
        s.special_state[r] = 1
        s.role_known[r] = 1
        log_event(s, EV_REVEAL, r, s.special[r], s.rv_target, 0)
        j = find_special(s, JUDGE, r)
        if j >= 0:
            decide(s, D_JUDGE, j)
            return
        pop_return(s)


@nb.njit(cache=True, _nrt=False, inline="always")
def step(s):
    ph = s.phase
    if ph < PH_END_TURN and ph != PH_TURN_BEGIN and s.active_died == 1:
        if param_on(s, P.R_DEAD_ENDS):
            s.phase = PH_END_TURN
            return
        s.stopped = 1
    if ph <= PH_SID:
        _turn_start(s, ph)
    elif ph <= PH_DOC_APPLY:
        _roll_dice(s, ph)
    elif ph <= PH_BULLET:
        _roll_arrows_and_bullets(s, ph)
    elif ph <= PH_END_ROLLING:
        _dynamite_and_rerolls(s, ph)
    elif ph <= PH_GHOST_GIVE:
        _last_roll(s, ph)
    elif ph <= PH_BE_DONE:
        _bullseyes(s, ph)
    elif ph <= PH_KIT:
        _beers_and_gatling_count(s, ph)
    elif ph <= PH_NEXT_TURN:
        _gatling_and_turn_end(s, ph)
    elif ph <= PH_DMG_APPLY:
        _damage_reactions(s, ph)
    elif ph <= PH_DMG_GRINGO:
        _damage_eliminations(s, ph)
    elif ph <= PH_HEAL_APPLY:
        _heal(s, ph)
    elif ph <= PH_REVEAL:
        _reveal(s, ph)
