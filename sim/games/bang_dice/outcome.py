"""What a finished game of BANG! writes to the results tables: the column names declared once here (the GameSpec
names the same tuples), the win of each seat by its team, and the items (character, special role, Chief's Arrow)."""
import numba as nb


from .state import (DEPUTY, MAX_PLAYERS, N_CHARS, OUTLAW, RENEGADE, SHERIFF, WT_LAW, WT_NONE, WT_OUTLAWS)
from .table import n_living


GAME_COLUMNS = ("turns", "rounds", "winner_team", "end_reason", "n_alive_at_end", "ghost_seat", "winner_seat")
SEAT_COLUMNS = ("rank", "win", "order", "role", "role_end", "special_role", "character", "life_end", "max_life",
                "damage_dealt", "damage_taken", "arrows_taken", "indian_damage", "turns_taken", "eliminated",
                "eliminated_by", "killed_by_seat", "elim_turn", "ghost", "special_used")
ITEM_CHIEF = N_CHARS + 9


@nb.njit(cache=True, _nrt=False)
def role_team(s, i):
    """Team of seat i for the win: SHERIFF/DEPUTY = law (0), OUTLAW (2), RENEGADE (3)."""
    r = s.role[i]
    if i == s.ghost_seat and r == RENEGADE:
        return s.ghost_team
    if r == SHERIFF:
        return DEPUTY
    return r


@nb.njit(cache=True, _nrt=False)
def seat_wins(s, i):
    w = s.winner_team
    if s.over == 0 or w == WT_NONE:
        return 0
    if w == WT_LAW:
        return 1 if role_team(s, i) == DEPUTY else 0
    if w == WT_OUTLAWS:
        return 1 if role_team(s, i) == OUTLAW else 0
    return 1 if i == s.winner_seat else 0


@nb.njit(cache=True, _nrt=False)
def write_outcome(s, p, game_int, seat_int, seat_f, items):
    n = s.n
    game_int[0] = s.turn
    game_int[1] = s.rnd
    game_int[2] = s.winner_team
    game_int[3] = s.end_reason
    game_int[4] = n_living(s)
    game_int[5] = s.ghost_seat
    game_int[6] = s.winner_seat
    nw = 0
    for i in range(n):
        nw += seat_wins(s, i)
    k = 0
    for i in range(MAX_PLAYERS):
        for j in range(seat_int.shape[1]):
            seat_int[i, j] = 0
        seat_f[i, 0] = 0.0
        seat_f[i, 1] = 0.0
    for i in range(n):
        w = seat_wins(s, i)
        seat_int[i, 0] = 1 if w == 1 else 2
        seat_int[i, 1] = w
        seat_int[i, 2] = (i - s.first_seat + n) % n
        seat_int[i, 3] = s.role0[i]
        seat_int[i, 4] = s.role[i]
        seat_int[i, 5] = s.special[i] if s.role[i] == s.role0[i] else _dealt_special(s, i)
        seat_int[i, 6] = s.char[i]
        seat_int[i, 7] = s.life[i]
        seat_int[i, 8] = s.max_life0[i]
        seat_int[i, 9] = s.dmg_dealt[i]
        seat_int[i, 10] = s.dmg_taken[i]
        seat_int[i, 11] = s.arrows_taken[i]
        seat_int[i, 12] = s.indian_dmg[i]
        seat_int[i, 13] = s.turns_taken[i]
        seat_int[i, 14] = 1 - s.alive[i]
        seat_int[i, 15] = s.elim_cause[i]
        seat_int[i, 16] = s.killer[i] if s.alive[i] == 0 else -1
        seat_int[i, 17] = s.elim_turn[i]
        seat_int[i, 18] = 1 if i == s.ghost_seat else 0
        seat_int[i, 19] = 1 if s.special_state[i] != 0 else 0
        seat_f[i, 0] = s.life[i]
        seat_f[i, 1] = w / nw if nw > 0 else 1.0 / n  # nobody won (3p, all dead): a draw, split
        if k < items.shape[0]:
            items[k, 0] = i
            items[k, 1] = s.char[i]
            items[k, 2] = 0
            k += 1
        sp = seat_int[i, 5]
        if sp > 0 and k < items.shape[0]:
            items[k, 0] = i
            items[k, 1] = N_CHARS + sp - 1
            items[k, 2] = 0
            k += 1
        if s.chief_turn[i] >= 0 and k < items.shape[0]:
            items[k, 0] = i
            items[k, 1] = ITEM_CHIEF
            items[k, 2] = s.chief_turn[i]
            k += 1
    return k


@nb.njit(cache=True, _nrt=False)
def _dealt_special(s, i):
    """Special role dealt to seat i (The Good swaps cards with the Sheriff)."""
    for j in range(s.n):
        if j != i and s.role[j] == s.role0[i] and s.role0[j] == s.role[i]:
            return s.special[j]
    return s.special[i]
