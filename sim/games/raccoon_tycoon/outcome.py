"""What a finished game of Raccoon Tycoon writes to the results tables."""

import numba as nb
import numpy as np

from sim.toolkit import Columns, rank_seats, winners

from .scoring import vp_parts, vp_total
from .state import END_NONE, MAX_PLAYERS, N_BLD_OFFER, N_RR, N_TOWNS

GAME_COLUMNS = ("turns", "rounds", "end_reason", "first_player", "towns_left", "railroads_left", "buildings_left")
SEAT_COLUMNS = (
    "rank",
    "win",
    "order",
    "vp_towns",
    "vp_railroads",
    "vp_buildings",
    "vp_pairs",
    "vp_bonus",
    "vp_total",
    "money",
    "commodities_sold",
    "sale_revenue",
    "auctions_won",
    "auction_spend",
    "compensation",
    "towns",
    "railroads",
    "buildings",
    "building_spend",
    "town_tokens_spent",
    "productions",
    "turns",
    "firm_income",
    "commission",
)
GAME = Columns("Game", GAME_COLUMNS)
SEAT = Columns("Seat", SEAT_COLUMNS)


# The ranking key (RULES.md, game end): the sudden-death declarer first, then more VP, then more money
DECLARER_KEY = 1 << 60
VP_KEY = 1 << 32  # above any money a seat can hold


@nb.njit(cache=True, _nrt=False)
def write_outcome(s, p, game_int, seat_int, seat_f, items):
    """Fill the output rows; seat_f[i] = (VP, win share), ties on VP and money share the win; items[k] = (seat,
    item id, round acquired, price).  Returns the number of item rows."""
    n = s.n
    game_int[GAME.turns] = s.turn
    game_int[GAME.rounds] = s.rnd
    game_int[GAME.end_reason] = s.end_reason if s.over else END_NONE
    game_int[GAME.first_player] = s.sp
    game_int[GAME.towns_left] = s.town_n + (1 if s.town_offer >= 0 else 0)
    game_int[GAME.railroads_left] = s.rr_n + (1 if s.rr_offer[0] >= 0 else 0) + (1 if s.rr_offer[1] >= 0 else 0)
    left = np.int64(s.bld_n)
    for k in range(N_BLD_OFFER):
        if s.bld_offer[k] >= 0:
            left += 1
    game_int[GAME.buildings_left] = left
    for seat in range(MAX_PLAYERS):
        for j in range(seat_int.shape[1]):
            seat_int[seat, j] = 0
        seat_f[seat, 0] = 0.0
        seat_f[seat, 1] = 0.0
    for seat in range(n):
        vt, vr, vb, vpair, bonus = vp_parts(s, p, seat)
        tot = vt + vr + vb + vpair + bonus
        nt = 0
        for t in range(N_TOWNS):
            if s.town_owner[t] == seat:
                nt += 1
        nr = 0
        for co in range(N_RR):
            nr += s.rr_own[seat, co]
        r = seat_int[seat]
        r[SEAT.order] = (seat - s.sp + n) % n
        r[SEAT.vp_towns] = vt
        r[SEAT.vp_railroads] = vr
        r[SEAT.vp_buildings] = vb
        r[SEAT.vp_pairs] = vpair
        r[SEAT.vp_bonus] = bonus
        r[SEAT.vp_total] = tot
        r[SEAT.money] = s.money[seat]
        r[SEAT.commodities_sold] = s.sold[seat]
        r[SEAT.sale_revenue] = s.revenue[seat]
        r[SEAT.auctions_won] = s.auc_won[seat]
        r[SEAT.auction_spend] = s.auc_spend[seat]
        r[SEAT.compensation] = s.comp_recv[seat]
        r[SEAT.towns] = nt
        r[SEAT.railroads] = nr
        r[SEAT.buildings] = s.n_bld[seat]
        r[SEAT.building_spend] = s.bld_spend[seat]
        r[SEAT.town_tokens_spent] = s.town_tokens[seat]
        r[SEAT.productions] = s.n_prod[seat]
        r[SEAT.turns] = s.turns_taken[seat]
        r[SEAT.firm_income] = s.firm_income[seat]
        r[SEAT.commission] = s.commission[seat]
        seat_f[seat, 0] = tot
        s.rank_key[seat] = (DECLARER_KEY if seat == s.winner_sd else 0) + tot * VP_KEY + s.money[seat]
    rank = seat_int[:, SEAT.rank]  # rank_seats writes the ranks straight into their column
    rank_seats(s.rank_key, n, rank)
    k = winners(rank, n)
    for seat in range(n):
        if rank[seat] == 1:
            seat_int[seat, SEAT.win] = 1
            seat_f[seat, 1] = 1.0 / k
    m = 0
    for i in range(min(s.n_items, items.shape[0])):
        items[i, 0] = s.item_seat[i]
        items[i, 1] = s.item_id[i]
        items[i, 2] = s.item_turn[i]
        items[i, 3] = s.item_price[i]
        m += 1
    return m


@nb.njit(cache=True, _nrt=False)
def standings(s, p, out):
    """out[i] = seat i's VP as the final scoring would count them if the game ended now (the quantity it ranks by
    before the money tie-break); returns the game rounds completed: the fewest turns any seat has finished, as every
    round gives each seat one turn (0 during the free-token choice and the first round)."""
    for seat in range(s.n):
        out[seat] = vp_total(s, p, seat)
    done = s.turns_taken[0]
    for seat in range(1, s.n):
        done = min(done, s.turns_taken[seat])
    return np.int64(done)
