"""The arc of a game: how the lead moves, from the standings trace of `sim run --standings`.

The standings table has one row per recorded round and seat (game, round, seat, standing): round 0 is the start,
round r the standings after r rounds, and a game's last row its end (sim.kernel_traced.play_traced; a game longer than
the trace's capacity is thinned to every second or fourth round, which can hide lead changes inside the dropped
rounds).  `game_arcs` reduces it to one row per game; each metric below is one function of that table, per player
count (and config in a sweep), with intervals: normal on means, Wilson on proportions (games are independent).

The leader of a row is the one seat with the highest standing; a row where several seats share the top has no
leader, and a lead change is counted between two rows with leaders when the leader differs (a tie in between
does not count as a change by itself).  A game's checkpoints (a third, half, two thirds) are its last recorded
row at or before that fraction of its final round.
"""

import numpy as np
import pandas as pd

from .load import game_key
from .stats import mean_interval, wilson

CHECKPOINTS = {"third": 1 / 3, "half": 1 / 2, "two_thirds": 2 / 3}


def _groups(df, by):
    if by is None:
        by = (["config"] if "config" in df.columns else []) + ["players"]
    return [by] if isinstance(by, str) else list(by)


def game_arcs(standings, seats):
    """One row per game of the standings trace: key, players, rounds (the final row's round), lead_changes, and
    per checkpoint c in CHECKPOINTS: leader_<c> (the sole leader's seat, -1 for a shared top), margin_<c> (the
    top standing minus the next seat's, 0 when shared), leader_wins_<c> (a sole leader who won the game) and
    winner_behind_<c> (every winning seat stood below the top).  seats: its win column says who won (every
    winner of a team game)."""
    key = game_key(standings)
    won = seats[key + ["seat", "players", "win"]]
    st = standings[key + ["round", "seat", "standing"]].merge(
        won, on=key + ["seat"], how="left", validate="many_to_one"
    )
    st = st.sort_values(key + ["round", "seat"], kind="stable")
    gid = st.groupby(key, sort=False, observed=True).ngroup().to_numpy()
    rnd = st["round"].to_numpy(np.int64)
    val = st["standing"].to_numpy(float)
    seat = st["seat"].to_numpy(np.int64)
    win = st["win"].fillna(0).to_numpy() > 0
    new_row = np.r_[True, (gid[1:] != gid[:-1]) | (rnd[1:] != rnd[:-1])]
    starts = np.flatnonzero(new_row)
    row_of = np.cumsum(new_row) - 1
    top = np.maximum.reduceat(val, starts)
    at_top = val == top[row_of]
    shared = np.add.reduceat(at_top.astype(np.int64), starts) > 1
    leader = np.where(shared, -1, np.minimum.reduceat(np.where(at_top, seat, np.iinfo(np.int64).max), starts))
    second = np.maximum.reduceat(np.where(at_top, -np.inf, val), starts)
    margin = np.where(shared | ~np.isfinite(second), 0.0, top - second)
    winners_top = np.maximum.reduceat(np.where(win, val, -np.inf), starts)
    row_game, row_round = gid[starts], rnd[starts]
    n_games = int(gid.max()) + 1 if len(gid) else 0

    sole = leader >= 0  # lead changes: between consecutive rows of a game that have a leader
    g, lead = row_game[sole], leader[sole]
    change = (g[1:] == g[:-1]) & (lead[1:] != lead[:-1])
    out = st.drop_duplicates(key)[key + ["players"]].reset_index(drop=True)
    out["rounds"] = np.maximum.reduceat(row_round, np.flatnonzero(np.r_[True, row_game[1:] != row_game[:-1]]))
    out["lead_changes"] = np.bincount(g[1:][change], minlength=n_games)
    span = int(row_round.max()) + 2 if len(row_round) else 1
    row_key = row_game * span + row_round  # increasing: rows are in game, round order
    final = out["rounds"].to_numpy(np.int64)
    for name, f in CHECKPOINTS.items():
        at = (
            np.searchsorted(row_key, np.arange(n_games) * span + np.floor(f * final).astype(np.int64), side="right") - 1
        )
        out[f"leader_{name}"] = leader[at]
        out[f"margin_{name}"] = margin[at]
        out[f"leader_wins_{name}"] = (leader[at] >= 0) & (winners_top[at] == top[at])
        out[f"winner_behind_{name}"] = winners_top[at] < top[at]
    return out


def lead_changes(arcs, by=None, alpha=0.05):
    """Lead changes per game: per group, games, the mean with its normal interval, and the share of games whose
    lead never changed (Wilson)."""
    by = _groups(arcs, by)
    rows = []
    for grp, sub in arcs.groupby(by, observed=True):
        x = sub["lead_changes"].to_numpy(float)
        n = len(x)
        m = mean_interval(x, alpha)
        none = int((x == 0).sum())
        lo, hi = wilson(none, n, alpha)
        rows.append(
            {
                **dict(zip(by, grp if isinstance(grp, tuple) else (grp,))),
                "games": n,
                "mean": m["mean"],
                "low": m["low"],
                "high": m["high"],
                "none": none / n,
                "none_low": lo,
                "none_high": hi,
            }
        )
    return pd.DataFrame(rows)


def comebacks(arcs, point="two_thirds", by=None, alpha=0.05):
    """How often the winner was behind at a checkpoint (default two thirds of the game): per group, games and
    the share of games whose winning seat(s) all stood below the top then, with a Wilson interval."""
    by = _groups(arcs, by)
    col = f"winner_behind_{point}"
    t = arcs.groupby(by, observed=True)[col].agg(["sum", "count"]).reset_index()
    lo, hi = wilson(t["sum"].to_numpy(float), t["count"].to_numpy(float), alpha)
    return t.rename(columns={"count": "games"}).assign(rate=t["sum"] / t["count"], low=lo, high=hi).drop(columns="sum")


def runaway_leads(arcs, points=("third", "half"), by=None, alpha=0.05):
    """Does an early lead hold?  Per group and checkpoint: games with a sole leader then, the share of them the
    leader went on to win (Wilson) against `fair` = 1 / players (a lead that told nothing), and the leader's mean
    margin over the next seat then (normal interval), in the game's standing units."""
    by = _groups(arcs, by)
    rows = []
    for grp, sub in arcs.groupby(by, observed=True):
        head = dict(zip(by, grp if isinstance(grp, tuple) else (grp,)))
        for point in points:
            led = sub[sub[f"leader_{point}"] >= 0]
            n = len(led)
            wins = int(led[f"leader_wins_{point}"].sum())
            lo, hi = wilson(wins, n, alpha)
            m = mean_interval(led[f"margin_{point}"].to_numpy(float), alpha)
            rows.append(
                {
                    **head,
                    "point": point,
                    "games": len(sub),
                    "led": n,
                    "rate": wins / n if n else np.nan,
                    "low": lo,
                    "high": hi,
                    "fair": 1 / float(sub["players"].iloc[0]),
                    "margin": m["mean"],
                    "margin_low": m["low"],
                    "margin_high": m["high"],
                }
            )
    return pd.DataFrame(rows)
