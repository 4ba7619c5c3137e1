"""Strength and speed of the search player (issue 24): one search seat against the game's default heuristics,
every rotation of each seed (common random numbers), win share with a 95% interval against the fair share 1/n.

    python bench/search_strength.py GAME [--players N] [--games G] [--search search16 ...]

Prints per search preset: games, win share [interval], fair share, seconds per game, rollouts per second."""

import argparse
import math
import time

from sim.game import get_game
from sim.runner import prepare, simulate
from sim.search import rollout_preset


def measure(game, players, games, name, seed=1):
    spec = get_game(game)
    others = [s for s in spec.default_lineup if s != "random"]
    lineup = [name] + [others[i % len(others)] for i in range(players - 1)]
    _, design, pvec = prepare(spec, (players,), games, lineup, None, True, None)
    simulate(spec, design, pvec, seed, 0, 1)  # compile
    t, cpu = time.perf_counter(), time.process_time()
    out = simulate(spec, design, pvec, seed, 0, design.total)
    dt, dcpu = time.perf_counter() - t, time.process_time() - cpu
    slot = design.slots.index(name)
    seats = out["strat"][:, :players]
    share = out["seat_f"][:, :players, 1][seats == slot]
    # one value per seed group (its rotations share the dice): the interval is over groups
    per_group = share.reshape(-1, players).mean(1) if len(share) % players == 0 else share
    mean = float(share.mean())
    half = 1.96 * float(per_group.std(ddof=1)) / math.sqrt(len(per_group))
    return {
        "game": game,
        "players": players,
        "search": name,
        "opponents": lineup[1:],
        "games": int(design.total),
        "win_share": round(mean, 4),
        "lo": round(mean - half, 4),
        "hi": round(mean + half, 4),
        "fair": round(1 / players, 4),
        "s_per_game": round(dt / design.total, 4),
        "cpu_s_per_game": round(dcpu / design.total, 4),
    }


def rollout_speed(game, players, games=200, seed=1):
    """Games per second with the rollout preset in every seat on one thread: a rollout is one such game (from
    the decision on), so this bounds rollouts per second."""
    import numba

    spec = get_game(game)
    _, design, pvec = prepare(spec, (players,), games, [rollout_preset(spec).name], None, False, None)
    simulate(spec, design, pvec, seed, 0, 1)
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    t = time.perf_counter()
    simulate(spec, design, pvec, seed, 0, design.total)
    dt = time.perf_counter() - t
    numba.set_num_threads(old)
    return games / dt


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("--players", type=int)
    ap.add_argument("--games", type=int, default=100, help="seeds (each played in every rotation)")
    ap.add_argument("--search", nargs="+", default=["search"])
    a = ap.parse_args()
    n = a.players or get_game(a.game).default_players
    print(f"{a.game} {n}p: {rollout_speed(a.game, n):.0f} whole games/s single-thread with the rollout preset")
    for name in a.search:
        print(measure(a.game, n, a.games, name))
