"""What a finished game of Saloon Tycoon writes to the results tables, and the standings during play.

The column names are declared once here; GAME (in __init__.py) names the same tuples, and write_outcome writes
by the generated indices (seat_int[i, SEAT.win]), so adding a column never shifts the others.
"""

import numba as nb

from sim.toolkit import Columns, rank_seats, winners

from .params import N_CHARS, P_R_TIE_CLAIMS
from .queries import char_is_citizen, end_scores, total_vp
from .state import (
    IT_CHAR,
    NFLOORS,
    ROOF_LARGE,
    ROOF_SMALL,
    VP_CLAIMS,
    VP_LOTS,
    VP_ROOFS,
    VP_TILES,
    VP_UNFINISHED,
)

GAME_COLUMNS = ("turns_total", "rounds", "end_reason", "trigger_seat", "reserve_cubes", "items_truncated")
SEAT_COLUMNS = (
    "rank",
    "win",
    "order",
    "vp_tiles",
    "vp_roofs",
    "vp_lots",
    "vp_claims",
    "vp_citizens",
    "vp_outlaws",
    "vp_unfinished",
    "vp_total",
    "gold",
    "tiles_floor1",
    "tiles_floor2",
    "tiles_floor3",
    "roofs",
    "turns_taken",
    "ended_game",
    "claims",
    "cards_played",
    "citizens",
    "outlaws",
)
GAME = Columns("Game", GAME_COLUMNS)
SEAT = Columns("Seat", SEAT_COLUMNS)

# The ranking key packs the rulebook's order into one integer: Reputation, then gold, then (rule.tie_claims)
# claims scored.  Gold and claims stay far below their strides, so a lower part never reaches the part above.
GOLD_STRIDE = 1 << 10  # above any number of claims
VP_STRIDE = 1 << 30  # above any gold x GOLD_STRIDE


@nb.njit(cache=True, _nrt=False, inline="always")
def ranking_key(s, p, seat):
    """Higher is better: Reputation, then gold, then (rule.tie_claims) claims."""
    k = total_vp(s, seat) * VP_STRIDE + s.gold[seat] * GOLD_STRIDE
    if p[P_R_TIE_CLAIMS] == 1:
        k += s.claims_n[seat]
    return k


@nb.njit(cache=True, _nrt=False)
def write_outcome(s, p, game_int, seat_int, seat_f, items):
    """Fill the output rows; seat_f[i] = (Reputation, win share), tied winners share the win; items[k] = (seat, item
    id, turn acquired).  Returns the number of item rows."""
    n = s.n
    game_int[GAME.turns_total] = s.turn_total
    rounds = 0
    for i in range(n):
        rounds = max(rounds, s.turns[i])
    game_int[GAME.rounds] = rounds
    game_int[GAME.end_reason] = s.over - 1
    game_int[GAME.trigger_seat] = s.trig_seat
    game_int[GAME.reserve_cubes] = s.reserve
    game_int[GAME.items_truncated] = s.items_lost
    for i in range(n):
        s.rank_key[i] = ranking_key(s, p, i)
    rank = seat_int[:, SEAT.rank]  # rank_seats writes the ranks straight into their column
    rank_seats(s.rank_key, n, rank)
    n_win = winners(rank, n)
    for i in range(n):
        win = 1 if rank[i] == 1 else 0
        seat_int[i, SEAT.win] = win
        seat_int[i, SEAT.order] = i
        for k in range(VP_UNFINISHED + 1):  # vp_tiles .. vp_unfinished, in the order of the VP_* sources
            seat_int[i, SEAT.vp_tiles + k] = s.vp[i, k]
        seat_int[i, SEAT.vp_total] = total_vp(s, i)
        seat_int[i, SEAT.gold] = s.gold[i]
        for f in range(NFLOORS):
            seat_int[i, SEAT.tiles_floor1 + f] = 0
        for j in range(s.n_tiles[i]):
            seat_int[i, SEAT.tiles_floor1 + s.tile_floor[i, j]] += 1
        seat_int[i, SEAT.roofs] = s.roofs[i, ROOF_SMALL] + s.roofs[i, ROOF_LARGE]
        seat_int[i, SEAT.turns_taken] = s.turns[i]
        seat_int[i, SEAT.ended_game] = 1 if s.trig_seat == i else 0
        seat_int[i, SEAT.claims] = s.claims_n[i]
        seat_int[i, SEAT.cards_played] = s.cards_played[i]
        citizens = 0
        outlaws = 0
        for c in range(N_CHARS):
            if s.char_owner[c] == i:
                if char_is_citizen(p, c):
                    citizens += 1
                else:
                    outlaws += 1
        seat_int[i, SEAT.citizens] = citizens
        seat_int[i, SEAT.outlaws] = outlaws
        seat_f[i, 0] = total_vp(s, i)
        seat_f[i, 1] = win / n_win if win else 0.0
    m = 0
    for j in range(s.n_item_rows):
        if m < items.shape[0]:
            items[m, 0] = s.item_rows[j, 0]
            items[m, 1] = s.item_rows[j, 1]
            items[m, 2] = s.item_rows[j, 2]
            m += 1
    for c in range(N_CHARS):
        if s.char_owner[c] >= 0 and m < items.shape[0]:
            items[m, 0] = s.char_owner[c]
            items[m, 1] = IT_CHAR + c
            items[m, 2] = s.char_turn[c]
            m += 1
    return m


@nb.njit(cache=True, _nrt=False)
def standings(s, p, out):
    """out[i] = seat i's Reputation as the final scoring would count it now: the points scored so far (finished
    tiles, roofs, lots, staked claims) plus the end-of-game points of the board as it stands (Citizens in the
    saloon, Sydney Smythe, unfinished tiles).  Secret claims not yet staked are not counted (the others cannot
    see them).  At the end of the game this is the Reputation write_outcome ranks by.  Returns the number of game
    rounds completed."""
    for i in range(s.n):
        unfinished, citizens, outlaws = end_scores(s, p, i)
        out[i] = (
            s.vp[i, VP_TILES]
            + s.vp[i, VP_ROOFS]
            + s.vp[i, VP_LOTS]
            + s.vp[i, VP_CLAIMS]
            + unfinished
            + citizens
            + outlaws
        )
    return s.turn_total // s.n
