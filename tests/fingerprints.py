"""Golden fingerprints: a hash of the complete output tables of 1,500 seeded games per setting, for every game.

A refactor or speed-up must leave every fingerprint as it was; a rule or strategy change that moves one says so in
its commit.  `make golden` (python -m tests.fingerprints --write) records them in tests/golden/<game>.json, with a
readable playthrough of one game per game in tests/golden/<game>.replay.txt, so a behaviour change also shows as a
diff a person can read.  tests/test_golden.py recomputes them.

Settings per game: the default line-up at every player count; every strategy and preset in one rotated line-up
at the smallest, the default and the largest player count; random players; and the game's modules and rule readings
listed in EXTRA below.
"""

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa

from sim.game import game_names, get_game
from sim.replay import game_lines
from sim.results import chunk_tables
from sim.runner import prepare, simulate

GAMES = 1500
SEED = 20261125
FOLDER = Path(__file__).resolve().parent / "golden"

BANG_MODULES = {
    "module.saloon_dice": "on",
    "module.chief_arrow": "on",
    "module.special_roles": "mixed",
    "module.new_characters": "on",
    "module.ghost": "on",
}

# Settings beyond the generic ones: (name, players, parameter overrides), played with the default line-up.
EXTRA = {
    "bang_dice": [
        ("all modules", 5, BANG_MODULES),
        ("all modules", 8, BANG_MODULES),
        ("all modules, Vera per die", 6, {**BANG_MODULES, "rule.vera_reduction_per": "die"}),
        ("bullseye can be wasted", 5, {"rule.bullseye_can_be_wasted": "on"}),
        ("3-player Indian kill counts", 3, {"rule.three_player_indian_kill_counts": "on"}),
    ],
    "raccoon_tycoon": [
        ("auctions may be declined", 4, {"rule.auction_open": "may_decline"}),
        (
            "upgrade pays the difference, same turn",
            3,
            {"rule.upgrade_cost": "difference", "rule.upgrade_same_turn": "on"},
        ),
        ("immediate end, production up to", 2, {"rule.game_end": "immediate", "rule.production_take": "up_to"}),
    ],
    "saloon_tycoon": [
        (
            "large footprints aligned, cubes one at a time",
            4,
            {"rule.large_footprints": "aligned", "rule.cube_purchase": "one_at_a_time"},
        ),
        ("bribes own saloon only", 3, {"rule.bribe_target": "own_only"}),
        ("Flatfoot checked at end of turn", 2, {"rule.flatfoot_check": "end_of_turn"}),
    ],
    "cold_comfort": [
        ("highest-die blocks", 4, {"score.block": "highest_die"}),
        ("resized hotel is new", 4, {"build.resized_is_new": "on"}),
        ("occupied hotels survive fire, optional pass", 3, {"fire.occupied": "survives", "fire.pass": "optional"}),
    ],
    "gunny_town": [
        ("fixed starting ammunition", 6, {"setup.start_ammo": "fixed"}),
        ("banker, gross casino payout", 4, {"option.banker": "on", "casino.payout": "gross"}),
        ("several weapons, overmatched cancels", 3, {"rule.several_weapons": "on", "rule.overmatched_equal": "cancel"}),
    ],
}


def settings(name):
    """Every setting fingerprinted for a game: dicts of name, players, lineup and params."""
    game = get_game(name)
    lo, hi = game.players
    everyone = tuple(game.strategy_names())
    out = [
        {"name": "default line-up", "players": n, "lineup": list(game.default_lineup), "params": {}}
        for n in range(lo, hi + 1)
    ]
    out += [
        {"name": "every strategy", "players": n, "lineup": list(everyone), "params": {}}
        for n in sorted({lo, game.default_players, hi})
    ]
    out.append({"name": "random players", "players": game.default_players, "lineup": ["random"], "params": {}})
    out += [
        {"name": label, "players": n, "lineup": list(game.default_lineup), "params": dict(params)}
        for label, n, params in EXTRA.get(name, [])
    ]
    return out


def _column_bytes(col):
    """A column's values as bytes that do not depend on how pyarrow lays it out (chunks, dictionary order)."""
    if pa.types.is_dictionary(col.type):
        col = col.cast(pa.string())
    if pa.types.is_string(col.type) or pa.types.is_large_string(col.type):
        return "\x1f".join("\x00" if v is None else v for v in col.to_pylist()).encode()
    values = col.to_numpy(zero_copy_only=False)
    return np.ascontiguousarray(values).tobytes()


def table_hash(table):
    h = hashlib.sha256()
    for name, col in zip(table.column_names, table.columns):
        h.update(f"{name}:{col.type}:{len(col)}\n".encode())
        h.update(_column_bytes(col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col))
    return h.hexdigest()


def play(name, setting, games=GAMES):
    """The three output tables of `games` seeded games of one setting."""
    spec, design, pvec = prepare(name, (setting["players"],), games, lineup=setting["lineup"], params=setting["params"])
    arrays = simulate(spec, design, pvec, SEED, 0, design.total)
    return chunk_tables(spec, design, 0, arrays)


def fingerprint(name, setting, games=GAMES):
    """Hash of the games, seats and items tables, plus a few readable figures that show the size of a change."""
    tables = play(name, setting, games)
    h = hashlib.sha256()
    for t in ("games", "seats", "items"):
        h.update(t.encode())
        h.update(table_hash(tables[t]).encode())
    seats = tables["seats"].to_pandas()
    games_t = tables["games"].to_pandas()
    summary = {
        "mean_steps": round(float(games_t["steps"].mean()), 3),
        "capped": int(games_t["capped"].sum()),
        "items": tables["items"].num_rows,
        "first_player_win_share": round(float(seats.loc[seats["order"] == 0, "win_share"].mean()), 4),
    }
    return h.hexdigest()[:32], summary


def playthrough(name):
    """Game 0 of the default line-up at the default player count, move by move (what `sim replay` prints)."""
    game = get_game(name)
    spec, design, pvec = prepare(name, (game.default_players,), 1)
    return "\n".join(game_lines(spec, design, pvec, SEED, 0, "golden playthrough")) + "\n"


def record(name):
    rows = []
    for setting in settings(name):
        digest, summary = fingerprint(name, setting)
        rows.append({**setting, "hash": digest, "summary": summary})
    return {"game": name, "games_per_setting": GAMES, "seed": SEED, "settings": rows}


def golden_path(name):
    return FOLDER / f"{name}.json"


def replay_path(name):
    return FOLDER / f"{name}.replay.txt"


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python -m tests.fingerprints",
        description="Record (--write) or check the golden fingerprints of every game.",
    )
    ap.add_argument("games", nargs="*", help="games to do (default: all)")
    ap.add_argument("--write", action="store_true", help="record them in tests/golden/ instead of checking")
    args = ap.parse_args(argv)
    names = args.games or game_names()
    bad = 0
    for name in names:
        if args.write:
            FOLDER.mkdir(exist_ok=True)
            golden_path(name).write_text(json.dumps(record(name), indent=1) + "\n")
            replay_path(name).write_text(playthrough(name))
            print(f"{name}: recorded {len(settings(name))} settings")
            continue
        old = json.loads(golden_path(name).read_text())
        for row in old["settings"]:
            setting = {k: row[k] for k in ("name", "players", "lineup", "params")}
            digest, summary = fingerprint(name, setting)
            if digest != row["hash"]:
                bad += 1
                print(f"{name} {row['name']} {row['players']}p: changed; was {row['summary']}, now {summary}")
        if replay_path(name).read_text() != playthrough(name):
            bad += 1
            print(f"{name}: the golden playthrough changed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
