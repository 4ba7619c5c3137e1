"""Cold Comfort's state: one numpy record per game, reused game after game, and what each seat cannot see.

Geometry (ASSUMED, note section 3): the city is a G x G grid of squares (x east, y north, world (0,0) at grid
(OX, OY)); a tile covers 2 x 3 squares in one of four rotations; Main Street is three street squares at world
(0,0..2).  `grid[y, x]` holds EMPTY (empty ground), STREET or the index of a city cell (a square of a placed tile).
Cells are stored compactly: cell = tile_index * 6 + k, with its lot value (1..6; 0 = public-building square), its
die (0 none; a die on a lot without a hotel is a camper, in a hotel a guest), hotel owner/size and built turn.
Positions are pos = y * G + x in grid coordinates.

Decisions (current_player may not be the active player):
  PH_MAIN   the active player: Mine, Host, one build-type action, Fire, or end the turn
  PH_FIRE   the owner of the hotel that just burned passes the fire to an adjacent building
  PH_PLACE  the active player places the grown tile (position and rotation)
  PH_LAND   the next player breaks a walking-distance tie for a rolled die
"""

import numpy as np

from .params import N_DECK

MAX_PLAYERS = 6
MAX_ITEMS = 240
MAX_STEPS = 200_000
MAX_EVENTS = 160

G = 64  # grid side (cell_at and the strategies decode positions with shifts: keep it 64)
OX = 32  # grid x of world x = 0
OY = 30  # grid y of world y = 0
MARGIN = 2  # tile squares stay within [MARGIN, G-1-MARGIN]
TMAX = 24  # tiles on the map at most (4 setup + 9 grown; the deck has 24)
CELLS_PER_TILE = 6  # a tile is 2 x 3 squares
CMAX = TMAX * CELLS_PER_TILE
MAX_DICE = 60
SIZES = 7  # hotel sizes and die values 1..6, indexed directly (slot 0 unused)
LOOK_ROWS = 16  # the strategies' end-game look-ahead work array (look_blk): rows,
LOOK_COLS = 2 * CMAX + 3  # and columns (base blocks and searched ones, <= the occupied cells + 2; the last: the epoch)
PLACE_MEMO = 64  # slots of the strategies' direct-mapped memo of place_delta (place_key, place_d)
PLACE_BOX = 1024  # squares of the placement scan's arrays over the map's bounding box grown by 4 (at most 24 x 27
# in 60 games of the default line-up; a larger box is scanned without them)

EMPTY = -1  # grid square values other than a cell number
STREET = -2

PH_MAIN, PH_FIRE, PH_PLACE, PH_LAND, PH_OVER = range(5)
OVER_ROUNDS, OVER_TURN_CAP = 1, 2  # s.over: why the game ended (0 while it goes on)

MP = MAX_PLAYERS
STATE_DTYPE = np.dtype(
    [
        ("rng", np.uint64, 2),
        ("ev", np.int32, (MAX_EVENTS, 5)),
        ("n_ev", np.int32),
        ("log_on", np.int8),
        ("n", np.int8),
        ("cur", np.int8),
        ("phase", np.int8),
        ("decider", np.int8),
        ("over", np.int8),
        ("turn", np.int32),
        ("rounds", np.int8),
        ("pool", np.int16),
        ("total_dice", np.int16),
        ("acted", np.int8),
        ("built_act", np.int8),
        ("fired", np.int8),
        ("gold", np.int32, MP),
        ("vp", np.int32, MP),
        ("vp_gold", np.int32, MP),
        ("supply", np.int8, (MP, SIZES)),
        ("st_collect", np.int32, MP),
        ("st_mine", np.int32, MP),
        ("st_ins", np.int32, MP),
        ("st_built", np.int16, (MP, SIZES)),
        ("st_fires", np.int16, MP),
        ("st_won", np.int16, MP),
        ("st_lost", np.int16, MP),
        ("st_hosted", np.int16, MP),
        ("st_mines", np.int16, MP),
        ("start_gold", np.int32, MP),
        ("grid", np.int8, (G, G)),
        ("free_row", np.int64, G),  # bit x of row y: grid square (x, y) is empty ground (set_square keeps it)
        ("reach_e", np.int64, G),  # bit x of row y: a tile square is next to (x, y), or two squares away in a line
        ("reach_c", np.int64, G),  # ... or diagonally next to it (grow.connect = also_corner); put_tile keeps both
        ("ncell", np.int16),
        ("cx", np.int8, CMAX),
        ("cy", np.int8, CMAX),
        ("cval", np.int8, CMAX),
        ("die", np.int8, CMAX),
        ("owner", np.int8, CMAX),
        ("hsize", np.int8, CMAX),
        ("hbuilt", np.int32, CMAX),
        ("ntile", np.int8),
        ("t_id", np.int8, TMAX),
        ("t_x", np.int8, TMAX),
        ("t_y", np.int8, TMAX),
        ("t_rot", np.int8, TMAX),
        ("setup_tiles", np.int8),
        ("minx", np.int8),
        ("maxx", np.int8),
        ("miny", np.int8),
        ("maxy", np.int8),
        ("deck", np.int8, N_DECK),
        ("deck_pos", np.int8),
        ("draw", np.int8, 2),
        ("ndraw", np.int8),
        ("land_v", np.int8),
        ("land_stage", np.int8),
        ("land_left", np.int8, SIZES),
        ("org_x", np.int8),
        ("org_y", np.int8),
        ("fire_cell", np.int16),
        ("t_hood", np.int8, TMAX),
        ("h_val", np.int16, TMAX),
        ("hood_nt", np.int8),
        ("n_hood", np.int8),
        ("gang_wins", np.int16),
        ("unclaimed", np.int16),
        ("clipped", np.int16),
        ("no_place", np.int16),
        ("first_round_turn", np.int32),
        # the blocks and street gangs kept by the rules (blocks.py): per cell its block id and strength part, per
        # block id its strength, seat (-1: a gang) and a cell of it (-1: a free id); the freed ids; the ids in use or
        # freed; known?
        ("kb_of", np.int16, CMAX),
        ("kb_part", np.int8, CMAX),
        ("kb_str", np.int32, CMAX),
        ("kb_who", np.int8, CMAX),
        ("kb_cell", np.int16, CMAX),
        ("kb_free", np.int16, CMAX),
        ("kb_nfree", np.int16),
        ("kb_n", np.int16),
        ("kb_ok", np.int8),
        ("items", np.int16, (MAX_ITEMS, 3)),
        ("n_items", np.int16),
        ("items_dropped", np.int16),
        # scratch space, so that no decision allocates: its contents mean nothing between calls
        ("block_of_cell", np.int16, CMAX),  # block_strengths: the block (or gang) id of each cell, -1 for none
        ("block_strength", np.int32, CMAX),  # ... and per block its strength,
        ("block_owner", np.int8, CMAX),  # its owner (-1: a street gang),
        ("block_hood", np.int16, CMAX),  # its neighbourhood (hood_control)
        ("search_stack", np.int16, CMAX),  # search_block's stack
        ("kb_map", np.int16, CMAX),  # blocks.kept_blocks: the kept block ids renumbered (_search_again: ids freed)
        ("choice_cells", np.int16, CMAX),  # fire_targets / tie_group: the cells a decision offers
        ("walk_to_cell", np.int16, CMAX),  # walk_dist: walking distance from the landing origin per cell
        ("camper_cells", np.int16, CMAX),  # legal_actions: the campers,
        ("hotel_cells", np.int16, CMAX),  # the mover's empty hotels,
        ("lot_cells", np.int16, CMAX),  # the lots without a hotel it may build on
        ("row_free", np.int64, G),
        ("row_near", np.int64, G),  # enum_places: per-row bitmasks (bit x = square x)
        ("camper_values", np.int64, SIZES),  # strategies: 1 where a camper of value v is on the map
        ("bot_weights", np.float64, 16),  # strategies: the deciding seat's weights
        ("hood_hstack", np.int8, TMAX),  # tile_hoods' stack
        ("ctl_best_p", np.int32, TMAX),  # hood_control (score_round, the strategies): best block per neighbourhood,
        ("ctl_best_g", np.int32, TMAX),  # best street gang,
        ("ctl_winners", np.int8, (TMAX, MP)),  # 1 where the seat has a block of the best strength
        ("walk_queue", np.int16, CMAX + 8),  # walk_dist: the squares to visit (tile and Main Street squares),
        ("walk_qdist", np.int16, CMAX + 8),  # their walking distance,
        ("walk_seen", np.int64, G),  # bit x of row y: square (x, y) queued
        # the strategies' placement scan: per neighbourhood its lead term (read where it is not zero); the
        # footprint masks; the seat's empty hotels' squares; for the tile that starts the final scoring round
        # (place_base, place_delta): per neighbourhood each seat's best block and share, the best gang; totals,
        # the merged ones, the best blocks; per drawn tile its expected gang and points; the memo of place_delta
        ("place_lead_w", np.float64, TMAX),
        ("place_mask_q", np.int64, 4),  # per rotation the last footprint's corner and its neighbourhood mask
        ("place_mask_m", np.int64, 4),
        ("place_memo", np.float64, PLACE_BOX),  # per square of the box: near() of a highest lot (-1: not yet)
        ("place_adj", np.int32, PLACE_BOX),  # bit h: the square touches a tile of neighbourhood h
        ("place_hx", np.int8, CMAX),
        ("place_hy", np.int8, CMAX),
        ("place_sb", np.float64, (TMAX, MP)),
        ("place_sh", np.float64, (TMAX, MP)),
        ("place_gb", np.float64, TMAX),
        ("look_tot", np.float64, MP),  # (also the end-game look-ahead's projected totals)
        ("place_new", np.float64, MP),
        ("place_best", np.float64, MP),
        ("place_gang", np.float64, N_DECK),
        ("place_val", np.float64, N_DECK),
        ("place_key", np.int64, PLACE_MEMO),
        ("place_d", np.float64, PLACE_MEMO),
        ("look_blk", np.int32, (LOOK_ROWS, LOOK_COLS)),  # the end-game look-ahead's blocks and control (blocks_base)
    ],
    align=True,  # every field at its natural alignment (packed, the int64 and float64 fields sat at odd offsets)
)

# The fields a seat cannot see: only the order of the undrawn city deck (deck[deck_pos:]).  The map, hotels,
# campers and their dice, gold and the drawn tiles are public.  hidden.determinize re-shuffles the undrawn tiles.
HIDDEN_FIELDS = ("deck",)
