"""Strength and speed of the search player (issue 24): one search seat against the game's default heuristics,
every rotation of each seed (common random numbers), win share with a 95% interval against the fair share 1/n, and
the paired gain over the heuristic: the same seeds and rotations played with the rollout heuristic in the search's
seat (--unpaired skips it).

    python bench/search_strength.py GAME [--players 3-8] [--games G] [--search search4 search search64] [--json F]
    python bench/search_strength.py GAME --players 4 --games G --search search search64 --versus search_flat --threads 1
    python bench/search_strength.py GAME --players 4 --games G --opponents field

Prints per search preset: games, win share [interval], fair share, paired gain [interval] and the share of games the
search changed, seconds per game, rollouts per second."""

import argparse
import json
import math
import os
import time

import numpy as np

from sim.game import get_game
from sim.runner import prepare, simulate
from sim.search import rollout_preset


def play(spec, design, pvec, seed):
    """Play the design (after a one-game compile); return its output arrays, wall and process CPU seconds."""
    simulate(spec, design, pvec, seed, 0, 1)
    t, cpu = time.perf_counter(), time.process_time()
    out = simulate(spec, design, pvec, seed, 0, design.total)
    return out, time.perf_counter() - t, time.process_time() - cpu


def interval(values, players):
    """Mean and 95% half-width, one value per seed group (its rotations share the dice): the interval is over
    groups."""
    per_group = values.reshape(-1, players).mean(1) if len(values) % players == 0 else values
    return float(values.mean()), 1.96 * float(per_group.std(ddof=1)) / math.sqrt(len(per_group))


def measure(game, players, games, name, seed=1, paired=True, preset=None):
    """The search seat's win share against the fair share; with `paired`, also the same seeds and rotations played
    with the rollout heuristic in the search's seat, and the paired difference (search minus heuristic, same seat,
    same dice).  Where the heuristic draws nothing from the policy stream (BANG) the two games are identical until
    the search leaves the heuristic's choice, so the paired difference measures the search's own gain with far
    less noise than the win share against 1/n.  With `preset`, that preset plays every other seat and is the
    heuristic paired with the search (search's gain over a preset playing itself, e.g. an improved one)."""
    spec = get_game(game)
    others = [preset] if preset else [s for s in spec.default_lineup if s != "random"]
    lineup = [name] + [others[i % len(others)] for i in range(players - 1)]
    _, design, pvec = prepare(spec, (players,), games, lineup, None, True, None)
    out, dt, dcpu = play(spec, design, pvec, seed)
    slot = design.slots.index(name)
    mask = out["strat"][:, :players] == slot
    share = out["seat_f"][:, :players, 1][mask]
    mean, half = interval(share, players)
    row = {
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
    if paired:
        heuristic = preset or rollout_preset(spec).name
        base_lineup = [heuristic] + lineup[1:]
        _, bdesign, _ = prepare(spec, (players,), games, base_lineup, None, True, None)
        bout, _, _ = play(spec, bdesign, pvec, seed)
        assert bdesign.total == design.total
        bshare = bout["seat_f"][:, :players, 1][mask]
        diff, dhalf = interval(share - bshare, players)
        row.update(
            {
                "paired_with": heuristic,
                "heuristic_share": round(float(bshare.mean()), 4),
                "gain": round(diff, 4),
                "gain_lo": round(diff - dhalf, 4),
                "gain_hi": round(diff + dhalf, 4),
                "games_changed": round(float((share != bshare).mean()), 4),
            }
        )
    return row


def versus(game, players, games, news, old, seed=1):
    """Search presets (or any strategies) `news` each against `old` in the same seat, on the same seeds and
    rotations against the default line-up (old is played once): one row per new one with each one's win share and
    CPU seconds per game, and the paired difference new - old with its 95% interval over seed groups (a point of the
    win-share-versus-CPU curve; the load average of the minute is recorded beside it)."""
    spec = get_game(game)
    others = [s for s in spec.default_lineup if s != "random"]
    rest = [others[i % len(others)] for i in range(players - 1)]
    shares, cpu = {}, {}
    for name in (old, *news):
        if name in shares:
            continue
        _, design, pvec = prepare(spec, (players,), games, [name] + rest, None, True, None)
        out, _, dcpu = play(spec, design, pvec, seed)
        mask = out["strat"][:, :players] == design.slots.index(name)
        shares[name] = out["seat_f"][:, :players, 1][mask]
        cpu[name] = dcpu / design.total
    rows = []
    for new in news:
        diff, half = interval(shares[new] - shares[old], players)
        row = {"game": game, "players": players, "new": new, "old": old, "opponents": rest, "games": len(shares[new])}
        for tag, name in (("new", new), ("old", old)):
            mean, h = interval(shares[name], players)
            row.update(
                {f"{tag}_share": round(mean, 4), f"{tag}_lo": round(mean - h, 4), f"{tag}_hi": round(mean + h, 4)}
            )
            row[f"{tag}_cpu_s_per_game"] = round(cpu[name], 4)
        row.update({"diff": round(diff, 4), "diff_lo": round(diff - half, 4), "diff_hi": round(diff + half, 4)})
        row.update({"cpu_ratio": round(cpu[new] / cpu[old], 3), "seed": seed, "load_average": os.getloadavg()[0]})
        rows.append(row)
    return rows


def measure_field(game, players, games, name, seed=1):
    """The search seat against the game's shipped field at `players` (strategies/<game>/fields/<n>p.json): the
    search in seat (game mod n), every other seat drawn from the field's mixture per game, paired with the same
    games where that seat too is drawn from the mixture (same draws elsewhere, same dice).  The gain is the search's
    win share minus the drawn preset's, with a 95% interval over games (each game has its own draws)."""
    from sim.field import field_gain, load_field
    from sim.knobs import roster
    from sim.seating import Design

    spec = get_game(game)
    names, weights, path = load_field(spec, players)
    pvec = spec.params.resolve({})
    slots = tuple(dict.fromkeys([name] + names))
    design = Design((players,), games, slots, tuple(names), "field", False, roster(spec, slots), hero=name,
                    mixture=tuple(weights), draw_seed=seed)  # fmt: skip
    out, dt, dcpu = play(spec, design, pvec, seed)
    seat = np.arange(design.total) % players
    share = out["seat_f"][: design.total, :, 1][np.arange(design.total), seat]
    gain, lo, hi, _ = field_gain(spec, pvec, players, names, weights, name, games, seed)
    half = 1.96 * float(share.std(ddof=1)) / math.sqrt(len(share))
    return {
        "game": game,
        "players": players,
        "search": name,
        "opponents": f"field {path.name}: " + ", ".join(f"{n} {w:.3f}" for n, w in zip(names, weights)),
        "games": int(design.total),
        "win_share": round(float(share.mean()), 4),
        "lo": round(float(share.mean()) - half, 4),
        "hi": round(float(share.mean()) + half, 4),
        "fair": round(1 / players, 4),
        "s_per_game": round(dt / design.total, 4),
        "cpu_s_per_game": round(dcpu / design.total, 4),
        "paired_with": "the field's draw in that seat",
        "heuristic_share": round(float(share.mean()) - gain, 4),
        "gain": round(gain, 4),
        "gain_lo": round(lo, 4),
        "gain_hi": round(hi, 4),
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


def player_counts(text, game):
    """'4', '3-8' or '2,4,6' (default: the game's usual count)."""
    spec = get_game(game)
    if not text:
        return [spec.default_players]
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(x) for x in text.split(",")]


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--players", help="a count, a range 3-8 or a list 2,4,6 (default: the game's usual count)")
    ap.add_argument("--games", type=int, default=100, help="games in all, every rotation of each seed included")
    ap.add_argument("--search", nargs="+", default=["search"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="append one JSON line per measurement to this file")
    ap.add_argument(
        "--versus",
        metavar="OLD",
        help="instead: each --search preset against OLD in the same seat on the same seeds (paired difference, "
        "CPU seconds per game of each; OLD is played once), e.g. --search search search64 --versus search_flat",
    )
    ap.add_argument("--threads", type=int, help="numba threads (default: all cores)")
    ap.add_argument(
        "--opponents",
        default="default",
        help="the other seats: the default line-up (default), `field`: drawn from the game's shipped field at that "
        "count (strategies/<game>/fields/<n>p.json), paired with the field's draw in the search's seat, or a preset "
        "of the game (with --strategy-file for a preset file): that preset in every other seat, paired with it in "
        "the search's seat",
    )
    ap.add_argument("--strategy-file", nargs="+", default=[], help="preset files to load (e.g. an improved preset)")
    ap.add_argument("--no-speed", action="store_true", help="skip the rollout-speed line")
    ap.add_argument(
        "--unpaired", action="store_true", help="skip the paired games with the heuristic in the search's seat"
    )
    a = ap.parse_args()
    if a.strategy_file:
        from sim.knobs import load_files

        load_files(a.game, a.strategy_file)
    preset = None if a.opponents in ("default", "field") else get_game(a.game).strategy(a.opponents).name
    if a.threads:
        import numba

        numba.set_num_threads(a.threads)
    for n in player_counts(a.players, a.game):
        if not a.no_speed:
            print(f"{a.game} {n}p: {rollout_speed(a.game, n):.0f} whole games/s single-thread with the rollout preset")
        if a.opponents == "field":
            rows = [measure_field(a.game, n, a.games, name, a.seed) for name in a.search]
        elif a.versus:
            rows = versus(a.game, n, a.games, a.search, a.versus, a.seed)
        else:
            rows = [measure(a.game, n, a.games, name, a.seed, not a.unpaired, preset) for name in a.search]
        for row in rows:
            print(row, flush=True)
            if a.json:
                with open(a.json, "a") as f:
                    f.write(json.dumps(row) + "\n")
