"""`sim audit`: find a strategy's blunders by rollouts (issue 24).

Games are played with the audited strategy in every seat, exactly as `sim run` would play them (same seeds, so
`sim replay AUDIT_FOLDER GAME` shows any of them).  At sampled decisions the chosen action and up to cap - 1 other
legal actions are each evaluated by R rollouts with common random numbers (the kernel's audit_blocks), played out
by the audited preset itself in every seat (a search audited: the game's rollout preset; --rollout: another).

Sampling is stratified by decision kind (issue 36): a pilot of the same games counts the unforced decisions of
each kind (the kind of the chosen action) per game, f_k, and kind k is sampled with probability
r_k = min(1, c / f_k), c set so that the expected sampled decisions a game, sum_k min(f_k, c), is 1.5 x --per-game
(water filling: every kind gets the same expected number of samples until it has no more decisions to give; a
kind the pilot never saw is sampled at rate 1).  So a kind that arises once a game gets as many samples as one
that arises forty times.  Every row keeps its weight 1 / r_k, and every mean over kinds (the 'all' row, the table
by better action) is weighted by it, so it estimates the mean over all decisions as if sampled uniformly.
`--sampling uniform` samples every kind at one rate (the audit before issue 36).  Per
decision the rollouts are split in two halves: the even ones pick the best action, the odd ones measure the regret
(best minus chosen, in the seat's win share) with a paired standard error.  Measuring on the half that did not pick
keeps the max over noisy actions from showing as regret where there is none.  A decision is "significantly worse"
when that regret exceeds 1.96 standard errors.  Per decision kind (the kind of the chosen action, from the game's
action codec) the table gives the counts, how often the choice was significantly worse, the mean regret with its
interval, the worst regret and where it happened.  A second table groups the same decisions by the kind of the
better action (the best on the picking half of the rollouts; the chosen one where none was better), so a move the
bot never makes still has a row when it was the better one.  A kind is flagged when its mean regret is above 2
points of win share (the bar of issue 24) and a one-sided t-test of a positive mean regret is significant at 5%
after a Holm correction over the audit's kinds.

Output folder: manifest.json (with the run fields `sim replay` needs), decisions/part-NNNNN.parquet (one row per
evaluated decision, written per chunk of games: an interrupted audit resumes at the first missing chunk),
summary.parquet (by chosen kind), by_better.parquet (by better action's kind) and summary.txt.
"""

import math
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from statsmodels.stats.multitest import multipletests

from . import __version__
from .analysis.stats import wilson
from .errors import UserError
from .inputs import set_threads
from .game import get_game
from .kernel import load_kernel, new_states, run_blocks
from .lock import FolderLock
from .results import write_json
from .runner import open_run_folder, output_buffers, prepare, simulate
from .search import has_determinize, rollout_preset

Z = 1.96  # a single decision is significantly worse when its regret exceeds Z standard errors
ALPHA = 0.05  # level of the kinds' intervals and of their Holm-corrected flags
FLAG_REGRET = 0.02  # issue 24: no decision kind may keep a significant mean regret above 2 points of win share


def kind_labeller(game):
    """fn(action) -> label of its kind: the kind's name from the game's ActionCodec (e.g. REROLL, AUCTION), else
    (a game without a codec) the action's text with its numbers masked."""
    if game.actions is not None:
        return game.actions.kind_name
    text = game.action_text or str
    return lambda a: "".join("#" if ch.isdigit() else ch for ch in text(int(a)))[:48]


def _with_knobs(spec, preset, knobs):
    """The StrategySpec `preset` with its knobs changed by {(preset, knob): value} (as `--set strategy.P.K=V`),
    through the same roster a run's design uses."""
    import dataclasses

    from .knobs import roster

    mine = {key: v for key, v in knobs.items() if key[0] == preset.name}
    rows = roster(spec, (preset.name,), mine) if mine else ()
    return dataclasses.replace(preset, weights=rows[0][2]) if rows else preset


def pilot_steps(spec, players, pvec, seed):
    """Mean decisions a game with the rollout preset in every seat (sets the sampling rate)."""
    _, design, _ = prepare(spec, (players,), 16, [rollout_preset(spec).name], None, False, None)
    out = simulate(spec, design, pvec, seed, 0, design.total)
    return float(np.abs(out["steps"]).mean())


def kind_mask(spec):
    """(mask, number of kinds): an action's kind is action & mask (the ActionCodec's low bits); a game without
    a codec has one kind for the sampling (its tables still label actions by their text)."""
    if spec.actions is None:
        return 0, 1
    bits = int(spec.actions.kind_bits)
    return (1 << bits) - 1, 1 << bits


def stratified_rates(per_kind, per_game):
    """Sampling rate per kind: per_kind[k] = mean unforced decisions of kind k a game (the pilot), per_game = the
    expected samples a game.  Water filling: r_k = min(1, c / f_k) with sum_k min(f_k, c) = per_game (all 1 when
    the games have fewer decisions than that); a kind the pilot did not see gets rate 1."""
    f = np.asarray(per_kind, float)
    rates = np.ones_like(f)
    seen = f > 0
    if f[seen].sum() <= per_game:
        return rates
    lo, hi = 0.0, float(f.max())
    for _ in range(100):  # bisection on c: sum min(f, c) is continuous and increasing in c
        c = 0.5 * (lo + hi)
        lo, hi = (c, hi) if np.minimum(f[seen], c).sum() < per_game else (lo, c)
    rates[seen] = np.minimum(1.0, hi / f[seen])
    return rates


PILOT_GAMES = 200


def pilot_kinds(spec, design, pvec, seed, policy, strategy):
    """Mean unforced decisions of each kind a game, over the audit's first PILOT_GAMES games (played without
    rollouts: every rate 0)."""
    _, n_kinds = kind_mask(spec)
    kernel = _Kernel(spec, design, pvec, seed, policy, strategy, 2, 2, 1, np.zeros(n_kinds))
    games = min(PILOT_GAMES, design.total)
    return kernel.kinds(0, games).sum(0) / games


def uniform_rates(per_kind, per_game):
    """One sampling rate for every kind (per_game expected samples a game)."""
    f = np.asarray(per_kind, float)
    return np.full_like(f, min(1.0, per_game / max(f.sum(), 1e-9)))


def analyse(win, margin, m):
    """Per evaluated decision: (best candidate on the even rollouts, regret of candidate 0 on the odd rollouts,
    its standard error, regret on all rollouts).  win/margin: (cap, R) arrays, rows :m used."""
    w, g = win[:m], margin[:m]
    even, odd = w[:, 0::2], w[:, 1::2]
    score = even.mean(1) + 1e-9 * np.tanh(g[:, 0::2].mean(1))  # margin breaks exact ties only
    score[0] += 1e-12  # then the chosen action stands
    best = int(np.argmax(score))
    if best == 0 or odd.shape[1] < 2:
        regret, se = 0.0, 0.0
    else:
        d = odd[best] - odd[0]
        regret, se = float(d.mean()), float(d.std(ddof=1) / math.sqrt(len(d)))
    allm = w.mean(1)
    return best, regret, se, float(allm.max() - allm[0])


def _chunk_path(out, c):
    return Path(out) / "decisions" / f"part-{c:05d}.parquet"


def run_audit(
    study,
    strategy=None,
    decisions=1000,
    rollouts=32,
    cap=16,
    rollout=None,
    per_game=2,
    sampling="stratified",
    chunk_games=None,
    overwrite=False,
):
    """Audit `strategy` (default: the game's first heuristic) over `decisions` sampled decisions of the study's
    game (one player count; its seed, overrides, threads, output folder); returns (summary DataFrame, text, folder).
    """

    spec = study.spec
    players = study.player_count("audit")
    seed, threads, params, out = study.seed, study.threads, study.overrides, study.out
    progress, command = study.progress, study.command
    strategy = strategy or rollout_preset(spec).name
    audited = spec.strategy(strategy)
    # the audited preset plays its own moves out (a search cannot be a rollout policy: then the game's preset)
    policy = spec.strategy(rollout) if rollout else (audited if audited.sid >= 0 else rollout_preset(spec))
    if sampling not in ("stratified", "uniform"):
        raise UserError(f"--sampling must be stratified or uniform (got {sampling})")
    if policy.sid < 0:
        raise UserError("the audit's rollout policy cannot be a search")
    if rollouts < 4 or rollouts % 2:
        raise UserError(
            f"--rollouts must be even and at least 4 (half pick the best action, half measure; got {rollouts})"
        )
    if cap < 2 or decisions < 1 or per_game < 1:
        raise UserError("--cap must be at least 2, --decisions and --per-game at least 1")
    set_threads(threads)
    from .knobs import split_overrides

    game_params, knobs = split_overrides(params)
    for preset, _ in knobs:
        if preset not in (strategy, policy.name):
            raise UserError(
                f"strategy.{preset}.*: the audit plays only {strategy} (audited) and {policy.name} (rollouts); "
                "set knobs of those"
            )
    policy = _with_knobs(spec, policy, knobs)
    pvec = spec.params.resolve(game_params)
    chunk_games = int(chunk_games or max(8, min(64, -(-decisions // per_game) // 4)))
    max_games = 50 * -(-decisions // per_game) + 1000  # a bound for the design; the audit stops far earlier
    audited_knobs = {f"strategy.{p}.{k}": v for (p, k), v in knobs.items() if p == strategy}
    spec, design, pvec = prepare(spec, (players,), max_games, [strategy], None, False, {**game_params, **audited_knobs})
    per_kind = pilot_kinds(spec, design, pvec, seed, policy, strategy)
    rates = (stratified_rates if sampling == "stratified" else uniform_rates)(per_kind, 1.5 * per_game)
    out = Path(out or f"results/audit_{spec.name}_{players}p_{strategy}_{decisions}_s{seed}")
    request = {
        "kind": "audit",
        "game": spec.name,
        "players": players,
        "strategy": strategy,
        "decisions": decisions,
        "rollouts": rollouts,
        "cap": cap,
        "rollout_policy": policy.name,
        "per_game": per_game,
        "sampling": sampling,
        "seed": seed,
        "params": spec.params.describe(pvec),
        "knobs": {f"strategy.{p}.{k}": float(v) for (p, k), v in sorted(knobs.items())},
        "game_code": spec.code_version(),
        "chunk_games": chunk_games,
        "rates": [float(r) for r in rates],
        "pilot_decisions_per_game": [float(f) for f in per_kind],
    }
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} is a file, not a folder; choose another --out")
    with FolderLock(out, "sim audit"):  # one writer per folder, as sim run
        open_run_folder(out, request, overwrite)
        return _audit_locked(
            spec,
            design,
            pvec,
            seed,
            out,
            request,
            policy,
            strategy,
            decisions,
            rollouts,
            cap,
            per_game,
            rates,
            chunk_games,
            progress,
            command,
        )


def _audit_locked(
    spec,
    design,
    pvec,
    seed,
    out,
    request,
    policy,
    strategy,
    decisions,
    rollouts,
    cap,
    per_game,
    rates,
    chunk_games,
    progress,
    command,
):
    (out / "decisions").mkdir(exist_ok=True)
    manifest = {
        "game": spec.name,
        "title": spec.title,
        "request": request,
        "players": [request["players"]],
        "seed": seed,
        "seating": design.to_dict(),
        "params_changed": spec.params.changed(pvec),
        "strategies": {
            strategy: {"sid": spec.strategy(strategy).sid, "weights": list(design.strategy_rows(spec)[1][0])}
        },
        "command": command or " ".join(sys.argv),
        "code_version": __version__,
        "status": "running",
        "note": "an audit folder: `sim replay <this folder> <game>` re-plays any game of it",
    }
    write_json(out / "manifest.json", manifest)

    kernel = _Kernel(spec, design, pvec, seed, policy, strategy, rollouts, cap, per_game, rates)
    done, frames, c = 0, [], 0
    bar = _bar(decisions, progress, spec.name)
    t0 = time.perf_counter()
    try:
        while done < decisions:
            start, stop = c * chunk_games, (c + 1) * chunk_games
            if start >= design.total:
                break
            path = _chunk_path(out, c)
            if path.exists():
                df = pd.read_parquet(path)
            else:
                df = kernel.play(start, min(stop, design.total))
                tmp = path.with_suffix(".tmp")
                df.to_parquet(tmp, index=False)
                tmp.replace(path)
            frames.append(df)
            bar.update(min(len(df), decisions - done))
            done += len(df)
            c += 1
    except KeyboardInterrupt:
        bar.close()
        manifest["status"] = "interrupted"
        write_json(out / "manifest.json", manifest)
        print(f"interrupted: finished chunks are kept; run the same command again to resume {out}", file=sys.stderr)
        raise
    bar.close()
    rows = pd.concat(frames, ignore_index=True).head(decisions) if frames else pd.DataFrame()
    summary = summarise(rows)
    better = summarise(rows, by="better_kind")
    summary.to_parquet(out / "summary.parquet", index=False)
    better.to_parquet(out / "by_better.parquet", index=False)
    text = summary_text(spec, request, rows, summary, better)
    (out / "summary.txt").write_text(text)
    manifest.update(status="complete", decisions=len(rows), timings={"total_s": round(time.perf_counter() - t0, 2)})
    write_json(out / "manifest.json", manifest)
    return summary, text, out


class _Kernel:
    """The audit's kernel call for one study: play(start, stop) plays games start..stop-1 and returns one row per
    evaluated decision."""

    def __init__(self, spec, design, pvec, seed, policy, strategy, rollouts, cap, per_game, rates):
        self.spec, self.design, self.pvec, self.seed = spec, design, pvec, seed
        self.strategy, self.rollouts, self.per_game = strategy, int(rollouts), int(per_game)
        self.mask, n_kinds = kind_mask(spec)
        self.rates = np.ascontiguousarray(np.broadcast_to(np.asarray(rates, np.float64), (n_kinds,)))
        self.max_rows = max(8, 4 * self.per_game)  # rows a game at most: room for a game rich in rare kinds
        self.keep_positions = False  # True: keep the state at each evaluated decision (self.positions)
        self.kern = load_kernel(spec)
        self.eng = spec.engine_module()
        self.cap = int(min(cap, self.eng.MAX_ACTIONS))
        self.label = kind_labeller(spec)
        self.sids, self.weights = design.strategy_rows(spec)  # the presets' knobs, with any strategy.* overrides
        self.policy = int(policy.sid)
        self.rw = np.ascontiguousarray(np.array(policy.weights if policy.weights else (0.0,), np.float64))
        self.peek = not has_determinize(spec)
        self.salt = np.uint64((seed * 0x9E3779B97F4A7C15 + 0xA0D17) % 2**64)

    def kinds(self, start, stop):
        """Unforced decisions of each kind in each game start..stop-1 (no rollouts when every rate is 0)."""
        return self._run(start, stop)[0]

    def _run(self, start, stop):
        spec, eng, cap, rollouts = self.spec, self.eng, self.cap, self.rollouts
        n = stop - start
        players, seed_index, _, strat = self.design.assign(start, stop, eng.MAX_PLAYERS)
        buf = output_buffers(spec, 1)
        rows = np.zeros(n, np.int64)
        steps = np.zeros(n, np.int64)
        kinds = np.zeros((n, len(self.rates)), np.int64)
        width = self.max_rows if self.rates.any() else 1  # a pilot (all rates 0) evaluates nothing
        o_step = np.zeros((n, width), np.int64)
        o_seat, o_n, o_m = (np.zeros((n, width), np.int64) for _ in range(3))
        o_act = np.zeros((n, width, cap), np.int64)
        o_win = np.zeros((n, width, cap, rollouts))
        o_mar = np.zeros((n, width, cap, rollouts))
        self.positions = new_states(eng, n * width if self.keep_positions else 0)
        states = new_states(eng, n)  # one state per game: each game is a block (run_blocks spreads them on threads)
        args = (
            self.pvec,
            np.uint64(self.seed),
            seed_index,
            players,
            strat,
            self.sids,
            self.weights,
            self.salt,
            self.rates,
            np.int64(self.mask),
            rollouts,
            cap,
            self.policy,
            self.rw,
            self.peek,
            buf["game_int"],
            buf["seat_int"],
            buf["seat_f"],
            buf["items"],
            rows,
            steps,
            kinds,
            o_step,
            o_seat,
            o_n,
            o_m,
            o_act,
            o_win,
            o_mar,
            self.positions,
        )  # buf: only shapes for make_work
        run_blocks(self.kern.audit_blocks, states, args)
        return kinds, seed_index, rows, o_step, o_seat, o_n, o_m, o_act, o_win, o_mar

    def play_with_values(self, start, stop):
        """({where: (game in the batch, row), m, actions, regret, weight}, [win (m, rollouts) per row]) of the
        evaluated decisions of games start..stop-1 (sim improve; with keep_positions the states are in
        self.positions[game * max_rows + row])."""
        _, _, rows, _, _, _, o_m, o_act, o_win, o_mar = self._run(start, stop)
        out = {"where": [], "m": [], "actions": [], "regret": [], "weight": []}
        wins = []
        for g in range(stop - start):
            for r in range(rows[g]):
                m = int(o_m[g, r])
                regret = analyse(o_win[g, r], o_mar[g, r], m)[1]
                out["where"].append((g, r))
                out["m"].append(m)
                out["actions"].append(o_act[g, r, :m].copy())
                out["regret"].append(regret)
                out["weight"].append(1.0 / float(self.rates[int(o_act[g, r, 0]) & self.mask]))
                wins.append(o_win[g, r, :m])
        return out, wins

    def play(self, start, stop):
        """One row per evaluated decision of games start..stop-1."""
        spec = self.spec
        _, seed_index, rows, o_step, o_seat, o_n, o_m, o_act, o_win, o_mar = self._run(start, stop)
        recs = []
        for g in range(stop - start):
            for r in range(rows[g]):
                m = int(o_m[g, r])
                best, regret, se, regret_all = analyse(o_win[g, r], o_mar[g, r], m)
                chosen = int(o_act[g, r, 0])
                better = int(o_act[g, r, best])
                # step: the move number as `sim replay` prints it (1-based)
                recs.append(
                    {
                        "game": start + g,
                        "seed_index": int(seed_index[g]),
                        "step": int(o_step[g, r]) + 1,
                        "seat": int(o_seat[g, r]),
                        "strategy": self.strategy,
                        "n_legal": int(o_n[g, r]),
                        "n_evaluated": m,
                        "chosen": chosen,
                        "kind": self.label(chosen),
                        "chosen_text": _text(spec, chosen),
                        "best": better,
                        "best_text": _text(spec, better),
                        "better_kind": self.label(better),
                        "weight": 1.0 / float(self.rates[chosen & self.mask]),
                        "chosen_win": float(o_win[g, r, 0].mean()),
                        "best_win": float(o_win[g, r, best].mean()),
                        "regret": regret,
                        "regret_se": se,
                        "regret_all": regret_all,
                        "worse": bool(best != 0 and regret > Z * se and regret > 0),
                    }
                )
        return pd.DataFrame(
            recs,
            columns=[
                "game",
                "seed_index",
                "step",
                "seat",
                "strategy",
                "n_legal",
                "n_evaluated",
                "chosen",
                "kind",
                "chosen_text",
                "best",
                "best_text",
                "better_kind",
                "weight",
                "chosen_win",
                "best_win",
                "regret",
                "regret_se",
                "regret_all",
                "worse",
            ],
        )


def rollout_rate(game, players=None, games=24, rollouts=16, cap=8, seed=0):
    """Rollouts per second on all of numba's threads, as the search player and the audit spend them: at two
    sampled decisions of each of `games` games (the rollout policy in every seat), up to `cap` actions by
    `rollouts` rollouts each (re-seed, determinize, apply, play out, score).  Returns (rollouts per second,
    rollouts timed, seconds).  A rollout starts mid-game, so it costs about half a whole game of the policy."""
    spec = get_game(game) if isinstance(game, str) else game
    players = int(players or spec.default_players)
    policy = rollout_preset(spec)
    spec, design, pvec = prepare(spec, (players,), games, [policy.name], None, False, None)
    kernel = _Kernel(
        spec,
        design,
        pvec,
        seed,
        policy,
        policy.name,
        rollouts,
        cap,
        2,
        [min(1.0, 3.0 / max(pilot_steps(spec, players, pvec, seed), 1.0))],
    )
    kernel.play(0, 1)  # compile (or load from the cache) outside the timing
    t = time.perf_counter()
    rows = kernel.play(0, games)
    dt = time.perf_counter() - t
    done = int(rows["n_evaluated"].sum()) * rollouts
    return done / dt, done, dt


def _text(spec, a):
    return spec.action_text(int(a)) if spec.action_text else str(int(a))


def _regret_test(regret, weight=None):
    """(mean, t-interval half width, one-sided p-value of "mean regret > 0") of one group's regrets, weighted by
    the sampling weights (statsmodels' DescrStatsW, the weights scaled to sum to the group's size)."""
    from statsmodels.stats.weightstats import DescrStatsW

    x = np.asarray(regret, float)
    n = len(x)
    w = np.ones(n) if weight is None else np.asarray(weight, float)
    w = w * (n / w.sum())
    mean = float(np.average(x, weights=w))
    if n < 2:
        return mean, float("nan"), float("nan")
    if float(np.std(x)) == 0.0:  # every decision of the group had the same regret (e.g. all zero)
        return mean, 0.0, 0.0 if mean > 0 else 1.0
    d = DescrStatsW(x, weights=w)
    lo, hi = d.tconfint_mean(ALPHA)
    p = float(d.ttest_mean(0.0, alternative="larger")[1])
    return mean, float(hi - mean), p


def summarise(rows, by="kind"):
    """One row per group (by="kind": the chosen action's kind; by="better_kind": the better action's kind) and
    'all': decisions, their estimated share of all decisions (sampling weights), significantly worse (share and
    Wilson interval), mean regret with its t-interval (weighted), the one-sided p-value of a positive mean regret
    Holm-corrected over the groups (a family of verdicts: with twenty kinds one would pass 5% by chance), worst
    regret and where (game, step), and flagged: mean regret above FLAG_REGRET with a corrected p-value below
    ALPHA."""
    if rows.empty:
        return pd.DataFrame()
    if "weight" not in rows:  # an audit folder written before stratified sampling
        rows = rows.assign(weight=1.0, better_kind=rows["kind"])
    total = float(rows["weight"].sum())
    out = []
    for kind, g in list(rows.groupby(by)) + [("all", rows)]:
        n = len(g)
        k = int(g["worse"].sum())
        lo, hi = wilson(k, n)
        w = g["weight"].to_numpy(float)
        mean, half, p = _regret_test(g["regret"].to_numpy(float), w)
        worst = g.loc[g["regret"].idxmax()]
        out.append(
            {
                "kind": kind,
                "decisions": n,
                "share": float(w.sum()) / total,
                "worse": k,
                "worse_share": k / n,
                "worse_lo": lo,
                "worse_hi": hi,
                "mean_regret": mean,
                "mean_regret_lo": mean - half,
                "mean_regret_hi": mean + half,
                "p": p,
                "worst_regret": float(worst["regret"]),
                "worst_game": int(worst["game"]),
                "worst_step": int(worst["step"]),
                "worst_text": worst["chosen_text"],
                "worst_best_text": worst["best_text"],
            }
        )
    df = pd.DataFrame(out)
    kinds = (df["kind"] != "all") & df["p"].notna()
    df["p_holm"] = np.nan
    if kinds.any():
        df.loc[kinds, "p_holm"] = multipletests(df.loc[kinds, "p"], method="holm")[1]
    df["flagged"] = kinds & (df["mean_regret"] > FLAG_REGRET) & (df["p_holm"] < ALPHA)
    return df.sort_values(["flagged", "mean_regret"], ascending=False).reset_index(drop=True)


def _table(summary):
    lines = [f"{'kind':18s} {'n':>5s} {'share':>6s} {'worse':>16s} {'mean regret [95%]':>24s} {'worst':>6s}  example"]
    for _, r in summary.iterrows():
        flag = "  <-- FLAGGED" if r["flagged"] else ""
        lines.append(
            f"{r['kind'][:18]:18s} {r['decisions']:5d} {r['share']:6.1%} {r['worse_share']:6.1%} [{r['worse_lo']:4.0%}-"
            f"{r['worse_hi']:4.0%}] {r['mean_regret']:+7.3f} [{r['mean_regret_lo']:+.3f}, "
            f"{r['mean_regret_hi']:+.3f}] {r['worst_regret']:+6.3f}  game {r['worst_game']} step "
            f"{r['worst_step']}: {r['worst_text']} (best: {r['worst_best_text']}){flag}"
        )
    return lines


def summary_text(spec, request, rows, summary, better=None):
    sampling = request.get("sampling", "uniform")
    lines = [
        (
            f"sim audit {spec.name}: {request['strategy']} in every seat, {request['players']} players, "
            f"{len(rows)} decisions ({sampling} sampling), {request['rollouts']} rollouts per action with "
            f"{request['rollout_policy']}, up to {request['cap']} actions per decision"
        ),
        (
            "regret = win share of the best action minus the chosen one's (best picked on half the rollouts, "
            "measured on the other half); worse = regret > 1.96 standard errors; FLAGGED = mean regret > 0.02 "
            "and above 0 at 5% after a Holm correction over the kinds; share = the kind's estimated share of all "
            "decisions (n: decisions sampled; means weighted by 1 / sampling rate)"
        ),
        "by the kind of the chosen action:",
        *_table(summary),
    ]
    if better is not None and not better.empty:
        lines += ["by the kind of the better action (the chosen one where none was better):", *_table(better)]
    return "\n".join(lines) + "\n"


class _NoBar:
    def update(self, n):
        pass

    def close(self):
        pass


def _bar(total, enabled, name):
    if not enabled:
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, unit=" decisions", desc=f"audit {name}", dynamic_ncols=True)
