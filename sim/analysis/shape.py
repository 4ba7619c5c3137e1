"""Game shape: how long games last, how close they are, how often they tie, where points come from, how they end.

All functions take the `games` and/or `seats` tables and group by player count (and config in a sweep) unless told
otherwise. Intervals on means are normal (mean +- z * sd / sqrt(games)); intervals on proportions are Wilson.
"""

import numpy as np
import pandas as pd

from .load import game_key
from .stats import mean_interval, wilson


def _groups(df, by):
    if by is None:
        by = (["config"] if "config" in df.columns else []) + (["players"] if "players" in df.columns else [])
    return [by] if isinstance(by, str) else list(by)


def length_summary(games, column="steps", by=None, alpha=0.05):
    """Distribution of game length (column: "steps" = decisions, or a game's own "turns"/"rounds").

    Per group: games, mean with a (1-alpha) normal interval, sd, quantiles (5, 25, 50, 75, 95%), min, max and the
    fraction of games stopped by the step cap (`capped`, Wilson interval) if that column is present.
    """
    by = _groups(games, by)
    rows = []
    for grp, sub in games.groupby(by, observed=True) if by else [((), games)]:
        grp = grp if isinstance(grp, tuple) else (grp,)
        x = sub[column].to_numpy(dtype=float)
        n = len(x)
        sd = x.std(ddof=1) if n > 1 else np.nan
        q = np.quantile(x, [0.05, 0.25, 0.5, 0.75, 0.95])
        m = mean_interval(x, alpha)
        row = {
            **dict(zip(by, grp)),
            "games": n,
            "mean": m["mean"],
            "low": m["low"],
            "high": m["high"],
            "sd": sd,
            "q05": q[0],
            "q25": q[1],
            "median": q[2],
            "q75": q[3],
            "q95": q[4],
            "min": x.min(),
            "max": x.max(),
        }
        if "capped" in sub.columns:
            c = int(sub["capped"].sum())
            row["capped_rate"] = c / n
            row["capped_low"], row["capped_high"] = wilson(c, n, alpha)
        rows.append(row)
    return pd.DataFrame(rows)


def length_distribution(games, column="steps", by=None):
    """Counts and fractions of each length value per group (long format: group..., value, games, fraction)."""
    by = _groups(games, by)
    c = games.groupby(by + [column], observed=True).size().rename("games").reset_index()
    c["fraction"] = (
        c["games"] / c.groupby(by, observed=True)["games"].transform("sum") if by else c["games"] / c["games"].sum()
    )
    return c.rename(columns={column: "value"})


def score_margins(seats, by=None):
    """Per game: the winner's score minus the runner-up's (by score, highest first) and the spread best - worst.

    Returns one row per game: key, players, margin, spread, top_score. Summarise with `length_summary(df,
    column="margin")` or plot its histogram. A margin of 0 is a tie on score (which the game may have broken).
    """
    key = game_key(seats)
    s = seats[key + ["players", "score"]].sort_values(key + ["score"], ascending=[True] * len(key) + [False])
    grp = s.groupby(key, observed=True, sort=False)["score"]
    first = grp.nth(0).to_numpy()
    second = grp.nth(1).to_numpy()
    last = grp.min().to_numpy()
    heads = s.drop_duplicates(key)
    out = heads[key + ["players"]].reset_index(drop=True)
    out["top_score"] = first
    out["margin"] = first - second
    out["spread"] = first - last
    return out


def tie_rates(seats, by=None, alpha=0.05):
    """Per group: fraction of games whose win is shared (more than one seat with win = 1) and fraction tied on
    the top score, each with a Wilson interval. In team games a shared win is a team win, not a tie; the score
    tie rate is then the one to read."""
    key = game_key(seats)
    by = _groups(seats, by)
    d = seats[list(dict.fromkeys(key + by + ["win", "score"]))].copy()
    d["_top"] = d["score"] == d.groupby(key, observed=True)["score"].transform("max")
    g = d.groupby(list(dict.fromkeys(key + by)), observed=True).agg(winners=("win", "sum"), n_top=("_top", "sum"))
    g = g.reset_index()
    g["shared"] = g["winners"] > 1
    g["top_tied"] = g["n_top"] > 1
    rows = []
    for grp, sub in g.groupby(by, observed=True) if by else [((), g)]:
        grp = grp if isinstance(grp, tuple) else (grp,)
        n = len(sub)
        sw, st = int(sub["shared"].sum()), int(sub["top_tied"].sum())
        swl, swh = wilson(sw, n, alpha)
        stl, sth = wilson(st, n, alpha)
        rows.append(
            {
                **dict(zip(by, grp)),
                "games": n,
                "shared_win_rate": sw / n,
                "shared_low": swl,
                "shared_high": swh,
                "score_tie_rate": st / n,
                "score_tie_low": stl,
                "score_tie_high": sth,
            }
        )
    return pd.DataFrame(rows)


def points_by_source(seats, prefix, by=None, winners_only=False, exclude=("total",)):
    """Mean points per seat from each source (the columns whose names start with `prefix`, except totals such as
    vp_total named in `exclude`) and each source's share of all points, per group (default: player count);
    winners_only restricts to seats with win = 1.
    Returns long format: group..., source, mean_points, share. Empty if the game has no such columns."""
    cols = [c for c in seats.columns if c.startswith(prefix) and c[len(prefix) :] not in exclude]
    if not cols:
        return pd.DataFrame(columns=["source", "mean_points", "share"])
    by = _groups(seats, by)
    s = seats[seats["win"] > 0] if winners_only else seats
    m = s.groupby(by, observed=True)[cols].mean() if by else s[cols].mean().to_frame().T
    long = m.reset_index().melt(
        id_vars=by if by else None, value_vars=cols, var_name="source", value_name="mean_points"
    )
    tot = long.groupby(by, observed=True)["mean_points"].transform("sum") if by else long["mean_points"].sum()
    long["share"] = long["mean_points"] / tot
    long["source"] = long["source"].str[len(prefix) :]
    return long


def end_reasons(games, column="end_reason", by=None, alpha=0.05):
    """How games end: count and fraction of each value of `column` per group, with Wilson intervals."""
    by = _groups(games, by)
    c = games.groupby(by + [column], observed=True).size().rename("games").reset_index()
    tot = c.groupby(by, observed=True)["games"].transform("sum") if by else c["games"].sum()
    c["fraction"] = c["games"] / tot
    c["low"], c["high"] = wilson(c["games"].to_numpy(), np.broadcast_to(tot, len(c)).astype(float), alpha)
    return c
