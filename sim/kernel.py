"""The batch kernel, generated once per game from one template.

Numba never serves a function from its cache when it receives another jitted function as an argument or closes
over one (numba issue 9237; measured here: recompiled in every process).  So the core writes the template below,
with the game's engine and strategy modules filled in, to a real file in the source-keyed cache folder and
imports it: every game gets a cached kernel and the play loop lives in exactly one place.
The file lives in the game's source-keyed cache folder (sim.game_cache_root).
"""

import functools
import importlib.util
import itertools
import pickle
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path

import numba as nb
from numba.core import sigutils
import numpy as np

from . import use_game_cache

LEGAL_TYPE = nb.int64[::1]  # numba type of the list of legal actions the kernel passes (np.empty(n, np.int64))
LEGAL_OVERFLOW = -(1 << 62)  # play_one's return when a legal-action list outgrew MAX_ACTIONS (sim.toolkit.push)


def declared(signature, **options):
    """@nb.njit(signature, cache=True, **options), compiled at its first use rather than at import.

    A helper called from many places is compiled for one declared signature, the arguments converted at each
    call, instead of once per tuple of argument types at its call sites (see docs/ARCHITECTURE.md, "One compiled
    copy per helper").  numba compiles a declared signature when the module is imported: BANG's 22 such helpers
    took 6 s of its first compile, on one core, before the kernel's two compile processes start.  Compiled at
    first use, each process of the first compile (compile_ahead) compiles only the helpers of its own half."""
    return _compiled_as(options, lambda _asked: signature, then_freeze=True)


def one_copy(**options):
    """@nb.njit(cache=True, **options) compiled for its callers' argument types widened (_one_copy_type), so
    that calls passing a constant (which numba types as its literal value), an int8 state field or an int64 share
    one compiled copy instead of one each: Gunny Town compiled _credit 20 times and _push 40 times.  For a helper
    whose argument types are known in advance, `declared` names them instead."""

    def widened(asked):
        args, _ = sigutils.normalize_signature(asked)
        return tuple(_one_copy_type(t) for t in args)

    return _compiled_as(options, widened, then_freeze=False)


def _one_copy_type(t):
    """A call's argument type as one_copy compiles it: signed integers (literal or narrower) as int64, literal
    booleans as bool; anything else as it is."""
    t = nb.types.unliteral(t)
    return nb.int64 if isinstance(t, nb.types.Integer) and t.signed else t


def _compiled_as(options, signature_for, then_freeze):
    """nb.njit(cache=True, **options) whose dispatcher, asked by numba to compile the argument types of a call,
    compiles signature_for(those types) instead; numba then converts the call's arguments to it.  then_freeze:
    compile nothing else afterwards, as numba does for an eager signature."""

    def wrap(func):
        dispatcher = nb.njit(cache=True, **options)(func)
        if nb.config.DISABLE_JIT:
            return dispatcher
        compile_asked = dispatcher.compile

        def compile_instead(asked):
            entry = compile_asked(signature_for(asked))
            if then_freeze:
                dispatcher.disable_compile()
            return entry

        dispatcher.compile = compile_instead
        return dispatcher

    return wrap


TRACE_ROWS = 256  # standings rows kept per game by play_traced; a longer game is thinned (see record_standing)

# The traced play of `sim run --standings`, added to the kernel of a game whose engine defines
# standings(s, p, out) -> round.  A function of its own, so play_blocks (the default path) is untouched.
TRACED = '''
from {engine} import standings


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
def play_traced(states, first, last, p, master, seed_index, n_players, strat, sids, weights,
                game_int, seat_int, seat_f, items, n_items, steps, t_round, t_val, t_rows):
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
            stride = 1         # 2, 4, ... once a long game has been thinned
            moved = False      # moves made since the last row
            boundary = False   # the last move began a new round
            t = 0
            result = 0
            while not is_over(s):
                if t >= MAX_STEPS:
                    result = -t
                    break
                seat, m, k = decide(s, p, strat[i], sids, weights, legal)
                if m > MAX_ACTIONS:
                    result = LEGAL_OVERFLOW
                    break
                if k < 0:
                    k = search_choose(s, p, seat, legal, m, weights[strat[i][seat]], work)
                apply_action(s, p, legal[k])
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
            if moved:          # the end, inside a round (or at a round a thinned trace skipped)
                record_standing(s, p, i, now, t_round, t_val, t_rows)
                t_round[i, t_rows[i] - 1] = last_round if boundary else last_round + 1
            steps[i] = t if result == 0 else result
            clear_outcome(game_int[i], seat_int[i], seat_f[i], items[i])
            n_items[i] = write_outcome(s, p, game_int[i], seat_int[i], seat_f[i], items[i])


def play_traced_batch(states, *args):
    """play_batch with the standings trace (args as play_traced after `last`)."""
    run_blocks(play_traced, states, args)
'''

TEMPLATE = '''# generated by sim.kernel for game {name}: do not edit (edit sim/kernel.py)
import sys
import numba as nb
import numpy as np
from sim.rng import seed_streams, rand_below, next_u64, mix64, GOLDEN
from sim.kernel import LEGAL_TYPE, LEGAL_OVERFLOW, compile_ahead, run_blocks
from sim.search import SEARCH_SID, HEADER, W_ROLLOUTS, W_CAP, W_POLICY, W_PEEK, W_Z, W_UNANIMOUS, W_MARGIN
from sim.search import W_HALVING, W_LEVEL
import {engine} as engine
from {engine} import (setup, current_player, legal_actions, apply_action, is_over, write_outcome,
                      MAX_ACTIONS, MAX_STEPS)
from {strategies} import choose
from {determinize_module} import {determinize_name} as determinize

RANK_COL = {rank_col}  # seat_columns index of 'rank' (0 on the rows of absent seats)

GAME_PACKAGE = {package!r}  # its GAME is the GameSpec


@nb.njit(cache=True{decide_flags})
def decide(s, p, strat_row, sids, weights, legal):
    """Ask the seat to move.  strat_row[seat] is the seat's strategy slot in this run; sids[slot] is the game's
    strategy id (0 = generic random) and weights[slot] its knobs, so presets share code and differ in weights."""
    # int64 whatever the engine returns, so that choose's argument types are known before decide is typed
    seat = np.int64(current_player(s))
    n = np.int64(legal_actions(s, p, legal))
    slot = strat_row[seat]
    sid = sids[slot]
    if n == 1 or n > legal.shape[0]:  # n > the list: the engine's push overflowed (play_one stops the game)
        k = 0
    elif sid == 0:
        k = rand_below(s.rng, 1, n)
    elif sid == SEARCH_SID:
        k = -1  # the caller runs search_choose: it copies states, so it is kept out of this reference-count-free code
    else:
        k = choose(s, p, seat, legal, n, sid, weights[slot])
    return seat, n, k


@nb.njit(cache=True)
def make_work(states, game_int, seat_int, seat_f, items):
    """Scratch space of the search player, allocated once per block of games (never per decision): two state
    records (the re-sampled root of a rollout, the rollout itself), a legal-action list and a candidate list, one
    game's output rows for scoring a rollout, and the shortened legal list select_candidates ranks."""
    return (np.empty_like(states[:1]), np.empty_like(states[:1]), np.empty(MAX_ACTIONS, np.int64),
            np.empty(MAX_ACTIONS, np.int64), np.empty_like(game_int), np.empty_like(seat_int),
            np.empty_like(seat_f), np.empty_like(items), np.empty(MAX_ACTIONS, np.int64))


@nb.njit(cache=True)
def playout(r, p, policy, rw, legal):
    """Play r to the end (or the step cap) with strategy id `policy` (weights rw) in every seat."""
    steps = 0
    while not is_over(r) and steps < MAX_STEPS:
        seat = np.int64(current_player(r))
        n = np.int64(legal_actions(r, p, legal))
        if n > MAX_ACTIONS:  # overflow (an error in a run): end the rollout where it stands
            break
        if n == 1:
            k = 0
        elif policy == 0:
            k = rand_below(r.rng, 1, n)
        else:
            k = choose(r, p, seat, legal, n, policy, rw)
        apply_action(r, p, legal[k])
        steps += 1


@nb.njit(cache=True)
def select_candidates(s, p, seat, legal, n, cap, first, ranked, policy, rw, rng, cand, tmp, sub):
    """cand[:m] = indices into legal[:n] to evaluate: `first` (the heuristic's or the audited choice), then every
    other action if they fit in cap; else the next `ranked` choices of strategy `policy` (its choose asked again
    on the actions not yet taken: the heuristic's near misses, cheap next to the rollouts) and the rest drawn at
    random from stream 1 of rng, so that actions the heuristic undervalues (its blunders) are tried too.  The
    ranking leaves the policy stream of s as it found it.  Returns m."""
    cand[0] = first
    m = 1
    for i in range(n):
        if i != first:
            tmp[m - 1] = i
            m += 1
    others = m - 1
    take = min(others, max(cap, 1) - 1)
    done = 0
    if take < others and policy != 0:
        saved = s.rng[1]
        for j in range(min(ranked, take)):
            left = others - j
            for i in range(left):
                sub[i] = legal[tmp[j + i]]
            q = choose(s, p, seat, sub, left, policy, rw)
            if q < 0 or q >= left:  # a strategy that cannot rank a shortened list: the rest at random
                break
            t = tmp[j]
            tmp[j] = tmp[j + q]
            tmp[j + q] = t
            cand[1 + j] = tmp[j]
            done += 1
        s.rng[1] = saved
    for j in range(done, take):  # partial Fisher-Yates: the first `take` of a random order of the others
        r = j + rand_below(rng, 1, others - j)
        t = tmp[j]
        tmp[j] = tmp[r]
        tmp[r] = t
        cand[1 + j] = tmp[j]
    return 1 + take


@nb.njit(cache=True)
def rollout_range(s, p, seat, legal, cand, alive, na, k0, k1, base, policy, rw, peek, work, win, margin):
    """win[c, k], margin[c, k]: the seat's win share and score margin (its score minus the best other seat's)
    after rollout k (k0 <= k < k1) of candidate legal[cand[c]], for the candidates c in alive[:na].  Rollout k of
    every candidate starts from the same re-seeded, re-sampled copy of s (common random numbers: rollout k is the
    same whichever candidates and rollouts are played with it); s itself is not touched."""
    root, roll, legal2 = work[0], work[1], work[2]
    game_int, seat_int, seat_f, items = work[4], work[5], work[6], work[7]
    for k in range(k0, k1):
        root[0] = s
        r0 = root[0]
        r0.log_on = 0
        r0.rng[0] = mix64(base + np.uint64(2 * k + 1) * GOLDEN)  # fresh dice: a copy would replay the true ones
        r0.rng[1] = mix64(base + np.uint64(2 * k + 2) * GOLDEN)
        if not peek:
            determinize(r0, p, seat)
        for j in range(na):
            c = alive[j]
            roll[0] = root[0]
            r = roll[0]
            apply_action(r, p, legal[cand[c]])
            playout(r, p, policy, rw, legal2)
            clear_outcome(game_int, seat_int, seat_f, items)
            write_outcome(r, p, game_int, seat_int, seat_f, items)
            other = -1e300
            for o in range(seat_f.shape[0]):
                if o != seat and seat_int[o, RANK_COL] != 0 and seat_f[o, 0] > other:
                    other = seat_f[o, 0]
            win[c, k] = seat_f[seat, 1]
            margin[c, k] = seat_f[seat, 0] - (other if other > -1e300 else 0.0)


@nb.njit(cache=True)
def rollout_values(s, p, seat, legal, cand, m, rollouts, base, policy, rw, peek, work, win, margin):
    """rollout_range for every candidate cand[:m] and rollouts 0..rollouts-1."""
    alive = np.arange(m)
    rollout_range(s, p, seat, legal, cand, alive, m, 0, rollouts, base, policy, rw, peek, work, win, margin)


@nb.njit(cache=True)
def paired(a, b):
    """Mean of a - b and its standard error (rollouts are paired by common random numbers)."""
    r = a.shape[0]
    mean = 0.0
    for k in range(r):
        mean += a[k] - b[k]
    mean /= r
    var = 0.0
    for k in range(r):
        d = a[k] - b[k] - mean
        var += d * d
    se = np.sqrt(var / (r - 1) / r) if r > 1 else 0.0
    return mean, se


@nb.njit(cache=True)
def significant(d, se, t, unanimous):
    """A paired mean advantage d with standard error se beats the threshold t; a zero standard error (every
    rollout's difference equal) counts only when unanimous (enough rollouts for the sign test, sim/search.py)."""
    if se > 0:
        return d > t * se + 1e-12
    return unanimous and d > 1e-12


@nb.njit(cache=True)
def best_significant(win, margin, alive, na, k, z, unanimous, by_margin):
    """Among the candidates alive[1:na] (alive[0] is the heuristic's choice, candidate 0), the one whose paired
    (common random numbers, rollouts 0..k-1) advantage over candidate 0 in win share, or in score margin where the
    win shares of every rollout agree, exceeds z standard errors, the largest such; 0 if none: with few rollouts a
    plain argmax follows noise, which loses to a good heuristic (measured on Pig, 2,000 games x 2 rotations
    against hold20: 16 rollouts won 25% with the plain argmax, 45% with z = 1 and 48% +- 2% with z = 2, the
    default; 64 rollouts 51% with z = 2)."""
    best = 0
    best_w = 0.0
    best_m = 0.0
    for j in range(1, na):
        c = alive[j]
        dw, sw = paired(win[c, :k], win[0, :k])
        dm, sm = paired(margin[c, :k], margin[0, :k])
        better = significant(dw, sw, z, unanimous) or (by_margin and dw == 0.0 and sw == 0.0 and
                                                       significant(dm, sm, z, unanimous))
        if better and (best == 0 or dw > best_w + 1e-12 or (abs(dw - best_w) <= 1e-12 and dm > best_m)):
            best, best_w, best_m = c, dw, dm
    return best


@nb.njit(cache=True)
def halving_choice(s, p, seat, legal, cand, m, rollouts, base, policy, rw, peek, work, win, margin, w):
    """Sequential halving (Karnin, Koren and Somekh 2013) over the candidates, the heuristic's choice (candidate 0)
    kept to the end as the baseline: every candidate gets rollouts 0..k-1 (k = rollouts / 8, at least 2); then
    half of the others, those with the best mean win share (score margin breaks ties), go on to k doubled, and so
    on up to `rollouts`, where the flat search's test (best_significant) picks.  Early stops after each round:
    the heuristic's choice stands when no challenger's advantage could reach zero (its mean plus z standard errors
    in win share and in margin at most 0: the rollouts agree that nothing beats it); a challenger that won more in
    every rollout so far, when that many agreeing rollouts pass the sign test (2**-k at most the level of z), is
    taken.  Rollout k is the same for every candidate, so the rounds keep common random numbers."""
    z = w[W_Z]
    unanimous = w[W_UNANIMOUS] != 0
    by_margin = w[W_MARGIN] != 0
    level = w[W_LEVEL]
    alive = np.arange(m)
    key = np.empty(m)
    na = m
    done = 0
    k = min(max(rollouts // 8, 2), rollouts)
    while True:
        rollout_range(s, p, seat, legal, cand, alive, na, done, k, base, policy, rw, peek, work, win, margin)
        done = k
        if done >= rollouts:
            return best_significant(win, margin, alive, na, done, z, unanimous, by_margin)
        hopeless = True  # no challenger's advantage can reach zero
        sure = 0         # a challenger ahead in every rollout so far, with enough rollouts for the sign test
        sure_w = 0.0
        sign_test = 0.5**done <= level
        for j in range(1, na):
            c = alive[j]
            dw, sw = paired(win[c, :done], win[0, :done])
            dm, sm = paired(margin[c, :done], margin[0, :done])
            tied = by_margin and dw == 0.0 and sw == 0.0  # equal win shares in every rollout: the margin judges
            if dw + z * sw > 1e-12 or (tied and dm + z * sm > 1e-12):
                hopeless = False
            if sign_test:
                ahead = True
                for q in range(done):
                    if not (win[c, q] > win[0, q] or (tied and margin[c, q] > margin[0, q])):
                        ahead = False
                        break
                if ahead and (sure == 0 or dw > sure_w):
                    sure, sure_w = c, dw
            key[c] = dw + 1e-9 * dm  # mean win share against the heuristic's (the same rollouts), margin breaking ties
        if hopeless:
            return 0
        if sure > 0:
            return sure
        # keep the better half of the challengers (insertion sort of alive[1:na] by key, highest first)
        for j in range(2, na):
            c = alive[j]
            q = j - 1
            while q >= 1 and key[alive[q]] < key[c]:
                alive[q + 1] = alive[q]
                q -= 1
            alive[q + 1] = c
        na = 1 + na // 2  # the heuristic's choice and half the challengers, rounded up
        k = min(2 * done, rollouts)


@nb.njit(cache=True)
def search_choose(s, p, seat, legal, n, w, work):
    """The search player's choice (an index into legal[:n]); see sim/search.py.  Its seeds come from one draw of
    the seat's own policy stream, so a game with a search seat is reproducible and the dice are untouched."""
    rollouts = max(np.int64(w[W_ROLLOUTS]), 1)
    policy = np.int64(w[W_POLICY])
    rw = w[HEADER:]
    if policy == 0:
        first = rand_below(s.rng, 1, n)
    else:
        first = choose(s, p, seat, legal, n, policy, rw)
    cand = work[3]
    cap = np.int64(w[W_CAP])
    m = select_candidates(s, p, seat, legal, n, cap, first, (cap - 1) // 2, policy, rw, s.rng, cand, work[2],
                          work[8])
    if m == 1:
        return first
    base = next_u64(s.rng, 1)
    win = np.empty((m, rollouts))      # per decision: its size depends on the knobs; small next to the rollouts
    margin = np.empty((m, rollouts))
    peek = w[W_PEEK] != 0
    if w[W_HALVING] != 0:
        return cand[halving_choice(s, p, seat, legal, cand, m, rollouts, base, policy, rw, peek, work, win, margin,
                                   w)]
    # flat: every candidate gets every rollout
    rollout_values(s, p, seat, legal, cand, m, rollouts, base, policy, rw, peek, work, win, margin)
    alive = np.arange(m)
    return cand[best_significant(win, margin, alive, m, rollouts, w[W_Z], w[W_UNANIMOUS] != 0, w[W_MARGIN] != 0)]


@nb.njit(cache=True)
def search_decision(states, p, seat, legal, n, w, game_int, seat_int, seat_f, items):
    """search_choose on states[0] from Python (tests, sim audit): the index into legal[:n] it picks."""
    work = make_work(states, game_int, seat_int, seat_f, items)
    return search_choose(states[0], p, seat, legal, n, w, work)


@nb.njit(cache=True, inline="always")
def play_one(s, p, master, seed_index, n_players, strat_row, sids, weights, legal, work):
    """Play one game to the end (or the step cap); returns the number of decisions, negative if capped, or
    LEGAL_OVERFLOW if a legal-action list outgrew MAX_ACTIONS (sim.runner then stops the run with an error)."""
    seed_streams(s.rng, master, seed_index)
    setup(s, p, n_players)
    steps = 0
    while not is_over(s):
        if steps >= MAX_STEPS:
            return -steps
        seat, n, k = decide(s, p, strat_row, sids, weights, legal)
        if n > MAX_ACTIONS:
            return LEGAL_OVERFLOW
        if k < 0:
            k = search_choose(s, p, seat, legal, n, weights[strat_row[seat]], work)
        apply_action(s, p, legal[k])
        steps += 1
    return steps


@nb.njit(cache=True)
def clear_outcome(game_int, seat_int, seat_f, items):
    """Zero one game's output rows: write_outcome then sees zeros even in a reused output buffer."""
    for j in range(game_int.shape[0]):
        game_int[j] = 0
    for a in range(seat_int.shape[0]):
        for j in range(seat_int.shape[1]):
            seat_int[a, j] = 0
        for j in range(seat_f.shape[1]):
            seat_f[a, j] = 0.0
    for a in range(items.shape[0]):
        for j in range(items.shape[1]):
            items[a, j] = 0


@nb.njit(nogil=True, cache=True)
def play_blocks(states, first, last, p, master, seed_index, n_players, strat, sids, weights,
                game_int, seat_int, seat_f, items, n_items, steps):
    """Play the games of blocks first..last-1.  The games 0..len(seed_index)-1 are cut into len(states) blocks,
    each played in turn on one reused state (setup() initialises everything a game reads), so the working set
    stays in cache; pass one state per game to keep every game's final state.  Runs without the GIL: the core's
    threads (sim.kernel.run_blocks) play blocks side by side."""
    n = seed_index.shape[0]
    per = (n + states.shape[0] - 1) // states.shape[0]
    legal = np.empty(MAX_ACTIONS, np.int64)
    work = make_work(states, game_int[0], seat_int[0], seat_f[0], items[0])
    for b in range(first, last):
        s = states[b]
        for i in range(b * per, min(n, (b + 1) * per)):
            steps[i] = play_one(s, p, master, seed_index[i], n_players[i], strat[i], sids, weights, legal, work)
            clear_outcome(game_int[i], seat_int[i], seat_f[i], items[i])
            n_items[i] = write_outcome(s, p, game_int[i], seat_int[i], seat_f[i], items[i])


@nb.njit(nogil=True, cache=True)
def audit_blocks(states, first, last, p, master, seed_index, n_players, strat, sids, weights, salt, rates, kind_mask,
                 rollouts, cap, policy, rw, peek, game_int, seat_int, seat_f, items, rows, steps, kind_count, out_step,
                 out_seat, out_n, out_m, out_actions, out_win, out_margin, out_states):
    """`sim audit`: play game b of the batch (one game per block, on states[b]) as play_blocks would, and at the
    decisions a hash of (salt, seed index, step) samples with probability rates[kind] (kind = the chosen action's
    low bits, action & kind_mask: rare kinds can be sampled more; at most out_step.shape[1] a game; forced ones
    skipped; kind_count[b, kind] counts every unforced decision of game b by kind), evaluate the chosen action and
    up to cap - 1 others by `rollouts` rollouts each (rollout_values: common random numbers, policy `policy` in
    every seat).  Row r of game b: the step, seat, number of legal actions, number evaluated, the actions (the
    chosen one first) and win share / score margin per action and rollout; out_states[b * width + r] (when it has
    room): the state at that decision (sim improve asks other presets what they would choose there).  Sampling and
    the rollouts' seeds come from the hash, not the game's streams, so the game plays exactly as in `sim run` and
    `sim replay` shows it."""
    legal = np.empty(MAX_ACTIONS, np.int64)
    pick = np.zeros(2, np.uint64)
    work = make_work(states, game_int[0], seat_int[0], seat_f[0], items[0])
    cand = work[3]
    max_rows = out_step.shape[1]
    for b in range(first, last):
        s = states[b]
        seed_streams(s.rng, master, seed_index[b])
        setup(s, p, n_players[b])
        t = 0
        r = 0
        while not is_over(s) and t < MAX_STEPS:
            seat, n, k = decide(s, p, strat[b], sids, weights, legal)
            if k < 0:
                k = search_choose(s, p, seat, legal, n, weights[strat[b][seat]], work)
            kind = legal[k] & kind_mask
            if n > 1:
                kind_count[b, kind] += 1
            if n > 1 and r < max_rows:
                h = mix64(salt ^ mix64(np.uint64(seed_index[b]) * GOLDEN + np.uint64(t)))
                if np.float64(h >> np.uint64(11)) * (1.0 / 9007199254740992.0) < rates[kind]:
                    pick[1] = h
                    if out_states.shape[0] > b * max_rows + r:
                        out_states[b * max_rows + r] = s
                    m = select_candidates(s, p, seat, legal, n, cap, k, 0, policy, rw, pick, cand, work[2], work[8])
                    rollout_values(s, p, seat, legal, cand, m, rollouts, mix64(h + GOLDEN), policy, rw, peek, work,
                                   out_win[b, r], out_margin[b, r])
                    out_step[b, r] = t
                    out_seat[b, r] = seat
                    out_n[b, r] = n
                    out_m[b, r] = m
                    for c in range(m):
                        out_actions[b, r, c] = legal[cand[c]]
                    r += 1
            apply_action(s, p, legal[k])
            t += 1
        rows[b] = r
        steps[b] = t


@nb.njit(cache=True)
def choices_at(positions, count, p, strat_row, sids, weights, tmp, out):
    """out[i] = the action the strategies of weights (slot strat_row[seat]) choose at positions[i], i < count (on
    a copy: the position is not changed)."""
    legal = np.empty(MAX_ACTIONS, np.int64)
    for i in range(count):
        tmp[0] = positions[i]
        seat, n, k = decide(tmp[0], p, strat_row, sids, weights, legal)
        out[i] = legal[k] if k >= 0 else -1


def play_batch(states, *args):
    """Play games 0..len(seed_index)-1 on all of numba's threads (args as play_blocks after `last`)."""
    compile_ahead(sys.modules[__name__], states, args)
    run_blocks(play_blocks, states, args)


def callee_types(states, p, master, seed_index, n_players, strat, sids, weights,
                 game_int, seat_int, seat_f, items, n_items, steps):
    """The argument types play_blocks and decide pass to the functions they call, in two halves of about equal
    compile time, each compiled in this order (sim.kernel.compile_ahead): the strategies, decide (with the legal
    actions) and the outcome; the engine's moves.  An engine balances the halves by naming its own functions
    that either process compiles first: COMPILE_IN_CHILD and COMPILE_IN_PARENT(state type, parameter vector type)
    -> {{name: argument types}}."""
    t = nb.typeof
    s, pt = t(states[0]), t(p)
    hooks = (getattr(engine, "COMPILE_IN_CHILD", None), getattr(engine, "COMPILE_IN_PARENT", None))
    child, parent = ({{"engine." + name: types for name, types in hook(s, pt).items()}} if hook else {{}}
                     for hook in hooks)
    return ({{**child,
             "choose": (s, pt, nb.int64, LEGAL_TYPE, nb.int64, nb.int64, t(weights[0])),
             "decide": (s, pt, t(strat[0]), t(sids), t(weights), LEGAL_TYPE),
             "write_outcome": (s, pt, t(game_int[0]), t(seat_int[0]), t(seat_f[0]), t(items[0]))}},
            {{**parent, "setup": (s, pt, nb.from_dtype(n_players.dtype)), "apply_action": (s, pt, nb.int64),
             "is_over": (s,)}})


{traced}

@nb.njit(cache=True)
def play_logged(states, p, master, seed_index, n_players, strat_row, sids, weights,
                moves, events, ev_step, game_int, seat_int, seat_f, items):
    """One game with the event log on: moves[t] = (seat, action, n_legal, index); events and the step each
    belongs to (-1 for setup).  Returns (number of moves, number of events, number of items)."""
    s = states[0]
    legal = np.empty(MAX_ACTIONS, np.int64)
    work = make_work(states, game_int, seat_int, seat_f, items)
    seed_streams(s.rng, master, seed_index)
    s.log_on = 1
    s.n_ev = 0
    setup(s, p, n_players)
    n_out = 0
    for j in range(s.n_ev):
        if n_out < events.shape[0]:
            events[n_out] = s.ev[j]
            ev_step[n_out] = -1
            n_out += 1
    t = 0
    while not is_over(s) and t < min(MAX_STEPS, moves.shape[0]):
        seat, n, k = decide(s, p, strat_row, sids, weights, legal)
        if k < 0:
            k = search_choose(s, p, seat, legal, n, weights[strat_row[seat]], work)
        moves[t, 0] = seat
        moves[t, 1] = legal[k]
        moves[t, 2] = n
        moves[t, 3] = k
        s.n_ev = 0
        apply_action(s, p, legal[k])
        for j in range(s.n_ev):
            if n_out < events.shape[0]:
                events[n_out] = s.ev[j]
                ev_step[n_out] = t
                n_out += 1
        t += 1
    n_items = write_outcome(s, p, game_int, seat_int, seat_f, items)
    return t, n_out, n_items
'''


@nb.njit(cache=True, nogil=True)
def first_rows(block, count):
    """Kernel output compacted for the tables: the first count[g] slots of each game g of a (games, slots, columns)
    block, as (columns, rows) contiguous, with each row's game and slot.  One pass over the live rows, where
    numpy needs a mask over every slot, a gather and a transpose.  Without the GIL: it runs in the writer thread
    while the kernel's threads need the GIL between blocks."""
    games, slots, cols = block.shape
    total = 0
    for g in range(games):
        total += min(max(count[g], 0), slots)
    out = np.empty((cols, total), block.dtype)
    row_game = np.empty(total, np.int64)
    row_slot = np.empty(total, np.int64)
    k = 0
    for g in range(games):
        for r in range(min(max(count[g], 0), slots)):
            for j in range(cols):
                out[j, k] = block[g, r, j]
            row_game[k] = g
            row_slot[k] = r
            k += 1
    return out, row_game, row_slot


_pool = None


def run_blocks(play_blocks, states, args):
    """Play every block of a batch: numba.get_num_threads() threads each take the next unplayed block until none
    is left (a block's games always run on its own state, so the results do not depend on the thread count).
    The kernel releases the GIL, so the threads run side by side.  Plain threads rather than a `prange` loop:
    numba compiles a prange kernel as a parallel function around the whole game, which took about 10 of BANG's
    50 s first compile (see docs/ARCHITECTURE.md)."""
    global _pool
    blocks = states.shape[0]
    threads = min(nb.get_num_threads(), blocks)
    if threads <= 1 or nb.config.DISABLE_JIT:
        play_blocks(states, 0, blocks, *args)
        return
    if _pool is None:
        _pool = ThreadPoolExecutor(nb.config.NUMBA_NUM_THREADS, thread_name_prefix="sim-kernel")
    next_block = itertools.count()  # next() on a count is atomic under the GIL
    stop = []

    def worker():
        for b in iter(next_block.__next__, None):
            if b >= blocks or stop:
                return
            play_blocks(states, b, b + 1, *args)

    futures = [_pool.submit(worker) for _ in range(threads)]
    try:
        for f in futures:
            f.result()
    finally:  # an error or an interrupt stops the other threads at their next block
        stop.append(True)
        wait(futures)


CHILD_COMPILE_TIMEOUT_S = 600
# Compiles its half of a kernel's callees into numba's cache while the parent compiles the other half.
_COMPILE_CHILD = """
import importlib, pickle, sys
from sim.kernel import kernel_function, load_kernel
kernel = load_kernel(importlib.import_module(sys.argv[1]).GAME)
for name, types in pickle.load(sys.stdin.buffer).items():
    kernel_function(kernel, name).compile(types)
"""


def kernel_function(kern, name):
    """A function of callee_types by name: one of the kernel's own, or 'engine.<name>' for the engine's."""
    return functools.reduce(getattr, name.split("."), kern)


def compile_ahead(kern, states, args):
    """A game's first compile, on two cores.  Numba compiles one function at a time per process, so a child
    process compiles the decisions and the outcome (the strategies' choose, the kernel's decide and
    write_outcome) into numba's cache while this process compiles the engine's moves (setup, apply_action,
    is_over); play_blocks is then compiled around both, the child's half loaded from the cache.  An engine may
    move functions between the halves (callee_types).  BANG's first compile went from 39-40 s to 29-30 s, and
    to 29-30 s from 36-38 s when its engine balanced the halves.
    Does nothing once play_blocks is compiled (a stamp beside the kernel file, whose folder is keyed by the
    source); if the child fails or cannot start, this process compiles everything itself, as numba would."""
    stamp = Path(kern.__file__).with_suffix(".compiled")
    if nb.config.DISABLE_JIT or kern.play_blocks.signatures or stamp.exists():
        return
    in_child, here = kern.callee_types(states, *args)
    child = None
    try:
        child = subprocess.Popen(
            [sys.executable, "-c", _COMPILE_CHILD, kern.GAME_PACKAGE],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        child.stdin.write(pickle.dumps(in_child))
        child.stdin.close()
    except OSError:  # no child: everything is compiled here
        if child is not None:
            child.kill()
        child = None
    try:
        for name, types in here.items():
            kernel_function(kern, name).compile(types)
        if child is not None:
            child.wait(timeout=CHILD_COMPILE_TIMEOUT_S)
    except subprocess.TimeoutExpired:  # a stuck child: what it has not cached is compiled here
        pass
    finally:  # an error or an interrupt here leaves no child behind
        if child is not None and child.poll() is None:
            child.kill()
    kern.play_blocks.compile(tuple(nb.typeof(a) for a in (states, 0, 0) + tuple(args)))
    stamp.touch()


_loaded = {}


_RECORD_ATTRS = frozenset(a for a in dir(np.record) if not a.startswith("_"))


def check_state_dtype(engine):
    """A state field named like a numpy.record attribute (dtype, round, size, ...) reads as that attribute when
    the engine runs interpreted (NUMBA_DISABLE_JIT=1): refuse such a layout with a clear message."""
    clash = sorted(set(engine.STATE_DTYPE.names) & _RECORD_ATTRS)
    if clash:
        raise TypeError(
            f"{engine.__name__}.STATE_DTYPE: field(s) {', '.join(clash)} shadow numpy.record attributes; rename them"
        )


def _widened(dtype):
    """The state layout with every signed integer field as int64.  Interpreted numpy raises on arithmetic such as
    int8_field * 1000 (NEP 50) where compiled code widens to int64; widening the storage gives the compiled
    semantics, and a compiled engine that overflowed a narrow field would now disagree (a bug the tests see)."""
    fields = []
    for name in dtype.names:
        sub = dtype[name]
        base, shape = sub.base, sub.shape
        if base.kind == "i":
            base = np.dtype(np.int64)
        fields.append((name, base, shape) if shape else (name, base))
    return np.dtype(fields)


STATE_BLOCKS = 256  # states a batch reuses (see play_batch): enough blocks to keep every core busy


def new_states(engine, n):
    """n zeroed game states.  Without the JIT (NUMBA_DISABLE_JIT=1) they are a recarray with widened integers, so
    that `states[i]` is a record with attribute access and the arithmetic of compiled code."""
    import numba

    if numba.config.DISABLE_JIT:
        return np.zeros(n, _widened(engine.STATE_DTYPE)).view(np.recarray)
    return np.zeros(n, engine.STATE_DTYPE)


def has_standings(game):
    """Whether the game's engine defines standings(s, p, out) -> round, for `sim run --standings` (a function of
    that name with other arguments is a helper of the engine's own, not this)."""
    import inspect

    f = getattr(game.engine_module(), "standings", None)
    return f is not None and len(inspect.signature(getattr(f, "py_func", f)).parameters) == 3


def load_kernel(game):
    """The generated kernel module for a GameSpec (written and imported once per process)."""
    if game.name in _loaded:
        return _loaded[game.name]
    check_state_dtype(game.engine_module())
    # decide runs once per decision: without reference counting it saves ten calls that change counts per
    # decision (measured +3-4% on Raccoon Tycoon), unless the game's decision code allocates
    package = game.engine.rsplit(".", 1)[0]
    # the search player's determinize: the game's own (<package>/hidden.py) or none (its search then peeks)
    hidden = importlib.util.find_spec(package + ".hidden") is not None
    src = TEMPLATE.format(
        name=game.name,
        engine=game.engine,
        strategies=game.strategy_module,
        package=package,
        decide_flags="" if game.decisions_allocate else ", _nrt=False",
        determinize_module=package + ".hidden" if hidden else "sim.search",
        determinize_name="determinize" if hidden else "determinize_nothing",
        rank_col=list(game.seat_columns).index("rank"),
        traced=TRACED.format(engine=game.engine) if has_standings(game) else "",
    )
    root = use_game_cache(package)  # the kernel is cached beside its game's code
    folder = root / "kernels"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{game.name}_kernel.py"
    if not path.exists() or path.read_text() != src:
        tmp = path.with_suffix(f".tmp{id(src)}")
        tmp.write_text(src)
        tmp.replace(path)  # atomic: parallel processes never import a half-written file
    modname = f"sim_kernel_{game.name}"
    spec = importlib.util.spec_from_file_location(modname, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module  # numba's cache re-imports the module by name when it loads
    spec.loader.exec_module(module)
    _loaded[game.name] = module
    return module
