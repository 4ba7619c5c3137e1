"""Team games: which side wins at each player count, against a designer's target, and elimination downtime.

- `side_rates`: per player count, the share of games each side (a value of a game column such as BANG's
  `winner_team`) wins, with a Wilson interval (one row per game: exact binomial sense) and the target share:
  given targets ({side: share}) or, by default, equal sides (1 / the number of sides seen at that player count).
  Sides not named in the targets share what the named ones leave. Games no side won ("none") are counted in the
  denominator and reported as `no_winner`, never as a side.
- `downtime`: per player count, how long eliminated players wait: the share of players out before half of the
  game (eliminated at a turn before half the game's turns), the mean share of the game a player spends out, both
  cluster-robust by game (sim.analysis.stats.cluster_rate), and the mean turns an eliminated player spends out
  (the CR1 cluster-robust interval of an intercept-only OLS, in closed form from per-game sums).
"""

import numpy as np
import pandas as pd

from .load import game_key
from .stats import against_value, cluster_rate, cluster_se, cluster_sums, cluster_wls, wilson, z_value

NO_SIDE = ("none", "", "no_winner")


def side_name(label):
    """A side's name without a player-count suffix ('outlaw_3p' -> 'outlaw')."""
    return str(label).removesuffix("_3p")


def parse_targets(text):
    """'law=0.5,outlaws=0.3' (or a dict) -> {side: share}; shares in [0, 1], at most 1 in total."""
    if not text:
        return {}
    if isinstance(text, dict):
        out = {str(k): float(v) for k, v in text.items()}
    else:
        out = {}
        for part in str(text).replace(";", ",").split(","):
            if not part.strip():
                continue
            k, sep, v = part.partition("=")
            if not sep:
                raise ValueError(f"target '{part}' is not SIDE=SHARE")
            out[k.strip()] = float(v)
    if any(not 0 <= v <= 1 for v in out.values()) or sum(out.values()) > 1 + 1e-9:
        raise ValueError("target shares must lie in [0, 1] and add up to at most 1")
    return out


def side_rates(games, column="winner_team", targets=None, alpha=0.05):
    """One row per (players, side): games, wins, rate, low, high (Wilson), target, excess, p (score test of rate =
    target), plus no_winner (share of that player count's games no side won)."""
    targets = parse_targets(targets)
    rows = []
    for n, g in games[["players", column]].groupby("players", observed=True):
        counts = {}  # label -> games, without a string copy of the column
        for x, k in g[column].value_counts(dropna=False, sort=False).items():
            if k:
                counts[str(x)] = counts.get(str(x), 0) + int(k)
        sides = sorted(x for x in counts if x not in NO_SIDE)
        named = {s: targets[side_name(s)] for s in sides if side_name(s) in targets}
        rest = [s for s in sides if s not in named]
        left = max(0.0, 1.0 - sum(named.values()))
        G = len(g)
        none = sum(counts.get(x, 0) for x in NO_SIDE) / G
        for s in sides:
            w = float(counts[s])
            rows.append(
                {
                    "players": int(n),
                    "side": side_name(s),
                    "label": s,
                    "games": G,
                    "wins": w,
                    "target": named.get(s, left / len(rest) if rest else np.nan),
                    "no_winner": none,
                }
            )
    t = pd.DataFrame(rows)
    if t.empty:
        return t
    t["rate"] = t["wins"] / t["games"]
    t["low"], t["high"] = wilson(t["wins"].to_numpy(), t["games"].to_numpy(), alpha)
    t["excess"] = t["rate"] - t["target"]
    t["p"], _, _ = against_value(t["wins"], t["games"], t["target"].clip(1e-9, 1 - 1e-9), alpha)
    return t


def downtime(seats, games, length="turns", alpha=0.05, block_rows=1_000_000):
    """Per player count: out_early (share of players eliminated before half the game's `length`), share_out
    (mean share of the game a player spends eliminated, 0 for survivors), turns_out (mean turns an eliminated
    player waits), each with low/high; eliminated (share of players eliminated).

    Computed from per-game sums, on blocks of about `block_rows` seat rows of whole games, so the working
    columns never span the table: the cluster-robust intervals are those of `cluster_rate` (the same per-game
    table), and turns_out's is the CR1 cluster-robust interval of an intercept-only OLS on the rows (`cluster_wls`
    on the per-game means)."""
    from .seats import groups_of

    key = game_key(seats)
    rows = []
    for n, part in groups_of(seats, ["players"], key + ["players", "eliminated", "elim_turn"]):
        g_n = games.loc[(games["players"] == n).to_numpy(), key + [length]]
        per = {c: [] for c in ("_early", "_share", "_out", "_turns")}
        n_games = 0
        for lo, hi in _game_blocks(part, key, block_rows):
            sub = _downtime_rows(part.iloc[lo:hi], g_n, key, length)
            n_games += int(sub[key].drop_duplicates().shape[0])
            for col in ("_early", "_share", "_out"):
                per[col].append(cluster_sums(sub, col, key))
            per["_turns"].append(cluster_sums(sub[sub["_out"] > 0], "_turns", key))
            del sub
        del part
        r = {"players": int(n), "games": n_games, "seats": int(sum(int(p["count"].sum()) for p in per["_out"]))}
        for col, name in (("_early", "out_early"), ("_share", "share_out"), ("_out", "eliminated")):
            c = cluster_rate(None, col, key, alpha=alpha, per=pd.concat(per[col], ignore_index=True))
            r[name], r[f"{name}_low"], r[f"{name}_high"] = (
                float(c["rate"].iloc[0]),
                float(c["low"].iloc[0]),
                float(c["high"].iloc[0]),
            )
        t = pd.concat(per["_turns"], ignore_index=True)
        cnt = t["count"].to_numpy(dtype=float)
        fit = cluster_wls(t["sum"].to_numpy(dtype=float) / cnt, np.ones((len(t), 1)), cnt) if len(t) else None
        if fit is not None:
            m, se = float(fit.params[0]), cluster_se(fit, 0)
            r["turns_out"], r["turns_out_low"], r["turns_out_high"] = (
                m,
                m - z_value(alpha) * se,
                m + z_value(alpha) * se,
            )
        else:
            r["turns_out"] = r["turns_out_low"] = r["turns_out_high"] = np.nan
        rows.append(r)
    return pd.DataFrame(rows)


def _game_blocks(rows, key, size):
    """(start, stop) row ranges of about `size` rows that never split a game (one block when a game's rows are not
    consecutive)."""
    n = len(rows)
    if n <= size:
        return [(0, n)]
    k = rows[key].to_numpy() if len(key) > 1 else rows[key[0]].to_numpy()
    change = np.flatnonzero((k[1:] != k[:-1]).any(axis=1) if k.ndim > 1 else k[1:] != k[:-1]) + 1
    if len(change) + 1 != len(rows[key].drop_duplicates()):
        return [(0, n)]
    out, lo = [], 0
    while lo < n:
        j = np.searchsorted(change, lo + size)
        hi = int(change[j]) if j < len(change) else n
        out.append((lo, hi))
        lo = hi
    return out


def _downtime_rows(seats, games, key, length):
    """The seat rows of `downtime` with the game's length and the working columns _early, _share, _turns, _out."""
    d = seats.merge(games[key + [length]], on=key)
    L = d[length].astype(float).clip(lower=1)
    out = (d["eliminated"].astype(bool)) & (d["elim_turn"] >= 0)
    d["_early"] = (out & (d["elim_turn"] < L / 2)).astype(float)
    d["_share"] = np.where(out, ((L - d["elim_turn"]) / L).clip(0, 1), 0.0)
    d["_turns"] = np.where(out, (L - d["elim_turn"]).clip(lower=0), np.nan)
    d["_out"] = out.astype(float)
    return d
