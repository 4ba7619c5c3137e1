"""Steps per second through each bridge, per game: `python -m sim.interop.bench [GAME ...] [--seconds S]
[--players N] [--json FILE]`.  A step is one move chosen uniformly at random and applied: through OpenSpiel,
`legal_actions()` then `apply_action()` on a BalanceLabState; through PettingZoo, `last()` (the observation
with its action mask) then `step()`.  Games are restarted until S seconds of process CPU time have passed (a
first short game warms the engine's compiled code up and is not counted)."""

import argparse
import json
import sys
import time

import numpy as np


def openspiel_rate(name, players, seconds, seed=1):
    from . import openspiel as osp

    g = osp.game(name, players=players, seed=seed)
    rng = np.random.default_rng(seed)
    steps, t0 = 0, None
    while t0 is None or time.process_time() - t0 < seconds:
        s = g.new_initial_state()
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[rng.integers(len(legal))])
            steps += t0 is not None
        if t0 is None:
            t0 = time.process_time()
    return steps / (time.process_time() - t0)


def pettingzoo_rate(name, players, seconds, seed=1):
    from .pettingzoo import env

    e = env(name, players=players)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps, t0 = 0, None
    while t0 is None or time.process_time() - t0 < seconds:
        e.reset()
        for _ in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += t0 is not None
        if t0 is None:
            t0 = time.process_time()
    return steps / (time.process_time() - t0)


def main(argv=None):
    from sim.game import game_names, get_game

    ap = argparse.ArgumentParser(prog="python -m sim.interop.bench", description=__doc__.split("\n")[0])
    ap.add_argument("games", nargs="*", help="games (default: all)")
    ap.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per game and bridge (default 5)")
    ap.add_argument("--players", type=int, help="player count (default: each game's default)")
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args(argv)
    names = args.games or game_names()
    for n in names:
        if n not in game_names():
            print(f"error: unknown game '{n}'; valid: {', '.join(game_names())}", file=sys.stderr)
            return 2
    rows = []
    for n in names:
        players = args.players or get_game(n).default_players
        row = {"game": n, "players": players}
        row["openspiel_steps_per_s"] = round(openspiel_rate(n, players, args.seconds), 1)
        row["pettingzoo_steps_per_s"] = round(pettingzoo_rate(n, players, args.seconds), 1)
        rows.append(row)
        print(
            f"{n} ({players} players): OpenSpiel {row['openspiel_steps_per_s']:,.0f} steps/s, "
            f"PettingZoo {row['pettingzoo_steps_per_s']:,.0f} steps/s",
            flush=True,
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
