"""First-player (turn-order) advantage, per player count.

Position is the `order` column (0 = the first player), not the physical `seat`, unless told otherwise. The outcome
is `win_share` (ties and team wins split, one unit per game), whose fair value in an n-player game is 1/n.

- `seat_advantage`: win share by position with a Wilson interval (valid for shares, conservative with ties; see
  sim.analysis.stats), the fair 1/n, the excess in percentage points, and a score test of each position against
  1/n with a Holm (or other) correction over all positions and player counts (`flagged`).
- `equality_tests`: per player count, one test that all positions have the same share (chi-square or G-test on
  the share sums via scipy; optionally the cluster-robust Wald test), the largest gap between two positions in
  percentage points with a paired interval, and the fraction of games whose win was split.
- `advantage_by`: the same split by another column (a sweep's config — e.g. a seat compensation being varied —
  or a game-level column), to show how a rule changes the advantage.
- `indicator_effect`: win share of seats with a property (e.g. ended the game, as in Saloon Tycoon) minus seats
  without, cluster-robust by game.
"""

import numpy as np
import pandas as pd

from .load import game_key
from .stats import against_value, cluster_difference, equality_test, mean_interval, wald_equality_test, wilson


def groups_of(df, by, columns):
    """(group, rows) for every group of `by`, in sorted order as DataFrame.groupby gives them, each holding only
    `columns` and copied one group at a time (groupby copies every column of a group; on a large seats table
    that was the peak of a section)."""
    combos = df[by].drop_duplicates().sort_values(by).itertuples(index=False, name=None)
    for combo in combos:
        mask = np.ones(len(df), dtype=bool)
        for c, v in zip(by, combo):
            mask &= (df[c] == v).to_numpy()
        yield (combo if len(by) > 1 else combo[0]), df.loc[mask, columns]


def seat_advantage(seats, position="order", outcome="win_share", alpha=0.05, correction="holm", by=None):
    """Win share by turn-order position for every player count (and every value of `by`, if given).

    Each game contributes exactly one row per position, so the rows behind one estimate are independent games and
    the Wilson interval on (sum of shares, games) applies (exact without ties, conservative with split wins).
    Returns columns: [by...], players, <position>, games, share_sum, rate, low, high, fair (1/n), excess_pp
    (100 * (rate - fair)), p (score test rate = 1/n), p_adj (corrected over every row by `correction`), flagged.
    """
    extra = [] if by is None else ([by] if isinstance(by, str) else list(by))
    keys = extra + ["players", position]
    # one group of `extra` + players at a time: the sums are those of one groupby over the whole table (same rows in
    # the same order per group), without its row-sized index arrays for every key over every row
    parts = [
        sub.groupby(position, observed=True)[outcome]
        .agg(games="count", share_sum="sum")
        .reset_index()
        .assign(**dict(zip(extra + ["players"], grp if isinstance(grp, tuple) else (grp,))))
        for grp, sub in groups_of(seats, extra + ["players"], [position, outcome])
    ]
    g = (
        pd.concat(parts, ignore_index=True)[keys + ["games", "share_sum"]]
        if parts
        else seats.groupby(keys, observed=True)[outcome].agg(games="count", share_sum="sum").reset_index()
    )
    for c in keys:
        g[c] = g[c].astype(seats[c].dtype)
    g["rate"] = g["share_sum"] / g["games"]
    g["low"], g["high"] = wilson(g["share_sum"].to_numpy(), g["games"].to_numpy(), alpha)
    g["fair"] = 1.0 / g["players"].astype(float)
    g["excess_pp"] = 100 * (g["rate"] - g["fair"])
    g["p"], g["p_adj"], g["flagged"] = against_value(g["share_sum"], g["games"], g["fair"], alpha, correction)
    return g.sort_values(keys).reset_index(drop=True)


def _share_matrix(sub, position, outcome, key):
    """games x positions matrix of shares (rows = games) for one player count, as a DataFrame."""
    g = sub.groupby(key, observed=True, sort=False).ngroup().to_numpy()
    pos_codes, positions = pd.factorize(sub[position], sort=True)
    m = np.zeros((int(g.max()) + 1 if len(g) else 0, len(positions)))
    np.add.at(m, (g, pos_codes), sub[outcome].to_numpy(dtype=float))
    return pd.DataFrame(m, columns=positions)


def equality_tests(seats, position="order", outcome="win_share", method="pearson", alpha=0.05, by=None):
    """Per player count: is the win share equal across positions? And how big is the largest gap?

    method: "pearson" (chi-square), "g" (G-test) — both scipy goodness-of-fit tests on the share sums, exact in
    the multinomial sense without ties and conservative with split wins — or "wald", the cluster-robust Wald test
    on the games x positions share matrix (valid under any within-game dependence).
    The largest gap is best minus worst position in percentage points; its interval is paired (from the per-game
    difference of the two positions' shares), and since the pair was chosen for being extreme it is an optimistic
    description, not a test — use the equality test's p-value for that.
    Returns columns: [by...], players, games, statistic, dof, p, reject (p < alpha), method, best, worst,
    gap_pp, gap_low_pp, gap_high_pp, split_win_rate.
    """
    extra = [] if by is None else ([by] if isinstance(by, str) else list(by))
    key = game_key(seats)
    rows = []
    cols = list(dict.fromkeys(extra + key + ["players", position, outcome]))
    for grp, sub in groups_of(seats, extra + ["players"], cols):
        grp = grp if isinstance(grp, tuple) else (grp,)
        m = _share_matrix(sub, position, outcome, key)
        G = len(m)
        sums = m.sum(axis=0).to_numpy()
        if method == "wald":
            stat, p, dof = wald_equality_test(m.to_numpy())
        else:
            stat, p, dof = equality_test(sums, sums.sum(), method)
        rates = sums / G
        best, worst = int(np.argmax(rates)), int(np.argmin(rates))
        diff = m.iloc[:, best].to_numpy() - m.iloc[:, worst].to_numpy()
        gap = mean_interval(diff, alpha)  # paired: the per-game difference of the two positions' shares
        winners = sub[sub[outcome] > 0].groupby(key, observed=True).size()
        rows.append(
            {
                **dict(zip(extra + ["players"], grp)),
                "games": G,
                "statistic": stat,
                "dof": dof,
                "p": p,
                "reject": bool(p < alpha),
                "method": method,
                "best": m.columns[best],
                "worst": m.columns[worst],
                "gap_pp": 100 * gap["mean"],
                "gap_low_pp": 100 * gap["low"],
                "gap_high_pp": 100 * gap["high"],
                "split_win_rate": float((winners > 1).mean()) if len(winners) else np.nan,
            }
        )
    return pd.DataFrame(rows)


def advantage_by(seats, column, position="order", outcome="win_share", alpha=0.05, method="pearson"):
    """Turn-order advantage split by `column` (e.g. "config" in a compensation sweep, or a seat/game property).

    Returns (per-position table, per-group tests) — `seat_advantage` and `equality_tests` with by=column.
    """
    return (
        seat_advantage(seats, position, outcome, alpha, by=column),
        equality_tests(seats, position, outcome, method, alpha, by=column),
    )


def indicator_effect(seats, column, outcome="win_share", alpha=0.05, by="players"):
    """Effect of a seat property (column is bool / 0-1, e.g. whether this seat ended the game).

    Per group of `by`: outcome rate of seats with the property, without it, the difference with a cluster-robust
    (by game) interval (sim.analysis.stats.cluster_difference) and its p-value.
    """
    by = [] if by is None else ([by] if isinstance(by, str) else list(by))
    key = game_key(seats)
    rows = []
    groups = seats.groupby(by, observed=True) if by else [((), seats)]
    for grp, sub in groups:
        grp = grp if isinstance(grp, tuple) else (grp,)
        cl = sub[key].astype(str).agg("/".join, axis=1) if len(key) > 1 else sub[key[0]]
        res = cluster_difference(sub[outcome], sub[column].astype(bool), cl.to_numpy(), alpha)
        rows.append({**dict(zip(by, grp)), **res})
    return pd.DataFrame(rows)


def first_player_summary(seats, position="order", alpha=0.05, method="pearson"):
    """One line per player count: first player's share, fair 1/n, the equality test and the largest gap."""
    adv = seat_advantage(seats, position, alpha=alpha)
    first = adv[adv[position] == adv.groupby("players")[position].transform("min")]
    first = first[["players", "rate", "low", "high", "fair"]].rename(
        columns={"rate": "first_rate", "low": "first_low", "high": "first_high"}
    )
    return first.merge(equality_tests(seats, position, method=method, alpha=alpha), on="players")
