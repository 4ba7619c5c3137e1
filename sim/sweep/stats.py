"""The analysis of a sweep's results: additive per-chunk statistics, metrics with their intervals, the summary."""

import math

import numpy as np

from ..errors import UserError, suggest
from ..knobs import as_param


DEFAULT_CONFIDENCE = 0.95
PROPORTION_METRICS = ("shared_win_rate", "capped_rate")  # plus order{k}_win_share and order{k}_win_rate
MEAN_METRICS = ("steps",)  # plus game.<column>


def check_metric(name, spec, players, interval=None, where="metric"):
    """Validate a metric name; interval='proportion' allows only metrics with a Wilson interval."""
    name = {"first_player_win_share": "order0_win_share"}.get(name, name)
    valid = [f"order{k}_win_share" for k in range(players)] + [f"order{k}_win_rate" for k in range(players)]
    valid += list(PROPORTION_METRICS)
    if interval != "proportion":
        valid += list(MEAN_METRICS) + [f"game.{c}" for c in spec.game_columns if c not in spec.labels]
    if name not in valid:
        raise UserError(f"{where}: {suggest(name, valid + ['first_player_win_share'], 'metric')}")
    return name


def chunk_stats(spec, tables):
    """Additive statistics of one chunk (sums and sums of squares) from which every metric is computed."""
    games, seats = tables["games"], tables["seats"]
    n = games.num_rows
    gid = games["game"].to_numpy()
    steps = games["steps"].to_numpy().astype(np.float64)
    st = {
        "n": float(n),
        "steps.s": float(steps.sum()),
        "steps.ss": float((steps**2).sum()),
        "capped_rate.s": float(np.asarray(games["capped"].to_numpy(zero_copy_only=False)).sum()),
    }
    for col in spec.game_columns:
        if col not in spec.labels:
            x = games[col].to_numpy().astype(np.float64)
            st[f"game.{col}.s"] = float(x.sum())
            st[f"game.{col}.ss"] = float((x**2).sum())
    row = np.searchsorted(gid, seats["game"].to_numpy())
    order = seats["order"].to_numpy().astype(np.int64)
    share = seats["win_share"].to_numpy().astype(np.float64)
    win = seats["win"].to_numpy().astype(np.float64)
    winners = np.bincount(row, weights=win, minlength=n)
    st["shared_win_rate.s"] = float((winners > 1).sum())  # ties; in team games also every team win
    for k in np.unique(order):
        at = order == k
        st[f"order{k}_win_share.s"] = float(share[at].sum())
        st[f"order{k}_win_share.ss"] = float((share[at] ** 2).sum())
        st[f"order{k}_win_rate.s"] = float(win[at].sum())
    strat = seats["strategy"].to_pandas().astype(str).to_numpy()
    for name in np.unique(strat):
        at = strat == name
        st[f"strategy.{name}.s"] = float(share[at].sum())
        st[f"strategy.{name}.seats"] = float(at.sum())
    return st


def add_stats(a, b):
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0.0) + v
    return out


def metric_interval(stats, name, confidence=DEFAULT_CONFIDENCE):
    """(estimate, low, high) of a metric from summed chunk statistics.

    Proportions (win shares, win rates, shared-win and capped rates) get the Wilson score interval from statsmodels,
    applied to (sum of per-game values, games); for a win share split by ties this is conservative.  Means
    (steps, game columns) get the t interval from scipy.
    """
    from scipy import stats as sps
    from statsmodels.stats.proportion import proportion_confint

    n = stats.get("n", 0.0)
    s = stats.get(f"{name}.s")
    if n <= 0 or s is None:
        return math.nan, math.nan, math.nan
    est = s / n
    if name.startswith("order") or name in PROPORTION_METRICS:
        lo, hi = proportion_confint(min(s, n), n, alpha=1 - confidence, method="wilson")
        return est, float(lo), float(hi)
    if n < 2:
        return est, math.nan, math.nan
    var = max(stats[f"{name}.ss"] - n * est * est, 0.0) / (n - 1)
    if var == 0:
        return est, est, est
    lo, hi = sps.t.interval(confidence, n - 1, loc=est, scale=math.sqrt(var / n))
    return est, float(lo), float(hi)


def metric_variance(stats, name):
    """Variance of the metric's estimate (the sample variance of the per-game values over n), floored so that a
    run of identical outcomes never gets zero variance."""
    n = stats.get("n", 0.0)
    s = stats.get(f"{name}.s", 0.0)
    est = s / n
    ss = stats.get(f"{name}.ss")
    if ss is None:  # a 0/1 rate: the binomial variance
        var = est * (1 - est)
    else:
        var = max(ss - n * est * est, 0.0) / max(n - 1, 1)
    floor = 1.0 / (n + 2) * (1 - 1.0 / (n + 2)) if (name.startswith("order") or name in PROPORTION_METRICS) else 1e-12
    return max(var, floor) / n


# ----------------------------------------------------------------------------------------------- tasks


def summary_frame(sweep, planner):
    """One row per configuration: parameters, games, and key metrics with their intervals."""
    import pandas as pd

    rows = []
    max_p = max(sweep.players)
    extra = sorted(
        {
            k[len("game.") : -2]
            for st in (planner.totals(c.index) for c in sweep.configs)
            for k in st
            if k.startswith("game.") and k.endswith(".s")
        }
    )
    for cfg in sweep.configs:
        st = planner.totals(cfg.index)
        row = {
            "config": cfg.index,
            "players": cfg.players,
            "lineup": ",".join(cfg.lineup),
            "seating": "fixed" if cfg.fixed else "rotate",
        }
        for name in list(sweep.grid) + list(sweep.zipped):
            p = as_param(sweep.spec, name)
            value = cfg.values[name]
            row[name] = float(value) if p.kind in ("int", "float") else value
        row["games"] = int(st.get("n", 0))
        row["finished"] = planner.finished.get(cfg.index)
        metrics = [f"order{k}_win_share" for k in range(max_p)] + ["shared_win_rate", "capped_rate", "steps"]
        metrics += [f"game.{c}" for c in extra]
        for m in metrics:
            est, lo, hi = metric_interval(st, m, sweep.confidence)
            row[m], row[f"{m}_lo"], row[f"{m}_hi"] = est, lo, hi
        row["fair_share"] = 1.0 / cfg.players
        for name in sorted({k.split(".")[1] for k in st if k.startswith("strategy.") and k.endswith(".s")}):
            seats = st.get(f"strategy.{name}.seats", 0.0)
            row[f"strategy.{name}_win_share"] = st[f"strategy.{name}.s"] / seats if seats else math.nan
        rows.append(row)
    return pd.DataFrame(rows)


def print_summary(sweep, frame, echo=print):
    """A few lines per configuration: the first player's win share with its interval against the fair share."""
    pct = round(sweep.confidence * 100)
    for _, row in frame.iterrows():
        cfg = sweep.configs[int(row.config)]
        echo(
            f"config={cfg.index:<4d} {cfg.label(len(sweep.lineups) > 1):40s} games={int(row.games):<8d} first player "
            f"{row.order0_win_share:.3f} [{row.order0_win_share_lo:.3f}, {row.order0_win_share_hi:.3f}] "
            f"({pct}%; fair {row.fair_share:.3f})  shared wins {row.shared_win_rate:.3f}  steps {row.steps:.1f}"
        )
