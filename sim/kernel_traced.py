"""The traced play of `sim run --standings`: play_blocks of sim/kernel_body.py with every seat's standing recorded
each round, for a game whose engine defines standings(s, p, out) -> round.  A module of its own beside the kernel,
so the default path (play_blocks) is untouched.  Bound to the template game like the kernel body:
sim.kernel.load_traced copies it per game with the binding block replaced (sim.kernel.traced_binding).
"""

import numba as nb
import numpy as np

from sim.kernel import LEGAL_OVERFLOW, run_blocks
from sim.rng import seed_streams

# >>> game binding: from here to its end marker, sim.kernel.load_traced writes the game's own (sim.kernel.binding)
# game toy_pig: edit sim/kernel_traced.py, never a generated copy
from sim.games._template.engine import MAX_ACTIONS, MAX_STEPS, apply_action, is_over, setup, standings, write_outcome
from sim.kernel_body import QUICK, clear_outcome, decide, make_work, quick, search_choose
# <<< game binding


@nb.njit(cache=True, inline="always")
def record_standing(s, p, g, now, t_round, t_val, t_rows):
    """Add a row (round, every seat's standing) to game g's trace.  A game longer than the trace's TRACE_ROWS
    rows is thinned rather than cut: every second row is dropped and from then on only every second new round
    is kept (then every fourth...), so the trace still spans the whole game.  Returns the round standings gave."""
    r = np.int64(standings(s, p, now))
    k = t_rows[g]
    cap = t_round.shape[1]
    if k == cap:
        for j in range(cap // 2):
            t_round[g, j] = t_round[g, 2 * j]
            for i in range(t_val.shape[2]):
                t_val[g, j, i] = t_val[g, 2 * j, i]
        k = cap // 2
    t_round[g, k] = r
    for i in range(t_val.shape[2]):
        t_val[g, k, i] = now[i]
    t_rows[g] = k + 1
    return r


@nb.njit(nogil=True, cache=True)
def play_traced(
    states,
    first,
    last,
    p,
    master,
    seed_index,
    n_players,
    strat,
    sids,
    weights,
    game_int,
    seat_int,
    seat_f,
    items,
    n_items,
    steps,
    t_round,
    t_val,
    t_rows,
):
    """play_blocks with the standings trace: row k of game i is (t_round[i, k], t_val[i, k, seat]), one row when
    the game starts (round 0), one each time standings() gives a new round, and one at the end when moves were
    made since the last row: the standings after the round the game ended in, counted as played (one past the
    round standings() gives then), so every game's last row is its end and a round number is never repeated."""
    n = seed_index.shape[0]
    per = (n + states.shape[0] - 1) // states.shape[0]
    cap = t_round.shape[1]
    legal = np.empty(MAX_ACTIONS, np.int64)
    now = np.zeros(t_val.shape[2], np.float64)
    work = make_work(states, game_int[0], seat_int[0], seat_f[0], items[0])
    for b in range(first, last):
        s = states[b]
        for i in range(b * per, min(n, (b + 1) * per)):
            seed_streams(s.rng, master, seed_index[i])
            setup(s, p, n_players[i])
            t_rows[i] = 0
            last_round = record_standing(s, p, i, now, t_round, t_val, t_rows)
            stride = 1  # 2, 4, ... once a long game has been thinned
            moved = False  # moves made since the last row
            boundary = False  # the last move began a new round
            t = 0
            result = 0
            while not is_over(s):
                if t >= MAX_STEPS:
                    result = -t
                    break
                a = quick(s, p, strat[i], sids, weights) if QUICK else np.int64(-1)
                if a < 0:
                    seat, m, k = decide(s, p, strat[i], sids, weights, legal)
                    if m > MAX_ACTIONS:
                        result = LEGAL_OVERFLOW
                        break
                    if k < 0:
                        k = search_choose(s, p, seat, legal, m, weights[strat[i][seat]], work)
                    a = legal[k]
                apply_action(s, p, a)
                t += 1
                moved = True
                r = np.int64(standings(s, p, now))
                boundary = r != last_round
                if boundary:
                    last_round = r
                    if r % stride == 0:
                        if t_rows[i] == cap:
                            stride *= 2
                        record_standing(s, p, i, now, t_round, t_val, t_rows)
                        moved = False
            if moved:  # the end, inside a round (or at a round a thinned trace skipped)
                record_standing(s, p, i, now, t_round, t_val, t_rows)
                t_round[i, t_rows[i] - 1] = last_round if boundary else last_round + 1
            steps[i] = t if result == 0 else result
            clear_outcome(game_int[i], seat_int[i], seat_f[i], items[i])
            n_items[i] = write_outcome(s, p, game_int[i], seat_int[i], seat_f[i], items[i])


def play_traced_batch(states, *args):
    """play_batch with the standings trace (args as play_traced after `last`)."""
    run_blocks(play_traced, states, args)
