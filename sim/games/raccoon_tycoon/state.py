"""Raccoon Tycoon's state: one numpy record per game, its structural sizes and enums, and what a seat cannot see.

One record of STATE_DTYPE per game, reused game after game (rules.setup resets every field a game reads).  Seats
0..n-1 sit clockwise; a seat's turn-order position is (seat - start player) mod n.

Decision phases (who decides: turn.current_player):
  COMP      setup: the seat choosing its free start tokens picks one commodity at a time
  MAIN      the active player picks one of the five actions (or, after losing an auction he started, acts again)
  TF_TARGET Trading Floor: buy from (seat, commodity) or skip;  TF_QTY: how many
  BONUS     which B building to use;  BONUS_ANY: the Machine Shop / Water Mill commodity, one token at a time
  DISCARD   over the storage limit after production: discard (commodity, quantity)
  AUCTION   the bidder in turn bids an amount or passes
  PAY       paying a town with 'any commodity': (commodity, quantity) until paid
  SELL2     Freight Company: a second sale or end the turn;  BUILD2: Construction Company second purchase or end
"""

import numpy as np

from . import params as P

MAX_PLAYERS = 5
NC = 6
MAX_HAND = 8
N_CARDS = P.N_CARDS
N_RR = len(P.RAILROADS)
MAX_RR = P.RR_SET_MAX * N_RR  # railroad cards (the copies parameter allows up to 4 of a railroad)
N_TOWNS = len(P.TOWNS)
N_BT = P.N_BTYPES
N_BASIC_BT = NC  # building types 0..5 are the basic B buildings, one per commodity; the advanced follow
MAX_TILES = N_BASIC_BT + 2 * (N_BT - N_BASIC_BT)  # one tile of each basic type, up to two of an advanced one
N_BLD_OFFER = 4  # spaces of the building offer
N_RR_OFFER = 2  # railroad cards face up
# The main phase's actions after the productions and sales: auction starts, purchases, upgrades, two towns, declaring
MAX_MAIN_REST = N_RR_OFFER + N_BLD_OFFER + MAX_TILES + 3
MAX_ITEMS = 96
MAX_STEPS = 30000
MAX_EVENTS = 64

# building types
BT_MACHINE = N_BASIC_BT + P.ADV_KEYS.index("machine_shop")
BT_FIRM_WW = N_BASIC_BT + P.ADV_KEYS.index("firm_wood_wheat")
BT_FIRM_CI = N_BASIC_BT + P.ADV_KEYS.index("firm_coal_iron")
BT_FIRM_GL = N_BASIC_BT + P.ADV_KEYS.index("firm_goods_luxury")
BT_WAREHOUSE = N_BASIC_BT + P.ADV_KEYS.index("warehouse")
BT_CONSTRUCTION = N_BASIC_BT + P.ADV_KEYS.index("construction_company")
BT_FREIGHT = N_BASIC_BT + P.ADV_KEYS.index("freight_company")
BT_GOVERNOR = N_BASIC_BT + P.ADV_KEYS.index("governors_mansion")
BT_RAILBARON = N_BASIC_BT + P.ADV_KEYS.index("rail_baron")
BT_BANK = N_BASIC_BT + P.ADV_KEYS.index("bank")
BT_AUCTION = N_BASIC_BT + P.ADV_KEYS.index("auction_house")
BT_SMUGGLER = N_BASIC_BT + P.ADV_KEYS.index("smuggler")
BT_BLACKMARKET = N_BASIC_BT + P.ADV_KEYS.index("black_market")
BT_BRICK = N_BASIC_BT + P.ADV_KEYS.index("brick_works")
BT_MAYOR = N_BASIC_BT + P.ADV_KEYS.index("mayors_office")
BT_TRADINGFLOOR = N_BASIC_BT + P.ADV_KEYS.index("trading_floor")
BT_EXPORT = N_BASIC_BT + P.ADV_KEYS.index("export_company")
BT_COTTAGE = N_BASIC_BT + P.ADV_KEYS.index("cottage_industry")
BT_FACTORY = N_BASIC_BT + P.ADV_KEYS.index("factory")
# commodities
WHEAT, WOOD, IRON, COAL, GOODS, LUXURY = 0, 1, 2, 3, 4, 5

# items: building types 0..24, upgrades 25..31 (the 6 basic buildings' +2 sides and the Water Mill, the Machine
# Shop's), railroads, towns
IT_UPGRADE0 = N_BT
IT_RR0 = IT_UPGRADE0 + N_BASIC_BT + 1
IT_TOWN0 = IT_RR0 + N_RR
N_ITEM_IDS = IT_TOWN0 + N_TOWNS

# phases
(
    PH_COMP,
    PH_MAIN,
    PH_TF_TARGET,
    PH_TF_QTY,
    PH_BONUS,
    PH_BONUS_ANY,
    PH_DISCARD,
    PH_AUCTION,
    PH_PAY,
    PH_SELL2,
    PH_BUILD2,
    PH_OVER,
) = range(12)

# end reasons
END_NONE, END_TOWNS, END_RAILROADS, END_SUDDEN, END_DECK = 0, 1, 2, 3, 4

# events
(
    E_START,
    E_COMP,
    E_TURN,
    E_PROD,
    E_TF,
    E_BONUS,
    E_PRICE,
    E_DISCARD,
    E_DRAW,
    E_RESHUFFLE,
    E_SELL,
    E_FIRM,
    E_AUCTION,
    E_BID,
    E_PASS,
    E_WON,
    E_UNSOLD,
    E_COMMISSION,
    E_RR_REVEAL,
    E_BUY,
    E_UPGRADE,
    E_BLD_REVEAL,
    E_TOWN,
    E_PAY,
    E_TOWN_REVEAL,
    E_TRIGGER,
    E_END,
    E_DECLARE,
    E_NOTHING,
) = range(1, 30)

END_LABELS = ("none", "towns", "railroads", "sudden_death", "deck_out")  # by END_* code

STATE_DTYPE = np.dtype(
    [
        ("rng", np.uint64, (2,)),
        ("ev", np.int32, (MAX_EVENTS, 5)),
        ("n_ev", np.int32),
        ("log_on", np.int8),
        ("n", np.int8),
        ("sp", np.int8),  # start player seat
        ("cur", np.int8),  # active player (whose turn it is)
        ("phase", np.int8),
        ("over", np.int8),
        ("end_trig", np.int8),
        ("end_reason", np.int8),
        ("winner_sd", np.int8),  # sudden-death winner or -1
        ("turn", np.int32),  # player-turns started (1 = the first)
        ("rnd", np.int32),  # round number (not "round": np.record has a method of that name)
        ("price", np.int16, (NC,)),
        ("pmin", np.int16, (NC,)),
        ("pmax", np.int16, (NC,)),
        ("supply", np.int16, (NC,)),
        ("hold", np.int16, (MAX_PLAYERS, NC)),
        ("money", np.int32, (MAX_PLAYERS,)),
        ("hand", np.int8, (MAX_PLAYERS, MAX_HAND)),
        ("hand_n", np.int8, (MAX_PLAYERS,)),
        ("deck", np.int8, (N_CARDS,)),
        ("deck_n", np.int16),
        ("disc", np.int8, (N_CARDS,)),
        ("disc_n", np.int16),
        ("pp_price", np.int8, (N_CARDS, NC)),
        ("pp_prod", np.int8, (N_CARDS, NC)),
        ("pp_code", np.int64, (N_CARDS, 2)),  # the parameters pp_price/pp_prod were decoded from (setup)
        ("rr_deck", np.int8, (MAX_RR,)),
        ("rr_n", np.int16),
        ("rr_offer", np.int8, (N_RR_OFFER,)),
        ("rr_own", np.int8, (MAX_PLAYERS, N_RR)),
        ("town_deck", np.int8, (N_TOWNS,)),
        ("town_n", np.int16),
        ("town_offer", np.int8),
        ("town_owner", np.int8, (N_TOWNS,)),
        ("tile_type", np.int8, (MAX_TILES,)),
        ("n_tiles", np.int16),
        ("btile", np.int16, (MAX_TILES,)),  # tiles that give a production bonus (B tiles, Machine Shop), ascending
        ("n_btile", np.int16),
        ("utile", np.int16, (MAX_TILES,)),  # tiles with a +2 side (upgrade cost > 0), ascending
        ("n_utile", np.int16),
        ("tile_owner", np.int8, (MAX_TILES,)),
        ("tile_level", np.int8, (MAX_TILES,)),
        ("tile_turn", np.int32, (MAX_TILES,)),
        ("bld_offer", np.int8, (N_BLD_OFFER,)),
        ("bld_stack", np.int8, (MAX_TILES,)),
        ("bld_n", np.int16),
        ("own_bt", np.int8, (MAX_PLAYERS, N_BT)),  # tiles owned per building type
        ("n_bld", np.int8, (MAX_PLAYERS,)),
        # per-turn / per-action scratch
        ("auctions_turn", np.int8),
        ("builds_turn", np.int8),
        ("sales_turn", np.int8),
        ("sale1_c", np.int8),
        ("export_used", np.int8),
        ("prod_card", np.int8),
        ("tf_seat", np.int8),
        ("tf_c", np.int8),
        ("bonus_left", np.int8),
        ("pay_left", np.int8),
        ("comp_k", np.int8),  # turn-order position choosing free tokens
        ("comp_left", np.int8),
        ("comp_got", np.int8, (MAX_PLAYERS, NC)),
        ("auc_slot", np.int8),
        ("auc_co", np.int8),
        ("auc_starter", np.int8),
        ("auc_bidder", np.int8),
        ("auc_leader", np.int8),
        ("auc_high", np.int32),
        ("auc_passed", np.int8, (MAX_PLAYERS,)),
        ("auc_serial", np.int32),  # auctions started this game (a key for the strategies' per-auction cache)
        # strategy scratch (strategies/raccoon_tycoon/): each bidder's limit, valid while bl_key == auc_serial
        ("bl_key", np.int32, (MAX_PLAYERS,)),
        ("bl_lim", np.float64, (MAX_PLAYERS,)),
        ("lv_key", np.int32),  # ... and each seat's VP * 1000 + money, valid while lv_key == auc_serial
        ("lv", np.int64, (MAX_PLAYERS,)),
        ("lv_vt", np.int64, (MAX_PLAYERS,)),  # standings(): town VP, towns and railroad cards of each seat
        ("lv_nt", np.int64, (MAX_PLAYERS,)),
        ("lv_nr", np.int64, (MAX_PLAYERS,)),
        ("rank_key", np.int64, (MAX_PLAYERS,)),  # outcome.write_outcome: each seat's ranking key
        ("main_rest", np.int64, (MAX_MAIN_REST,)),  # strategy scratch: actions.legal_main_rest's list (quick_choice)
        # statistics
        ("sold", np.int32, (MAX_PLAYERS,)),
        ("revenue", np.int32, (MAX_PLAYERS,)),
        ("auc_won", np.int16, (MAX_PLAYERS,)),
        ("auc_spend", np.int32, (MAX_PLAYERS,)),
        ("bld_spend", np.int32, (MAX_PLAYERS,)),
        ("town_tokens", np.int32, (MAX_PLAYERS,)),
        ("comp_recv", np.int8, (MAX_PLAYERS,)),
        ("n_prod", np.int16, (MAX_PLAYERS,)),
        ("turns_taken", np.int16, (MAX_PLAYERS,)),
        ("firm_income", np.int32, (MAX_PLAYERS,)),
        ("commission", np.int32, (MAX_PLAYERS,)),
        ("item_seat", np.int8, (MAX_ITEMS,)),
        ("item_id", np.int16, (MAX_ITEMS,)),
        ("item_turn", np.int32, (MAX_ITEMS,)),
        ("item_price", np.int32, (MAX_ITEMS,)),
        ("n_items", np.int16),
    ]
)

# The fields a seat cannot see: the other seats' P&P hands and the order of the face-down decks (P&P cards,
# railroads, towns within a VP value, the building stack).  hidden.determinize re-samples exactly these; money is
# public (RULES.md: it can be tracked from play).
HIDDEN_FIELDS = ("hand", "deck", "rr_deck", "town_deck", "bld_stack")
