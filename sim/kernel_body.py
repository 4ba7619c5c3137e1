"""The batch kernel: the play loop, the search player and the audit loop, written once for every game.

Real Python bound to the template game (Pig: sim.games._template and strategies._template), so that it imports,
lints and runs as it stands.  sim.kernel.load_kernel copies it per game into the game's cache folder with the lines
between the two "game binding" markers replaced by that game's binding (sim.kernel.binding), and imports the copy:
numba serves a function from its cache only when the engine and strategy functions it calls are module globals of
its own file (sim/kernel.py says why).  Nothing outside the binding block names a game.
"""

import sys

import numba as nb
import numpy as np

from sim.kernel import LEGAL_OVERFLOW, LEGAL_TYPE, compile_ahead, run_blocks
from sim.rng import GOLDEN, mix64, next_u64, rand_below, seed_streams
from sim.search import ACCEPT_FROM, HEADER, SEARCH_SID, W_ACCEPT, W_CAP, W_COURSE, W_FIRST, W_FIRST_ALL, W_HALVING
from sim.search import W_LEVEL, W_MARGIN, W_PEEK, W_POLICY, W_ROLLOUTS, W_UNANIMOUS, W_Z, t_quantile

# >>> game binding: from here to its end marker, sim.kernel.load_kernel writes the game's own (sim.kernel.binding)
# game toy_pig: edit sim/kernel_body.py, never a generated copy
import sim.games._template.engine as engine
from sim.games._template.engine import MAX_ACTIONS, MAX_STEPS
from sim.games._template.engine import apply_action, current_player, is_over, legal_actions, setup, write_outcome
from sim.games._template.hidden import determinize
from strategies._template import choose
from sim.kernel import no_quick_choice as quick_choice

QUICK = False  # the strategies name some actions without the legal-action list (quick_choice)
RANK_COL = 0  # seat_columns index of 'rank' (0 on the rows of absent seats)
GAME_PACKAGE = "sim.games._template"  # its GAME is the GameSpec
DECIDE_NRT = False  # reference counting in decide: only where the game's decisions allocate (decisions_allocate)
# <<< game binding


@nb.njit(cache=True, _nrt=DECIDE_NRT)
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


@nb.njit(cache=True, _nrt=DECIDE_NRT)
def quick(s, p, strat_row, sids, weights):
    """The action the seat's scripted strategy names for the decision pending in s without the legal-action list
    (its package's quick_choice), or -1: then decide builds the list (always for random and search seats).  Asked
    only where the list is not recorded (plain play and rollouts; replays and the audit show it), and only when the
    package has one (QUICK).  Like decide, compiled without reference counting: the state's array fields cost no
    count changes."""
    seat = np.int64(current_player(s))
    slot = strat_row[seat]
    sid = sids[slot]
    if sid <= 0:
        return np.int64(-1)
    return np.int64(quick_choice(s, p, seat, sid, weights[slot]))


@nb.njit(cache=True, _nrt=DECIDE_NRT)
def quick_policy(r, p, policy, rw):
    """quick for a rollout: strategy id policy (> 0) with weights rw in every seat."""
    return np.int64(quick_choice(r, p, np.int64(current_player(r)), policy, rw))


@nb.njit(cache=True)
def make_work(states, game_int, seat_int, seat_f, items):
    """Scratch space of the search player, allocated once per block of games (never per decision): two state
    records (the re-sampled root of a rollout, the rollout itself), a legal-action list and a candidate list, one
    game's output rows for scoring a rollout, and the shortened legal list select_candidates ranks."""
    return (
        np.empty_like(states[:1]),
        np.empty_like(states[:1]),
        np.empty(MAX_ACTIONS, np.int64),
        np.empty(MAX_ACTIONS, np.int64),
        np.empty_like(game_int),
        np.empty_like(seat_int),
        np.empty_like(seat_f),
        np.empty_like(items),
        np.empty(MAX_ACTIONS, np.int64),
    )


@nb.njit(cache=True)
def playout(r, p, policy, rw, legal):
    """Play r to the end (or the step cap) with strategy id `policy` (weights rw) in every seat."""
    steps = 0
    while not is_over(r) and steps < MAX_STEPS:
        if QUICK and policy > 0:
            a = quick_policy(r, p, policy, rw)
            if a >= 0:
                apply_action(r, p, a)
                steps += 1
                continue
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
    # np.int64(0): a bare 0 is typed as its literal value, and rollout_range would be compiled a second time
    rollout_range(s, p, seat, legal, cand, alive, m, np.int64(0), rollouts, base, policy, rw, peek, work, win, margin)


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
        better = significant(dw, sw, z, unanimous) or (
            by_margin and dw == 0.0 and sw == 0.0 and significant(dm, sm, z, unanimous)
        )
        if better and (best == 0 or dw > best_w + 1e-12 or (abs(dw - best_w) <= 1e-12 and dm > best_m)):
            best, best_w, best_m = c, dw, dm
    return best


@nb.njit(cache=True)
def course_statistic(win, margin, c, k, by_margin):
    """(t, mean): candidate c's paired t statistic against candidate 0 (the heuristic's choice) over rollouts 0..k-1
    in win share, or in score margin where the win shares of every rollout agree (with by_margin); an all-equal
    non-zero difference is +-inf (its standard error is 0), no difference at all 0.  mean: the advantage in win
    share with the margin's a tie break (the order in which halving keeps challengers)."""
    dw, sw = paired(win[c, :k], win[0, :k])
    dm, sm = paired(margin[c, :k], margin[0, :k])
    key = dw + 1e-9 * dm
    if sw > 0:
        return dw / sw, key
    if dw != 0.0:
        return np.inf if dw > 0 else -np.inf, key
    if not by_margin or dm == 0.0:
        return 0.0, key
    if sm > 0:
        return dm / sm, key
    return np.inf if dm > 0 else -np.inf, key


@nb.njit(cache=True)
def halving_choice(s, p, seat, legal, cand, m, rollouts, base, policy, rw, peek, work, win, margin, w):
    """Sequential halving (Karnin, Koren and Somekh 2013) over the challengers of the heuristic's choice (candidate
    0, played in every round as the baseline of the paired comparisons).  The first round gives every candidate
    rollouts 0..k-1, k = w[W_FIRST_ALL] (rollouts / 4) shared by the m candidates, at least w[W_FIRST] (rollouts /
    16).  After a round of k rollouts a challenger goes on only while its paired t statistic (course_statistic) is
    on course for the final test: above w[W_COURSE] * z * sqrt(k / rollouts) (z: the final threshold; the statistic
    of a real advantage grows with the square root of the rollouts); of those, the better half of the challengers
    by mean advantage (earlier candidates first on ties: the heuristic's ranking) get rollouts up to 2k.  When no
    challenger is left the heuristic's choice stands; when one is left after at least ACCEPT_FROM rollouts and its
    statistic is above w[W_ACCEPT] times Student's t for k rollouts at the search's level w[W_LEVEL], it is chosen
    without the rest (bench/search_allocation.py measured the held-out value of these choices); at `rollouts` the
    flat search's test (best_significant) picks among those left.  Rollout k is the same world for every
    candidate, so the rounds keep common random numbers and the choice does not depend on the thread count."""
    z = w[W_Z]
    unanimous = w[W_UNANIMOUS] != 0
    by_margin = w[W_MARGIN] != 0
    course = w[W_COURSE]
    accept = w[W_ACCEPT]
    alive = np.arange(m)
    key = np.empty(m)
    stat = np.empty(m)
    na = m
    done = 0
    k = min(max(np.int64(w[W_FIRST]), (np.int64(w[W_FIRST_ALL]) + m - 1) // m, 1), rollouts)
    while True:
        rollout_range(s, p, seat, legal, cand, alive, na, done, k, base, policy, rw, peek, work, win, margin)
        done = k
        if done >= rollouts:
            return best_significant(win, margin, alive, na, done, z, unanimous, by_margin)
        bar = course * z * np.sqrt(done / rollouts)
        kept = 1
        for j in range(1, na):
            c = alive[j]
            stat[c], key[c] = course_statistic(win, margin, c, done, by_margin)
            if stat[c] > bar:
                alive[kept] = c
                kept += 1
        # the better half of the challengers (insertion sort of alive[1:kept] by key, highest first; stable)
        for j in range(2, kept):
            c = alive[j]
            q = j - 1
            while q >= 1 and key[alive[q]] < key[c]:
                alive[q + 1] = alive[q]
                q -= 1
            alive[q + 1] = c
        na = min(kept, 1 + na // 2)  # at most half the challengers, rounded up
        if na == 1:
            return 0
        last = alive[1]
        if na == 2 and accept > 0 and done >= ACCEPT_FROM and np.isfinite(stat[last]) and key[last] > 0:
            if stat[last] > accept * t_quantile(w[W_LEVEL], done - 1):
                return last
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
    m = select_candidates(s, p, seat, legal, n, cap, first, (cap - 1) // 2, policy, rw, s.rng, cand, work[2], work[8])
    if m == 1:
        return first
    base = next_u64(s.rng, 1)
    win = np.empty((m, rollouts))  # per decision: its size depends on the knobs; small next to the rollouts
    margin = np.empty((m, rollouts))
    peek = w[W_PEEK] != 0
    if w[W_HALVING] != 0:
        return cand[halving_choice(s, p, seat, legal, cand, m, rollouts, base, policy, rw, peek, work, win, margin, w)]
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
        a = quick(s, p, strat_row, sids, weights) if QUICK else np.int64(-1)
        if a < 0:
            seat, n, k = decide(s, p, strat_row, sids, weights, legal)
            if n > MAX_ACTIONS:
                return LEGAL_OVERFLOW
            if k < 0:
                k = search_choose(s, p, seat, legal, n, weights[strat_row[seat]], work)
            a = legal[k]
        apply_action(s, p, a)
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
def play_blocks(
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
):
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
def audit_blocks(
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
    salt,
    rates,
    kind_mask,
    rollouts,
    cap,
    policy,
    rw,
    peek,
    game_int,
    seat_int,
    seat_f,
    items,
    rows,
    steps,
    kind_count,
    out_step,
    out_seat,
    out_n,
    out_m,
    out_actions,
    out_win,
    out_margin,
    out_states,
):
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
                    rollout_values(
                        s,
                        p,
                        seat,
                        legal,
                        cand,
                        m,
                        rollouts,
                        mix64(h + GOLDEN),
                        policy,
                        rw,
                        peek,
                        work,
                        out_win[b, r],
                        out_margin[b, r],
                    )
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


def callee_types(
    states, p, master, seed_index, n_players, strat, sids, weights, game_int, seat_int, seat_f, items, n_items, steps
):
    """The argument types play_blocks and decide pass to the functions they call, in two halves of about equal
    compile time, each compiled in this order (sim.kernel.compile_ahead): the strategies, decide (with the legal
    actions) and the outcome; the engine's moves.  An engine balances the halves by naming its own functions
    that either process compiles first: COMPILE_IN_CHILD and COMPILE_IN_PARENT(state type, parameter vector type)
    -> {name: argument types}."""
    t = nb.typeof
    s, pt = t(states[0]), t(p)
    hooks = (getattr(engine, "COMPILE_IN_CHILD", None), getattr(engine, "COMPILE_IN_PARENT", None))
    child, parent = ({"engine." + name: types for name, types in hook(s, pt).items()} if hook else {} for hook in hooks)
    return (
        {
            **child,
            "choose": (s, pt, nb.int64, LEGAL_TYPE, nb.int64, nb.int64, t(weights[0])),
            "decide": (s, pt, t(strat[0]), t(sids), t(weights), LEGAL_TYPE),
            "write_outcome": (s, pt, t(game_int[0]), t(seat_int[0]), t(seat_f[0]), t(items[0])),
        },
        {
            **parent,
            "setup": (s, pt, nb.from_dtype(n_players.dtype)),
            "apply_action": (s, pt, nb.int64),
            "is_over": (s,),
        },
    )


@nb.njit(cache=True)
def play_logged(
    states,
    p,
    master,
    seed_index,
    n_players,
    strat_row,
    sids,
    weights,
    moves,
    events,
    ev_step,
    game_int,
    seat_int,
    seat_f,
    items,
):
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
