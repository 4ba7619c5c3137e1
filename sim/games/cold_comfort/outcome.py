"""What a finished game of Cold Comfort writes to the results tables.

The column names are declared once here; GAME (in __init__.py) names the same tuples.
"""
import numba as nb
import numpy as np

from .params import GOLD_PER_VP, TIE_BREAK

GAME_COLUMNS = ("turns", "rounds", "end_reason", "gang_wins", "unclaimed_hoods", "setup_tiles", "tiles",
                "first_round_turn", "grid_clipped", "no_place", "items_dropped")
SEAT_COLUMNS = ("rank", "win", "order", "vp_neighbourhoods", "vp_gold", "vp_total", "gold", "gold_collect",
                "gold_mine", "gold_insurance", "hotels_built_1", "hotels_built_2", "hotels_built_3",
                "hotels_built_4", "hotels_built_5", "hotels_built_6", "hotels_built", "hotels_burned",
                "fires_set", "neighbourhoods_won", "mines", "guests_hosted", "start_gold")
ITEM_NAMES = ("hotel_size_1", "hotel_size_2", "hotel_size_3", "hotel_size_4", "hotel_size_5", "hotel_size_6",
              "neighbourhood_won")
ITEM_KINDS = ("hotel", "hotel", "hotel", "hotel", "hotel", "hotel", "neighbourhood")
ITEM_HOTEL = 0          # item ids 0..5: hotel of size 1..6 built; turn column = scoring round in progress (1..9)
ITEM_HOOD = 6           # neighbourhood won (alone or shared); turn column = the scoring round (1..9)


@nb.njit(cache=True, inline="always")
def final_key(s, p, i):
    """Sort key of a seat: points, then (tie_break most_gold) remaining gold."""
    key = np.int64(s.vp[i] + s.vp_gold[i]) * 100000
    if p[TIE_BREAK] == 1:
        key += np.int64(s.gold[i])
    return key


@nb.njit(cache=True)
def write_outcome(s, p, game_int, seat_int, seat_f, items):
    if s.over == 0:                      # stopped by the kernel's step cap: score the position as it stands
        per = np.int64(p[GOLD_PER_VP])
        for i in range(s.n):
            s.vp_gold[i] = s.gold[i] // per
    game_int[0] = s.turn + 1
    game_int[1] = s.rounds
    game_int[2] = s.over - 1 if s.over > 0 else 2
    game_int[3] = s.gang_wins
    game_int[4] = s.unclaimed
    game_int[5] = s.setup_tiles
    game_int[6] = s.ntile
    game_int[7] = s.first_round_turn
    game_int[8] = s.clipped
    game_int[9] = s.no_place
    game_int[10] = s.items_dropped
    n = np.int64(s.n)
    best = -1
    for i in range(n):
        best = max(best, final_key(s, p, i))
    k = 0
    for i in range(n):
        if final_key(s, p, i) == best:
            k += 1
    for i in range(n):
        key = final_key(s, p, i)
        r = 1
        for j in range(n):
            if final_key(s, p, j) > key:
                r += 1
        win = 1 if key == best else 0
        tot = s.vp[i] + s.vp_gold[i]
        row = seat_int[i]
        row[0] = r
        row[1] = win
        row[2] = i
        row[3] = s.vp[i]
        row[4] = s.vp_gold[i]
        row[5] = tot
        row[6] = s.gold[i]
        row[7] = s.st_collect[i]
        row[8] = s.st_mine[i]
        row[9] = s.st_ins[i]
        nb_ = 0
        for v in range(1, 7):
            row[9 + v] = s.st_built[i, v]
            nb_ += s.st_built[i, v]
        row[16] = nb_
        row[17] = s.st_lost[i]
        row[18] = s.st_fires[i]
        row[19] = s.st_won[i]
        row[20] = s.st_mines[i]
        row[21] = s.st_hosted[i]
        row[22] = s.start_gold[i]
        seat_f[i, 0] = tot
        seat_f[i, 1] = win / k
    m = np.int64(s.n_items)
    for j in range(m):
        items[j, 0] = s.items[j, 0]
        items[j, 1] = s.items[j, 1]
        items[j, 2] = s.items[j, 2]
    return m
