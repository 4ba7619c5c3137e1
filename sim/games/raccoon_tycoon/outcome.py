"""What a finished game of Raccoon Tycoon writes to the results tables."""
import numba as nb
import numpy as np

from .scoring import vp_parts
from .state import END_NONE, MAX_PLAYERS, N_RR, N_TOWNS

GAME_COLUMNS = ("turns", "rounds", "end_reason", "first_player", "towns_left", "railroads_left", "buildings_left")
SEAT_COLUMNS = ("rank", "win", "order", "vp_towns", "vp_railroads", "vp_buildings", "vp_pairs", "vp_bonus", "vp_total",
                "money", "commodities_sold", "sale_revenue", "auctions_won", "auction_spend", "compensation",
                "towns", "railroads", "buildings", "building_spend", "town_tokens_spent", "productions", "turns",
                "firm_income", "commission")


@nb.njit(cache=True, _nrt=False)
def _beats(s, seat_int, o, seat):
    """Seat o finishes ahead of seat: sudden-death declarer first, then more VP, then more money."""
    if s.winner_sd >= 0:
        if seat == s.winner_sd:
            return False
        if o == s.winner_sd:
            return True
    if seat_int[o, 8] != seat_int[seat, 8]:
        return seat_int[o, 8] > seat_int[seat, 8]
    return seat_int[o, 9] > seat_int[seat, 9]


@nb.njit(cache=True, _nrt=False)
def write_outcome(s, p, game_int, seat_int, seat_f, items):
    n = s.n
    game_int[0] = s.turn
    game_int[1] = s.rnd
    game_int[2] = s.end_reason if s.over else END_NONE
    game_int[3] = s.sp
    game_int[4] = s.town_n + (1 if s.town_offer >= 0 else 0)
    game_int[5] = s.rr_n + (1 if s.rr_offer[0] >= 0 else 0) + (1 if s.rr_offer[1] >= 0 else 0)
    left = np.int64(s.bld_n)
    for k in range(4):
        if s.bld_offer[k] >= 0:
            left += 1
    game_int[6] = left
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
        r[2] = (seat - s.sp + n) % n
        r[3] = vt
        r[4] = vr
        r[5] = vb
        r[6] = vpair
        r[7] = bonus
        r[8] = tot
        r[9] = s.money[seat]
        r[10] = s.sold[seat]
        r[11] = s.revenue[seat]
        r[12] = s.auc_won[seat]
        r[13] = s.auc_spend[seat]
        r[14] = s.comp_recv[seat]
        r[15] = nt
        r[16] = nr
        r[17] = s.n_bld[seat]
        r[18] = s.bld_spend[seat]
        r[19] = s.town_tokens[seat]
        r[20] = s.n_prod[seat]
        r[21] = s.turns_taken[seat]
        r[22] = s.firm_income[seat]
        r[23] = s.commission[seat]
        seat_f[seat, 0] = tot
    # rank by (VP, money); the sudden-death declarer is first outright
    nwin = 0
    for seat in range(n):
        better = 0
        for o in range(n):
            if _beats(s, seat_int, o, seat):
                better += 1
        seat_int[seat, 0] = better + 1
        if better == 0:
            seat_int[seat, 1] = 1
            nwin += 1
    for seat in range(n):
        if seat_int[seat, 1] == 1:
            seat_f[seat, 1] = 1.0 / nwin
    m = 0
    for i in range(min(s.n_items, items.shape[0])):
        items[i, 0] = s.item_seat[i]
        items[i, 1] = s.item_id[i]
        items[i, 2] = s.item_turn[i]
        items[i, 3] = s.item_price[i]
        m += 1
    return m
