"""sim tune: the knobs of one preset that maximise its win share against a field, found with CMA-ES (`cma`).

The candidate sits in one seat of an n-player table; the other seats hold the field (default: the game's default
line-up without the tuned preset, cycled to n-1 seats; the preset itself at its starting knobs when the line-up
holds nothing else), rotated over every seat with common random numbers (all rotations of a seed).

- Search space: each knob scaled to [0, 1] by its declared range (ints and switches rounded when played).  cma's
  bound handling keeps candidates in range.  A single knob gets a dummy second coordinate (cma needs two).
- Common random numbers: every candidate of a generation, and the incumbent, play the same seeds; generations
  draw fresh seeds.
- Noise: the incumbent (the search distribution's mean, which averages over generations) is re-evaluated every
  generation on that generation's seeds, and the answer is the final mean, not the luckiest single evaluation.
- Resumable: after each ask the optimiser (pickled, with NumPy's global random state that cma samples from) and its
  candidates are saved atomically; every evaluation is appended to evaluations.csv as it finishes.  A rerun of
  the same command skips the evaluations on file, so a kill loses at most the evaluation in flight, and, the
  games being seeded, gives the result of an uninterrupted run.
- Output (--out): <name>.toml (a preset file with the command and the figures), evaluations.csv and
  evaluations.parquet (every evaluation: generation, kind, knob values, win share, games), result.json (the
  closing comparison), state.pkl and request.json (for resume).
- Closing comparison: the tuned and the starting preset each play the same fresh seeds in the candidate seat
  (paired, common random numbers); the difference of win share gets a normal interval from the per-game pairs.
  With 3+ players they also meet at one table (tuned, start and n-2 of the field; every rotation in both directions).
"""

import csv
import json
import math
import os
import pickle
import sys
import time
from pathlib import Path

import numpy as np

from .check import MAX_GAMES
from .errors import UserError
from .game import get_game
from .inputs import number
from .lock import FolderLock
from .knobs import write_preset_file
from .runner import output_buffers, simulate
from .seating import Design

CANDIDATE = "candidate"
MAX_EVALS = 1_000_000  # evaluations (and population size) of one tuning
SIGMA0 = 0.25  # initial step in the scaled space: a quarter of every knob's range
Z95 = 1.959963984540054


def _seed(*parts):
    return int(np.random.SeedSequence([int(p) for p in parts]).generate_state(1, dtype=np.uint64)[0])


def _atomic_bytes(path, data):
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    tmp.replace(path)


class Problem:
    """The objective: the candidate's mean win share over `games` games of the field, seeded by `seed`."""

    def __init__(self, game, strategy, players, field=None, knobs=None, params=None, mixture=None):
        self.game = get_game(game) if isinstance(game, str) else game
        self.base = self.game.strategy(strategy)
        if self.base.knobs is None or not len(self.base.knobs):
            raise UserError(f"strategy {strategy} of {self.game.name} has no knobs to tune")
        self.game.check_players(players)
        if players < 2:
            raise UserError("tuning needs at least 2 players")
        self.players = players
        table = self.base.knobs
        names = list(knobs) if knobs else table.names
        for n in names:
            table.index(n, strategy)
        if len(set(names)) != len(names):
            raise UserError(f"--knobs repeats a knob ({', '.join(names)})")
        self.names = names
        self.knobs = [table.knob(n) for n in names]
        if field:
            for n in field:
                self.game.strategy(n)
            pool = list(field)
        else:
            pool = [n for n in self.game.default_lineup if n != self.base.name] or [self.base.name]
        self.opponents = tuple(pool[i % len(pool)] for i in range(players - 1))
        # mixture: (names, weights): the other seats are drawn from it game by game (sim field's best response)
        self.mixture = (tuple(mixture[0]), tuple(float(w) for w in mixture[1])) if mixture else None
        if self.mixture:
            self.opponents = self.mixture[0]
        from .knobs import split_overrides

        params, knob_sets = split_overrides(params)
        if knob_sets:
            raise UserError(
                "sim tune: --set takes game parameters; give the field other knobs with a preset file "
                "(--strategy-file, then --field)"
            )
        self.pvec = self.game.params.resolve(params)

    # ---- scaled space <-> knob values
    def x0(self):
        u = [(self.base.weights[self.base.knobs.index(k.name)] - k.lo) / (k.hi - k.lo) for k in self.knobs]
        return u + [0.5] * (len(u) == 1)  # cma needs two coordinates: a dummy one, never played

    def values(self, u):
        """{knob: value} of a point of the scaled space (rounded for int and switch knobs)."""
        out = {}
        for k, x in zip(self.knobs, u):
            v = k.lo + min(max(float(x), 0.0), 1.0) * (k.hi - k.lo)
            out[k.name] = float(round(v)) if k.kind in ("int", "bool") else v
        return out

    def weights(self, values):
        return self.base.knobs.vector(values, base=self.base.weights, who=self.base.name)

    def design(self, weights, games):
        if self.mixture:
            from .knobs import roster

            names, mix = self.mixture
            slots = (CANDIDATE,) + tuple(dict.fromkeys(names))
            custom = ((CANDIDATE, int(self.base.sid), tuple(weights)),) + roster(self.game, slots[1:])
            return Design(
                (self.players,), int(games), slots, names, "field", False, custom, mixture=mix, hero=CANDIDATE
            )
        lineup = (CANDIDATE,) + self.opponents
        slots = tuple(dict.fromkeys(lineup))
        return Design(
            (self.players,),
            int(games),
            slots,
            lineup,
            "rotate",
            True,
            ((CANDIDATE, int(self.base.sid), tuple(weights)),),
        )

    def games_for(self, games):
        """Whole groups of rotations (each seed is played in every seat)."""
        return max(1, -(-int(games) // self.players)) * self.players

    def same_table(self, tuned, games, seed):
        """Tuned and starting preset at one table (the field in the other n-2 seats), each one's win share and the
        difference, with a 95% interval over seed groups.  The two sit apart (tuned, field, start, rest of the field)
        and every rotation is played in both directions with one seed: at 3 and 4 players each then has the same
        neighbours on each side equally often, so the difference is not a seating effect."""
        group = 2 * self.players
        games = max(1, -(-int(games) // group)) * group
        field = self.opponents[: self.players - 2]
        lineup = ("tuned",) + field[:1] + ("start",) + field[1:]
        design = Design(
            (self.players,),
            games,
            tuple(dict.fromkeys(lineup)),
            lineup,
            "rotate",
            True,
            (("tuned", int(self.base.sid), tuple(tuned)), ("start", int(self.base.sid), tuple(self.base.weights))),
            mirror=True,
        )
        out = simulate(self.game, design, self.pvec, seed, 0, games)
        share = out["seat_f"][:games, :, 1]
        tuned_slot, start_slot = design.slots.index("tuned"), design.slots.index("start")
        a = np.where(out["strat"][:games] == tuned_slot, share, 0.0).sum(axis=1)
        b = np.where(out["strat"][:games] == start_slot, share, 0.0).sum(axis=1)
        d = (a - b).reshape(-1, group).mean(axis=1)  # the games of a group share their dice
        half = Z95 * d.std(ddof=1) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
        return {
            "games": int(games),
            "tuned_share": float(a.mean()),
            "start_share": float(b.mean()),
            "difference": float(d.mean()),
            "difference_low": float(d.mean() - half),
            "difference_high": float(d.mean() + half),
        }

    def per_game(self, weights, games, seed, buffers=None, first=False):
        """The candidate's win share in each of `games` games (slot 0 is the candidate); first=True: also the
        win share of the first player in turn order (a balance verdict the tuning may move)."""
        games = self.games_for(games)
        out = simulate(self.game, self.design(weights, games), self.pvec, seed, 0, games, buffers)
        share = out["seat_f"][:games, :, 1]
        cand = np.where(out["strat"][:games] == 0, share, 0.0).sum(axis=1)
        if not first:
            return cand
        order = out["seat_int"][:games, :, list(self.game.seat_columns).index("order")]
        return cand, np.where(order == 0, share, 0.0).sum(axis=1)


def _request(problem, args):
    return {
        "game": problem.game.name,
        "strategy": problem.base.name,
        "strategy_weights": list(problem.base.weights),
        "players": problem.players,
        "knobs": problem.names,
        "field": list(problem.opponents),
        **({"mixture": list(problem.mixture[1])} if problem.mixture else {}),
        "games_per_eval": args["games_per_eval"],
        "evals": args["evals"],
        "seed": args["seed"],
        "popsize": args["popsize"],
        "params": problem.game.params.changed(problem.pvec),
        "game_code": problem.game.code_version(),
    }


class Log:
    """evaluations.csv: one row per finished evaluation, flushed to disk as it is written."""

    def __init__(self, path, names):
        self.path = path
        self.names = names
        self.fields = ["gen", "k", "kind", *[f"knob.{n}" for n in names], "win_share", "games", "seed", "seconds"]
        self.rows = {}
        if path.exists():
            with open(path, newline="") as f:
                for row in csv.DictReader(f):
                    if row.get("seconds") in (None, ""):
                        continue  # a line cut by a kill: played again
                    self.rows[(int(row["gen"]), row["k"])] = row
            # rewrite without any torn last line, so appends start on a fresh line
            self._rewrite()
        else:
            self._rewrite()

    def _rewrite(self):
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "w", newline="") as f:
            w = csv.DictWriter(f, self.fields)
            w.writeheader()
            for row in self.rows.values():
                w.writerow(row)
        tmp.replace(self.path)

    def get(self, gen, k):
        row = self.rows.get((gen, str(k)))
        return None if row is None else float(row["win_share"])

    def add(self, gen, k, kind, values, share, games, seed, seconds):
        row = {
            "gen": gen,
            "k": str(k),
            "kind": kind,
            **{f"knob.{n}": repr(values[n]) for n in self.names},
            "win_share": repr(float(share)),
            "games": games,
            "seed": seed,
            "seconds": round(seconds, 3),
        }
        with open(self.path, "a", newline="") as f:
            csv.DictWriter(f, self.fields).writerow(row)
            f.flush()
            os.fsync(f.fileno())
        self.rows[(gen, str(k))] = row

    def __len__(self):
        return len(self.rows)


def default_popsize(dim):
    """CMA-ES's default candidates per generation for dim coordinates (cma's 4 + 3 ln dim)."""
    return 4 + int(3 * math.log(dim))


def tune(
    study,
    strategy,
    evals=200,
    games_per_eval=2000,
    popsize=None,
    knobs=None,
    field=None,
    final_games=None,
    name=None,
    fresh=False,
    stop_after=None,
    mixture=None,
    bonus=None,
    sigma0=None,
):
    """Run (or resume) a tuning of `strategy` in the study's game (one player count; its seed, parameter
    overrides and folder `study.out`); returns the result dict (also written to out/result.json).  The folder is
    locked for the whole tuning (sim.lock), like a run's.

    stop_after: stop (as if interrupted) after this many new evaluations (tests of resume).
    bonus: (description, fn(weights) -> float) added to every evaluation's win share (sim improve's agreement
    with search); evaluations.csv's win_share column then holds that sum.
    sigma0: CMA-ES's initial step in the scaled space (default SIGMA0; sim improve refines near the preset)."""

    seed, out, progress, command = study.seed, study.out, study.progress, study.command
    evals = number(evals, "--evals", 2, whole=True)
    games_per_eval = number(games_per_eval, "--games-per-eval", 1, MAX_GAMES, whole=True)
    if final_games is not None:
        final_games = number(final_games, "--final-games", 1, MAX_GAMES, whole=True)
    problem = Problem(study.spec, strategy, study.player_count("tune"), field, knobs, study.overrides, mixture)
    dim = len(problem.x0())
    popsize = number(popsize, "--popsize", 2, MAX_EVALS, whole=True) if popsize else default_popsize(dim)
    final_games = problem.games_for(final_games or max(10 * games_per_eval, 10_000))
    name = name or f"{problem.base.name}_tuned"
    args = {"evals": int(evals), "games_per_eval": problem.games_for(games_per_eval), "seed": seed, "popsize": popsize}
    request = _request(problem, args)
    if bonus:
        request["bonus"] = bonus[0]
    if sigma0 is not None:
        request["sigma0"] = args["sigma0"] = number(sigma0, "--sigma0", 0.001, 1.0)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} is a file, not a folder; choose another --out")
    with FolderLock(out, "sim tune"):  # one tuning per folder: a second one refuses in one line
        return _tune_locked(
            problem, args, request, out, popsize, final_games, name, fresh, progress, command, seed, stop_after, bonus
        )


def _tune_locked(
    problem, args, request, out, popsize, final_games, name, fresh, progress, command, seed, stop_after, bonus
):
    """The tuning in its folder (locked): open the folder, run the search, compare, write the outputs."""
    _open_tuning_folder(out, request, fresh)
    log = Log(out / "evaluations.csv", problem.names)
    es, gen, pending = _cma_state(out / "state.pkl", problem, popsize, seed, args.get("sigma0", SIGMA0))
    gen, new, search_s = _search(problem, args, out, log, es, gen, pending, popsize, seed, progress, stop_after, bonus)
    best = problem.values(es.result.xfavorite)
    final = _final_comparison(problem, problem.weights(best), final_games, seed)
    result = _result(problem, args, log, name, best, gen, popsize, seed, final, search_s, new, command)
    _write_outputs(out, problem, log, name, best, seed, args, final, result)
    return result


def _open_tuning_folder(out, request, fresh):
    """Create the folder, or check that it holds this tuning (then it resumes); --fresh clears another one."""
    if out.exists() and (out / "request.json").exists():
        old = json.loads((out / "request.json").read_text())
        if old != request:
            if not fresh:
                keys = sorted(k for k in set(old) | set(request) if old.get(k) != request.get(k))
                raise UserError(
                    f"{out} holds a different tuning (differs in: {', '.join(keys)}); choose another "
                    f"--out or pass --fresh"
                )
            for f in ("request.json", "state.pkl", "evaluations.csv", "result.json"):
                (out / f).unlink(missing_ok=True)
    elif out.exists() and any(out.iterdir()) and not fresh:
        raise UserError(f"{out} already holds other files; choose another --out or pass --fresh")
    out.mkdir(parents=True, exist_ok=True)
    _atomic_bytes(out / "request.json", json.dumps(request, indent=1).encode())


def _cma_state(state_path, problem, popsize, seed, sigma0=SIGMA0):
    """(evolution strategy, generation, candidates asked but not yet told): saved ones, or a fresh start."""
    import cma

    if state_path.exists():
        st = pickle.loads(state_path.read_bytes())
        np.random.set_state(st["np_random"])
        return st["es"], st["gen"], st["pending"]
    es = cma.CMAEvolutionStrategy(
        problem.x0(), sigma0, {"bounds": [0, 1], "popsize": popsize, "seed": seed % (2**31 - 2) + 1, "verbose": -9}
    )
    return es, 0, None


def _save_state(state_path, es, gen, pending):
    _atomic_bytes(
        state_path, pickle.dumps({"es": es, "gen": gen, "pending": pending, "np_random": np.random.get_state()})
    )


def _search(problem, args, out, log, es, gen, pending, popsize, seed, progress, stop_after, bonus):
    """CMA-ES generations until the budget or cma's own stop; every evaluation logged, the state saved after every
    ask and tell, so an interruption resumes exactly.  Returns (generations, evaluations of this session, seconds
    after the compile)."""
    evals = args["evals"]
    state_path = out / "state.pkl"
    bar = _progress(int(evals), len(log), progress, f"tune {problem.base.name}")
    buffers = output_buffers(problem.game, args["games_per_eval"])
    simulate(problem.game, problem.design(problem.base.weights, problem.players), problem.pvec, 0, 0, 1)  # compile
    t0 = time.perf_counter()
    new = [0]
    try:
        while True:
            if pending is None:
                if len(log) + popsize + 1 > evals or es.stop():
                    break
                pending = [list(map(float, x)) for x in es.ask()]
                _save_state(state_path, es, gen, pending)
            shares = _generation(problem, args, log, es, gen, pending, seed, buffers, stop_after, bonus, bar, new)
            es.tell(pending, [-s for s in shares[: len(pending)]])
            gen += 1
            pending = None
            _save_state(state_path, es, gen, None)
    except KeyboardInterrupt:
        bar.close()
        print(
            f"interrupted: {len(log)} evaluations are kept in {out}; run the same command again to resume",
            file=sys.stderr,
        )
        raise
    bar.close()
    return gen, new[0], time.perf_counter() - t0


def _generation(problem, args, log, es, gen, pending, seed, buffers, stop_after, bonus, bar, new):
    """The win shares of one generation's candidates and its incumbent (the mean), on the generation's common
    seeds; those already in the log are read, not played.  new[0] counts the evaluations played."""
    gseed = _seed(seed, 1, gen)
    shares = []
    for k, x in enumerate(pending + [list(map(float, es.mean))]):
        kind = "candidate" if k < len(pending) else "incumbent"
        key = k if kind == "candidate" else "mean"
        share = log.get(gen, key)
        if share is None:
            if stop_after is not None and new[0] >= stop_after:
                raise KeyboardInterrupt
            values = problem.values(x)
            t = time.perf_counter()
            w = problem.weights(values)
            share = float(problem.per_game(w, args["games_per_eval"], gseed, buffers).mean())
            share += float(bonus[1](w)) if bonus else 0.0
            log.add(gen, key, kind, values, share, args["games_per_eval"], gseed, time.perf_counter() - t)
            new[0] += 1
            bar.update(1)
        shares.append(share)
    return shares


def _final_comparison(problem, tuned_w, final_games, seed):
    """The tuned preset against the starting one on fresh common seeds: per-game win shares (a, b), the first
    player's (fa, fb), the same-table comparison, the seed and the seconds taken."""
    fseed = _seed(seed, 2)
    t = time.perf_counter()
    a, fa = problem.per_game(tuned_w, final_games, fseed, first=True)
    b, fb = problem.per_game(problem.base.weights, final_games, fseed, first=True)
    same = problem.same_table(tuned_w, final_games, fseed) if problem.players >= 3 and not problem.mixture else None
    return {"a": a, "b": b, "fa": fa, "fb": fb, "same": same, "seed": fseed, "seconds": time.perf_counter() - t}


def _half(v):
    """Half-width of the 95% interval of the mean of v."""
    return Z95 * v.std(ddof=1) / math.sqrt(len(v))


def _result(problem, args, log, name, best, gen, popsize, seed, final, search_s, new, command):
    a, b, fa, fb = final["a"], final["b"], final["fa"], final["fb"]
    d, fd = a - b, fa - fb
    half, fhalf = _half(d), _half(fd)
    return {
        "game": problem.game.name,
        "strategy": problem.base.name,
        "players": problem.players,
        "field": list(problem.opponents),
        "knobs": problem.names,
        "preset": name,
        "tuned": {k.name: k.show(v) for k, v in zip(problem.knobs, [best[n] for n in problem.names])},
        "start": {k.name: k.show(problem.base.weights[problem.base.knobs.index(k.name)]) for k in problem.knobs},
        "evaluations": len(log),
        "generations": gen,
        "games_per_eval": args["games_per_eval"],
        "popsize": popsize,
        "seed": seed,
        "final": {
            "games": len(d),
            "seed": final["seed"],
            "tuned_share": float(a.mean()),
            "tuned_half_width": float(_half(a)),
            "start_share": float(b.mean()),
            "start_half_width": float(_half(b)),
            "difference": float(d.mean()),
            "difference_low": float(d.mean() - half),
            "difference_high": float(d.mean() + half),
            "significant": bool(d.mean() - half > 0 or d.mean() + half < 0),
        },
        "same_table": final["same"],
        # the first player's win share at the tuning table, with the starting preset and with the tuned one
        "first_player": {
            "fair": 1.0 / problem.players,
            "start": float(fb.mean()),
            "tuned": float(fa.mean()),
            "difference": float(fd.mean()),
            "difference_low": float(fd.mean() - fhalf),
            "difference_high": float(fd.mean() + fhalf),
            "moved": bool(fd.mean() - fhalf > 0 or fd.mean() + fhalf < 0),
        },
        "seconds": {"search_this_session": round(search_s, 1), "final": round(final["seconds"], 1)},
        "evaluations_this_session": new,
        "command": command or " ".join(sys.argv),
    }


def _write_outputs(out, problem, log, name, best, seed, args, final, result):
    """result.json, evaluations.parquet and the tuned preset file `<name>.toml`."""
    _atomic_bytes(out / "result.json", json.dumps(result, indent=1).encode())
    _write_parquet(out, log)
    a, b = final["a"], final["b"]
    d = a - b
    half = _half(d)
    doc = (
        f"{problem.base.name} tuned by sim tune for {problem.players} players against "
        f"{', '.join(problem.opponents)}: win share {a.mean():.4f} vs {b.mean():.4f} for {problem.base.name} "
        f"(difference {d.mean():+.4f}, 95% interval {d.mean() - half:+.4f} to {d.mean() + half:+.4f}, "
        f"{len(d)} paired games on fresh seeds)."
    )
    write_preset_file(
        out / f"{name}.toml",
        problem.game,
        name,
        problem.base.name,
        {n: (int(best[n]) if k.kind != "float" else best[n]) for n, k in zip(problem.names, problem.knobs)},
        doc=doc,
        command=result["command"],
        tuning={
            "evaluations": len(log),
            "games_per_eval": args["games_per_eval"],
            "seed": seed,
            "players": problem.players,
        },
    )


def _write_parquet(out, log):
    import pandas as pd

    frame = pd.read_csv(out / "evaluations.csv")
    frame.to_parquet(out / "evaluations.parquet", index=False)


def report_lines(r):
    f = r["final"]
    verdict = (
        "better"
        if f["significant"] and f["difference"] > 0
        else ("worse" if f["significant"] else "not significantly different")
    )

    def short(v):
        return v if v in ("on", "off") else f"{float(v):.4g}"

    changed = ", ".join(
        f"{k} {short(r['start'][k])} -> {short(v)}" for k, v in r["tuned"].items() if short(v) != short(r["start"][k])
    )
    return [
        f"{r['game']}, {r['players']} players, {r['strategy']} against {', '.join(r['field'])}: "
        f"{r['evaluations']} evaluations x {r['games_per_eval']} games ({r['generations']} generations)",
        f"  tuned knobs: {changed or 'unchanged'}",
        f"  fresh seeds, {f['games']} paired games: tuned {f['tuned_share']:.4f} +/- {f['tuned_half_width']:.4f}, "
        f"start {f['start_share']:.4f} +/- {f['start_half_width']:.4f}; difference {f['difference']:+.4f} "
        f"(95% {f['difference_low']:+.4f} to {f['difference_high']:+.4f}): {verdict}",
        *(
            [
                f"  at one table ({r['same_table']['games']} games): tuned {r['same_table']['tuned_share']:.4f}, "
                f"start {r['same_table']['start_share']:.4f}; difference {r['same_table']['difference']:+.4f} "
                f"(95% {r['same_table']['difference_low']:+.4f} to {r['same_table']['difference_high']:+.4f})"
            ]
            if r.get("same_table")
            else []
        ),
        *(
            [
                f"  first player's win share at this table (fair {r['first_player']['fair']:.4f}): "
                f"{r['first_player']['start']:.4f} with {r['strategy']}, {r['first_player']['tuned']:.4f} tuned "
                f"(difference {r['first_player']['difference']:+.4f}, 95% {r['first_player']['difference_low']:+.4f} "
                f"to {r['first_player']['difference_high']:+.4f}: "
                f"{'moved' if r['first_player']['moved'] else 'not moved'})"
            ]
            if r.get("first_player")
            else []
        ),
        f"  search {r['seconds']['search_this_session']} s this session, final comparison {r['seconds']['final']} s",
    ]


class _NoBar:
    def update(self, n):
        pass

    def close(self):
        pass


def _progress(total, initial, enabled, desc):
    if not enabled:
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=min(initial, total), unit=" evals", desc=desc, dynamic_ncols=True)
