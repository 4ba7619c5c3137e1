"""Gunny Town's duels (RULES.md "Duels", T "Duels", "Resolving a duel", "Multiple gun fire").

A duel is rounds of face-down cards: the challenger lays one (CCARD), the defender replies, dodges or fakes (DCARD),
and the round's winner chooses to hit or frighten the loser's horse, and may take his badge (WIN).  The challenger
fires as many rounds as his best weapon reaching the defender allows; the defender can reply fully to as many
rounds as his own weapon reaching back allows, and only cancel after that (overmatched).
"""

import numba as nb

from sim.events import log_event
from sim.kernel import one_copy

from .cards import discard_ammo, draw_secret, use_card
from .life import give_job, lose_lp
from .missions import claim, credit
from .params import (
    C_FRIGHTEN,
    C_HIT,
    C_HIT_DISTINCT,
    C_HIT_JOB,
    C_HIT_NEXT,
    C_WIN_DUEL,
    J_SHERIFF,
    P_BADGE_FIRST,
    P_OVERMATCH_EQUAL,
    P_R_FAKE,
    P_R_SHERIFF_PEN,
    P_R_UNARMED,
    P_SHERIFF_PENALTY,
)
from .queries import fire_rounds, hand_to_hand, int_param, n_shooting
from .state import (
    DODGE,
    E_CHOICE,
    E_DUEL,
    E_DUEL_END,
    E_PENALTY,
    E_ROUND,
    FAKE,
    PH_CCARD,
    PH_PRE,
    PH_WIN,
    R_C_WINS,
    R_CANCEL,
    R_D_WINS,
    R_TIE,
    RANK,
    W_FRIGHTEN_JOB,
    W_HIT,
    W_HIT_JOB,
)


@nb.njit(cache=True, _nrt=False)
def start_duel(s, p, t):
    """The active player challenges seat t: the rounds each side can fire, then the challenger's card."""
    c = s.cur
    s.challenged |= 1 << t
    if s.phase == PH_PRE:
        s.duel_pre += 1
    else:
        s.duel_post += 1
    s.d_c = c
    s.d_t = t
    s.d_ret = s.phase
    close = hand_to_hand(s, p, c, t)
    r = fire_rounds(s, p, c, t)
    if r == 0:
        r = 1  # hand-to-hand without a weapon
    s.d_rounds = r
    cap = fire_rounds(s, p, t, c)
    if cap == 0 and close and int_param(p, P_R_UNARMED) == 0:
        cap = 1  # bare hands in a hand-to-hand struggle
    s.d_cap = cap
    s.d_faked = 0
    s.d_pen = 0
    s.d_round = 0
    s.d_wins[0] = 0
    s.d_wins[1] = 0
    s.duels_fought[c] += 1
    s.duels_fought[t] += 1
    log_event(s, E_DUEL, c, t, r, cap)
    s.phase = PH_CCARD


@nb.njit(cache=True, _nrt=False)
def end_duel(s, p):
    log_event(s, E_DUEL_END, s.d_c, s.d_t, s.d_wins[0], s.d_wins[1])
    s.phase = s.d_ret


@nb.njit(cache=True, _nrt=False)
def credit_hit(s, p, w, lo, lo_job):
    credit(s, p, w, C_HIT, lo)
    credit(s, p, w, C_HIT_NEXT, lo)
    if lo_job >= 0:
        credit(s, p, w, C_HIT_JOB, lo_job)
    credit(s, p, w, C_HIT_DISTINCT, lo)


@nb.njit(cache=True, _nrt=False)
def after_round(s, p):
    c = s.d_c
    t = s.d_t
    if s.skip[c] or s.skip[t]:
        end_duel(s, p)
        return
    s.d_round += 1
    if s.d_round < s.d_rounds and n_shooting(s, c) > 0:
        s.phase = PH_CCARD
    else:
        end_duel(s, p)


@nb.njit(cache=True, _nrt=False)
def resolve_round(s, p, dcard):
    """The defender's card (or FAKE) against the challenger's face-down card: the round's result."""
    c = s.d_c
    t = s.d_t
    cc = s.d_ccard
    res = R_C_WINS
    s.d_faked = 0
    if dcard == FAKE:
        res = R_C_WINS
        s.d_faked = 1 if int_param(p, P_R_FAKE) == 0 else 0  # he takes the hit: no frighten instead
    elif dcard == DODGE:
        res = R_CANCEL
    else:
        rc = RANK[cc]
        rd = RANK[dcard]
        if s.d_round >= s.d_cap:
            if rd > rc:
                res = R_CANCEL
            elif rd == rc:
                res = R_CANCEL if int_param(p, P_OVERMATCH_EQUAL) == 1 else R_TIE
            else:
                res = R_C_WINS
        else:
            if rd > rc:
                res = R_D_WINS
            elif rd == rc:
                res = R_TIE
            else:
                res = R_C_WINS
    # cards: the challenger's is discarded; the defender's too unless he faked
    discard_ammo(s, cc)
    s.ammo_used[c] += 1
    if dcard != FAKE:
        use_card(s, t, dcard)
    log_event(s, E_ROUND, cc, dcard, res, s.d_round)
    if res == R_CANCEL:
        end_duel(s, p)
        return
    if res == R_TIE:
        cj = s.job[c]
        tj = s.job[t]
        credit_hit(s, p, c, t, tj)
        credit_hit(s, p, t, c, cj)
        lose_lp(s, p, t, 1, c)
        lose_lp(s, p, c, 1, t)
        claim(s, p, c)
        claim(s, p, t)
        after_round(s, p)
        return
    if res == R_C_WINS:
        w = c
        lo = t
        s.d_wins[0] += 1
    else:
        w = t
        lo = c
        s.d_wins[1] += 1
    s.d_winner = w
    s.d_loser = lo
    s.duels_won[w] += 1
    credit(s, p, w, C_WIN_DUEL, 0)
    if s.job[w] == J_SHERIFF and (s.d_pen == 0 or int_param(p, P_R_SHERIFF_PEN) == 0):
        s.d_pen = 1
        pen = min(int_param(p, P_SHERIFF_PENALTY), s.gold[lo])
        s.gold[lo] -= pen
        s.gold[w] += pen
        log_event(s, E_PENALTY, w, lo, pen, 0)
    if w == t and s.job[t] >= 0:
        # bounty: a job holder who wins a duel started by an opponent accomplishes 'hit the <his job>'
        credit(s, p, t, C_HIT_JOB, s.job[t])
    if s.job[lo] >= 0 or (s.horse[lo] and s.d_faked == 0):
        s.phase = PH_WIN
    else:
        winner_choice(s, p, W_HIT)


@nb.njit(cache=True, _nrt=False)
def take_badge(s, p, w, lo, j):
    """The duel's winner takes badge j from the loser (or from the board, if the hit just jailed him)."""
    if s.job[lo] == j:
        s.job_holder[j] = -1
        s.job[lo] = -1
        if s.secret[lo] < 0:
            draw_secret(s, lo)
    give_job(s, p, w, j)


@one_copy(_nrt=False)
def winner_choice(s, p, choice):
    """The round winner hits or frightens the loser's horse, and may take his badge."""
    w = s.d_winner
    lo = s.d_loser
    lo_job = s.job[lo]
    log_event(s, E_CHOICE, w, lo, choice, 0)
    take = (choice == W_HIT_JOB or choice == W_FRIGHTEN_JOB) and lo_job >= 0
    # by default the hit or the frighten is credited while both still hold what they held (a jobless winner scores
    # his secret "frighten a horse", a killing hit scores "kill a job holder"), then the badge changes hands (from
    # the board if the hit jailed its holder); rule.duel_badge_first: the badge first
    badge_first = int_param(p, P_BADGE_FIRST) == 1
    if take and badge_first:
        take_badge(s, p, w, lo, lo_job)
    if choice == W_HIT or choice == W_HIT_JOB:
        credit_hit(s, p, w, lo, lo_job)
        lose_lp(s, p, lo, 1, w)
    else:
        s.horse[lo] = 0
        credit(s, p, w, C_FRIGHTEN, 0)
    if take and not badge_first:
        take_badge(s, p, w, lo, lo_job)
    claim(s, p, w)
    after_round(s, p)
