"""Raccoon Tycoon parameters: every number and rule reading a designer might change, \
built from data/raccoon_tycoon.json.

The module-level integers (P_*) are slots in the float64 vector; the engine reads them as compile-time constants.
Groups of like parameters (one per commodity, railroad, town, tile type, card) take consecutive slots, so the engine
reads them as `p[BASE + k * STRIDE + field]`.
"""

import json
from pathlib import Path

from sim.errors import UserError
from sim.params import ParamTable

DATA = json.loads((Path(__file__).parent / "data" / "raccoon_tycoon.json").read_text())
COMMODITIES = tuple(DATA["meta"]["commodity_order"])  # wheat wood iron coal goods luxury
NC = len(COMMODITIES)


class _Table(ParamTable):
    """ParamTable whose resolve() also runs this game's cross-parameter checks (see check())."""

    def resolve(self, overrides=None):
        return check(super().resolve(overrides))


T = _Table()


def _slug(name):
    return "".join(ch if ch.isalnum() else "_" for ch in name.lower().replace("'", "")).strip("_").replace("__", "_")


def _v(section, key):
    e = DATA[section][key]
    return e["value"], e["prov"], e["src"]


# ---------------------------------------------------------------- setup
v, pv, sr = _v("setup", "start_money")
P_START_MONEY = T.add("setup.start_money", v, lo=0, hi=1000, prov=pv, src=sr, doc="money each player starts with")
v, pv, sr = _v("setup", "hand_size")
P_HAND = T.add("limits.hand", v, lo=1, hi=5, prov=pv, src=sr, doc="P&P hand size (deal and refill) without buildings")
v, pv, sr = _v("setup", "tokens_per_commodity")
P_SUPPLY = T.add("limits.supply", v, lo=5, hi=60, prov=pv, src=sr, doc="tokens of each commodity in the game")
v, pv, sr = _v("setup", "start_player_free_tokens_by_order")
P_COMP0 = len(T)
for k in range(5):
    T.add(
        f"setup.free_tokens.order{k}",
        v[k],
        lo=0,
        hi=6,
        prov=pv,
        src=sr,
        doc=f"free distinct commodity tokens for the player at turn-order position {k} (0 = start player): "
        "the game's own first-player compensation",
    )
P_COMP_MODE = T.add(
    "rule.free_token_choice",
    "choose",
    kind="choice",
    choices=("choose", "random"),
    prov="F",
    src="RULES setup L ('of their choice'); alternative R20",
    doc="choose: each player picks his free tokens (a decision); random: distinct commodities at random",
)
P_START_PLAYER = T.add(
    "setup.start_player",
    "random",
    kind="choice",
    choices=("random", "seat0"),
    prov="F",
    src="RULES setup L (start player chosen randomly)",
    doc="seat0: seat 0 always starts (for fixed-order studies)",
)
P_BASIC_OFFER = T.add(
    "setup.basic_tiles",
    DATA["setup"]["basic_tiles_on_offer"]["value"],
    lo=0,
    hi=4,
    prov="F",
    src=DATA["setup"]["basic_tiles_on_offer"]["src"],
    doc="basic B tiles placed on the 4-space building offer at setup (the rest is filled from the advanced stack)",
)
P_OPT_BASIC_BY_PLAYERS = T.add(
    "option.basic_tiles_by_players",
    "off",
    kind="bool",
    prov="F",
    src="RULES setup K optional rule (R16)",
    doc="basic tiles on offer = number of players (max 4), the rest advanced",
)
P_OPT_BEGINNER = T.add(
    "option.beginner",
    "off",
    kind="bool",
    prov="F",
    src="RULES optional rules (beginning gamers)",
    doc="remove the advanced buildings from play (the offer is not refilled)",
)
P_BEGINNER_BASIC = T.add(
    "option.beginner_basic_stack",
    "off",
    kind="bool",
    prov="A",
    src="reading: the beginners' rule removes only the advanced buildings, setup J still removes "
    "the basic tiles not on offer (D)",
    doc="with option.beginner: the basic tiles not on offer refill the offer instead of leaving the game",
)


# ---------------------------------------------------------------- limits and effects
def _eff(name, key, lo, hi, doc):
    v, pv, sr = _v("effects", key)
    return T.add(name, v, lo=lo, hi=hi, prov=pv, src=sr, doc=doc)


P_STORAGE_BASE = _eff("limits.storage", "storage_base", 1, 40, "commodity tokens a player may hold with no buildings")
P_STORAGE_PER_BLD = _eff(
    "limits.storage_per_building", "storage_per_building", 0, 5, "storage added by every building owned"
)
P_WAREHOUSE = _eff("effect.warehouse_storage", "warehouse_storage", 0, 10, "extra storage of each Warehouse")
P_PROD_MAX = _eff("limits.production", "production_max", 1, 7, "tokens taken from a P&P card without P buildings")
P_COTTAGE_MAX = _eff(
    "effect.cottage_industry_max", "cottage_industry_max", 1, 7, "production maximum with Cottage Industry"
)
P_FACTORY_MAX = _eff("effect.factory_max", "factory_max", 1, 7, "production maximum with a Factory")
P_SMUGGLER_HAND = _eff("effect.smuggler_hand", "smuggler_hand", 1, 7, "hand limit with the Smuggler")
P_BLACKMARKET_HAND = _eff("effect.black_market_hand", "black_market_hand", 1, 7, "hand limit with the Black Market")
P_FIRM_PER_UNIT = _eff(
    "effect.trading_firm_per_unit", "trading_firm_per_unit", 0, 20, "trading firm income per unit sold"
)
P_AUCTION_HOUSE = _eff(
    "effect.auction_house", "auction_house_commission", 0, 50, "Auction House commission per auction"
)
P_EXPORT_RAISE = _eff("effect.export_raise", "export_raise", 0, 14, "Export Company price raise before a sale")
P_BANK_PER_VP = _eff("effect.bank_dollars_per_vp", "bank_dollars_per_vp", 1, 1000, "Bank: dollars per VP at game end")
P_GOVERNOR_VP = _eff(
    "effect.governors_mansion_vp", "governors_mansion_vp_per_town", 0, 5, "Governor's Mansion VP per town"
)
P_RAILBARON_VP = _eff("effect.rail_baron_vp", "rail_baron_vp_per_railroad", 0, 5, "Rail Baron VP per railroad card")
P_MAYOR_VP = _eff("effect.mayors_office_vp", "mayors_office_vp_per_building", 0, 5, "Mayor's Office VP per building")
P_BRICK = _eff("effect.brick_works_discount", "brick_works_discount", 0, 5, "Brick Works: fewer commodities per town")

# ---------------------------------------------------------------- scoring and options
P_BUILDING_VP = T.add(
    "score.building_vp",
    DATA["scoring"]["building_vp"]["value"],
    lo=0,
    hi=10,
    prov="F",
    src=DATA["scoring"]["building_vp"]["src"],
    doc="VP per building tile owned",
)
P_PAIR_VP = T.add(
    "score.pair_vp",
    DATA["scoring"]["pair_vp"]["value"],
    lo=0,
    hi=10,
    prov="F",
    src=DATA["scoring"]["pair_vp"]["src"],
    doc="VP per town + railroad pair",
)
P_OPT_SUDDEN = T.add(
    "option.sudden_death",
    "off",
    kind="bool",
    prov="F",
    src="RULES optional rules (R13)",
    doc="a player holding the threshold may end the game on his turn and win",
)
P_SUDDEN_MONEY = T.add(
    "option.sudden_death_money",
    DATA["scoring"]["sudden_death_money"]["value"],
    lo=1,
    hi=100000,
    prov="F",
    src=DATA["scoring"]["sudden_death_money"]["src"],
    doc="sudden-death threshold",
)

# ---------------------------------------------------------------- ambiguity readings (notes section 4)
P_PRICE_FLOOR = T.add(
    "rule.price_floor",
    "clamp",
    kind="choice",
    choices=("clamp", "refuse"),
    prov="A",
    src="R1: rulebook silent on prices leaving the track",
    doc="clamp: a sale lowers the price but never below the minimum; refuse: a sale that would go "
    "below the minimum is not allowed",
)
P_UPGRADE_COST = T.add(
    "rule.upgrade_cost",
    "full",
    kind="choice",
    choices=("full", "difference"),
    prov="F",
    src="R2: RULES 'upgrade the tile by paying the cost on the +2 side'",
    doc="full: pay the +2 side's printed cost; difference: pay +2 cost minus +1 cost",
)
P_UPGRADE_SAME_TURN = T.add(
    "rule.upgrade_same_turn",
    "off",
    kind="bool",
    prov="D",
    src="RULES 'the player may use a Purchase Building Tile action later to upgrade the tile'",
    doc="on: a tile bought this turn may be upgraded by a second (Construction Company) purchase",
)
P_CC_SAME_TURN = T.add(
    "rule.construction_company_same_turn",
    "off",
    kind="bool",
    prov="D",
    src="RULES 'You may perform two Purchase Building actions in one turn' (when it starts to work is not printed)",
    doc="off: the Construction Company works from the turn after it is bought (it is not owned when "
    "the turn's action is chosen); on: bought as the turn's purchase, it allows a second one",
)
P_EMPTY_DECK = T.add(
    "rule.empty_deck",
    "reshuffle",
    kind="choice",
    choices=("reshuffle", "stop"),
    prov="A",
    src="R3: rulebook silent",
    doc="empty P&P draw deck: reshuffle the discards, or stop drawing",
)
P_SUPPLY_LIMIT = T.add(
    "rule.supply_limited",
    "on",
    kind="bool",
    prov="F",
    src="R4: RULES contents (30 of each type)",
    doc="on: tokens come from a finite supply; off: unlimited",
)
P_AUCTION_OPEN = T.add(
    "rule.auction_open",
    "must_open",
    kind="choice",
    choices=("must_open", "may_decline"),
    prov="A",
    src="R5: rulebook says each player bids in turn starting with the starter",
    doc="must_open: the starter opens at or above the minimum bid; may_decline: he may pass at once",
)
P_AUCTION_CAP = T.add(
    "rule.auctions_per_turn",
    0,
    lo=0,
    hi=20,
    prov="A",
    src="R6: RULES 'they may perform any action, including another auction' (no cap printed)",
    doc="auctions one player may start in one turn; 0 = no cap (under must_open every auction sells a card)",
    alt_prov={"1": ("contradicts", "RULES 'they may perform any action, including another auction'")},
)
P_TWO_PLAYER_AUCTION = T.add(
    "rule.two_player_auction",
    "on",
    kind="bool",
    prov="F",
    src="RULES two player variant (R14)",
    doc="2 players: the starter bids once, the other raises once or passes",
)
P_AUCTION_HOUSE_OWN = T.add(
    "rule.auction_house_own",
    "on",
    kind="bool",
    prov="A",
    src="R7: RULES 'for each auction that is held'",
    doc="on: the owner earns the commission on auctions he starts too; off: others' auctions only",
)
P_FIRM_OWN = T.add(
    "rule.trading_firm_own",
    "on",
    kind="bool",
    prov="F",
    src="R8: RULES 'sold by any player'",
    doc="on: the owner earns on his own sales too; off: others' sales only",
)
P_GAME_END = T.add(
    "rule.game_end",
    "finish_round",
    kind="choice",
    choices=("finish_round", "immediate"),
    prov="F",
    src="R11: RULES 'finish the current Round'",
    doc="immediate: the game stops after the triggering action",
)
P_FREIGHT_SAME = T.add(
    "rule.freight_same_commodity",
    "off",
    kind="bool",
    prov="A",
    src="R18: 'sell 2 commodities in one turn' read as two different commodities",
    doc="on: the Freight Company's second sale may repeat the first commodity",
)
P_EXPORT_EACH = T.add(
    "rule.export_each_sale",
    "on",
    kind="bool",
    prov="A",
    src="RULES appendix 'When selling a Commodity, you may increase ...' (no per-turn limit printed)",
    doc="on: the Export raise may be used on each sale (incl. a Freight second sale); off: once a turn",
)
P_REFILL = T.add(
    "rule.refill",
    "after_production",
    kind="choice",
    choices=("after_production", "every_turn"),
    prov="F",
    src="R19: RULES production ('draw a new card ... to refill your hand')",
    doc="every_turn: hands are refilled at the end of every turn",
)
P_PROD_TAKE = T.add(
    "rule.production_take",
    "maximum",
    kind="choice",
    choices=("maximum", "up_to"),
    prov="F",
    src="RULES 'Take three (3) of the commodity tokens shown'",
    doc="maximum: take min(max, available) tokens; up_to: any number from 0 to that",
)

# ---------------------------------------------------------------- market
P_PRICE_MIN0 = len(T)
for c in COMMODITIES:
    m = DATA["market"][c]
    T.add(
        f"market.{c}.min", m["min"], lo=0, hi=60, prov=m["prov"], src=m["src"], doc=f"{c} track minimum = start price"
    )
    T.add(f"market.{c}.max", m["max"], lo=1, hi=60, prov=m["prov"], src=m["src"], doc=f"{c} track maximum")
MK_STRIDE = 2
MK_MIN, MK_MAX = 0, 1  # the fields of one commodity's group

# ---------------------------------------------------------------- railroads
RAILROADS = tuple(r["name"] for r in DATA["railroads"])
RR_SET_MAX = 4  # a railroad's VP are printed for owning 1 to 4 of its cards
P_RR0 = len(T)
for r in DATA["railroads"]:
    s = _slug(r["name"])
    T.add(f"railroad.{s}.min_bid", r["min_bid"], lo=0, hi=200, prov=r["prov"], src=r["src"], doc="minimum bid")
    for k in range(RR_SET_MAX):
        T.add(
            f"railroad.{s}.vp{k + 1}",
            r["vp_total"][k],
            lo=0,
            hi=100,
            prov=r["prov"],
            src=r["src"],
            doc=f"total VP for owning {k + 1} card(s) of this railroad",
        )
    T.add(f"railroad.{s}.copies", r["copies"], lo=0, hi=4, prov=r["prov"], src=r["src"], doc="cards in the game")
    T.add(
        f"railroad.{s}.min_players",
        r["min_players"],
        lo=2,
        hi=6,
        prov=r["prov"],
        src=r["src"],
        doc="in the deck only with at least this many players",
    )
RR_STRIDE = 7
RR_MIN_BID, RR_COPIES, RR_MIN_PLAYERS = 0, 5, 6  # the fields of one railroad's group; vp of k cards at k

# ---------------------------------------------------------------- towns
TOWNS = tuple(t["name"] for t in DATA["towns"])
P_TOWN0 = len(T)
for t in DATA["towns"]:
    s = _slug(t["name"])
    T.add(f"town.{s}.vp", t["vp"], lo=0, hi=20, prov=t["prov"], src=t["src"], doc="VP (also sets the deck order)")
    T.add(
        f"town.{s}.commodity",
        t["commodity"],
        kind="choice",
        choices=COMMODITIES,
        prov=t["prov"],
        src=t["src"],
        doc="the named commodity",
    )
    T.add(f"town.{s}.count", t["count"], lo=0, hi=20, prov=t["prov"], src=t["src"], doc="cost in the named commodity")
    T.add(f"town.{s}.any", t["any_count"], lo=0, hi=20, prov=t["prov"], src=t["src"], doc="cost in any commodities")
TOWN_STRIDE = 4
TOWN_VP, TOWN_COMMODITY, TOWN_COST_NAMED, TOWN_COST_ANY = range(TOWN_STRIDE)
P_TWO_PLAYER_TOWNS = T.add(
    "setup.two_player_town_removal",
    "on",
    kind="bool",
    prov="F",
    src="RULES setup I (R15)",
    doc="2 players: remove one town of each VP value",
)

# ---------------------------------------------------------------- buildings
# Building types (tile types).  0-5 basic B tiles in commodity order; 6.. advanced.  Tiles: one per copy.
ADV_KEYS = tuple(b["key"] for b in DATA["buildings_advanced"])
BTYPE_NAMES = tuple(
    b["plus1"]["name"] for b in sorted(DATA["buildings_basic"], key=lambda b: COMMODITIES.index(b["commodity"]))
) + tuple(b["name"] for b in DATA["buildings_advanced"])
BTYPE_UPGRADE_NAMES = tuple(
    b["plus2"]["name"] for b in sorted(DATA["buildings_basic"], key=lambda b: COMMODITIES.index(b["commodity"]))
) + ("Water Mill",)
N_BTYPES = len(BTYPE_NAMES)
P_BLD0 = len(T)
for b in sorted(DATA["buildings_basic"], key=lambda b: COMMODITIES.index(b["commodity"])):
    s = b["commodity"]
    T.add(
        f"building.{_slug(b['plus1']['name'])}.cost",
        b["plus1"]["cost"],
        lo=0,
        hi=500,
        prov=b["prov"],
        src=b["src"],
        doc=f"+1 {s} tile cost",
    )
    T.add(
        f"building.{_slug(b['plus1']['name'])}.upgrade_cost",
        b["plus2"]["cost"],
        lo=0,
        hi=500,
        prov=b["prov"],
        src=b["src"],
        doc=f"printed cost of the +2 side ({b['plus2']['name']})",
    )
    T.add(
        f"building.{_slug(b['plus1']['name'])}.copies",
        1,
        lo=0,
        hi=1,
        prov="F",
        src="RULES contents (6 tiles)",
        doc="1: in the basic draw; 0: removed from the game",
    )
for b in DATA["buildings_advanced"]:
    key = b["key"]
    T.add(f"building.{key}.cost", b["cost"], lo=0, hi=500, prov=b["prov"], src=b["src"], doc=b["effect"])
    T.add(
        f"building.{key}.upgrade_cost",
        b.get("upgrade_cost", 0),
        lo=0,
        hi=500,
        prov=b.get("upgrade_cost_prov", "F"),
        src=b.get("upgrade_cost_src", b["src"]),
        doc="printed cost of the +2 side (0: not double-sided)",
    )
    T.add(f"building.{key}.copies", b["copies"], lo=0, hi=2, prov=b["prov"], src=b["src"], doc="tiles in the stack")
BLD_STRIDE = 3
BLD_COST, BLD_UPGRADE_COST, BLD_COPIES = range(BLD_STRIDE)
P_BONUS_PLUS1 = T.add(
    "effect.bonus_plus1",
    1,
    lo=0,
    hi=5,
    prov="F",
    src="RULES appendix (+1 side)",
    doc="tokens from a B building's +1 side",
)
P_BONUS_PLUS2 = T.add(
    "effect.bonus_plus2",
    2,
    lo=0,
    hi=5,
    prov="F",
    src="RULES appendix (+2 side)",
    doc="tokens from a B building's +2 side",
)

# ---------------------------------------------------------------- Price & Production cards
PP = DATA["pp_cards"]
N_CARDS = len(PP["cards"])


def _digits(counts):
    v = 0
    for x in counts:
        v = v * 10 + x
    return v


P_PP0 = len(T)
for card in PP["cards"]:
    T.add(
        f"pp.{card['id']:02d}.price",
        _digits(card["price"]),
        lo=0,
        hi=999999,
        prov=PP["prov"],
        src=PP["src"],
        doc="price icons as six digits wheat-wood-iron-coal-goods-luxury (e.g. 200110 = 2 wheat, 1 coal, 1 goods)",
    )
    T.add(
        f"pp.{card['id']:02d}.production",
        _digits(card["production"]),
        lo=0,
        hi=999999,
        prov=PP["prov"],
        src=PP["src"],
        doc="production icons as six digits wheat-wood-iron-coal-goods-luxury",
    )
PP_STRIDE = 2
PP_PRICE, PP_PRODUCTION = range(PP_STRIDE)


def check(vec):
    """Cross-parameter checks the per-parameter ranges cannot express; raises a one-line UserError."""
    for i, c in enumerate(COMMODITIES):
        lo, hi = vec[P_PRICE_MIN0 + i * MK_STRIDE + MK_MIN], vec[P_PRICE_MIN0 + i * MK_STRIDE + MK_MAX]
        if lo > hi:
            raise UserError(f"market.{c}.min ({lo:g}) is above market.{c}.max ({hi:g})")
    if sum(vec[P_COMP0 + k] for k in range(5)) > 6 * vec[P_SUPPLY]:
        raise UserError("setup.free_tokens.* ask for more tokens than the supply holds")
    for i in range(N_CARDS):
        for half in (0, 1):
            v = int(vec[P_PP0 + i * PP_STRIDE + half])
            if sum(int(ch) for ch in f"{v:06d}") > 9:
                raise UserError(f"pp.{i + 1:02d}.{('price', 'production')[half]}={v}: at most 9 icons per card half")
    deck = sum(vec[P_RR0 + k * RR_STRIDE + RR_COPIES] for k in range(len(RAILROADS)))
    if deck < 1:
        raise UserError("railroad.*.copies: the railroad deck is empty")
    return vec


def resolve(overrides=None):
    """The parameter vector with overrides applied and checked."""
    return T.resolve(overrides)
