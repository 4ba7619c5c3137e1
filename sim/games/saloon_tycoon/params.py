"""Saloon Tycoon parameters: every rule constant, component and ambiguity reading as a named parameter.

All component data (lots, tiles, Tycoon cards, claims, characters) comes from data/saloon_tycoon.json (or the file
named by the environment variable SALOON_TYCOON_DATA, so a designer can drop in the real lists) and is put into
the float64 parameter vector, not into compiled constants: a changed data file can never run against stale
machine code, and every number can be overridden with `--set` or swept.

Slots are fixed: groups of like parameters take consecutive slots (`BASE + k * STRIDE + field`), with room for
MAX_* entries; the counts actually present are parameters too (provenance D: counted from the data file).
"""

import json
import os
from pathlib import Path

from sim.errors import UserError
from sim.params import ParamTable

DEFAULT_DATA = Path(__file__).parent / "data" / "saloon_tycoon.json"

# ---------------------------------------------------------------- structural limits (compile-time in the engine)
MAX_TILE_TYPES = 16
MAX_CARD_TYPES = 16
MAX_DECK = 80
MAX_OPEN = 32
MAX_SECRET = 40
N_CHARS = 12
N_LOTS = 8
MAX_TERMS = 4
LOT_IDS = ("A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4")
OUTLAW_IDS = ("FLATFOOT_FLEMING", "MOONSHINE_ANGIE", "SYDNEY_SMYTHE", "PHINEUS_PILLBOTTOM")

BONUS_KINDS = ("none", "cubes", "draw", "play_card", "action", "citizen", "gold")
REQ_KINDS = (
    "none",
    "chars_named",
    "chars_any",
    "chars_gender_F",
    "chars_gender_M",
    "citizens",
    "citizens_gender_F",
    "citizens_gender_M",
    "outlaws",
    "outlaws_max",
    "tiles",
    "tile_type",
    "finished_tiles",
    "special_tiles",
    "distinct_tile_types_excl_saloon",
    "large_tiles_excl_saloon",
    "tiles_on_floor_3",
    "tiles_above_saloon",
    "roofs",
    "large_roofs",
    "ground_lots_with_extra_gold_ge",
    "full_ground_arm",
    "gold",
    "income",
    "hand_size",
    "cubes_on_board",
)
CARD_KEYS = (
    "gold",
    "cubes",
    "gold_equal_income",
    "extra_tycoon_actions",
    "forbid",
    "buy_cubes_up_to",
    "price",
    "build_now",
    "ignore_lot_cost",
    "discount",
    "steal_gold",
    "steal_cards_random",
    "move_character",
    "draw",
)


def _err(path, msg):
    return UserError(f"saloon_tycoon data file {path}: {msg}")


def _need(obj, key, path, where):
    if not isinstance(obj, dict) or key not in obj:
        raise _err(path, f"{where} lacks the field '{key}'")
    return obj[key]


def _int(v, path, where, lo=0, hi=10**6):
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != int(v):
        raise _err(path, f"{where} must be a whole number (got {v!r})")
    if not lo <= v <= hi:
        raise _err(path, f"{where} = {v} is out of range [{lo}, {hi}]")
    return int(v)


def load_data(path=None):
    """Read and validate a component data file; every problem is a one-line UserError naming the entry."""
    path = Path(path or os.environ.get("SALOON_TYCOON_DATA") or DEFAULT_DATA)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise _err(path, "not found") from None
    except json.JSONDecodeError as e:
        raise _err(path, f"is not valid JSON ({e.msg} at line {e.lineno})") from None
    validate(data, path)
    return data


def validate(data, path="<data>"):
    for sec in ("setup", "board", "tiles", "roofs", "characters", "tycoon_cards", "open_claims", "secret_claims"):
        _need(data, sec, path, "the file")
    lots = _need(data["board"], "lots", path, "board")
    ids = [lot.get("id") for lot in lots] if isinstance(lots, list) else []
    if sorted(ids) != sorted(LOT_IDS):
        raise _err(path, f"board.lots must be exactly {', '.join(LOT_IDS)} (got {ids})")
    for lot in lots:
        _int(_need(lot, "extra_gold", path, f"lot {lot['id']}"), path, f"lot {lot['id']}.extra_gold", 0, 100)
        _int(_need(lot, "rep", path, f"lot {lot['id']}"), path, f"lot {lot['id']}.rep", -50, 100)
    tiles = data["tiles"]
    if not isinstance(tiles, list) or not 2 <= len(tiles) <= MAX_TILE_TYPES:
        raise _err(path, f"tiles must be a list of 2..{MAX_TILE_TYPES} entries")
    if tiles[0].get("id") != "SALOON":
        raise _err(path, "the first tile must be SALOON (the start tile)")
    tile_ids = [t.get("id") for t in tiles]
    if len(set(tile_ids)) != len(tile_ids):
        raise _err(path, "tile ids must be unique")
    chars = data["characters"]
    char_ids = [c.get("id") for c in chars] if isinstance(chars, list) else []
    if len(char_ids) != N_CHARS or tuple(char_ids[:4]) != OUTLAW_IDS:
        raise _err(
            path, f"characters must be {N_CHARS} entries, the four outlaws first in the order {', '.join(OUTLAW_IDS)}"
        )
    for c in chars:
        if c.get("gender") not in ("F", "M"):
            raise _err(path, f"character {c['id']}: gender must be F or M")
        if c.get("kind") not in ("outlaw", "citizen"):
            raise _err(path, f"character {c['id']}: kind must be outlaw or citizen")
    for t in tiles:
        tid = t.get("id")
        if t.get("size") not in ("S", "L"):
            raise _err(path, f"tile {tid}: size must be S or L")
        _int(_need(t, "copies", path, f"tile {tid}"), path, f"tile {tid}.copies", 0, 40)
        _int(_need(t, "cube_spaces", path, f"tile {tid}"), path, f"tile {tid}.cube_spaces", 1, 12)
        if tid != "SALOON":
            _int(_need(t, "cost", path, f"tile {tid}"), path, f"tile {tid}.cost", 0, 100)
        fb = t.get("finish_bonus")
        if fb is not None:
            if fb.get("type") not in BONUS_KINDS:
                raise _err(path, f"tile {tid}: finish_bonus.type must be one of {', '.join(BONUS_KINDS)}")
            if fb["type"] == "citizen" and fb.get("who") not in char_ids:
                raise _err(path, f"tile {tid}: finish_bonus.who '{fb.get('who')}' is not a character id")
        pre = t.get("prereq") or {}
        for key in ("requires_built", "forbidden_if_built"):
            for ref in pre.get(key, []):
                if ref not in tile_ids:
                    raise _err(path, f"tile {tid}: prereq {key} names unknown tile '{ref}'")
            if len(pre.get(key, [])) > 1:
                raise _err(path, f"tile {tid}: prereq {key} supports one tile")
        for f in pre.get("floors", []):
            _int(f, path, f"tile {tid}.prereq.floors", 1, 3)
    cards = data["tycoon_cards"]
    if not isinstance(cards, list) or not 1 <= len(cards) <= MAX_CARD_TYPES:
        raise _err(path, f"tycoon_cards must be a list of 1..{MAX_CARD_TYPES} entries")
    total = 0
    for c in cards:
        cid = c.get("id")
        total += _int(_need(c, "copies", path, f"card {cid}"), path, f"card {cid}.copies", 0, MAX_DECK)
        eff = _need(c, "effect", path, f"card {cid}")
        for k in eff:
            if k not in CARD_KEYS:
                raise _err(path, f"card {cid}: unknown effect key '{k}' (known: {', '.join(CARD_KEYS)})")
        for f in eff.get("forbid", []):
            if f != "play_card":
                raise _err(path, f"card {cid}: forbid supports only play_card")
    if total > MAX_DECK:
        raise _err(path, f"the Tycoon deck has {total} cards; the engine holds at most {MAX_DECK}")
    for sec, cap in (("open_claims", MAX_OPEN), ("secret_claims", MAX_SECRET)):
        cl = data[sec]
        if not isinstance(cl, list) or not 1 <= len(cl) <= cap:
            raise _err(path, f"{sec} must be a list of 1..{cap} entries")
        for c in cl:
            _claim_terms(c, path, char_ids, tile_ids)
    return data


def _claim_terms(c, path, char_ids, tile_ids):
    """(points, per_character, [(kind, a, n), ...]) of one claim entry."""
    cid = c.get("id")
    pts = _need(c, "points", path, f"claim {cid}")
    per = 0
    if isinstance(pts, dict):
        per = _int(
            _need(pts, "per_character_in_saloon", path, f"claim {cid}.points"), path, f"claim {cid}.points", 0, 50
        )
        pts = 0
    else:
        pts = _int(pts, path, f"claim {cid}.points", 0, 100)
    terms = []
    for key, v in _need(c, "req", path, f"claim {cid}").items():
        if key == "chars_named":
            for name in v:
                if name not in char_ids:
                    raise _err(path, f"claim {cid}: unknown character '{name}'")
                terms.append((key, char_ids.index(name), 1))
        elif key == "tiles" and isinstance(v, dict):
            for name, n in v.items():
                if name not in tile_ids:
                    raise _err(path, f"claim {cid}: unknown tile '{name}'")
                terms.append(("tile_type", tile_ids.index(name), _int(n, path, f"claim {cid}.tiles", 0, 50)))
        elif key == "ground_lots_with_extra_gold_ge":
            terms.append((key, _int(v[1], path, f"claim {cid}.{key}", 0, 100), _int(v[0], path, f"claim {cid}", 0, 8)))
        elif key in REQ_KINDS:
            terms.append((key, 0, _int(v, path, f"claim {cid}.{key}", 0, 1000)))
        else:
            raise _err(path, f"claim {cid}: unknown requirement '{key}' (known: {', '.join(REQ_KINDS[1:])})")
    if len(terms) > MAX_TERMS:
        raise _err(path, f"claim {cid}: {len(terms)} requirement terms; the engine supports {MAX_TERMS}")
    return pts, per, terms


def _slug(s):
    return s.lower()


def _setup_params(T, S, data, path):
    """Add the starting set-up, limits, income and supplies to T; their slot bases go in S."""
    st = data["setup"]

    def setup(name, key, lo, hi, doc, sub=None):
        e = st[key]
        v = e["v"] if sub is None else e["v"][sub]
        return T.add(name, v, lo=lo, hi=hi, prov=e["p"], src=",".join(e.get("src", [])), doc=doc)

    S["START_GOLD"] = setup("setup.start_gold", "start_gold", 0, 100, "gold each player starts with")
    S["START_HAND"] = setup("setup.start_hand", "start_tycoon_hand", 0, 5, "Tycoon cards dealt to each player")
    S["HAND_LIMIT"] = setup("limit.hand", "tycoon_hand_limit", 1, 10, "Tycoon hand limit (discard before drawing)")
    S["SECRET_DEALT"] = setup("setup.secret_dealt", "secret_claims_dealt_kept", 0, 8, "Secret Claims dealt", 0)
    S["SECRET_KEPT"] = setup("setup.secret_kept", "secret_claims_dealt_kept", 0, 8, "Secret Claims kept", 1)
    S["OPEN_EXTRA"] = T.add(
        "setup.open_claims_extra",
        2,
        lo=0,
        hi=20,
        prov="F",
        src="R",
        doc="Open Claims face up = players + this (1st edition: +1 per WEP)",
    )
    S["CUBES_PER_PLAYER"] = T.add(
        "setup.cubes_per_player",
        25,
        lo=1,
        hi=200,
        prov="F",
        src="R",
        doc="supply cubes in the timer pile per player (1st edition: 20)",
    )
    S["CUBE_PRICE"] = setup("cost.cube", "cube_price", 0, 20, "gold per bought Supply cube")
    S["BRIBE"] = setup("cost.bribe", "bribe_cost", 0, 50, "gold to bribe a character")
    S["EARN"] = setup("action.earn_gold", "earn_gold_action", 0, 20, "gold from the Earn action")
    S["DRAW"] = setup("action.draw", "draw_action", 0, 5, "cards from the Draw action")
    S["FIN_L"] = setup("score.finish_large", "finish_points", 0, 50, "Rep for finishing a large tile", "large")
    S["FIN_S"] = setup("score.finish_small", "finish_points", 0, 50, "Rep for finishing a small tile", "small")
    S["ROOF_PTS"] = setup("score.roof", "roof_points", 0, 50, "Rep for a roof")
    S["UNF_L"] = setup(
        "score.unfinished_large", "unfinished_endgame_points", 0, 50, "end-game Rep per unfinished large tile", "large"
    )
    S["UNF_S"] = setup(
        "score.unfinished_small", "unfinished_endgame_points", 0, 50, "end-game Rep per unfinished small tile", "small"
    )
    S["CIT_PTS"] = setup("score.citizen", "citizen_endgame_points", -50, 50, "end-game Rep per Citizen")
    S["MIN_INCOME"] = T.add(
        "income.minimum",
        1,
        lo=0,
        hi=10,
        prov="F",
        src="R ('You always earn at least 1 gold')",
        doc="least gold taken in the Income step",
    )
    roofs = data["roofs"]
    S["ROOFS_S"] = T.add(
        "supply.roofs_small", roofs["small"], lo=0, hi=100, prov=roofs["p"], src="R", doc="small roof tiles"
    )
    S["ROOFS_L"] = T.add(
        "supply.roofs_large", roofs["large"], lo=0, hi=100, prov=roofs["p"], src="R", doc="large roof tiles"
    )


def _outlaw_params(T, S, data, path):
    """Add the outlaws' thresholds and end-game Rep to T; their slot bases go in S."""
    S["FLAT_GOLD"] = T.add(
        "outlaw.flatfoot_gold",
        10,
        lo=1,
        hi=1000,
        prov="F",
        src="R",
        doc="Flatfoot Fleming goes to the first player to hold this much gold on his turn",
    )
    S["FLAT_MALUS"] = T.add(
        "outlaw.flatfoot_income_malus",
        1,
        lo=0,
        hi=10,
        prov="F",
        src="R",
        doc="gold less at Income while holding Flatfoot Fleming",
    )
    S["ANGIE_TILES"] = T.add(
        "outlaw.angie_tiles",
        5,
        lo=1,
        hi=100,
        prov="F",
        src="R",
        doc="Moonshine Angie goes to the first player to build this many tiles",
    )
    S["PHIN_CUBES"] = T.add(
        "outlaw.phineus_cubes",
        5,
        lo=1,
        hi=200,
        prov="F",
        src="R",
        doc="Phineus Pillbottom goes to the first player with this many cubes on his board",
    )
    S["PHIN_PRICE"] = T.add(
        "outlaw.phineus_cube_price",
        3,
        lo=0,
        hi=50,
        prov="F",
        src="R",
        doc="cube price while holding Phineus Pillbottom",
    )
    S["SYD_PTS"] = T.add(
        "outlaw.sydney_points",
        -5,
        lo=-50,
        hi=50,
        prov="F",
        src="R",
        doc="end-game Rep of the player holding Sydney Smythe",
    )


def _reading_params(T, S, data, path):
    """Add the readings of ambiguous rules (rule.*) and engine options to T; their slot bases go in S."""
    S["R_SALOON_SCORES"] = T.add(
        "rule.saloon_finish_scores",
        "on",
        kind="bool",
        prov="A",
        src="S2",
        doc="finishing the Saloon scores like any large tile (off: no Rep)",
    )
    S["R_FLAT_TIMING"] = T.add(
        "rule.flatfoot_check",
        "any_time",
        kind="choice",
        choices=("any_time", "end_of_turn"),
        prov="D",
        src="S4 (R: 'immediately')",
        doc="when the 10-gold trigger is checked during the player's own turn",
    )
    S["R_ANGIE_ROOFS"] = T.add(
        "rule.angie_counts_roofs",
        "on",
        kind="bool",
        prov="A",
        src="S5",
        doc="roofs count among the tiles built for Moonshine Angie (the Saloon never does)",
    )
    S["R_PHIN_COUNT"] = T.add(
        "rule.phineus_counts",
        "any_cubes",
        kind="choice",
        choices=("any_cubes", "bought_only"),
        prov="A",
        src="S6",
        doc="which cubes on the board count for Phineus Pillbottom",
    )
    S["R_ANGIE_ACTION_BONUS"] = T.add(
        "rule.angie_discard_on_action_bonus",
        "on",
        kind="bool",
        prov="D",
        src="S8",
        doc="a card played through a tile's 'take an action' bonus needs Angie's discard",
    )
    S["R_BRIBE_TARGET"] = T.add(
        "rule.bribe_target",
        "any_saloon",
        kind="choice",
        choices=("any_saloon", "own_only"),
        prov="F",
        src="S9 (R: 'from one player's saloon to another (including your own)')",
        doc="where a bribed or card-moved character may go",
    )
    S["R_LIMIT_ALL_DRAWS"] = T.add(
        "rule.hand_limit_all_draws",
        "on",
        kind="bool",
        prov="D",
        src="S10",
        doc="the discard-before-draw hand limit applies to every draw (off: Draw action only)",
    )
    S["R_FINAL_OUTLAWS"] = T.add(
        "rule.final_round_outlaw_triggers",
        "off",
        kind="bool",
        prov="D",
        src="S13",
        doc="on: outlaw triggers still hand out outlaws in the others' final turns",
    )
    S["R_THEATER"] = T.add(
        "rule.theater_position",
        "above_saloon",
        kind="choice",
        choices=("above_saloon", "any_upper_floor"),
        prov="F",
        src="S14",
        doc="tiles marked above_saloon go on the Saloon's column (floor 2-3) or on any floor 2-3 lot",
    )
    S["R_ROOF_EMPTY"] = T.add(
        "rule.roof_when_pile_empty",
        "none",
        kind="choice",
        choices=("none", "roof_anyway"),
        prov="A",
        src="S15",
        doc="a finished 3rd-floor tile when that roof pile is empty",
    )
    S["R_FOOTPRINTS"] = T.add(
        "rule.large_footprints",
        "any_neighbour",
        kind="choice",
        choices=("aligned", "any_neighbour"),
        prov="D",
        src="S1 (R: 'a large tile ... two lots'; both readings fit both rulebook examples)",
        doc="large tiles on any two neighbouring lots of an arm, or only on aligned lot pairs (A1+A2, A3+A4, ...)",
    )
    S["R_CUBE_BUY"] = T.add(
        "rule.cube_purchase",
        "all_then_place",
        kind="choice",
        choices=("all_then_place", "one_at_a_time"),
        prov="F",
        src="R Supply Your Tiles ('1. Pay 2 gold per Supply cube ... 2. Take the Supply cubes "
        "you purchased and place them')",
        doc="a purchase pays for every cube at the price in force when it starts, then places "
        "them (an outlaw arriving mid-purchase does not reprice it), or each cube is bought "
        "and placed on its own",
    )
    S["R_TIE_CLAIMS"] = T.add(
        "rule.tiebreak_claims",
        "on",
        kind="bool",
        prov="F",
        src="R",
        doc="second tie-break: most claims (after most gold)",
    )
    S["R_STEAL_LIMIT"] = T.add(
        "rule.steal_respects_hand_limit",
        "on",
        kind="bool",
        prov="A",
        src="assumed card text",
        doc="stolen cards stop at the hand limit (the rest stay with the victim)",
    )
    S["TURN_CAP"] = T.add(
        "engine.turn_cap",
        600,
        lo=10,
        hi=20000,
        prov="A",
        src="engine safety",
        doc="total turns after which a game stops unfinished (end_reason turn_cap)",
    )
    S["STALL_ROUNDS"] = T.add(
        "engine.stall_rounds",
        5,
        lo=0,
        hi=1000,
        prov="A",
        src="not in the rulebook: a game where nobody can place a cube never empties the pile",
        doc="end the game (end_reason stalled) after this many whole rounds in which nobody "
        "built a tile or placed a cube; 0 = never",
    )


def _lot_params(T, S, data, path):
    """Add the ground lots' extra gold and Rep to T; their slot bases go in S."""
    S["LOT0"] = len(T)
    by_id = {lot["id"]: lot for lot in data["board"]["lots"]}
    for lid in LOT_IDS:
        lot = by_id[lid]
        T.add(
            f"lot.{lid}.gold",
            lot["extra_gold"],
            lo=0,
            hi=100,
            prov=lot.get("p", "A"),
            src=lot.get("why", ""),
            doc=f"extra gold to build on ground lot {lid}",
        )
        T.add(
            f"lot.{lid}.rep",
            lot["rep"],
            lo=-50,
            hi=100,
            prov=lot.get("p", "A"),
            src=lot.get("why", ""),
            doc=f"Rep for building on ground lot {lid}",
        )


def _character_params(T, S, data, path):
    """Add the characters' gender and kind to T; their slot bases go in S."""
    chars = data["characters"]
    S["CHAR0"] = len(T)
    for c in chars:
        pv = c.get("provenance", {})
        gp = pv.get("gender", pv.get("all", "A"))[:1]
        T.add(
            f"char.{_slug(c['id'])}.gender",
            c["gender"],
            kind="choice",
            choices=("F", "M"),
            prov=gp if gp in "FDA" else "A",
            src=",".join(c.get("src", [])),
            doc=f"gender of {c['name']}",
        )
        T.add(
            f"char.{_slug(c['id'])}.kind",
            c["kind"],
            kind="choice",
            choices=("outlaw", "citizen"),
            prov="F" if c["kind"] == "outlaw" else "D",
            src=",".join(c.get("src", [])),
            doc=f"kind of {c['name']}",
        )


def _tile_params(T, S, data, path):
    """Add the tile types: costs, Rep, prerequisites and finish bonuses to T; their slot bases go in S."""
    char_ids = [c["id"] for c in data["characters"]]
    tiles = data["tiles"]
    tile_ids = [t["id"] for t in tiles]
    S["N_TILES"] = T.add(
        "count.tile_types",
        len(tiles),
        lo=2,
        hi=MAX_TILE_TYPES,
        prov="D",
        src="data file",
        doc="tile types in the data file (structural: change the file, not this)",
    )
    S["TILE0"] = len(T)
    for k in range(MAX_TILE_TYPES):
        t = tiles[k] if k < len(tiles) else None
        pref = f"tile.{_slug(t['id'])}" if t else f"tile.unused{k}"
        pv = (t or {}).get("provenance", {})

        def prov(key, pv=pv):
            v = str(pv.get(key, pv.get("all", "A")))[:1]
            return v if v in "FDA" else "A"

        fb = (t or {}).get("finish_bonus") or {"type": "none"}
        pre = (t or {}).get("prereq") or {}
        floors = pre.get("floors", [1, 2, 3])
        T.add(
            f"{pref}.large", "on" if t and t["size"] == "L" else "off", kind="bool", prov=prov("size"), doc="large tile"
        )
        T.add(f"{pref}.copies", t["copies"] if t else 0, lo=0, hi=40, prov=prov("copies"), doc="copies in the game")
        T.add(f"{pref}.cost", (t.get("cost") or 0) if t else 0, lo=0, hi=100, prov=prov("cost"), doc="gold cost")
        T.add(
            f"{pref}.cubes",
            t["cube_spaces"] if t else 1,
            lo=1,
            hi=12,
            prov=prov("cube_spaces"),
            doc="supply cube spaces",
        )
        T.add(
            f"{pref}.bonus",
            fb["type"],
            kind="choice",
            choices=BONUS_KINDS,
            prov=prov("finish_bonus"),
            doc="one-time finishing bonus",
        )
        T.add(
            f"{pref}.bonus_n",
            fb.get("n", 0),
            lo=0,
            hi=20,
            prov=prov("finish_bonus"),
            doc="bonus amount (cubes, cards, gold)",
        )
        T.add(
            f"{pref}.citizen",
            char_ids.index(fb["who"]) if fb["type"] == "citizen" else -1,
            lo=-1,
            hi=N_CHARS - 1,
            prov=prov("citizen"),
            doc="character index the bonus brings (-1 none)",
        )
        T.add(f"{pref}.floor_min", min(floors), lo=1, hi=3, prov=prov("prereq"), doc="lowest floor allowed")
        T.add(f"{pref}.floor_max", max(floors), lo=1, hi=3, prov=prov("prereq"), doc="highest floor allowed")
        T.add(
            f"{pref}.above_saloon",
            "on" if pre.get("above_saloon") else "off",
            kind="bool",
            prov=prov("prereq"),
            doc="must stand above the Saloon",
        )
        req = pre.get("requires_built", [])
        T.add(
            f"{pref}.requires",
            tile_ids.index(req[0]) if req else -1,
            lo=-1,
            hi=MAX_TILE_TYPES - 1,
            prov=prov("prereq"),
            doc="tile index that must already be built (-1 none)",
        )
        forb = pre.get("forbidden_if_built", [])
        T.add(
            f"{pref}.forbidden_if",
            tile_ids.index(forb[0]) if forb else -1,
            lo=-1,
            hi=MAX_TILE_TYPES - 1,
            prov=prov("prereq"),
            doc="tile index whose presence forbids this one (-1 none)",
        )
        T.add(f"{pref}.special", "on" if t and t.get("special") else "off", kind="bool", prov="F", doc="special tile")
    S["TS"] = 13


def _card_params(T, S, data, path):
    """Add the Tycoon cards to T; their slot bases go in S."""
    cards = data["tycoon_cards"]
    S["N_CARDS"] = T.add(
        "count.card_types",
        len(cards),
        lo=1,
        hi=MAX_CARD_TYPES,
        prov="D",
        src="data file",
        doc="Tycoon card types in the data file (structural)",
    )
    S["CARD0"] = len(T)
    for k in range(MAX_CARD_TYPES):
        c = cards[k] if k < len(cards) else None
        pref = f"card.{_slug(c['id'])}" if c else f"card.unused{k}"
        pv = (c or {}).get("provenance", {})
        pe = str(pv.get("effect", pv.get("all", "A")))[:1]
        pe = pe if pe in "FDA" else "A"
        pc = str(pv.get("count", pv.get("all", "A")))[:1]
        pc = pc if pc in "FDA" else "A"
        e = (c or {}).get("effect", {})
        T.add(f"{pref}.copies", c["copies"] if c else 0, lo=0, hi=MAX_DECK, prov=pc, doc="copies in the deck")
        T.add(f"{pref}.gold", e.get("gold", 0), lo=0, hi=100, prov=pe, doc="gold gained")
        T.add(f"{pref}.cubes", e.get("cubes", 0), lo=0, hi=20, prov=pe, doc="cubes to place at once")
        T.add(
            f"{pref}.gold_equal_income",
            "on" if e.get("gold_equal_income") else "off",
            kind="bool",
            prov=pe,
            doc="gain gold equal to the income track",
        )
        T.add(
            f"{pref}.extra_actions",
            e.get("extra_tycoon_actions", 0),
            lo=0,
            hi=5,
            prov=pe,
            doc="extra Tycoon actions this turn",
        )
        T.add(
            f"{pref}.extra_no_play",
            "on" if "play_card" in e.get("forbid", []) else "off",
            kind="bool",
            prov=pe,
            doc="the extra actions may not play a card",
        )
        T.add(f"{pref}.cheap_cubes", e.get("buy_cubes_up_to", 0), lo=0, hi=20, prov=pe, doc="cubes buyable at a price")
        T.add(f"{pref}.cheap_price", e.get("price", 0), lo=0, hi=20, prov=pe, doc="price of those cubes")
        T.add(f"{pref}.build", "on" if e.get("build_now") else "off", kind="bool", prov=pe, doc="build a tile now")
        T.add(
            f"{pref}.ignore_lot",
            "on" if e.get("ignore_lot_cost") else "off",
            kind="bool",
            prov=pe,
            doc="that build ignores the lot's extra gold (Rep still scored)",
        )
        T.add(f"{pref}.discount", e.get("discount", 0), lo=0, hi=50, prov=pe, doc="that build's tile discount")
        T.add(
            f"{pref}.steal_gold",
            e.get("steal_gold", 0),
            lo=0,
            hi=50,
            prov=pe,
            doc="gold taken from the richest opponent",
        )
        T.add(
            f"{pref}.steal_cards",
            e.get("steal_cards_random", 0),
            lo=0,
            hi=5,
            prov=pe,
            doc="random cards taken from the opponent with most cards",
        )
        T.add(
            f"{pref}.move_character",
            "on" if e.get("move_character") else "off",
            kind="bool",
            prov=pe,
            doc="move a character in town to another saloon",
        )
        T.add(f"{pref}.draw", e.get("draw", 0), lo=0, hi=5, prov=pe, doc="cards drawn")
    S["CS"] = 15


def _claim_params(T, S, data, path):
    """Add the Open and Secret Claims to T; their slot bases go in S."""
    char_ids = [c["id"] for c in data["characters"]]
    tile_ids = [t["id"] for t in data["tiles"]]
    for sec, cap, key in (("open_claims", MAX_OPEN, "OPEN"), ("secret_claims", MAX_SECRET, "SECRET")):
        cl = data[sec]
        S[f"N_{key}"] = T.add(
            f"count.{sec}",
            len(cl),
            lo=1,
            hi=cap,
            prov="D",
            src="data file",
            doc=f"{sec.replace('_', ' ')} in the data file (structural)",
        )
        S[f"{key}0"] = len(T)
        for k in range(cap):
            c = cl[k] if k < len(cl) else None
            pref = f"claim.{_slug(c['id'])}" if c else f"claim.{key.lower()}_unused{k}"
            pts, per, terms = _claim_terms(c, path, char_ids, tile_ids) if c else (0, 0, [])
            pv = str((c or {}).get("provenance", "A"))
            pv = "F" if pv == "F" else "A"
            T.add(f"{pref}.points", pts, lo=0, hi=100, prov=pv, doc="Rep scored")
            T.add(f"{pref}.per_character", per, lo=0, hi=50, prov=pv, doc="Rep per character in the saloon (0: fixed)")
            for j in range(MAX_TERMS):
                kind, a, n = terms[j] if j < len(terms) else ("none", 0, 0)
                T.add(f"{pref}.req{j}", kind, kind="choice", choices=REQ_KINDS, prov=pv, doc="requirement kind")
                T.add(
                    f"{pref}.req{j}_a",
                    a,
                    lo=0,
                    hi=100,
                    prov=pv,
                    doc="requirement argument (character or tile index, lot gold threshold)",
                )
                T.add(f"{pref}.req{j}_n", n, lo=0, hi=1000, prov=pv, doc="requirement amount")
    S["KS"] = 2 + 3 * MAX_TERMS


def build_params(data, path="<data>"):
    """The ParamTable and the slot bases for a validated data file (slot positions do not depend on the file).
    Added section by section in a fixed order: a slot's position must not depend on the file."""
    T = ParamTable()
    S = {}
    for add_section in (
        _setup_params,
        _outlaw_params,
        _reading_params,
        _lot_params,
        _character_params,
        _tile_params,
        _card_params,
        _claim_params,
    ):
        add_section(T, S, data, path)
    return T, S


DATA_PATH = Path(os.environ.get("SALOON_TYCOON_DATA") or DEFAULT_DATA)
DATA = load_data(DATA_PATH)
PARAMS, SLOTS = build_params(DATA, DATA_PATH)
TILE_IDS = tuple(t["id"] for t in DATA["tiles"])
TILE_NAMES = tuple(t["name"].rstrip("*") for t in DATA["tiles"])
CARD_IDS = tuple(c["id"] for c in DATA["tycoon_cards"])
CARD_NAMES = tuple(c["name"] for c in DATA["tycoon_cards"])
CHAR_IDS = tuple(c["id"] for c in DATA["characters"])
CHAR_NAMES = tuple(c["name"] for c in DATA["characters"])
OPEN_NAMES = tuple(c["name"] for c in DATA["open_claims"])
SECRET_NAMES = tuple(c["name"] for c in DATA["secret_claims"])

# slot constants for the engine (module-level ints: compile-time constants)
P_START_GOLD = SLOTS["START_GOLD"]
P_START_HAND = SLOTS["START_HAND"]
P_HAND_LIMIT = SLOTS["HAND_LIMIT"]
P_SECRET_DEALT = SLOTS["SECRET_DEALT"]
P_SECRET_KEPT = SLOTS["SECRET_KEPT"]
P_OPEN_EXTRA = SLOTS["OPEN_EXTRA"]
P_CUBES_PER_PLAYER = SLOTS["CUBES_PER_PLAYER"]
P_CUBE_PRICE = SLOTS["CUBE_PRICE"]
P_BRIBE = SLOTS["BRIBE"]
P_EARN = SLOTS["EARN"]
P_DRAW = SLOTS["DRAW"]
P_FIN_L = SLOTS["FIN_L"]
P_FIN_S = SLOTS["FIN_S"]
P_ROOF_PTS = SLOTS["ROOF_PTS"]
P_UNF_L = SLOTS["UNF_L"]
P_UNF_S = SLOTS["UNF_S"]
P_CIT_PTS = SLOTS["CIT_PTS"]
P_MIN_INCOME = SLOTS["MIN_INCOME"]
P_ROOFS_S = SLOTS["ROOFS_S"]
P_ROOFS_L = SLOTS["ROOFS_L"]
P_FLAT_GOLD = SLOTS["FLAT_GOLD"]
P_FLAT_MALUS = SLOTS["FLAT_MALUS"]
P_ANGIE_TILES = SLOTS["ANGIE_TILES"]
P_PHIN_CUBES = SLOTS["PHIN_CUBES"]
P_PHIN_PRICE = SLOTS["PHIN_PRICE"]
P_SYD_PTS = SLOTS["SYD_PTS"]
P_R_SALOON_SCORES = SLOTS["R_SALOON_SCORES"]
P_R_FLAT_TIMING = SLOTS["R_FLAT_TIMING"]
P_R_ANGIE_ROOFS = SLOTS["R_ANGIE_ROOFS"]
P_R_PHIN_COUNT = SLOTS["R_PHIN_COUNT"]
P_R_ANGIE_ACTION_BONUS = SLOTS["R_ANGIE_ACTION_BONUS"]
P_R_BRIBE_TARGET = SLOTS["R_BRIBE_TARGET"]
P_R_LIMIT_ALL_DRAWS = SLOTS["R_LIMIT_ALL_DRAWS"]
P_R_FINAL_OUTLAWS = SLOTS["R_FINAL_OUTLAWS"]
P_R_THEATER = SLOTS["R_THEATER"]
P_R_ROOF_EMPTY = SLOTS["R_ROOF_EMPTY"]
P_R_FOOTPRINTS = SLOTS["R_FOOTPRINTS"]
P_R_CUBE_BUY = SLOTS["R_CUBE_BUY"]
P_R_TIE_CLAIMS = SLOTS["R_TIE_CLAIMS"]
P_R_STEAL_LIMIT = SLOTS["R_STEAL_LIMIT"]
P_TURN_CAP = SLOTS["TURN_CAP"]
P_STALL_ROUNDS = SLOTS["STALL_ROUNDS"]
P_LOT0 = SLOTS["LOT0"]
P_CHAR0 = SLOTS["CHAR0"]
P_N_TILES = SLOTS["N_TILES"]
P_TILE0 = SLOTS["TILE0"]
TS = SLOTS["TS"]
P_N_CARDS = SLOTS["N_CARDS"]
P_CARD0 = SLOTS["CARD0"]
CS = SLOTS["CS"]
P_N_OPEN = SLOTS["N_OPEN"]
P_OPEN0 = SLOTS["OPEN0"]
P_N_SECRET = SLOTS["N_SECRET"]
P_SECRET0 = SLOTS["SECRET0"]
KS = SLOTS["KS"]
# field offsets
(
    TF_LARGE,
    TF_COPIES,
    TF_COST,
    TF_CUBES,
    TF_BONUS,
    TF_BONUS_N,
    TF_CITIZEN,
    TF_FMIN,
    TF_FMAX,
    TF_ABOVE,
    TF_REQ,
    TF_FORBID,
    TF_SPECIAL,
) = range(13)
(
    CF_COPIES,
    CF_GOLD,
    CF_CUBES,
    CF_GOLD_INCOME,
    CF_EXTRA,
    CF_EXTRA_NOPLAY,
    CF_CHEAP_N,
    CF_CHEAP_PRICE,
    CF_BUILD,
    CF_IGNORE_LOT,
    CF_DISCOUNT,
    CF_STEAL_GOLD,
    CF_STEAL_CARDS,
    CF_MOVE,
    CF_DRAW,
) = range(15)
KF_POINTS, KF_PER, KF_TERM0 = 0, 1, 2
B_NONE, B_CUBES, B_DRAW, B_PLAY, B_ACTION, B_CITIZEN, B_GOLD = range(len(BONUS_KINDS))
(
    R_NONE,
    R_NAMED,
    R_ANY,
    R_F,
    R_M,
    R_CIT,
    R_CIT_F,
    R_CIT_M,
    R_OUTLAWS,
    R_OUTLAWS_MAX,
    R_TILES,
    R_TILE_TYPE,
    R_FINISHED,
    R_SPECIAL,
    R_DISTINCT,
    R_LARGE_EXCL,
    R_FLOOR3,
    R_ABOVE_SALOON,
    R_ROOFS,
    R_LARGE_ROOFS,
    R_LOTS_GE,
    R_FULL_ARM,
    R_GOLD,
    R_INCOME,
    R_HAND,
    R_CUBES,
) = range(len(REQ_KINDS))
