"""BANG!'s actions and the legal-action list.

Who decides is current_player(s) (= s.decider); the pending decision is s.dkind.  An action is `(kind << 8) | arg`:

  D_GOOD      (1)  The Good, start of own turn: 0 keep hidden, 1 reveal and swap role cards with the Sheriff.
  D_UGLY      (2)  The Ugly, start of own turn: 0 keep hidden, 1 + i*8 + j (i < j): swap the arrows of seats i, j.
  D_SID       (3)  Sid Ketchum, start of turn: arg = seat that gains 1 life (self allowed).
  D_SALOON    (4)  Module 1, before rolling: 0 base dice only, 1 Loudmouth replaces a base die, 2 Coward replaces
                   one, 3 Loudmouth as a 6th die (Jose Delgado), 4 Coward as a 6th die (Tequila Joe).
  D_DOC       (5)  The Doc, after any roll (own or other's): 0 no, 1 + die*8 + k: turn die to face k of its die
                   type (DIE_FACES[s.die_type[die], k]).
  D_ELENA     (6)  Elena Fuente, on a roll with Arrows: 0 keep, 1 + seat: that seat takes one of those arrows.
  D_ARROW     (7)  Roller, per arrow taken (module 2): 0 regular arrow, 1 the Chief's Arrow from the pile,
                   2 (Apache Kid) take the Chief's Arrow from its holder instead.  s.ar_taker takes it.
  D_BROKEN    (8)  Roller, per Broken Arrow: arg = seat whose regular arrow returns to the pile.
  D_REROLL    (9)  Roller: arg = bitmask of dice to re-roll (0 = stop and accept).  Only unlocked dice.
  D_GAMBLER  (10)  The Gambler, after another player's last roll: 0 no, 1 force a full re-roll.
  D_BE       (11)  Roller, per Bull's Eye unit s.be_i (kind s.be_kind[i], 1 or 2): arg = target seat
                   (8 = wasted, only with rule.bullseye_can_be_wasted).  Units are assigned first, then all
                   resolve together as one damage event.
  D_SLAB     (12)  Slab the Killer: 0 no, 1 + seat: spend a Beer to make one Bull's Eye on that seat deal 2.
  D_BEER     (13)  Roller, per Beer unit: arg = seat that gains 1 life (Jesse Jones on himself: 2 when low).
  D_KIT      (14)  Kit Carlson, per Gatling result: 0 stop discarding, 1 + seat: one arrow of seat returns.
  D_BART     (15)  Bart Cassidy, hit by Bull's Eyes/Gatling: arg = number of hits taken as arrows instead.
  D_MOLLY    (16)  Molly Stark, another seat s.bt_i-th in the batch must lose life: arg = life she loses instead.
                   The seat concerned is s.react_seat; the pending amounts are s.bt_amt.
  D_LEFT     (17)  Left Hand of the Devil, s.react_seat is about to be eliminated: 0 no, 1 save him (2 life).
  D_BAD      (18)  The Bad, s.h_tgt is about to gain s.h_amt life: 0 no, 1 cancel the gain.
  D_JUDGE    (19)  The Judge, s.rv_seat just revealed s.special[rv_seat]: 0 no, 1 cancel its effect.
  D_RIGHT    (20)  Right Hand of the Devil, end of own turn: 0 no, 1 take another turn at once.
  D_GHOST    (21)  The Ghost, after its last roll: arg = face*8 + seat: give that face token (x2 added when
                   both Ghost dice match) to a living seat.

STATE FIELDS a strategy may read (public information unless marked HIDDEN):
  n, active, turn, rnd (round), life[], max_life[], alive[], ghost_seat, arrows[] (regular), chief_holder
  (-2 module off, -1 in pile, else seat), pile, char[], sheriff (seat of the current Sheriff),
  role[] HIDDEN except where role_known[i] = 1 (the Sheriff, 3-player game, dead players, revealed specials),
  special[] HIDDEN except where special_state[i] != 0, special_state[] (0 hidden, 1 revealed/used, 2 cancelled),

The list is built once per decision by run_auto (into s.leg) and copied by legal_actions while its key (step
counter, decision, decider, phase) still matches; a hand-built state regenerates it.
"""
import numba as nb
import numpy as np


from . import params as P
from .state import MAX_ACTIONS  # noqa: F401 (re-exported: the legal list's length)
from .state import (APACHE, DIE_FACES, D_ARROW, D_BAD, D_BART, D_BE, D_BEER, D_BROKEN, D_DOC, D_ELENA, D_GAMBLER,
                    D_GHOST, D_GOOD, D_JUDGE, D_KIT, D_LEFT, D_MOLLY, D_NONE, D_REROLL, D_RIGHT, D_SALOON, D_SID,
                    D_SLAB, D_UGLY, JOSE, TEQUILA, param_on, sync_params)
from .table import (all_dice, bart_max, be_mask, holds_any, is_char, locked_mask, molly_max)


@nb.njit(cache=True, _nrt=False, inline="always")
def act(kind, arg):
    return (kind << 8) | arg


@nb.njit(cache=True, _nrt=False, inline="always")
def act_kind(a):
    return a >> 8


@nb.njit(cache=True, _nrt=False, inline="always")
def act_arg(a):
    return a & 255


@nb.njit(cache=True, _nrt=False)
def gen_legal(s, out):
    k = s.dkind
    a = s.active
    n = s.n
    c = 0
    if k == D_GOOD or k == D_GAMBLER or k == D_LEFT or k == D_BAD or k == D_JUDGE or k == D_RIGHT:
        out[0] = act(k, 0)
        out[1] = act(k, 1)
        return 2
    if k == D_UGLY:
        out[c] = act(k, 0)
        c += 1
        for i in range(n):
            for j in range(i + 1, n):
                if s.alive[i] == 1 and s.alive[j] == 1:
                    out[c] = act(k, 1 + i * 8 + j)
                    c += 1
        return c
    if k == D_SID or k == D_BEER:
        for t in range(n):
            if s.alive[t] == 1:
                out[c] = act(k, t)
                c += 1
        return c
    if k == D_SALOON:
        out[0] = act(k, 0)
        out[1] = act(k, 1)
        out[2] = act(k, 2)
        c = 3
        if s.char[a] == JOSE:
            out[c] = act(k, 3)
            c += 1
        if s.char[a] == TEQUILA:
            out[c] = act(k, 4)
            c += 1
        return c
    if k == D_DOC:
        out[c] = act(k, 0)
        c += 1
        for d in range(s.nd):
            for f in range(6):
                if DIE_FACES[s.die_type[d], f] != s.face[d]:
                    out[c] = act(k, 1 + d * 8 + f)
                    c += 1
        return c
    if k == D_ELENA:
        out[c] = act(k, 0)
        c += 1
        for t in range(n):
            if t != a and s.alive[t] == 1:
                out[c] = act(k, 1 + t)
                c += 1
        return c
    if k == D_ARROW:
        if s.pile > 0:
            out[c] = act(k, 0)
            c += 1
        if s.chief_holder == -1:
            out[c] = act(k, 1)
            c += 1
        if s.ar_taker == a and is_char(s, a, APACHE) and s.chief_holder >= 0 and s.chief_holder != a:
            out[c] = act(k, 2)
            c += 1
        return c
    if k == D_BROKEN:
        for t in range(n):
            if s.alive[t] == 1 and s.arrows[t] > 0:
                out[c] = act(k, t)
                c += 1
        return c
    if k == D_REROLL:
        rr = all_dice(s) & ~locked_mask(s)
        sub = rr
        while True:
            out[c] = act(k, sub)
            c += 1
            if sub == 0:
                break
            sub = (sub - 1) & rr
        return c
    if k == D_BE:
        m = be_mask(s, a, s.be_kind[s.be_i])
        for t in range(n):
            if ((m >> t) & 1) == 1:
                out[c] = act(k, t)
                c += 1
        if param_on(s, P.R_BE_WASTE) or c == 0:
            out[c] = act(k, 8)
            c += 1
        return c
    if k == D_SLAB:
        out[c] = act(k, 0)
        c += 1
        seen = 0
        for i in range(s.n_be):
            t = s.be_tgt[i]
            if t >= 0 and ((seen >> t) & 1) == 0:
                seen |= 1 << t
                out[c] = act(k, 1 + t)
                c += 1
        return c
    if k == D_KIT:
        out[c] = act(k, 0)
        c += 1
        for t in range(n):
            if s.alive[t] == 1 and holds_any(s, t):
                out[c] = act(k, 1 + t)
                c += 1
        return c
    if k == D_BART:
        mx = bart_max(s, s.react_seat)
        for i in range(mx + 1):
            out[c] = act(k, i)
            c += 1
        return c
    if k == D_MOLLY:
        mx = molly_max(s, s.decider, s.react_seat)
        for i in range(mx + 1):
            out[c] = act(k, i)
            c += 1
        return c
    if k == D_GHOST:
        seenf = 0
        for d in range(s.nd):
            f = s.face[d]
            if ((seenf >> f) & 1) == 1:
                continue
            seenf |= 1 << f
            for t in range(n):
                if t != a and s.alive[t] == 1:
                    out[c] = act(k, f * 8 + t)
                    c += 1
        return c
    return 0


@nb.njit(cache=True, _nrt=False, inline="always")
def leg_key(s):
    return (((np.int64(s.n_step) * 64 + s.dkind) * 64 + s.decider + 1) * 256) + s.phase


@nb.njit(cache=True, _nrt=False)
def legal_actions(s, p, out):
    if s.over == 1:
        return 0
    if s.n_leg > 0 and s.dkind != D_NONE and s.leg_key == leg_key(s):
        for i in range(s.n_leg):
            out[i] = s.leg[i]
        return s.n_leg
    sync_params(s, p)  # a hand-built state: regenerate (into s.leg, as run_auto does: one compiled gen_legal)
    s.n_leg = 0  # s.leg no longer holds the list of the stored key
    n = gen_legal(s, s.leg)
    for i in range(n):
        out[i] = s.leg[i]
    return n
