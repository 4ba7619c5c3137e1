"""Shared statistics: intervals for win rates and win shares, tests against a fair value, multiple comparisons.

Conventions used across sim.analysis:
- `alpha` is the two-sided error level; an interval is a (1 - alpha) confidence interval.
- Rates are fractions in [0, 1]; plotting turns them into percent.

Why Wilson intervals are used for win *shares* too: a win share s is in [0, 1], and any variable in [0, 1] with mean
p has variance at most p(1 - p), with equality only when it is 0/1. The Wilson interval inverts the score test that
uses exactly that variance, so applied to (sum of shares, number of rows) it is exact in the usual binomial sense
when there are no ties and conservative (a little too wide) when ties split wins. This holds when the rows are
independent, i.e. one row per game in the group; when one game contributes several rows to a group (two seats
playing the same strategy, a team of outlaws), use the cluster-robust interval (`cluster_rate`), which the
higher-level functions pick automatically.
"""

import gc

import numpy as np
import pandas as pd
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint, proportions_ztest


def wilson(successes, n, alpha=0.05):
    """Wilson score interval (low, high) for a proportion successes / n, via statsmodels.

    successes may be fractional (a sum of win shares); see the module docstring for why that is valid. Works on
    scalars and arrays; n = 0 gives (nan, nan).
    """
    successes = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    safe_n = np.where(n > 0, n, 1.0)
    lo, hi = proportion_confint(np.minimum(successes, safe_n), safe_n, alpha=alpha, method="wilson")
    lo = np.where(n > 0, lo, np.nan)
    hi = np.where(n > 0, hi, np.nan)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def z_value(alpha=0.05):
    """The two-sided normal quantile for level alpha (1.96 for 0.05)."""
    return float(sps.norm.ppf(1 - alpha / 2))


def cluster_wls(y, X, weights, groups=None):
    """The one cluster-robust fit of sim.analysis: statsmodels WLS of y on X with the CR1 cluster-robust covariance
    (cov_type="cluster": the sandwich over clusters times G/(G-1) (N-1)/(N-K)) by `groups`; groups None: every row
    is its own cluster (HC1, the same estimator without the grouping). A group of rows of one game may be any
    summary of them (a cluster's mean weighted by its rows gives the fit on the rows). Returns the statsmodels
    results, or None with fewer than two clusters (no standard error)."""
    import statsmodels.api as sm

    y = np.asarray(y, dtype=float)
    n_clusters = len(y) if groups is None else len(np.unique(groups))
    if n_clusters < 2:
        return None
    model = sm.WLS(y, np.asarray(X, dtype=float), weights=np.asarray(weights, dtype=float))
    if groups is None:
        return model.fit(cov_type="HC1")
    return model.fit(cov_type="cluster", cov_kwds={"groups": np.asarray(groups)})


def cluster_se(fit, j):
    """Standard error of coefficient j of a `cluster_wls` fit (NaN without a fit; 0, not NaN, when every row sits
    on the fitted value and rounding leaves the variance a hair below 0)."""
    if fit is None:
        return np.nan
    return float(np.sqrt(max(float(np.asarray(fit.cov_params())[j, j]), 0.0)))


def p_normal(est, se, value=0.0):
    """Two-sided normal p-value of est = value given its standard error (scipy; NaN where se is not positive)."""
    est, se, value = (np.asarray(x, dtype=float) for x in (est, se, value))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(se > 0, 2 * sps.norm.sf(np.abs(est - value) / se), np.nan)
    return float(p) if p.ndim == 0 else p


def mean_interval(x, alpha=0.05):
    """Mean of the values x with its (1 - alpha) normal interval (statsmodels DescrStatsW.zconfint_mean): dict of
    n, mean, se, low, high; fewer than two values: NaN se and interval."""
    from statsmodels.stats.weightstats import DescrStatsW

    x = np.asarray(x, dtype=float)
    out = {"n": len(x), "mean": float(x.mean()) if len(x) else np.nan, "se": np.nan, "low": np.nan, "high": np.nan}
    if len(x) > 1:
        d = DescrStatsW(x)
        lo, hi = d.zconfint_mean(alpha)
        out.update(se=float(d.std_mean), low=float(lo), high=float(hi))
    return out


def cluster_sums(df, value, cluster, by=None):
    """The per-cluster table cluster_rate starts from: by..., cluster..., sum, count (clusters in order of first
    appearance). Computed on consecutive blocks of whole clusters and concatenated, it is the same table."""
    by = [by] if isinstance(by, str) else list(by or [])
    cluster = [cluster] if isinstance(cluster, str) else list(cluster)
    d = df[list(dict.fromkeys(by + cluster + [value]))]
    if not by:
        d = d.assign(_all=0)
        by = ["_all"]
    keys = list(dict.fromkeys(by + cluster))  # a sweep's `config` may be both a group and part of the key
    return d.groupby(keys, observed=True, sort=False)[value].agg(["sum", "count"]).reset_index()


def cluster_rate(df, value, cluster, by=None, alpha=0.05, per=None):
    """Mean of `value` per group with a cluster-robust (by game) normal interval.

    The rate is the ratio estimator sum(value) / rows, and its standard error the CR1 cluster-robust one of an
    intercept-only regression on the rows (statsmodels OLS with cov_type="cluster"), computed by `cluster_wls` from
    the per-cluster table (the cluster means weighted by their rows: the same estimate and the same sandwich,
    var = G/(G-1) * sum_g (y_g - r m_g)^2 / M^2). Rows of one game may be correlated in any way (team wins,
    split ties); games are assumed independent. The interval is r +- z * se, clipped to [0, 1].

    Returns a DataFrame indexed by `by` (or a single row) with columns n (rows), clusters, rate, se, low, high.
    per: the `cluster_sums` table, when the caller built it block by block (df is then not used).
    """
    by = [by] if isinstance(by, str) else list(by or [])
    if per is None:
        per = cluster_sums(df, value, cluster, by)
    if not by:
        by = ["_all"]
    tot = per.groupby(by, observed=True)[["sum", "count"]].sum()
    ng = per.groupby(by, observed=True).size()
    rate = tot["sum"] / tot["count"]
    se = []  # in the order of tot's groups (both sorted by `by`)
    for _, part in per.groupby(by, observed=True):
        m = part["count"].to_numpy(dtype=float)
        fit = cluster_wls(part["sum"].to_numpy(dtype=float) / m, np.ones((len(m), 1)), m)
        se.append(cluster_se(fit, 0))
    se = pd.Series(se, index=tot.index, dtype=float)
    z = z_value(alpha)
    out = pd.DataFrame({"n": tot["count"].astype(int), "clusters": ng.astype(int), "rate": rate, "se": se})
    out["low"] = (out["rate"] - z * out["se"]).clip(0, 1)
    out["high"] = (out["rate"] + z * out["se"]).clip(0, 1)
    if by == ["_all"]:
        out = out.reset_index(drop=True)
    return out


def rate_table(df, value, by, cluster, alpha=0.05):
    """Rates of `value` (win or win_share, in [0, 1]) per group with the right interval for each group.

    Groups where every game contributes at most one row get the Wilson interval on (sum, n) (see module docstring);
    groups where some game contributes several rows get the cluster-robust interval (`cluster_rate`). The column
    `interval` says which was used. Returns a DataFrame with by..., n, games, wins (sum of value), rate, low, high,
    interval.
    """
    by = [by] if isinstance(by, str) else list(by)
    cl = cluster_rate(df, value, cluster, by, alpha).reset_index()
    sums = df.groupby(by, observed=True)[value].sum().rename("wins").reset_index()
    cl = cl.merge(sums, on=by)
    lo, hi = wilson(cl["wins"].to_numpy(), cl["n"].to_numpy(), alpha)
    single = (cl["clusters"] == cl["n"]).to_numpy()
    cl["low"] = np.where(single, lo, cl["low"])
    cl["high"] = np.where(single, hi, cl["high"])
    cl["interval"] = np.where(single, "wilson", "cluster")
    cl = cl.rename(columns={"clusters": "games"})
    return cl[by + ["n", "games", "wins", "rate", "se", "low", "high", "interval"]]


def against_value(successes, n, value, alpha=0.05, correction="holm"):
    """Score tests of each proportion successes/n against `value` (scalar or per row), with a multiplicity flag.

    Uses statsmodels proportions_ztest with the null variance value(1 - value)/n (the test whose inversion is the
    Wilson interval, so 'interval excludes value' and 'p < alpha' agree). Then corrects the p-values over all rows
    with statsmodels multipletests (`correction`: "holm", "bonferroni", ...).
    Returns (p_values, p_adjusted, reject) arrays.
    """
    successes = np.atleast_1d(np.asarray(successes, dtype=float))
    n = np.atleast_1d(np.asarray(n, dtype=float))
    value = np.broadcast_to(np.asarray(value, dtype=float), successes.shape)
    p = np.empty(len(successes))
    for i, (s, m, v) in enumerate(zip(successes, n, value)):
        if m <= 0:
            p[i] = np.nan
            continue
        _, p[i] = proportions_ztest(s, m, value=v, prop_var=v)
    p_adj, reject = adjust_p(p, alpha, correction)
    return p, p_adj, reject


def adjust_p(p, alpha=0.05, correction="holm"):
    """(p_adjusted, reject) of statsmodels multipletests over the finite p-values (NaN stays NaN, not rejected)."""
    p = np.asarray(p, dtype=float)
    ok = np.isfinite(p)
    p_adj = np.full(len(p), np.nan)
    reject = np.zeros(len(p), dtype=bool)
    if ok.any():
        # statsmodels' multipletests calls gc.collect() on every call, which costs ~0.1-0.2 s in a process with a
        # large heap; freezing the existing objects first makes that collection cheap and changes nothing else.
        gc.freeze()
        try:
            reject[ok], p_adj[ok], _, _ = multipletests(p[ok], alpha=alpha, method=correction)
        finally:
            gc.unfreeze()
    return p_adj, reject


def equality_test(share_sums, n_games, method="pearson"):
    """Test that every position gets the same share of wins: the sums of win shares by position vs n_games / k.

    share_sums: total win share of each of the k positions over n_games games (they add up to n_games).
    method: "pearson" (chi-square goodness of fit, scipy.stats.chisquare) or "g" (G-test, scipy.stats.
    power_divergence with the log-likelihood ratio). With no ties the sums are counts of wins and the test is the
    ordinary multinomial test with k - 1 degrees of freedom; split ties make each game's contribution less variable
    than a multinomial draw, so the test is then conservative (rejects less often than its level).
    Returns (statistic, p_value, dof).
    """
    obs = np.asarray(share_sums, dtype=float)
    exp = np.full_like(obs, float(n_games) / len(obs))
    if method == "pearson":
        stat, p = sps.chisquare(obs, exp)
    elif method in ("g", "gtest", "log-likelihood"):
        stat, p = sps.power_divergence(obs, exp, lambda_="log-likelihood")
    else:
        raise ValueError("method must be 'pearson' or 'g'")
    return float(stat), float(p), len(obs) - 1


def wald_equality_test(share_matrix):
    """Cluster-robust test that the mean of each column of a games x k matrix of win shares is 1/k.

    Each row is one game's shares by position (rows sum to the game's total share, 1). Drops the last column (the
    shares are linearly dependent) and computes the Wald statistic G * d' S^-1 d with d the mean deviation from
    1/k and S the sample covariance of the rows; chi-square with k - 1 degrees of freedom. Valid whatever the
    within-game dependence (teams, ties), at the cost of estimating S. Returns (statistic, p_value, dof).
    """
    m = np.asarray(share_matrix, dtype=float)
    G, k = m.shape
    x = m[:, :-1]
    d = x.mean(axis=0) - 1.0 / k
    S = np.cov(x, rowvar=False).reshape(k - 1, k - 1)
    stat = float(G * d @ np.linalg.pinv(S) @ d)
    return stat, float(sps.chi2.sf(stat, k - 1)), k - 1


def cluster_difference(y, flag, cluster, alpha=0.05):
    """Difference of means of y between rows with flag True and rows with flag False, cluster-robust interval.

    y: values in [0, 1] (win or win_share); flag: bool per row; cluster: integer cluster id per row (the game).
    The two means are ratio estimators; the standard error of their difference is the CR1 cluster-robust one of
    the slope in an OLS of y on the flag (statsmodels, through `cluster_wls` on per-cluster means), so the
    correlation between rows of one game (one seat's gain is another's loss) is accounted for. Interval:
    difference +- z * se.
    Returns a dict: n_with, n_without, rate_with, rate_without, diff, se, low, high, p (two-sided normal).
    """
    y = np.asarray(y, dtype=float)
    f = np.asarray(flag, dtype=bool)
    c = np.asarray(cluster)
    codes, c = np.unique(c, return_inverse=True)
    G = len(codes)
    yA = np.bincount(c, weights=y * f, minlength=G)
    mA = np.bincount(c, weights=f.astype(float), minlength=G)
    yT = np.bincount(c, weights=y, minlength=G)
    mT = np.bincount(c, minlength=G).astype(float)
    return _difference_from_sums(yA, mA, yT - yA, mT - mA, alpha)


def _difference_from_sums(yA, mA, yN, mN, alpha=0.05):
    """`cluster_difference` from per-cluster sums (yA, mA: with the flag; yN, mN: without)."""
    MA, MN = mA.sum(), mN.sum()
    out = {
        "n_with": int(MA),
        "n_without": int(MN),
        "rate_with": np.nan,
        "rate_without": np.nan,
        "diff": np.nan,
        "se": np.nan,
        "low": np.nan,
        "high": np.nan,
        "p": np.nan,
    }
    if MA == 0 or MN == 0:
        if MA:
            out["rate_with"] = yA.sum() / MA
        if MN:
            out["rate_without"] = yN.sum() / MN
        return out
    rA, rN = yA.sum() / MA, yN.sum() / MN
    # one row per (cluster, side) holding the side's mean in that cluster, weighted by its rows: the WLS slope on
    # the flag is rA - rN, and clustering by the cluster index gives the CR1 standard error of the row-level fit
    cl = np.arange(len(mA))
    a, n = mA > 0, mN > 0
    fit = cluster_wls(
        np.concatenate([yA[a] / mA[a], yN[n] / mN[n]]),
        np.column_stack([np.ones(a.sum() + n.sum()), np.r_[np.ones(a.sum()), np.zeros(n.sum())]]),
        np.concatenate([mA[a], mN[n]]),
        np.concatenate([cl[a], cl[n]]),
    )
    se = cluster_se(fit, 1)
    z = z_value(alpha)
    diff = rA - rN
    out.update(
        rate_with=rA,
        rate_without=rN,
        diff=diff,
        se=se,
        low=diff - z * se,
        high=diff + z * se,
        p=p_normal(diff, se),
    )
    return out
