"""Before and after a bot fix of issue 24, with common random numbers: the same seeds played with the fix's knob
at its old value and at its new default, every preset of the line-up changed alike (or only the one named by
--only: a fix of one preset measured without changing its opponents).

    python bench/blunder_fix.py gunny_town --knob give_cost --old 0 --players 4 --games 20000
    python bench/blunder_fix.py cold_comfort --knob reserve --old 2 --only builder --players 4 --games 12000
    python bench/blunder_fix.py raccoon_tycoon --knob outbid_check --old 0 --players 2 --games 20000
    python bench/blunder_fix.py raccoon_tycoon --knob rich --old 0 --only building_engine --players 4 \
        --lineup rail_baron,town_builder,building_engine,balanced --games 20000

Prints per version: the first player's win share and each strategy's, with 95% intervals, and the paired
differences (new - old) over the same seeds of the first player's win share and of each strategy's."""

import argparse
import dataclasses
import math

import numpy as np

from sim.errors import UserError
from sim.game import get_game
from sim.runner import prepare, simulate


def play(spec, players, games, seed, knob, value, only=None, lineup=None):
    saved = spec.strategies
    if value is not None:
        spec.strategies = [
            dataclasses.replace(
                s,
                weights=tuple(
                    value if s.knobs is not None and i == s.knobs.index(knob) else x for i, x in enumerate(s.weights)
                ),
            )
            if only is None or s.name == only
            else s
            for s in saved
        ]
    try:
        _, design, pvec = prepare(spec, (players,), games, lineup, None, False, None)
        out = simulate(spec, design, pvec, seed, 0, design.total)
        cols = list(spec.seat_columns)
        order = out["seat_int"][:, :players, cols.index("order")]
        win = out["seat_f"][:, :players, 1]
        first = (win * (order == 0)).sum(1)
        res = {
            "first": first,
            "strat": out["strat"][:, :players],
            "win": win,
            "slots": design.slots,
            "seat_int": out["seat_int"][:, :players],
            "cols": cols,
        }
        return res
    finally:
        spec.strategies = saved


def ci(x):
    m = float(np.mean(x))
    return m, 1.96 * float(np.std(x, ddof=1)) / math.sqrt(len(x))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("--knob", required=True)
    ap.add_argument("--old", type=float, required=True)
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", help="change the knob in this preset only (default: every preset that has it)")
    ap.add_argument("--lineup", help="strategies rotated over the seats, comma-separated (default: the game's)")
    a = ap.parse_args()
    spec = get_game(a.game)
    if a.only is not None and a.only not in [s.name for s in spec.strategies]:
        ap.error(f"--only {a.only}: not a strategy of {a.game} ({', '.join(s.name for s in spec.strategies)})")
    lineup = a.lineup.split(",") if a.lineup else None
    try:
        runs = {
            "old": play(spec, a.players, a.games, a.seed, a.knob, a.old, a.only, lineup),
            "new": play(spec, a.players, a.games, a.seed, a.knob, None, lineup=lineup),
        }
    except UserError as e:
        ap.error(str(e))
    for name, r in runs.items():
        m, h = ci(r["first"])
        line = (
            f"{a.game} {a.players}p {name} ({a.knob}={'default' if name == 'new' else a.old}): first player "
            f"{m:.4f} +- {h:.4f}"
        )
        for k, slot in enumerate(r["slots"]):
            m2, h2 = ci(r["win"][r["strat"] == k])
            line += f"; {slot} {m2:.4f} +- {h2:.4f}"
        if a.game == "raccoon_tycoon":
            rr = r["seat_int"][:, :, r["cols"].index("railroads")]
            mono = ((rr.max(1) > 0) & ((rr > 0).sum(1) == 1)).mean()
            line += f"; games where one seat owns every railroad sold {mono:.4f}"
        print(line)
    d = runs["new"]["first"] - runs["old"]["first"]
    m, h = ci(d)
    print(
        f"paired difference new - old, first player's win share: {m:+.4f} +- {h:.4f} "
        f"(seeds where the first player's result is the same: {np.mean(d == 0):.3f})"
    )
    new, old = runs["new"], runs["old"]  # same seeds and seats: a strategy's seats match game by game
    for k, slot in enumerate(new["slots"]):
        seats = new["strat"] == k
        rows = seats.any(1)
        per_game = ((new["win"] - old["win"]) * seats).sum(1)[rows] / seats.sum(1)[rows]
        m, h = ci(per_game)
        print(f"paired difference new - old, {slot}'s win share per seat: {m:+.4f} +- {h:.4f}")
