"""What a finished game of Gunny Town writes to the results tables, the items seats acquire, and the standings.

The column names are declared once here; GAME (in __init__.py) names the same tuples, and write_outcome writes
by the generated indices (seat_int[i, SEAT.win]), so adding a column never shifts the others.
"""

import numba as nb

from sim.kernel import one_copy
from sim.toolkit import Columns, rank_seats, winners

from .params import ITEM_KINDS, ITEM_NAMES
from .queries import stores_owned
from .state import MAX_ITEMS, N_ITEM_IDS

GAME_COLUMNS = ("rounds", "turns", "end_reason", "missions_left_in_deck")
SEAT_COLUMNS = (
    "rank",
    "win",
    "order",
    "vp_missions",
    "vp_secret",
    "vp_other",
    "vp_total",
    "gold",
    "duels_fought",
    "duels_won",
    "jail_visits",
    "jobs_held",
    "stores_owned",
    "casino_net",
    "missions",
    "secret_missions",
    "turns_played",
    "final_job",
)
GAME = Columns("Game", GAME_COLUMNS)
SEAT = Columns("Seat", SEAT_COLUMNS)

assert len(ITEM_NAMES) == N_ITEM_IDS == len(ITEM_KINDS)  # params.py names the items state.py numbers

# The ranking key (RULES.md, "End and scoring"): VP, then missions accomplished (not secret ones), then GN, packed
# into one int64 that orders seats as that comparison does (gold shifted to be non-negative; fewer than 1,024 missions).
KEY_GOLD_OFFSET = 1 << 31
KEY_MISSIONS = 1 << 32
KEY_VP = 1 << 42


@one_copy(_nrt=False)
def record_item(s, seat, item_id):
    """seat acquires item item_id this turn (rows past MAX_ITEMS are not recorded)."""
    if s.n_it < MAX_ITEMS:
        s.it[s.n_it, 0] = seat
        s.it[s.n_it, 1] = item_id
        s.it[s.n_it, 2] = s.turn
        s.n_it += 1


@nb.njit(cache=True, _nrt=False)
def write_outcome(s, p, game_int, seat_int, seat_f, items):
    """Fill the output rows; seat_f[i] = (VP, win share), ties split the win; items[k] = (seat, item id, turn)."""
    n = s.n
    game_int[GAME.rounds] = s.rnd
    game_int[GAME.turns] = s.turn + 1
    game_int[GAME.end_reason] = s.end_reason
    game_int[GAME.missions_left_in_deck] = s.n_mdeck
    for i in range(n):
        s.rank_key[i] = s.vp[i] * KEY_VP + s.n_missions[i] * KEY_MISSIONS + (s.gold[i] + KEY_GOLD_OFFSET)
    rank = seat_int[:, SEAT.rank]
    rank_seats(s.rank_key, n, rank)
    n_win = winners(rank, n)
    for i in range(n):
        win = 1 if rank[i] == 1 else 0
        seat_int[i, SEAT.win] = win
        seat_int[i, SEAT.order] = i
        seat_int[i, SEAT.vp_missions] = s.vp_mis[i]
        seat_int[i, SEAT.vp_secret] = s.vp_sec[i]
        seat_int[i, SEAT.vp_other] = s.vp[i] - s.vp_mis[i] - s.vp_sec[i]
        seat_int[i, SEAT.vp_total] = s.vp[i]
        seat_int[i, SEAT.gold] = s.gold[i]
        seat_int[i, SEAT.duels_fought] = s.duels_fought[i]
        seat_int[i, SEAT.duels_won] = s.duels_won[i]
        seat_int[i, SEAT.jail_visits] = s.jail_visits[i]
        seat_int[i, SEAT.jobs_held] = s.jobs_taken[i]
        seat_int[i, SEAT.stores_owned] = stores_owned(s, i)
        seat_int[i, SEAT.casino_net] = s.casino_net[i]
        seat_int[i, SEAT.missions] = s.n_missions[i]
        seat_int[i, SEAT.secret_missions] = s.n_secret[i]
        seat_int[i, SEAT.turns_played] = s.turns_played[i]
        seat_int[i, SEAT.final_job] = s.job[i] + 1  # labels: 0 BANDIT (no job), then JOB_NAMES
        seat_f[i, 0] = s.vp[i]
        seat_f[i, 1] = win / n_win
    m = min(s.n_it, items.shape[0])
    for k in range(m):
        items[k, 0] = s.it[k, 0]
        items[k, 1] = s.it[k, 1]
        items[k, 2] = s.it[k, 2]
    return m


@nb.njit(cache=True, _nrt=False)
def standings(s, p, out):
    """out[i] = seat i's VP so far (the quantity the game ranks by; its tie-breakers are left out), for each seat;
    returns the number of completed game rounds."""
    for i in range(s.n):
        out[i] = s.vp[i]
    return s.rnd
