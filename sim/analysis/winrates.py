"""Win rates by strategy, role, character, seat or player count, with intervals.

Two outcomes are available, and every function says which it uses:
- "win_share" (default for strategies and seats): the seat's share of the game's win, ties and team wins split,
  so the shares of one game add up to 1 and the fair value for a seat in an n-player game is 1/n.
- "win" (use for roles and characters in team games such as BANG): 1 if the seat won or shared the win. In a team
  game several seats win, so the fair value is not 1/n; the `fair` column then gives, for the rows of the group,
  the mean of (number of winners in the game) / n, i.e. what the group would score if winning were unrelated to it.
"""

import numpy as np

from .load import game_key
from .stats import adjust_p, against_value, p_normal, rate_table


def _fair(seats, outcome):
    """Per-row fair value: 1/n for win_share; (winners in that game)/n for win."""
    key = game_key(seats)
    if outcome == "win_share":
        return 1.0 / seats["players"].astype(float)
    total = seats.groupby(key, observed=True)[outcome].transform("sum")
    return total / seats["players"].astype(float)


def win_rates(seats, by="strategy", outcome="win_share", alpha=0.05, correction="holm"):
    """Win rate (mean of `outcome`) per group of `by` (a column or list of columns), with intervals and tests.

    Returns one row per group: n (seat rows), games, wins (sum of the outcome), rate, low/high (the (1-alpha)
    interval: Wilson when each game gives the group at most one row, else cluster-robust by game — column
    `interval`), fair (the mean fair value of the group's rows, see module docstring), excess = rate - fair,
    p / p_adj (score test of rate = fair for Wilson rows, the normal test with the cluster-robust standard error
    for cluster rows; adjusted over groups by `correction`) and significant (p_adj < alpha).
    With a single player count and win_share, `fair` is exactly 1/n.
    """
    by = [by] if isinstance(by, str) else list(by)
    d = seats[list(dict.fromkeys(by + game_key(seats) + [outcome, "players"]))].copy()
    d["_fair"] = _fair(seats, outcome).to_numpy()
    out = rate_table(d, outcome, by, game_key(seats), alpha)
    fair = d.groupby(by, observed=True)["_fair"].mean().rename("fair").reset_index()
    out = out.merge(fair, on=by)
    out["excess"] = out["rate"] - out["fair"]
    p, _, _ = against_value(out["wins"], out["n"], out["fair"].clip(1e-9, 1 - 1e-9), alpha, correction)
    cl = (out["interval"] == "cluster").to_numpy()
    p = np.where(cl, p_normal(out["rate"], out["se"], out["fair"]), p)  # several rows a game: the cluster test
    p_adj, rej = adjust_p(p, alpha, correction)
    out["p"], out["p_adj"], out["significant"] = p, p_adj, rej
    return out.sort_values(by).reset_index(drop=True)


def win_rates_by_players(seats, by="strategy", outcome="win_share", alpha=0.05):
    """`win_rates` split by player count as well (fair = 1/n within each player count for win_share)."""
    by = [by] if isinstance(by, str) else list(by)
    return win_rates(seats, by=["players"] + [b for b in by if b != "players"], outcome=outcome, alpha=alpha)


def pivot_rates(table, index, columns, value="rate"):
    """Reshape a long rate table into a matrix (e.g. strategy x players) for display."""
    return table.pivot(index=index, columns=columns, values=value)


def lineup_summary(seats):
    """How often each strategy appears per player count and per game (rows, games, mean copies per game)."""
    key = game_key(seats)
    per = seats.groupby(["players", "strategy"] + key, observed=True).size().rename("copies").reset_index()
    return (
        per.groupby(["players", "strategy"], observed=True)
        .agg(games=("copies", "size"), rows=("copies", "sum"), copies_per_game=("copies", "mean"))
        .reset_index()
    )


def overall_rate(seats, outcome="win"):
    """Fraction of seat rows with a win (or the mean win share): a sanity number, 1/n on average for win_share."""
    return float(np.mean(seats[outcome]))


__all__ = ["win_rates", "win_rates_by_players", "pivot_rates", "lineup_summary", "overall_rate"]
