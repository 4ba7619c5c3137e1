"""What a finished game of Pig writes to the results tables.

The column names are declared once here; GAME (in __init__.py) names the same tuples, and write_outcome writes
by the generated indices (seat_int[i, SEAT.win]), so adding a column never shifts the others.
"""

import numba as nb

from sim.toolkit import Columns, rank_seats, winners

GAME_COLUMNS = ("turns", "end_reason")
SEAT_COLUMNS = ("rank", "win", "order", "busts")  # must include rank, win and order (turn-order position)
GAME = Columns("Game", GAME_COLUMNS)
SEAT = Columns("Seat", SEAT_COLUMNS)
ITEM_NAMES = ("halfway", "joker")
ITEM_KINDS = ("milestone", "card")
HALFWAY, JOKER = range(2)


@nb.njit(cache=True)
def write_outcome(s, p, game_int, seat_int, seat_f, items):
    """Fill the output rows; seat_f[i] = (score, win_share), ties split the win; items[k] = (seat, item id, turn
    acquired, ...).  Returns the number of item rows."""
    game_int[GAME.turns] = s.turns
    game_int[GAME.end_reason] = s.over - 1
    rank = seat_int[:, SEAT.rank]  # rank_seats writes the ranks straight into their column
    rank_seats(s.score, s.n, rank)
    k = winners(rank, s.n)
    n_items = 0
    for i in range(s.n):
        win = 1 if rank[i] == 1 else 0
        seat_int[i, SEAT.win] = win
        seat_int[i, SEAT.order] = i
        seat_int[i, SEAT.busts] = s.busts[i]
        seat_f[i, 0] = s.score[i]
        seat_f[i, 1] = win / k
        if s.half_turn[i] >= 0:
            items[n_items, 0] = i
            items[n_items, 1] = HALFWAY
            items[n_items, 2] = s.half_turn[i]
            n_items += 1
        if s.joker == i:
            items[n_items, 0] = i
            items[n_items, 1] = JOKER
            items[n_items, 2] = 0
            n_items += 1
    return n_items


@nb.njit(cache=True)
def standings(s, p, out):
    """The standings now, for the report's arc (`sim run --standings`): out[i] = seat i's score, the quantity Pig
    ranks by; returns the round, the turns completed by every seat (0 at the start, +1 per completed round)."""
    for i in range(s.n):
        out[i] = s.score[i]
    return s.turns // s.n
