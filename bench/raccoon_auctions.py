"""Raccoon Tycoon auction habits of one preset in self-play (issue 24 part 4): how often one player holds several
auctions in one turn (a starter who loses acts again), games where one seat owns every railroad sold, decisions
per game and capped games.  Games are replayed one by one with the event log on (slow: keep --games small).

    python bench/raccoon_auctions.py --players 4 --games 2000 [--set strategy.rail_baron.KNOB=V]
"""

import argparse

import numpy as np

from sim.game import get_game
from sim.games.raccoon_tycoon import engine as E
from sim.replay import play_logged
from sim.runner import prepare


def measure(players, games, seed, strategy, sets):
    spec = get_game("raccoon_tycoon")
    params = dict(x.split("=", 1) for x in sets)
    _, design, pvec = prepare(spec, (players,), games, strategies=[strategy] * players, params=params)
    turns_with_auction = 0
    multi = 0
    most = 0
    mono = 0
    steps = []
    capped = 0
    for g in range(games):
        r = play_logged(spec, design, pvec, seed, g)
        steps.append(len(r["moves"]))
        if len(r["moves"]) >= E.MAX_STEPS:
            capped += 1
        ev = r["events"]
        count = {}
        for row in ev:
            k = row[0]
            if k == E.E_TURN:
                for c in count.values():
                    turns_with_auction += 1
                    multi += c >= 2
                    most = max(most, c)
                count = {}
            elif k == E.E_AUCTION:
                count[row[1]] = count.get(row[1], 0) + 1
        for c in count.values():
            turns_with_auction += 1
            multi += c >= 2
            most = max(most, c)
        cols = list(spec.seat_columns)
        rr = r["seat_int"][:players, cols.index("railroads")]
        mono += int(rr.max() > 0 and (rr > 0).sum() == 1)
    steps = np.array(steps)
    return {
        "auction_turns": turns_with_auction,
        "multi_share": multi / max(turns_with_auction, 1),
        "most": most,
        "mono_share": mono / games,
        "steps_mean": float(steps.mean()),
        "steps_max": int(steps.max()),
        "capped": capped,
    }


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strategy", default="rail_baron")
    ap.add_argument("--set", action="append", default=[])
    a = ap.parse_args()
    m = measure(a.players, a.games, a.seed, a.strategy, a.set)
    n = a.games
    print(
        f"{a.strategy} x{a.players} {n} games {' '.join(a.set)}: auction turns {m['auction_turns']}, "
        f"share with 2+ auctions by one player {m['multi_share']:.3f}, most in one turn {m['most']}; "
        f"games where one seat owns every railroad {m['mono_share']:.3f}; decisions per game {m['steps_mean']:.0f} "
        f"(max {m['steps_max']}), capped {m['capped']}"
    )
