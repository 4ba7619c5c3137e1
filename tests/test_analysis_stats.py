"""Intervals and tests in sim.analysis.stats against known values and against statsmodels' own estimators."""

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from scipy import stats as sps

from sim.analysis.stats import (
    against_value,
    cluster_difference,
    cluster_rate,
    equality_test,
    rate_table,
    wald_equality_test,
    wilson,
)


def _wilson_closed_form(x, n, z):
    p = x / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def test_wilson_matches_closed_form_and_textbook_value():
    lo, hi = wilson(8, 10)
    elo, ehi = _wilson_closed_form(8, 10, sps.norm.ppf(0.975))
    assert abs(lo - elo) < 1e-10 and abs(hi - ehi) < 1e-10
    # Wilson (1927) interval for 8/10 at 95%, as tabulated in Newcombe (1998): 0.490 to 0.943
    assert round(lo, 3) == 0.490 and round(hi, 3) == 0.943
    lo, hi = wilson(np.array([0, 5]), np.array([20, 0]))
    assert lo[0] == 0 and hi[0] > 0.1 and np.isnan(lo[1])


def test_wilson_on_split_shares_covers_at_least_nominally():
    """Shares with split ties: Wilson on (sum of shares, games) must cover the true mean >= ~95% of the time. 5,000
    replications: the bound (0.1% binomial quantile at 95%, 94.0%) fails an interval that covers 93% of the time
    with probability 99.8% (600 replications let it pass about 3 times in 4)."""
    rng = np.random.default_rng(1)
    n, reps = 150, 5000
    # a position wins outright with prob 0.2, ties (share 1/2) with prob 0.2: true mean 0.3
    u = rng.random((reps, n))
    s = np.where(u < 0.2, 1.0, np.where(u < 0.4, 0.5, 0.0))
    lo, hi = wilson(s.sum(axis=1), np.full(reps, n))
    hits = int(((lo <= 0.3) & (0.3 <= hi)).sum())
    lower = sps.binom.ppf(0.001, reps, 0.95)
    assert hits >= lower
    assert sps.binom.cdf(lower - 1, reps, 0.93) > 0.997  # the test's power against 93% coverage


def test_cluster_rate_equals_statsmodels_cluster_robust_intercept():
    rng = np.random.default_rng(2)
    games = np.repeat(np.arange(400), 3)
    team = rng.random(400) < 0.4  # whole-game outcome: the three rows win or lose together
    y = np.repeat(team, 3).astype(float)
    y[rng.random(len(y)) < 0.1] = 1.0
    df = pd.DataFrame({"y": y, "game": games})
    ours = cluster_rate(df, "y", "game")
    ols = sm.OLS(y, np.ones(len(y))).fit(cov_type="cluster", cov_kwds={"groups": games})
    assert abs(ours["rate"].iloc[0] - ols.params[0]) < 1e-12
    assert abs(ours["se"].iloc[0] - ols.bse[0]) < 1e-9
    # the naive binomial standard error ignores the correlation and is much smaller
    assert ours["se"].iloc[0] > 1.3 * np.sqrt(y.mean() * (1 - y.mean()) / len(y))


def test_cluster_difference_equals_ols_slope_cluster_se():
    rng = np.random.default_rng(3)
    G, n = 500, 4
    games = np.repeat(np.arange(G), n)
    flag = rng.random(G * n) < 0.3
    winner = rng.integers(0, n, G)
    y = (np.tile(np.arange(n), G) == np.repeat(winner, n)).astype(float)
    res = cluster_difference(y, flag, games)
    X = sm.add_constant(flag.astype(float))
    ols = sm.OLS(y, X).fit(cov_type="cluster", cov_kwds={"groups": games})
    N = G * n
    assert abs(res["diff"] - ols.params[1]) < 1e-12
    # both are statsmodels' CR1; its (N-1)/(N-K) factor counts the per-cluster rows of the fit, not the seat rows
    assert res["se"] == pytest.approx(ols.bse[1], rel=1e-3)
    assert N > 1000
    assert res["n_with"] == flag.sum() and res["n_without"] == (~flag).sum()


def test_rate_table_picks_interval_by_design():
    rng = np.random.default_rng(4)
    df = pd.DataFrame({"game": np.repeat(np.arange(300), 2), "g": np.tile(["solo", "pair"], 300)})
    df = pd.concat([df, df[df["g"] == "pair"]], ignore_index=True)  # 'pair' gets two rows per game
    df["y"] = rng.random(len(df)) < 0.5
    df["y"] = df["y"].astype(float)
    t = rate_table(df, "y", "g", "game").set_index("g")
    assert t.loc["solo", "interval"] == "wilson" and t.loc["pair", "interval"] == "cluster"
    assert t.loc["pair", "n"] == 600 and t.loc["pair", "games"] == 300
    lo, hi = wilson(t.loc["solo", "wins"], 300)
    assert abs(t.loc["solo", "low"] - lo) < 1e-12 and abs(t.loc["solo", "high"] - hi) < 1e-12


def test_equality_and_against_value():
    stat, p, dof = equality_test([25, 25, 25, 25], 100)
    assert stat == 0 and p == 1 and dof == 3
    stat_g, p_g, _ = equality_test([40, 20, 20, 20], 100, method="g")
    assert abs(stat_g - 2 * sum(o * np.log(o / 25) for o in (40, 20, 20, 20))) < 1e-9
    stat_x, p_x, _ = equality_test([40, 20, 20, 20], 100)
    assert abs(stat_x - (15**2 + 3 * 5**2) / 25) < 1e-12 and p_x < 0.01 and p_g < 0.05
    m = np.eye(4)[np.random.default_rng(5).integers(0, 4, 2000)]
    s, p, dof = wald_equality_test(m)
    assert dof == 3
    p, p_adj, rej = against_value([80, 50, 50], [200, 200, 200], 0.25)
    assert p[0] < 0.05 and rej[0] and not rej[1:].any()
    assert p_adj == pytest.approx([min(1.0, 3 * p[0]), min(1.0, 2 * p[1]), min(1.0, 2 * p[1])])  # Holm


def test_library_statistics_agree_with_the_old_closed_forms():
    """The hand-rolled formulas these functions replaced (written out here), on one fixed data set: the statsmodels
    figures agree with them (the cluster difference up to statsmodels' (N-1)/(N-K) factor on the per-cluster rows)."""
    from sim.analysis import equality_tests, length_summary, synthetic, win_rates
    from sim.analysis.stats import mean_interval

    games, seats, _ = synthetic.make_tables(
        n_games=1500, players=(3, 4), strategies={"a": 2.0, "b": 1.0}, tie_rate=0.1, seed=7
    )
    z = sps.norm.ppf(0.975)
    # cluster_rate: var = G/(G-1) sum_g (y_g - r m_g)^2 / M^2 per group
    ours = cluster_rate(seats, "win_share", "game", by=["players", "strategy"])
    for (n, s), r in ours.iterrows():
        sub = seats[(seats["players"] == n) & (seats["strategy"] == s)]
        per = sub.groupby("game")["win_share"].agg(["sum", "count"])
        G, M = len(per), per["count"].sum()
        rate = per["sum"].sum() / M
        se = np.sqrt(G / (G - 1) * ((per["sum"] - rate * per["count"]) ** 2).sum() / M**2)
        assert r["se"] == pytest.approx(se, rel=1e-9) and r["rate"] == pytest.approx(rate, rel=1e-12)
    # cluster_difference: u_g = (yA - rA mA)/MA - (yN - rN mN)/MN, var = G/(G-1) sum u_g^2
    flag = (seats["order"] == 0).to_numpy()
    y, g = seats["win"].to_numpy(float), seats["game"].to_numpy()
    res = cluster_difference(y, flag, g)
    d = pd.DataFrame({"g": g, "yA": y * flag, "mA": flag * 1.0, "yN": y * ~flag, "mN": ~flag * 1.0})
    per = d.groupby("g").sum()
    rA, rN = per["yA"].sum() / per["mA"].sum(), per["yN"].sum() / per["mN"].sum()
    u = (per["yA"] - rA * per["mA"]) / per["mA"].sum() - (per["yN"] - rN * per["mN"]) / per["mN"].sum()
    G = len(per)
    old_se = np.sqrt(G / (G - 1) * (u**2).sum())
    assert res["diff"] == pytest.approx(rA - rN, rel=1e-12) and res["se"] == pytest.approx(old_se, rel=1e-3)
    assert res["p"] == pytest.approx(2 * sps.norm.sf(abs(rA - rN) / res["se"]), rel=1e-9)
    # normal mean intervals: mean +- z sd / sqrt(n)
    x = games["turns"].to_numpy(float)
    m = mean_interval(x)
    half = z * x.std(ddof=1) / np.sqrt(len(x))
    assert (m["low"], m["high"]) == pytest.approx((x.mean() - half, x.mean() + half), rel=1e-12)
    ls = length_summary(games, column="turns", by=[]).iloc[0]
    assert (ls["low"], ls["high"]) == pytest.approx((x.mean() - half, x.mean() + half), rel=1e-12)
    # the paired gap: per-game difference of the best and worst positions' shares
    eq = equality_tests(seats).set_index("players")
    sub = seats[seats["players"] == 4].pivot(index="game", columns="order", values="win_share")
    diff = sub[eq.loc[4, "best"]] - sub[eq.loc[4, "worst"]]
    half = z * diff.std(ddof=1) / np.sqrt(len(diff))
    assert (eq.loc[4, "gap_low_pp"], eq.loc[4, "gap_high_pp"]) == pytest.approx(
        (100 * (diff.mean() - half), 100 * (diff.mean() + half)), rel=1e-9
    )
    # p of a cluster row: from its standard error (the old code read it back from the clipped 95% interval)
    wr = win_rates(seats, by=["players", "strategy"])
    wr = wr[wr["interval"] == "cluster"]  # a strategy that sits twice in a game
    assert len(wr) == 3
    for _, r in wr.iterrows():
        se_from_interval = (r["high"] - r["low"]) / (2 * z)
        assert r["se"] == pytest.approx(se_from_interval, rel=1e-9)  # not clipped here: the two agree
        assert r["p"] == pytest.approx(2 * sps.norm.sf(abs(r["rate"] - r["fair"]) / se_from_interval), rel=1e-9)
