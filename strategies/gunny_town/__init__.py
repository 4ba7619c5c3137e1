"""Scripted Gunny Town players: one scoring core, five personas (sid 1..5) that differ by their weights.

Every legal action gets a score from the knobs in `weights` (the table K below; presets: PRESETS); the best one is
played (ties go to the first).  Moves are scored by the value of the locations they lead to, discounted per turn of
travel (the mission chaser's planning: each face-up mission it can progress marks the locations that progress it),
plus the value of the duels the arrival square opens.  Duel cards are real decisions: the challenger risks his best card
only when the duel is worth it, the defender dodges, replies or fakes by his hand and his life.
The strategies read only public information and their own hand (sees_hidden=False): the defender never looks at
the challenger's face-down card.
"""

import sim

sim.use_game_cache("sim.games.gunny_town")  # these bots compile into their game's cache (sim/__init__.py)

import numba as nb
import numpy as np

from sim.kernel import one_copy
from sim.rng import rand_float
from sim.knobs import KnobTable, Preset, strategies
from sim.games.gunny_town.actions import (
    K_BET,
    K_BRIBE,
    K_BUY_HORSE,
    K_BUY_STORE,
    K_BUY_UNIT,
    K_BUY_WEAPON,
    K_CHEST,
    K_DUEL,
    K_END,
    K_ENTER,
    K_EXTRA,
    K_FREE_UNIT,
    K_GIVE,
    K_MOVE,
    K_MOVE2,
    K_PICK_AMMO,
    K_PICK_GN,
    K_ROB_BANK,
    K_ROB_SALOON,
    K_ROB_STORE,
    K_STORE_PAY,
    K_TAKE_JOB,
    K_TAKEOVER,
    amount_of,
    card_of,
    choice_of,
    entry_of,
    job_of,
    kind_of,
    part2_of,
    part_of,
    seat_of,
    square_of,
    store_of,
    weapon_of,
)
from sim.games.gunny_town.queries import (
    fire_rounds,
    give_slot,
    hand_size,
    job_ammo,
    job_gn,
    job_lp,
    mission_gn,
    mission_vp,
    move_range,
    n_shooting,
    neighbour,
    same_location,
    secret_gn,
    secret_vp,
    store_price,
    stores_owned,
    unit_price,
    weapon_cost,
    weapon_range,
    weapon_rounds,
)
from sim.games.gunny_town.state import (
    CHEST,
    DODGE,
    ENTRY_ARMORY,
    ENTRY_STABLES,
    FAKE,
    HEAD,
    PH_CCARD,
    PH_DCARD,
    PH_PAIR,
    PH_PRE,
    PH_WIN,
    RANK,
    W_FRIGHTEN_JOB,
    W_HIT,
    W_HIT_JOB,
)
from sim.games.gunny_town.params import (
    AMMO_ANATOMICAL,
    AMMO_UNIFORM,
    BUY_HORSE,
    C_BECOME,
    C_BRIBE,
    C_BUY,
    C_BUY_STORE,
    C_CASINO_WIN,
    C_FRIGHTEN,
    C_HIT,
    C_HIT_DISTINCT,
    C_HIT_JOB,
    C_HIT_NEXT,
    C_KILL,
    C_KILL_JOB,
    C_OWN_STORES,
    C_ROB,
    C_WIN_DUEL,
    DIST,
    F_BANK,
    J_SHERIFF,
    J_UNDERTAKER,
    F_BRIBE,
    F_CASINO,
    F_CHEST,
    F_HORSE,
    F_ROBSAL,
    F_WEAPONS,
    LOC_AT,
    LOC_FLAGS,
    LOC_JOB,
    LOC_SQ,
    LOC_STORE,
    MCOMP,
    NLOC,
    NSQ,
    P_AMMO_CUSTOM,
    P_AMMO_DECK,
    P_DUELS_PER_SIDE,
    P_EXTRA_COST,
    P_EXTRA_SQ,
    P_EXTRA_USES_ACTION,
    P_HAND_MAX,
    P_HORSE_COST,
    P_LOC_AMMO,
    P_LOC_GN,
    P_LP_MAX,
    P_MIN_MOVE,
    P_MOVE_END_LOC,
    P_ROB_BANK,
    P_ROB_SALOON,
    P_ROB_STORE,
    P_SHERIFF_PENALTY,
    P_STORE_MISSION_EXTRA,
    P_UNDERTAKER_BONUS,
    ROB_AT_BANK,
    ROB_AT_SALOON,
    ROB_AT_STORE,
    SCOMP,
    SIGHT,
    STORE_SELLS_LP,
    STREET,
)

# Knobs (the weights row).  Defaults are the mission chaser's; each preset in PRESETS lists what it changes.
K = KnobTable()
W_DUEL = K.add("duel", 0.8, 0.0, 5.0, doc="value of winning a duel (times the chance to win it)")
W_WEAPON = K.add("weapon", 0.8, 0.0, 4.0, doc="value per point of rounds and range a better weapon adds")
W_STORE = K.add("store", 0.5, 0.0, 4.0, doc="value of owning a store (x6, less 0.3 per GN of price)")
W_ROB = K.add(
    "rob",
    0.6,
    0.0,
    4.0,
    doc="multiplier on the loot of robbing the bank, the Saloon and stores "
    "(above 1: also spends its Head card to steal)",
)
W_JOB = K.add("job", 0.6, 0.0, 5.0, doc="multiplier on a job's value (its gold, VP and ammunition)")
W_CASINO = K.add("casino", 0.2, 0.0, 5.0, doc="value of a Saloon bet (0: never bets)")
W_BET = K.add("bet_fraction", 0.1, 0.0, 1.0, doc="share of its gold staked at each Saloon bet")
W_MISSION = K.add("mission_vp", 3.0, 0.0, 6.0, doc="value per VP of a face-up mission (in GN)")
W_GOLD = K.add("gold", 0.5, 0.0, 3.0, doc="value of one GN")
W_AMMO = K.add("ammo", 1.0, 0.0, 3.0, doc="value of an ammunition card")
W_LP = K.add("life", 1.5, 0.0, 4.0, doc="value of a life point (doubled at 1 LP)")
W_FAKE = K.add("fake", 0.5, 0.0, 1.0, doc="chance that a defender with 2+ LP and no strong card fakes")
W_GAMMA = K.add("travel_discount", 0.7, 0.0, 1.0, doc="discount per turn of travel when planning moves")
W_SECRET = K.add("secret_vp", 2.0, 0.0, 5.0, doc="value per VP of its own secret mission (in GN)")
W_RISK = K.add("risk_life", 1.0, 0.0, 3.0, doc="weight of the life it risks in a duel (x3 at 1 LP)")
W_EXTRA = K.add(
    "extra_move",
    1.0,
    0.0,
    3.0,
    doc="share of the extra reach an extra move buys that it counts (0: never pays for one)",
)
W_SHERIFF = K.add(
    "sheriff_penalty",
    0.0,
    0.0,
    3.0,
    doc="weight of the Sheriff's penalty in duels and on the Sheriff's badge (0: ignored)",
)
W_GIVE = K.add(
    "give_cost",
    2.0,
    0.0,
    5.0,
    doc="cost of each ammunition card given away by the 'give one to "
    "each opponent' mission, in card values (the card lost and the opponent's gain); 0: the old flat value "
    "1 + 2 x mission_vp whatever the cost",
)
W_JOB_HORIZON = K.add(
    "job_horizon",
    1.0,
    0.0,
    1.0,
    doc="share of a badge's future income counted when taking or fighting for it: 1 counts every turn it is held, "
    "discounted per turn by travel_discount; 0: the next turn's income only (the old value, kept for head-to-head "
    "measurement)",
)
W_LP_FULL = K.add(
    "lp_income_full",
    0.3,
    0.0,
    1.0,
    doc="share of a badge's life-point income (the Medic's) counted while the bot is at full life, when the next "
    "point would be lost (1: counted in full, the earlier bots)",
)
W_EVENT_CARDS = K.add(
    "event_cards",
    1.0,
    0.0,
    1.0,
    doc="share of the second-best face-up card an event also progresses that it counts (one kill completes both "
    "'kill a player' cards; two missions a turn may be claimed); 0: the best card only (the earlier bots)",
)
W_SURE_HIT = K.add(
    "sure_hit",
    0.0,
    0.0,
    1.0,
    doc="a target without an ammunition card (hand sizes are public) can only fake: each round fired is a sure hit; "
    "1 counts the duel as won (a sure kill when the rounds reach his LP) and without risk; 0: the hand is ignored "
    "(the default: stronger head to head, but the audit's regret on moves did not fall)",
)
W_FAKE_OPP = K.add(
    "fake_opponents",
    3.0,
    1.0,
    5.0,
    doc="opponents' count below which the defender fakes less: the fake chance is multiplied by (players - 1) / "
    "fake_opponents when that is below 1 (a fake concedes a hit, and with one opponent every hit conceded serves "
    "the one rival); 3: a third of it at 2 players, two thirds at 3, unchanged at 4 to 6; 1: unchanged at every "
    "count (the earlier bots)",
)
KNOBS = tuple(K.names)

PRESETS = [
    Preset(
        "gunslinger",
        1,
        "Duels, weapons and bounty missions: buys the best weapon it can, challenges "
        "whoever it can hit, chases hit/kill missions.",
        dict(
            duel=3.0,
            weapon=1.5,
            store=0.2,
            rob=0.8,
            job=0.5,
            casino=0.0,
            bet_fraction=0.0,
            ammo=1.5,
            fake=0.7,
            travel_discount=0.6,
            secret_vp=0.8,
            risk_life=0.5,
        ),
    ),
    Preset(
        "businessman",
        2,
        "Stores, investments and robberies: buys stores, collects free units and "
        "shoppers' money, robs the bank and stores.",
        dict(
            duel=0.3,
            weapon=0.6,
            store=2.0,
            rob=1.5,
            job=0.5,
            casino=0.3,
            gold=1.0,
            ammo=0.8,
            travel_discount=0.6,
            secret_vp=0.8,
            give_cost=3.0,
        ),
    ),
    Preset(
        "lawman",
        3,
        "Jobs and their incomes: takes the best free badge, duels holders for theirs.",
        dict(store=0.3, rob=0.2, job=2.5, casino=0.0, bet_fraction=0.0, gold=0.7, travel_discount=0.6, secret_vp=0.2),
    ),
    Preset(
        "gambler",
        4,
        "The Saloon bet: goes to the Saloon and stakes bet_fraction of its gold each "
        "visit (positive expectation under the default reading, see the note's balance warning).",
        dict(
            duel=0.2,
            weapon=0.3,
            store=0.3,
            rob=0.5,
            job=0.3,
            casino=2.5,
            bet_fraction=0.25,
            gold=1.0,
            ammo=0.8,
            fake=0.6,
            travel_discount=0.6,
            secret_vp=0.8,
            lp_income_full=1.0,
        ),
    ),
    Preset(
        "mission_chaser",
        5,
        "Plans moves toward the face-up missions (and its secret mission) it can "
        "progress, valued by VP and discounted per turn of travel.",
        {},
    ),
    Preset(
        "gambler_all_in",
        4,
        "Gambler preset that stakes all its gold at every visit.",
        dict(
            duel=0.2,
            weapon=0.3,
            store=0.3,
            rob=0.5,
            job=0.3,
            casino=2.5,
            bet_fraction=1.0,
            gold=1.0,
            ammo=0.8,
            fake=0.6,
            travel_discount=0.6,
            secret_vp=0.8,
            lp_income_full=1.0,
        ),
    ),
]
STRATEGIES = strategies(K, PRESETS)

NEG = -1e9
MAX_DISCOUNT = 0.9  # a badge's income is counted for at most 10 turns


@nb.njit(cache=True, _nrt=False)
def _mission_value(s, p, m, w):
    return w[W_MISSION] * mission_vp(p, m) + w[W_GOLD] * mission_gn(p, m)


@nb.njit(cache=True, _nrt=False)
def _secret_value(s, p, pl, w):
    sc = s.secret[pl]
    if sc < 0 or s.job[pl] >= 0:
        return 0.0, -1
    return w[W_SECRET] * secret_vp(p, sc) + w[W_GOLD] * secret_gn(p, sc), sc


@one_copy(_nrt=False)
def _event_value(s, p, pl, kind, x, w):
    """Mission value (public + own secret) an event (kind, x) would bring to pl now: the best card it progresses,
    plus event_cards times the second best (two missions may be claimed a turn)."""
    best = 0.0
    second = 0.0
    for k in range(6):
        m = s.face[k]
        if m < 0:
            continue
        for c in range(2):
            if MCOMP[m, c, 0] == kind:
                ok = True
                if kind == C_BECOME or kind == C_HIT_JOB or kind == C_BUY or kind == C_ROB:
                    ok = x >= 0 and ((MCOMP[m, c, 1] >> x) & 1) == 1
                elif kind == C_BUY_STORE:
                    ok = x == MCOMP[m, c, 1]
                elif kind == C_HIT_NEXT:
                    ok = x == neighbour(s, p, pl)
                elif kind == C_HIT_DISTINCT:
                    ok = x >= 0 and ((s.mprog[pl, k, c] >> x) & 1) == 0  # a player already hit adds nothing
                if ok:
                    v = _mission_value(s, p, m, w)
                    other = MCOMP[m, 1 - c, 0]
                    if other != 0:
                        v *= 0.5  # only half of a two-part card
                    if v > best:
                        second = best
                        best = v
                    elif v > second:
                        second = v
                    break  # a card counts once
    sv, sc = _secret_value(s, p, pl, w)
    if sc >= 0:
        for c in range(2):
            if SCOMP[sc, c, 0] == kind:
                ok = True
                if kind == C_ROB:
                    ok = ((SCOMP[sc, c, 1] >> x) & 1) == 1
                elif kind == C_KILL_JOB:
                    ok = x >= 0
                if ok:
                    if sv > best:
                        second = best
                        best = sv
                    elif sv > second:
                        second = sv
                    break
    return best + w[W_EVENT_CARDS] * second


@one_copy(_nrt=False)
def _job_income(s, p, pl, j, w, turns):
    """What holding badge j brings pl: its income for `turns` turns, and for the Undertaker his bonus times the
    deaths a round so far (with one death per three rounds as a prior: about 3 in a 9-round game); for the Sheriff,
    weighted by the sheriff_penalty knob, his penalty times the duel rounds pl has won a round so far (prior: one per
    three rounds, about the measured 0.3).  Those two estimates stay one turn's worth: counted over the badge's
    future they made two bots take the Undertaker's badge from each other for a hundred rounds."""
    lpw = 1.5 if s.lp[pl] < p[P_LP_MAX] else 1.5 * w[W_LP_FULL]  # at full life the next point is lost
    v = turns * (job_gn(p, j) + lpw * job_lp(p, j) + w[W_AMMO] * job_ammo(p, j))
    if j == J_UNDERTAKER:
        deaths = 1.0
        for q in range(s.n):
            deaths += s.jail_visits[q]
        v += p[P_UNDERTAKER_BONUS] * deaths / (s.rnd + 3.0)
    elif j == J_SHERIFF and w[W_SHERIFF] > 0:
        v += w[W_SHERIFF] * p[P_SHERIFF_PENALTY] * (1.0 + s.duels_won[pl]) / (s.rnd + 3.0)
    return w[W_JOB] * v


@one_copy(_nrt=False)
def _job_value(s, p, pl, j, w):
    """Worth of taking badge j: its income every turn it is held, discounted per turn like travel (travel_discount:
    1 / (1 - discount) turns of income, weighted by job_horizon), its mission value, less the secret mission it
    freezes and the income of the badge pl gives back.  Counting one turn of income only, the bots almost never
    took a badge: the audit's mean regret on moves was +0.054 (the Fort's Soldier badge passed by)."""
    turns = 1.0 + w[W_JOB_HORIZON] * (1.0 / (1.0 - min(w[W_GAMMA], MAX_DISCOUNT)) - 1.0)
    v = _job_income(s, p, pl, j, w, turns) + _event_value(s, p, pl, C_BECOME, j, w)
    sv, sc = _secret_value(s, p, pl, w)
    if sc >= 0:
        v -= 0.5 * sv  # a job stops the secret mission from scoring
    if s.job[pl] >= 0:
        v -= _job_income(s, p, pl, s.job[pl], w, turns)
    return v


@nb.njit(cache=True, _nrt=False)
def _shooting_missions(s, p, w):
    """Best face-up mission that needs a hit or a kill: what ammunition and a weapon are worth beyond a duel."""
    best = 0.0
    for k in range(6):
        m = s.face[k]
        if m < 0:
            continue
        for c in range(2):
            kd = MCOMP[m, c, 0]
            if kd == C_HIT or kd == C_HIT_NEXT or kd == C_HIT_JOB or kd == C_HIT_DISTINCT or kd == C_KILL:
                v = _mission_value(s, p, m, w)
                if v > best:
                    best = v
    return best


@nb.njit(cache=True, _nrt=False)
def _ammo_need(s, p, pl, w):
    h = hand_size(s, pl)
    if h >= p[P_HAND_MAX]:
        return 0.0
    v = w[W_AMMO] * (1.0 if h < 3 else 0.4)
    if h < 2:
        v += 0.3 * _shooting_missions(s, p, w)
    return v


@nb.njit(cache=True, _nrt=False)
def _lp_need(s, p, pl, w):
    if s.lp[pl] >= p[P_LP_MAX]:
        return 0.0
    return w[W_LP] * (2.0 if s.lp[pl] <= 1 else 1.0)


@nb.njit(cache=True, _nrt=False)
def _weapon_value(s, p, pl, wp, w):
    """Value of buying weapon wp (replacing the held one)."""
    cur_r = 0
    cur_rng = 0
    for k in range(5):
        if (s.wmask[pl] >> k) & 1:
            cur_r = max(cur_r, weapon_rounds(p, k))
            cur_rng = max(cur_rng, min(weapon_range(p, k), 8))
    gain = (weapon_rounds(p, wp) - cur_r) * 2.0 + (min(weapon_range(p, wp), 8) - cur_rng) * 0.5
    if s.wmask[pl] == 0:
        gain += 3.0 + 0.3 * _shooting_missions(s, p, w)
    return w[W_WEAPON] * gain - 0.15 * weapon_cost(p, wp) + _event_value(s, p, pl, C_BUY, wp, w)


@nb.njit(cache=True, _nrt=False)
def _best_weapon(s, p, pl, w, gold):
    best = NEG
    for wp in range(5):
        if weapon_cost(p, wp) <= gold and not ((s.wmask[pl] >> wp) & 1):
            v = _weapon_value(s, p, pl, wp, w)
            if v > best:
                best = v
    return best


@nb.njit(cache=True, _nrt=False)
def _store_buy_value(s, p, pl, st, w):
    price = store_price(p, st)
    v = w[W_STORE] * 6.0 - 0.3 * price + _event_value(s, p, pl, C_BUY_STORE, st, w)
    if stores_owned(s, pl) + 1 >= 2:
        v += _event_value(s, p, pl, C_OWN_STORES, 0, w)
    return v


@nb.njit(cache=True, _nrt=False)
def _loc_value(s, p, pl, loc, w):
    """What pl could gain by acting at location loc on arrival (0 if nothing)."""
    gold = s.gold[pl]
    flags = LOC_FLAGS[loc]
    tot = 0.0
    j = LOC_JOB[loc]
    if j >= 0 and s.job_holder[j] < 0 and s.job[pl] != j:
        v = _job_value(s, p, pl, j, w)
        if v > 0:
            tot += v
    g = p[P_LOC_GN + loc]
    if g > 0:
        tot += w[W_GOLD] * g
    a = p[P_LOC_AMMO + loc]
    if a > 0:
        tot += _ammo_need(s, p, pl, w) * a
    st = LOC_STORE[loc]
    if st >= 0:
        owner = s.store_owner[st]
        best = 0.0
        need = _lp_need(s, p, pl, w) if STORE_SELLS_LP[st] else _ammo_need(s, p, pl, w)
        if owner == pl:
            best = need + 0.5
        else:
            if gold >= unit_price(p, st):
                best = need - 0.2 * unit_price(p, st)
            if owner < 0 and gold >= store_price(p, st):
                best = max(best, _store_buy_value(s, p, pl, st, w) + max(0.0, best))
            if s.wmask[pl] != 0 and hand_size(s, pl) >= 3:
                rob = (
                    w[W_ROB] * p[P_ROB_STORE] * w[W_GOLD]
                    - 2 * w[W_AMMO] * 0.5
                    + _event_value(s, p, pl, C_ROB, ROB_AT_STORE, w)
                )
                if owner >= 0 and s.gold[owner] < p[P_ROB_STORE]:
                    rob -= w[W_GOLD] * (p[P_ROB_STORE] - s.gold[owner])
                best = max(best, rob)
        tot += best
    if flags & F_WEAPONS:
        bw = _best_weapon(s, p, pl, w, gold)
        if bw > 0:
            tot += bw
    if flags & F_HORSE and s.horse[pl] == 0 and gold >= p[P_HORSE_COST]:
        tot += 2.0 + _event_value(s, p, pl, C_BUY, BUY_HORSE, w)
    if flags & F_CHEST:
        tot += 1.2
    if flags & F_BANK and s.wmask[pl] != 0 and s.hand[pl, HEAD] > 0:
        tot += w[W_ROB] * w[W_GOLD] * p[P_ROB_BANK] + _event_value(s, p, pl, C_ROB, ROB_AT_BANK, w)
    if flags & F_CASINO and gold > 0:
        tot += w[W_CASINO] * min(gold, 40) * 0.33 + _event_value(s, p, pl, C_CASINO_WIN, 0, w)
    if flags & F_ROBSAL and s.wmask[pl] != 0 and s.hand[pl, HEAD] + s.hand[pl, CHEST] > 0:
        tot += w[W_ROB] * w[W_GOLD] * p[P_ROB_SALOON] + _event_value(s, p, pl, C_ROB, ROB_AT_SALOON, w)
    if flags & F_BRIBE:
        ev = _event_value(s, p, pl, C_BRIBE, 0, w)
        if ev > 0:
            for t in range(s.n):
                if t != pl and s.job[t] >= 0:
                    tot += ev
                    break
    return tot


@one_copy(_nrt=False)
def _duel_value(s, p, pl, t, w):
    """Expected worth of challenging t now (before card choice)."""
    if s.lp[pl] <= 1 and w[W_RISK] > 0:
        risk = w[W_RISK] * 3.0
    else:
        risk = w[W_RISK] * 0.5
    best = 0
    for c in range(1, 6):
        if s.hand[pl, c] > 0 and RANK[c] > best:
            best = RANK[c]
    pwin = 0.12 * best + 0.05 * (fire_rounds(s, p, pl, t) - fire_rounds(s, p, t, pl))
    sure_kill = False
    if w[W_SURE_HIT] > 0 and hand_size(s, t) == 0:
        # he can only fake: every round pl fires is a hit (G11), and he never hits back
        rounds = fire_rounds(s, p, pl, t)
        if rounds == 0:  # out of reach from here (a duel after the move): the held weapon's rounds, 1 bare-handed
            rounds = 1
            for k in range(5):
                if (s.wmask[pl] >> k) & 1:
                    rounds = max(rounds, weapon_rounds(p, k))
        sure_kill = min(rounds, n_shooting(s, pl)) >= s.lp[t]
        pwin += w[W_SURE_HIT] * (1.0 - pwin)
        risk *= 1.0 - w[W_SURE_HIT]
    hit = (
        _event_value(s, p, pl, C_HIT, t, w)
        + _event_value(s, p, pl, C_HIT_NEXT, t, w)
        + _event_value(s, p, pl, C_HIT_DISTINCT, t, w)
        + _event_value(s, p, pl, C_WIN_DUEL, 0, w)
    )
    if w[W_SHERIFF] > 0:
        # the Sheriff's penalty (G21: what there is): a Sheriff's won round pays it, a round lost to a Sheriff who
        # can reply costs it
        if s.job[pl] == J_SHERIFF:
            hit += w[W_SHERIFF] * w[W_GOLD] * min(p[P_SHERIFF_PENALTY], s.gold[t])
        if s.job[t] == J_SHERIFF and (fire_rounds(s, p, t, pl) > 0 or same_location(s, pl, t)):
            risk += w[W_SHERIFF] * w[W_GOLD] * min(p[P_SHERIFF_PENALTY], s.gold[pl]) * max(0.0, 1.0 - pwin)
    if s.job[t] >= 0:
        hit += _event_value(s, p, pl, C_HIT_JOB, s.job[t], w)
        jv = _job_value(s, p, pl, s.job[t], w)
        if jv > 0:
            hit += jv
    if s.lp[t] == 1 or sure_kill:
        hit += _event_value(s, p, pl, C_KILL, 0, w) + 1.0
        if s.job[t] >= 0:
            hit += _event_value(s, p, pl, C_KILL_JOB, s.job[t], w)
    return pwin * (w[W_DUEL] + hit) - risk - w[W_AMMO] * 0.5


@nb.njit(cache=True, _nrt=False)
def _max_range(s, p, pl):
    """Longest range among pl's weapons (-1 without one): a target in sight at d is within some weapon's
    range iff d <= this."""
    weapon_reach = -1
    for k in range(5):
        if (s.wmask[pl] >> k) & 1:
            r = weapon_range(p, k)
            if r > weapon_reach:
                weapon_reach = r
    return weapon_reach


@nb.njit(cache=True, _nrt=False, inline="always")  # called once per move option: no call overhead
def _square_duel_bonus(s, p, pl, sq, duel_val, weapon_reach):
    """Best duel available after arriving at sq (a post-move duel); duel_val[t] = worth of challenging t;
    weapon_reach = _max_range(s, p, pl)."""
    best = 0.0
    for t in range(s.n):
        if duel_val[t] <= best:
            continue
        ok = s.pos[t] == sq or (LOC_AT[sq] >= 0 and LOC_AT[sq] == LOC_AT[s.pos[t]])
        if not ok and weapon_reach >= 0:
            d = SIGHT[sq, s.pos[t]]
            if d >= 0 and d <= weapon_reach:
                ok = True
        if ok:
            best = duel_val[t]
    return best


@nb.njit(cache=True, _nrt=False)
def _duel_values(s, p, pl, w, duel_val):
    for t in range(s.n):
        duel_val[t] = 0.0
        if t == pl or s.pos[t] < 0 or s.skip[t] or s.lp[t] <= 0 or (s.challenged >> t) & 1:
            continue
        if n_shooting(s, pl) == 0:
            continue
        duel_val[t] = _duel_value(s, p, pl, t, w)


@nb.njit(cache=True, _nrt=False, inline="always")  # called once per move option: no call overhead
def _score_move(
    s, p, pl, sq, loc_val, duel_val, arrive_ok, move_reach, n_ranked, ranked_locs, discount, max_discount, weapon_reach
):
    """Arrival value now (if the arrival action is still open) + discounted value of the best location within
    later reach (ranked_locs[:n_ranked] = the locations worth something, by decreasing value; discount[t] =
    travel_discount ** t, max_discount = the largest discount[1..19]) + the duels the square opens.
    The scan stops once loc_val[L] * max_discount <= fut: every later location has loc_val <= loc_val[L] and a
    discount <= max_discount, so (multiplication of non-negative numbers being monotone) none could raise fut: same
    value as a full scan."""
    v = 0.0
    loc = LOC_AT[sq]
    if arrive_ok and loc >= 0:
        v = loc_val[loc]
    fut = 0.0
    for i in range(n_ranked):
        L = np.int64(ranked_locs[i])
        if loc_val[L] * max_discount <= fut:
            break
        d = DIST[sq, LOC_SQ[L]]
        turns = (d + move_reach - 1) // move_reach if d > 0 else 0
        if turns > 18:
            turns = 18
        f = loc_val[L] * discount[turns + 1]
        if f > fut:
            fut = f
    return v + fut + _square_duel_bonus(s, p, pl, sq, duel_val, weapon_reach)


@nb.njit(cache=True, _nrt=False)
def _best_reach(
    s,
    p,
    pl,
    lo,
    hi,
    loc_val,
    duel_val,
    arrive_ok,
    move_reach,
    n_ranked,
    ranked_locs,
    discount,
    max_discount,
    weapon_reach,
):
    """Best _score_move over the street squares a move of lo..hi squares from pl's square can end on (the engine's
    destinations: rule.move_ends_on_location honoured); NEG if none."""
    here = s.pos[pl]
    need_loc = p[P_MOVE_END_LOC] == 1
    best = NEG
    for sq in range(NSQ):
        if STREET[sq]:
            d = DIST[here, sq]
            if d >= lo and d <= hi and (not need_loc or LOC_AT[sq] >= 0):
                v = _score_move(
                    s,
                    p,
                    pl,
                    sq,
                    loc_val,
                    duel_val,
                    arrive_ok,
                    move_reach,
                    n_ranked,
                    ranked_locs,
                    discount,
                    max_discount,
                    weapon_reach,
                )
                if v > best:
                    best = v
    return best


@nb.njit(cache=True, _nrt=False)
def _extra_value(
    s, p, pl, w, loc_val, duel_val, move_reach, n_ranked, ranked_locs, discount, max_discount, weapon_reach
):
    """Score of paying move.extra_cost for move.extra_squares more squares (Stables, Stagecoach), on the scale of the
    phase's other options.  Before the move (range extended; under rule.extra_move_uses_action the arrival action is
    gone): the best destination it opens, with the extra_move knob weighting its gain over the best plain move, minus
    the gold.  After the move (a second move of 1..extra squares, no location action at its end by default): the
    weighted gain of the best square it reaches over staying here, minus the gold (other actions here score gains)."""
    cost = w[W_GOLD] * p[P_EXTRA_COST]
    uses = p[P_EXTRA_USES_ACTION] == 1
    ex = np.int64(p[P_EXTRA_SQ])
    if s.phase == PH_PRE:
        r = move_range(s, p, pl)
        lo = np.int64(p[P_MIN_MOVE])
        arrive_ok = s.loc_state == 0
        plain = _best_reach(
            s,
            p,
            pl,
            lo,
            r,
            loc_val,
            duel_val,
            arrive_ok,
            move_reach,
            n_ranked,
            ranked_locs,
            discount,
            max_discount,
            weapon_reach,
        )
        far = _best_reach(
            s,
            p,
            pl,
            lo,
            r + ex,
            loc_val,
            duel_val,
            arrive_ok and not uses,
            move_reach,
            n_ranked,
            ranked_locs,
            discount,
            max_discount,
            weapon_reach,
        )
        if far <= plain:
            return -1.0
        return plain + w[W_EXTRA] * (far - plain) - cost
    stay = _score_move(
        s,
        p,
        pl,
        s.pos[pl],
        loc_val,
        duel_val,
        False,
        move_reach,
        n_ranked,
        ranked_locs,
        discount,
        max_discount,
        weapon_reach,
    )
    far = _best_reach(
        s,
        p,
        pl,
        1,
        ex,
        loc_val,
        duel_val,
        s.loc_state == 0 and not uses,
        move_reach,
        n_ranked,
        ranked_locs,
        discount,
        max_discount,
        weapon_reach,
    )
    return w[W_EXTRA] * (far - stay) - cost


@nb.njit(cache=True, _nrt=False)
def _pair_choice(s, p, legal, n):
    mode = np.int64(p[P_AMMO_DECK])
    best = -1.0
    bi = 0
    for i in range(n):
        a = part_of(legal[i])
        b = part2_of(legal[i])
        if mode == 0:
            ca = AMMO_UNIFORM[a]
            cb = AMMO_UNIFORM[b]
        elif mode == 1:
            ca = AMMO_ANATOMICAL[a]
            cb = AMMO_ANATOMICAL[b]
        else:
            ca = p[P_AMMO_CUSTOM + a]
            cb = p[P_AMMO_CUSTOM + b]
        v = ca + (cb if b != a else 0)
        if v > best:
            best = v
            bi = i
    return bi


@nb.njit(cache=True, _nrt=False)
def _score_action(s, p, pl, a, w, loc_val):
    kind = kind_of(a)
    gold = s.gold[pl]
    if kind == K_TAKE_JOB:
        return _job_value(s, p, pl, job_of(a), w)
    if kind == K_PICK_GN:
        return w[W_GOLD] * amount_of(a) + 0.01
    if kind == K_PICK_AMMO:
        return _ammo_need(s, p, pl, w) * amount_of(a) + 0.01
    st = store_of(a)  # the store of the store actions (BUY_UNIT ... ROB_STORE)
    if kind == K_BUY_UNIT:
        need = _lp_need(s, p, pl, w) if STORE_SELLS_LP[st] else _ammo_need(s, p, pl, w)
        return need - 0.2 * unit_price(p, st)
    if kind == K_FREE_UNIT:
        return 1.0
    if kind == K_BUY_STORE:
        return _store_buy_value(s, p, pl, st, w)
    if kind == K_TAKEOVER:
        return _event_value(s, p, pl, C_BUY_STORE, st, w) - 0.3 * (store_price(p, st) + p[P_STORE_MISSION_EXTRA])
    if kind == K_STORE_PAY:
        return _event_value(s, p, pl, C_BUY_STORE, st, w) - p[P_STORE_MISSION_EXTRA] * w[W_GOLD]
    if kind == K_ROB_STORE:
        owner = s.store_owner[st]
        g = p[P_ROB_STORE] if owner < 0 else min(p[P_ROB_STORE], s.gold[owner])
        return w[W_ROB] * w[W_GOLD] * g - w[W_AMMO] + _event_value(s, p, pl, C_ROB, ROB_AT_STORE, w)
    if kind == K_BUY_WEAPON:
        return _weapon_value(s, p, pl, weapon_of(a), w)
    if kind == K_BUY_HORSE:
        return 2.0 + _event_value(s, p, pl, C_BUY, BUY_HORSE, w)
    if kind == K_EXTRA:
        return -1.0
    if kind == K_CHEST:
        return 1.2
    if kind == K_ROB_BANK:
        return w[W_ROB] * w[W_GOLD] * p[P_ROB_BANK] + _event_value(s, p, pl, C_ROB, ROB_AT_BANK, w)
    if kind == K_ROB_SALOON:
        return w[W_ROB] * w[W_GOLD] * p[P_ROB_SALOON] + _event_value(s, p, pl, C_ROB, ROB_AT_SALOON, w)
    if kind == K_BET:
        if w[W_CASINO] <= 0:
            return -1.0
        target = max(1.0, w[W_BET] * gold)
        return w[W_CASINO] * 3.0 - abs(amount_of(a) - target) * 0.01 + _event_value(s, p, pl, C_CASINO_WIN, 0, w)
    if kind == K_BRIBE:
        t = seat_of(a)
        v = _event_value(s, p, pl, C_BRIBE, 0, w) - w[W_GOLD] * 2
        # unseat a holder of a job pl wants (the badge returns to its square)
        jv = _job_value(s, p, pl, s.job[t], w)
        if jv > 0:
            v += 0.3 * jv
        return v
    if kind == K_GIVE:
        # the card's reward less what is given: give_cost card values per opponent, and two more per card the hand
        # falls below two (nothing left to duel or defend with).  A flat 1 + 2 x mission_vp before: the first player
        # took it on turn 1 with its whole starting hand and lost (issue 24; measured in the commit)
        if w[W_GIVE] <= 0:
            return 1.0 + w[W_MISSION] * 2  # give_cost 0: the old flat value (kept for head-to-head measurement)
        k = give_slot(s, p, pl)
        v = _mission_value(s, p, s.face[k], w) if k >= 0 else 0.0
        given = s.n - 1
        left = hand_size(s, pl) - given
        return v - w[W_GIVE] * w[W_AMMO] * given - 2.0 * w[W_AMMO] * max(0, 2 - left)
    if kind == K_DUEL:
        return _duel_value(s, p, pl, seat_of(a), w)
    if kind == K_END:
        return 0.0
    return 0.0


@nb.njit(cache=True, _nrt=False)
def _location_values(s, p, pl, w, loc_val):
    for L in range(NLOC):
        loc_val[L] = _loc_value(s, p, pl, L, w)


@nb.njit(cache=True, _nrt=False)
def _challenger_card(s, p, pl, w):
    t = s.d_t
    stakes = _duel_value(s, p, pl, t, w)
    hi = 0
    lo = 0
    for c in range(1, 6):
        if s.hand[pl, c] > 0:
            if hi == 0 or RANK[c] > RANK[hi]:
                hi = c
            if lo == 0 or RANK[c] < RANK[lo]:
                lo = c
    # keep a Head for the bank when robbing matters and another good card is at hand
    if hi == HEAD and s.hand[pl, HEAD] == 1 and w[W_ROB] > 1.0 and s.hand[pl, CHEST] > 0:
        hi = CHEST
    if stakes > 1.0 or s.d_round > 0:
        return hi
    # a cheap shot: risk the lowest card that is at least an Arm, else the best
    for c in (3, 2, 1):
        if s.hand[pl, c] > 0 and RANK[c] >= 3:
            return c
    return hi


@nb.njit(cache=True, _nrt=False)
def _defender_card(s, p, pl, w):
    over = s.d_round >= s.d_cap
    hi = -1
    for c in range(1, 6):
        if s.hand[pl, c] > 0 and (hi < 0 or RANK[c] > RANK[hi]):
            hi = c
    has_dodge = s.hand[pl, DODGE] > 0
    if hi >= 0 and RANK[hi] >= 4:
        return hi
    if has_dodge and (s.lp[pl] <= 2 or over):
        return DODGE
    if hi >= 0 and RANK[hi] >= 3 and not over:
        return hi
    # a bluff made every time is a rule, not a bluff: fake with probability `fake` (policy stream, the dice stay)
    fake = w[W_FAKE] * min(1.0, (s.n - 1) / w[W_FAKE_OPP])
    if s.lp[pl] >= 2 and rand_float(s.rng, 1) < fake:
        return FAKE
    if has_dodge:
        return DODGE
    if hi >= 0:
        return hi
    return FAKE


@nb.njit(cache=True, _nrt=False)
def _duel_win_choice(s, p, pl, legal, n, w):
    """The duel's winner: hit or frighten the loser, and take its job badge or not."""
    lo = s.d_loser
    best = 0
    bv = NEG
    for i in range(n):
        ch = choice_of(legal[i])
        v = 0.0
        if ch == W_HIT or ch == W_HIT_JOB:
            v += 1.0
            if s.lp[lo] == 1:
                v += 1.0
        else:
            v += 0.2 + _event_value(s, p, pl, C_FRIGHTEN, 0, w)
        if ch == W_HIT_JOB or ch == W_FRIGHTEN_JOB:
            v += _job_value(s, p, pl, s.job[lo], w)
        if v > bv:
            bv = v
            best = i
    return best


@nb.njit(cache=True, _nrt=False)
def choose(s, p, seat, legal, n, sid, weights):
    w = weights
    pl = seat
    ph = s.phase
    if ph == PH_PAIR:
        return _pair_choice(s, p, legal, n)
    if ph == PH_CCARD:
        c = _challenger_card(s, p, pl, w)
        for i in range(n):
            if card_of(legal[i]) == c:
                return i
        return 0
    if ph == PH_DCARD:
        c = _defender_card(s, p, pl, w)
        for i in range(n):
            if card_of(legal[i]) == c:
                return i
        return n - 1
    if ph == PH_WIN:
        return _duel_win_choice(s, p, pl, legal, n, w)
    kind0 = kind_of(legal[0])
    if kind0 == K_ENTER:
        # Stables (horse) or Armory (palm pistol): the gunslinger-minded take the pistol (if item.remove left both)
        want = ENTRY_ARMORY if w[W_DUEL] + w[W_ROB] > w[W_STORE] + w[W_JOB] else ENTRY_STABLES
        for i in range(n):
            if entry_of(legal[i]) == want:
                return i
        return 0
    loc_val = s.scratch[:NLOC]
    duel_val = s.scratch[24:30]
    ranked_locs = s.scratch[32 : 32 + NLOC]
    discount = s.scratch[64:84]
    has_move = False
    for i in range(n):
        k = kind_of(legal[i])
        if k == K_MOVE or k == K_MOVE2 or (k == K_EXTRA and w[W_EXTRA] > 0):
            has_move = True
            break
    n_ranked = 0
    max_discount = 0.0
    if has_move:
        _location_values(s, p, pl, w, loc_val)
        _duel_values(s, p, pl, w, duel_val)
        if ph != PH_PRE:
            # after the move (an extra move at the arrival square): a duel at the end needs a duel left this side
            lim = p[P_DUELS_PER_SIDE]
            if lim > 0 and s.duel_post >= lim:
                for t in range(s.n):
                    duel_val[t] = 0.0
        for L in range(NLOC):
            if loc_val[L] > 0:
                # keep ranked_locs[:n_ranked] sorted by decreasing value (for the early stop in _score_move)
                j = n_ranked
                while j > 0 and loc_val[np.int64(ranked_locs[j - 1])] < loc_val[L]:
                    ranked_locs[j] = ranked_locs[j - 1]
                    j -= 1
                ranked_locs[j] = L
                n_ranked += 1
        g = 1.0
        for t in range(20):
            discount[t] = g
            g *= w[W_GAMMA]
        for t in range(1, 20):
            if t == 1 or discount[t] > max_discount:
                max_discount = discount[t]
    move_reach = move_range(s, p, pl) - s.extra_range  # later turns' travel: without this turn's paid squares
    weapon_reach = _max_range(s, p, pl)
    # arrival action still possible after a move?
    arrive_ok = s.loc_state == 0
    best = 0
    bv = NEG
    end_i = -1
    for i in range(n):
        a = legal[i]
        kind = kind_of(a)
        if kind == K_MOVE or kind == K_MOVE2:
            # the extra move's second leg keeps the arrival action only where the engine left it open
            v = _score_move(
                s,
                p,
                pl,
                square_of(a),
                loc_val,
                duel_val,
                arrive_ok,
                move_reach,
                n_ranked,
                ranked_locs,
                discount,
                max_discount,
                weapon_reach,
            )
            # acting here before moving forfeits the arrival action: compare on equal terms below
        elif kind == K_END:
            v = 0.0
            end_i = i
        elif kind == K_EXTRA and w[W_EXTRA] > 0:
            v = _extra_value(
                s, p, pl, w, loc_val, duel_val, move_reach, n_ranked, ranked_locs, discount, max_discount, weapon_reach
            )
            if v <= 0.0:
                continue
        else:
            v = _score_action(s, p, pl, a, w, loc_val)
            if ph == PH_PRE and kind != K_DUEL and kind != K_GIVE and kind != K_STORE_PAY and s.loc_state == 0:
                # starting a location action here closes the arrival action: worth it only if better
                v -= 0.5
            if v <= 0.0:
                continue
        if v > bv:
            bv = v
            best = i
    if bv <= 0.0 and end_i >= 0:
        return end_i
    return best
