"""BANG! The Dice Game + Old Saloon (all five modules): jitted rules engine.

Protocol: see docs/ARCHITECTURE.md.  The game is a state machine.  `advance()` runs automatic steps (phases)
until a decision with two or more legal options is pending; decisions with a single option are applied
automatically.  Sub-procedures (a damage batch, a heal, a role reveal) are phases called through a small
return stack (`stk`, `sp`), so reactions by non-active players (Bart, Molly, Left Hand, Bad, Judge, Doc,
Gambler) are ordinary decisions of another seat.

ACTIONS.  An action is `(kind << 8) | arg` (see `act_kind`, `act_arg`).  Who decides is `current_player(s)`
(= s.decider).  Decision kinds (s.dkind) and their argument:

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
  dice: nd, face[], die_type[], roll_no, max_roll, preset (ghost-token dice mask), locked dice = Dynamite
  (not for Black Jack), be_kind[]/be_tgt[]/n_be/be_i, n_beer, gat (Gatling points this turn),
  belief counters: dmg_to_sheriff[seat], heal_to_sheriff[seat], hit_by[attacker, victim],
  healed_by[healer, target], target3[] (3-player targets), lms (3-player last-man-standing mode),
  gt_face/gt_x2/gt_holder (ghost token), bt_amt[] and bt_src (pending damage batch).

SCRIPTED DICE (tests): forced[0:n_forced] holds face codes (ARROW..GATX2) consumed in order by roll_die before the
RNG (forced_pos = next); dice roll in index order.  See tests/bang_dice_util.py `build()` for hand-built states.

SPEED NOTE: step() is inlined into run_auto()'s loop; per-phase work is split in _stepK.  Performance pass
(2026-11-23, results bit-identical on 2x3000 random games of 3-8 players, base and all modules):
  - Parameters are copied into s.pf at every entry point (setup, advance, legal_actions, apply_action); internal
    functions no longer take the array p, whose meminfo numba incref/decref'd on every call (2 atomics per step,
    contended across the playing threads).  Internal signatures lost p; bart_max(s, p, b) keeps its public one.
  - legal_actions copies the list run_auto just built (s.leg[:n_leg], keyed on n_step/dkind/decider/phase)
    instead of regenerating it; hand-built states fall back to gen_legal.
  - ROLL->AFTER_ROLL and ARROWS(no arrows taken)->BROKEN->BULLET run in one step
    (an estimated ~120 of ~840 steps/game saved).
  Engine alone, random play, 20k 5-player games, CPU s (same minute, loaded machine): base 0.72 -> 0.56,
  all modules 1.05 -> 0.66.
"""
import numba as nb
import numpy as np

from sim.events import log_event
from sim.kernel import LEGAL_TYPE, declared
from sim.rng import rand_below, shuffle
from . import params as P

# ---------------------------------------------------------------- structural constants
MAX_PLAYERS = 8
MAX_DICE = 6
MAX_ACTIONS = 72
MAX_ITEMS = 24
MAX_STEPS = 4000
MAX_EVENTS = 256
MAX_UNITS = 12
MAX_FORCED = 64
STACK = 16

# faces
ARROW, DYN, BE1, BE2, BEER, GAT, BROKEN, BULLET, BE1X2, BE2X2, BEERX2, GATX2 = range(12)
FACE_NAMES = ("Arrow", "Dynamite", "Bull's Eye 1", "Bull's Eye 2", "Beer", "Gatling", "Broken Arrow", "Bullet",
              "double Bull's Eye 1", "double Bull's Eye 2", "double Beer", "double Gatling")
DT_BASE, DT_LOUD, DT_COWARD = 0, 1, 2
DIE_FACES = np.array([[ARROW, DYN, BE1, BE2, BEER, GAT],
                      [ARROW, DYN, BE1X2, BE2X2, BULLET, GATX2],
                      [ARROW, DYN, BE1, BROKEN, BEER, BEERX2]], np.int8)

# roles and special roles
SHERIFF, DEPUTY, OUTLAW, RENEGADE = 0, 1, 2, 3
ROLE_NAMES = ("Sheriff", "Deputy", "Outlaw", "Renegade")
SP_NONE, BEAR, GOOD, DOC, JUDGE, GAMBLER, BAD, UGLY, RIGHT, LEFT = range(10)
SPECIAL_NAMES = ("none", "The Bear", "The Good", "The Doc", "The Judge", "The Gambler", "The Bad", "The Ugly",
                 "Right Hand of the Devil", "Left Hand of the Devil")

# characters (index = order in the data file; checked below)
(BART, BLACKJACK, CALAMITY, GRINGO, JESSE, JOURDONNAIS, KIT, LUCKY, PAUL, PEDRO, ROSE, SID, SLAB, SUZY,
 VULTURE, WILLY, JOSE, TEQUILA, APACHE, BILL, ELENA, VERA, DOCH, MOLLY) = range(24)
N_CHARS = 24
assert len(P.CHAR_IDS) == N_CHARS and P.CHAR_IDS[VULTURE] == "VULTURE_SAM" and P.CHAR_IDS[MOLLY] == "MOLLY_STARK"
# module a new character needs (0 = none)
CHAR_NEEDS = np.array([0] * 16 + [1, 1, 2, 0, 0, 0, 0, 0], np.int8)

# damage sources / elimination causes
SRC_NONE, SRC_SHOT, SRC_GATLING, SRC_INDIANS, SRC_DYNAMITE, SRC_BULLET = range(6)
CAUSE_LABELS = ["alive", "shot", "gatling", "indians", "dynamite", "bullet"]
# heal sources
HS_BEER, HS_SID, HS_SUZY, HS_VULTURE, HS_DOCH = range(5)

# winner teams / end reasons
WT_NONE, WT_LAW, WT_OUTLAWS, WT_RENEGADE, WT_3P_DEPUTY, WT_3P_OUTLAW, WT_3P_RENEGADE = range(7)
WINNER_LABELS = ["none", "law", "outlaws", "renegade", "deputy_3p", "outlaw_3p", "renegade_3p"]
ER_NOT_OVER, ER_SHERIFF_DEAD, ER_BANDITS_DEAD, ER_PERSONAL_KILL, ER_LAST_STANDING, ER_ALL_DEAD = range(6)
END_LABELS = ["not_over", "sheriff_dead", "outlaws_renegades_dead", "personal_kill", "last_man_standing",
              "all_dead"]

# decision kinds
(D_NONE, D_GOOD, D_UGLY, D_SID, D_SALOON, D_DOC, D_ELENA, D_ARROW, D_BROKEN, D_REROLL, D_GAMBLER, D_BE, D_SLAB,
 D_BEER, D_KIT, D_BART, D_MOLLY, D_LEFT, D_BAD, D_JUDGE, D_RIGHT, D_GHOST) = range(22)
DECISION_NAMES = ("none", "good", "ugly", "sid", "saloon", "doc", "elena", "arrow", "broken_arrow", "reroll",
                  "gambler", "bullseye", "slab", "beer", "kit", "bart", "molly", "left_hand", "bad", "judge",
                  "right_hand", "ghost_give")

# phases
(PH_TURN_BEGIN, PH_START_SPECIAL, PH_START_REVEAL_APPLY, PH_SID, PH_SALOON, PH_ROLL, PH_AFTER_ROLL, PH_DOC_APPLY,
 PH_ARROWS, PH_ARROW_LOOP, PH_BROKEN, PH_BULLET, PH_DYNAMITE, PH_DYN_DONE, PH_REROLL, PH_END_ROLLING,
 PH_GAMBLER_APPLY, PH_BILL, PH_RESOLVE, PH_GHOST_GIVE, PH_BE_ASSIGN, PH_SLAB, PH_BE_APPLY, PH_BE_DONE,
 PH_BEER_SETUP, PH_BEER, PH_GATLING, PH_KIT, PH_GATLING_FIRE, PH_SUZY, PH_END_TURN, PH_RIGHT_APPLY,
 PH_NEXT_TURN,
 # sub-procedures (>= PH_SUB)
 PH_DMG_BART, PH_DMG_MOLLY, PH_DMG_APPLY, PH_DMG_LEFT, PH_DMG_LEFT_APPLY, PH_DMG_ELIM, PH_DMG_VULTURE,
 PH_DMG_GRINGO, PH_HEAL, PH_HEAL_BAD_DONE, PH_HEAL_APPLY, PH_REVEAL, PH_OVER) = range(46)
PH_SUB = PH_DMG_BART

# event kinds (rows: kind, a, b, c, d)
(EV_SEAT, EV_TURN, EV_SALOON, EV_ROLL, EV_REROLL, EV_ARROW, EV_INDIANS, EV_DAMAGE, EV_HEAL, EV_ELIM, EV_GHOST,
 EV_REVEAL, EV_JUDGE, EV_SHOT, EV_GATLING, EV_DYNAMITE, EV_BROKEN, EV_BULLET, EV_DISCARD, EV_BART, EV_MOLLY,
 EV_DOC, EV_GAMBLE, EV_GHOST_GIVE, EV_PRESET, EV_STEAL, EV_ELENA, EV_UGLY, EV_GOOD, EV_EXTRA, EV_SLAB, EV_WIN,
 EV_LEFT, EV_BAD, EV_KEEP_FINAL, EV_TURN_END) = range(36)
# discard reasons
DR_GATLING, DR_KIT, DR_PEDRO, DR_LEFT, DR_GAMBLER = range(5)

STATE_DTYPE = np.dtype([
    ("rng", np.uint64, (2,)),
    ("ev", np.int32, (MAX_EVENTS, 5)),
    ("n_ev", np.int32),
    ("log_on", np.int8),
    # game
    ("n", np.int8), ("over", np.int8), ("three", np.int8), ("lms", np.int8),
    ("winner_team", np.int8), ("winner_seat", np.int8), ("end_reason", np.int8),
    ("phase", np.int16), ("dkind", np.int8), ("decider", np.int8),
    ("stk", np.int16, (STACK,)), ("sp", np.int8),
    ("active", np.int8), ("first_seat", np.int8), ("sheriff", np.int8),
    ("turn", np.int16), ("rnd", np.int16), ("n_dead", np.int8), ("active_died", np.int8),
    ("extra_turn", np.int8),
    # seats
    ("role", np.int8, (MAX_PLAYERS,)), ("special", np.int8, (MAX_PLAYERS,)),
    ("special_state", np.int8, (MAX_PLAYERS,)), ("role_known", np.int8, (MAX_PLAYERS,)),
    ("char", np.int8, (MAX_PLAYERS,)), ("life", np.int16, (MAX_PLAYERS,)), ("max_life", np.int16, (MAX_PLAYERS,)),
    ("max_life0", np.int16, (MAX_PLAYERS,)),
    ("alive", np.int8, (MAX_PLAYERS,)), ("target3", np.int8, (MAX_PLAYERS,)),
    ("ghost_seat", np.int8), ("ghost_done", np.int8), ("ghost_team", np.int8),
    # arrows
    ("arrows", np.int8, (MAX_PLAYERS,)), ("pile", np.int8), ("chief_holder", np.int8),
    # dice
    ("nd", np.int8), ("face", np.int8, (MAX_DICE,)), ("die_type", np.int8, (MAX_DICE,)),
    ("roll_no", np.int8), ("max_roll", np.int8), ("preset", np.int8), ("rolled", np.int8),
    ("reroll_mask", np.int8), ("stopped", np.int8), ("gambled", np.int8), ("ignore_arrows", np.int8),
    ("saloon", np.int8),
    # on-roll work
    ("ar_owed", np.int8), ("ar_elena", np.int8), ("ar_taker", np.int8), ("ar_next", np.int16),
    ("broken_owed", np.int8),
    # resolution
    ("be_kind", np.int8, (MAX_UNITS,)), ("be_tgt", np.int8, (MAX_UNITS,)),
    ("be_half", np.int8, (MAX_UNITS,)),
    ("roll_took", np.int8), ("roll_chief", np.int8), ("roll_attack", np.int8), ("n_be", np.int8), ("be_i", np.int8),
    ("slab_tgt", np.int8), ("n_beer", np.int8), ("beer_i", np.int8), ("jesse_low", np.int8),
    ("gat", np.int8), ("gat_units", np.int8), ("fire", np.int8), ("kit_left", np.int8),
    # damage batch
    ("bt_amt", np.int16, (MAX_PLAYERS,)), ("bt_src", np.int8), ("bt_shooter", np.int8), ("bt_i", np.int8),
    ("bt_no_gringo", np.int8), ("bt_newly", np.int16), ("react_seat", np.int8), ("vult_left", np.int8),
    ("gringo_owed", np.int8), ("gringo_seat", np.int8),
    # heal
    ("h_tgt", np.int8), ("h_amt", np.int8), ("h_src", np.int8), ("h_healer", np.int8),
    # reveal
    ("rv_seat", np.int8), ("rv_cancel", np.int8), ("rv_arg", np.int16),
    # doc
    ("doc_die", np.int8), ("doc_k", np.int8),
    # ghost tokens
    ("gt_face", np.int8), ("gt_x2", np.int8), ("gt_holder", np.int8), ("gt_used", np.int8),
    # statistics / public belief counters
    ("dmg_dealt", np.int16, (MAX_PLAYERS,)), ("dmg_taken", np.int16, (MAX_PLAYERS,)),
    ("arrows_taken", np.int16, (MAX_PLAYERS,)), ("indian_dmg", np.int16, (MAX_PLAYERS,)),
    ("turns_taken", np.int16, (MAX_PLAYERS,)), ("elim_cause", np.int8, (MAX_PLAYERS,)),
    ("killer", np.int8, (MAX_PLAYERS,)), ("elim_turn", np.int16, (MAX_PLAYERS,)),
    ("dmg_to_sheriff", np.int16, (MAX_PLAYERS,)), ("heal_to_sheriff", np.int16, (MAX_PLAYERS,)),
    ("hit_by", np.int16, (MAX_PLAYERS, MAX_PLAYERS)), ("healed_by", np.int16, (MAX_PLAYERS, MAX_PLAYERS)),
    ("chief_turn", np.int16, (MAX_PLAYERS,)),
    # scripted dice for tests: face codes consumed before the RNG
    ("forced", np.int8, (MAX_FORCED,)), ("n_forced", np.int16), ("forced_pos", np.int16),
    ("role0", np.int8, (MAX_PLAYERS,)), ("ghost_turn", np.int8),
    ("leg", np.int32, (MAX_ACTIONS,)),
    ("n_step", np.int32),
    # copy of the parameter vector (synced at every entry point): hot code never touches the array p
    ("pf", np.float64, (P.N_PARAMS,)),
    # legal list of the pending decision as run_auto left it (leg[:n_leg]), valid while (dkind, decider, phase,
    # n_step) still match the key: legal_actions copies it instead of regenerating
    ("n_leg", np.int32), ("leg_key", np.int64),
])

# ---------------------------------------------------------------- compile time: one compiled copy per helper
# numba compiles a function once per distinct tuple of argument types at its call sites, and a module constant
# passed as an argument is typed as its literal value: decide(s, D_BE, a) and decide(s, D_BAD, b) were two
# compiled functions, and so was a call with an int8 state field where another passes an int64.  That made 214
# compiled functions of this game where 85 differ (_rel 9 times, decide 21, push 17, ...): measured, the first-run
# compile went from 76-90 s to 46-51 s when each helper was compiled once.
# So a helper called from several places either declares its signature (`declared(on_state(...))`: compiled
# once, at its first use, the arguments widened to int64 at the call, which numba's arithmetic does anyway) or,
# when it is a one-line setter, is inlined (inline="always").
STATE = nb.from_dtype(STATE_DTYPE)  # numba type of one state record (states[i])
I64, BOOL, F64, VOID = nb.int64, nb.boolean, nb.float64, nb.void


def on_state(ret, *args):
    """Signature ret(state, *args) of a jitted helper (compiled once, at first use, for every caller)."""
    return ret(STATE, *args)


# ================================================================ small helpers
@nb.njit(cache=True, _nrt=False, inline="always")
def act(kind, arg):
    return (kind << 8) | arg


@nb.njit(cache=True, _nrt=False, inline="always")
def act_kind(a):
    return a >> 8


@nb.njit(cache=True, _nrt=False, inline="always")
def act_arg(a):
    return a & 255


@nb.njit(cache=True, _nrt=False, inline="always")
def pb(p, i):
    return p[i] != 0.0


@nb.njit(cache=True, _nrt=False, inline="always")
def pi(p, i):
    return np.int64(p[i])


@nb.njit(cache=True, _nrt=False, inline="always")
def qi(s, i):
    """pi() on the state's parameter copy (s.pf)."""
    return np.int64(s.pf[i])


@nb.njit(cache=True, _nrt=False, inline="always")
def qb(s, i):
    return s.pf[i] != 0.0


@nb.njit(cache=True, _nrt=False)
def sync_params(s, p):
    """Copy p into s.pf.  Passing the array p into non-inlined functions made numba incref/decref its meminfo on
    every call (two atomics per phase step, and cache-line ping-pong between threads sharing p)."""
    for i in range(P.N_PARAMS):
        s.pf[i] = p[i]


@nb.njit(cache=True, _nrt=False, inline="always")
def is_char(s, seat, c):
    """Seat has character c and its ability works (living, not the Ghost)."""
    return s.char[seat] == c and s.alive[seat] == 1


@declared(on_state(I64, I64), _nrt=False)
def find_char(s, c):
    for i in range(s.n):
        if s.char[i] == c and s.alive[i] == 1:
            return i
    return -1


@declared(on_state(I64, I64, I64), _nrt=False)
def find_special(s, sp, exclude):
    """Seat holding an unused special role sp that can still act (living, not the Ghost), or -1."""
    for i in range(s.n):
        if s.special[i] == sp and s.special_state[i] == 0 and s.alive[i] == 1 and i != exclude:
            return i
    return -1


@nb.njit(cache=True, _nrt=False)
def n_living(s):
    c = 0
    for i in range(s.n):
        c += s.alive[i]
    return c


@nb.njit(cache=True, _nrt=False)
def walk(s, a, d, direction):
    """Seat d living steps from seat a (direction +1 or -1), counting living players only."""
    cur = a
    cnt = 0
    guard = 0
    n = s.n
    while cnt < d and guard < 64:
        cur = (cur + direction + n) % n
        if s.alive[cur] == 1:
            cnt += 1
        guard += 1
    return cur


@declared(on_state(I64, I64, I64), _nrt=False)
def be_mask(s, a, kind):
    """Bitmask of seats a Bull's Eye unit of kind 1/2 fired by seat a may hit."""
    m = n_living(s)
    if kind == 2 and m <= 3:
        kind = 1
    lo = kind
    hi = kind
    c = s.char[a]
    if c == ROSE:
        hi = kind + 1
    if c == CALAMITY:
        lo = 1
        hi = 1 if m <= 3 else 2
    mask = 0
    for d in range(lo, hi + 1):
        for direction in (1, -1):
            t = walk(s, a, d, direction)
            if t != a and s.alive[t] == 1:
                mask |= 1 << t
    return mask


@nb.njit(cache=True, _nrt=False)
def roll_die(s, i):
    if s.forced_pos < s.n_forced:
        f = s.forced[s.forced_pos]
        s.forced_pos += 1
        s.face[i] = f
    else:
        s.face[i] = DIE_FACES[s.die_type[i], rand_below(s.rng, 0, 6)]


@nb.njit(cache=True, _nrt=False)
def pack_faces(s):
    v = 0
    for i in range(s.nd):
        v |= (np.int64(s.face[i]) + 1) << (4 * i)
    return v


@nb.njit(cache=True, _nrt=False)
def locked_mask(s):
    m = 0
    bj = s.char[s.active] == BLACKJACK and s.alive[s.active] == 1
    for i in range(s.nd):
        if s.face[i] == DYN and ((not bj) or ((s.preset >> i) & 1) == 1):
            m |= 1 << i
    return m


@declared(on_state(I64, I64, I64), _nrt=False)
def count_face(s, f, mask):
    c = 0
    for i in range(s.nd):
        if ((mask >> i) & 1) == 1 and s.face[i] == f:
            c += 1
    return c


@nb.njit(cache=True, _nrt=False)
def all_dice(s):
    return (1 << s.nd) - 1


@nb.njit(cache=True, _nrt=False, inline="always")
def push(s, ret):
    s.stk[s.sp] = ret
    s.sp += 1


@nb.njit(cache=True, _nrt=False)
def pop(s):
    s.sp -= 1
    s.phase = s.stk[s.sp]


@nb.njit(cache=True, _nrt=False, inline="always")
def decide(s, kind, seat):
    s.dkind = kind
    s.decider = seat


@nb.njit(cache=True, _nrt=False)
def pile_tokens(s):
    return s.pile + (1 if s.chief_holder == -1 else 0)


@nb.njit(cache=True, _nrt=False, inline="always")
def holds_any(s, t):
    return s.arrows[t] > 0 or s.chief_holder == t


@declared(on_state(VOID, I64), _nrt=False)
def discard_one(s, t):
    """Return one arrow of seat t to the pile (a regular one first, else the Chief's Arrow; with
    rule.chief_arrow_discard = chief_first the Chief's Arrow first)."""
    if s.chief_holder == t and qi(s, P.R_CHIEF_DISCARD) == 1:
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
    if qi(s, P.R_CHIEF_LAST) == 1:
        return s.pile - more <= 0
    return pile_tokens(s) - more <= 0


@nb.njit(cache=True, _nrt=False)
def forced_take(s, taker):
    """An arrow the taker cannot choose (El Gringo's): regular if any, else the Chief's Arrow."""
    if s.pile > 0:
        return take_token(s, taker, False)
    return take_token(s, taker, True)


# ================================================================ damage batch
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
    push(s, ret)
    s.phase = PH_DMG_BART


@declared(on_state(VOID, I64), _nrt=False)
def start_indian(s, ret):
    """Indian attack: every living player loses life per arrow held (Chief's Arrow rules), all arrows return."""
    log_event(s, EV_INDIANS, s.active, s.pile, 0, 0)
    s.roll_attack = 1       # an attack since the last roll: that roll's arrows can no longer be handed back
    clear_batch(s)
    cv = qi(s, P.CHIEF_VALUE)
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
            if s.char[t] == JOURDONNAIS and amt > qi(s, P.JOUR_CAP):
                amt = qi(s, P.JOUR_CAP)
            s.bt_amt[t] = amt
    for t in range(s.n):
        s.arrows[t] = 0
    s.pile = qi(s, P.ARROWS)
    if s.chief_holder >= 0:
        s.chief_holder = -1
    start_batch(s, SRC_INDIANS, -1, ret)


@nb.njit(cache=True, _nrt=False, inline="always")
def start_heal(s, tgt, amt, src, healer, ret):
    s.h_tgt = tgt
    s.h_amt = amt
    s.h_src = src
    s.h_healer = healer
    push(s, ret)
    s.phase = PH_HEAL


@nb.njit(cache=True, _nrt=False, inline="always")
def start_reveal(s, seat, ret):
    s.rv_seat = seat
    s.rv_cancel = 0
    push(s, ret)
    s.phase = PH_REVEAL


@declared(on_state(I64, I64), _nrt=False)
def _bart_max(s, b):
    if s.bt_src != SRC_SHOT and s.bt_src != SRC_GATLING and not (s.bt_src == SRC_BULLET and qb(s, P.R_BART_BULLET)):
        return 0
    amt = s.bt_amt[b]
    room = s.pile
    if qi(s, P.R_CHIEF_LAST) == 1 or s.chief_holder != -1:
        room = s.pile - 1  # may not take the last arrow of the pile
    if room < 0:
        room = 0
    return min(amt, room)


@nb.njit(cache=True, _nrt=False)
def bart_max(s, p, b):
    """Most hits Bart Cassidy may take as arrows (public helper; p kept for the old signature)."""
    sync_params(s, p)
    return _bart_max(s, b)


@declared(on_state(I64, I64, I64), _nrt=False)
def molly_max(s, m, t):
    left = s.life[m] - s.bt_amt[m]
    if left < 0:
        left = 0
    return min(s.bt_amt[t], left)


@nb.njit(cache=True, _nrt=False)
def role_team(s, i):
    """Team of seat i for the win: SHERIFF/DEPUTY = law (0), OUTLAW (2), RENEGADE (3)."""
    r = s.role[i]
    if i == s.ghost_seat and r == RENEGADE:
        return s.ghost_team
    if r == SHERIFF:
        return DEPUTY
    return r


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
    if c == SRC_INDIANS and qb(s, P.R_3P_INDIAN):
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
        if qb(s, P.M_GHOST) and n >= qi(s, P.GHOST_MIN) and s.three == 0:
            for k in range(n):
                t = (s.active + k) % n
                if ((newly >> t) & 1) == 1 and t != s.sheriff:
                    s.ghost_seat = t
                    s.role_known[t] = 1
                    log_event(s, EV_GHOST, t, s.role[t], s.ghost_team, 0)
                    break
    return newly


# ================================================================ turn helpers
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
        s.nd = qi(s, P.GHOST_DICE)
        s.max_roll = 1 + qi(s, P.GHOST_REROLLS)
    else:
        s.nd = qi(s, P.BASE_DICE)
        s.max_roll = qi(s, P.LUCKY_ROLLS) if s.char[a] == LUCKY else qi(s, P.MAX_ROLLS)
    for i in range(MAX_DICE):
        s.die_type[i] = DT_BASE
        s.face[i] = -1
    log_event(s, EV_TURN, a, s.turn, s.rnd, 1 if ghost else 0)


# ================================================================ setup
@nb.njit(cache=True)
def _intervene(s, chars, n, m):
    """sim effect's interventions on the shuffled character deck (no random draw: the games stay paired)."""
    rm = qi(s, P.ITEM_REMOVE) - 1                 # a character taken out: the next card of the deck replaces it
    if rm >= 0 and n < m:
        for j in range(n):
            if chars[j] == rm:
                chars[j] = chars[n]
                chars[n] = rm
                break
    dc = qi(s, P.ITEM_DEAL) - 1                   # a character dealt to a given seat: it swaps cards
    ds = qi(s, P.ITEM_DEAL_SEAT) - 1
    if dc >= 0 and 0 <= ds < n:
        for j in range(m):
            if chars[j] == dc:
                chars[j] = chars[ds]
                chars[ds] = dc
                break


@nb.njit(cache=True)
def setup(s, p, n_players):
    sync_params(s, p)
    n = n_players
    s.n = n
    s.over = 0
    s.n_ev = 0 if s.log_on == 0 else s.n_ev
    s.three = 1 if n == 3 else 0
    s.lms = 0
    s.winner_team = WT_NONE
    s.winner_seat = -1
    s.end_reason = ER_NOT_OVER
    s.dkind = D_NONE
    s.decider = -1
    s.sp = 0
    s.turn = 0
    s.rnd = 1
    s.n_dead = 0
    s.ghost_seat = -1
    s.ghost_done = 0
    s.gt_face = -1
    s.gt_x2 = 0
    s.gt_holder = -1
    s.gt_used = 0
    s.extra_turn = 0
    s.pile = qi(s, P.ARROWS)
    s.chief_holder = -1 if qb(s, P.M_CHIEF) else -2
    s.ghost_team = OUTLAW if (n == 5 or n == 7) else DEPUTY
    for i in range(MAX_PLAYERS):
        s.role[i] = -1
        s.special[i] = SP_NONE
        s.special_state[i] = 0
        s.role_known[i] = 0
        s.char[i] = -1
        s.life[i] = 0
        s.max_life[i] = 0
        s.max_life0[i] = 0
        s.alive[i] = 0
        s.target3[i] = -1
        s.arrows[i] = 0
        s.bt_amt[i] = 0
        s.dmg_dealt[i] = 0
        s.dmg_taken[i] = 0
        s.arrows_taken[i] = 0
        s.indian_dmg[i] = 0
        s.turns_taken[i] = 0
        s.elim_cause[i] = SRC_NONE
        s.killer[i] = -1
        s.elim_turn[i] = -1
        s.dmg_to_sheriff[i] = 0
        s.heal_to_sheriff[i] = 0
        s.chief_turn[i] = -1
        for j in range(MAX_PLAYERS):
            s.hit_by[i, j] = 0
            s.healed_by[i, j] = 0
    # roles
    roles = np.empty(MAX_PLAYERS, np.int8)
    k = 0
    if n == 3:
        roles[0] = DEPUTY
        roles[1] = OUTLAW
        roles[2] = RENEGADE
        k = 3
    else:
        roles[0] = SHERIFF
        k = 1
        nd = 0 if n == 4 else (1 if n <= 6 else 2)
        no = 2 if n <= 5 else 3
        nr = 2 if n == 8 else 1
        for _ in range(nd):
            roles[k] = DEPUTY
            k += 1
        for _ in range(no):
            roles[k] = OUTLAW
            k += 1
        for _ in range(nr):
            roles[k] = RENEGADE
            k += 1
    shuffle(s.rng, 0, roles, n)
    for i in range(n):
        s.role[i] = roles[i]
        s.role0[i] = roles[i]
        s.alive[i] = 1
    # special roles (module 3, not in the 3-player game)
    mode = qi(s, P.M_SPECIAL)
    if mode > 0 and (n > 3 or qi(s, P.R_SPECIAL_3P) == 1):
        pool = np.empty(8, np.int8)
        for r in range(4):
            m = 0
            if r == SHERIFF:
                pool[m] = BEAR
                m += 1
                if mode == 2:
                    pool[m] = SP_NONE
                    m += 1
            elif r == DEPUTY:
                m = 0
                if n > 3:              # 3 players: no Sheriff for The Good to swap with (rule.special_roles_3p)
                    pool[m] = GOOD
                    m += 1
                pool[m] = DOC
                pool[m + 1] = JUDGE
                m += 2
                if mode == 2:
                    pool[m] = SP_NONE
                    pool[m + 1] = SP_NONE
                    m += 2
            elif r == OUTLAW:
                pool[0] = GAMBLER
                pool[1] = BAD
                pool[2] = UGLY
                m = 3
                if mode == 2:
                    pool[3] = SP_NONE
                    pool[4] = SP_NONE
                    pool[5] = SP_NONE
                    m = 6
            else:
                pool[0] = RIGHT
                pool[1] = LEFT
                m = 2
                if mode == 2:
                    pool[2] = SP_NONE
                    pool[3] = SP_NONE
                    m = 4
            shuffle(s.rng, 0, pool, m)
            j = 0
            for i in range(n):
                if s.role[i] == r:
                    s.special[i] = pool[j]
                    j += 1
    # characters
    chars = np.empty(N_CHARS, np.int8)
    m = 0
    for c in range(N_CHARS):
        ok = c < 16
        if c >= 16 and qb(s, P.M_NEWCHARS):
            need = CHAR_NEEDS[c]
            ok = (need == 0) or (need == 1 and qb(s, P.M_SALOON)) or (need == 2 and qb(s, P.M_CHIEF))
        if ok:
            chars[m] = c
            m += 1
    shuffle(s.rng, 0, chars, m)
    _intervene(s, chars, n, m)
    s.sheriff = -1
    s.first_seat = 0
    for i in range(n):
        c = chars[i]
        s.char[i] = c
        life = qi(s, P.LIFE + c)
        if s.role[i] == SHERIFF:
            s.sheriff = i
            s.first_seat = i
            s.role_known[i] = 1
            life += qi(s, P.BEAR_BONUS) if s.special[i] == BEAR else qi(s, P.SHERIFF_BONUS)
            if s.special[i] == BEAR:
                s.special_state[i] = 1
        if s.three == 1:
            s.role_known[i] = 1
            if s.role[i] == DEPUTY:
                s.first_seat = i
        s.life[i] = life
        s.max_life[i] = life
        s.max_life0[i] = life
    if s.three == 1:
        s.sheriff = -1
        for i in range(n):
            for j in range(n):
                if (s.role[i] == DEPUTY and s.role[j] == RENEGADE) or (s.role[i] == RENEGADE and s.role[j] == OUTLAW) \
                        or (s.role[i] == OUTLAW and s.role[j] == DEPUTY):
                    s.target3[i] = j
    for i in range(n):
        log_event(s, EV_SEAT, i, s.role[i], s.char[i], s.special[i])
    s.active = s.first_seat
    s.phase = PH_TURN_BEGIN
    run_auto(s)


# ================================================================ the step machine
@nb.njit(cache=True, _nrt=False)
def _step0(s, ph):
    a = s.active
    if ph == PH_TURN_BEGIN:
        begin_turn_vars(s)
        if a == s.ghost_seat:
            s.phase = PH_ROLL
        else:
            s.phase = PH_START_SPECIAL
    elif ph == PH_START_SPECIAL:
        sp = s.special[a]
        if s.special_state[a] == 0 and sp == GOOD and a != s.sheriff:
            decide(s, D_GOOD, a)
        elif s.special_state[a] == 0 and sp == UGLY:
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
                s.max_life[old] = qi(s, P.LIFE + s.char[old])
                s.sheriff = a
                s.role_known[old] = 1
                log_event(s, EV_GOOD, a, old, 0, 0)
            else:
                i = (s.rv_arg - 1) >> 3
                j = (s.rv_arg - 1) & 7
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
def _step1(s, ph):
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
        if qb(s, P.M_SALOON):
            decide(s, D_SALOON, a)
    elif ph == PH_ROLL:
        s.roll_no += 1
        if s.roll_no == 1:
            mask = all_dice(s) & ~s.preset
        else:
            mask = s.reroll_mask
            s.preset &= ~mask   # a re-rolled Ghost-token die is an ordinary die now (Black Jack's Dynamite)
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
            s.preset &= ~(1 << s.doc_die)   # no longer the Ghost token's face
            log_event(s, EV_DOC, s.rv_seat, s.doc_die, s.face[s.doc_die], a)
        s.phase = PH_ARROWS



@nb.njit(cache=True, _nrt=False)
def _step2(s, ph):
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
def _step3(s, ph):
    a = s.active
    if ph == PH_DYNAMITE:
        s.phase = PH_REROLL
        c = count_face(s, DYN, all_dice(s))
        if c >= qi(s, P.DYN_LIMIT) and s.ghost_turn == 0 and s.alive[a] == 1:
            s.stopped = 1
            log_event(s, EV_DYNAMITE, a, c, 0, 0)
            clear_batch(s)
            s.bt_amt[a] = qi(s, P.DYN_DAMAGE)
            start_batch(s, SRC_DYNAMITE, -1, PH_DYN_DONE)
    elif ph == PH_DYN_DONE:
        if not qb(s, P.R_DYN_RESOLVE):
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
def _step4(s, ph):
    a = s.active
    if ph == PH_GAMBLER_APPLY:
        s.gambled = 1
        if s.rv_cancel == 0:
            log_event(s, EV_GAMBLE, s.rv_seat, a, 0, 0)
            s.reroll_mask = all_dice(s)
            s.preset = 0
            s.stopped = 1
            if qi(s, P.R_GAMBLER_IGNORED) == 1 and s.roll_attack == 0:
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
            if not qb(s, P.R_GAMBLER_ARROWS):
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
        nb_ = 0
        nbeer = 0
        g = 0
        gu = 0
        for i in range(s.nd):
            f = s.face[i]
            if f == BE1 or f == BE2:
                s.be_kind[nb_] = 1 if f == BE1 else 2
                s.be_tgt[nb_] = -1
                s.be_half[nb_] = 0
                nb_ += 1
            elif f == BE1X2 or f == BE2X2:
                for h in range(2):
                    s.be_kind[nb_] = 1 if f == BE1X2 else 2
                    s.be_tgt[nb_] = -1
                    s.be_half[nb_] = h     # 1: the second half of a double Bull's Eye (one die)
                    nb_ += 1
            elif f == BEER:
                nbeer += 1
            elif f == BEERX2:
                nbeer += 2
            elif f == GAT:
                g += 1
                gu += 1
            elif f == GATX2:
                g += 2
                gu += 1
        s.n_be = nb_
        s.be_i = 0
        s.n_beer = nbeer
        s.gat = g
        s.gat_units = gu
        s.phase = PH_BE_ASSIGN
    elif ph == PH_GHOST_GIVE:
        s.phase = PH_END_TURN



@nb.njit(cache=True, _nrt=False)
def _step5(s, ph):
    a = s.active
    n = s.n
    if ph == PH_BE_ASSIGN:
        if s.be_i >= s.n_be:
            s.phase = PH_SLAB
            return
        m = be_mask(s, a, s.be_kind[s.be_i])
        if m == 0 and not qb(s, P.R_BE_WASTE):
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
        vera_die = qi(s, P.R_VERA) == 1
        carry = 0           # per-die reading: reduction left over from the first half of a double Bull's Eye
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
                r = carry if (s.be_half[i] == 1 and s.be_tgt[i - 1] == t) else qi(s, P.VERA_RED)
                cut = min(d, r)
                d -= cut
                carry = r - cut
            s.bt_amt[t] += d
            any_hit = True
            log_event(s, EV_SHOT, a, t, s.be_kind[i], d)
        if not vera_die:
            for t in range(n):
                if s.char[t] == VERA and s.bt_amt[t] > 0:
                    s.bt_amt[t] = max(0, s.bt_amt[t] - qi(s, P.VERA_RED))
        if any_hit:
            start_batch(s, SRC_SHOT, a, PH_BE_DONE)
    elif ph == PH_BE_DONE:
        s.phase = PH_BEER_SETUP
        used = 0            # "each time you use three or more": results that hit nobody do not count
        for i in range(s.n_be):
            if s.be_tgt[i] >= 0:
                used += 1
        if is_char(s, a, DOCH) and used >= qi(s, P.DOC_SHOTS):
            start_heal(s, a, qi(s, P.DOC_HEAL), HS_DOCH, a, PH_BEER_SETUP)



@nb.njit(cache=True, _nrt=False)
def _step6(s, ph):
    a = s.active
    n = s.n
    if ph == PH_BEER_SETUP:
        s.jesse_low = 1 if (is_char(s, a, JESSE) and s.life[a] <= qi(s, P.JESSE_THR)) else 0
        s.beer_i = 0
        s.phase = PH_BEER
    elif ph == PH_BEER:
        if s.beer_i >= s.n_beer:
            s.phase = PH_GATLING
            return
        decide(s, D_BEER, a)
    elif ph == PH_GATLING:
        need = qi(s, P.WILLY_NEED) if is_char(s, a, WILLY) else qi(s, P.GATLING_NEED)
        s.fire = 1 if s.gat >= need else 0
        s.phase = PH_GATLING_FIRE
        if is_char(s, a, KIT) and s.gat > 0:
            if s.fire == 1 and holds_any(s, a):
                log_event(s, EV_DISCARD, a, s.arrows[a] + (1 if s.chief_holder == a else 0), DR_GATLING, 0)
                discard_all(s, a)
            s.kit_left = s.gat if qb(s, P.R_KIT_DOUBLE) else s.gat_units
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
def _step7(s, ph):
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
            if gringo_hit and not qb(s, P.R_GRINGO_AFTER):
                s.bt_no_gringo = 1
            start_batch(s, SRC_GATLING, a, PH_SUZY)
    elif ph == PH_SUZY:
        s.phase = PH_END_TURN
        if is_char(s, a, SUZY):
            for i in range(s.nd):
                f = s.face[i]
                if f == BE1 or f == BE2 or f == BE1X2 or f == BE2X2:
                    return
            start_heal(s, a, qi(s, P.SUZY_HEAL), HS_SUZY, a, PH_END_TURN)
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



@nb.njit(cache=True, _nrt=False)
def _step8(s, ph):
    a = s.active
    n = s.n
    if ph == PH_NEXT_TURN:
        cur = a
        for k in range(1, n + 1):
            cur = (a + k) % n
            if cur == s.first_seat:
                s.rnd += 1
            if takes_turn(s, cur):
                break
        s.active = cur
        s.phase = PH_TURN_BEGIN
    elif ph == PH_DMG_BART:
        s.phase = PH_DMG_MOLLY
        s.bt_i = 0
        b = find_char(s, BART)
        if b >= 0 and s.bt_amt[b] > 0 and _bart_max(s, b) > 0:
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
def _step9(s, ph):
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
            s.life[t] = qi(s, P.LEFT_LIFE)
            if holds_any(s, t) and qi(s, P.R_LEFT_DISCARD) == 0:
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
            start_heal(s, v, qi(s, P.VULTURE_GAIN), HS_VULTURE, v, PH_DMG_VULTURE)
        else:
            s.phase = PH_DMG_GRINGO



@nb.njit(cache=True, _nrt=False)
def _step10(s, ph):
    if ph == PH_DMG_GRINGO:
        if s.gringo_owed > 0:
            s.gringo_owed -= 1
            g = s.gringo_seat
            if s.alive[g] == 1:
                if (not qb(s, P.R_GRINGO_ATTACK)) and attack_due(s, 1):
                    return          # A5 off: no arrow that would fire the attack
                if forced_take(s, g):
                    start_indian(s, PH_DMG_GRINGO)
            return
        pop(s)
    elif ph == PH_HEAL:
        t = s.h_tgt
        if s.alive[t] == 0 or s.h_amt <= 0 or s.life[t] >= s.max_life[t]:
            if s.alive[t] == 1:
                log_event(s, EV_HEAL, t, 0, s.h_healer, s.h_src)
            pop(s)
            return
        s.phase = PH_HEAL_APPLY
        b = find_special(s, BAD, t)
        if b >= 0:
            decide(s, D_BAD, b)
    elif ph == PH_HEAL_BAD_DONE:
        if s.rv_cancel == 0:
            log_event(s, EV_BAD, s.rv_seat, s.h_tgt, s.h_amt, 0)
            pop(s)
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
        pop(s)



@nb.njit(cache=True, _nrt=False)
def _step11(s, ph):
    if ph == PH_REVEAL:
        r = s.rv_seat
        s.special_state[r] = 1
        s.role_known[r] = 1
        log_event(s, EV_REVEAL, r, s.special[r], s.rv_arg, 0)
        j = find_special(s, JUDGE, r)
        if j >= 0:
            decide(s, D_JUDGE, j)
            return
        pop(s)


@nb.njit(cache=True, _nrt=False, inline="always")
def step(s):
    ph = s.phase
    if ph < PH_END_TURN and ph != PH_TURN_BEGIN and s.active_died == 1:
        if qb(s, P.R_DEAD_ENDS):
            s.phase = PH_END_TURN
            return
        s.stopped = 1
    if ph <= PH_SID:
        _step0(s, ph)
    elif ph <= PH_DOC_APPLY:
        _step1(s, ph)
    elif ph <= PH_BULLET:
        _step2(s, ph)
    elif ph <= PH_END_ROLLING:
        _step3(s, ph)
    elif ph <= PH_GHOST_GIVE:
        _step4(s, ph)
    elif ph <= PH_BE_DONE:
        _step5(s, ph)
    elif ph <= PH_KIT:
        _step6(s, ph)
    elif ph <= PH_RIGHT_APPLY:
        _step7(s, ph)
    elif ph <= PH_DMG_APPLY:
        _step8(s, ph)
    elif ph <= PH_DMG_VULTURE:
        _step9(s, ph)
    elif ph <= PH_HEAL_APPLY:
        _step10(s, ph)
    elif ph <= PH_REVEAL:
        _step11(s, ph)


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


# ================================================================ decisions
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
        if qb(s, P.R_BE_WASTE) or c == 0:
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
        mx = _bart_max(s, s.react_seat)
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


@nb.njit(cache=True, _nrt=False)
def do_choice(s, action):
    k = act_kind(action)
    x = act_arg(action)
    a = s.active
    s.n_leg = 0
    s.dkind = D_NONE
    dec = s.decider
    s.decider = -1
    if k == D_GOOD:
        if x == 1:
            s.rv_arg = 0
            start_reveal(s, a, PH_START_REVEAL_APPLY)
    elif k == D_UGLY:
        if x > 0:
            s.rv_arg = x
            start_reveal(s, a, PH_START_REVEAL_APPLY)
    elif k == D_SID:
        start_heal(s, x, qi(s, P.SID_HEAL), HS_SID, a, PH_SALOON)
    elif k == D_SALOON:
        s.saloon = x
        log_event(s, EV_SALOON, a, x, 0, 0)
        if x == 1 or x == 2:
            s.die_type[s.nd - 1] = DT_LOUD if x == 1 else DT_COWARD
        elif x == 3 or x == 4:
            s.die_type[s.nd] = DT_LOUD if x == 3 else DT_COWARD
            s.nd += 1
    elif k == D_DOC:
        if x > 0:
            s.doc_die = (x - 1) >> 3
            s.doc_k = (x - 1) & 7
            s.rv_arg = x
            start_reveal(s, dec, PH_DOC_APPLY)
    elif k == D_ELENA:
        if x > 0:
            s.ar_elena = x - 1
            log_event(s, EV_ELENA, a, x - 1, 0, 0)
    elif k == D_ARROW:
        do_arrow(s, x)
    elif k == D_BROKEN:
        s.broken_owed -= 1
        s.arrows[x] -= 1
        s.pile += 1
        log_event(s, EV_BROKEN, a, x, 0, 0)
    elif k == D_REROLL:
        log_event(s, EV_REROLL, a, x, s.roll_no, 0)
        if x == 0:
            s.stopped = 1
            s.phase = PH_END_ROLLING
        else:
            s.reroll_mask = x
            s.phase = PH_ROLL
    elif k == D_GAMBLER:
        if x == 1:
            s.rv_arg = a
            start_reveal(s, dec, PH_GAMBLER_APPLY)
    elif k == D_BE:
        s.be_tgt[s.be_i] = x if x < 8 else -1
        s.be_i += 1
    elif k == D_SLAB:
        if x > 0:
            s.slab_tgt = x - 1
            s.n_beer -= 1
            log_event(s, EV_SLAB, a, x - 1, 0, 0)
    elif k == D_BEER:
        s.beer_i += 1
        amt = 1
        if x == a and s.char[a] == JESSE:
            low = s.jesse_low == 1 if qb(s, P.R_JESSE_ONCE) else s.life[a] <= qi(s, P.JESSE_THR)
            if low:
                amt = qi(s, P.JESSE_HEAL)
        start_heal(s, x, amt, HS_BEER, a, PH_BEER)
    elif k == D_KIT:
        if x == 0:
            s.kit_left = 0
        else:
            s.kit_left -= 1
            discard_one(s, x - 1)
            log_event(s, EV_DISCARD, x - 1, 1, DR_KIT, a)
    elif k == D_BART:
        b = s.react_seat
        if x > 0:
            s.bt_amt[b] -= x
            for _ in range(x):
                take_token(s, b, False)
            log_event(s, EV_BART, b, x, 0, 0)
    elif k == D_MOLLY:
        if x > 0:
            t = s.react_seat
            s.bt_amt[t] -= x
            s.bt_amt[dec] += x
            log_event(s, EV_MOLLY, dec, t, x, 0)
    elif k == D_LEFT:
        if x == 1:
            s.rv_arg = s.react_seat
            start_reveal(s, dec, PH_DMG_LEFT_APPLY)
    elif k == D_BAD:
        if x == 1:
            s.rv_arg = s.h_tgt
            start_reveal(s, dec, PH_HEAL_BAD_DONE)
    elif k == D_JUDGE:
        if x == 1:
            s.special_state[dec] = 1
            s.role_known[dec] = 1
            s.special_state[s.rv_seat] = 2
            s.rv_cancel = 1
            log_event(s, EV_JUDGE, dec, s.rv_seat, s.special[s.rv_seat], 0)
        pop(s)
    elif k == D_RIGHT:
        if x == 1:
            s.rv_arg = 0
            start_reveal(s, a, PH_RIGHT_APPLY)
    elif k == D_GHOST:
        f = x >> 3
        t = x & 7
        s.gt_face = f
        s.gt_x2 = 1 if (s.nd >= 2 and s.face[0] == s.face[1]) else 0
        s.gt_holder = t
        s.gt_used = 0
        log_event(s, EV_GHOST_GIVE, a, t, f, s.gt_x2)


@nb.njit(cache=True, _nrt=False)
def run_auto(s):
    guard = 0
    while s.over == 0 and guard < 100000:
        guard += 1
        if s.dkind != D_NONE:
            nl = gen_legal(s, s.leg)
            if nl >= 2:
                s.n_leg = nl
                s.leg_key = leg_key(s)
                return
            if nl == 1:
                do_choice(s, np.int64(s.leg[0]))
            else:
                s.dkind = D_NONE  # nothing to decide (should not happen)
            continue
        s.n_step += 1
        step(s)



# The first compile on two processes (sim.kernel.compile_ahead): run_auto holds most of the engine's compile time,
# so the child, which has less to do, compiles its last steps (the ones this process would reach last, then loads),
# and the legal actions are compiled here, where run_auto needs gen_legal too, instead of in both processes.
CHILD_STEPS = (11, 10, 9, 8, 7)


def COMPILE_IN_CHILD(state, params):
    return {f"_step{k}": (state, state.typeof("phase")) for k in CHILD_STEPS}


def COMPILE_IN_PARENT(state, params):
    return {"legal_actions": (state, params, LEGAL_TYPE)}


# ================================================================ protocol
@nb.njit(cache=True, _nrt=False)
def current_player(s):
    return s.decider


@nb.njit(cache=True, _nrt=False)
def advance(s, p):
    sync_params(s, p)
    run_auto(s)


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


@nb.njit(cache=True, _nrt=False)
def apply_action(s, p, a):
    sync_params(s, p)
    do_choice(s, a)
    run_auto(s)


@nb.njit(cache=True, _nrt=False)
def is_over(s):
    return s.over == 1


GAME_COLUMNS = ("turns", "rounds", "winner_team", "end_reason", "n_alive_at_end", "ghost_seat", "winner_seat")
SEAT_COLUMNS = ("rank", "win", "order", "role", "role_end", "special_role", "character", "life_end", "max_life",
                "damage_dealt", "damage_taken", "arrows_taken", "indian_damage", "turns_taken", "eliminated",
                "eliminated_by", "killed_by_seat", "elim_turn", "ghost", "special_used")
ITEM_CHIEF = N_CHARS + 9


@nb.njit(cache=True, _nrt=False)
def seat_wins(s, i):
    w = s.winner_team
    if s.over == 0 or w == WT_NONE:
        return 0
    if w == WT_LAW:
        return 1 if role_team(s, i) == DEPUTY else 0
    if w == WT_OUTLAWS:
        return 1 if role_team(s, i) == OUTLAW else 0
    return 1 if i == s.winner_seat else 0


@nb.njit(cache=True, _nrt=False)
def write_outcome(s, p, game_int, seat_int, seat_f, items):
    n = s.n
    game_int[0] = s.turn
    game_int[1] = s.rnd
    game_int[2] = s.winner_team
    game_int[3] = s.end_reason
    game_int[4] = n_living(s)
    game_int[5] = s.ghost_seat
    game_int[6] = s.winner_seat
    nw = 0
    for i in range(n):
        nw += seat_wins(s, i)
    k = 0
    for i in range(MAX_PLAYERS):
        for j in range(seat_int.shape[1]):
            seat_int[i, j] = 0
        seat_f[i, 0] = 0.0
        seat_f[i, 1] = 0.0
    for i in range(n):
        w = seat_wins(s, i)
        seat_int[i, 0] = 1 if w == 1 else 2
        seat_int[i, 1] = w
        seat_int[i, 2] = (i - s.first_seat + n) % n
        seat_int[i, 3] = s.role0[i]
        seat_int[i, 4] = s.role[i]
        seat_int[i, 5] = s.special[i] if s.role[i] == s.role0[i] else _dealt_special(s, i)
        seat_int[i, 6] = s.char[i]
        seat_int[i, 7] = s.life[i]
        seat_int[i, 8] = s.max_life0[i]
        seat_int[i, 9] = s.dmg_dealt[i]
        seat_int[i, 10] = s.dmg_taken[i]
        seat_int[i, 11] = s.arrows_taken[i]
        seat_int[i, 12] = s.indian_dmg[i]
        seat_int[i, 13] = s.turns_taken[i]
        seat_int[i, 14] = 1 - s.alive[i]
        seat_int[i, 15] = s.elim_cause[i]
        seat_int[i, 16] = s.killer[i] if s.alive[i] == 0 else -1
        seat_int[i, 17] = s.elim_turn[i]
        seat_int[i, 18] = 1 if i == s.ghost_seat else 0
        seat_int[i, 19] = 1 if s.special_state[i] != 0 else 0
        seat_f[i, 0] = s.life[i]
        seat_f[i, 1] = w / nw if nw > 0 else 1.0 / n  # nobody won (3p, all dead): a draw, split
        if k < items.shape[0]:
            items[k, 0] = i
            items[k, 1] = s.char[i]
            items[k, 2] = 0
            k += 1
        sp = seat_int[i, 5]
        if sp > 0 and k < items.shape[0]:
            items[k, 0] = i
            items[k, 1] = N_CHARS + sp - 1
            items[k, 2] = 0
            k += 1
        if s.chief_turn[i] >= 0 and k < items.shape[0]:
            items[k, 0] = i
            items[k, 1] = ITEM_CHIEF
            items[k, 2] = s.chief_turn[i]
            k += 1
    return k


@nb.njit(cache=True, _nrt=False)
def _dealt_special(s, i):
    """Special role dealt to seat i (The Good swaps cards with the Sheriff)."""
    for j in range(s.n):
        if j != i and s.role[j] == s.role0[i] and s.role0[j] == s.role[i]:
            return s.special[j]
    return s.special[i]
