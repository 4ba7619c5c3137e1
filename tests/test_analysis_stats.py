"""Intervals and tests in sim.analysis.stats against known values and against statsmodels' own estimators."""

import numpy as np
import pandas as pd
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
    """Shares with split ties: Wilson on (sum of shares, games) must cover the true mean >= ~95% of the time."""
    rng = np.random.default_rng(1)
    n, reps, hits = 150, 600, 0
    # a position wins outright with prob 0.2, ties (share 1/2) with prob 0.2: true mean 0.3
    for _ in range(reps):
        u = rng.random(n)
        s = np.where(u < 0.2, 1.0, np.where(u < 0.4, 0.5, 0.0))
        lo, hi = wilson(s.sum(), n)
        hits += lo <= 0.3 <= hi
    lower = sps.binom.ppf(0.001, reps, 0.95) / reps
    assert hits / reps >= lower


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
    # statsmodels' CR1 also multiplies by (N-1)/(N-K) with K = 2 regressors
    assert abs(res["se"] * np.sqrt((N - 1) / (N - 2)) - ols.bse[1]) < 1e-9
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
    assert dof == 3 and 0 <= p <= 1
    p, p_adj, rej = against_value([80, 50, 50], [200, 200, 200], 0.25)
    assert p[0] < 0.05 and rej[0] and not rej[1:].any()
    assert (p_adj >= p).all()
