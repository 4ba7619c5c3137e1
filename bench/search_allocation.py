"""Offline check of the search's allocation (issue 37): record the rollouts of every candidate at sampled decisions,
then replay the flat and the halving rules on them against held-out rollouts.

    python bench/search_allocation.py GAME [--decisions 600] [--rollouts 64] [--seed 5] [--npz F]

Records, at about 2 decisions a game of the default line-up at 4 players (sim audit's kernel, uniform sampling), the
win share and score margin of up to 12 candidates over `rollouts` rollouts with common random numbers (the rollout
k of a candidate is the one the search plays as its rollout k).  The rules see rollouts 0..R-1 (R <= rollouts / 2)
and choose as the kernel's search_choose would (best_significant; halving_choice); the second half of the rollouts
is each candidate's held-out value.  Prints per rule: rollouts played against flat R, the mean held-out gain over the
heuristic's choice a decision, and the paired difference to flat with its 95% interval."""

import argparse
import time

import numba
import numpy as np
from scipy import stats

from sim.audit import _Kernel, pilot_kinds, uniform_rates
from sim.game import get_game
from sim.runner import prepare
from sim.search import ACCEPT, ACCEPT_FROM, COURSE, DEFAULT_CAP, DEFAULT_Z, FIRST_ALL, FIRST_SHARE, default_rollouts
from sim.search import rollout_preset, t_threshold, unanimous_is_significant


def record(game, decisions, rollouts, seed, players=4):
    """(win, margin, m): (decisions, DEFAULT_CAP, rollouts) arrays and the candidates of each decision."""
    spec = get_game(game)
    others = [s for s in spec.default_lineup if s != "random"]
    lineup = [others[i % len(others)] for i in range(players)]
    policy = rollout_preset(spec)
    _, design, pvec = prepare(spec, (players,), 50 * decisions, lineup, None, True, None)
    rates = uniform_rates(pilot_kinds(spec, design, pvec, seed, policy, lineup[0]), 2)
    kernel = _Kernel(spec, design, pvec, seed, policy, lineup[0], rollouts, DEFAULT_CAP, 2, rates)
    win, margin, ms, start = [], [], [], 0
    while len(ms) < decisions and start < design.total:
        _, _, rows, _, _, _, o_m, _, o_win, o_mar = kernel._run(start, start + 20)
        for g in range(20):
            for r in range(rows[g]):
                win.append(o_win[g, r])
                margin.append(o_mar[g, r])
                ms.append(int(o_m[g, r]))
        start += 20
    return np.array(win[:decisions]), np.array(margin[:decisions]), np.array(ms[:decisions])


def statistic(d):
    """Paired t statistic of the differences d (+-inf when all equal and non-zero, 0 when all zero) and their mean."""
    if d.std() > 0:
        return d.mean() / (d.std(ddof=1) / np.sqrt(len(d))), d.mean()
    return (np.inf * np.sign(d.mean()) if d.mean() != 0 else 0.0), d.mean()


def best_significant(win, margin, alive, k, t, unanimous, by_margin):
    """The kernel's best_significant: the challenger whose advantage over candidate 0 passes the test, else 0."""
    best, best_key = 0, None
    for c in alive[1:]:
        tw, dw = statistic(win[c, :k] - win[0, :k])
        tm, dm = statistic(margin[c, :k] - margin[0, :k])
        flat_w = np.all(win[c, :k] - win[0, :k] == dw)
        better = (tw > t if np.isfinite(tw) else (unanimous and dw > 0)) or (
            by_margin and dw == 0 and flat_w and (tm > t if np.isfinite(tm) else (unanimous and dm > 0))
        )
        if better and (best_key is None or (dw, dm) > best_key):
            best, best_key = c, (dw, dm)
    return best


def flat(win, margin, m, rollouts, by_margin):
    """(choice, rollouts played) of the flat search."""
    t, u = t_threshold(DEFAULT_Z, rollouts), unanimous_is_significant(DEFAULT_Z, rollouts)
    return best_significant(win, margin, list(range(m)), rollouts, t, u, by_margin), m * rollouts


def halving(win, margin, m, rollouts, by_margin, first_all=FIRST_ALL, accept=ACCEPT):
    """(choice, rollouts played) of the kernel's halving_choice; first_all and accept as in sim/search.py (the
    rules before this round's change: first_all=2, accept=0)."""
    t, u = t_threshold(DEFAULT_Z, rollouts), unanimous_is_significant(DEFAULT_Z, rollouts)
    alive, done, cost = list(range(m)), 0, 0
    k = min(max(rollouts // FIRST_SHARE, -(-max(rollouts // first_all, 1) // m), 1), rollouts)
    while True:
        cost += len(alive) * (k - done)
        done = k
        if done >= rollouts:
            return best_significant(win, margin, alive, done, t, u, by_margin), cost
        on, key, stat = [], {}, {}
        for c in alive[1:]:
            tw, dw = statistic(win[c, :done] - win[0, :done])
            dm = (margin[c, :done] - margin[0, :done]).mean()
            tied = dw == 0 and np.all(win[c, :done] == win[0, :done])
            tc = (statistic(margin[c, :done] - margin[0, :done])[0] if by_margin else 0.0) if tied else tw
            key[c], stat[c] = dw + 1e-9 * dm, tc
            if tc > COURSE * t * np.sqrt(done / rollouts):
                on.append(c)
        alive = [0] + sorted(on, key=lambda c: -key[c])[: len(alive) // 2]
        if len(alive) == 1:
            return 0, cost
        last = alive[1]
        if len(alive) == 2 and accept > 0 and done >= ACCEPT_FROM and np.isfinite(stat[last]) and key[last] > 0:
            if stat[last] > accept * t_threshold(DEFAULT_Z, done):
                return last, cost
        k = min(2 * done, rollouts)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--decisions", type=int, default=600)
    ap.add_argument("--rollouts", type=int, help="recorded per candidate (default: 4 x the flat search's)")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--npz", help="read the recording from this file if it exists, else write it there")
    a = ap.parse_args()
    spec = get_game(a.game)
    base = default_rollouts(spec)
    total = a.rollouts or 4 * base
    numba.set_num_threads(1)
    try:
        data = np.load(a.npz)
        win, margin, ms = data["win"], data["margin"], data["m"]
    except (TypeError, FileNotFoundError):
        t0 = time.process_time()
        win, margin, ms = record(a.game, a.decisions, total, a.seed)
        print(f"recorded {len(ms)} decisions in {time.process_time() - t0:.0f} CPU s")
        if a.npz:
            np.savez(a.npz, win=win, margin=margin, m=ms)
    held = win[:, :, win.shape[2] // 2 :].mean(2)
    rules = {f"flat{base}": (flat, base), f"flat{base // 4}": (flat, base // 4)}
    rules.update({f"halving{r}": (halving, r) for r in (base, 2 * base) if r <= win.shape[2] // 2})
    if 2 * base <= win.shape[2] // 2:  # the allocation before issue 37's second step: R / 2 first, no early accept
        rules[f"halving{2 * base}_old"] = (lambda *a: halving(*a, first_all=2, accept=0.0), 2 * base)
    res = {}
    for name, (rule, r) in rules.items():
        picks = [rule(win[i], margin[i], m, r, spec.search_margin) for i, m in enumerate(ms)]
        choice, cost = np.array([p[0] for p in picks]), np.array([p[1] for p in picks])
        res[name] = (held[np.arange(len(ms)), choice] - held[:, 0], cost)
    gain0, cost0 = res[f"flat{base}"]
    print(f"{a.game}: {len(ms)} decisions, held-out gain of flat{base} {gain0.mean():+.4f} a decision")
    for name, (gain, cost) in res.items():
        d = gain - gain0
        half = stats.norm.ppf(0.975) * d.std(ddof=1) / np.sqrt(len(d))
        print(
            f"  {name:10s} rollouts {cost.sum() / cost0.sum():.2f}  gain {gain.mean():+.4f}  vs flat{base} "
            f"{d.mean():+.4f} [{d.mean() - half:+.4f}, {d.mean() + half:+.4f}]"
        )
