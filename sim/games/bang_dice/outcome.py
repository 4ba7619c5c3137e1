"""What a finished game of BANG! writes to the results tables: the column names declared once here (the GameSpec
names the same tuples), the win of each seat by its team, and the items (character, special role, Chief's Arrow)."""

import numba as nb

from sim.toolkit import Columns, rank_seats

from . import params as P
from .state import (
    DEPUTY,
    MAX_PLAYERS,
    N_CHARS,
    OUTLAW,
    RENEGADE,
    SHERIFF,
    SP_NONE,
    SPECIAL_NAMES,
    WT_LAW,
    WT_NONE,
    WT_OUTLAWS,
)
from .table import n_living


GAME_COLUMNS = ("turns", "rounds", "winner_team", "end_reason", "n_alive_at_end", "ghost_seat", "winner_seat")
SEAT_COLUMNS = (
    "rank",
    "win",
    "order",
    "role",
    "role_end",
    "special_role",
    "character",
    "life_end",
    "max_life",
    "damage_dealt",
    "damage_taken",
    "arrows_taken",
    "indian_damage",
    "turns_taken",
    "eliminated",
    "eliminated_by",
    "killed_by_seat",
    "elim_turn",
    "ghost",
    "special_used",
)
GAME = Columns("Game", GAME_COLUMNS)
SEAT = Columns("Seat", SEAT_COLUMNS)
# item ids: the characters, then the special roles (SPECIAL_NAMES without "none"), then the Chief's Arrow
ITEM_CHARACTER = 0
ITEM_SPECIAL = N_CHARS
ITEM_CHIEF = N_CHARS + len(SPECIAL_NAMES) - 1
ITEM_NAMES = tuple(P.CHAR_IDS) + tuple(n.upper().replace(" ", "_") for n in SPECIAL_NAMES[1:]) + ("CHIEF_ARROW",)
ITEM_KINDS = ("character",) * N_CHARS + ("special_role",) * (len(SPECIAL_NAMES) - 1) + ("chief_arrow",)


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
    """Fill the output rows by column name; seat_f[i] = (life at the end, win share); items[k] = (seat, item id,
    turn acquired).  Returns the number of item rows."""
    n = s.n
    game_int[GAME.turns] = s.turn
    game_int[GAME.rounds] = s.rnd
    game_int[GAME.winner_team] = s.winner_team
    game_int[GAME.end_reason] = s.end_reason
    game_int[GAME.n_alive_at_end] = n_living(s)
    game_int[GAME.ghost_seat] = s.ghost_seat
    game_int[GAME.winner_seat] = s.winner_seat
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
        dealt = s.special[i] if s.role[i] == s.role0[i] else _dealt_special(s, i)
        seat_int[i, SEAT.win] = w
        seat_int[i, SEAT.order] = (i - s.first_seat + n) % n
        seat_int[i, SEAT.role] = s.role0[i]
        seat_int[i, SEAT.role_end] = s.role[i]
        seat_int[i, SEAT.special_role] = dealt
        seat_int[i, SEAT.character] = s.char[i]
        seat_int[i, SEAT.life_end] = s.life[i]
        seat_int[i, SEAT.max_life] = s.max_life0[i]
        seat_int[i, SEAT.damage_dealt] = s.dmg_dealt[i]
        seat_int[i, SEAT.damage_taken] = s.dmg_taken[i]
        seat_int[i, SEAT.arrows_taken] = s.arrows_taken[i]
        seat_int[i, SEAT.indian_damage] = s.indian_dmg[i]
        seat_int[i, SEAT.turns_taken] = s.turns_taken[i]
        seat_int[i, SEAT.eliminated] = 1 - s.alive[i]
        seat_int[i, SEAT.eliminated_by] = s.elim_cause[i]
        seat_int[i, SEAT.killed_by_seat] = s.killer[i] if s.alive[i] == 0 else -1
        seat_int[i, SEAT.elim_turn] = s.elim_turn[i]
        seat_int[i, SEAT.ghost] = 1 if i == s.ghost_seat else 0
        seat_int[i, SEAT.special_used] = 1 if s.special_state[i] != 0 else 0
        seat_f[i, 0] = s.life[i]
        seat_f[i, 1] = w / nw if nw > 0 else 1.0 / n  # nobody won (3p, all dead): a draw, split
        if k < items.shape[0]:
            items[k, 0] = i
            items[k, 1] = ITEM_CHARACTER + s.char[i]
            items[k, 2] = 0
            k += 1
        if dealt != SP_NONE and k < items.shape[0]:
            items[k, 0] = i
            items[k, 1] = ITEM_SPECIAL + dealt - 1
            items[k, 2] = 0
            k += 1
        if s.chief_turn[i] >= 0 and k < items.shape[0]:
            items[k, 0] = i
            items[k, 1] = ITEM_CHIEF
            items[k, 2] = s.chief_turn[i]
            k += 1
    # the ranking key is the win (a team game): the winners rank 1, every other seat 1 + the number of winners
    rank_seats(seat_int[:, SEAT.win], n, seat_int[:, SEAT.rank])
    return k


@nb.njit(cache=True, _nrt=False)
def _dealt_special(s, i):
    """Special role dealt to seat i (The Good swaps cards with the Sheriff)."""
    for j in range(s.n):
        if j != i and s.role[j] == s.role0[i] and s.role0[j] == s.role[i]:
            return s.special[j]
    return s.special[i]


@nb.njit(cache=True, _nrt=False)
def standings(s, p, out):
    """out[i] = seat i's standing now: its life points (0 once eliminated, the Ghost included), what a BANG! seat
    plays to keep; the win itself goes by team (write_outcome), which no running score shows.  Returns the number of
    completed rounds: full table rotations from the first player (the Sheriff; the Deputy with 3 players), 0 during
    the first."""
    for i in range(s.n):
        out[i] = s.life[i] if s.alive[i] == 1 else 0
    return s.rnd - 1
