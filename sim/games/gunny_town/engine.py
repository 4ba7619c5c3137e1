"""Gunny Town rules, jitted.  One state record per game; see RULES.md for every rule and reading.

Turn = phases of one active player: ENTRY (first turn only), PRE (duel / location action at the start square /
mission specials / the mandatory MOVE), EXTRA (the paid 2-square move after arriving at Stables/Stagecoach),
POST (duel / location action at the arrival square / END).  A duel inserts CCARD (challenger's card), DCARD
(defender's card or fake) and WIN (the round winner's choice) phases, decided by whoever acts; a Saloon bet
inserts PAIR (the body parts named).  Missions are claimed automatically the moment their requirement is met
(best VP first, at most limits.missions_per_turn per player per turn); see RULES.md "Missions".
"""
import numba as nb
import numpy as np

from sim.events import log_event
from sim.kernel import one_copy
from sim.rng import shuffle

from .params import (
    AMMO_ANATOMICAL, AMMO_UNIFORM, C_BECOME, C_BRIBE, C_BUY, C_BUY_STORE, C_CASINO_WIN, C_FRIGHTEN,
    C_GIVE, C_HIT, C_HIT_DISTINCT, C_HIT_JOB, C_HIT_NEXT, C_KILL, C_KILL_JOB, C_NONE, C_OWN_STORES, C_ROB,
    C_USE_AMMO, C_WIN_DUEL, DIST, F_BANK, F_BRIBE, F_CASINO, F_CHEST, F_EXTRA, F_FORT, F_HORSE, F_ROBSAL,
    F_WEAPONS, J_BANKER, J_SHERIFF, J_UNDERTAKER, L_ARMORY, L_BANK, L_JAIL, L_STABLES, LOC_AT, LOC_FLAGS, LOC_JOB,
    LOC_SQ, LOC_STORE, MCOMP, MTIER, NCHEST, NMISSION, NSECRET, NSQ, NSTORE, P_AMMO_CUSTOM, P_AMMO_DECK,
    P_BADGE_FIRST, P_BANDIT_GN, P_BANKER, P_BANKER_BONUS, P_BRIBE_COST, P_CASINO_CAP, P_CASINO_GROSS, P_CASINO_MULT,
    P_CASINO_PARTS, P_CHEST, P_DUELS_PER_SIDE, P_ENTRY_USES_ACTION, P_EXTRA_COST, P_EXTRA_SQ,
    P_EXTRA_USES_ACTION, P_FACE_UP, P_FINISH_ROUND, P_FORT_BONUS, P_HAND_MAX, P_HIT_DISTINCT_CAP,
    P_HORSE_COST, P_JAIL_LP, P_JAIL_VP,
    P_JOB, P_LOC_AMMO, P_LOC_GN, P_LP_MAX, P_MIN_MOVE, P_MISSION, P_MISSION_EXTRA, P_MISSIONS_PER_TURN,
    P_MOVE_END_LOC, P_MOVE_FOOT, P_MOVE_HORSE, P_MULTI_WEAPONS, P_NEIGHBOUR, P_OVERMATCH_EQUAL, P_ROB_BANK,
    P_R_FAKE, P_R_HTH, P_R_SHERIFF_PEN, P_R_UNARMED,
    P_ROB_SALOON, P_ROB_STORE, P_ROB_STORE_CARDS, P_ROUND_CAP, P_SECRET, P_SECRET_ANYTIME, P_SECRET_IN_LIMIT,
    P_SHERIFF_PENALTY, P_START_AMMO_FIXED, P_START_AMMO_MODE, P_START_GOLD, P_START_LP, P_STORE,
    P_STORE_MISSION_EXTRA, P_STORE_ONE_SUB, P_UNDERTAKER_BONUS, P_UNDERTAKER_SELF, P_VP_TARGET, P_WEAPON,
    P_WEAPON_RANGE_ON, SCOMP, SIGHT, STORE_SELLS_LP,
    STREET,
)

MAX_PLAYERS = 6
MAX_ACTIONS = 160
MAX_ITEMS = 256
MAX_STEPS = 100_000
MAX_EVENTS = 128
AMMO_BUF = 64
NJOBS = 6
NW = 5

# ammunition card types (index into hands): rank by wound severity, Dodge is special
DODGE, HEAD, CHEST, ARM, LEG, FOOT = 0, 1, 2, 3, 4, 5
FAKE = 6
RANK = np.array([0, 5, 4, 3, 2, 1], np.int64)
DISCARD_ORDER = np.array([FOOT, LEG, ARM, CHEST, DODGE, HEAD], np.int64)   # automated discards: least useful first

# phases
PH_ENTRY, PH_PRE, PH_EXTRA, PH_POST, PH_PAIR, PH_CCARD, PH_DCARD, PH_WIN = range(8)

# action kinds: action = kind * ACT + argument (arguments stay below ACT; bets are capped there)
ACT = 1_000_000
K_ENTER, K_MOVE, K_MOVE2, K_END, K_DUEL, K_CCARD, K_DCARD, K_WIN, K_TAKE_JOB, K_PICK_GN, K_PICK_AMMO, \
    K_BUY_UNIT, K_BUY_STORE, K_ROB_STORE, K_FREE_UNIT, K_TAKEOVER, K_STORE_PAY, K_BUY_WEAPON, K_BUY_HORSE, \
    K_EXTRA, K_CHEST, K_ROB_BANK, K_BET, K_PAIR, K_ROB_SALOON, K_BRIBE, K_GIVE = range(27)
N_KINDS = 27

# location sub-action bits (loc_done)
B_JOB, B_GN, B_AMMO, B_UNIT, B_STORE, B_ROB, B_FREE, B_WEAPON, B_HORSE, B_EXTRA, B_CHEST, B_BANK, B_BET, \
    B_ROBSAL, B_BRIBE, B_TAKEOVER = (1 << i for i in range(16))

# winner's choice
W_HIT, W_HIT_JOB, W_FRIGHTEN, W_FRIGHTEN_JOB = 0, 1, 2, 3

# events
(E_TURN, E_INCOME, E_SKIP, E_ENTER, E_MOVE, E_TAKE_JOB, E_PICK_GN, E_PICK_AMMO, E_BUY_UNIT, E_BUY_STORE, E_ROB,
 E_FREE_UNIT, E_BUY_WEAPON, E_BUY_HORSE, E_EXTRA, E_CHEST, E_BET, E_BRIBE, E_DUEL, E_ROUND, E_CHOICE, E_LP,
 E_JAIL, E_MISSION, E_SECRET, E_REFILL, E_END, E_PENALTY, E_UNDERTAKER, E_GIVE, E_STORE_PAY, E_DUEL_END,
 E_LOSE_JOB, E_SETUP) = range(34)

# round results
R_CANCEL, R_C_WINS, R_D_WINS, R_TIE = 0, 1, 2, 3

# items: (seat, item id, turn)
IT_WEAPON = 0          # +weapon: bought at the Armory
IT_HORSE = 5           # bought at the Stables
IT_JOB = 6             # +job: badge taken (location or duel)
IT_STORE = 12          # +store: store acquired
IT_MISSION = 16        # +card: public mission completed
IT_SECRET = 16 + NMISSION
IT_ENTRY = IT_SECRET + NSECRET   # +0 Stables, +1 Armory: starting position chosen
N_ITEM_IDS = IT_ENTRY + 2

END_NONE, END_VP, END_MISSIONS, END_CAP = 0, 1, 2, 3

STATE_DTYPE = np.dtype([
    ("rng", np.uint64, 2), ("ev", np.int32, (MAX_EVENTS, 5)), ("n_ev", np.int32), ("log_on", np.int8),
    ("n", np.int32), ("cur", np.int32), ("phase", np.int32), ("turn", np.int32), ("rnd", np.int32),
    ("over", np.int32), ("end_trig", np.int32), ("end_reason", np.int32), ("turn_over", np.int32),
    # players
    ("pos", np.int32, MAX_PLAYERS), ("lp", np.int32, MAX_PLAYERS), ("gold", np.int32, MAX_PLAYERS),
    ("vp", np.int32, MAX_PLAYERS), ("vp_mis", np.int32, MAX_PLAYERS), ("vp_sec", np.int32, MAX_PLAYERS),
    ("job", np.int32, MAX_PLAYERS), ("horse", np.int32, MAX_PLAYERS), ("wmask", np.int32, MAX_PLAYERS),
    ("skip", np.int32, MAX_PLAYERS), ("hand", np.int32, (MAX_PLAYERS, 6)),
    ("jail_visits", np.int32, MAX_PLAYERS), ("duels_fought", np.int32, MAX_PLAYERS),
    ("duels_won", np.int32, MAX_PLAYERS), ("casino_net", np.int32, MAX_PLAYERS),
    ("n_missions", np.int32, MAX_PLAYERS), ("n_secret", np.int32, MAX_PLAYERS), ("jobs_taken", np.int32, MAX_PLAYERS),
    ("missions_turn", np.int32, MAX_PLAYERS), ("ammo_used", np.int32, MAX_PLAYERS),
    ("secret", np.int32, MAX_PLAYERS), ("sprog", np.int32, (MAX_PLAYERS, 2)),
    ("mprog", np.int32, (MAX_PLAYERS, 6, 2)), ("turns_played", np.int32, MAX_PLAYERS),
    ("job_holder", np.int32, NJOBS), ("store_owner", np.int32, NSTORE), ("store_turn", np.int32, NSTORE),
    # decks
    ("adeck", np.int32, AMMO_BUF), ("n_adeck", np.int32), ("adisc", np.int32, AMMO_BUF), ("n_adisc", np.int32),
    ("cdeck", np.int32, NCHEST), ("n_cdeck", np.int32), ("cdisc", np.int32, NCHEST), ("n_cdisc", np.int32),
    ("sdeck", np.int32, NSECRET), ("n_sdeck", np.int32), ("sdisc", np.int32, NSECRET), ("n_sdisc", np.int32),
    ("mdeck", np.int32, NMISSION), ("n_mdeck", np.int32), ("face", np.int32, 6),
    # the active player's turn
    ("first", np.int32), ("loc_state", np.int32), ("loc_done", np.int32), ("duel_pre", np.int32),
    ("duel_post", np.int32), ("challenged", np.int32), ("extra_range", np.int32), ("bet", np.int32),
    # the duel in progress
    ("d_c", np.int32), ("d_t", np.int32), ("d_rounds", np.int32), ("d_round", np.int32), ("d_cap", np.int32),
    ("d_ccard", np.int32), ("d_winner", np.int32), ("d_loser", np.int32), ("d_ret", np.int32),
    ("d_wins", np.int32, 2), ("d_faked", np.int32), ("d_pen", np.int32),
    # items
    ("it", np.int32, (MAX_ITEMS, 3)), ("n_it", np.int32),
    # scratch space for the scripted strategies (no allocation per decision)
    ("scratch", np.float64, 96),
])


# ====================================================================== small helpers
@nb.njit(cache=True, inline="always")
def _pi(p, k):
    return np.int64(p[k])


@one_copy()
def _item(s, seat, item_id):
    if s.n_it < MAX_ITEMS:
        s.it[s.n_it, 0] = seat
        s.it[s.n_it, 1] = item_id
        s.it[s.n_it, 2] = s.turn
        s.n_it += 1


@one_copy()
def hand_size(s, pl):
    t = 0
    for c in range(6):
        t += s.hand[pl, c]
    return t


@one_copy()
def n_shooting(s, pl):
    """Cards a challenger can play (every card but Dodge)."""
    return hand_size(s, pl) - s.hand[pl, DODGE]


@one_copy()
def draw_ammo(s, p, pl, k):
    """Draw up to k ammunition cards into pl's hand (never beyond the hand limit); returns cards drawn."""
    got = 0
    for _ in range(k):
        if hand_size(s, pl) >= _pi(p, P_HAND_MAX):
            break
        c = _pop_ammo(s)
        if c < 0:
            break
        s.hand[pl, c] += 1
        got += 1
    return got


@nb.njit(cache=True)
def _pop_ammo(s):
    if s.n_adeck == 0:
        for i in range(s.n_adisc):
            s.adeck[i] = s.adisc[i]
        s.n_adeck = s.n_adisc
        s.n_adisc = 0
        shuffle(s.rng, 0, s.adeck, s.n_adeck)
    if s.n_adeck == 0:
        return -1
    s.n_adeck -= 1
    return s.adeck[s.n_adeck]


@one_copy()
def _to_discard(s, c):
    s.adisc[s.n_adisc] = c
    s.n_adisc += 1


@one_copy()
def _use_card(s, pl, c):
    """pl plays or discards one card of type c from his hand (counts as 'used ammunition')."""
    s.hand[pl, c] -= 1
    _to_discard(s, c)
    s.ammo_used[pl] += 1


@nb.njit(cache=True)
def _cheapest_card(s, pl):
    for i in range(6):
        c = DISCARD_ORDER[i]
        if s.hand[pl, c] > 0:
            return c
    return -1


@one_copy()
def _draw_secret(s, pl):
    if s.n_sdeck == 0:
        for i in range(s.n_sdisc):
            s.sdeck[i] = s.sdisc[i]
        s.n_sdeck = s.n_sdisc
        s.n_sdisc = 0
        shuffle(s.rng, 0, s.sdeck, s.n_sdeck)
    if s.n_sdeck == 0:
        s.secret[pl] = -1
        return
    s.n_sdeck -= 1
    s.secret[pl] = s.sdeck[s.n_sdeck]
    s.sprog[pl, 0] = 0
    s.sprog[pl, 1] = 0


@one_copy()
def neighbour(s, p, pl):
    if _pi(p, P_NEIGHBOUR) == 0:
        return (pl + 1) % s.n
    return (pl + s.n - 1) % s.n


@one_copy()
def stores_owned(s, pl):
    k = 0
    for st in range(NSTORE):
        if s.store_owner[st] == pl:
            k += 1
    return k


@nb.njit(cache=True)
def weapon_cost(p, w):
    return _pi(p, P_WEAPON + 3 * w)


@nb.njit(cache=True)
def weapon_range(p, w):
    if _pi(p, P_WEAPON_RANGE_ON) == 0:
        return 99
    return _pi(p, P_WEAPON + 3 * w + 1)


@nb.njit(cache=True)
def weapon_rounds(p, w):
    return _pi(p, P_WEAPON + 3 * w + 2)


@nb.njit(cache=True)
def best_weapon_cost(s, p, pl):
    best = -1
    for w in range(NW):
        if (s.wmask[pl] >> w) & 1:
            best = max(best, weapon_cost(p, w))
    return best


@one_copy()
def same_location(s, a, b):
    pa = s.pos[a]
    pb = s.pos[b]
    if pa == pb:
        return True
    la = LOC_AT[pa]
    return la >= 0 and la == LOC_AT[pb]


@one_copy()
def hand_to_hand(s, p, a, b):
    """a and b may fight hand to hand: on one location (rule.hand_to_hand=location), or also on one plain street
    square (any_shared_square)."""
    if _pi(p, P_R_HTH) == 1:
        return same_location(s, a, b)
    la = LOC_AT[s.pos[a]]
    return la >= 0 and la == LOC_AT[s.pos[b]]


@one_copy()
def fire_rounds(s, p, a, b):
    """Rounds a can fire at b: the best held weapon reaching b (straight sight within range, or the same
    location); 0 if none reaches.  Hand-to-hand without a weapon is handled by the caller."""
    best = 0
    close = same_location(s, a, b)
    sight = SIGHT[s.pos[a], s.pos[b]]
    for w in range(NW):
        if (s.wmask[a] >> w) & 1:
            if close or (sight >= 0 and sight <= weapon_range(p, w)):
                best = max(best, weapon_rounds(p, w))
    return best


@nb.njit(cache=True)
def can_duel(s, p, c, t):
    if t == c or t >= s.n or s.pos[t] < 0 or s.skip[t] or s.lp[t] <= 0:
        return False
    if (s.challenged >> t) & 1:
        return False
    if n_shooting(s, c) == 0:
        return False
    if hand_to_hand(s, p, c, t):
        return True
    return fire_rounds(s, p, c, t) > 0


@nb.njit(cache=True)
def missions_left(s, p, pl):
    return _pi(p, P_MISSIONS_PER_TURN) - s.missions_turn[pl]


# ====================================================================== gold / life / jail / jobs
@one_copy()
def _gain_lp(s, p, pl, k):
    before = s.lp[pl]
    s.lp[pl] = min(_pi(p, P_LP_MAX), s.lp[pl] + k)
    return s.lp[pl] - before


@nb.njit(cache=True)
def _drop_job(s, pl):
    j = s.job[pl]
    if j >= 0:
        s.job_holder[j] = -1
        s.job[pl] = -1
        log_event(s, E_LOSE_JOB, pl, j, 0, 0)
        if s.secret[pl] < 0:
            _draw_secret(s, pl)


@one_copy()
def _give_job(s, p, pl, j):
    """pl takes badge j (returning his own, G17); 'become' events for missions."""
    if s.job[pl] >= 0:
        s.job_holder[s.job[pl]] = -1
    s.job[pl] = j
    s.job_holder[j] = pl
    s.jobs_taken[pl] += 1
    _item(s, pl, IT_JOB + j)
    log_event(s, E_TAKE_JOB, pl, j, 0, 0)
    _credit(s, p, pl, C_BECOME, j)


@one_copy()
def _lose_lp(s, p, pl, k, by):
    """pl loses k LP; at 0 he goes to jail (by = the player who caused it, -1 none).  Returns True if jailed."""
    s.lp[pl] -= k
    log_event(s, E_LP, pl, -k, s.lp[pl], 0)
    if s.lp[pl] <= 0:
        _jail(s, p, pl, by)
        return True
    return False


@nb.njit(cache=True)
def _jail(s, p, pl, by):
    victim_job = s.job[pl]
    s.lp[pl] = 0
    u = s.job_holder[J_UNDERTAKER]
    if u >= 0 and (u != pl or _pi(p, P_UNDERTAKER_SELF) == 1):
        s.gold[u] += _pi(p, P_UNDERTAKER_BONUS)
        log_event(s, E_UNDERTAKER, u, _pi(p, P_UNDERTAKER_BONUS), pl, 0)
    s.pos[pl] = LOC_SQ[L_JAIL]
    s.skip[pl] = 1
    s.jail_visits[pl] += 1
    _drop_job(s, pl)
    s.horse[pl] = 0
    loss = min(s.vp[pl], _pi(p, P_JAIL_VP))
    s.vp[pl] -= loss
    log_event(s, E_JAIL, pl, by, loss, 0)
    if pl == s.cur:
        s.turn_over = 1
    if by >= 0 and by != pl:
        _credit(s, p, by, C_KILL, 0)
        if victim_job >= 0:
            _credit(s, p, by, C_KILL_JOB, victim_job)


# ====================================================================== missions
@one_copy()
def _progress(kind, arg, cmask, prog, x):
    """New progress of one component of kind `kind` (card argument cmask) for an event with argument x;
    returns -1 when the event does not match."""
    if kind == C_BECOME or kind == C_HIT_JOB or kind == C_KILL_JOB:
        if x >= 0 and ((cmask >> x) & 1):
            return prog + 1
        if kind == C_KILL_JOB and x >= 0:
            return prog + 1
        return -1
    if kind == C_BUY or kind == C_ROB:
        if (cmask >> x) & 1:
            return prog + 1
        return -1
    if kind == C_BUY_STORE:
        return prog + 1 if x == cmask else -1
    if kind == C_HIT_DISTINCT:
        return prog | (1 << x)
    return prog + 1


@one_copy()
def _credit(s, p, pl, kind, x):
    """Event `kind` (argument x) by pl: add progress on every face-up mission and pl's secret mission."""
    if kind == C_HIT_NEXT:
        if x != neighbour(s, p, pl):
            return
    for k in range(6):
        m = s.face[k]
        if m < 0:
            continue
        for c in range(2):
            if MCOMP[m, c, 0] == kind:
                v = _progress(kind, 0, MCOMP[m, c, 1], s.mprog[pl, k, c], x)
                if v >= 0:
                    s.mprog[pl, k, c] = v
    sc = s.secret[pl]
    if sc >= 0 and (s.job[pl] < 0 or _pi(p, P_SECRET_ANYTIME) == 1):
        for c in range(2):
            if SCOMP[sc, c, 0] == kind:
                v = _progress(kind, 0, SCOMP[sc, c, 1], s.sprog[pl, c], x)
                if v >= 0:
                    s.sprog[pl, c] = v


@nb.njit(cache=True)
def _popcount(x):
    k = 0
    while x:
        k += x & 1
        x >>= 1
    return k


@nb.njit(cache=True)
def _comp_done(s, p, pl, kind, cnt, prog):
    if kind == C_NONE:
        return True
    if kind == C_USE_AMMO:
        return s.ammo_used[pl] >= cnt
    if kind == C_OWN_STORES:
        return stores_owned(s, pl) >= cnt
    if kind == C_GIVE:
        return False
    if kind == C_HIT_DISTINCT:
        if _pi(p, P_HIT_DISTINCT_CAP) == 1:
            cnt = min(cnt, s.n - 1)     # "hit 3 different players" with 2 opponents: hit both
        return _popcount(prog) >= cnt
    return prog >= cnt


@nb.njit(cache=True)
def mission_ready(s, p, pl, k):
    m = s.face[k]
    if m < 0:
        return False
    return (_comp_done(s, p, pl, MCOMP[m, 0, 0], MCOMP[m, 0, 2], s.mprog[pl, k, 0])
            and _comp_done(s, p, pl, MCOMP[m, 1, 0], MCOMP[m, 1, 2], s.mprog[pl, k, 1]))


@nb.njit(cache=True)
def secret_ready(s, p, pl):
    sc = s.secret[pl]
    if sc < 0 or (s.job[pl] >= 0 and _pi(p, P_SECRET_ANYTIME) == 0):
        return False
    return (_comp_done(s, p, pl, SCOMP[sc, 0, 0], SCOMP[sc, 0, 2], s.sprog[pl, 0])
            and _comp_done(s, p, pl, SCOMP[sc, 1, 0], SCOMP[sc, 1, 2], s.sprog[pl, 1]))


@one_copy()
def _complete(s, p, pl, k):
    m = s.face[k]
    gn = _pi(p, P_MISSION + 2 * m)
    vp = _pi(p, P_MISSION + 2 * m + 1)
    s.face[k] = -1
    s.gold[pl] += gn
    s.vp[pl] += vp
    s.vp_mis[pl] += vp
    s.n_missions[pl] += 1
    s.missions_turn[pl] += 1
    _item(s, pl, IT_MISSION + m)
    log_event(s, E_MISSION, pl, m, vp, gn)
    if s.vp[pl] >= _pi(p, P_VP_TARGET) and s.end_trig == 0:
        s.end_trig = END_VP


@nb.njit(cache=True)
def _complete_secret(s, p, pl):
    sc = s.secret[pl]
    gn = _pi(p, P_SECRET + 2 * sc)
    vp = _pi(p, P_SECRET + 2 * sc + 1)
    s.gold[pl] += gn
    s.vp[pl] += vp
    s.vp_sec[pl] += vp
    s.n_secret[pl] += 1
    if _pi(p, P_SECRET_IN_LIMIT) == 1:
        s.missions_turn[pl] += 1
    s.sdisc[s.n_sdisc] = sc
    s.n_sdisc += 1
    s.secret[pl] = -1
    _item(s, pl, IT_SECRET + sc)
    log_event(s, E_SECRET, pl, sc, vp, gn)
    if s.job[pl] < 0:
        _draw_secret(s, pl)
    if s.vp[pl] >= _pi(p, P_VP_TARGET) and s.end_trig == 0:
        s.end_trig = END_VP


@nb.njit(cache=True)
def claim(s, p, pl):
    """Claim every mission pl now satisfies, most VP first, within the per-turn limit."""
    while True:
        in_limit = missions_left(s, p, pl) > 0
        best_k = -1
        best_v = -1
        if in_limit:
            for k in range(6):
                if mission_ready(s, p, pl, k):
                    m = s.face[k]
                    v = 100 * _pi(p, P_MISSION + 2 * m + 1) + _pi(p, P_MISSION + 2 * m)
                    if v > best_v:
                        best_v = v
                        best_k = k
        sec_ok = (in_limit or _pi(p, P_SECRET_IN_LIMIT) == 0) and secret_ready(s, p, pl)
        if sec_ok:
            sc = s.secret[pl]
            v = 100 * _pi(p, P_SECRET + 2 * sc + 1) + _pi(p, P_SECRET + 2 * sc)
            if v > best_v:
                _complete_secret(s, p, pl)
                continue
        if best_k >= 0:
            _complete(s, p, pl, best_k)
            continue
        break


@nb.njit(cache=True)
def give_slot(s, p, pl):
    """Face-up slot of a claimable 'give 1 ammunition to each opponent' card, or -1."""
    if missions_left(s, p, pl) <= 0 or hand_size(s, pl) < s.n - 1:
        return -1
    for k in range(6):
        m = s.face[k]
        if m >= 0 and MCOMP[m, 0, 0] == C_GIVE:
            return k
    return -1


@nb.njit(cache=True)
def store_mission_slot(s, st):
    for k in range(6):
        m = s.face[k]
        if m >= 0 and MCOMP[m, 0, 0] == C_BUY_STORE and MCOMP[m, 0, 1] == st:
            return k
    return -1


@nb.njit(cache=True)
def _refill(s, p):
    for k in range(_pi(p, P_FACE_UP)):
        if s.face[k] < 0 and s.n_mdeck > 0:
            s.n_mdeck -= 1
            s.face[k] = s.mdeck[s.n_mdeck]
            for pl in range(MAX_PLAYERS):
                s.mprog[pl, k, 0] = 0
                s.mprog[pl, k, 1] = 0
            log_event(s, E_REFILL, k, s.face[k], MTIER[s.face[k]], s.n_mdeck)
    active = 0
    for k in range(_pi(p, P_FACE_UP)):
        if s.face[k] >= 0:
            active += 1
    if active < _pi(p, P_FACE_UP) and s.end_trig == 0:
        s.end_trig = END_MISSIONS


# ====================================================================== setup and turns
@nb.njit(cache=True)
def setup(s, p, n_players):
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
        s.lp[pl] = _pi(p, P_START_LP)
        s.gold[pl] = _pi(p, P_START_GOLD)
        s.vp[pl] = 0
        s.vp_mis[pl] = 0
        s.vp_sec[pl] = 0
        s.job[pl] = -1
        s.horse[pl] = 0
        s.wmask[pl] = 0
        s.skip[pl] = 0
        for c in range(6):
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
        for k in range(6):
            s.mprog[pl, k, 0] = 0
            s.mprog[pl, k, 1] = 0
    for j in range(NJOBS):
        s.job_holder[j] = -1
    for st in range(NSTORE):
        s.store_owner[st] = -1
        s.store_turn[st] = -1
    # ammunition deck
    mode = _pi(p, P_AMMO_DECK)
    na = 0
    for c in range(6):
        if mode == 0:
            k = AMMO_UNIFORM[c]
        elif mode == 1:
            k = AMMO_ANATOMICAL[c]
        else:
            k = _pi(p, P_AMMO_CUSTOM + c)
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
    # mission deck: per tier shuffle, draw players + 3; tier 3 at the bottom, tier 1 on top (top = end)
    tmp = np.empty(NMISSION, np.int32)
    nm = 0
    per = n + _pi(p, P_MISSION_EXTRA)
    for tier in range(3, 0, -1):
        nt = 0
        for m in range(NMISSION):
            if MTIER[m] == tier:
                tmp[nt] = m
                nt += 1
        shuffle(s.rng, 0, tmp, nt)
        for i in range(min(per, nt)):
            s.mdeck[nm] = tmp[i]
            nm += 1
    s.n_mdeck = nm
    for k in range(6):
        s.face[k] = -1
    _refill(s, p)
    s.end_trig = 0
    # players: secret mission and ammunition
    if _pi(p, P_START_AMMO_MODE) == 0:
        na0 = n - 1
    else:
        na0 = _pi(p, P_START_AMMO_FIXED)
    for pl in range(n):
        _draw_secret(s, pl)
        draw_ammo(s, p, pl, na0)
    log_event(s, E_SETUP, n, s.n_mdeck, na0, 0)
    s.cur = 0
    _start_turn(s, p)


@nb.njit(cache=True)
def _start_turn(s, p):
    """Begin s.cur's turn (the caller guarantees he does not skip it)."""
    pl = s.cur
    s.turn_over = 0
    s.first = 0
    s.loc_state = 0
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
        g = _pi(p, P_BANDIT_GN)
        lpi = 0
        am = 0
    else:
        g = _pi(p, P_JOB + 3 * j)
        lpi = _pi(p, P_JOB + 3 * j + 1)
        am = _pi(p, P_JOB + 3 * j + 2)
    s.gold[pl] += g
    lpi = _gain_lp(s, p, pl, lpi) if lpi > 0 else 0
    am = draw_ammo(s, p, pl, am) if am > 0 else 0
    log_event(s, E_INCOME, pl, g, lpi, am)
    if s.pos[pl] < 0:
        s.phase = PH_ENTRY
    else:
        s.phase = PH_PRE
    claim(s, p, pl)


@nb.njit(cache=True)
def _end_turn(s, p):
    """Refill the missions, check the end, pass to the next player who does not skip."""
    _refill(s, p)
    while True:
        nxt = (s.cur + 1) % s.n
        if nxt == 0:
            s.rnd += 1
        if s.end_trig != 0 and (nxt == 0 or _pi(p, P_FINISH_ROUND) == 0):
            s.over = 1
            s.end_reason = s.end_trig
            log_event(s, E_END, s.end_reason, s.rnd, 0, 0)
            return
        if s.rnd >= _pi(p, P_ROUND_CAP):
            s.over = 1
            s.end_reason = END_CAP
            log_event(s, E_END, END_CAP, s.rnd, 0, 0)
            return
        s.turn += 1
        s.cur = nxt
        if s.skip[nxt]:
            # the skipped turn (jail): no income, no actions; LP restored when it ends (G19)
            s.skip[nxt] = 0
            s.lp[nxt] = min(_pi(p, P_JAIL_LP), _pi(p, P_LP_MAX))
            log_event(s, E_SKIP, nxt, s.lp[nxt], 0, 0)
            continue
        _start_turn(s, p)
        return


# ====================================================================== protocol
@nb.njit(cache=True)
def current_player(s):
    if s.phase == PH_DCARD:
        return s.d_t
    if s.phase == PH_WIN:
        return s.d_winner
    return s.cur


@nb.njit(cache=True)
def is_over(s):
    return s.over != 0


@one_copy()
def move_range(s, p, pl):
    r = _pi(p, P_MOVE_HORSE) if s.horse[pl] else _pi(p, P_MOVE_FOOT)
    return r + s.extra_range


@one_copy()
def _push(out, n, kind, arg):
    out[n] = kind * ACT + arg
    return n + 1


@one_copy()
def _moves(s, p, out, n, kind, lo, hi):
    here = s.pos[s.cur]
    need_loc = _pi(p, P_MOVE_END_LOC) == 1
    for sq in range(NSQ):
        if STREET[sq]:
            d = DIST[here, sq]
            if d >= lo and d <= hi and (not need_loc or LOC_AT[sq] >= 0):
                n = _push(out, n, kind, sq)
    return n


@nb.njit(cache=True)
def _duel_limit_ok(s, p):
    lim = _pi(p, P_DUELS_PER_SIDE)
    if lim == 0:
        return True
    if s.phase == PH_PRE:
        return s.duel_pre < lim
    return s.duel_post < lim


@nb.njit(cache=True)
def bet_amounts(s, p, out, n):
    cap = min(s.gold[s.cur], ACT - 1)
    c = _pi(p, P_CASINO_CAP)
    if c > 0:
        cap = min(cap, c)
    if cap <= 40:
        for a in range(1, cap + 1):
            n = _push(out, n, K_BET, a)
    else:
        for a in range(1, 21):
            n = _push(out, n, K_BET, a)
        for i in range(1, 21):
            a = 20 + ((cap - 20) * i) // 20
            n = _push(out, n, K_BET, a)
    return n


@one_copy()
def _loc_actions(s, p, out, n):
    pl = s.cur
    loc = LOC_AT[s.pos[pl]]
    if loc < 0:
        return n
    done = s.loc_done
    gold = s.gold[pl]
    flags = LOC_FLAGS[loc]
    # job badge
    j = LOC_JOB[loc]
    if loc == L_BANK and _pi(p, P_BANKER) == 1:
        j = J_BANKER
    if j >= 0 and not (done & B_JOB) and s.job_holder[j] < 0:
        n = _push(out, n, K_TAKE_JOB, j)
    # pickups
    g = _pi(p, P_LOC_GN + loc)
    a = _pi(p, P_LOC_AMMO + loc)
    if flags & F_FORT and _pi(p, P_FORT_BONUS) == 1:
        g += a
        a = 0
    if g > 0 and not (done & B_GN):
        n = _push(out, n, K_PICK_GN, g)
    if a > 0 and not (done & B_AMMO) and hand_size(s, pl) < _pi(p, P_HAND_MAX):
        n = _push(out, n, K_PICK_AMMO, a)
    # store
    st = LOC_STORE[loc]
    if st >= 0:
        owner = s.store_owner[st]
        store_done = done & (B_UNIT | B_STORE | B_ROB | B_FREE | B_TAKEOVER)
        one = _pi(p, P_STORE_ONE_SUB) == 1
        useful = (s.lp[pl] < _pi(p, P_LP_MAX)) if STORE_SELLS_LP[st] else (hand_size(s, pl) < _pi(p, P_HAND_MAX))
        if owner == pl:
            if store_done == 0 and s.store_turn[st] != s.turn and useful:
                n = _push(out, n, K_FREE_UNIT, st)
        elif not (done & (B_ROB | B_FREE)):
            price = _pi(p, P_STORE + 2 * st)
            unit = _pi(p, P_STORE + 2 * st + 1)
            if not (done & B_UNIT) and gold >= unit and useful and not (one and store_done):
                n = _push(out, n, K_BUY_UNIT, st)
            if owner < 0 and not (done & B_STORE) and gold >= price and not (one and store_done):
                n = _push(out, n, K_BUY_STORE, st)
            if (owner >= 0 and not (done & B_TAKEOVER) and store_mission_slot(s, st) >= 0
                    and missions_left(s, p, pl) > 0 and gold >= price + _pi(p, P_STORE_MISSION_EXTRA)
                    and not (one and store_done)):
                n = _push(out, n, K_TAKEOVER, st)
            if store_done == 0 and s.wmask[pl] != 0 and hand_size(s, pl) >= _pi(p, P_ROB_STORE_CARDS):
                n = _push(out, n, K_ROB_STORE, st)
    if flags & F_WEAPONS and not (done & B_WEAPON):
        for w in range(NW):
            if gold >= weapon_cost(p, w) and not ((s.wmask[pl] >> w) & 1):
                n = _push(out, n, K_BUY_WEAPON, w)
    if flags & F_HORSE and not (done & B_HORSE) and s.horse[pl] == 0 and gold >= _pi(p, P_HORSE_COST):
        n = _push(out, n, K_BUY_HORSE, 0)
    if flags & F_EXTRA and not (done & B_EXTRA) and gold >= _pi(p, P_EXTRA_COST) and _pi(p, P_EXTRA_SQ) > 0:
        n = _push(out, n, K_EXTRA, 0)
    if flags & F_CHEST and not (done & B_CHEST):
        n = _push(out, n, K_CHEST, 0)
    if flags & F_BANK and not (done & B_BANK) and s.wmask[pl] != 0 and s.hand[pl, HEAD] > 0:
        n = _push(out, n, K_ROB_BANK, 0)
    if flags & F_CASINO and not (done & B_BET) and gold > 0:
        n = bet_amounts(s, p, out, n)
    if flags & F_ROBSAL and not (done & B_ROBSAL) and s.wmask[pl] != 0 and (s.hand[pl, HEAD] + s.hand[pl, CHEST]) > 0:
        n = _push(out, n, K_ROB_SALOON, 0)
    if flags & F_BRIBE and not (done & B_BRIBE) and gold >= _pi(p, P_BRIBE_COST):
        for t in range(s.n):
            if t != pl and s.job[t] >= 0:
                n = _push(out, n, K_BRIBE, t)
    return n


@nb.njit(cache=True)
def _specials(s, p, out, n):
    pl = s.cur
    if give_slot(s, p, pl) >= 0:
        n = _push(out, n, K_GIVE, 0)
    if missions_left(s, p, pl) > 0 and s.gold[pl] >= _pi(p, P_STORE_MISSION_EXTRA):
        for st in range(NSTORE):
            if s.store_owner[st] == pl and store_mission_slot(s, st) >= 0:
                n = _push(out, n, K_STORE_PAY, st)
    return n


@nb.njit(cache=True)
def legal_actions(s, p, out):
    ph = s.phase
    pl = s.cur
    n = 0
    if ph == PH_ENTRY:
        n = _push(out, n, K_ENTER, 0)
        n = _push(out, n, K_ENTER, 1)
        return n
    if ph == PH_PRE or ph == PH_POST:
        if not s.first or ph == PH_POST:
            # the first turn starts with the move (G3): nothing before it
            if _duel_limit_ok(s, p):
                for t in range(s.n):
                    if can_duel(s, p, pl, t):
                        n = _push(out, n, K_DUEL, t)
            st = s.loc_state
            if (ph == PH_PRE and (st == 0 or st == 1)) or (ph == PH_POST and (st == 0 or st == 2)):
                n = _loc_actions(s, p, out, n)
            n = _specials(s, p, out, n)
        if ph == PH_PRE:
            n = _moves(s, p, out, n, K_MOVE, _pi(p, P_MIN_MOVE), move_range(s, p, pl))
        else:
            n = _push(out, n, K_END, 0)
        return n
    if ph == PH_EXTRA:
        n = _moves(s, p, out, n, K_MOVE2, 1, _pi(p, P_EXTRA_SQ))
        if n == 0:
            n = _push(out, n, K_MOVE2, s.pos[pl])
        return n
    if ph == PH_PAIR:
        if _pi(p, P_CASINO_PARTS) >= 2:
            for a in range(1, 6):
                for b in range(a + 1, 6):
                    n = _push(out, n, K_PAIR, a * 8 + b)
        else:
            for a in range(1, 6):
                n = _push(out, n, K_PAIR, a * 8 + a)
        return n
    if ph == PH_CCARD:
        for c in range(1, 6):
            if s.hand[s.d_c, c] > 0:
                n = _push(out, n, K_CCARD, c)
        return n
    if ph == PH_DCARD:
        t = s.d_t
        for c in range(6):
            if s.hand[t, c] > 0:
                n = _push(out, n, K_DCARD, c)
        n = _push(out, n, K_DCARD, FAKE)
        return n
    if ph == PH_WIN:
        lo = s.d_loser
        n = _push(out, n, K_WIN, W_HIT)
        if s.job[lo] >= 0:
            n = _push(out, n, K_WIN, W_HIT_JOB)
        if s.horse[lo] and s.d_faked == 0:
            n = _push(out, n, K_WIN, W_FRIGHTEN)
            if s.job[lo] >= 0:
                n = _push(out, n, K_WIN, W_FRIGHTEN_JOB)
        return n
    return n


@one_copy()
def _mark_loc(s, bit):
    s.loc_done |= bit
    if s.loc_state == 0:
        s.loc_state = 1 if s.phase == PH_PRE else 2


# ---------------------------------------------------------------------- duels
@nb.njit(cache=True)
def _start_duel(s, p, t):
    c = s.cur
    s.challenged |= 1 << t
    if s.phase == PH_PRE:
        s.duel_pre += 1
    else:
        s.duel_post += 1
    s.d_c = c
    s.d_t = t
    s.d_ret = s.phase
    close = hand_to_hand(s, p, c, t)
    r = fire_rounds(s, p, c, t)
    if r == 0:
        r = 1                                   # hand-to-hand without a weapon
    s.d_rounds = r
    cap = fire_rounds(s, p, t, c)
    if cap == 0 and close and _pi(p, P_R_UNARMED) == 0:
        cap = 1                                 # bare hands in a hand-to-hand struggle
    s.d_cap = cap
    s.d_faked = 0
    s.d_pen = 0
    s.d_round = 0
    s.d_wins[0] = 0
    s.d_wins[1] = 0
    s.duels_fought[c] += 1
    s.duels_fought[t] += 1
    log_event(s, E_DUEL, c, t, r, cap)
    s.phase = PH_CCARD


@nb.njit(cache=True)
def _end_duel(s, p):
    log_event(s, E_DUEL_END, s.d_c, s.d_t, s.d_wins[0], s.d_wins[1])
    s.phase = s.d_ret


@nb.njit(cache=True)
def _hit_credits(s, p, w, lo, lo_job):
    _credit(s, p, w, C_HIT, lo)
    _credit(s, p, w, C_HIT_NEXT, lo)
    if lo_job >= 0:
        _credit(s, p, w, C_HIT_JOB, lo_job)
    _credit(s, p, w, C_HIT_DISTINCT, lo)


@nb.njit(cache=True)
def _after_round(s, p):
    c = s.d_c
    t = s.d_t
    if s.skip[c] or s.skip[t]:
        _end_duel(s, p)
        return
    s.d_round += 1
    if s.d_round < s.d_rounds and n_shooting(s, c) > 0:
        s.phase = PH_CCARD
    else:
        _end_duel(s, p)


@nb.njit(cache=True)
def _resolve(s, p, dcard):
    c = s.d_c
    t = s.d_t
    cc = s.d_ccard
    res = R_C_WINS
    s.d_faked = 0
    if dcard == FAKE:
        res = R_C_WINS
        s.d_faked = 1 if _pi(p, P_R_FAKE) == 0 else 0      # he takes the hit: no frighten instead
    elif dcard == DODGE:
        res = R_CANCEL
    else:
        rc = RANK[cc]
        rd = RANK[dcard]
        if s.d_round >= s.d_cap:
            if rd > rc:
                res = R_CANCEL
            elif rd == rc:
                res = R_CANCEL if _pi(p, P_OVERMATCH_EQUAL) == 1 else R_TIE
            else:
                res = R_C_WINS
        else:
            if rd > rc:
                res = R_D_WINS
            elif rd == rc:
                res = R_TIE
            else:
                res = R_C_WINS
    # cards: the challenger's is discarded; the defender's too unless he faked
    _to_discard(s, cc)
    s.ammo_used[c] += 1
    if dcard != FAKE:
        _use_card(s, t, dcard)
    log_event(s, E_ROUND, cc, dcard, res, s.d_round)
    if res == R_CANCEL:
        _end_duel(s, p)
        return
    if res == R_TIE:
        cj = s.job[c]
        tj = s.job[t]
        _hit_credits(s, p, c, t, tj)
        _hit_credits(s, p, t, c, cj)
        _lose_lp(s, p, t, 1, c)
        _lose_lp(s, p, c, 1, t)
        claim(s, p, c)
        claim(s, p, t)
        _after_round(s, p)
        return
    if res == R_C_WINS:
        w = c
        lo = t
        s.d_wins[0] += 1
    else:
        w = t
        lo = c
        s.d_wins[1] += 1
    s.d_winner = w
    s.d_loser = lo
    s.duels_won[w] += 1
    _credit(s, p, w, C_WIN_DUEL, 0)
    if s.job[w] == J_SHERIFF and (s.d_pen == 0 or _pi(p, P_R_SHERIFF_PEN) == 0):
        s.d_pen = 1
        pen = min(_pi(p, P_SHERIFF_PENALTY), s.gold[lo])
        s.gold[lo] -= pen
        s.gold[w] += pen
        log_event(s, E_PENALTY, w, lo, pen, 0)
    if w == t and s.job[t] >= 0:
        # bounty: a job holder who wins a duel started by an opponent accomplishes 'hit the <his job>'
        _credit(s, p, t, C_HIT_JOB, s.job[t])
    if s.job[lo] >= 0 or (s.horse[lo] and s.d_faked == 0):
        s.phase = PH_WIN
    else:
        _winner_choice(s, p, W_HIT)


@nb.njit(cache=True)
def _take_badge(s, p, w, lo, j):
    """The duel's winner takes badge j from the loser (or from the board, if the hit just jailed him)."""
    if s.job[lo] == j:
        s.job_holder[j] = -1
        s.job[lo] = -1
        if s.secret[lo] < 0:
            _draw_secret(s, lo)
    _give_job(s, p, w, j)


@one_copy()
def _winner_choice(s, p, choice):
    w = s.d_winner
    lo = s.d_loser
    lo_job = s.job[lo]
    log_event(s, E_CHOICE, w, lo, choice, 0)
    take = (choice == W_HIT_JOB or choice == W_FRIGHTEN_JOB) and lo_job >= 0
    # by default the hit or the frighten is credited while both still hold what they held (a jobless winner scores
    # his secret "frighten a horse", a killing hit scores "kill a job holder"), then the badge changes hands (from
    # the board if the hit jailed its holder); rule.duel_badge_first: the badge first
    badge_first = _pi(p, P_BADGE_FIRST) == 1
    if take and badge_first:
        _take_badge(s, p, w, lo, lo_job)
    if choice == W_HIT or choice == W_HIT_JOB:
        _hit_credits(s, p, w, lo, lo_job)
        _lose_lp(s, p, lo, 1, w)
    else:
        s.horse[lo] = 0
        _credit(s, p, w, C_FRIGHTEN, 0)
    if take and not badge_first:
        _take_badge(s, p, w, lo, lo_job)
    claim(s, p, w)
    _after_round(s, p)


# ---------------------------------------------------------------------- location sub-actions
@nb.njit(cache=True)
def _chest(s, p, pl):
    if s.n_cdeck == 0:
        for i in range(s.n_cdisc):
            s.cdeck[i] = s.cdisc[i]
        s.n_cdeck = s.n_cdisc
        s.n_cdisc = 0
        shuffle(s.rng, 0, s.cdeck, s.n_cdeck)
    if s.n_cdeck == 0:
        return
    s.n_cdeck -= 1
    c = s.cdeck[s.n_cdeck]
    s.cdisc[s.n_cdisc] = c
    s.n_cdisc += 1
    base = P_CHEST + 5 * c
    log_event(s, E_CHEST, pl, c, 0, 0)
    lp = _pi(p, base)
    gn = _pi(p, base + 1)
    am = _pi(p, base + 2)
    w = _pi(p, base + 3)
    hz = _pi(p, base + 4)
    s.gold[pl] += gn
    if am > 0:
        draw_ammo(s, p, pl, am)
    if w >= 0:
        if _pi(p, P_MULTI_WEAPONS) == 1:
            s.wmask[pl] |= 1 << w
        elif weapon_cost(p, w) > best_weapon_cost(s, p, pl):
            s.wmask[pl] = 1 << w
    if hz > 0:
        s.horse[pl] = 1
    if lp > 0:
        _gain_lp(s, p, pl, lp)
    elif lp < 0:
        _lose_lp(s, p, pl, -lp, -1)


@nb.njit(cache=True)
def _bet(s, p, pair):
    pl = s.cur
    a = pair // 8
    b = pair % 8
    amount = s.bet
    c = _pop_ammo(s)
    if c < 0:
        log_event(s, E_BET, pl, amount, -1, 0)
        return
    _to_discard(s, c)
    if c == a or c == b:
        mult = _pi(p, P_CASINO_MULT)
        gain = amount * mult if _pi(p, P_CASINO_GROSS) == 0 else amount * (mult - 1)
        s.gold[pl] += gain
        s.casino_net[pl] += gain
        log_event(s, E_BET, pl, amount, c, gain)
        _credit(s, p, pl, C_CASINO_WIN, 0)
    else:
        s.gold[pl] -= amount
        s.casino_net[pl] -= amount
        log_event(s, E_BET, pl, amount, c, -amount)


@nb.njit(cache=True)
def _apply_loc(s, p, kind, arg):
    pl = s.cur
    if kind == K_TAKE_JOB:
        _mark_loc(s, B_JOB)
        _give_job(s, p, pl, arg)
    elif kind == K_PICK_GN:
        _mark_loc(s, B_GN)
        s.gold[pl] += arg
        log_event(s, E_PICK_GN, pl, arg, 0, 0)
    elif kind == K_PICK_AMMO:
        _mark_loc(s, B_AMMO)
        got = draw_ammo(s, p, pl, arg)
        log_event(s, E_PICK_AMMO, pl, got, 0, 0)
    elif kind == K_BUY_UNIT or kind == K_FREE_UNIT:
        st = arg
        if kind == K_BUY_UNIT:
            _mark_loc(s, B_UNIT)
            unit = _pi(p, P_STORE + 2 * st + 1)
            s.gold[pl] -= unit
            owner = s.store_owner[st]
            if owner >= 0:
                s.gold[owner] += unit
            log_event(s, E_BUY_UNIT, pl, st, unit, owner)
        else:
            _mark_loc(s, B_FREE)
            log_event(s, E_FREE_UNIT, pl, st, 0, 0)
        if STORE_SELLS_LP[st]:
            _gain_lp(s, p, pl, 1)
        else:
            draw_ammo(s, p, pl, 1)
    elif kind == K_BUY_STORE or kind == K_TAKEOVER:
        st = arg
        price = _pi(p, P_STORE + 2 * st)
        prev = s.store_owner[st]
        if kind == K_TAKEOVER:
            _mark_loc(s, B_TAKEOVER)
            price += _pi(p, P_STORE_MISSION_EXTRA)
        else:
            _mark_loc(s, B_STORE)
        s.gold[pl] -= price
        s.store_owner[st] = pl
        s.store_turn[st] = s.turn
        _item(s, pl, IT_STORE + st)
        log_event(s, E_BUY_STORE, pl, st, price, prev)
        _credit(s, p, pl, C_BUY_STORE, st)
    elif kind == K_ROB_STORE:
        st = arg
        _mark_loc(s, B_ROB)
        for _ in range(_pi(p, P_ROB_STORE_CARDS)):
            c = _cheapest_card(s, pl)
            if c >= 0:
                _use_card(s, pl, c)
        owner = s.store_owner[st]
        g = _pi(p, P_ROB_STORE)
        if owner >= 0:
            g = min(g, s.gold[owner])
            s.gold[owner] -= g
        s.gold[pl] += g
        log_event(s, E_ROB, pl, 1, g, owner)
        _credit(s, p, pl, C_ROB, 1)       # bit 1 = store
    elif kind == K_BUY_WEAPON:
        _mark_loc(s, B_WEAPON)
        s.gold[pl] -= weapon_cost(p, arg)
        if _pi(p, P_MULTI_WEAPONS) == 1:
            s.wmask[pl] |= 1 << arg
        else:
            s.wmask[pl] = 1 << arg
        _item(s, pl, IT_WEAPON + arg)
        log_event(s, E_BUY_WEAPON, pl, arg, weapon_cost(p, arg), 0)
        _credit(s, p, pl, C_BUY, arg)
    elif kind == K_BUY_HORSE:
        _mark_loc(s, B_HORSE)
        s.gold[pl] -= _pi(p, P_HORSE_COST)
        s.horse[pl] = 1
        _item(s, pl, IT_HORSE)
        log_event(s, E_BUY_HORSE, pl, _pi(p, P_HORSE_COST), 0, 0)
        _credit(s, p, pl, C_BUY, 5)
    elif kind == K_EXTRA:
        s.gold[pl] -= _pi(p, P_EXTRA_COST)
        log_event(s, E_EXTRA, pl, _pi(p, P_EXTRA_COST), s.phase, 0)
        uses = _pi(p, P_EXTRA_USES_ACTION) == 1
        if uses:
            _mark_loc(s, B_EXTRA)
        else:
            s.loc_done |= B_EXTRA
        if s.phase == PH_PRE:
            s.extra_range += _pi(p, P_EXTRA_SQ)
        else:
            if uses:
                s.loc_state = 3
            else:
                s.loc_state = 0 if s.loc_state == 0 else 3
            s.phase = PH_EXTRA
    elif kind == K_CHEST:
        _mark_loc(s, B_CHEST)
        _chest(s, p, pl)
    elif kind == K_ROB_BANK:
        _mark_loc(s, B_BANK)
        _use_card(s, pl, HEAD)
        s.gold[pl] += _pi(p, P_ROB_BANK)
        log_event(s, E_ROB, pl, 0, _pi(p, P_ROB_BANK), -1)
        b = s.job_holder[J_BANKER]
        if _pi(p, P_BANKER) == 1 and b >= 0:
            s.gold[b] += _pi(p, P_BANKER_BONUS)
        _credit(s, p, pl, C_ROB, 0)       # bit 0 = bank
    elif kind == K_BET:
        _mark_loc(s, B_BET)
        s.bet = arg
        s.d_ret = s.phase
        s.phase = PH_PAIR
    elif kind == K_ROB_SALOON:
        _mark_loc(s, B_ROBSAL)
        _use_card(s, pl, CHEST if s.hand[pl, CHEST] > 0 else HEAD)
        s.gold[pl] += _pi(p, P_ROB_SALOON)
        log_event(s, E_ROB, pl, 2, _pi(p, P_ROB_SALOON), -1)
        _credit(s, p, pl, C_ROB, 2)       # bit 2 = saloon
    elif kind == K_BRIBE:
        _mark_loc(s, B_BRIBE)
        s.gold[pl] -= _pi(p, P_BRIBE_COST)
        log_event(s, E_BRIBE, pl, arg, s.job[arg], 0)
        _drop_job(s, arg)
        _credit(s, p, pl, C_BRIBE, 0)


@nb.njit(cache=True)
def apply_action(s, p, a):
    kind = a // ACT
    arg = a % ACT
    pl = s.cur
    if kind == K_ENTER:
        loc = L_STABLES if arg == 0 else L_ARMORY
        s.pos[pl] = LOC_SQ[loc]
        if arg == 0:
            s.horse[pl] = 1
        else:
            s.wmask[pl] = 1 if _pi(p, P_MULTI_WEAPONS) == 0 else (s.wmask[pl] | 1)
        _item(s, pl, IT_ENTRY + arg)
        log_event(s, E_ENTER, pl, loc, 0, 0)
        s.first = 1
        if _pi(p, P_ENTRY_USES_ACTION) == 1:
            s.loc_state = 3
        s.phase = PH_PRE
    elif kind == K_MOVE or kind == K_MOVE2:
        log_event(s, E_MOVE, pl, s.pos[pl], arg, kind - K_MOVE)
        s.pos[pl] = arg
        if s.loc_state == 1:
            s.loc_state = 3
        s.phase = PH_POST
    elif kind == K_END:
        s.turn_over = 1
    elif kind == K_DUEL:
        _start_duel(s, p, arg)
    elif kind == K_CCARD:
        s.d_ccard = arg
        s.hand[s.d_c, arg] -= 1
        s.phase = PH_DCARD
    elif kind == K_DCARD:
        _resolve(s, p, arg)
    elif kind == K_WIN:
        _winner_choice(s, p, arg)
    elif kind == K_PAIR:
        _bet(s, p, arg)
        s.phase = s.d_ret
    elif kind == K_GIVE:
        k = give_slot(s, p, pl)
        for q in range(s.n):
            if q != pl:
                c = _cheapest_card(s, pl)
                s.hand[pl, c] -= 1
                if hand_size(s, q) < _pi(p, P_HAND_MAX):
                    s.hand[q, c] += 1
                else:
                    _to_discard(s, c)
        log_event(s, E_GIVE, pl, s.n - 1, 0, 0)
        _complete(s, p, pl, k)
    elif kind == K_STORE_PAY:
        s.gold[pl] -= _pi(p, P_STORE_MISSION_EXTRA)
        log_event(s, E_STORE_PAY, pl, arg, _pi(p, P_STORE_MISSION_EXTRA), 0)
        _credit(s, p, pl, C_BUY_STORE, arg)
    else:
        _apply_loc(s, p, kind, arg)
    if s.phase != PH_DCARD and s.phase != PH_WIN and s.phase != PH_CCARD:
        claim(s, p, pl)
    if s.turn_over and s.phase != PH_CCARD and s.phase != PH_DCARD and s.phase != PH_WIN and s.phase != PH_PAIR:
        _end_turn(s, p)


# ====================================================================== outcome
GAME_COLUMNS = ("rounds", "turns", "end_reason", "missions_left_in_deck")
SEAT_COLUMNS = ("rank", "win", "order", "vp_missions", "vp_secret", "vp_other", "vp_total", "gold",
                "duels_fought", "duels_won", "jail_visits", "jobs_held", "stores_owned", "casino_net",
                "missions", "secret_missions", "turns_played", "final_job")


@nb.njit(cache=True)
def _better(s, a, b):
    """True if seat a beats seat b: VP, then non-secret missions, then GN."""
    if s.vp[a] != s.vp[b]:
        return s.vp[a] > s.vp[b]
    if s.n_missions[a] != s.n_missions[b]:
        return s.n_missions[a] > s.n_missions[b]
    return s.gold[a] > s.gold[b]


@nb.njit(cache=True)
def write_outcome(s, p, game_int, seat_int, seat_f, items):
    n = s.n
    game_int[0] = s.rnd
    game_int[1] = s.turn + 1
    game_int[2] = s.end_reason
    game_int[3] = s.n_mdeck
    n_win = 0
    for i in range(n):
        better = 0
        for j in range(n):
            if j != i and _better(s, j, i):
                better += 1
        seat_int[i, 0] = better + 1
        if better == 0:
            n_win += 1
    for i in range(n):
        win = 1 if seat_int[i, 0] == 1 else 0
        seat_int[i, 1] = win
        seat_int[i, 2] = i
        seat_int[i, 3] = s.vp_mis[i]
        seat_int[i, 4] = s.vp_sec[i]
        seat_int[i, 5] = s.vp[i] - s.vp_mis[i] - s.vp_sec[i]
        seat_int[i, 6] = s.vp[i]
        seat_int[i, 7] = s.gold[i]
        seat_int[i, 8] = s.duels_fought[i]
        seat_int[i, 9] = s.duels_won[i]
        seat_int[i, 10] = s.jail_visits[i]
        seat_int[i, 11] = s.jobs_taken[i]
        seat_int[i, 12] = stores_owned(s, i)
        seat_int[i, 13] = s.casino_net[i]
        seat_int[i, 14] = s.n_missions[i]
        seat_int[i, 15] = s.n_secret[i]
        seat_int[i, 16] = s.turns_played[i]
        seat_int[i, 17] = s.job[i] + 1
        seat_f[i, 0] = s.vp[i]
        seat_f[i, 1] = win / n_win if n_win > 0 else 0.0
    m = min(s.n_it, items.shape[0])
    for k in range(m):
        items[k, 0] = s.it[k, 0]
        items[k, 1] = s.it[k, 1]
        items[k, 2] = s.it[k, 2]
    return m
