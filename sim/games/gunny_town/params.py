"""Gunny Town parameters and component tables, built from data/gunny_town.json.

Every number a designer might change is a named parameter (prov F = rulebook or cited review, D = derived,
A = ASSUMED); every ambiguity of the note (G1..G30, section 7) is a parameter whose default is the note's default.
The board geometry and the requirement codes of the cards are structural tables (numpy arrays frozen into the
engine at compile time); their numbers (prices, pickups, rewards) are parameters.
"""

import json
from collections import deque
from pathlib import Path

import numpy as np

from sim.params import ParamTable

DATA = json.loads((Path(__file__).resolve().parent / "data" / "gunny_town.json").read_text())
T = ParamTable()
_add = T.add

AMMO_NAMES = tuple(DATA["ammo_deck"]["order"])  # DODGE HEAD CHEST ARM LEG FOOT
WEAPON_NAMES = tuple(w["id"] for w in DATA["weapons"])
JOB_NAMES = tuple(j["id"] for j in DATA["jobs"])  # SHERIFF NOTARY MEDIC SOLDIER UNDERTAKER BANKER
BOARD = DATA["board"]
LOC_NAMES = tuple(L["id"] for L in BOARD["locations"])
STORE_NAMES = ("GENERAL_STORE", "GUNSMITH", "BARBER", "HOTEL")  # order of the BUY_STORE missions
CHEST_NAMES = tuple(c["id"] for c in DATA["chest_deck"])
MISSIONS = DATA["missions"]["cards"]
SECRETS = DATA["secret_missions"]["cards"]


def _v(entry):
    return entry["v"], entry["p"], entry["src"]


# ------------------------------------------------------------------ limits and setup
v, pv, sr = _v(DATA["limits"]["start_lp"])
P_START_LP = _add("limits.start_lp", v, lo=1, hi=10, prov=pv, src=sr, doc="life points at setup")
v, pv, sr = _v(DATA["limits"]["lp_max"])
P_LP_MAX = _add("limits.lp_max", v, lo=1, hi=10, prov=pv, src=sr, doc="life points can never exceed this")
v, pv, sr = _v(DATA["limits"]["ammo_hand_max"])
P_HAND_MAX = _add(
    "limits.hand_max", v, lo=1, hi=12, prov=pv, src=sr, doc="ammunition cards in hand (no 7th card is drawn)"
)
v, pv, sr = _v(DATA["limits"]["missions_per_turn"])
P_MISSIONS_PER_TURN = _add(
    "limits.missions_per_turn",
    v,
    lo=1,
    hi=6,
    prov=pv,
    src=sr,
    doc="missions a player may accomplish in one turn (his own or, as a defender, another's)",
)
v, pv, sr = _v(DATA["limits"]["face_up_missions"])
P_FACE_UP = _add(
    "limits.face_up_missions",
    v,
    lo=1,
    hi=6,
    prov=pv,
    src=sr,
    doc="face-up missions; the game ends when the deck can no longer refill them",
)
v, pv, sr = _v(DATA["start"]["gold"])
P_START_GOLD = _add("setup.start_gold", v, lo=0, hi=50, prov=pv, src=sr, doc="G1: gold nuggets at setup")
P_START_AMMO_MODE = _add(
    "setup.start_ammo",
    "opponents",
    kind="choice",
    choices=("opponents", "fixed"),
    prov="F",
    src=DATA["start"]["ammo"]["src"],
    doc="G2: starting ammunition = number of opponents (text) or setup.start_ammo_fixed (review)",
)
v, pv, sr = _v(DATA["start"]["ammo_fixed"])
P_START_AMMO_FIXED = _add("setup.start_ammo_fixed", v, lo=0, hi=6, prov=pv, src=sr, doc="G2 alternative's count")
P_MISSION_EXTRA = _add(
    "setup.missions_per_tier_extra",
    3,
    lo=0,
    hi=10,
    prov="F",
    src="T Setup ('1 card per player plus 3')",
    doc="mission cards drawn from each tier = players + this",
)
P_ENTRY_USES_ACTION = _add(
    "rule.entry_uses_action",
    "off",
    kind="bool",
    prov="A",
    src="N G3",
    doc="G3: on: the free horse/pistol of the entry square is the first turn's location action",
)

# ------------------------------------------------------------------ movement
v, pv, sr = _v(DATA["movement"]["foot"])
P_MOVE_FOOT = _add("move.foot", v, lo=1, hi=16, prov=pv, src=sr, doc="squares on foot")
v, pv, sr = _v(DATA["movement"]["mounted"])
P_MOVE_HORSE = _add("move.mounted", v, lo=1, hi=16, prov=pv, src=sr, doc="squares mounted")
v, pv, sr = _v(DATA["movement"]["extra_cost_gn"])
P_EXTRA_COST = _add(
    "move.extra_cost", v, lo=0, hi=20, prov=pv, src=sr, doc="GN paid for the extra move (Stables, Stagecoach)"
)
v, pv, sr = _v(DATA["movement"]["extra_squares"])
P_EXTRA_SQ = _add("move.extra_squares", v, lo=0, hi=8, prov=pv, src=sr, doc="squares of the extra move")
P_MIN_MOVE = _add(
    "rule.min_move",
    1,
    lo=0,
    hi=1,
    prov="A",
    src="N G4",
    doc="G4: 1 = staying put is illegal; 0 = a move of 0 is allowed",
)
P_EXTRA_USES_ACTION = _add(
    "rule.extra_move_uses_action",
    "on",
    kind="bool",
    prov="A",
    src="N G5",
    doc="G5: the paid extra move is the location action (off: free extra, other actions still allowed)",
)
P_MOVE_END_LOC = _add(
    "rule.move_ends_on_location",
    "off",
    kind="bool",
    prov="A",
    src="N section 7",
    doc="on: a move must end on a location square",
)
P_HORSE_COST = _add(
    "price.horse",
    DATA["horse_cost"]["v"],
    lo=0,
    hi=30,
    prov="F",
    src=DATA["horse_cost"]["src"],
    doc="horse at the Stables",
)

# ------------------------------------------------------------------ weapons (consecutive: cost, range, rounds)
P_WEAPON = len(T)
for w in DATA["weapons"]:
    _add(
        f"weapon.{w['id']}.cost",
        w["cost"],
        lo=0,
        hi=100,
        prov=w["p"],
        src=w["src"],
        doc=f"{w['id']} price at the Armory",
    )
    _add(
        f"weapon.{w['id']}.range",
        w["range"],
        lo=0,
        hi=99,
        prov=w["p"],
        src=w["src"],
        doc=f"{w['id']} range in squares (99 = unlimited)",
    )
    _add(
        f"weapon.{w['id']}.rounds", w["rounds"], lo=1, hi=5, prov=w["p"], src=w["src"], doc=f"{w['id']} rounds per duel"
    )
P_WEAPON_RANGE_ON = _add(
    "rule.weapon_range",
    "on",
    kind="bool",
    prov="F",
    src="T Weapons; N section 7 (off: a review's 'whatever the number of squares')",
    doc="off: no range limit, only a straight line of sight",
)

# ------------------------------------------------------------------ jobs (consecutive: gn, lp, ammo)
P_JOB = len(T)
for j in DATA["jobs"]:
    _add(f"job.{j['id']}.gn", j["gn"], lo=0, hi=20, prov=j["p"], src=j["src"], doc=f"{j['id']} income in GN per turn")
    _add(f"job.{j['id']}.lp", j["lp"], lo=0, hi=3, prov=j["p"], src=j["src"], doc=f"{j['id']} income in LP per turn")
    _add(
        f"job.{j['id']}.ammo",
        j["ammo"],
        lo=0,
        hi=3,
        prov=j["p"],
        src=j["src"],
        doc=f"{j['id']} income in ammunition cards per turn",
    )
v, pv, sr = _v(DATA["bandit_income_gn"])
P_BANDIT_GN = _add("job.BANDIT.gn", v, lo=0, hi=10, prov=pv, src=sr, doc="income of a jobless player")
v, pv, sr = _v(DATA["sheriff_penalty_gn"])
P_SHERIFF_PENALTY = _add(
    "job.SHERIFF.penalty",
    v,
    lo=0,
    hi=10,
    prov=pv,
    src=sr,
    doc="GN the Sheriff takes from a duel loser (G21: what there is)",
)
v, pv, sr = _v(DATA["undertaker_bonus_gn"])
P_UNDERTAKER_BONUS = _add(
    "job.UNDERTAKER.bonus", v, lo=0, hi=20, prov=pv, src=sr, doc="GN to the Undertaker when a player loses all LP"
)
P_UNDERTAKER_SELF = _add(
    "rule.undertaker_self",
    "off",
    kind="bool",
    prov="A",
    src="N G20",
    doc="G20: on: the Undertaker also collects when he himself reaches 0 LP",
)
P_BANKER = _add(
    "option.banker",
    "off",
    kind="bool",
    prov="A",
    src="N G27; MOUT",
    doc="G27: the retail Banker badge at the Bank (income job.BANKER.gn, +job.BANKER.rob_bonus when anyone "
    "robs the Bank)",
)
v, pv, sr = _v(DATA["banker_rob_bonus_gn"])
P_BANKER_BONUS = _add("job.BANKER.rob_bonus", v, lo=0, hi=10, prov=pv, src=sr, doc="GN to the Banker per bank robbery")
v, pv, sr = _v(DATA["bribe_judge_cost"])
P_BRIBE_COST = _add(
    "price.bribe_judge", v, lo=0, hi=30, prov=pv, src=sr, doc="G30: GN to remove another player's badge at the Court"
)

# ------------------------------------------------------------------ robbery
v, pv, sr = _v(DATA["robbery"]["bank_gn"])
P_ROB_BANK = _add("rob.bank_gn", v, lo=0, hi=30, prov=pv, src=sr, doc="GN for robbing the Bank (discard a Head)")
v, pv, sr = _v(DATA["robbery"]["saloon_gn"])
P_ROB_SALOON = _add(
    "rob.saloon_gn", v, lo=0, hi=30, prov=pv, src=sr, doc="GN for robbing the Saloon (discard a Chest or Head)"
)
v, pv, sr = _v(DATA["robbery"]["store_gn_max"])
P_ROB_STORE = _add(
    "rob.store_gn", v, lo=0, hi=30, prov=pv, src=sr, doc="GN taken (up to) from a store's owner, or the bank if unowned"
)
v, pv, sr = _v(DATA["robbery"]["store_discard"])
P_ROB_STORE_CARDS = _add(
    "rob.store_cards", v, lo=0, hi=6, prov=pv, src=sr, doc="ammunition cards discarded to rob a store"
)

# ------------------------------------------------------------------ stores (consecutive: price, unit price)
P_STORE = len(T)
for name in STORE_NAMES:
    st = BOARD["stores"][name]
    _add(
        f"store.{name}.price", st["store_price"], lo=0, hi=100, prov="A", src=st["src"], doc=f"price to buy the {name}"
    )
    _add(
        f"store.{name}.unit_price",
        st["unit_price"],
        lo=0,
        hi=30,
        prov="A",
        src=st["src"],
        doc=f"price of one unit at the {name}",
    )
v, pv, sr = _v(DATA["buy_store_mission_extra_gn"])
P_STORE_MISSION_EXTRA = _add(
    "store.mission_extra",
    v,
    lo=0,
    hi=50,
    prov=pv,
    src=sr,
    doc="'buy a store' mission: GN paid to the bank if you own it, added to the price if another owns it",
)
P_STORE_ONE_SUB = _add(
    "rule.store_one_subaction",
    "off",
    kind="bool",
    prov="A",
    src="N G7",
    doc="G7: on: a store visit is exactly one of buy a unit / buy the store / rob",
)

# ------------------------------------------------------------------ board pickups (per location)
P_LOC_GN = len(T)
for L in BOARD["locations"]:
    g = 0
    for a in L["actions"]:
        if a.startswith("pickup_gn:"):
            g = int(a.split(":")[1])
    _add(f"board.{L['id']}.gn", g, lo=0, hi=20, prov="A", src="N 3.1 (board data)", doc=f"GN picked up at {L['id']}")
P_LOC_AMMO = len(T)
for L in BOARD["locations"]:
    g = 0
    for a in L["actions"]:
        if a.startswith("pickup_ammo:"):
            g = int(a.split(":")[1])
    _add(
        f"board.{L['id']}.ammo",
        g,
        lo=0,
        hi=6,
        prov="A",
        src="N 3.1 (board data)",
        doc=f"ammunition cards picked up at {L['id']}",
    )
P_FORT_BONUS = _add(
    "rule.fort_bonus",
    "ammo",
    kind="choice",
    choices=("ammo", "gn"),
    prov="A",
    src="N G29",
    doc="G29: the Fort's second action: +1 ammunition (default) or +1 GN",
)

# ------------------------------------------------------------------ duels
P_DUELS_PER_SIDE = _add(
    "rule.duels_per_side",
    1,
    lo=0,
    hi=5,
    prov="A",
    src="N G8 and section 7 (text's example)",
    doc="G8: duels before and after the move (each); 0 = any number, each opponent once per turn",
)
P_OVERMATCH_EQUAL = _add(
    "rule.overmatched_equal",
    "tie",
    kind="choice",
    choices=("tie", "cancel"),
    prov="A",
    src="N G12",
    doc="G12: a defender replying beyond his weapon's capacity with an equal card: normal tie, or cancel",
)
P_MULTI_WEAPONS = _add(
    "rule.several_weapons",
    "off",
    kind="bool",
    prov="A",
    src="N G16",
    doc="G16: on: weapons accumulate and each duel uses the held weapon with most rounds in range; "
    "off: one weapon, a new one replaces the old",
)

# ------------------------------------------------------------------ jail
v, pv, sr = _v(DATA["jail"]["vp_loss"])
P_JAIL_VP = _add("jail.vp_loss", v, lo=0, hi=5, prov=pv, src=sr, doc="VP lost at 0 LP (VP never below 0)")
v, pv, sr = _v(DATA["jail"]["lp_after"])
P_JAIL_LP = _add("jail.lp_after", v, lo=1, hi=10, prov=pv, src=sr, doc="G19: LP restored when the skipped turn ends")

# ------------------------------------------------------------------ casino
v, pv, sr = _v(DATA["casino"]["multiplier"])
P_CASINO_MULT = _add("casino.multiplier", v, lo=0, hi=10, prov=pv, src=sr, doc="a won bet pays this times the bet")
P_CASINO_GROSS = _add(
    "casino.payout",
    "net",
    kind="choice",
    choices=("net", "gross"),
    prov="F",
    src="T Saloon example; N G26",
    doc="G26: net: stake kept and multiplier x bet added (text example); gross: stake included (+2x net)",
)
P_CASINO_CAP = _add(
    "casino.bet_cap",
    0,
    lo=0,
    hi=1000,
    prov="A",
    src="N G26 and balance warning",
    doc="largest bet (0 = any amount of own GN, the text; 1 = the legend's 'bet a nugget')",
)
v, pv, sr = _v(DATA["casino"]["pairs"])
P_CASINO_PARTS = _add("casino.parts", v, lo=1, hi=2, prov=pv, src=sr, doc="body parts named per bet (1 or 2)")

# ------------------------------------------------------------------ missions
P_SECRET_IN_LIMIT = _add(
    "rule.secret_in_limit",
    "on",
    kind="bool",
    prov="A",
    src="N G22",
    doc="G22: secret missions count toward the per-turn mission limit",
)
P_NEIGHBOUR = _add(
    "rule.neighbour",
    "next",
    kind="choice",
    choices=("next", "previous"),
    prov="A",
    src="N G23",
    doc="G23: 'the player on your left' = the next player in turn order (text) or the previous one (legend)",
)
P_SECRET_ANYTIME = _add(
    "rule.secret_anytime",
    "off",
    kind="bool",
    prov="A",
    src="N G24",
    doc="G24: on: secret missions progress and score while holding a job too",
)
P_BADGE_FIRST = _add(
    "rule.duel_badge_first",
    "off",
    kind="bool",
    prov="A",
    src="reading of T 'Resolving a duel' (G15)",
    doc="on: a duel winner who takes the loser's badge takes it before the hit or frighten is "
    "credited (no 'frighten a horse' secret once he holds a job, no 'kill a job holder'); off: "
    "credited first",
)
P_HIT_DISTINCT_CAP = _add(
    "rule.hit_distinct_capped",
    "on",
    kind="bool",
    prov="A",
    src="reading of the assumed HIT_DISTINCT:3 card (N 3.3)",
    doc="on: 'hit 3 different players' needs at most every opponent (both of them at 3 "
    "players); off: literal, the card cannot be completed at 3 players and stays face up",
)
v, pv, sr = _v(DATA["end"]["vp_target"])
P_VP_TARGET = _add("end.vp_target", v, lo=1, hi=100, prov=pv, src=sr, doc="VP that triggers the end (finish the round)")
P_FINISH_ROUND = _add(
    "rule.finish_round",
    "on",
    kind="bool",
    prov="A",
    src="N G25",
    doc="G25: on: finish the round so all players have equal turns; off: stop after the triggering turn",
)
P_R_UNARMED = _add(
    "rule.unarmed_defender",
    "bare_hands",
    kind="choice",
    choices=("bare_hands", "only_cancel"),
    prov="D",
    src="T 'If the challenged player is unarmed ... he can still play an ammunition card. If "
    "it is a dodge card or a better one ..., the duel is cancelled'; T 'Hand-to-hand'",
    doc="a defender without a weapon reaching the challenger, in a hand-to-hand struggle: bare_hands = "
    "replies with his bare hands (1 round, can win and hit); only_cancel = his card can only "
    "cancel the duel, as the unarmed sentence says",
)
P_R_FAKE = _add(
    "rule.fake",
    "takes_hit",
    kind="choice",
    choices=("takes_hit", "loses_round"),
    prov="F",
    src="T 'By faking ... he will take the hit but save his card' and its example (Maria loses 1 LP)",
    doc="a defender who fakes: takes_hit = loses 1 LP (the challenger cannot frighten his horse "
    "instead); loses_round = loses the round, the challenger chooses hit or frighten as after any win",
)
P_R_HTH = _add(
    "rule.hand_to_hand",
    "location",
    kind="choice",
    choices=("location", "any_shared_square"),
    prov="F",
    src="T 'When you stand on a location occupied by another player, you can challenge him ... even unarmed'",
    doc="hand-to-hand struggles need both players on one location (location) or also on one plain "
    "street square (any_shared_square)",
)
P_R_SHERIFF_PEN = _add(
    "rule.sheriff_penalty",
    "per_round",
    kind="choice",
    choices=("per_round", "per_duel"),
    prov="D",
    src="T Jobs 'When you win a duel, collect a penalty of 2 GNs'; T 'Multiple gun "
    "fire' ('fire a first round and resolve the duel')",
    doc="the Sheriff's penalty for every round he wins (each round resolves the duel) or once "
    "per duel in which he wins a round",
    alt_prov={"per_duel": ("literal", "T Jobs 'When you win a duel, collect a penalty of 2 GNs'")},
)
P_ROUND_CAP = _add(
    "end.round_cap",
    150,
    lo=5,
    hi=2000,
    prov="A",
    src="safety cap (not a rule)",
    doc="rounds after which a game is stopped and recorded as capped",
)
P_MISSION = len(T)
for k, m in enumerate(MISSIONS):
    _add(
        f"mission.{k:02d}.gn",
        m[1],
        lo=0,
        hi=50,
        prov=m[4],
        src=DATA["missions"]["src"],
        doc=f"tier {m[3]} '{m[0]}' reward GN",
    )
    _add(
        f"mission.{k:02d}.vp",
        m[2],
        lo=0,
        hi=20,
        prov=m[4],
        src=DATA["missions"]["src"],
        doc=f"tier {m[3]} '{m[0]}' reward VP",
    )
P_SECRET = len(T)
for k, m in enumerate(SECRETS):
    _add(
        f"secret.{k}.gn",
        m[1],
        lo=0,
        hi=50,
        prov="A",
        src=DATA["secret_missions"]["src"],
        doc=f"secret '{m[0]}' reward GN",
    )
    _add(
        f"secret.{k}.vp",
        m[2],
        lo=0,
        hi=20,
        prov="A",
        src=DATA["secret_missions"]["src"],
        doc=f"secret '{m[0]}' reward VP",
    )

# ------------------------------------------------------------------ decks
P_AMMO_DECK = _add(
    "deck.ammo",
    "uniform",
    kind="choice",
    choices=("uniform", "anatomical", "custom"),
    prov="A",
    src="N 3.3",
    doc="ammunition deck: option A uniform (5 of each), option B anatomical (6/3/3/6/6/6), or the deck.custom.* counts",
)
P_AMMO_CUSTOM = len(T)
for i, nm in enumerate(AMMO_NAMES):
    _add(
        f"deck.custom.{nm}",
        DATA["ammo_deck"]["uniform"]["counts"][i],
        lo=0,
        hi=10,
        prov="A",
        src="N 3.3",
        doc=f"{nm} cards in the custom ammunition deck",
    )
P_CHEST = len(T)
for c in DATA["chest_deck"]:
    for f, lo, hi in (("lp", -3, 3), ("gn", 0, 20), ("ammo", 0, 6), ("weapon", -1, 4), ("horse", 0, 1)):
        _add(
            f"chest.{c['id']}.{f}",
            c[f],
            lo=lo,
            hi=hi,
            prov=c["p"],
            src=c["src"],
            doc=f"chest card {c['id']}: {f}" + (" (weapon index, -1 none)" if f == "weapon" else ""),
        )
# ------------------------------------------------------------------ items
# What seats acquire (the items table, one row each: seat, item id, turn), in the order of state.py's IT_* ids.
ITEM_NAMES = tuple(
    [f"weapon:{w}" for w in WEAPON_NAMES]
    + ["horse"]
    + [f"job:{j}" for j in JOB_NAMES]
    + [f"store:{s}" for s in STORE_NAMES]
    + [f"mission:t{m[3]}:{k:02d}:{m[0]}" for k, m in enumerate(MISSIONS)]
    + [f"secret:{k}:{m[0]}" for k, m in enumerate(SECRETS)]
    + ["start:STABLES", "start:ARMORY"]
)
ITEM_KINDS = tuple(
    ["weapon"] * len(WEAPON_NAMES)
    + ["horse"]
    + ["job"] * len(JOB_NAMES)
    + ["store"] * len(STORE_NAMES)
    + [f"mission_t{m[3]}" for m in MISSIONS]
    + ["secret_mission"] * len(SECRETS)
    + ["start"] * 2
)
P_ITEM_REMOVE = _add(
    "item.remove",
    "none",
    kind="choice",
    choices=("none",) + ITEM_NAMES,
    prov="D",
    src="sim effect",
    doc="take this item out of the game (none: the game as printed): a mission or secret mission is not in its deck "
    "(the next card of the same shuffle comes instead), a badge, store, weapon or horse is never available (no "
    "purchase, no badge at its location, no chest or entry gift of it), a starting square is not offered",
)
PARAMS = T

# ------------------------------------------------------------------ structural tables (compile-time constants)
W, H = BOARD["width"], BOARD["height"]
NSQ = W * H
NLOC = len(LOC_NAMES)
NJOB = len(JOB_NAMES)
NSTORE = len(STORE_NAMES)
NCHEST = len(CHEST_NAMES)
NMISSION = len(MISSIONS)
NSECRET = len(SECRETS)
STREET = np.zeros(NSQ, np.int8)
for y in range(H):
    for x in range(W):
        if y in BOARD["street_rows"] or x in BOARD["street_cols"]:
            STREET[y * W + x] = 1
LOC_AT = np.full(NSQ, -1, np.int64)
LOC_SQ = np.zeros(NLOC, np.int64)  # first square of each location
LOC_JOB = np.full(NLOC, -1, np.int64)
LOC_STORE = np.full(NLOC, -1, np.int64)
LOC_FLAGS = np.zeros(NLOC, np.int64)
F_WEAPONS, F_HORSE, F_EXTRA, F_CHEST, F_BANK, F_CASINO, F_ROBSAL, F_BRIBE, F_JAIL, F_FORT = (1 << i for i in range(10))
for i, L in enumerate(BOARD["locations"]):
    for x, y in L["squares"]:
        LOC_AT[y * W + x] = i
    LOC_SQ[i] = L["squares"][0][1] * W + L["squares"][0][0]
    for a in L["actions"]:
        if a.startswith("job:"):
            LOC_JOB[i] = JOB_NAMES.index(a.split(":")[1].upper())
        elif a.startswith("store:"):
            LOC_STORE[i] = STORE_NAMES.index(L["id"])
        LOC_FLAGS[i] |= {
            "buy_weapon": F_WEAPONS,
            "buy_horse": F_HORSE,
            "extra_move": F_EXTRA,
            "chest": F_CHEST,
            "rob_bank": F_BANK,
            "casino": F_CASINO,
            "rob_saloon": F_ROBSAL,
            "bribe_judge": F_BRIBE,
            "jail": F_JAIL,
        }.get(a, 0)
LOC_FLAGS[LOC_NAMES.index("FORT")] |= F_FORT
STORE_SELLS_LP = np.array([1 if BOARD["stores"][n]["sells"] == "LP" else 0 for n in STORE_NAMES], np.int64)
L_JAIL = LOC_NAMES.index("JAIL")
L_STABLES = LOC_NAMES.index("STABLES")
L_ARMORY = LOC_NAMES.index("ARMORY")
L_BANK = LOC_NAMES.index("BANK")
J_SHERIFF, J_NOTARY, J_MEDIC, J_SOLDIER, J_UNDERTAKER, J_BANKER = range(6)


def _walk_distances():
    d = np.full((NSQ, NSQ), 999, np.int64)
    for s0 in range(NSQ):
        if not STREET[s0]:
            continue
        d[s0, s0] = 0
        q = deque([s0])
        while q:
            s = q.popleft()
            x, y = s % W, s // W
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nx, ny = x + dx, y + dy
                if 0 <= nx < W and 0 <= ny < H and STREET[ny * W + nx] and d[s0, ny * W + nx] > d[s0, s] + 1:
                    d[s0, ny * W + nx] = d[s0, s] + 1
                    q.append(ny * W + nx)
    return d


DIST = _walk_distances()
# line of sight: same full street row or column; SIGHT[a, b] = range along that line, else -1
SIGHT = np.full((NSQ, NSQ), -1, np.int64)
for a in range(NSQ):
    for b in range(NSQ):
        if STREET[a] and STREET[b]:
            ax, ay, bx, by = a % W, a // W, b % W, b // W
            if ay == by and ay in BOARD["street_rows"]:
                SIGHT[a, b] = abs(ax - bx)
            elif ax == bx and ax in BOARD["street_cols"]:
                SIGHT[a, b] = abs(ay - by)

# mission requirement components: per card two components (kind, arg, count)
(
    C_NONE,
    C_BECOME,
    C_BUY,
    C_HIT,
    C_HIT_NEXT,
    C_HIT_JOB,
    C_HIT_DISTINCT,
    C_KILL,
    C_ROB,
    C_USE_AMMO,
    C_GIVE,
    C_BUY_STORE,
    C_OWN_STORES,
    C_WIN_DUEL,
    C_BRIBE,
    C_CASINO_WIN,
    C_FRIGHTEN,
    C_KILL_JOB,
) = range(18)
ROB_AT_BANK, ROB_AT_STORE, ROB_AT_SALOON = 0, 1, 2  # what a robbery robs: its bit in the ROB masks
ROB_BANK_BIT, ROB_STORE_BIT, ROB_SALOON_BIT = 1 << ROB_AT_BANK, 1 << ROB_AT_STORE, 1 << ROB_AT_SALOON
BUY_HORSE = len(WEAPON_NAMES)  # the horse in the BUY masks (weapons are bits 0..4)


def _component(code):
    kind, _, arg = code.partition(":")
    if kind == "BECOME":
        return C_BECOME, 1 << JOB_NAMES.index(arg), 1
    if kind == "BUY_WEAPON":
        names = ("RIFLE", "DOUBLE_BARREL") if arg == "RIFLE_OR_DOUBLE_BARREL" else (arg,)
        return C_BUY, sum(1 << WEAPON_NAMES.index(w) for w in names), 1
    if kind == "BUY_HORSE_OR_WEAPON":
        return C_BUY, (1 << (BUY_HORSE + 1)) - 1, 1
    if kind == "HIT_ANY":
        return C_HIT, 0, 1
    if kind == "HIT_NEIGHBOUR":
        return C_HIT_NEXT, 0, int(arg)
    if kind == "HIT_JOB":
        if arg == "MEDIC_OR_SOLDIER":
            return C_HIT_JOB, (1 << J_MEDIC) | (1 << J_SOLDIER), 1
        return C_HIT_JOB, 1 << JOB_NAMES.index(arg), 1
    if kind == "HIT_DISTINCT":
        return C_HIT_DISTINCT, 0, int(arg)
    if kind == "KILL_ANY":
        return C_KILL, 0, 1
    if kind == "ROB":
        what, _, n = arg.partition(":")
        mask = {
            "BANK": ROB_BANK_BIT,
            "STORE": ROB_STORE_BIT,
            "SALOON": ROB_SALOON_BIT,
            "BANK_OR_STORE": ROB_BANK_BIT | ROB_STORE_BIT,
        }[what]
        return C_ROB, mask, int(n or 1)
    if kind == "USE_AMMO":
        return C_USE_AMMO, 0, int(arg)
    if kind == "GIVE_AMMO_EACH":
        return C_GIVE, 0, 1
    if kind == "BUY_STORE":
        return C_BUY_STORE, STORE_NAMES.index(arg), 1
    if kind == "OWN_STORES":
        return C_OWN_STORES, 0, int(arg)
    if kind == "WIN_DUELS":
        return C_WIN_DUEL, 0, int(arg)
    if kind == "BRIBE_JUDGE":
        return C_BRIBE, 0, 1
    if kind == "WIN_CASINO_BET":
        return C_CASINO_WIN, 0, 1
    if kind == "FRIGHTEN_HORSE":
        return C_FRIGHTEN, 0, 1
    if kind == "KILL_JOB_HOLDER":
        return C_KILL_JOB, 0, 1
    raise ValueError(code)


def _table(cards):
    out = np.zeros((len(cards), 2, 3), np.int64)
    for k, m in enumerate(cards):
        parts = m[0].split("+")
        for c, part in enumerate(parts):
            out[k, c] = _component(part)
    return out


MCOMP = _table(MISSIONS)  # [card, component, (kind, arg, count)]
SCOMP = _table(SECRETS)
MTIER = np.array([m[3] for m in MISSIONS], np.int64)
AMMO_UNIFORM = np.array(DATA["ammo_deck"]["uniform"]["counts"], np.int64)
AMMO_ANATOMICAL = np.array(DATA["ammo_deck"]["anatomical"]["counts"], np.int64)
