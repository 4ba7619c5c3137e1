"""What a finished game of Cold Comfort writes to the results tables.

The column names are declared once here; GAME (in __init__.py) names the same tuples, and write_outcome writes
by the generated indices (seat_int[i, SEAT.win]), so adding a column never shifts the others.
"""

import numba as nb
import numpy as np

from sim.toolkit import Columns, rank_seats, winners

from .params import GOLD_PER_VP, HOTEL_ITEMS, TIE_BREAK
from .state import MAX_PLAYERS, OVER_ROUNDS, OVER_TURN_CAP, SIZES

GAME_COLUMNS = (
    "turns",
    "rounds",
    "end_reason",
    "gang_wins",
    "unclaimed_hoods",
    "setup_tiles",
    "tiles",
    "first_round_turn",
    "grid_clipped",
    "no_place",
    "items_dropped",
)
SEAT_COLUMNS = (
    "rank",
    "win",
    "order",
    "vp_neighbourhoods",
    "vp_gold",
    "vp_total",
    "gold",
    "gold_collect",
    "gold_mine",
    "gold_insurance",
    "hotels_built_1",
    "hotels_built_2",
    "hotels_built_3",
    "hotels_built_4",
    "hotels_built_5",
    "hotels_built_6",
    "hotels_built",
    "hotels_burned",
    "fires_set",
    "neighbourhoods_won",
    "mines",
    "guests_hosted",
    "start_gold",
)
GAME = Columns("Game", GAME_COLUMNS)
SEAT = Columns("Seat", SEAT_COLUMNS)
assert SEAT.hotels_built_6 == SEAT.hotels_built_1 + 5  # write_outcome fills them by hotel size
END_REASONS = ("nine_rounds", "turn_cap", "step_cap")  # the end_reason column's codes, in this order
END_ROUNDS, END_TURN_CAP, END_STEP_CAP = range(3)

ITEM_NAMES = HOTEL_ITEMS + ("neighbourhood_won",)
ITEM_KINDS = ("hotel",) * len(HOTEL_ITEMS) + ("neighbourhood",)
ITEM_HOTEL = 0  # item ids 0..5: hotel of size 1..6 built; turn column = scoring round in progress (1..9)
ITEM_HOOD = 6  # neighbourhood won (alone or shared); turn column = the scoring round (1..9)
TIE_SCALE = 100_000  # the ranking key: total points * TIE_SCALE + (end.tie_break = most_gold) remaining gold


@nb.njit(cache=True, inline="always")
def final_key(s, p, i):
    """Sort key of a seat: points, then (tie_break most_gold) remaining gold."""
    key = np.int64(s.vp[i] + s.vp_gold[i]) * TIE_SCALE
    if p[TIE_BREAK] == 1:
        key += np.int64(s.gold[i])
    return key


@nb.njit(cache=True)
def write_outcome(s, p, game_int, seat_int, seat_f, items):
    """Fill the output rows; seat_f[i] = (total points, win share); rank and win by final_key (ties share them).
    Returns the number of item rows."""
    if s.over == 0:  # stopped by the kernel's step cap: score the position as it stands
        per = np.int64(p[GOLD_PER_VP])
        for i in range(s.n):
            s.vp_gold[i] = s.gold[i] // per
    game_int[GAME.turns] = s.turn + 1
    game_int[GAME.rounds] = s.rounds
    if s.over == OVER_ROUNDS:
        game_int[GAME.end_reason] = END_ROUNDS
    elif s.over == OVER_TURN_CAP:
        game_int[GAME.end_reason] = END_TURN_CAP
    else:
        game_int[GAME.end_reason] = END_STEP_CAP
    game_int[GAME.gang_wins] = s.gang_wins
    game_int[GAME.unclaimed_hoods] = s.unclaimed
    game_int[GAME.setup_tiles] = s.setup_tiles
    game_int[GAME.tiles] = s.ntile
    game_int[GAME.first_round_turn] = s.first_round_turn
    game_int[GAME.grid_clipped] = s.clipped
    game_int[GAME.no_place] = s.no_place
    game_int[GAME.items_dropped] = s.items_dropped
    n = np.int64(s.n)
    key = np.empty(MAX_PLAYERS, np.int64)
    for i in range(n):
        key[i] = final_key(s, p, i)
    rank = seat_int[:, SEAT.rank]  # rank_seats writes the ranks straight into their column
    rank_seats(key, n, rank)
    k = winners(rank, n)
    for i in range(n):
        win = 1 if rank[i] == 1 else 0
        tot = s.vp[i] + s.vp_gold[i]
        row = seat_int[i]
        row[SEAT.win] = win
        row[SEAT.order] = i
        row[SEAT.vp_neighbourhoods] = s.vp[i]
        row[SEAT.vp_gold] = s.vp_gold[i]
        row[SEAT.vp_total] = tot
        row[SEAT.gold] = s.gold[i]
        row[SEAT.gold_collect] = s.st_collect[i]
        row[SEAT.gold_mine] = s.st_mine[i]
        row[SEAT.gold_insurance] = s.st_ins[i]
        built = 0
        for v in range(1, SIZES):
            row[SEAT.hotels_built_1 + v - 1] = s.st_built[i, v]
            built += s.st_built[i, v]
        row[SEAT.hotels_built] = built
        row[SEAT.hotels_burned] = s.st_lost[i]
        row[SEAT.fires_set] = s.st_fires[i]
        row[SEAT.neighbourhoods_won] = s.st_won[i]
        row[SEAT.mines] = s.st_mines[i]
        row[SEAT.guests_hosted] = s.st_hosted[i]
        row[SEAT.start_gold] = s.start_gold[i]
        seat_f[i, 0] = tot
        seat_f[i, 1] = win / k
    m = np.int64(s.n_items)
    for j in range(m):
        items[j, 0] = s.items[j, 0]
        items[j, 1] = s.items[j, 1]
        items[j, 2] = s.items[j, 2]
    return m


@nb.njit(cache=True)
def standings(s, p, out):
    """out[i] = seat i's points so far (the scoring rounds done; at the end with the gold points, the total
    write_outcome ranks by); returns the number of scoring rounds done, the game's round."""
    for i in range(s.n):
        out[i] = s.vp[i] + s.vp_gold[i]  # vp_gold is 0 until the game ends (finish)
    return np.int64(s.rounds)
