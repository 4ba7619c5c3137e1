"""A sweep's configurations and budgets: the product of its axes, the tasks still needed (adaptive rounds
included), and the dry run's time estimate."""

import itertools
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..check import chunk_state, read_record, request_id
from ..errors import UserError
from ..knobs import split_overrides
from ..runner import simulate
from ..seating import make_design
from .stats import add_stats, metric_interval
from .task import Task, game_ref, read_part_stats, task_expect


MAX_CONFIGS = 10_000  # configurations of one sweep (its manifest lists each; 160,000 made a 636 MB manifest)


@dataclass
class Config:
    """One configuration of a sweep: a player count, a line-up and a full parameter vector."""

    index: int
    players: int
    lineup: tuple  # strategy names (rotated), or per-seat names when fixed
    fixed: bool
    values: dict  # swept parameter -> value as written
    pvec: np.ndarray
    design: object = None  # seating.Design, sized for the configuration's maximum budget

    def label(self, with_lineup=False):
        parts = [f"{self.players}p"] + [f"{k}={v}" for k, v in self.values.items()]
        if with_lineup:
            parts.append(",".join(self.lineup))
        return " ".join(parts)


def expand(sweep, where="sweep"):
    """All configurations: product of the grid axes, the zipped rows, the player counts and the line-ups."""
    spec = sweep.spec
    axes = [[(name, v) for v in values] for name, values in sweep.grid.items()]
    if sweep.zipped:
        names = list(sweep.zipped)
        axes.append([tuple((n, sweep.zipped[n][i]) for n in names) for i in range(len(sweep.zipped[names[0]]))])
    configs = []
    count = math.prod(len(a) for a in axes) * len(sweep.players) * len(sweep.lineups)
    if count > MAX_CONFIGS:
        sizes = " x ".join(
            [str(len(a)) for a in axes] + [f"{len(sweep.players)} player counts", f"{len(sweep.lineups)} line-ups"]
        )
        raise UserError(
            f"{where} plans {count:,} configurations ({sizes}); at most {MAX_CONFIGS:,}: sweep fewer values, or "
            f"split it into several sweeps"
        )
    combos = itertools.product(*axes) if axes else [()]
    for combo in combos:
        values = {}
        for item in combo:
            pairs = item if isinstance(item[0], tuple) else (item,)
            for name, v in pairs:
                values[name] = v
        params, knobs = split_overrides({**sweep.overrides, **values})
        pvec = spec.params.resolve(params)
        for n in sweep.players:
            for lineup in sweep.lineups:
                try:
                    design = make_design(
                        spec,
                        (n,),
                        sweep.cap,
                        None if sweep.fixed else list(lineup),
                        list(lineup) if sweep.fixed else None,
                        sweep.all_rotations,
                        knobs,
                        sweep.mirror,
                    )
                except UserError as e:
                    raise UserError(f"{where}: {n} players, line-up {','.join(lineup)}: {e}") from None
                configs.append(Config(len(configs), n, tuple(lineup), sweep.fixed, dict(values), pvec, design))
    return configs


class Planner:
    """Which tasks a sweep still needs, deterministically, including the adaptive rounds.

    A configuration's chunks are scheduled in rounds.  When every chunk of the current round is done, the
    adaptive rule looks at all of that configuration's games so far and either stops or schedules more chunks.
    The decision depends only on finished chunks, never on timing, so a local run, a Dask run and a resumed run
    play exactly the same games.
    """

    def __init__(self, sweep, folder, records=None):
        self.sweep = sweep
        self.folder = str(Path(folder).resolve())
        cs = sweep.chunk_size
        self.scheduled = {c.index: -(-sweep.first_round // cs) for c in sweep.configs}  # chunks 0..m-1
        self.stats = {c.index: {} for c in sweep.configs}  # chunk -> stats
        self.submitted = set()
        self.finished = {}  # config -> reason
        self.rounds = {c.index: [] for c in sweep.configs}  # games at each adaptive decision
        self.game_ref = game_ref(sweep.spec)
        self.records = {p: dict(r) for p, r in (records or {}).items()}  # partition -> chunk -> record
        self.replayed = 0
        self.bad = set()  # (config, chunk) whose files failed the check
        self.run_id = request_id(sweep.request())
        for c in sweep.configs:
            self._load_done(c.index)

    def _stop(self, k, c):
        return (
            min(self.sweep.cap, (c + 1) * self.sweep.chunk_size)
            if self.sweep.adaptive
            else min(self.sweep.games, (c + 1) * self.sweep.chunk_size)
        )

    def _load_done(self, k):
        """Chunks already on disk count only when their part files pass sim.check; bad ones are reported and
        played again."""
        recs = self.records.get(f"config={k}", {})
        for c in range(-(-self.sweep.cap // self.sweep.chunk_size)):
            task = self.task(k, c)
            state, why = chunk_state(
                self.folder, c, task_expect(self.sweep.spec, task, recs.get(str(c)), run_id=self.run_id), task.partition
            )
            if state == "done":
                self.stats[k][c] = read_part_stats(self.sweep.spec, self.folder, k, c)
                saved = read_record(self.folder, c, task.partition)  # (a chunk done after the last manifest save)
                if saved and saved.get("tables"):
                    self.records.setdefault(task.partition, {})[str(c)] = saved["tables"]
            elif state == "bad":
                print(f"note: replaying {why}", file=sys.stderr)
                recs.pop(str(c), None)
                self.bad.add((k, c))
                self.replayed += 1

    def task(self, k, c):
        cfg = self.sweep.configs[k]
        return Task(
            self.game_ref,
            cfg.design,
            cfg.pvec,
            self.sweep.seed,
            self.folder,
            k,
            c,
            c * self.sweep.chunk_size,
            self._stop(k, c),
            (k, c) in getattr(self, "bad", ()),
            getattr(self, "run_id", None),
        )

    def games_planned(self, k):
        return (
            min(self.sweep.cap, self.scheduled[k] * self.sweep.chunk_size) if self.sweep.adaptive else self.sweep.games
        )

    def games_done(self, k):
        return int(sum(s["n"] for c, s in self.stats[k].items() if c < self.scheduled[k]))

    def totals(self, k):
        total = {}
        for c in range(self.scheduled[k]):
            total = add_stats(total, self.stats[k][c])
        return total

    def _advance(self, k):
        """Round done: stop, or schedule the next round (adaptive)."""
        ad = self.sweep.adaptive
        if not ad:
            self.finished[k] = "budget"
            return
        cs = self.sweep.chunk_size
        total = self.totals(k)
        n = total["n"]
        self.rounds[k].append(int(n))
        est, lo, hi = metric_interval(total, ad["metric"], self.sweep.confidence)
        width = hi - lo
        if width <= ad["width"]:
            self.finished[k] = "width"
            return
        if n >= self.sweep.cap:
            self.finished[k] = "max_games"
            return
        # the interval narrows like 1/sqrt(n): aim 10% past the estimate, at least one chunk, at most 4x
        need = n * (width / ad["width"]) ** 2 * 1.1 if width > 0 else n + cs
        target = min(max(need, n + cs), 4 * n, self.sweep.cap)
        self.scheduled[k] = -(-int(math.ceil(target)) // cs)

    def missing(self, k):
        """Chunks of configuration k still to play, after settling every round that is complete."""
        while k not in self.finished:
            missing = [c for c in range(self.scheduled[k]) if c not in self.stats[k]]
            if missing:
                return missing
            self._advance(k)
        return []

    def ready(self):
        """Tasks to start now (not done, not already submitted)."""
        out = []
        for cfg in self.sweep.configs:
            for c in self.missing(cfg.index):
                if (cfg.index, c) not in self.submitted:
                    self.submitted.add((cfg.index, c))
                    out.append(self.task(cfg.index, c))
        return out

    def complete(self, task, stats):
        record = stats.pop("_record", None)
        if record is not None:
            self.records.setdefault(task.partition, {})[str(task.chunk)] = record
        self.stats[task.config][task.chunk] = stats
        self.submitted.discard((task.config, task.chunk))

    @property
    def total_planned(self):
        return sum(self.games_planned(c.index) for c in self.sweep.configs)

    @property
    def total_done(self):
        return sum(self.games_done(c.index) for c in self.sweep.configs)


def describe(sweep, echo=print):
    """Print the configurations of a sweep (for --dry-run)."""
    budget = (
        f"{sweep.games} games each"
        if not sweep.adaptive
        else (
            f"{sweep.first_round} games first, adding chunks of {sweep.chunk_size} until the "
            f"{sweep.adaptive['metric']} interval is narrower than {sweep.adaptive['width']:g} "
            f"(at most {sweep.adaptive['max_games']})"
        )
    )
    echo(
        f"sweep of {sweep.spec.name}: {len(sweep.configs)} configurations, {budget}, seed {sweep.seed}, "
        f"chunks of {sweep.chunk_size}"
    )
    if sweep.overrides:
        echo("fixed: " + ", ".join(f"{k}={v}" for k, v in sweep.overrides.items()))
    for cfg in sweep.configs:
        seats = "seats" if cfg.fixed else "line-up"
        echo(
            f"  config={cfg.index:<4d} {cfg.players}p  {seats} {','.join(cfg.lineup)}  "
            + "  ".join(f"{k}={v}" for k, v in cfg.values.items())
        )


def estimate_seconds_per_game(sweep, sample_games=300, samples=3):
    """Time a few hundred games on up to `samples` configurations (first, middle, last) after compiling.

    Returns (seconds per game, compile or cache-load seconds)."""
    picks = sorted({0, len(sweep.configs) // 2, len(sweep.configs) - 1})[:samples]
    t0 = time.perf_counter()
    cfg = sweep.configs[0]
    simulate(sweep.spec, cfg.design, cfg.pvec, sweep.seed, 0, 1)
    compile_s = time.perf_counter() - t0
    played = 0
    t1 = time.perf_counter()
    for k in picks:
        cfg = sweep.configs[k]
        n = min(sample_games, sweep.cap)
        simulate(sweep.spec, cfg.design, cfg.pvec, sweep.seed, 0, n)
        played += n
    return (time.perf_counter() - t1) / max(played, 1), compile_s


def _fmt_seconds(s):
    if s < 90:
        return f"{s:.0f} s"
    if s < 5400:
        return f"{s / 60:.1f} min"
    return f"{s / 3600:.1f} h"


def dry_run(sweep, echo=print, sample_games=300):
    """Print the configurations and the estimated time on this machine; writes nothing."""
    import numba

    describe(sweep, echo)
    per_game, compile_s = estimate_seconds_per_game(sweep, sample_games)
    first = sweep.first_round * len(sweep.configs)
    line = (
        f"estimated time on this machine ({numba.get_num_threads()} threads): "
        f"{_fmt_seconds(first * per_game)} for {first:,} games"
    )
    if sweep.adaptive:
        most = sweep.cap * len(sweep.configs)
        line += f", up to {_fmt_seconds(most * per_game)} if every configuration needs {sweep.cap:,} games"
    echo(
        line + f" (timed {per_game * 1e6:.1f} us/game, plus {compile_s:.1f} s compile or cache load; "
        f"writing not included)"
    )
    return per_game
