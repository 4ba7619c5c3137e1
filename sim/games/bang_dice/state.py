"""BANG! The Dice Game's state: one numpy record per game, its structural sizes, the enumerations of the rules,
and the fields a seat cannot see.

Public fields a strategy may read: n, active, turn, rnd (round), life[], max_life[], alive[], ghost_seat, arrows[]
(regular), chief_holder (-2 module off, -1 in the pile, else a seat), pile, char[], sheriff (the current Sheriff's
seat), role[] where role_known[i] = 1 (the Sheriff, the 3-player game, dead players, revealed special roles),
special[] where special_state[i] != 0 (0 hidden, 1 revealed or used, 2 cancelled by The Judge), the dice (nd,
face[], die_type[], roll_no, max_roll, preset = the Ghost token's dice), be_kind[]/be_tgt[]/n_be/be_i, n_beer,
gat (Gatling points this turn), the belief counters dmg_to_sheriff[seat], heal_to_sheriff[seat], hit_by[attacker,
victim], healed_by[healer, target], target3[] (3-player targets), lms (3-player last-man-standing mode),
gt_face/gt_x2/gt_holder (the Ghost token), bt_amt[] and bt_src (the pending damage batch).
HIDDEN_FIELDS lists the rest a seat may not read.

Scripted dice (tests): forced[0:n_forced] holds face codes consumed in order by roll_die before the chance stream
(forced_pos = the next); dice roll in index order.  tests/bang_dice_util.py `build()` makes hand-built states.
"""

import numba as nb
import numpy as np

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
FACE_NAMES = (
    "Arrow",
    "Dynamite",
    "Bull's Eye 1",
    "Bull's Eye 2",
    "Beer",
    "Gatling",
    "Broken Arrow",
    "Bullet",
    "double Bull's Eye 1",
    "double Bull's Eye 2",
    "double Beer",
    "double Gatling",
)
DT_BASE, DT_LOUD, DT_COWARD = 0, 1, 2
DIE_FACES = np.array(
    [
        [ARROW, DYN, BE1, BE2, BEER, GAT],
        [ARROW, DYN, BE1X2, BE2X2, BULLET, GATX2],
        [ARROW, DYN, BE1, BROKEN, BEER, BEERX2],
    ],
    np.int8,
)

# roles and special roles
SHERIFF, DEPUTY, OUTLAW, RENEGADE = 0, 1, 2, 3
ROLE_NAMES = ("Sheriff", "Deputy", "Outlaw", "Renegade")
SP_NONE, BEAR, GOOD, DOC, JUDGE, GAMBLER, BAD, UGLY, RIGHT, LEFT = range(10)
SPECIAL_NAMES = (
    "none",
    "The Bear",
    "The Good",
    "The Doc",
    "The Judge",
    "The Gambler",
    "The Bad",
    "The Ugly",
    "Right Hand of the Devil",
    "Left Hand of the Devil",
)

# characters (index = order in the data file; checked below)
(
    BART,
    BLACKJACK,
    CALAMITY,
    GRINGO,
    JESSE,
    JOURDONNAIS,
    KIT,
    LUCKY,
    PAUL,
    PEDRO,
    ROSE,
    SID,
    SLAB,
    SUZY,
    VULTURE,
    WILLY,
    JOSE,
    TEQUILA,
    APACHE,
    BILL,
    ELENA,
    VERA,
    DOCH,
    MOLLY,
) = range(24)
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
END_LABELS = ["not_over", "sheriff_dead", "outlaws_renegades_dead", "personal_kill", "last_man_standing", "all_dead"]

# phases
(
    PH_TURN_BEGIN,
    PH_START_SPECIAL,
    PH_START_REVEAL_APPLY,
    PH_SID,
    PH_SALOON,
    PH_ROLL,
    PH_AFTER_ROLL,
    PH_DOC_APPLY,
    PH_ARROWS,
    PH_ARROW_LOOP,
    PH_BROKEN,
    PH_BULLET,
    PH_DYNAMITE,
    PH_DYN_DONE,
    PH_REROLL,
    PH_END_ROLLING,
    PH_GAMBLER_APPLY,
    PH_BILL,
    PH_RESOLVE,
    PH_GHOST_GIVE,
    PH_BE_ASSIGN,
    PH_SLAB,
    PH_BE_APPLY,
    PH_BE_DONE,
    PH_BEER_SETUP,
    PH_BEER,
    PH_GATLING,
    PH_KIT,
    PH_GATLING_FIRE,
    PH_SUZY,
    PH_END_TURN,
    PH_RIGHT_APPLY,
    PH_NEXT_TURN,
    # sub-procedures (damage batch, heal, reveal), entered with push_return and left with pop_return
    PH_DMG_BART,
    PH_DMG_MOLLY,
    PH_DMG_APPLY,
    PH_DMG_LEFT,
    PH_DMG_LEFT_APPLY,
    PH_DMG_ELIM,
    PH_DMG_VULTURE,
    PH_DMG_GRINGO,
    PH_HEAL,
    PH_HEAL_BAD_DONE,
    PH_HEAL_APPLY,
    PH_REVEAL,
    PH_OVER,
) = range(46)

# event kinds (rows: kind, a, b, c, d)
(
    EV_SEAT,
    EV_TURN,
    EV_SALOON,
    EV_ROLL,
    EV_REROLL,
    EV_ARROW,
    EV_INDIANS,
    EV_DAMAGE,
    EV_HEAL,
    EV_ELIM,
    EV_GHOST,
    EV_REVEAL,
    EV_JUDGE,
    EV_SHOT,
    EV_GATLING,
    EV_DYNAMITE,
    EV_BROKEN,
    EV_BULLET,
    EV_DISCARD,
    EV_BART,
    EV_MOLLY,
    EV_DOC,
    EV_GAMBLE,
    EV_GHOST_GIVE,
    EV_PRESET,
    EV_STEAL,
    EV_ELENA,
    EV_UGLY,
    EV_GOOD,
    EV_EXTRA,
    EV_SLAB,
    EV_WIN,
    EV_LEFT,
    EV_BAD,
    EV_KEEP_FINAL,
    EV_TURN_END,
) = range(36)
# discard reasons
DR_GATLING, DR_KIT, DR_PEDRO, DR_LEFT, DR_GAMBLER = range(5)

STATE_DTYPE = np.dtype(
    [
        ("rng", np.uint64, (2,)),
        ("ev", np.int32, (MAX_EVENTS, 5)),
        ("n_ev", np.int32),
        ("log_on", np.int8),
        # game
        ("n", np.int8),
        ("over", np.int8),
        ("three", np.int8),
        ("lms", np.int8),
        ("winner_team", np.int8),
        ("winner_seat", np.int8),
        ("end_reason", np.int8),
        ("phase", np.int16),
        ("dkind", np.int8),
        ("decider", np.int8),
        ("ret_stack", np.int16, (STACK,)),
        ("ret_depth", np.int8),
        ("active", np.int8),
        ("first_seat", np.int8),
        ("sheriff", np.int8),
        ("turn", np.int16),
        ("rnd", np.int16),
        ("n_dead", np.int8),
        ("active_died", np.int8),
        ("extra_turn", np.int8),
        # seats
        ("role", np.int8, (MAX_PLAYERS,)),
        ("special", np.int8, (MAX_PLAYERS,)),
        ("special_state", np.int8, (MAX_PLAYERS,)),
        ("role_known", np.int8, (MAX_PLAYERS,)),
        ("char", np.int8, (MAX_PLAYERS,)),
        ("life", np.int16, (MAX_PLAYERS,)),
        ("max_life", np.int16, (MAX_PLAYERS,)),
        ("max_life0", np.int16, (MAX_PLAYERS,)),
        ("alive", np.int8, (MAX_PLAYERS,)),
        ("target3", np.int8, (MAX_PLAYERS,)),
        ("ghost_seat", np.int8),
        ("ghost_done", np.int8),
        ("ghost_team", np.int8),
        # arrows
        ("arrows", np.int8, (MAX_PLAYERS,)),
        ("pile", np.int8),
        ("chief_holder", np.int8),
        # dice
        ("nd", np.int8),
        ("face", np.int8, (MAX_DICE,)),
        ("die_type", np.int8, (MAX_DICE,)),
        ("roll_no", np.int8),
        ("max_roll", np.int8),
        ("preset", np.int8),
        ("rolled", np.int8),
        ("reroll_mask", np.int8),
        ("stopped", np.int8),
        ("gambled", np.int8),
        ("ignore_arrows", np.int8),
        ("saloon", np.int8),
        # on-roll work
        ("ar_owed", np.int8),
        ("ar_elena", np.int8),
        ("ar_taker", np.int8),
        ("ar_next", np.int16),
        ("broken_owed", np.int8),
        # resolution
        ("be_kind", np.int8, (MAX_UNITS,)),
        ("be_tgt", np.int8, (MAX_UNITS,)),
        ("be_half", np.int8, (MAX_UNITS,)),
        ("roll_took", np.int8),
        ("roll_chief", np.int8),
        ("roll_attack", np.int8),
        ("n_be", np.int8),
        ("be_i", np.int8),
        ("slab_tgt", np.int8),
        ("n_beer", np.int8),
        ("beer_i", np.int8),
        ("jesse_low", np.int8),
        ("gat", np.int8),
        ("gat_units", np.int8),
        ("fire", np.int8),
        ("kit_left", np.int8),
        # damage batch
        ("bt_amt", np.int16, (MAX_PLAYERS,)),
        ("bt_src", np.int8),
        ("bt_shooter", np.int8),
        ("bt_i", np.int8),
        ("bt_no_gringo", np.int8),
        ("bt_newly", np.int16),
        ("react_seat", np.int8),
        ("vult_left", np.int8),
        ("gringo_owed", np.int8),
        ("gringo_seat", np.int8),
        # heal
        ("h_tgt", np.int8),
        ("h_amt", np.int8),
        ("h_src", np.int8),
        ("h_healer", np.int8),
        # reveal: who reveals, cancelled by The Judge, the seat it acts on (-1 none; The Ugly swaps the arrows of
        # rv_target and rv_target2, The Doc turns a die of the roller, The Good swaps roles with the Sheriff)
        ("rv_seat", np.int8),
        ("rv_cancel", np.int8),
        ("rv_target", np.int16),
        ("rv_target2", np.int8),
        # doc
        ("doc_die", np.int8),
        ("doc_k", np.int8),
        # ghost tokens
        ("gt_face", np.int8),
        ("gt_x2", np.int8),
        ("gt_holder", np.int8),
        ("gt_used", np.int8),
        # statistics / public belief counters
        ("dmg_dealt", np.int16, (MAX_PLAYERS,)),
        ("dmg_taken", np.int16, (MAX_PLAYERS,)),
        ("arrows_taken", np.int16, (MAX_PLAYERS,)),
        ("indian_dmg", np.int16, (MAX_PLAYERS,)),
        ("turns_taken", np.int16, (MAX_PLAYERS,)),
        ("elim_cause", np.int8, (MAX_PLAYERS,)),
        ("killer", np.int8, (MAX_PLAYERS,)),
        ("elim_turn", np.int16, (MAX_PLAYERS,)),
        ("dmg_to_sheriff", np.int16, (MAX_PLAYERS,)),
        ("heal_to_sheriff", np.int16, (MAX_PLAYERS,)),
        ("hit_by", np.int16, (MAX_PLAYERS, MAX_PLAYERS)),
        ("healed_by", np.int16, (MAX_PLAYERS, MAX_PLAYERS)),
        ("chief_turn", np.int16, (MAX_PLAYERS,)),
        # scripted dice for tests: face codes consumed before the RNG
        ("forced", np.int8, (MAX_FORCED,)),
        ("n_forced", np.int16),
        ("forced_pos", np.int16),
        ("role0", np.int8, (MAX_PLAYERS,)),
        ("ghost_turn", np.int8),
        ("leg", np.int64, (MAX_ACTIONS,)),
        ("n_step", np.int32),
        # copy of the parameter vector (synced at every entry point): hot code never touches the array p
        ("pf", np.float64, (P.N_PARAMS,)),
        # legal list of the pending decision as run_auto left it (leg[:n_leg]), valid while (dkind, decider, phase,
        # n_step) still match the key: legal_actions copies it instead of regenerating
        ("n_leg", np.int32),
        ("leg_key", np.int64),
    ]
)


# What a seat cannot see: the roles and special roles of the other seats, except where role_known / special_state
# make them public (hidden.determinize re-deals exactly these, and the contract test checks that the strategies
# declared sees_hidden=False choose the same whatever they hold).
HIDDEN_FIELDS = ("role", "role0", "special")

# ---------------------------------------------------------------- compile time: one compiled copy per helper
# numba compiles a function once per distinct tuple of argument types at its call sites, and a module constant
# passed as an argument is typed as its literal value: decide(s, D_BE, a) and decide(s, D_BAD, b) would be two
# compiled functions, and so would a call with an int8 state field where another passes an int64.  So a helper
# called from several places either declares its signature (`declared(on_state(...))`: compiled once, at its
# first use, the arguments widened to int64 at the call, which numba's arithmetic does anyway) or, when it is a
# one-line setter, is inlined (inline="always"); compiling each helper once about halves the first compile.
STATE = nb.from_dtype(STATE_DTYPE)  # numba type of one state record (states[i])
I64, BOOL, F64, VOID = nb.int64, nb.boolean, nb.float64, nb.void


def on_state(ret, *args):
    """Signature ret(state, *args) of a jitted helper (compiled once, at first use, for every caller)."""
    return ret(STATE, *args)


@nb.njit(cache=True, _nrt=False, inline="always")
def param_int(s, i):
    """Parameter i as an integer, read from the state's copy of the parameter vector (s.pf)."""
    return np.int64(s.pf[i])


@nb.njit(cache=True, _nrt=False, inline="always")
def param_on(s, i):
    """Parameter i as a switch (on when non-zero), read from s.pf."""
    return s.pf[i] != 0.0


@nb.njit(cache=True, _nrt=False)
def sync_params(s, p):
    """Copy p into s.pf.  Passing the array p into non-inlined functions made numba incref/decref its meminfo on
    every call (two atomics per phase step, and cache-line ping-pong between threads sharing p)."""
    for i in range(P.N_PARAMS):
        s.pf[i] = p[i]
