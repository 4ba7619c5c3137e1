"""Setting up a game: roles, special roles (module 3) and characters dealt, life set, the Sheriff first."""

import numba as nb
import numpy as np

from sim.events import log_event
from sim.rng import shuffle

from . import params as P
from .state import (
    BAD,
    BEAR,
    CHAR_NEEDS,
    DEPUTY,
    DOC,
    ER_NOT_OVER,
    EV_SEAT,
    GAMBLER,
    GOOD,
    JUDGE,
    LEFT,
    MAX_PLAYERS,
    N_CHARS,
    OUTLAW,
    PH_TURN_BEGIN,
    RENEGADE,
    RIGHT,
    SHERIFF,
    SP_NONE,
    SRC_NONE,
    UGLY,
    WT_NONE,
    param_int,
    param_on,
    sync_params,
)
from .actions import D_NONE
from .rules import run_auto


@nb.njit(cache=True)
def _intervene(s, chars, n, m):
    """sim effect's interventions on the shuffled character deck (no random draw: the games stay paired)."""
    rm = param_int(s, P.ITEM_REMOVE) - 1  # a character taken out: the next card of the deck replaces it
    if rm >= 0 and n < m:
        for j in range(n):
            if chars[j] == rm:
                chars[j] = chars[n]
                chars[n] = rm
                break
    dc = param_int(s, P.ITEM_DEAL) - 1  # a character dealt to a given seat: it swaps cards
    ds = param_int(s, P.ITEM_DEAL_SEAT) - 1
    if dc >= 0 and 0 <= ds < n:
        for j in range(m):
            if chars[j] == dc:
                chars[j] = chars[ds]
                chars[ds] = dc
                break


@nb.njit(cache=True, _nrt=False)
def _reset(s, n):
    """Every field a game reads, set for n players (the record is reused game after game)."""
    s.n = n
    s.over = 0
    s.n_ev = 0 if s.log_on == 0 else s.n_ev
    s.three = 1 if n == 3 else 0
    s.lms = 0
    s.winner_team = WT_NONE
    s.winner_seat = -1
    s.end_reason = ER_NOT_OVER
    s.dkind = D_NONE
    s.decider = -1
    s.ret_depth = 0
    s.turn = 0
    s.rnd = 1
    s.n_dead = 0
    s.ghost_seat = -1
    s.ghost_done = 0
    s.gt_face = -1
    s.gt_x2 = 0
    s.gt_holder = -1
    s.gt_used = 0
    s.extra_turn = 0
    s.pile = param_int(s, P.ARROWS)
    s.chief_holder = -1 if param_on(s, P.M_CHIEF) else -2
    s.ghost_team = OUTLAW if (n == 5 or n == 7) else DEPUTY
    for i in range(MAX_PLAYERS):
        s.role[i] = -1
        s.special[i] = SP_NONE
        s.special_state[i] = 0
        s.role_known[i] = 0
        s.char[i] = -1
        s.life[i] = 0
        s.max_life[i] = 0
        s.max_life0[i] = 0
        s.alive[i] = 0
        s.target3[i] = -1
        s.arrows[i] = 0
        s.bt_amt[i] = 0
        s.dmg_dealt[i] = 0
        s.dmg_taken[i] = 0
        s.arrows_taken[i] = 0
        s.indian_dmg[i] = 0
        s.turns_taken[i] = 0
        s.elim_cause[i] = SRC_NONE
        s.killer[i] = -1
        s.elim_turn[i] = -1
        s.dmg_to_sheriff[i] = 0
        s.heal_to_sheriff[i] = 0
        s.chief_turn[i] = -1
        for j in range(MAX_PLAYERS):
            s.hit_by[i, j] = 0
            s.healed_by[i, j] = 0


@nb.njit(cache=True)
def _deal_roles(s, n):
    """The role cards for n players, shuffled and dealt (R13's table; 3 players: Deputy, Outlaw, Renegade)."""
    roles = np.empty(MAX_PLAYERS, np.int8)
    k = 0
    if n == 3:
        roles[0] = DEPUTY
        roles[1] = OUTLAW
        roles[2] = RENEGADE
        k = 3
    else:
        roles[0] = SHERIFF
        k = 1
        nd = 0 if n == 4 else (1 if n <= 6 else 2)
        no = 2 if n <= 5 else 3
        nr = 2 if n == 8 else 1
        for _ in range(nd):
            roles[k] = DEPUTY
            k += 1
        for _ in range(no):
            roles[k] = OUTLAW
            k += 1
        for _ in range(nr):
            roles[k] = RENEGADE
            k += 1
    shuffle(s.rng, 0, roles, n)
    for i in range(n):
        s.role[i] = roles[i]
        s.role0[i] = roles[i]
        s.alive[i] = 1


@nb.njit(cache=True)
def _deal_special_roles(s, n):
    """Module 3: each seat gets a special role of its role, from that role's pool (mixed: with blank cards)."""
    mode = param_int(s, P.M_SPECIAL)
    if mode > 0 and (n > 3 or param_int(s, P.R_SPECIAL_3P) == 1):
        pool = np.empty(8, np.int8)
        for r in range(4):
            m = 0
            if r == SHERIFF:
                pool[m] = BEAR
                m += 1
                if mode == 2:
                    pool[m] = SP_NONE
                    m += 1
            elif r == DEPUTY:
                m = 0
                if n > 3:  # 3 players: no Sheriff for The Good to swap with (rule.special_roles_3p)
                    pool[m] = GOOD
                    m += 1
                pool[m] = DOC
                pool[m + 1] = JUDGE
                m += 2
                if mode == 2:
                    pool[m] = SP_NONE
                    pool[m + 1] = SP_NONE
                    m += 2
            elif r == OUTLAW:
                pool[0] = GAMBLER
                pool[1] = BAD
                pool[2] = UGLY
                m = 3
                if mode == 2:
                    pool[3] = SP_NONE
                    pool[4] = SP_NONE
                    pool[5] = SP_NONE
                    m = 6
            else:
                pool[0] = RIGHT
                pool[1] = LEFT
                m = 2
                if mode == 2:
                    pool[2] = SP_NONE
                    pool[3] = SP_NONE
                    m = 4
            shuffle(s.rng, 0, pool, m)
            j = 0
            for i in range(n):
                if s.role[i] == r:
                    s.special[i] = pool[j]
                    j += 1


@nb.njit(cache=True)
def _deal_characters(s, n):
    """The characters shuffled (the new ones with module 4, as their modules allow) and dealt; life set, the
    Sheriff (or, with 3 players, the Deputy) plays first."""
    chars = np.empty(N_CHARS, np.int8)
    m = 0
    for c in range(N_CHARS):
        ok = c < 16
        if c >= 16 and param_on(s, P.M_NEWCHARS):
            need = CHAR_NEEDS[c]
            ok = (need == 0) or (need == 1 and param_on(s, P.M_SALOON)) or (need == 2 and param_on(s, P.M_CHIEF))
        if ok:
            chars[m] = c
            m += 1
    shuffle(s.rng, 0, chars, m)
    _intervene(s, chars, n, m)
    s.sheriff = -1
    s.first_seat = 0
    for i in range(n):
        c = chars[i]
        s.char[i] = c
        life = param_int(s, P.LIFE + c)
        if s.role[i] == SHERIFF:
            s.sheriff = i
            s.first_seat = i
            s.role_known[i] = 1
            life += param_int(s, P.BEAR_BONUS) if s.special[i] == BEAR else param_int(s, P.SHERIFF_BONUS)
            if s.special[i] == BEAR:
                s.special_state[i] = 1
        if s.three == 1:
            s.role_known[i] = 1
            if s.role[i] == DEPUTY:
                s.first_seat = i
        s.life[i] = life
        s.max_life[i] = life
        s.max_life0[i] = life


@nb.njit(cache=True, _nrt=False)
def _three_player_targets(s, n):
    """3 players: the Deputy hunts the Renegade, the Renegade the Outlaw, the Outlaw the Deputy."""
    if s.three == 1:
        s.sheriff = -1
        for i in range(n):
            for j in range(n):
                if (
                    (s.role[i] == DEPUTY and s.role[j] == RENEGADE)
                    or (s.role[i] == RENEGADE and s.role[j] == OUTLAW)
                    or (s.role[i] == OUTLAW and s.role[j] == DEPUTY)
                ):
                    s.target3[i] = j


@nb.njit(cache=True)
def setup(s, p, n_players):
    """Start a game for n_players; the deal draws from chance stream 0 in this order: roles, special roles,
    characters."""
    sync_params(s, p)
    n = n_players
    _reset(s, n)
    _deal_roles(s, n)
    _deal_special_roles(s, n)
    _deal_characters(s, n)
    _three_player_targets(s, n)
    for i in range(n):
        log_event(s, EV_SEAT, i, s.role[i], s.char[i], s.special[i])
    s.active = s.first_seat
    s.phase = PH_TURN_BEGIN
    run_auto(s)
