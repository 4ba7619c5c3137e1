"""`sim cost`: the measured CPU cost of `sim field` and `sim improve` for a game at their default budgets.

Measured on one thread (numba's threads set to 1): games/s of the preset's games (the default line-up), rollouts/s
of the audit's kernel (sim.audit.rollout_rate) and seconds per game with one `search<R>@preset` seat.  The cost of a
command is then its games and rollouts at the default budget divided by those rates: a field plays every line-up of
the pool (C(n + k - 1, n) of them) with --games each, and per best response a tuning (--evals x --games-per-eval)
and the paired gains (two plays of --final-games per candidate: the tuned response and each pool member); an
improvement per iteration evaluates --positions decisions (at most cap x --rollouts rollouts, about half a game each),
a tuning, the closing comparison (2 x --final-games) and search's gain (--search-games with search, as many without).
Figures are CPU hours on this machine, at most (PSRO may stop early; tunings may stop early).
"""

import inspect
import json
import math
import resource
import time
from pathlib import Path

import numba


def cpu_now():
    """User + system CPU seconds of this process (all its threads) and of its finished children."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


class CpuMeter:
    """CPU seconds of a resumable command over all its sessions: what the work folder's cpu.json recorded before
    plus this session's (cpu_now since the meter started).  save() records the total; a session interrupted
    between saves loses only what it spent since the last one."""

    def __init__(self, work):
        self.path = Path(work) / "cpu.json"
        self.before = float(json.loads(self.path.read_text())["process_cpu_seconds"]) if self.path.exists() else 0.0
        self.start = cpu_now()

    def total(self):
        return self.before + cpu_now() - self.start

    def save(self):
        total = self.total()
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps({"process_cpu_seconds": total}))
        tmp.replace(self.path)
        return total


def _defaults(fn):
    return {k: v.default for k, v in inspect.signature(fn).parameters.items() if v.default is not inspect._empty}


def _games_per_second(spec, players, lineup, games):
    from .runner import prepare, simulate

    _, design, pvec = prepare(spec, (players,), games, lineup, None, False, None)
    simulate(spec, design, pvec, 0, 0, min(games, players))  # compile or load outside the timing
    t = time.perf_counter()
    simulate(spec, design, pvec, 1, 0, games)
    return games / (time.perf_counter() - t)


def cost(game, players=None, pool=None, strategy=None, games=2000, search_games=None):
    """{figures}: the rates measured and the CPU hours of a field and of an improvement at the default budgets."""
    from .audit import rollout_rate
    from .field import run_field
    from .game import get_game
    from .improve import improve
    from .search import rollout_preset

    spec = get_game(game) if isinstance(game, str) else game
    players = int(players or spec.default_players)
    numba.set_num_threads(1)
    pool = list(pool or dict.fromkeys(spec.default_lineup))
    strategy = strategy or rollout_preset(spec).name
    rate = _games_per_second(spec, players, pool, games)
    fd, im = _defaults(run_field), _defaults(improve)
    k = len(pool)
    lineups = math.comb(players + k - 1, players)
    per_br = fd["evals"] * fd["games_per_eval"] + 2 * fd["final_games"] * (k + fd["iterations"])
    field_games = lineups * fd["games"] + fd["iterations"] * per_br
    # the pool grows by one per best response: the later tables have more line-ups
    field_games += (
        sum(math.comb(players + k + i - 1, players) - lineups for i in range(1, fd["iterations"])) * fd["games"]
    )
    rr, _, _ = rollout_rate(spec, players, games=8, rollouts=8, cap=4)
    sg = search_games or players
    hero = f"search{im['search_rollouts']}@{strategy}"
    _games_per_second(spec, players, [hero] + [strategy] * (players - 1), players)  # compile and warm
    t = time.perf_counter()
    from .runner import prepare, simulate

    _, design, pvec = prepare(spec, (players,), sg, [hero] + [strategy] * (players - 1), None, False, None)
    simulate(spec, design, pvec, 2, 0, sg)
    search_s = (time.perf_counter() - t) / sg
    positions_rollouts = im["positions"] * im["cap"] * im["rollouts"]
    imp_games = im["evals"] * im["games_per_eval"] + 2 * im["final_games"] + im["search_games"]
    imp_s = im["iterations"] * (positions_rollouts / rr + imp_games / rate + im["search_games"] * search_s)
    return {
        "game": spec.name,
        "players": players,
        "pool": pool,
        "strategy": strategy,
        "games_per_second_1_thread": round(rate, 1),
        "rollouts_per_second_1_thread": round(rr, 1),
        "seconds_per_game_with_one_search_seat": round(search_s, 4),
        "field": {"budget": fd, "line_ups": lineups, "games": int(field_games), "cpu_hours": field_games / rate / 3600},
        "improve": {"budget": im, "cpu_hours": imp_s / 3600},
    }


def report_lines(c):
    f, i = c["field"], c["improve"]
    return [
        f"{c['game']} at {c['players']} players, one thread: {c['games_per_second_1_thread']:,.0f} games/s "
        f"({', '.join(c['pool'])}), {c['rollouts_per_second_1_thread']:,.0f} rollouts/s, "
        f"{c['seconds_per_game_with_one_search_seat']:.3f} s a game with one search seat",
        f"  sim field at its default budget: {f['line_ups']} line-ups in the first table, about {f['games']:,} games: "
        f"{f['cpu_hours']:.3g} CPU hours at most",
        f"  sim improve --strategy {c['strategy']} at its default budget: {i['cpu_hours']:.3g} CPU hours",
    ]
