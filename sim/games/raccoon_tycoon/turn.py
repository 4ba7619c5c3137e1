"""The turn order: whose decision it is, drawing P&P cards, ending a turn, the end triggers and the end of the game."""

import numba as nb
import numpy as np

from sim.events import log_event
from sim.kernel import one_copy
from sim.toolkit import refill

from . import params as P
from .components import hand_limit
from .state import E_DRAW, E_END, E_RESHUFFLE, E_TRIGGER, E_TURN, END_DECK, PH_AUCTION, PH_COMP, PH_MAIN, PH_OVER


@one_copy(_nrt=False)
def draw_card(s, p, seat):
    """Draw one P&P card into seat's hand; reshuffle the discards into the deck when empty (rule.empty_deck)."""
    if s.deck_n == 0:
        if p[P.P_EMPTY_DECK] == 1 or s.disc_n == 0:
            return False
        s.deck_n = refill(s.rng, s.deck, s.disc, s.disc_n)
        s.disc_n = 0
        log_event(s, E_RESHUFFLE, s.deck_n, 0, 0, 0)
    s.deck_n -= 1
    s.hand[seat, s.hand_n[seat]] = s.deck[s.deck_n]
    s.hand_n[seat] += 1
    return True


@nb.njit(cache=True, _nrt=False)
def refill_hand(s, p, seat):
    lim = hand_limit(s, p, seat)
    k = 0
    while s.hand_n[seat] < lim:
        if not draw_card(s, p, seat):
            break
        k += 1
    if k > 0:
        log_event(s, E_DRAW, seat, k, s.hand_n[seat], 0)


@nb.njit(cache=True, _nrt=False)
def current_player(s):
    if s.phase == PH_AUCTION:
        return np.int64(s.auc_bidder)
    if s.phase == PH_COMP:
        return np.int64((s.sp + s.comp_k) % s.n)
    return np.int64(s.cur)


@nb.njit(cache=True, _nrt=False)
def is_over(s):
    return s.over != 0


@nb.njit(cache=True, _nrt=False)
def reset_turn(s):
    s.auctions_turn = 0
    s.builds_turn = 0
    s.sales_turn = 0
    s.sale1_c = -1
    s.export_used = 0
    s.prod_card = -1


@one_copy(_nrt=False)
def trigger_end(s, reason):
    if s.end_trig == 0:
        s.end_trig = 1
        s.end_reason = reason
        log_event(s, E_TRIGGER, reason, s.cur, s.rnd, 0)


@nb.njit(cache=True, _nrt=False)
def finish_game(s):
    s.over = 1
    s.phase = PH_OVER
    log_event(s, E_END, s.end_reason, s.rnd, s.turn, 0)


@nb.njit(cache=True, _nrt=False)
def end_turn(s, p):
    seat = s.cur
    if p[P.P_REFILL] == 1:
        refill_hand(s, p, seat)
    s.turns_taken[seat] += 1
    if p[P.P_EMPTY_DECK] == 1 and s.deck_n == 0 and s.end_trig == 0:
        # rule.empty_deck = stop: once the deck and every hand are empty nobody can produce again; the game
        # would stall, so it ends like the other triggers (an ASSUMED completion of that reading, RULES.md)
        empty = True
        for o in range(s.n):
            if s.hand_n[o] > 0:
                empty = False
        if empty:
            trigger_end(s, END_DECK)
    if s.end_trig:
        if p[P.P_GAME_END] == 1 or seat == (s.sp + s.n - 1) % s.n:
            finish_game(s)
            return
    nxt = seat + 1  # (seat + 1) % n
    if nxt >= s.n:
        nxt = 0
    s.cur = nxt
    if s.cur == s.sp:
        s.rnd += 1
    s.turn += 1
    reset_turn(s)
    s.phase = PH_MAIN
    log_event(s, E_TURN, s.cur, s.rnd, s.turn, 0)
