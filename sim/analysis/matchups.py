"""Strategy match-ups: head-to-head matrices and Bradley-Terry ratings from multiplayer finishing orders.

A multiplayer game is read as every pair of seats with different strategies: the one with the better rank beats
the other (a shared rank counts 1/2 each). Mirror pairs (the same strategy twice) are left out.

- `pairwise_records`: those pairs as a table (one row per pair and game).
- `matchup_matrix`: rate at which the row strategy finishes ahead of the column strategy, with intervals (Wilson
  when each game gives a cell at most one pair, else cluster-robust by game), and the number of pairs.
- `bradley_terry`: strengths theta (log-odds scale, centred to mean 0) such that P(i ahead of j) =
  1 / (1 + exp(theta_j - theta_i)), fitted as a binomial GLM (statsmodels) on the aggregated pair counts. The
  model-based standard errors treat every pair as independent, which they are not (one game yields n(n-1)/2 pairs
  that share a ranking), so by default intervals come from a bootstrap over whole games (Poisson weights,
  percentile interval), which respects that dependence. Also reported: an Elo-scale rating (400/ln 10 * theta)
  and p_vs_avg, the chance to finish ahead of a theta = 0 (average) opponent.
"""

import warnings

import numpy as np
import pandas as pd
import statsmodels.api as sm

from .load import game_key
from .stats import rate_table


def pairwise_records(seats, label="strategy"):
    """All cross-strategy pairs within games: columns game_idx, a, b (labels), score (1 if a ranked ahead of b,
    0.5 if level, 0 if behind), players. One row per unordered pair of seats (a, b) as they sit."""
    key = game_key(seats)
    out = []
    base = 0
    for n, sub in seats.groupby("players", observed=True):
        n = int(n)
        sub = sub.sort_values(key + ["seat"])
        G = len(sub) // n
        lab = sub[label].astype(str).to_numpy().reshape(G, n)
        rank = sub["rank"].to_numpy(dtype=float).reshape(G, n)
        gidx = base + np.arange(G)
        base += G
        for i in range(n):
            for j in range(i + 1, n):
                keep = lab[:, i] != lab[:, j]
                sc = np.where(rank[:, i] < rank[:, j], 1.0, np.where(rank[:, i] == rank[:, j], 0.5, 0.0))
                out.append(
                    pd.DataFrame(
                        {"game_idx": gidx[keep], "a": lab[keep, i], "b": lab[keep, j], "score": sc[keep], "players": n}
                    )
                )
    if not out:
        return pd.DataFrame(columns=["game_idx", "a", "b", "score", "players"])
    return pd.concat(out, ignore_index=True)


def _both_ways(rec):
    flipped = rec.rename(columns={"a": "b", "b": "a"}).assign(score=1.0 - rec["score"])
    return pd.concat([rec, flipped[rec.columns]], ignore_index=True)


def matchup_matrix(seats, label="strategy", alpha=0.05, by_players=False):
    """Head-to-head: how often the row strategy finishes ahead of the column strategy in games with both.

    Returns a long DataFrame with columns [players], a (row), b (column), n (pairs), games, wins, rate, low, high,
    interval; pivot it with `as_matrix`. rate(a, b) + rate(b, a) = 1.
    """
    rec = _both_ways(pairwise_records(seats, label))
    by = (["players"] if by_players else []) + ["a", "b"]
    return rate_table(rec, "score", by, "game_idx", alpha)


def as_matrix(table, value="rate"):
    """Pivot a matchup table into a square DataFrame (rows = a, columns = b)."""
    m = table.pivot(index="a", columns="b", values=value)
    labels = sorted(set(m.index) | set(m.columns))
    return m.reindex(index=labels, columns=labels)


def _fit_bt(W, N, K):
    """Fit BT on count matrices W (score of i vs j), N (pairs); reference = label 0. Returns (theta, cov)."""
    iu, ju = np.triu_indices(K, 1)
    n = N[iu, ju]
    keep = n > 0
    iu, ju, n = iu[keep], ju[keep], n[keep]
    w = W[iu, ju]
    X = np.zeros((len(iu), K))
    X[np.arange(len(iu)), iu] = 1.0
    X[np.arange(len(iu)), ju] = -1.0
    X = X[:, 1:]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = sm.GLM(np.column_stack([w, n - w]), X, family=sm.families.Binomial()).fit()
    theta = np.concatenate([[0.0], res.params])
    cov = np.zeros((K, K))
    cov[1:, 1:] = res.cov_params()
    return theta, cov


def bradley_terry(seats, label="strategy", alpha=0.05, bootstrap=200, seed=0):
    """Bradley-Terry ratings with intervals (see module docstring).

    bootstrap: number of game-level bootstrap refits for the interval (0 = use the model-based, pair-independent
    interval, which is too narrow). Returns one row per label, best first: label, theta, se_model, low, high
    (the (1-alpha) interval of the centred theta), elo, elo_low, elo_high, p_vs_avg, pairs (pairs involving it),
    interval ("bootstrap" or "model").
    """
    from scipy.stats import norm

    rec = pairwise_records(seats, label)
    labels = sorted(set(rec["a"]) | set(rec["b"]))
    K = len(labels)
    if K < 2:
        raise ValueError("Bradley-Terry needs at least two different strategies meeting in games")
    code = {s: i for i, s in enumerate(labels)}
    a = rec["a"].map(code).to_numpy()
    b = rec["b"].map(code).to_numpy()
    sc = rec["score"].to_numpy()
    gi = rec["game_idx"].to_numpy()

    def counts(weights):
        W = np.zeros(K * K)
        N = np.zeros(K * K)
        W += np.bincount(a * K + b, weights=sc * weights, minlength=K * K)
        W += np.bincount(b * K + a, weights=(1 - sc) * weights, minlength=K * K)
        N += np.bincount(a * K + b, weights=weights, minlength=K * K)
        N += np.bincount(b * K + a, weights=weights, minlength=K * K)
        return W.reshape(K, K), N.reshape(K, K)

    W, N = counts(np.ones(len(sc)))
    theta, cov = _fit_bt(W, N, K)
    C = np.eye(K) - 1.0 / K
    theta_c = C @ theta
    se = np.sqrt(np.clip(np.diag(C @ cov @ C.T), 0, None))
    z = norm.ppf(1 - alpha / 2)
    low, high = theta_c - z * se, theta_c + z * se
    kind = "model"
    if bootstrap:
        rng = np.random.default_rng(seed)
        n_games = int(gi.max()) + 1
        draws = np.empty((bootstrap, K))
        for r in range(bootstrap):
            wg = rng.poisson(1.0, size=n_games).astype(float)
            Wb, Nb = counts(wg[gi])
            draws[r] = C @ _fit_bt(Wb, Nb, K)[0]
        low, high = np.quantile(draws, [alpha / 2, 1 - alpha / 2], axis=0)
        kind = "bootstrap"
    elo = 400 / np.log(10)
    out = pd.DataFrame(
        {
            "label": labels,
            "theta": theta_c,
            "se_model": se,
            "low": low,
            "high": high,
            "elo": elo * theta_c,
            "elo_low": elo * low,
            "elo_high": elo * high,
            "p_vs_avg": 1 / (1 + np.exp(-theta_c)),
            "pairs": N.sum(axis=1).astype(int),
            "interval": kind,
        }
    )
    return out.sort_values("theta", ascending=False).reset_index(drop=True)


def bt_predict(ratings, a, b):
    """P(a finishes ahead of b) under fitted Bradley-Terry ratings (a DataFrame from `bradley_terry`)."""
    t = ratings.set_index("label")["theta"]
    return float(1 / (1 + np.exp(t[b] - t[a])))
