"""`sim improve`: expert iteration for a preset (issue 36): the rollout search is a policy-improvement operator over
its rollout policy, and the preset is tuned to absorb it.

Each iteration i, with the current preset X_i (iteration 0: the preset as given):
1. positions: the audit's kernel plays games with X_i in every seat (stratified by decision kind, sim.audit) and
   at the sampled decisions keeps the state and evaluates the legal actions by rollouts with X_i in every seat;
   search's choice there is the action with the best mean win share over all rollouts (X_i's own choice kept on a
   tie).  The audit's mean regret of X_i is recorded (weighted back to all decisions).
2. tuning: CMA-ES (sim.tune, common seeds per generation) of X_i's knobs on the objective win share against the
   field (the other seats: the game's default line-up, as sim tune, or with --field drawn game by game from an
   equilibrium field's mixture) + --agreement x the share of the positions where the candidate chooses what
   search chose there.
3. the tuned preset X_{i+1} is written (preset file with its provenance) and becomes the rollout policy of the
   next iteration's search.  Recorded: X_{i+1}'s paired gain over X_i (sim tune's closing comparison on fresh
   seeds) and search's gain over X_{i+1}: `search<R>@X_{i+1}` against X_{i+1} in the same seat of the same games
   (paired, the field elsewhere).

Work folder: iter_<i>/ (the positions as parquet, the tuning folder, the preset file) and log.json; every step is
resumable (a finished step is read back, the tuning resumes from its evaluations).  Output: the best iteration's
preset file (the highest sum of paired gains over the start: best_iteration), copied to
strategies/<game>/improved/<name>.toml (or --out-file) with a header line saying which iteration it is; nothing
when no iteration gained over the start.
"""

import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from .errors import UserError
from .game import get_game
from .runner import check_seed
from .study import Study

Z95 = 1.959963984540054


class Positions:
    """Sampled decisions of games with `strategy` in every seat: the states, search's choice (by rollouts with
    `strategy` as the policy) and the preset's own choice, plus the audit's weighted mean regret."""

    def __init__(self, spec, players, strategy, decisions, rollouts, cap, seed, pvec):
        from .audit import _Kernel, pilot_kinds, stratified_rates
        from .runner import prepare

        _, design, _ = prepare(spec, (players,), 50 * decisions + 1000, [strategy], None, False, None)
        policy = spec.strategy(strategy)
        rates = stratified_rates(pilot_kinds(spec, design, pvec, seed, policy, strategy), 3.0)
        kern = _Kernel(spec, design, pvec, seed, policy, strategy, rollouts, cap, 2, rates)
        kern.keep_positions = True
        states, best, chosen, regret, weight, kind, best_kind = [], [], [], [], [], [], []
        start = 0
        while len(best) < decisions and start < design.total:
            stop = min(design.total, start + 32)
            rows, win = kern.play_with_values(start, stop)
            for r, (g, slot) in enumerate(rows["where"]):
                w = win[r]
                means = w[: rows["m"][r]].mean(axis=1)
                k = int(np.argmax(means + 1e-12 * (np.arange(len(means)) == 0)))
                states.append(kern.positions[g * kern.max_rows + slot].copy())
                best.append(int(rows["actions"][r][k]))
                chosen.append(int(rows["actions"][r][0]))
                kind.append(kern.label(chosen[-1]))
                best_kind.append(kern.label(best[-1]))
            regret += list(rows["regret"])
            weight += list(rows["weight"])
            start = stop
        self.states = np.array(states[:decisions], dtype=spec.engine_module().STATE_DTYPE)
        self.best = np.array(best[:decisions], np.int64)
        self.chosen = np.array(chosen[:decisions], np.int64)
        r, w = np.array(regret[: len(self.best)]), np.array(weight[: len(self.best)])
        self.kind, self.best_kind, self.regret, self.weight = kind[:decisions], best_kind[:decisions], r, w
        self.mean_regret = float((r * w).sum() / w.sum()) if len(r) else float("nan")
        self.spec, self.pvec, self.sid = spec, pvec, int(policy.sid)

    def agreement(self, weights):
        """Share of the positions where a preset of the same code with `weights` chooses search's action."""
        out = self.choices(weights)
        return float((out == self.best).mean()) if len(out) else 0.0

    def choices(self, weights):
        """The action a preset of the same code with `weights` chooses at each position."""
        from .kernel import load_kernel, new_states

        spec = self.spec
        eng = spec.engine_module()
        sids = np.array([self.sid], np.int64)
        w = np.ascontiguousarray(np.array([weights], np.float64))
        out = np.zeros(len(self.best), np.int64)
        row = np.zeros(eng.MAX_PLAYERS, np.int64)
        load_kernel(spec).choices_at(self.states, len(self.best), self.pvec, row, sids, w, new_states(eng, 1), out)
        return out

    def write(self, path, weights, tuned_weights):
        """positions.parquet: per position the choice played in the game and its kind, search's choice and its
        kind, the preset's (`weights`) and the tuned preset's choices there (drawn again: a preset with chance
        moves may differ from the game's), the audit's regret and sampling weight (agreement by decision kind)."""
        import pandas as pd

        before, tuned = self.choices(weights), self.choices(tuned_weights)
        frame = pd.DataFrame(
            {
                "kind": self.kind,
                "search_kind": self.best_kind,
                "chosen": self.chosen,
                "search": self.best,
                "preset": before,
                "tuned": tuned,
                "agree_before": before == self.best,
                "agree_after": tuned == self.best,
                "regret": self.regret,
                "weight": self.weight,
            }
        )
        tmp = Path(path).with_suffix(".tmp")
        frame.to_parquet(tmp, index=False)
        tmp.replace(path)


def search_gain(spec, pvec, players, preset, opponents, rollouts, games, seed, mixture=None):
    """search<rollouts>@preset minus preset in the same seat of the same games (the seat rotating, the other
    seats the opponents, cycled, or drawn from mixture = (names, weights) by the same draws for both):
    (gain, low, high, games)."""
    from .field import field_design
    from .runner import prepare, simulate

    name = f"search{rollouts}@{preset}"
    games = max(1, -(-int(games) // players)) * players
    shares = []
    for hero in (name, preset):
        if mixture:
            design = field_design(spec, players, games, mixture[0], mixture[1], seed, hero)
        else:
            lineup = [hero] + [opponents[i % len(opponents)] for i in range(players - 1)]
            _, design, _ = prepare(spec, (players,), games, lineup, None, True, None)
        out = simulate(spec, design, pvec, seed, 0, games)
        slot = design.slots.index(hero)
        share = out["seat_f"][:games, :players, 1]
        shares.append(np.where(out["strat"][:games, :players] == slot, share, 0.0).sum(axis=1))
    d = shares[0] - shares[1]
    half = Z95 * d.std(ddof=1) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
    return float(d.mean()), float(d.mean() - half), float(d.mean() + half), int(len(d))


def improve(
    game,
    strategy,
    players,
    iterations=2,
    positions=300,
    rollouts=16,
    cap=8,
    agreement=0.5,
    evals=40,
    games_per_eval=1000,
    final_games=4000,
    search_rollouts=8,
    search_games=200,
    seed=0,
    work=None,
    out_file=None,
    name=None,
    progress=True,
    command=None,
    sigma0=None,
    field=None,
):
    """Run (or resume) expert iteration; returns the log (a list with one dict per iteration).  field: the
    opponents of the tuning and of search's gain are drawn from an equilibrium field's mixture ("field": the
    game's shipped field at `players`; a path: that field file) instead of the default line-up."""
    from .knobs import load_preset_file, write_preset_file
    from .lock import FolderLock
    from .tune import Problem, default_popsize, tune

    spec = get_game(game) if isinstance(game, str) else game
    players = int(players)
    seed = check_seed(seed)
    start = spec.strategy(strategy)
    if start.sid < 0 or start.knobs is None or not start.knobs.names:
        raise UserError(f"sim improve: {strategy} has no knobs to tune (a preset of the game with knobs is needed)")
    if min(iterations, positions, games_per_eval, final_games, search_games) < 1 or rollouts < 2:
        raise UserError("sim improve: --iterations, --positions, --games... must be at least 1, --rollouts at least 2")
    mixture = None
    if field:
        from .field import load_field

        names, weights, where = load_field(spec, players, None if field == "field" else field)
        mixture = (tuple(names), tuple(weights))
    problem = Problem(spec, strategy, players, mixture=mixture)
    generation = default_popsize(len(problem.x0()))
    if evals < generation:  # fewer evaluations than one generation tune nothing: the start comes back unchanged
        raise UserError(
            f"sim improve: --evals {evals} is less than one CMA-ES generation ({generation} candidates for "
            f"{strategy}'s knobs); give at least {generation}"
        )
    pvec = problem.pvec
    base_name = name or f"{strategy}_improved"
    work = Path(work or f"results/improve_{spec.name}_{strategy}_{players}p_s{seed}")
    from .knobs import strategies_folder

    out_file = Path(out_file) if out_file else strategies_folder(spec) / "improved" / f"{base_name}_{players}p.toml"
    request = dict(
        game=spec.name,
        strategy=strategy,
        weights=list(start.weights),
        players=players,
        iterations=iterations,
        positions=positions,
        rollouts=rollouts,
        cap=cap,
        agreement=agreement,
        evals=evals,
        games_per_eval=games_per_eval,
        final_games=final_games,
        search_rollouts=search_rollouts,
        search_games=search_games,
        seed=seed,
        game_code=spec.code_version(),
    )
    if mixture:  # recorded only when given, so older work folders still resume
        request["field"] = {"file": str(where), "mixture": dict(zip(*mixture))}
    if sigma0 is not None:  # recorded only when given, so older work folders still resume
        from .inputs import number

        request["sigma0"] = number(sigma0, "--sigma0", 0.001, 1.0)
    work.mkdir(parents=True, exist_ok=True)
    command = command or " ".join(sys.argv)
    with FolderLock(work, "sim improve"):
        req = work / "request.json"
        if req.exists() and json.loads(req.read_text()) != request:
            raise UserError(f"{work} holds a different improvement; choose another --work or delete it")
        req.write_text(json.dumps(request, indent=1))
        log_path = work / "log.json"
        log = json.loads(log_path.read_text()) if log_path.exists() else []
        current = strategy
        for entry in log:  # finished iterations: register their presets again
            current = load_preset_file(spec, work / f"iter_{entry['iteration']}" / f"{entry['preset']}.toml").name
        bar = _bar(iterations, len(log), progress, f"improve {strategy}")
        from .cost import CpuMeter

        meter = CpuMeter(work)
        for i in range(len(log), iterations):
            t0, cpu0 = time.perf_counter(), meter.total()
            folder = work / f"iter_{i}"
            pos = Positions(spec, players, current, positions, rollouts, cap, seed + 7919 * i, pvec)
            before = pos.agreement(spec.strategy(current).weights)
            new = f"{base_name}{i + 1}"
            study = Study(spec, players, seed=seed + 31 * i + 1, out=folder / "tune")
            res = tune(
                study.replace(progress=progress, command=command),
                current,
                evals=evals,
                games_per_eval=games_per_eval,
                final_games=final_games,
                name=new,
                sigma0=sigma0,
                mixture=mixture,
                bonus=(
                    f"{agreement} x agreement with search{rollouts} at {len(pos.best)} positions (iteration {i})",
                    lambda w, pos=pos: agreement * pos.agreement(w),
                ),
            )
            tuned = load_preset_file(spec, folder / "tune" / f"{new}.toml")
            after = pos.agreement(tuned.weights)
            pos.write(folder / "positions.parquet", spec.strategy(current).weights, tuned.weights)
            gain = search_gain(
                spec, pvec, players, tuned.name, problem.opponents, search_rollouts, search_games, seed + 17 * i + 3,
                mixture,
            )  # fmt: skip
            entry = {
                "iteration": i,
                "preset": new,
                "from": current,
                "knobs": res["tuned"],
                "positions": int(len(pos.best)),
                "audit_mean_regret": pos.mean_regret,
                "agreement_before": before,
                "agreement_after": after,
                "gain_over_previous": res["final"]["difference"],
                "gain_over_previous_low": res["final"]["difference_low"],
                "gain_over_previous_high": res["final"]["difference_high"],
                "gain_games": res["final"]["games"],
                "search_gain": gain[0],
                "search_gain_low": gain[1],
                "search_gain_high": gain[2],
                "search_games": gain[3],
                "seconds": round(time.perf_counter() - t0, 1),
                # CPU (user + system, every thread) of the iteration; the part an interrupted session spent on it
                # before is not counted
                "process_cpu_seconds": round(meter.total() - cpu0, 1),
            }
            write_preset_file(
                folder / f"{new}.toml",
                spec,
                new,
                _base_of(spec, tuned),
                {k: v for k, v in zip(tuned.knobs.names, tuned.weights)},
                doc=(
                    f"{strategy} after {i + 1} iterations of sim improve at {players} players: gain over the "
                    f"previous {entry['gain_over_previous']:+.4f} (95% {entry['gain_over_previous_low']:+.4f} to "
                    f"{entry['gain_over_previous_high']:+.4f}); search{search_rollouts}'s gain over it "
                    f"{gain[0]:+.4f} ({gain[1]:+.4f} to {gain[2]:+.4f}); audit mean regret of the previous "
                    f"{pos.mean_regret:+.4f}"
                ),
                command=command,
                tuning={"iteration": i + 1, "players": players, "seed": seed},
            )
            current = load_preset_file(spec, folder / f"{new}.toml").name
            log.append(entry)
            log_path.write_text(json.dumps(log, indent=1))
            meter.save()
            bar.update(1)
        bar.close()
    return log, ship(work, log, out_file)


def best_iteration(log):
    """(index into log, cumulative gains): the iteration whose preset is best by the chain of paired gains, each
    over its predecessor against the same field, so their running sum is the gain over the start; the highest sum
    wins, the earlier on a tie (an iteration that only adds noise is not shipped)."""
    cumulative = list(np.cumsum([e["gain_over_previous"] for e in log]))
    return int(np.argmax(cumulative)), [float(c) for c in cumulative]


def ship(work, log, out_file):
    """Copy the best iteration's preset file (best_iteration) to out_file, its header naming the file it is in and
    saying which iteration it is and why; None (nothing written) when no iteration gained over the start: a file in
    improved/ would claim an improvement that was not measured."""
    k, cumulative = best_iteration(log)
    if cumulative[k] <= 0:
        start = log[0].get("from", "the start")
        print(f"sim improve: no iteration gained over {start} (best sum {cumulative[k]:+.4f}): nothing shipped")
        return None
    entry = log[k]
    name = entry["preset"]
    text = (Path(work) / f"iter_{entry['iteration']}" / f"{name}.toml").read_text()
    why = (
        f"# shipped: iteration {k + 1} of {len(log)}, the highest sum of paired gains over the start "
        f"({cumulative[k]:+.4f}; after the last iteration {cumulative[-1]:+.4f})"
    )
    first, _, rest = text.partition("\n")
    first = first.replace(f"--strategy-file {name}.toml", f"--strategy-file {Path(out_file).name}", 1)
    out_file = Path(out_file)
    out_file.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_file.with_name(out_file.name + ".tmp")
    tmp.write_text(f"{first}\n{why}\n{rest}")
    tmp.replace(out_file)  # atomic: a reader never sees half a file
    if k < len(log) - 1:
        print(f"sim improve: shipped iteration {k + 1} ({name}): the later iterations lowered the sum of gains")
    return out_file


def _base_of(spec, s):
    """The built-in preset whose code a (file) preset runs."""
    return next((b.name for b in spec.strategies if b.sid == s.sid and not b.origin), s.name)


def report_lines(log):
    out = []
    for e in log:
        out.append(
            f"iteration {e['iteration'] + 1}: {e['preset']} (from {e['from']}): gain over it "
            f"{e['gain_over_previous']:+.4f} (95% {e['gain_over_previous_low']:+.4f} to "
            f"{e['gain_over_previous_high']:+.4f}, {e['gain_games']} paired games); search's gain over the new preset "
            f"{e['search_gain']:+.4f} ({e['search_gain_low']:+.4f} to {e['search_gain_high']:+.4f}, "
            f"{e['search_games']} games); agreement with search {e['agreement_before']:.3f} -> "
            f"{e['agreement_after']:.3f} at {e['positions']} positions; audit mean regret of the previous "
            f"{e['audit_mean_regret']:+.4f}; {e['seconds']} s"
        )
    return out


class _NoBar:
    def update(self, n):
        pass

    def close(self):
        pass


def _bar(total, initial, enabled, desc):
    if not enabled:
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=initial, unit=" iterations", desc=desc, dynamic_ncols=True)
