"""Saloon Tycoon's state: one numpy record per game (reused game after game), its structural sizes and enums, and
what each seat cannot see.

Board of one player: 9 ground positions, 0 = the Saloon's square (S), 1-4 = lots A1-A4, 5-8 = lots B1-B4, each
with 3 floors.  A footprint is S (large, floors 2-3 only), one lot (small) or a pair of neighbouring lots (large).
The tiles of a board are listed in building order (tile_type, tile_floor, tile_footprint, tile_cubes,
tile_finished per instance); cell[seat, floor, position] is the instance standing there (-1: empty).
"""

import numpy as np

from .params import MAX_CARD_TYPES, MAX_DECK, MAX_OPEN, MAX_SECRET, MAX_TILE_TYPES, N_CHARS

MAX_PLAYERS = 4
MAX_ITEMS = 128  # observed at most 93 per 4-player game; overflow is counted in items_truncated
MAX_STEPS = 20_000
MAX_EVENTS = 64
MAX_TILES = 27  # tiles one board can hold (9 positions x 3 floors)
AI_LIST = 256  # scratch list of the strategies (ai_list): a decision whose lists outgrow it is scored on the legal list
NPOS = 9  # ground positions of a board: the Saloon's square and lots A1-A4, B1-B4
ARMS = 2  # the two arms of lots, A and B: positions 1-4 and 5-8
ARM_LOTS = (NPOS - 1) // ARMS
NFLOORS = 3
MAX_TASKS = 32  # depth of the stack of pending effects
N_CLAIM_IDS = MAX_OPEN + MAX_SECRET  # claim ids: open claims first, then secret ones
MAX_SEC_HAND = 8  # secret claims one seat may be dealt

# characters: the four outlaws have fixed indices (checked by params.validate)
FLATFOOT, ANGIE, SYDNEY, PHINEUS = 0, 1, 2, 3

# tasks: pending effects on the stack s.task (kind, a, b); see effects.settle for what a and b hold
(
    TK_CUBES,
    TK_DRAW,
    TK_PLAYOPT,
    TK_ACTION,
    TK_ROOF,
    TK_CITIZEN,
    TK_DISCARD1,
    TK_CARD,
    TK_CHEAP,
    TK_CBUILD,
    TK_MOVE,
    TK_GOLD,
    TK_TODISC,
) = range(1, 14)

# roof sizes: the index of s.roofs[seat] and s.roof_pile
ROOF_SMALL, ROOF_LARGE = 0, 1

# phases: secret claims being dropped at setup, turns being played, game over
PH_KEEP, PH_PLAY, PH_OVER = 0, 1, 2

# victory point sources
VP_TILES, VP_ROOFS, VP_LOTS, VP_CLAIMS, VP_CITIZENS, VP_OUTLAWS, VP_UNFINISHED = range(7)
N_VP = VP_UNFINISHED + 1

# item ids of the results' items table: tile types, the two roofs, claims, Tycoon cards, characters
IT_TILE = 0
IT_ROOF_S = IT_TILE + MAX_TILE_TYPES
IT_ROOF_L = IT_ROOF_S + 1
IT_CLAIM = IT_ROOF_L + 1
IT_CARD = IT_CLAIM + N_CLAIM_IDS
IT_CHAR = IT_CARD + MAX_CARD_TYPES
N_ITEM_IDS = IT_CHAR + N_CHARS

# footprints: fp 0 = Saloon square; 1..8 single lots; 9..12 aligned pairs; 13, 14 unaligned pairs (option)
FP_A = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 3, 5, 7, 2, 6], np.int64)
FP_B = np.array([-1, -1, -1, -1, -1, -1, -1, -1, -1, 2, 4, 6, 8, 3, 7], np.int64)
FP_LARGE = np.array([1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], np.int64)
N_FP = 15
FP_UNALIGNED = 13  # the first unaligned pair (rule.large_footprints = any_neighbour only)
# ground neighbours of each position along its arm (toward the Saloon, away from it; -1: none)
NB_IN = np.array([-1, 0, 1, 2, 3, 0, 5, 6, 7], np.int64)
NB_OUT = np.array([-1, 2, 3, 4, -1, 6, 7, 8, -1], np.int64)

# what a claim requirement reads, one bit each (s.stake_dirty, s.stake_reads): the seat's characters, the tiles
# built on its board, which of them are finished, its roofs, gold, hand size and cubes on the board.  The rules set
# a seat's bit wherever that changes (effects.touch); actions.gen_stakes re-checks only the cached claims that
# read a changed one.
SC_CHARS, SC_TILES, SC_FINISHED, SC_ROOFS, SC_GOLD, SC_HAND, SC_CUBES = range(7)
N_SC = SC_CUBES + 1
# claim bits of the stake masks (s.stake_open, s.stake_known, ...): open claim slot j (j < n_open_up, at most
# 4 players + setup.open_claims_extra's 20) is bit j, secret claim id g is bit STAKE_OPEN_BITS + g - MAX_OPEN (by
# claim, not by hand slot: hidden.determinize re-deals the secret claims among hand slots)
STAKE_OPEN_BITS = 64 - MAX_SECRET

# tile-type bit masks of s.type_mask (effects.tile_tables): large types, types allowed on floor 1, 2, 3, and the
# types that must stand above the Saloon
TM_LARGE, TM_F0, TM_F1, TM_F2, TM_ABOVE = range(5)
N_TYPE_MASKS = 5

STATE_DTYPE = np.dtype(
    [
        ("rng", np.uint64, 2),
        ("ev", np.int32, (MAX_EVENTS, 5)),
        ("n_ev", np.int32),
        ("log_on", np.int8),
        ("n", np.int32),
        ("cur", np.int32),
        ("phase", np.int32),
        ("over", np.int32),
        ("turn_total", np.int32),
        ("end_trig", np.int32),
        ("trig_seat", np.int32),
        ("final_left", np.int32),
        ("depleted", np.int32),
        ("buy_run", np.int32),
        ("buy_price", np.int32),
        ("pile", np.int32),
        ("pile0", np.int32),
        ("reserve", np.int32),
        ("gold_in", np.int32),
        ("gold_out", np.int32),
        ("last_prog", np.int32),
        ("gold", np.int32, MAX_PLAYERS),
        ("vp", np.int32, (MAX_PLAYERS, N_VP)),
        ("turns", np.int32, MAX_PLAYERS),
        ("claims_n", np.int32, MAX_PLAYERS),
        ("cards_played", np.int32, MAX_PLAYERS),
        ("hand", np.int16, (MAX_PLAYERS, MAX_CARD_TYPES)),
        ("hand_n", np.int32, MAX_PLAYERS),
        ("deck", np.int8, MAX_DECK),
        ("deck_n", np.int32),
        ("disc", np.int8, MAX_DECK),
        ("disc_n", np.int32),
        ("supply", np.int16, MAX_TILE_TYPES),
        ("tile_type", np.int8, (MAX_PLAYERS, MAX_TILES)),
        ("tile_floor", np.int8, (MAX_PLAYERS, MAX_TILES)),
        ("tile_footprint", np.int8, (MAX_PLAYERS, MAX_TILES)),
        ("tile_cubes", np.int8, (MAX_PLAYERS, MAX_TILES)),
        ("tile_finished", np.int8, (MAX_PLAYERS, MAX_TILES)),
        ("n_tiles", np.int32, MAX_PLAYERS),
        ("cell", np.int8, (MAX_PLAYERS, NFLOORS, NPOS)),
        ("roofs", np.int32, (MAX_PLAYERS, 2)),
        ("roof_pile", np.int32, 2),
        ("cubes_board", np.int32, MAX_PLAYERS),
        ("cubes_bought", np.int32, MAX_PLAYERS),
        ("built", np.int32, MAX_PLAYERS),
        ("types_built", np.int64, MAX_PLAYERS),
        ("char_owner", np.int8, N_CHARS),
        ("char_turn", np.int32, N_CHARS),
        ("open_ids", np.int8, MAX_OPEN),
        ("n_open_up", np.int32),
        ("claim_by", np.int8, N_CLAIM_IDS),
        ("sec", np.int8, (MAX_PLAYERS, MAX_SEC_HAND)),
        ("sec_state", np.int8, (MAX_PLAYERS, MAX_SEC_HAND)),
        ("sec_n", np.int32, MAX_PLAYERS),
        ("keep_left", np.int32),
        ("sec_pool", np.int8, MAX_SECRET),
        ("acts_any", np.int32),
        ("acts_noplay", np.int32),
        ("task", np.int32, (MAX_TASKS, 3)),
        ("n_tasks", np.int32),
        ("item_rows", np.int16, (MAX_ITEMS, 3)),
        ("n_item_rows", np.int32),
        ("items_lost", np.int32),
        ("rank_key", np.int64, MAX_PLAYERS),  # scratch of write_outcome: each seat's ranking key
        ("type_mask", np.int64, N_TYPE_MASKS),  # tile-type tables from the parameters (setup): see tile_tables
        ("type_req", np.int8, MAX_TILE_TYPES),
        ("type_forbid", np.int8, MAX_TILE_TYPES),
        ("type_cost", np.int32, MAX_TILE_TYPES),
        # the claims a seat may stake: the open ones nobody has staked (claim bits, see STAKE_OPEN_BITS) and the
        # hand slots k of each seat's kept secret claims (bit k); gen_stakes's cached checks per seat, by claim bit:
        # known (checked since), met; stake_dirty: SC_* bits changed since; stake_reads[seat, c]: the known claims
        # whose check read SC_* c
        ("stake_open", np.int64),
        ("stake_kept", np.int64, MAX_PLAYERS),
        ("stake_known", np.int64, MAX_PLAYERS),
        ("stake_met", np.int64, MAX_PLAYERS),
        ("stake_dirty", np.int32, MAX_PLAYERS),
        ("stake_reads", np.int64, (MAX_PLAYERS, N_SC)),
        ("ai", np.float64, MAX_TILE_TYPES),  # scratch for scripted strategies (never read by the rules)
        ("ai_bm", np.float64),
        ("ai_late", np.int32),
        ("ai_leader", np.int32),  # strategy scratch (per-call caches)
        ("ai_room", np.float64),  # ... and the open cube spaces, Draw's and Earn's values (NaN: not yet)
        ("ai_draw", np.float64),
        ("ai_earn", np.float64),
        ("ai_list", np.int64, AI_LIST),  # strategy scratch: the lists quick_choice scores, and Earn's builds
        ("ai_full", np.int32),  # ... 1: a list outgrew ai_list
    ]
)

# state of a dealt secret claim
SEC_DEALT, SEC_KEPT, SEC_DROPPED, SEC_SCORED = 0, 1, 2, 3

# The fields a seat cannot see: the other seats' Tycoon cards and the order of the Tycoon deck, and the other
# seats' secret claims still in hand.  hidden.determinize re-samples exactly these; the contract test checks that
# the strategies declared sees_hidden=False choose the same whatever they hold.
HIDDEN_FIELDS = ("deck", "hand", "sec")
