"""BANG!'s actions and the legal-action list.

Who decides is current_player(s) (= s.decider); the pending decision is s.dkind, which is also the kind of every
action legal now.  Every action is declared once in CODEC (sim.toolkit.ActionCodec): its kind and named fields,
packed into one int64; the engine, the strategies, text.py and the tests encode and decode only through it.

  GOOD          The Good, start of own turn: reveal 0 keeps it hidden, 1 reveals and swaps roles with the Sheriff.
  UGLY          The Ugly, start of own turn: reveal 1 swaps the arrows of seats `seat` < `seat2`.
  SID           Sid Ketchum, start of turn: `seat` gains 1 life (himself allowed).
  SALOON        Module 1, before rolling: `saloon` is one of SALOON_BASE .. SALOON_COWARD_EXTRA below.
  DOC           The Doc, after any roll (own or another's): reveal 1 turns die `die` to the face on `side`
                (DIE_FACES[die type, side]).
  ELENA         Elena Fuente, on a roll with Arrows: use 1 makes `seat` take one of those arrows.
  ARROW         The roller, per arrow taken (module 2): `token` is ARROW_REGULAR, ARROW_CHIEF (the Chief's Arrow
                from the pile) or ARROW_STEAL_CHIEF (Apache Kid takes it from its holder); s.ar_taker takes it.
  BROKEN_ARROW  The roller, per Broken Arrow: one regular arrow of `seat` returns to the pile.
  REROLL        The roller: `dice` is the bitmask of the unlocked dice to re-roll (0 = stop and accept).
  GAMBLER       The Gambler, after another player's last roll: reveal 1 forces a full re-roll.
  BULLSEYE      The roller, per Bull's Eye unit s.be_i (kind s.be_kind[i], 1 or 2): `seat` is the target
                (WASTED, only with rule.bullseye_can_be_wasted).  Units are aimed first, then resolve together.
  SLAB          Slab the Killer: use 1 spends a Beer to make one Bull's Eye on `seat` deal 2.
  BEER          The roller, per Beer: `seat` gains 1 life (Jesse Jones on himself: 2 when low).
  KIT           Kit Carlson, per Gatling result: use 0 stops discarding, 1 returns one arrow of `seat`.
  BART          Bart Cassidy, hit by Bull's Eyes or the Gatling: `count` hits taken as arrows instead.
  MOLLY         Molly Stark, when another seat (s.react_seat) must lose life: she loses `count` of it instead.
  LEFT_HAND     Left Hand of the Devil, s.react_seat is about to be eliminated: reveal 1 keeps him in with 2 life.
  BAD           The Bad, s.h_tgt is about to gain s.h_amt life: reveal 1 cancels the gain.
  JUDGE         The Judge, s.rv_seat just revealed s.special[rv_seat]: reveal 1 cancels its effect.
  RIGHT_HAND    Right Hand of the Devil, end of own turn: reveal 1 takes another turn at once.
  GHOST_GIVE    The Ghost, after its last roll: gives the token of face `face` (x2 when both Ghost dice match) to
                the living `seat`.

The list is built once per decision by run_auto (into s.leg) and copied by legal_actions while its key (step
counter, decision, decider, phase) still matches; a hand-built state regenerates it.
"""

import numba as nb
import numpy as np

from sim.toolkit import ActionCodec, push

from . import params as P
from .state import (
    APACHE,
    DIE_FACES,
    JOSE,
    MAX_PLAYERS,
    TEQUILA,
    param_on,
    sync_params,
)
from .state import MAX_ACTIONS  # noqa: F401 (re-exported: the length of the legal list)
from .table import all_dice, bart_max, be_mask, holds_any, is_char, locked_mask, molly_max

CODEC = ActionCodec(
    kinds={
        "NONE": (),
        "GOOD": ("reveal",),
        "UGLY": ("reveal", "seat", "seat2"),
        "SID": ("seat",),
        "SALOON": ("saloon",),
        "DOC": ("reveal", "die", "side"),
        "ELENA": ("use", "seat"),
        "ARROW": ("token",),
        "BROKEN_ARROW": ("seat",),
        "REROLL": ("dice",),
        "GAMBLER": ("reveal",),
        "BULLSEYE": ("seat",),
        "SLAB": ("use", "seat"),
        "BEER": ("seat",),
        "KIT": ("use", "seat"),
        "BART": ("count",),
        "MOLLY": ("count",),
        "LEFT_HAND": ("reveal",),
        "BAD": ("reveal",),
        "JUDGE": ("reveal",),
        "RIGHT_HAND": ("reveal",),
        "GHOST_GIVE": ("face", "seat"),
    },
    # widths: seat holds 0..7 and WASTED; count up to the largest arrow pile or life a parameter allows (30)
    fields={
        "reveal": 1,
        "use": 1,
        "seat": 4,
        "seat2": 3,
        "saloon": 3,
        "die": 3,
        "side": 3,
        "token": 2,
        "dice": 6,
        "count": 6,
        "face": 4,
    },
)
# The decision kinds (s.dkind) are the action kinds; D_NONE: no decision pending.
(
    D_NONE,
    D_GOOD,
    D_UGLY,
    D_SID,
    D_SALOON,
    D_DOC,
    D_ELENA,
    D_ARROW,
    D_BROKEN,
    D_REROLL,
    D_GAMBLER,
    D_BE,
    D_SLAB,
    D_BEER,
    D_KIT,
    D_BART,
    D_MOLLY,
    D_LEFT,
    D_BAD,
    D_JUDGE,
    D_RIGHT,
    D_GHOST,
) = range(len(CODEC.kind_names))
DECISION_NAMES = tuple(k.lower() for k in CODEC.kind_names)
assert CODEC.kind_names[D_GHOST] == "GHOST_GIVE" and CODEC.kind_names[D_BE] == "BULLSEYE"

WASTED = MAX_PLAYERS  # BULLSEYE seat: the shot is wasted
# SALOON choices: base dice only, the Loudmouth or the Coward replacing a base die, or as a 6th die (Jose Delgado,
# Tequila Joe)
SALOON_BASE, SALOON_LOUD, SALOON_COWARD, SALOON_LOUD_EXTRA, SALOON_COWARD_EXTRA = range(5)
ARROW_REGULAR, ARROW_CHIEF, ARROW_STEAL_CHIEF = range(3)  # ARROW tokens

kind_of = CODEC.kind_getter()
reveal_of, use_of, seat_of, seat2_of, saloon_of, die_of, side_of, token_of, dice_of, count_of, face_of = CODEC.getters(
    "reveal", "use", "seat", "seat2", "saloon", "die", "side", "token", "dice", "count", "face"
)
encode_good, encode_ugly, encode_sid, encode_saloon, encode_doc, encode_elena, encode_arrow = (
    CODEC.encoder(k) for k in ("GOOD", "UGLY", "SID", "SALOON", "DOC", "ELENA", "ARROW")
)
encode_broken, encode_reroll, encode_gambler, encode_be, encode_slab, encode_beer, encode_kit = (
    CODEC.encoder(k) for k in ("BROKEN_ARROW", "REROLL", "GAMBLER", "BULLSEYE", "SLAB", "BEER", "KIT")
)
encode_bart, encode_molly, encode_left, encode_bad, encode_judge, encode_right, encode_ghost = (
    CODEC.encoder(k) for k in ("BART", "MOLLY", "LEFT_HAND", "BAD", "JUDGE", "RIGHT_HAND", "GHOST_GIVE")
)


@nb.njit(cache=True, _nrt=False, inline="always")
def _pass_or_reveal(out, keep, reveal):
    """The list of a special role's yes/no decision: keep it hidden, or reveal it."""
    return push(out, push(out, 0, keep), reveal)


@nb.njit(cache=True, _nrt=False)
def gen_legal(s, out):
    """Fill out with the legal actions of the pending decision (s.dkind) and return how many.  Every action goes
    through push, which never writes past the list: a longer list is an error the kernel reports."""
    k = s.dkind
    a = s.active
    n = s.n
    c = 0
    if k == D_GOOD:
        return _pass_or_reveal(out, encode_good(0), encode_good(1))
    if k == D_GAMBLER:
        return _pass_or_reveal(out, encode_gambler(0), encode_gambler(1))
    if k == D_LEFT:
        return _pass_or_reveal(out, encode_left(0), encode_left(1))
    if k == D_BAD:
        return _pass_or_reveal(out, encode_bad(0), encode_bad(1))
    if k == D_JUDGE:
        return _pass_or_reveal(out, encode_judge(0), encode_judge(1))
    if k == D_RIGHT:
        return _pass_or_reveal(out, encode_right(0), encode_right(1))
    if k == D_UGLY:
        c = push(out, c, encode_ugly(0, 0, 0))
        for i in range(n):
            for j in range(i + 1, n):
                if s.alive[i] == 1 and s.alive[j] == 1:
                    c = push(out, c, encode_ugly(1, i, j))
        return c
    if k == D_SID or k == D_BEER:
        for t in range(n):
            if s.alive[t] == 1:
                c = push(out, c, encode_sid(t) if k == D_SID else encode_beer(t))
        return c
    if k == D_SALOON:
        for choice in (SALOON_BASE, SALOON_LOUD, SALOON_COWARD):
            c = push(out, c, encode_saloon(choice))
        if s.char[a] == JOSE:
            c = push(out, c, encode_saloon(SALOON_LOUD_EXTRA))
        if s.char[a] == TEQUILA:
            c = push(out, c, encode_saloon(SALOON_COWARD_EXTRA))
        return c
    if k == D_DOC:
        c = push(out, c, encode_doc(0, 0, 0))
        for d in range(s.nd):
            for side in range(6):
                if DIE_FACES[s.die_type[d], side] != s.face[d]:
                    c = push(out, c, encode_doc(1, d, side))
        return c
    if k == D_ELENA:
        c = push(out, c, encode_elena(0, 0))
        for t in range(n):
            if t != a and s.alive[t] == 1:
                c = push(out, c, encode_elena(1, t))
        return c
    if k == D_ARROW:
        if s.pile > 0:
            c = push(out, c, encode_arrow(ARROW_REGULAR))
        if s.chief_holder == -1:
            c = push(out, c, encode_arrow(ARROW_CHIEF))
        if s.ar_taker == a and is_char(s, a, APACHE) and s.chief_holder >= 0 and s.chief_holder != a:
            c = push(out, c, encode_arrow(ARROW_STEAL_CHIEF))
        return c
    if k == D_BROKEN:
        for t in range(n):
            if s.alive[t] == 1 and s.arrows[t] > 0:
                c = push(out, c, encode_broken(t))
        return c
    if k == D_REROLL:
        rr = all_dice(s) & ~locked_mask(s)
        sub = rr
        while True:  # every subset of the unlocked dice, largest first, stopping (0) last
            c = push(out, c, encode_reroll(sub))
            if sub == 0:
                break
            sub = (sub - 1) & rr
        return c
    if k == D_BE:
        m = be_mask(s, a, s.be_kind[s.be_i])
        for t in range(n):
            if ((m >> t) & 1) == 1:
                c = push(out, c, encode_be(t))
        if param_on(s, P.R_BE_WASTE) or c == 0:
            c = push(out, c, encode_be(WASTED))
        return c
    if k == D_SLAB:
        c = push(out, c, encode_slab(0, 0))
        seen = 0
        for i in range(s.n_be):
            t = s.be_tgt[i]
            if t >= 0 and ((seen >> t) & 1) == 0:
                seen |= 1 << t
                c = push(out, c, encode_slab(1, t))
        return c
    if k == D_KIT:
        c = push(out, c, encode_kit(0, 0))
        for t in range(n):
            if s.alive[t] == 1 and holds_any(s, t):
                c = push(out, c, encode_kit(1, t))
        return c
    if k == D_BART:
        for i in range(bart_max(s, s.react_seat) + 1):
            c = push(out, c, encode_bart(i))
        return c
    if k == D_MOLLY:
        for i in range(molly_max(s, s.decider, s.react_seat) + 1):
            c = push(out, c, encode_molly(i))
        return c
    if k == D_GHOST:
        seen_faces = 0
        for d in range(s.nd):
            f = s.face[d]
            if ((seen_faces >> f) & 1) == 1:
                continue
            seen_faces |= 1 << f
            for t in range(n):
                if t != a and s.alive[t] == 1:
                    c = push(out, c, encode_ghost(f, t))
        return c
    return 0


@nb.njit(cache=True, _nrt=False, inline="always")
def leg_key(s):
    """Identifies the decision whose list s.leg holds (step counter, decision kind, decider, phase)."""
    return (((np.int64(s.n_step) * 64 + s.dkind) * 64 + s.decider + 1) * 256) + s.phase


@nb.njit(cache=True, _nrt=False)
def legal_actions(s, p, out):
    """Fill out[:n] with the legal actions and return n (0 once the game is over).  A count above MAX_ACTIONS (the
    list's length) is returned as it is, with the list cut at its end: the kernel stops the run with an error."""
    if s.over == 1:
        return 0
    if s.n_leg > 0 and s.dkind != D_NONE and s.leg_key == leg_key(s):
        for i in range(min(s.n_leg, out.shape[0])):
            out[i] = s.leg[i]
        return s.n_leg
    sync_params(s, p)  # a hand-built state: regenerate (into s.leg, as run_auto does: one compiled gen_legal)
    s.n_leg = 0  # s.leg no longer holds the list of the stored key
    n = gen_legal(s, s.leg)
    for i in range(min(n, out.shape[0])):
        out[i] = s.leg[i]
    return n
