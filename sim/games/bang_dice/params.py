"""Parameters of BANG! The Dice Game + Old Saloon, built from data/bang_dice_components.json.

Every number and every rule reading is a named parameter (prov F = rulebook/public source, D = derived,
A = assumed).  The index constants below are compile-time slots used by engine.py.
A "choice" parameter with a single choice records a reading the note fixes (no alternative implemented).
"""

import json
from pathlib import Path

from sim.params import ParamTable

DATA_FILE = Path(__file__).resolve().parent / "data" / "bang_dice_components.json"
DATA = json.loads(DATA_FILE.read_text())

CHARACTERS = DATA["characters_base"] + DATA["characters_old_saloon"]
CHAR_IDS = [c["id"] for c in CHARACTERS]
CHAR_NAMES = [c["name"] for c in CHARACTERS]

TABLE = ParamTable()
_add = TABLE.add

# ---- life of each character (contiguous slots: LIFE + character index) ----
LIFE = None
for _i, _c in enumerate(CHARACTERS):
    _k = _add(
        f"life.{_c['id']}",
        _c["life"],
        lo=1,
        hi=20,
        prov="F",
        src="+".join(_c["src"]),
        doc=f"starting and maximum life of {_c['name']}",
    )
    if _i == 0:
        LIFE = _k
    assert _k == LIFE + _i

# ---- counts ----
SHERIFF_BONUS = _add(
    "count.sheriff_bonus",
    DATA["sheriff_life_bonus"],
    lo=0,
    hi=6,
    src="R13",
    doc="extra life (and max life) of the Sheriff",
)
BEAR_BONUS = _add("count.bear_bonus", 3, lo=0, hi=6, src="OS", doc="Sheriff bonus of The Bear (module 3)")
ARROWS = _add(
    "count.arrows",
    DATA["components"]["arrow_tokens"],
    lo=1,
    hi=30,
    src="R13",
    doc="regular arrow tokens in the central pile",
)
CHIEF_VALUE = _add(
    "count.chief_arrow_value",
    DATA["components"]["chief_arrow_value"],
    lo=1,
    hi=5,
    src="OS",
    doc="arrows the Indian Chief's Arrow is worth in an Indian attack and when counting the leader",
)
MAX_ROLLS = _add("count.max_rolls", DATA["max_rolls"], lo=1, hi=8, src="R13", doc="rolls per turn (1 + re-rolls)")
LUCKY_ROLLS = _add(
    "count.lucky_duke_rolls", DATA["max_rolls_lucky_duke"], lo=1, hi=8, src="R13", doc="rolls per turn of Lucky Duke"
)
GATLING_NEED = _add("count.gatling_threshold", 3, lo=1, hi=6, src="R13", doc="Gatling results needed to fire")
WILLY_NEED = _add("count.willy_threshold", 2, lo=1, hi=6, src="R13", doc="Gatling results Willy the Kid needs")
DYN_LIMIT = _add("count.dynamite_limit", 3, lo=1, hi=6, src="R13", doc="Dynamite showing that explodes")
DYN_DAMAGE = _add("count.dynamite_damage", 1, lo=0, hi=5, src="R13", doc="life lost when the Dynamite explodes")
BASE_DICE = _add(
    "count.base_dice",
    DATA["components"]["base_dice"],
    lo=2,
    hi=5,
    src="R13",
    doc="dice rolled per turn (structural maximum 5 base + 1 Saloon)",
)
GHOST_DICE = _add(
    "count.ghost_dice", DATA["ghost_module5"]["ghost_dice"], lo=1, hi=2, src="OS", doc="base dice rolled by the Ghost"
)
GHOST_REROLLS = _add(
    "count.ghost_rerolls", DATA["ghost_module5"]["ghost_rerolls"], lo=0, hi=5, src="OS", doc="re-rolls of the Ghost"
)
GHOST_MIN = _add(
    "count.ghost_min_players",
    DATA["ghost_module5"]["min_players"],
    lo=3,
    hi=8,
    src="OS",
    doc="the Ghost module is used only with at least this many players",
)
JESSE_THR = _add(
    "count.jesse_threshold",
    4,
    lo=0,
    hi=20,
    src="R13",
    doc="Jesse Jones' Beers on himself heal double at this life or less",
)
JESSE_HEAL = _add("count.jesse_heal", 2, lo=0, hi=5, src="R13", doc="life per self-Beer of a low Jesse Jones")
VULTURE_GAIN = _add("count.vulture_gain", 2, lo=0, hi=5, src="R13", doc="life Vulture Sam gains per elimination")
SUZY_HEAL = _add("count.suzy_heal", 2, lo=0, hi=5, src="R13", doc="life Suzy Lafayette gains without Bull's Eyes")
SID_HEAL = _add("count.sid_heal", 1, lo=0, hi=5, src="R13", doc="life Sid Ketchum gives at the start of his turn")
DOC_HEAL = _add("count.doc_holyday_heal", 2, lo=0, hi=5, src="OS", doc="life Doc Holyday gains")
DOC_SHOTS = _add(
    "count.doc_holyday_min_shots", 3, lo=1, hi=12, src="OS", doc="Bull's Eye results Doc Holyday must use to gain life"
)
LEFT_LIFE = _add(
    "count.left_hand_life", 2, lo=1, hi=9, src="OS", doc="life of a player saved by the Left Hand of the Devil"
)
VERA_RED = _add("count.vera_reduction", 1, lo=0, hi=5, src="OS", doc="Bull's Eye damage Vera Custer ignores")
JOUR_CAP = _add("count.jourdonnais_cap", 1, lo=0, hi=9, src="R13", doc="most life Jourdonnais loses per Indian attack")

# ---- modules ----
M_SALOON = _add("module.saloon_dice", 0, kind="bool", src="OS", doc="module 1: Loudmouth and Coward dice")
M_CHIEF = _add("module.chief_arrow", 0, kind="bool", src="OS", doc="module 2: the Indian Chief's Arrow")
M_SPECIAL = _add(
    "module.special_roles",
    "off",
    kind="choice",
    choices=("off", "replace", "mixed"),
    src="OS",
    doc="module 3: special roles replace the normal ones, or are mixed with them by type",
)
M_NEWCHARS = _add(
    "module.new_characters",
    0,
    kind="bool",
    src="OS",
    doc="module 4: the 8 new characters (each only with the modules it needs)",
)
M_GHOST = _add("module.ghost", 0, kind="bool", src="OS", doc="module 5: the Ghost (5+ players)")

# ---- ambiguities A1..A15 (note section 4) ----
R_DYN_RESOLVE = _add(
    "rule.dynamite_resolves_rest",
    1,
    kind="bool",
    prov="F",
    src="R13; A1",
    doc="A1: after 3+ Dynamite a surviving roller still resolves his other dice (off: turn ends)",
)
R_DEAD_ENDS = _add(
    "rule.dead_active_turn_ends",
    1,
    kind="bool",
    prov="F",
    src="RREV, GUIDE; A2",
    doc="A2: an active player eliminated mid-turn ends his turn (off: remaining dice still resolve)",
)
R_BE_WASTE = _add(
    "rule.bullseye_can_be_wasted",
    0,
    kind="bool",
    prov="D",
    src="GUIDE; A3",
    doc="A3: off = every Bull's Eye must hit a living player in range; on = may be assigned to "
    "an eliminated player, i.e. wasted",
)
R_GRINGO_AFTER = _add(
    "rule.gringo_arrow_after_gatling_discard",
    1,
    kind="bool",
    prov="F",
    src="GUIDE; A4",
    doc="A4: vs the Gatling the shooter discards first, then takes El Gringo's arrow "
    "(off: DOWO order, the arrow is discarded with the rest)",
)
R_GRINGO_ATTACK = _add(
    "rule.gringo_last_arrow_attacks",
    1,
    kind="bool",
    prov="D",
    src="A5",
    doc="A5: El Gringo's arrow taking the last token triggers an Indian attack "
    "(off: no arrow is given when only one token is left)",
)
R_JESSE_ONCE = _add(
    "rule.jesse_threshold_checked_once",
    1,
    kind="bool",
    prov="F",
    src="R13 example; A6",
    doc="A6: Jesse's threshold is checked once before the Beers (off: re-checked per Beer)",
)
R_3P_INDIAN = _add(
    "rule.three_player_indian_kill_counts",
    0,
    kind="bool",
    prov="D",
    src="DOWO; A7",
    doc="A7: off = only Bull's Eyes and Gatling are personal kills in the 3-player game; "
    "on = an Indian-attack death counts for the active player",
)
R_CHIEF_LAST = _add(
    "rule.chief_attack_trigger",
    "last_token",
    kind="choice",
    choices=("last_token", "last_regular"),
    prov="A",
    src="A8",
    doc="A8: the Indians attack when the last of all tokens leaves the pile (or the last regular one)",
)
R_VERA = _add(
    "rule.vera_reduction_per",
    "event",
    kind="choice",
    choices=("event", "die"),
    prov="D",
    src="A9",
    doc="A9: Vera Custer's -1 applies per damage event (one shooter's Bull's Eyes) or per die result",
)
R_KIT_DOUBLE = _add(
    "rule.kit_double_gatling_counts_two",
    1,
    kind="bool",
    prov="D",
    src="A10",
    doc="A10: a double Gatling gives Kit Carlson 2 discards (off: 1)",
)
R_GAMBLER_ARROWS = _add(
    "rule.gambler_roll_takes_arrows",
    1,
    kind="bool",
    prov="D",
    src="A15",
    doc="A15: the Gambler's forced re-roll takes arrows and checks Dynamite (off: its arrows are ignored)",
)
# Readings with no alternative (A11-A14, the section 7 decisions, The Doc's timing, Apache Kid's steal) are fixed in
# the engine and listed in RULES.md; they are not parameters, as no code could read another value.
# ---- engine readings of further points (see RULES.md) ----
R_SPECIAL_3P = _add(
    "rule.special_roles_3p",
    "off",
    kind="choice",
    choices=("off", "on"),
    prov="A",
    src="OS",
    doc="off = special roles are not used in the 3-player variant (no Sheriff to swap or protect); "
    "on = dealt by role as at 4+ players, without The Good (no Sheriff to swap with)",
)
R_BART_BULLET = _add(
    "rule.bart_vs_bullet",
    0,
    kind="bool",
    prov="D",
    src="R13; A16",
    doc="A16: off = Bart Cassidy takes an arrow instead of Bull's Eye and Gatling damage only (the "
    "list R13 gives); on = also instead of the Loudmouth's Bullet (neither Indians nor Dynamite)",
)

R_LEFT_DISCARD = _add(
    "rule.left_hand_discard",
    "all",
    kind="choice",
    choices=("all", "keep"),
    prov="D",
    src="OS",
    doc="the Left Hand's saved player 'may discard all of his arrows': all = he does (arrows "
    "can only cost life, so that is the choice a player makes), keep = he keeps them",
)
R_CHIEF_DISCARD = _add(
    "rule.chief_arrow_discard",
    "regular_first",
    kind="choice",
    choices=("regular_first", "chief_first"),
    prov="D",
    src="OS",
    doc="which arrow Kit Carlson's and Pedro Ramirez's discards return when the player holds "
    "the Chief's Arrow and regular ones: regular_first (keeps the sole-leader protection) "
    "or chief_first (returns the arrow worth two)",
)
# ---- interventions (sim effect): default none, which leaves every game as printed ----
ITEM_REMOVE = _add(
    "item.remove",
    "none",
    kind="choice",
    choices=("none",) + tuple(CHAR_IDS),
    prov="D",
    src="sim effect",
    doc="take this character out of the deck: a player dealt it gets the next card of the same "
    "shuffle instead (the rest of the deal and the dice are unchanged)",
)
ITEM_DEAL = _add(
    "item.deal",
    "none",
    kind="choice",
    choices=("none",) + tuple(CHAR_IDS),
    prov="D",
    src="sim effect",
    doc="with item.deal_to_seat: deal this character to that seat (it swaps cards with whoever the shuffle gave it to)",
)
ITEM_DEAL_SEAT = _add(
    "item.deal_to_seat",
    0,
    lo=0,
    hi=8,
    prov="D",
    src="sim effect",
    doc="the seat (1 = seat 0) that item.deal is dealt to; 0 = none",
)

R_GAMBLER_IGNORED = _add(
    "rule.gambler_ignored_roll",
    "stands",
    kind="choice",
    choices=("stands", "undone"),
    prov="D",
    src="OS The Gambler: 'Ignore all results of your last roll'",
    doc="the arrows the forced player took from the pile with his ignored last roll: stands = "
    "he keeps them (they were taken when rolled); undone = they go back to the pile, unless "
    "an Indian attack has fired since that roll",
)

N_PARAMS = len(TABLE)
