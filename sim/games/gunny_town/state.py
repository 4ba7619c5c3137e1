"""Gunny Town's state: one numpy record per game, reused game after game; its sizes, enums and hidden fields.

rng, ev, n_ev and log_on are required by the core (chance streams and the event log of `sim replay`); the rest is
the game (RULES.md names every rule it follows).
"""

import numpy as np

from .params import NCHEST, NJOB, NMISSION, NSECRET, NSTORE, WEAPON_NAMES

MAX_PLAYERS = 6
MAX_ITEMS = 256  # item rows (acquisitions) recorded per game; later ones are not recorded
MAX_STEPS = 100_000  # decisions before the kernel stops a game as capped
MAX_EVENTS = 128  # events logged between two decisions (`sim replay`)
AMMO_BUF = 64  # room of the ammunition deck and discard pile (the largest deck has 30 cards)
NJOBS = NJOB
NW = len(WEAPON_NAMES)
N_AMMO_TYPES = 6
MISSION_SLOTS = 6  # room for face-up missions (limits.face_up_missions is at most 6)

# ammunition card types (index into hands): rank by wound severity, Dodge is special
DODGE, HEAD, CHEST, ARM, LEG, FOOT = range(N_AMMO_TYPES)
FAKE = N_AMMO_TYPES  # the defender's fake: he lays no card (not a card type)
RANK = np.array([0, 5, 4, 3, 2, 1], np.int64)
DISCARD_ORDER = np.array([FOOT, LEG, ARM, CHEST, DODGE, HEAD], np.int64)  # automated discards: least useful first

# phases of a turn (RULES.md "Turn"): the active player's ENTRY (first turn), PRE (before the move), EXTRA (the
# paid extra move), POST (after it); a Saloon bet's PAIR; a duel's CCARD, DCARD and WIN (the round winner's choice)
PH_ENTRY, PH_PRE, PH_EXTRA, PH_POST, PH_PAIR, PH_CCARD, PH_DCARD, PH_WIN = range(8)

# loc_state: which location action of the turn is still open
LOC_OPEN, LOC_USED_BEFORE_MOVE, LOC_USED_AFTER_MOVE, LOC_CLOSED = range(4)

# entry squares of the first turn (the ENTER action's field)
ENTRY_STABLES, ENTRY_ARMORY = 0, 1

# location sub-action bits (loc_done)
(
    B_JOB,
    B_GN,
    B_AMMO,
    B_UNIT,
    B_STORE,
    B_ROB,
    B_FREE,
    B_WEAPON,
    B_HORSE,
    B_EXTRA,
    B_CHEST,
    B_BANK,
    B_BET,
    B_ROBSAL,
    B_BRIBE,
    B_TAKEOVER,
) = (1 << i for i in range(16))

# the duel round winner's choice
W_HIT, W_HIT_JOB, W_FRIGHTEN, W_FRIGHTEN_JOB = 0, 1, 2, 3

# round results
R_CANCEL, R_C_WINS, R_D_WINS, R_TIE = 0, 1, 2, 3

# events (text.py words them)
(
    E_TURN,
    E_INCOME,
    E_SKIP,
    E_ENTER,
    E_MOVE,
    E_TAKE_JOB,
    E_PICK_GN,
    E_PICK_AMMO,
    E_BUY_UNIT,
    E_BUY_STORE,
    E_ROB,
    E_FREE_UNIT,
    E_BUY_WEAPON,
    E_BUY_HORSE,
    E_EXTRA,
    E_CHEST,
    E_BET,
    E_BRIBE,
    E_DUEL,
    E_ROUND,
    E_CHOICE,
    E_LP,
    E_JAIL,
    E_MISSION,
    E_SECRET,
    E_REFILL,
    E_END,
    E_PENALTY,
    E_UNDERTAKER,
    E_GIVE,
    E_STORE_PAY,
    E_DUEL_END,
    E_LOSE_JOB,
    E_SETUP,
) = range(34)

# items: (seat, item id, turn)
IT_WEAPON = 0  # +weapon: bought at the Armory
IT_HORSE = IT_WEAPON + NW  # bought at the Stables
IT_JOB = IT_HORSE + 1  # +job: badge taken (location or duel)
IT_STORE = IT_JOB + NJOB  # +store: store acquired
IT_MISSION = IT_STORE + NSTORE  # +card: public mission completed
IT_SECRET = IT_MISSION + NMISSION
IT_ENTRY = IT_SECRET + NSECRET  # +ENTRY_STABLES / ENTRY_ARMORY: starting position chosen
N_ITEM_IDS = IT_ENTRY + 2

END_NONE, END_VP, END_MISSIONS, END_CAP = 0, 1, 2, 3

STATE_DTYPE = np.dtype(
    [
        ("rng", np.uint64, 2),
        ("ev", np.int32, (MAX_EVENTS, 5)),
        ("n_ev", np.int32),
        ("log_on", np.int8),
        ("n", np.int32),
        ("cur", np.int32),
        ("phase", np.int32),
        ("turn", np.int32),
        ("rnd", np.int32),
        ("over", np.int32),
        ("end_trig", np.int32),
        ("end_reason", np.int32),
        ("turn_over", np.int32),
        # players
        ("pos", np.int32, MAX_PLAYERS),
        ("lp", np.int32, MAX_PLAYERS),
        ("gold", np.int32, MAX_PLAYERS),
        ("vp", np.int32, MAX_PLAYERS),
        ("vp_mis", np.int32, MAX_PLAYERS),
        ("vp_sec", np.int32, MAX_PLAYERS),
        ("job", np.int32, MAX_PLAYERS),
        ("horse", np.int32, MAX_PLAYERS),
        ("wmask", np.int32, MAX_PLAYERS),
        ("skip", np.int32, MAX_PLAYERS),
        ("hand", np.int32, (MAX_PLAYERS, N_AMMO_TYPES)),
        ("jail_visits", np.int32, MAX_PLAYERS),
        ("duels_fought", np.int32, MAX_PLAYERS),
        ("duels_won", np.int32, MAX_PLAYERS),
        ("casino_net", np.int32, MAX_PLAYERS),
        ("n_missions", np.int32, MAX_PLAYERS),
        ("n_secret", np.int32, MAX_PLAYERS),
        ("jobs_taken", np.int32, MAX_PLAYERS),
        ("missions_turn", np.int32, MAX_PLAYERS),
        ("ammo_used", np.int32, MAX_PLAYERS),
        ("secret", np.int32, MAX_PLAYERS),
        ("sprog", np.int32, (MAX_PLAYERS, 2)),
        ("mprog", np.int32, (MAX_PLAYERS, MISSION_SLOTS, 2)),
        ("turns_played", np.int32, MAX_PLAYERS),
        ("job_holder", np.int32, NJOBS),
        ("store_owner", np.int32, NSTORE),
        ("store_turn", np.int32, NSTORE),
        # decks
        ("adeck", np.int32, AMMO_BUF),
        ("n_adeck", np.int32),
        ("adisc", np.int32, AMMO_BUF),
        ("n_adisc", np.int32),
        ("cdeck", np.int32, NCHEST),
        ("n_cdeck", np.int32),
        ("cdisc", np.int32, NCHEST),
        ("n_cdisc", np.int32),
        ("sdeck", np.int32, NSECRET),
        ("n_sdeck", np.int32),
        ("sdisc", np.int32, NSECRET),
        ("n_sdisc", np.int32),
        ("mdeck", np.int32, NMISSION),
        ("n_mdeck", np.int32),
        ("face", np.int32, MISSION_SLOTS),
        # the active player's turn
        ("first", np.int32),
        ("loc_state", np.int32),
        ("loc_done", np.int32),
        ("duel_pre", np.int32),
        ("duel_post", np.int32),
        ("challenged", np.int32),
        ("extra_range", np.int32),
        ("bet", np.int32),
        # the duel in progress
        ("d_c", np.int32),
        ("d_t", np.int32),
        ("d_rounds", np.int32),
        ("d_round", np.int32),
        ("d_cap", np.int32),
        ("d_ccard", np.int32),
        ("d_winner", np.int32),
        ("d_loser", np.int32),
        ("d_ret", np.int32),
        ("d_wins", np.int32, 2),
        ("d_faked", np.int32),
        ("d_pen", np.int32),
        # items
        ("it", np.int32, (MAX_ITEMS, 3)),
        ("n_it", np.int32),
        # the ranking key of each seat (VP, then missions, then GN), filled by write_outcome
        ("rank_key", np.int64, MAX_PLAYERS),
        # scratch space for the scripted strategies (no allocation per decision)
        ("scratch", np.float64, 96),
    ]
)

# The fields some seat cannot see (hidden.determinize re-samples exactly these for the deciding seat; the contract
# test checks that strategies declared sees_hidden=False choose the same whatever they hold): the other seats'
# ammunition cards and the deck's order, the challenger's face-down card (for the defender), the other seats'
# secret missions and the secret deck, and the orders of the chest and mission decks.
HIDDEN_FIELDS = ("adeck", "hand", "d_ccard", "sdeck", "secret", "cdeck", "mdeck")
