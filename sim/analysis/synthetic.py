"""Synthetic results with known answers, in exactly the schema the core writes.

Used by the tests (a planted seat bias must be found, a planted item effect must have the right sign, planted
strategy strengths must come back in order) and handy in notebooks for trying an analysis without simulating.

The model: every seat in a game gets a log-strength

    eta = log(strategy strength) + order_bias[players][order] + sum of the effects of the items it acquired

and the finishing order is drawn from a Plackett-Luce model on exp(eta) (the winner with probability proportional to
exp(eta), then the runner-up among the rest, and so on). With probability `tie_rate` the two best seats tie for the
win and split it (win_share 1/2 each, both win=1, both rank 1). Scores are the reverse rank plus noise, so the
winner has the top score; vp_* columns split the score into two sources.
"""

import json
import os

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq


def _plackett_luce_ranks(rng, eta):
    """Ranks (0 = first) for each row of eta (games x players) drawn from Plackett-Luce via Gumbel noise."""
    g = eta + rng.gumbel(size=eta.shape)
    order = np.argsort(-g, axis=1)
    ranks = np.empty_like(order)
    rows = np.arange(eta.shape[0])[:, None]
    ranks[rows, order] = np.arange(eta.shape[1])[None, :]
    return ranks


def make_tables(
    n_games=2000,
    players=(4,),
    strategies=None,
    order_bias=None,
    items=None,
    tie_rate=0.0,
    first_player="random",
    seed=0,
    game_offset=0,
):
    """Build the games, seats and items DataFrames of one synthetic run.

    n_games: games per player count. players: player counts. strategies: {name: strength} (strength > 0,
    relative); the line-up is the strategies in dict order, cycled to the player count and rotated by game.
    order_bias: {players: [log-strength added by turn-order position 0..n-1]} (missing = none).
    items: {name: {"effect": log-strength added when acquired, "p": acquisition probability, "p_by_strategy":
    {strategy: p} overriding p, "kind": str, "p_winner": p}}: with p_winner the item is drawn after the game's
    outcome, with probability p_winner for the seats that won and p for the others ("leaders acquire it": no
    effect of its own, so its "effect" must be 0), "late": True (acquired in turns 7-9 rather than 1-9)}}.
    first_player: "random" (a random seat starts) or "seat0".
    Returns (games, seats, items) DataFrames.
    """
    rng = np.random.default_rng(seed)
    strategies = strategies or {"alpha": 1.0, "beta": 1.0, "gamma": 1.0, "delta": 1.0}
    order_bias = order_bias or {}
    items = items or {}
    names = list(strategies)
    strength = np.log(np.array([strategies[s] for s in names], dtype=float))
    item_names = list(items)
    games_out, seats_out, items_out = [], [], []
    gid = game_offset
    for n in players:
        G = n_games
        game_ids = np.arange(gid, gid + G, dtype=np.int64)
        gid += G
        rotation = (np.arange(G) % n).astype(np.int16)
        seat = np.arange(n)
        lineup = np.array([i % len(names) for i in range(n)])
        strat = lineup[(seat[None, :] + rotation[:, None]) % n]  # G x n strategy codes
        if first_player == "random":
            first = rng.integers(0, n, size=G)
        else:
            first = np.zeros(G, dtype=int)
        order = (seat[None, :] - first[:, None]) % n  # position in turn order
        eta = strength[strat] + np.asarray(order_bias.get(n, np.zeros(n)), dtype=float)[order]
        acquired = {}
        for it in item_names:
            spec = items[it]
            if "p_winner" in spec:
                continue  # drawn after the outcome, below
            p = np.full((G, n), float(spec.get("p", 0.3)))
            for s_name, ps in spec.get("p_by_strategy", {}).items():
                p[strat == names.index(s_name)] = ps
            got = rng.random((G, n)) < p
            acquired[it] = got
            eta = eta + got * float(spec.get("effect", 0.0))
        ranks = _plackett_luce_ranks(rng, eta)
        for it in item_names:
            spec = items[it]
            if "p_winner" in spec:
                p = np.where(ranks == 0, float(spec["p_winner"]), float(spec.get("p", 0.3)))
                acquired[it] = rng.random((G, n)) < p
        tie = rng.random(G) < tie_rate
        share = (ranks == 0).astype(float)
        win = (ranks == 0).astype(np.int8)
        rank_out = ranks + 1
        if n >= 2:
            second = ranks == 1
            tie2 = tie[:, None] & second
            share = np.where(tie[:, None] & ((ranks == 0) | second), 0.5, np.where(tie[:, None], 0.0, share))
            win = np.where(tie2, 1, win).astype(np.int8)
            rank_out = np.where(tie2, 1, np.where(tie[:, None] & (ranks > 1), ranks, rank_out))
        score = (n - ranks).astype(float) * 10 + rng.normal(0, 1, size=(G, n)).clip(-4, 4)
        score = np.where(tie[:, None] & (ranks <= 1), n * 10.0, score)  # a tie: the top two score the same
        vp_a = np.floor(score * rng.uniform(0.3, 0.7, size=(G, n)))
        turns = rng.integers(8, 20, size=G).astype(np.int32)
        games_out.append(
            pd.DataFrame(
                {
                    "game": game_ids,
                    "seed_index": np.arange(G, dtype=np.int64) // n,
                    "rotation": rotation,
                    "players": np.full(G, n, dtype=np.int8),
                    "steps": (turns * n * 3).astype(np.int32),
                    "capped": np.zeros(G, dtype=bool),
                    "turns": turns,
                    "end_reason": np.where(rng.random(G) < 0.8, "points", "deck"),
                }
            )
        )
        seats_out.append(
            pd.DataFrame(
                {
                    "game": np.repeat(game_ids, n),
                    "seat": np.tile(seat, G).astype(np.int8),
                    "players": np.full(G * n, n, dtype=np.int8),
                    "strategy": np.array(names, dtype=object)[strat.ravel()],
                    "score": score.ravel(),
                    "win_share": share.ravel(),
                    "rank": rank_out.ravel().astype(np.int64),
                    "win": win.ravel(),
                    "order": order.ravel().astype(np.int64),
                    "vp_a": vp_a.ravel(),
                    "vp_b": (np.round(score) - vp_a).ravel(),
                }
            )
        )
        for it in item_names:
            g_idx, s_idx = np.nonzero(acquired[it])
            if len(g_idx) == 0:
                continue
            items_out.append(
                pd.DataFrame(
                    {
                        "game": game_ids[g_idx],
                        "seat": s_idx.astype(np.int8),
                        "players": np.full(len(g_idx), n, np.int8),
                        "item": it,
                        "kind": items[it].get("kind", "card"),
                        "turn": (
                            rng.integers(7, 10, size=len(g_idx))
                            if items[it].get("late")
                            else rng.integers(1, 10, size=len(g_idx))
                        ).astype(np.int32),
                    }
                )
            )
    item_cols = {
        "game": np.int64,
        "seat": np.int8,
        "players": np.int8,
        "item": object,
        "kind": object,
        "turn": np.int32,
    }
    items_df = (
        pd.concat(items_out, ignore_index=True)
        if items_out
        else pd.DataFrame({c: pd.Series(dtype=t) for c, t in item_cols.items()})
    )
    return (pd.concat(games_out, ignore_index=True), pd.concat(seats_out, ignore_index=True), items_df)


def _write_table(df, folder, parts=2):
    os.makedirs(folder, exist_ok=True)
    chunks = np.array_split(np.arange(len(df)), max(1, parts)) if len(df) else [np.arange(0)]
    for i, idx in enumerate(chunks):
        table = pa.Table.from_pandas(df.iloc[idx].reset_index(drop=True), preserve_index=False)
        pq.write_table(table, os.path.join(folder, f"part-{i:05d}.parquet"))


def _manifest(game, players, strategies, seed, params=None, configs=None):
    m = {
        "game": game,
        "title": "Synthetic test game",
        "rules_version": "synthetic",
        "players": list(players),
        "seed": seed,
        "seating": {"mode": "rotate", "lineup": list(strategies), "all_rotations": False},
        "strategies": {s: {"strength": float(v)} for s, v in strategies.items()},
        "params": params or {},
        "params_changed": {},
        "assumed_components": "",
        "status": "complete",
        "command": "synthetic",
        "code_version": "synthetic",
        "packages": {},
        "timings": {},
    }
    if configs is not None:
        m["configs"] = configs
    return m


def write_run(path, n_games=2000, players=(4,), strategies=None, parts=2, seed=0, **kw):
    """Write one synthetic run folder (manifest.json, games/, seats/, items/ part files); return the path.

    Keyword arguments are those of make_tables.
    """
    strategies = strategies or {"alpha": 1.0, "beta": 1.0, "gamma": 1.0, "delta": 1.0}
    games, seats, items = make_tables(n_games=n_games, players=players, strategies=strategies, seed=seed, **kw)
    for name, df in (("games", games), ("seats", seats), ("items", items)):
        _write_table(df, os.path.join(path, name), parts)
    with open(os.path.join(path, "manifest.json"), "w") as f:
        json.dump(_manifest("synthetic", players, strategies, seed), f, indent=1)
    return str(path)


def write_sweep(path, configs, n_games=500, players=(4,), strategies=None, parts=1, seed=0, **kw):
    """Write a synthetic sweep: the tables hive-partitioned by config (`games/config=K/part-*.parquet`).

    configs: list of dicts, one per configuration: its parameters, plus optionally "order_bias" (as in
    make_tables) to plant a configuration-specific bias. Game ids restart at 0 in every config, as they may in
    a real sweep, so analyses must key games by (config, game). Returns the path.
    """
    strategies = strategies or {"alpha": 1.0, "beta": 1.0, "gamma": 1.0, "delta": 1.0}
    listed = []
    for k, cfg in enumerate(configs):
        cfg = dict(cfg)
        bias = cfg.pop("order_bias", None)
        games, seats, items = make_tables(
            n_games=n_games, players=players, strategies=strategies, seed=seed + 1000 * k, order_bias=bias, **kw
        )
        for name, df in (("games", games), ("seats", seats), ("items", items)):
            _write_table(df, os.path.join(path, name, f"config={k}"), parts)
        listed.append(
            {
                "config": k,
                "partition": f"config={k}",
                "swept": cfg,
                "params_changed": cfg,
                "params": {"other.param": 1, **cfg},
            }
        )
    with open(os.path.join(path, "manifest.json"), "w") as f:
        json.dump(_manifest("synthetic", players, strategies, seed, configs=listed), f, indent=1)
    return str(path)
