"""Raccoon Tycoon rules: the rulebook's worked examples, setup, every building power, auctions, end and scoring.

Hand-built states: a real setup (seat 0 starts, no free tokens unless a test asks), then fields set by hand and the
P&P card under test placed in the hand.  Driven through the jitted engine functions on a 1-element state array.
"""

import numpy as np
import pytest

from sim.errors import UserError
from sim.games.raccoon_tycoon import GAME
from sim.games.raccoon_tycoon import engine as E
from sim.games.raccoon_tycoon import params as P
from tests.harness import Harness

WHEAT, WOOD, IRON, COAL, GOODS, LUX = range(6)
TOP_DOG = P.RAILROADS.index("Top Dog")
FAT_CAT = P.RAILROADS.index("Fat Cat")
OUT = np.zeros(E.MAX_ACTIONS, np.int64)
SEAT = E.SEAT
NO_TOKENS = {f"setup.free_tokens.order{k}": 0 for k in range(5)}
H = Harness("raccoon_tycoon")
legal, act, encode = H.legal, H.act, H.encode


def params(**ov):
    """The parameters with seat 0 starting and no free start tokens, and ov ('__' for '.')."""
    return H.params(**NO_TOKENS, **{"setup.start_player": "seat0"}, **ov)


def fresh(n=4, p=None, seed=3):
    return H.fresh(n, seed=seed, p=params() if p is None else p)


def of_kind(s, p, kind):
    """The legal actions of one kind (a name of E.CODEC)."""
    return [a for a in legal(s, p) if E.CODEC.kind_name(a) == kind]


def field(a, name):
    return E.CODEC.field(a, name)


def taken_by(a):
    """What production action a takes of each commodity."""
    return tuple(field(a, c) for c in P.COMMODITIES)


def outcome(s, p):
    """write_outcome's seat rows of s: (integer columns, (VP, win share))."""
    si = np.zeros((E.MAX_PLAYERS, len(E.SEAT_COLUMNS)), np.int64)
    sf = np.zeros((E.MAX_PLAYERS, 2))
    items = np.zeros((E.MAX_ITEMS, 3 + len(GAME.item_columns)), np.int64)
    E.write_outcome(s, p, np.zeros(len(E.GAME_COLUMNS), np.int64), si, sf, items)
    return si, sf


def digit(code, c):
    """Commodity c's digit of a six-digit icon code (wheat leftmost), as the parameters store a P&P card."""
    return int(f"{int(code):06d}"[c])


def set_hand(s, seat, cards):
    for i, c in enumerate(cards):
        s["hand"][seat, i] = c
    s["hand_n"][seat] = len(cards)


def give_building(s, seat, bt, level=1):
    for t in range(s["n_tiles"]):
        if s["tile_type"][t] == bt and s["tile_owner"][t] < 0:
            s["tile_owner"][t] = seat
            s["tile_level"][t] = level
            s["tile_turn"][t] = 0
            s["own_bt"][seat, bt] += 1
            s["n_bld"][seat] += 1
            for k in range(4):
                if s["bld_offer"][k] == t:
                    s["bld_offer"][k] = -1
            stack = list(s["bld_stack"][: s["bld_n"]])
            if t in stack:
                stack.remove(t)
                s["bld_stack"][: len(stack)] = stack
                s["bld_n"] = len(stack)
            return t
    raise AssertionError("no free tile of that type")


def offer_tile(s, slot, bt):
    """Put the unowned tile of type bt on the building offer slot (swapping it if it is already on offer)."""
    for t in range(s["n_tiles"]):
        if s["tile_type"][t] == bt and s["tile_owner"][t] < 0:
            offer = list(s["bld_offer"])
            if t in offer:
                s["bld_offer"][offer.index(t)] = s["bld_offer"][slot]
            s["bld_offer"][slot] = t
            return t
    raise AssertionError


def prod_action(card, **take):
    return encode("PROD", card=card, **{("luxury" if c == "lux" else c): x for c, x in take.items()})


# ---------------------------------------------------------------- data
def test_deck_statistics_match_the_note():
    p = params()
    price = np.array([[digit(p[P.P_PP0 + 2 * i], c) for c in range(6)] for i in range(54)])
    prod = np.array([[digit(p[P.P_PP0 + 2 * i + 1], c) for c in range(6)] for i in range(54)])
    assert price.sum() == 150 and prod.sum() == 210
    assert list(price.sum(0)) == [17, 23, 27, 24, 31, 28]
    assert list(prod.sum(0)) == [42, 36, 31, 36, 33, 32]
    assert price.max() == 3
    shapes = sorted(zip(price.sum(1), prod.sum(1)))
    assert shapes.count((2, 4)) == 12 and shapes.count((3, 3)) == 6 and shapes.count((4, 3)) == 12
    # card 42 is Jacoby's card: price goods, luxury; production wood x2, iron, coal, goods
    assert list(price[41]) == [0, 0, 0, 0, 1, 1] and list(prod[41]) == [0, 2, 1, 1, 1, 0]


def test_setup_decodes_the_cards_of_the_parameters_it_is_given():
    # setup decodes the P&P cards once while a reused state plays one design: a state set up again with other
    # card parameters must hold the new cards, and with the old ones again the old cards
    p = params()
    s, _ = fresh(p=p)
    price = [[digit(p[P.P_PP0 + 2 * i], c) for c in range(6)] for i in range(54)]
    prod = [[digit(p[P.P_PP0 + 2 * i + 1], c) for c in range(6)] for i in range(54)]
    assert s["pp_price"].tolist() == price and s["pp_prod"].tolist() == prod
    q = p.copy()
    q[P.P_PP0 + 2 * 41] = 123  # card 42: price coal 1, goods 2, luxury 3 (the last digits: the last commodities)
    q[P.P_PP0 + 2 * 41 + 1] = 111111
    E.setup(s, q, 4)
    assert s["pp_price"][41].tolist() == [digit(123, c) for c in range(6)] and s["pp_prod"][41].tolist() == [1] * 6
    assert s["pp_price"][:41].tolist() == price[:41] and s["pp_prod"][42:].tolist() == prod[42:]
    E.setup(s, p, 4)
    assert s["pp_price"].tolist() == price and s["pp_prod"].tolist() == prod


def test_component_counts():
    assert len(P.TOWNS) == 16 and len(P.RAILROADS) == 6
    p = params()
    assert p[P.T.index("town.newgate.any")] == 4 and p[P.T.index("town.foxwoods.any")] == 5
    assert p[P.T.index("building.machine_shop.upgrade_cost")] == 60
    assert p[P.T.index("building.factory.copies")] == 2 and p[P.T.index("building.warehouse.copies")] == 2


# ---------------------------------------------------------------- setup
@pytest.mark.parametrize("n,deck", [(2, 12), (3, 16), (4, 20), (5, 24)])
def test_setup_by_player_count(n, deck):
    s, p = fresh(n, P.resolve({"rule.free_token_choice": "random"}), seed=n)
    assert s["rr_n"] + 2 == deck
    names_in = {P.RAILROADS[c] for c in list(s["rr_deck"][: s["rr_n"]]) + list(s["rr_offer"])}
    removed = {2: {"Skunk Works", "Sly Fox", "Tycoon"}, 3: {"Skunk Works", "Tycoon"}, 4: {"Skunk Works"}, 5: set()}[n]
    assert not names_in & removed
    towns = [s["town_offer"]] + list(s["town_deck"][: s["town_n"]][::-1])  # top first
    vps = [E.town_vp(p, t) for t in towns]
    assert len(towns) == (12 if n == 2 else 16)
    assert vps == sorted(vps) and sorted(set(vps)) == [2, 3, 4, 5]
    assert all(vps.count(v) == (3 if n == 2 else 4) for v in (2, 3, 4, 5))
    assert all(s["money"][:n] == 10) and all(s["hand_n"][:n] == 3)
    offer = [s["tile_type"][t] for t in s["bld_offer"]]
    assert len(set(offer)) == 4 and all(bt < 6 for bt in offer)
    assert s["bld_n"] == 21 and all(s["tile_type"][t] >= 6 for t in s["bld_stack"][:21])
    assert list(s["price"]) == [1, 1, 2, 2, 3, 3]
    # compensation: turn-order position k gets k+1 distinct commodities
    for seat in range(n):
        k = (seat - s["sp"]) % n
        assert s["hold"][seat].sum() == k + 1 and s["hold"][seat].max() == 1
    assert all(s["hold"][:n].sum(0) + s["supply"] == 30)
    assert s["phase"] == E.PH_MAIN and s["cur"] == s["sp"]


def test_compensation_is_chosen_in_turn_order_and_distinct():
    p = P.resolve({"setup.start_player": "seat0"})
    s, p = fresh(3, p)
    seen = []
    while s["phase"] == E.PH_COMP:
        seat = E.current_player(s)
        acts = legal(s, p)
        held = [c for c in range(6) if s["hold"][seat, c]]
        assert sorted(field(a, "commodity") for a in acts) == [c for c in range(6) if c not in held]
        seen.append(seat)
        E.apply_action(s, p, acts[-1])
    assert seen == [0, 1, 1, 2, 2, 2]
    assert [s["comp_recv"][k] for k in range(3)] == [1, 2, 3]
    assert s["phase"] == E.PH_MAIN


def test_compensation_parameter_and_optional_building_setup():
    p = P.resolve(
        {
            "setup.start_player": "seat0",
            "rule.free_token_choice": "random",
            "setup.free_tokens.order0": 0,
            "setup.free_tokens.order2": 5,
            "option.basic_tiles_by_players": "on",
        }
    )
    s, p = fresh(3, p)
    assert [s["hold"][k].sum() for k in range(3)] == [0, 2, 5]
    assert sum(s["tile_type"][t] < 6 for t in s["bld_offer"]) == 3
    s, p = fresh(4, params(option__beginner="on"))
    assert s["bld_n"] == 0 and (s["bld_offer"] >= 0).sum() == 4
    # alternative reading: the two basic tiles not on offer refill the offer instead of leaving the game
    s, p = fresh(4, params(option__beginner="on", option__beginner_basic_stack="on"))
    stack = list(s["bld_stack"][: s["bld_n"]])
    assert len(stack) == 2 and all(s["tile_type"][t] < 6 for t in stack)
    assert sorted(stack + list(s["bld_offer"])) == list(range(6))  # every basic tile, each once


# ---------------------------------------------------------------- production
def test_jacoby_production_choice():
    s, p = fresh()
    set_hand(s, 0, [41, 0, 1])
    prods = [a for a in of_kind(s, p, "PROD") if field(a, "card") == 41]
    takes = sorted(taken_by(a) for a in prods)
    assert len(takes) == 7 and all(sum(t) == 3 for t in takes)
    assert (0, 2, 0, 0, 1, 0) in takes and all(t[0] == 0 and t[5] == 0 for t in takes)
    act(s, p, prod_action(41, wood=2, goods=1))
    assert list(s["hold"][0]) == [0, 2, 0, 0, 1, 0]
    assert list(s["price"]) == [1, 1, 2, 2, 4, 4]  # goods and luxury +1
    assert s["hand_n"][0] == 3 and 41 not in list(s["hand"][0, :3])
    assert s["supply"][WOOD] == 28 and s["cur"] == 1


def test_ethan_bonus_building_one_of_two():
    p = params(pp__01__production=10101)  # card 1 produces wood, coal, luxury
    for choice in (WHEAT, COAL):
        s, p = fresh(p=p)
        set_hand(s, 0, [0])
        tw = give_building(s, 0, WHEAT)
        tc = give_building(s, 0, COAL)
        act(s, p, prod_action(0, wood=1, coal=1, lux=1))
        assert s["phase"] == E.PH_BONUS
        assert sorted(field(a, "tile") for a in legal(s, p)) == sorted([tw, tc])
        act(s, p, "BONUS", tile=tw if choice == WHEAT else tc)
        h = list(s["hold"][0])
        assert sum(h) == 4 and h[choice] == (2 if choice == COAL else 1) and h[WOOD] == 1 and h[LUX] == 1


def test_ethan_production_building_and_one_p_building_only():
    p = params(pp__01__production=201010, pp__02__production=202110)
    s, p = fresh(p=p)
    set_hand(s, 0, [0, 1])
    give_building(s, 0, E.BT_COTTAGE)
    give_building(s, 0, COAL)  # single B building: used automatically
    prods = [a for a in of_kind(s, p, "PROD") if field(a, "card") == 0]
    assert len(prods) == 1
    act(s, p, prods[0])
    assert list(s["hold"][0]) == [2, 0, 1, 1, 1, 0]  # 2 wheat, goods, iron + 1 coal = 5
    # Cottage Industry and a Factory: only one applies, so a 6-icon card yields 5, not more
    s, p = fresh(p=p)
    set_hand(s, 0, [1])
    give_building(s, 0, E.BT_COTTAGE)
    give_building(s, 0, E.BT_FACTORY)
    prods = [a for a in of_kind(s, p, "PROD") if field(a, "card") == 1]
    assert prods and all(sum(taken_by(a)) == 5 for a in prods)


def test_smuggler_does_not_raise_production_and_raises_hand():
    s, p = fresh()
    give_building(s, 0, E.BT_SMUGGLER)
    set_hand(s, 0, [41, 1, 2])
    prods = [a for a in of_kind(s, p, "PROD") if field(a, "card") == 41]
    assert all(sum(taken_by(a)) == 3 for a in prods)
    act(s, p, prods[0])
    assert s["hand_n"][0] == 4
    give_building(s, 1, E.BT_BLACKMARKET)
    assert E.hand_limit(s, p, 1) == 5 and E.hand_limit(s, p, 2) == 3


def test_machine_shop_and_water_mill_any_commodity():
    s, p = fresh()
    set_hand(s, 0, [41])
    t = give_building(s, 0, E.BT_MACHINE, level=2)
    act(s, p, prod_action(41, wood=2, goods=1))
    assert s["phase"] == E.PH_BONUS_ANY and len(legal(s, p)) == 6
    act(s, p, "BONUS_ANY", commodity=LUX)
    act(s, p, "BONUS_ANY", commodity=WHEAT)
    assert list(s["hold"][0]) == [1, 2, 0, 0, 1, 1] and s["phase"] == E.PH_MAIN and t >= 0


def test_supply_limits_production():
    s, p = fresh()
    s["supply"][WOOD] = 1
    s["hold"][3, WOOD] = 29
    set_hand(s, 0, [41])
    prods = [a for a in of_kind(s, p, "PROD") if field(a, "card") == 41]
    assert all(field(a, "wood") <= 1 for a in prods)


def test_dan_storage_limit_and_discard():
    s, p = fresh()
    for bt in (WHEAT, WOOD, E.BT_FIRM_WW):
        give_building(s, 0, bt)
    assert E.storage_cap(s, p, 0) == 13
    give_building(s, 1, COAL)
    give_building(s, 1, IRON)
    give_building(s, 1, E.BT_WAREHOUSE)
    assert E.storage_cap(s, p, 1) == 16
    s, p = fresh()
    s["hold"][0] = [3, 3, 3, 0, 0, 0]
    s["supply"][:3] -= 3
    set_hand(s, 0, [41])
    act(s, p, prod_action(41, wood=2, goods=1))
    assert s["phase"] == E.PH_DISCARD
    acts = legal(s, p)
    assert max(field(a, "qty") for a in acts) == 2  # 12 tokens, limit 10: discard 2
    act(s, p, "DISCARD", commodity=WHEAT, qty=2)
    assert s["hold"][0].sum() == 10 and s["phase"] == E.PH_MAIN and s["cur"] == 1
    assert all(s["hold"][:4].sum(0) + s["supply"] == 30)


def test_trading_floor_buys_at_price_before_the_card():
    s, p = fresh()
    give_building(s, 0, E.BT_TRADINGFLOOR)
    s["hold"][2, GOODS] = 4
    s["supply"][GOODS] -= 4
    s["price"][GOODS] = 5
    set_hand(s, 0, [41])
    act(s, p, prod_action(41, wood=2, iron=1))
    assert s["phase"] == E.PH_TF_TARGET
    act(s, p, "TF_TARGET", seat=2, commodity=GOODS)
    assert max(field(a, "qty") for a in legal(s, p)) == 2  # $10 buys 2 at $5
    act(s, p, "TF_QTY", commodity=GOODS, qty=2)
    assert s["money"][0] == 0 and s["money"][2] == 20 and s["hold"][0, GOODS] == 2 and s["hold"][2, GOODS] == 2
    assert s["price"][GOODS] == 6  # the card's raise comes after


# ---------------------------------------------------------------- selling
def test_sell_four_wood_at_six():
    s, p = fresh()
    s["hold"][0, WOOD] = 4
    s["supply"][WOOD] -= 4
    s["price"][WOOD] = 6
    act(s, p, "SELL", commodity=WOOD, qty=4)
    assert s["money"][0] == 10 + 24 and s["price"][WOOD] == 2 and s["supply"][WOOD] == 30
    assert s["sold"][0] == 4 and s["revenue"][0] == 24


def test_sell_price_clamped_or_refused():
    s, p = fresh()
    s["hold"][0, WOOD] = 5
    s["price"][WOOD] = 3
    act(s, p, "SELL", commodity=WOOD, qty=5)
    assert s["price"][WOOD] == 1 and s["money"][0] == 25
    s, p = fresh(p=params(rule__price_floor="refuse"))
    s["hold"][0, WOOD] = 5
    s["price"][WOOD] = 3
    assert max(field(a, "qty") for a in of_kind(s, p, "SELL")) == 2


def test_trading_firm_export_and_freight():
    s, p = fresh()
    give_building(s, 1, E.BT_FIRM_WW)
    give_building(s, 0, E.BT_EXPORT)
    give_building(s, 0, E.BT_FREIGHT)
    s["hold"][0] = [2, 0, 0, 0, 3, 0]
    s["price"][WHEAT] = 11
    act(s, p, "SELL", commodity=WHEAT, qty=2, export=1)  # raise 11 -> 12 (track max), sell at 12
    assert s["money"][0] == 10 + 24 and s["money"][1] == 10 + 2 and s["price"][WHEAT] == 10
    assert s["phase"] == E.PH_SELL2
    second = of_kind(s, p, "SELL")
    assert second and all(field(a, "commodity") == GOODS for a in second)
    assert encode("END_TURN") in legal(s, p)
    act(s, p, "SELL", commodity=GOODS, qty=3)
    assert s["money"][0] == 34 + 9 and s["cur"] == 1 and s["money"][1] == 12


# ---------------------------------------------------------------- auctions
def start_auction(s, p, slot=0):
    a = [x for x in of_kind(s, p, "AUCTION") if field(x, "slot") == slot][0]
    act(s, p, a)
    return field(a, "railroad")


def test_auction_opening_bids_passes_and_starter_acts_again():
    s, p = fresh()
    s["money"][:4] = [20, 8, 30, 3]
    co = start_auction(s, p)
    mb = E.rr_min_bid(p, co)
    acts = legal(s, p)
    assert E.current_player(s) == 0 and encode("PASS_BID") not in acts
    assert min(field(a, "amount") for a in acts) == mb and max(field(a, "amount") for a in acts) <= 20
    act(s, p, "BID", amount=mb)
    assert E.current_player(s) == 1 and max(field(a, "amount") for a in of_kind(s, p, "BID")) <= 8
    act(s, p, "PASS_BID")
    assert E.current_player(s) == 2
    act(s, p, "BID", amount=mb + 6)  # the next minimum (mb + 1) and a raise of 5
    # seat 3 has $3 and cannot beat mb + 6: passes automatically; back to the starter, seat 1 stays out
    assert E.current_player(s) == 0
    act(s, p, "PASS_BID")
    assert s["rr_own"][2, co] == 1 and s["money"][2] == 30 - mb - 6
    assert s["phase"] == E.PH_MAIN and s["cur"] == 0 and s["turns_taken"][0] == 0  # the starter acts again
    assert s["rr_offer"][0] >= 0 and s["rr_n"] == 17


def test_auction_starter_who_wins_ends_turn_and_auction_house():
    s, p = fresh()
    give_building(s, 3, E.BT_AUCTION)
    s["money"][1:4] = 0
    co = start_auction(s, p)
    act(s, p, "BID", amount=E.rr_min_bid(p, co))
    assert s["rr_own"][0, co] == 1 and s["cur"] == 1 and s["money"][3] == 5
    assert s["auc_won"][0] == 1 and s["auc_spend"][0] == E.rr_min_bid(p, co)


def test_auction_requires_the_minimum_bid():
    s, p = fresh()
    s["money"][0] = 1
    assert of_kind(s, p, "AUCTION") == []
    s, p = fresh(p=params(rule__auction_open="may_decline"))
    s["money"][0] = 1
    assert len(of_kind(s, p, "AUCTION")) == 2


def test_two_player_auction_variant():
    s, p = fresh(2)
    s["money"][:2] = [50, 50]
    co = start_auction(s, p)
    mb = E.rr_min_bid(p, co)
    act(s, p, "BID", amount=mb)
    assert E.current_player(s) == 1
    act(s, p, "BID", amount=mb + 1)
    assert s["rr_own"][1, co] == 1 and s["phase"] == E.PH_MAIN and s["cur"] == 0  # starter may not re-bid
    s, p = fresh(2, params(rule__two_player_auction="off"))
    s["money"][:2] = [50, 50]
    co = start_auction(s, p)
    mb = E.rr_min_bid(p, co)
    act(s, p, "BID", amount=mb)
    act(s, p, "BID", amount=mb + 1)
    assert s["phase"] == E.PH_AUCTION and E.current_player(s) == 0


def test_two_player_auction_offers_every_amount_up_to_the_money():
    # each side bids once, so a jump of any size must be on offer (elsewhere: the minimum and 31 above it)
    s, p = fresh(2)
    s["money"][:2] = [120, 200]
    co = start_auction(s, p)
    mb = E.rr_min_bid(p, co)
    bids = [field(a, "amount") for a in of_kind(s, p, "BID")]
    assert bids == list(range(mb, 121))
    act(s, p, "BID", amount=100)
    assert [field(a, "amount") for a in of_kind(s, p, "BID")] == list(range(101, 201))
    assert encode("PASS_BID") in legal(s, p)
    s, p = fresh(3)
    s["money"][:3] = [120, 200, 200]
    start_auction(s, p)
    bids = [field(a, "amount") for a in of_kind(s, p, "BID")]
    assert bids == [mb3 := E.rr_min_bid(p, s["auc_co"])] + [mb3 + r for r in E.BID_RAISES[1:]] + [120]


def test_no_player_may_bid_more_than_his_money_and_may_bid_all_of_it():
    """RULES: 'No player may bid more than the money that they have': with 3+ players the offer is the next minimum,
    a few raises and the bidder's whole money, never above it; a random bidder passes about 1 time in 9."""
    s, p = fresh(4)
    s["money"][:4] = [300, 300, 300, 300]
    start_auction(s, p)
    bids = [field(a, "amount") for a in of_kind(s, p, "BID")]
    assert max(bids) == 300 and len(bids) == len(E.BID_RAISES) + 1 and bids == sorted(bids)
    act(s, p, "BID", amount=300)
    # nobody else can reach $301 with $300: they can only pass, and the bidder pays all his money
    assert s["phase"] != E.PH_AUCTION and s["money"][0] == 0


# ---------------------------------------------------------------- buildings and towns
def test_buy_and_upgrade_full_cost_or_difference():
    for rule, cost in (("full", 9), ("difference", 5)):
        s, p = fresh(p=params(rule__upgrade_cost=rule))
        offer_tile(s, 0, WHEAT)
        t = s["bld_offer"][0]
        s["money"][0] = 20
        act(s, p, "BUY", tile=t)
        assert s["money"][0] == 16 and s["tile_owner"][t] == 0 and s["bld_offer"][0] >= 0
        assert s["tile_type"][s["bld_offer"][0]] >= 6  # refilled from the advanced stack
        s["cur"] = 0
        s["turn"] += 1
        s["phase"] = E.PH_MAIN
        act(s, p, "UPGRADE", tile=t)
        assert s["money"][0] == 16 - cost and s["tile_level"][t] == 2 and s["n_bld"][0] == 1


@pytest.mark.parametrize("reading,second", [("off", False), ("on", True)])
def test_construction_company_bought_this_turn(reading, second):
    """RULES 'You may perform two Purchase Building actions in one turn': from the turn after it is bought (off,
    default) or already in the turn it is bought (rule.construction_company_same_turn on)."""
    s, p = fresh(p=params(rule__construction_company_same_turn=reading))
    t = offer_tile(s, 0, E.BT_CONSTRUCTION)
    s["money"][0] = 80
    act(s, p, "BUY", tile=t)
    assert s["tile_owner"][t] == 0
    assert (s["phase"] == E.PH_BUILD2 and s["cur"] == 0) == second


def test_construction_company_two_purchases():
    s, p = fresh()
    give_building(s, 0, E.BT_CONSTRUCTION)
    s["money"][0] = 50
    t1 = s["bld_offer"][1]
    act(s, p, "BUY", tile=t1)
    assert s["phase"] == E.PH_BUILD2 and s["cur"] == 0
    assert encode("UPGRADE", tile=t1) not in legal(s, p)  # a tile bought this turn is upgraded later
    t2 = s["bld_offer"][2]
    act(s, p, "BUY", tile=t2)
    assert s["n_bld"][0] == 3 and s["cur"] == 1


def test_towns_named_any_and_brick_works():
    s, p = fresh()
    t = s["town_offer"]
    c = E.town_com(p, t)
    assert E.town_vp(p, t) == 2
    c1, c2 = (c + 1) % 6, (c + 2) % 6
    s["hold"][0, c], s["hold"][0, c1], s["hold"][0, c2] = 2, 2, 1
    acts = legal(s, p)
    assert encode("TOWN_NAMED", town=t) in acts and encode("TOWN_ANY", town=t) in acts
    act(s, p, "TOWN_ANY", town=t)
    assert s["phase"] == E.PH_PAY and max(field(a, "qty") for a in legal(s, p)) == 2
    act(s, p, "PAY", commodity=c, qty=2)
    act(s, p, "PAY", commodity=c1, qty=2)
    assert s["town_owner"][t] == 0 and s["hold"][0].sum() == 1 and s["town_offer"] != t and s["cur"] == 1
    assert s["town_tokens"][0] == 4
    s, p = fresh()
    t = s["town_offer"]
    c = E.town_com(p, t)
    give_building(s, 0, E.BT_BRICK)
    s["hold"][0, c] = 1
    act(s, p, "TOWN_NAMED", town=t)
    assert s["hold"][0, c] == 0 and s["town_owner"][t] == 0


# ---------------------------------------------------------------- scoring
def test_top_dog_and_pairs_and_building_bonuses():
    s, p = fresh()
    s["rr_own"][0, TOP_DOG] = 1
    assert E.vp_parts(s, p, 0)[1] == 4
    s["rr_own"][0, TOP_DOG] = 2
    assert E.vp_parts(s, p, 0)[1] == 9
    s["rr_own"][0, TOP_DOG] = 0
    s["rr_own"][0, FAT_CAT] = 3
    for t in range(6):
        s["town_owner"][t] = 0
    assert E.vp_parts(s, p, 0)[3] == 6
    give_building(s, 0, E.BT_GOVERNOR)
    give_building(s, 0, E.BT_RAILBARON)
    give_building(s, 0, E.BT_MAYOR)
    give_building(s, 0, E.BT_BANK)
    s["money"][0] = 59
    vt, vr, vb, vpair, bonus = E.vp_parts(s, p, 0)
    assert vb == 4 and bonus == 6 + 3 + 4 + 2


def test_ties_broken_by_money_then_shared():
    s, p = fresh(3)
    s["rr_own"][0, TOP_DOG] = 1
    s["rr_own"][1, TOP_DOG] = 1
    s["money"][:3] = [5, 9, 9]
    s["rr_own"][2, TOP_DOG] = 1
    si, sf = outcome(s, p)
    assert list(si[:3, SEAT.rank]) == [3, 1, 1] and list(si[:3, SEAT.win]) == [0, 1, 1]
    assert list(sf[:3, 1]) == [0, 0.5, 0.5]


def test_last_town_finishes_the_round():
    s, p = fresh(3)
    t = s["town_offer"]
    s["town_n"] = 0  # the face-up town is the last one
    s["cur"] = 1
    c = E.town_com(p, t)
    s["hold"][1, c] = 5
    act(s, p, "TOWN_NAMED", town=t)
    assert s["end_trig"] == 1 and not E.is_over(s) and s["cur"] == 2
    set_hand(s, 2, [0, 1, 2])
    act(s, p, of_kind(s, p, "PROD")[0])
    assert E.is_over(s) and s["end_reason"] == E.END_TOWNS
    s, p = fresh(3, params(rule__game_end="immediate"))
    t = s["town_offer"]
    s["town_n"] = 0
    s["hold"][0, E.town_com(p, t)] = 5
    act(s, p, "TOWN_NAMED", town=t)
    assert E.is_over(s)


def test_last_railroad_ends_game_after_round():
    s, p = fresh(2)
    s["rr_n"] = 0
    s["rr_offer"][1] = -1
    s["money"][:2] = [30, 0]
    co = start_auction(s, p)
    act(s, p, "BID", amount=E.rr_min_bid(p, co))
    assert s["end_trig"] == 1 and s["end_reason"] == E.END_RAILROADS and not E.is_over(s)
    assert of_kind(s, p, "AUCTION") == []
    set_hand(s, 1, [0, 1, 2])
    act(s, p, of_kind(s, p, "PROD")[0])
    assert E.is_over(s) and list(s["turns_taken"][:2]) == [1, 1]


def test_sudden_death_option():
    s, p = fresh(3, params(option__sudden_death="on"))
    s["money"][0] = 999
    assert of_kind(s, p, "DECLARE") == []
    s["money"][0] = 1000
    act(s, p, "DECLARE")
    s["rr_own"][1, TOP_DOG] = 2
    si, sf = outcome(s, p)
    assert E.is_over(s) and si[0, SEAT.rank] == 1 and sf[0, 1] == 1.0 and si[1, SEAT.rank] == 2


# ---------------------------------------------------------------- parameters
@pytest.mark.parametrize(
    "ov,msg",
    [
        ({"limits.hand": 9}, "out of range"),
        ({"market.wheat.min": 13}, "above"),
        ({"rule.game_end": "never"}, "not a valid choice"),
        ({"pp.01.price": 999999}, "at most 9 icons"),
        ({"limits.supply": "x"}, "number"),
        ({"setup.free_tokens.order0": 7}, "out of range"),
    ],
)
def test_bad_parameters_rejected(ov, msg):
    with pytest.raises(UserError, match=msg):
        P.resolve(ov)


def test_gamespec_consistent():
    assert GAME.players == (2, 5) and GAME.default_players == 4
    assert len(GAME.item_names) == E.N_ITEM_IDS and "rank" in GAME.seat_columns and "win" in GAME.seat_columns
    assert {s.sid for s in GAME.strategies} == {1, 2, 3, 4, 5}


def test_every_action_kind_round_trips_through_the_codec():
    """The kinds' fields share bits (ActionCodec overlap=True): each kind's fields, all at their largest value,
    decode back unchanged, and the jitted getters read what the Python side wrote."""
    for kind, names in E.CODEC.kinds.items():
        values = {f: E.CODEC.mask(f) for f in names}
        a = E.CODEC.encode(kind, **values)
        assert E.CODEC.decode(a) == (kind, values) and E.kind_of(a) == E.CODEC.kind_id(kind)
    a = encode("PROD", card=53, wheat=1, wood=2, iron=3, coal=4, goods=5, luxury=6)
    assert E.card_of(a) == 53 and [E.taken(a, c) for c in range(6)] == [1, 2, 3, 4, 5, 6]
    a = encode("SELL", commodity=LUX, qty=200, export=1)
    assert (E.commodity_of(a), E.qty_of(a), E.export_of(a)) == (LUX, 200, 1)


def test_owner_income_readings():
    s, p = fresh(p=params(rule__trading_firm_own="off", rule__auction_house_own="off"))
    give_building(s, 0, E.BT_FIRM_GL)
    give_building(s, 0, E.BT_AUCTION)
    s["hold"][0, GOODS] = 2
    act(s, p, "SELL", commodity=GOODS, qty=2)
    assert s["money"][0] == 10 + 6 and s["firm_income"][0] == 0  # own sale: no firm income
    s["cur"] = 0
    s["phase"] = E.PH_MAIN
    s["money"][1:4] = 0
    co = start_auction(s, p)
    act(s, p, "BID", amount=E.rr_min_bid(p, co))
    assert s["commission"][0] == 0  # own auction: no commission
    s, p = fresh()
    give_building(s, 0, E.BT_FIRM_GL)
    s["hold"][0, GOODS] = 2
    act(s, p, "SELL", commodity=GOODS, qty=2)
    assert s["money"][0] == 10 + 6 + 2 and s["firm_income"][0] == 2  # default: any player, owner included


def test_export_once_per_turn_reading():
    s, p = fresh(p=params(rule__export_each_sale="off"))
    give_building(s, 0, E.BT_EXPORT)
    give_building(s, 0, E.BT_FREIGHT)
    s["hold"][0] = [2, 2, 0, 0, 0, 0]
    act(s, p, "SELL", commodity=WHEAT, qty=1, export=1)
    assert s["phase"] == E.PH_SELL2
    assert all(not field(a, "export") for a in of_kind(s, p, "SELL"))


def test_two_player_starter_bids_up_to_the_opponents_estimated_limit():
    # the starter bids once and the other may raise by $1: a bot bids the lower of its own limit and the opponent's
    # (estimated with its own weights), not the minimum
    from strategies import raccoon_tycoon as S

    w = np.array(GAME.strategy("rail_baron").weights, np.float64)
    for money in ((200, 20), (20, 200)):  # the opponent short of money, then me
        s, p = fresh(2)
        s["money"][:2] = money
        co = start_auction(s, p)
        mb = E.rr_min_bid(p, co)
        n = E.legal_actions(s, p, OUT)
        k = S.choose(s, p, 0, OUT, n, S.S_BARON, w)
        mine, theirs = s["bl_lim"][0], S.bid_limit(s, p, 1, w)
        assert mine > mb + 1 and theirs > mb + 1  # both would pay more than the minimum
        bid = field(OUT[k], "amount")
        if money[1] < money[0]:
            assert bid == int(np.ceil(theirs)) < mine  # just enough that the opponent does not raise
        else:
            assert bid == int(np.floor(mine)) < theirs  # my limit: the opponent pays more to win it
        E.apply_action(s, p, OUT[k])
        assert s["auc_high"] == bid and E.current_player(s) == 1
