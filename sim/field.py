"""`sim field`: an equilibrium field over a pool of presets, by empirical game-theoretic analysis (issue 36).

The pool (hand-written presets, shipped tuned ones, any preset file) meets in every line-up the meta-solver needs:
for a symmetric n-player game, every multiset of n strategies of the pool (the heuristic payoff table: a row per
distribution of the n seats over the k strategies, with each present strategy's mean win share).  A row's games
rotate the line-up over the seats, both directions, every arrangement on the same seed, and every row plays the
same seeds (common random numbers), so the table's differences are not dice.

Meta-solver: OpenSpiel's egt.  Its alpha-rank handles only pairwise (2-player) single-population games, so for
every player count the mixture is the time average of OpenSpiel's replicator dynamics (egt.dynamics.replicator),
with each strategy's fitness against the population from OpenSpiel's heuristic payoff table
(HeuristicPayoffTable.expected_payoff: the n-player symmetric payoff against a mixture), integrated by scipy from
the uniform mixture.  In a cyclic game (rock-paper-scissors) the dynamics circle the equilibrium and the time
average converges to it; with a dominant strategy they converge to it.

PSRO-style growth: a best response to the current mixture is found by tuning (sim.tune, CMA-ES) the knobs of the
mixture's heaviest preset that has knobs, against line-ups drawn from the mixture; its gain is measured on fresh
seeds, paired (the best response in one seat against a seat drawn from the mixture, the same games otherwise).  A
gain above 1 point of win share adds it to the pool and the analysis repeats; the field stops when no best response
gains more than that ("converged") or after --iterations best responses ("budget").  The mixture written is always
one whose best response was measured, with that gain as its exploitability.

Work folder (--work): request.json, payoffs.json (one entry per line-up as it finishes: an interrupted field
resumes), br_<i>/ (each tuning, itself resumable), log.json.  Output: strategies/<game>/fields/<n>p.json (the
mixture, the preset files it needs copied beside it, exploitability with its interval, the payoff table, the command,
the stop reason and the budgets).
"""

import json
import math
import shutil
import sys
import time
from pathlib import Path

import numpy as np

from .errors import UserError
from .game import get_game
from .runner import check_seed, simulate
from .seating import Design
from .study import Study

Z95 = 1.959963984540054
STOP_GAIN = 0.01  # a best response gaining at most 1 point of win share: the field has converged
INTEROP = 'sim field needs OpenSpiel\'s egt module (and networkx): pip install -e ".[interop]"'


def _egt():
    try:
        from open_spiel.python.egt import dynamics, heuristic_payoff_table, utils
    except ImportError:
        raise UserError(INTEROP) from None
    return dynamics, heuristic_payoff_table, utils


def is_field(name):
    """True for a line-up entry `field` or `field:<file>` (seats drawn from a field's mixture)."""
    return str(name).split(":", 1)[0] == "field"


def fields_folder(game):
    from .knobs import strategies_folder

    return strategies_folder(game) / "fields"


def load_field(game, players, path=None):
    """(names, weights, file) of a field file (default: the game's shipped field at `players`), its preset files
    registered with the game so line-ups can name them."""
    from .knobs import load_preset_file

    path = Path(path) if path else fields_folder(game) / f"{players}p.json"
    if not path.is_file():
        raise UserError(
            f"no field file {path}; make one with `sim field {game.name} --players {players}` or name one "
            "(--lineup field:<file>, sim improve --field <file>)"
        )
    try:
        raw = json.loads(path.read_text())
        mixture = raw["mixture"]
    except (json.JSONDecodeError, KeyError, TypeError):
        raise UserError(f"{path} is not a field file (a JSON object with a 'mixture')") from None
    if raw.get("game", game.name) != game.name:
        raise UserError(f"{path} is a field of {raw['game']}, not of {game.name}")
    if int(raw.get("players", players)) != int(players):
        raise UserError(f"{path} is a field for {raw['players']} players, not {players}")
    for rel in raw.get("preset_files", {}).values():
        load_preset_file(game, path.parent / rel)
    names = [str(n) for n in mixture]
    weights = [float(mixture[n]) for n in names]
    for n in names:
        game.strategy(n)
    if not names or min(weights) < 0 or sum(weights) <= 0:
        raise UserError(f"{path}: the mixture needs at least one strategy with a positive weight")
    return names, weights, path


def distributions(players, k):
    """Every distribution of `players` seats over k strategies (OpenSpiel's order)."""
    _, _, utils = _egt()
    return [tuple(int(x) for x in d) for d in utils.distribute(players, k)]


def lineup_payoffs(spec, pvec, names, counts, games, seed):
    """Each present strategy's mean win share in the line-up with counts[i] seats of names[i]: the line-up rotated
    over the seats in both directions, every arrangement on one seed.  Returns (payoffs, games played)."""
    lineup = tuple(n for n, c in zip(names, counts) for _ in range(c))
    players = len(lineup)
    slots = tuple(dict.fromkeys(lineup))
    from .knobs import roster

    group = 2 * players
    games = max(1, -(-int(games) // group)) * group
    design = Design((players,), games, slots, lineup, "rotate", True, roster(spec, slots), mirror=True)
    out = simulate(spec, design, pvec, seed, 0, games)
    share = out["seat_f"][:games, :players, 1]
    strat = out["strat"][:games, :players]
    pay = np.zeros(len(names))
    for i, (n, c) in enumerate(zip(names, counts)):
        if c:
            pay[i] = float(np.where(strat == slots.index(n), share, 0.0).sum() / (games * c))
    return pay, games


def solve_mixture(table, horizon=None):
    """The time average of OpenSpiel's replicator dynamics on an n-player heuristic payoff table, from the
    uniform mixture (second half of the trajectory).  horizon: integration time (default scaled to the table's
    payoff spread so that small win-share differences still move the population)."""
    from scipy.integrate import solve_ivp

    dynamics, _, _ = _egt()
    k = table.num_strategies
    pay = table()[:, k:]
    spread = float(np.nanmax(pay) - np.nanmin(pay)) or 1.0
    horizon = horizon or 400.0 / spread

    def rhs(_t, x):
        x = np.clip(x, 1e-12, None)  # expected_payoff divides by each strategy's chance to be present
        x = x / x.sum()
        return dynamics.replicator(x, table.expected_payoff(x))

    ts = np.linspace(horizon / 2, horizon, 400)
    sol = solve_ivp(rhs, (0.0, horizon), np.full(k, 1.0 / k), t_eval=ts, rtol=1e-8, atol=1e-10)
    traj = np.clip(sol.y.T, 0.0, None)
    traj /= traj.sum(axis=1, keepdims=True)
    mix = dynamics.time_average(traj)[-1]
    mix[mix < 1e-4] = 0.0
    return mix / mix.sum()


def payoff_table(players, names, rows):
    """OpenSpiel's HeuristicPayoffTable from {distribution: payoffs}."""
    _, hpt, _ = _egt()
    table = hpt.PayoffTable(players, len(names))
    for d, pay in rows.items():
        p = np.asarray(pay, float).copy()
        p[np.asarray(d) == 0] = 0.0
        table[tuple(d)] = p
    return table


def pool_regret(table, mix):
    """max over the pool of (pure strategy's payoff against the mixture - the mixture's own payoff)."""
    x = np.clip(np.asarray(mix, float), 1e-12, None)  # expected_payoff divides by each strategy's presence
    x = x / x.sum()
    u = table.expected_payoff(x)
    return float(u.max() - float(np.dot(x, u))), u


def field_design(spec, players, games, pool, mix, seed, hero, seated=True):
    """The Design of games whose seats are drawn from the mixture `mix` over `pool` (draws seeded by `seed`), with
    `hero` in seat (g mod n) and only the other seats drawn; seated=False: every seat drawn (the same draws, `hero`
    a slot that does not play: the paired baseline)."""
    from .knobs import roster

    slots = tuple(dict.fromkeys([hero] + list(pool)))
    return Design(
        (players,), int(games), slots, tuple(pool), "field", False, roster(spec, slots),
        mixture=tuple(float(w) for w in mix), hero=hero if seated else "", draw_seed=seed % 2**32,
    )  # fmt: skip


def field_gain(spec, pvec, players, pool, mix, hero, games, seed):
    """Paired gain of `hero` over the field: its win share in seat (g mod n) with the other seats drawn from the
    mixture, minus the share of the seat drawn there in the same games (same draws elsewhere, same seeds).
    Returns (gain, low, high, games)."""
    games = max(players, int(games))
    with_hero = field_design(spec, players, games, pool, mix, seed, hero)
    drawn = field_design(spec, players, games, pool, mix, seed, hero, seated=False)
    a = _seat_share(simulate(spec, with_hero, pvec, seed, 0, games), games, players)
    b = _seat_share(simulate(spec, drawn, pvec, seed, 0, games), games, players)
    d = a - b
    half = Z95 * d.std(ddof=1) / math.sqrt(len(d))
    return float(d.mean()), float(d.mean() - half), float(d.mean() + half), games


def _seat_share(out, games, players):
    seat = np.arange(games) % players
    return out["seat_f"][:games, :, 1][np.arange(games), seat]


def _key(names, d):
    return ",".join(f"{n}={c}" for n, c in zip(names, d) if c)


def run_field(
    game,
    players,
    pool=None,
    games=2000,
    iterations=3,
    evals=60,
    games_per_eval=1000,
    final_games=20000,
    seed=0,
    work=None,
    out_file=None,
    params=None,
    progress=True,
    command=None,
):
    """Build (or resume) a field; returns the dict written to the field file."""
    _egt()
    spec = get_game(game) if isinstance(game, str) else game
    players = int(players)
    spec.check_players(players)
    seed = check_seed(seed)
    if min(games, games_per_eval, final_games) < 1 or evals < 2 or iterations < 0:
        raise UserError("--games, --games-per-eval and --final-games must be at least 1, --evals at least 2")
    pool = list(pool or [n for n in dict.fromkeys(spec.default_lineup)])
    for n in pool:
        spec.strategy(n)
        if spec.strategy(n).sid < 0:
            raise UserError(f"--pool {n}: a search is not a preset (the field is of presets)")
    if len(set(pool)) != len(pool) or not pool:
        raise UserError(f"--pool needs distinct presets (got {', '.join(pool)})")
    from .knobs import split_overrides

    game_params, knobs = split_overrides(params)
    if knobs:
        raise UserError("sim field: --set takes game parameters; give presets other knobs with a preset file")
    pvec = spec.params.resolve(game_params)
    work = Path(work or f"results/field_{spec.name}_{players}p_s{seed}")
    out_file = Path(out_file) if out_file else fields_folder(spec) / f"{players}p.json"
    request = {
        "game": spec.name,
        "players": players,
        "pool": pool,
        "games": games,
        "iterations": iterations,
        "evals": evals,
        "games_per_eval": games_per_eval,
        "final_games": final_games,
        "seed": seed,
        "params": spec.params.changed(pvec),
        "game_code": spec.code_version(),
    }
    from .lock import FolderLock

    work.mkdir(parents=True, exist_ok=True)
    with FolderLock(work, "sim field"):
        old = work / "request.json"
        if old.exists() and json.loads(old.read_text()) != request:
            raise UserError(f"{work} holds a different field; choose another --work or delete it")
        old.write_text(json.dumps(request, indent=1))
        return _field_locked(spec, pvec, players, pool, request, work, out_file, progress, command)


def _field_locked(spec, pvec, players, pool, request, work, out_file, progress, command):
    from .tune import tune

    cache_path = work / "payoffs.json"
    cache = json.loads(cache_path.read_text()) if cache_path.exists() else {}
    seed = request["seed"]
    history, stop = [], "budget"
    from .cost import CpuMeter

    t0, meter = time.perf_counter(), CpuMeter(work)
    it = 0
    while True:
        dists = distributions(players, len(pool))
        rows = {}
        bar = _bar(len(dists), progress, f"field {spec.name} {players}p, pool of {len(pool)}")
        for d in dists:
            key = _key(pool, d)
            if key not in cache:
                pay, played = lineup_payoffs(spec, pvec, pool, d, request["games"], seed)
                cache[key] = {"payoffs": {n: float(p) for n, p, c in zip(pool, pay, d) if c}, "games": played}
                _atomic_json(cache_path, cache)
                meter.save()
            rows[d] = [cache[key]["payoffs"].get(n, 0.0) for n in pool]
            bar.update(1)
        bar.close()
        table = payoff_table(players, pool, rows)
        mix = solve_mixture(table)
        regret, _ = pool_regret(table, mix)
        entry = {
            "iteration": it,
            "pool": list(pool),
            "mixture": dict(zip(pool, map(float, mix))),
            "pool_regret": regret,
        }
        # best response: tune the heaviest preset with knobs against line-ups drawn from the mixture
        base = next(
            (
                pool[i]
                for i in np.argsort(-mix)
                if spec.strategy(pool[i]).knobs is not None and spec.strategy(pool[i]).knobs.names
            ),
            None,
        )
        if base is None:
            stop = "no preset has knobs to tune"
            history.append(entry)
            break
        name = f"br{it}_{players}p"
        study = Study(spec, players, seed=seed + 1 + it, out=work / f"br_{it}", progress=progress, command=command)
        res = tune(
            study,
            base,
            evals=request["evals"],
            games_per_eval=request["games_per_eval"],
            mixture=(tuple(pool), tuple(float(w) for w in mix)),
            name=name,
            final_games=players,
        )
        from .knobs import load_preset_file

        br = load_preset_file(spec, work / f"br_{it}" / f"{name}.toml")
        gain = field_gain(spec, pvec, players, pool, mix, br.name, request["final_games"], seed + 1000 + it)
        _describe_response(spec, work / f"br_{it}" / f"{name}.toml", base, pool, mix, gain)
        best_pool = max(
            (
                field_gain(spec, pvec, players, pool, mix, p, request["final_games"], seed + 1000 + it) + (p,)
                for p in pool
            ),
            key=lambda g: g[0],
        )
        tuned_gain = gain
        if best_pool[0] > gain[0]:  # a pool member beats the tuned response: it is the best response found
            gain, br_name = best_pool[:4], best_pool[4]
        else:
            br_name = br.name
        entry.update(
            best_response=br_name,
            tuned_from=base,
            tuned=res["tuned"],
            tuned_gain=tuned_gain[0],
            tuned_gain_low=tuned_gain[1],
            tuned_gain_high=tuned_gain[2],
            gain=gain[0],
            gain_low=gain[1],
            gain_high=gain[2],
            gain_games=gain[3],
        )
        history.append(entry)
        _atomic_json(work / "log.json", history)
        meter.save()
        if gain[0] <= STOP_GAIN:
            stop = "converged"
            break
        if it + 1 >= request["iterations"]:
            stop = "budget"
            break
        if br_name in pool:
            stop = "best response already in the pool"
            break
        pool.append(br_name)
        it += 1
    last = history[-1]
    times = {
        "process_cpu_seconds": round(meter.save(), 1),
        "wall_seconds_this_session": round(time.perf_counter() - t0, 1),
    }
    return _write_field(spec, players, pool, last, table, request, out_file, history, stop, command, times)


def _describe_response(spec, path, base, pool, mix, gain):
    """Rewrite a best response's preset file with the gain that judged it: its paired gain over the field's draw
    (field_gain's games), not the tuning's closing comparison, which the field runs on one game per seat only."""
    from .knobs import read_preset_file, write_preset_file

    raw = read_preset_file(path)
    field = ", ".join(f"{n} {w:.3f}" for n, w in zip(pool, mix) if w > 0)
    doc = (
        f"{base} tuned by sim field as a best response at {raw['tuning']['players']} players to the mixture {field}: "
        "paired gain "
        f"over the field's draw in its seat {gain[0]:+.4f} (95% interval {gain[1]:+.4f} to {gain[2]:+.4f}, "
        f"{gain[3]} paired games on fresh seeds)."
    )
    write_preset_file(
        path, spec, raw["name"], raw["base"], raw["knobs"], doc, raw.get("command", ""), raw.get("tuning")
    )


def _write_field(spec, players, pool, last, table, request, out_file, history, stop, command, times):
    out_file.parent.mkdir(parents=True, exist_ok=True)
    files = {}
    for n in last["pool"]:
        s = spec.strategy(n)
        if s.origin:
            dest = out_file.parent / f"{players}p_{n}.toml"
            if Path(s.origin).resolve() != dest.resolve():
                shutil.copyfile(s.origin, dest)
            files[n] = dest.name
    k = len(last["pool"])
    arr = table()
    doc = {
        "game": spec.name,
        "players": players,
        "mixture": {n: w for n, w in last["mixture"].items() if w > 0},
        "preset_files": {n: f for n, f in files.items() if last["mixture"].get(n, 0) > 0},
        "exploitability": {
            "best_response": last.get("best_response"),
            "gain": last.get("gain"),
            "low": last.get("gain_low"),
            "high": last.get("gain_high"),
            "games": last.get("gain_games"),
            "pool_regret": last["pool_regret"],
        },
        "stop": stop,
        "payoff_table": {
            "strategies": last["pool"],
            "rows": [{"counts": [int(c) for c in r[:k]], "payoffs": [float(x) for x in r[k:]]} for r in arr],
        },
        "meta_solver": "OpenSpiel egt: replicator dynamics on the heuristic payoff table, time average",
        "budget": {key: request[key] for key in ("games", "iterations", "evals", "games_per_eval", "final_games")},
        "seed": request["seed"],
        "iterations": history,
        "command": command or " ".join(sys.argv),
        # CPU (user + system, every thread, over every session of the work folder) and this session's wall time
        **times,
    }
    _atomic_json(out_file, doc)
    return doc


def _atomic_json(path, obj):
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(obj, indent=1))
    tmp.replace(path)


def report_lines(doc):
    e = doc["exploitability"]
    mix = ", ".join(f"{n} {w:.3f}" for n, w in sorted(doc["mixture"].items(), key=lambda x: -x[1]))
    lines = [f"field of {doc['game']} at {doc['players']} players: {mix}"]
    if e["gain"] is not None:
        lines.append(
            f"  exploitability: {e['best_response']} gains {e['gain']:+.4f} (95% {e['low']:+.4f} to {e['high']:+.4f}, "
            f"{e['games']} paired games); within the pool {e['pool_regret']:.4f}"
        )
    lines.append(
        f"  stopped: {doc['stop']}; {len(doc['iterations'])} best responses; "
        f"{doc['process_cpu_seconds']} CPU s ({doc['wall_seconds_this_session']} s wall this session)"
    )
    return lines


class _NoBar:
    def update(self, n):
        pass

    def close(self):
        pass


def _bar(total, enabled, desc):
    if not enabled:
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, unit=" line-ups", desc=desc, dynamic_ncols=True)
