"""Card / item strength, in the spirit of 17lands' "game in hand win rate" and "improvement when drawn".

For every item (card, building, railroad, character...) over the seat rows of the player counts (and sweep
configurations) in which the item was ever acquired:
- rate_with: win rate of seats that acquired it at some point in the game ("win rate when acquired");
- rate_without: win rate of seats that never acquired it;
- diff = rate_with - rate_without (the IWD analogue) with a cluster-robust interval by game
  (sim.analysis.stats.cluster_difference: rows of one game are dependent — if I take the card you cannot);
- pick_rate: fraction of seat rows that acquired it; avg_turn / median_turn: turn of first acquisition;
- enough: both groups have at least `min_rows` seat rows; items without enough are flagged (rank is NaN) rather
  than ranked, since their differences are mostly noise;
- adjusted effect (optional, for items with enough): a logistic regression (statsmodels Logit, quasi-likelihood
  when the outcome is a fractional win share) of the outcome on acquired + turn-order position, strategy and
  player count (and config in a sweep), with standard errors clustered by game. `adj_coef` is the log-odds effect
  with its interval; `adj_ame_pp` the average marginal effect of acquiring it in percentage points (discrete
  change, statsmodels get_margeff) with its interval. The raw difference mixes the item's effect with who takes it
  (a strong strategy that always buys it makes it look good); the adjusted one removes what the controls explain.
  Neither is causal in the strict sense: a seat that is already winning may acquire more.

The outcome defaults to "win" (won or shared the win), as in 17lands; pass outcome="win_share" to split ties.
"""
import warnings

import numpy as np
import pandas as pd
import statsmodels.api as sm

from .load import game_key
from .stats import _difference_from_sums


def acquisitions(seats, items, kind=None):
    """One row per (game, seat, item) acquired: count of acquisitions and first turn, joined to the seat row.

    Returns the seat columns (key, seat, players, strategy, order, outcome columns) plus item, kind, copies,
    first_turn.
    """
    key = game_key(seats)
    it = items if kind is None else items[items["kind"].isin([kind] if isinstance(kind, str) else kind)]
    agg = (it.groupby(key + ["seat", "item", "kind"], observed=True)["turn"]
           .agg(copies="size", first_turn="min").reset_index())
    cols = [c for c in seats.columns if c not in ("item", "kind")]
    return agg.merge(seats[cols], on=key + ["seat"], how="inner")


def _strata_cols(seats):
    return (["config"] if "config" in seats.columns else []) + ["players"]


def item_strength(seats, items, outcome="win", kind=None, min_rows=200, alpha=0.05, adjusted=True,
                  controls=("order", "strategy", "players"), max_rows=300_000, seed=0):
    """Strength of every item: win rate when acquired vs never acquired, difference, pick rate, acquisition turn.

    See the module docstring for each column and what its interval means. min_rows: minimum seat rows both with
    and without the item for it to be ranked (others get enough=False and rank NaN). adjusted: also fit the
    logistic regression (only for items with enough rows; on at most `max_rows` seat rows, one sample of whole
    games drawn with `seed` and shared by all items, so large runs stay fast). Returns a DataFrame sorted by rank (best first), unranked items last.
    """
    key = game_key(seats)
    strata = _strata_cols(seats)
    s = seats.reset_index(drop=True)
    y = s[outcome].to_numpy(dtype=float)
    gcode = s.groupby(key, observed=True, sort=False).ngroup().to_numpy()
    G = int(gcode.max()) + 1 if len(gcode) else 0
    yT = np.bincount(gcode, weights=y, minlength=G)
    mT = np.bincount(gcode, minlength=G).astype(float)
    scode = s.groupby(strata, observed=True, sort=False).ngroup().to_numpy()
    game_stratum = np.zeros(G, dtype=np.int64)
    game_stratum[gcode] = scode
    row_id = pd.Series(np.arange(len(s)), index=pd.MultiIndex.from_frame(s[key + ["seat"]]))
    acq = acquisitions(s, items, kind)
    acq["_row"] = row_id.reindex(pd.MultiIndex.from_frame(acq[key + ["seat"]])).to_numpy()
    results = []
    for (item, knd), a in acq.groupby(["item", "kind"], observed=True):
        rows = a["_row"].to_numpy()
        in_strata = np.isin(game_stratum, np.unique(scode[rows]))       # games of the strata where it appears
        yA = np.bincount(gcode[rows], weights=y[rows], minlength=G)
        mA = np.bincount(gcode[rows], minlength=G).astype(float)
        res = _difference_from_sums(yA[in_strata], mA[in_strata], (yT - yA)[in_strata], (mT - mA)[in_strata], alpha)
        n_rows = int(mT[in_strata].sum())
        results.append({"item": item, "kind": knd, **res, "pick_rate": res["n_with"] / n_rows if n_rows else np.nan,
                        "copies_per_pick": float(a["copies"].mean()), "avg_turn": float(a["first_turn"].mean()),
                        "median_turn": float(a["first_turn"].median()),
                        "enough": bool(res["n_with"] >= min_rows and res["n_without"] >= min_rows)})
    out = pd.DataFrame(results)
    if out.empty:
        return out
    out["rank"] = out["diff"].where(out["enough"]).rank(ascending=False, method="min")
    if adjusted:
        sample = _sample_games(s, max_rows, seed)        # one sample of whole games, shared by every item
        adj = [adjusted_effect(sample, acq[acq["item"] == it], outcome, controls, alpha, max_rows, seed)
               if ok else {} for it, ok in zip(out["item"], out["enough"])]
        out = pd.concat([out, pd.DataFrame(adj, index=out.index)], axis=1)
    return out.sort_values(["rank", "diff"], ascending=[True, False], na_position="last").reset_index(drop=True)


def _sample_games(seats, max_rows, seed):
    """All rows if there are at most max_rows, else the rows of a random sample of whole games."""
    if len(seats) <= max_rows:
        return seats
    key = game_key(seats)
    games = seats[key].drop_duplicates()
    keep = games.sample(n=max(1, int(len(games) * max_rows / len(seats))), random_state=seed)
    return seats.merge(keep, on=key, how="inner")


def adjusted_effect(seats, acquired, outcome="win", controls=("order", "strategy", "players"), alpha=0.05,
                    max_rows=300_000, seed=0):
    """Logistic-regression effect of having acquired one item, controlling for `controls` (all as categories).

    seats: the seat rows; acquired: rows of `acquisitions` for this item (key + seat). Only the strata (player
    count, config) where the item was acquired are used; if more than max_rows seat rows remain, whole games are
    sampled. Fits statsmodels Logit with cluster-robust (by game) covariance; `order` is nested in `players`
    (when both are controls, one dummy per players x order cell). Returns a dict: adj_coef, adj_low, adj_high (log-odds, (1-alpha)
    interval), adj_or (odds ratio), adj_p, adj_ame_pp, adj_ame_low_pp, adj_ame_high_pp (average discrete change
    in the win probability, percentage points), adj_rows, adj_note ("" or why the model could not be fitted, e.g.
    perfect separation in a small sample; the estimates are then missing).
    """
    key = game_key(seats)
    strata = _strata_cols(seats)
    present = acquired[strata].drop_duplicates()
    d = seats.merge(present, on=strata, how="inner")
    flag = acquired[key + ["seat"]].drop_duplicates().assign(_acq=1.0)
    d = d.merge(flag, on=key + ["seat"], how="left")
    d["_acq"] = d["_acq"].fillna(0.0)
    d = _sample_games(d, max_rows, seed)
    parts = [pd.Series(1.0, index=d.index, name="const"), d["_acq"].rename("acquired")]
    ctrl = list(controls) + (["config"] if "config" in d.columns and "config" not in controls else [])
    nested = "order" in ctrl and "players" in ctrl
    for c in ctrl:
        if c == "players" and nested:
            continue                                     # the players x order cells already span players
        if c == "order" and nested:
            lab = d["players"].astype(str) + ":" + d["order"].astype(str)
        else:
            lab = d[c].astype(str)
        if lab.nunique() > 1:
            parts.append(pd.get_dummies(lab, prefix=c, drop_first=True, dtype=float))
    X = pd.concat(parts, axis=1)
    groups = d.groupby(key, observed=True, sort=False).ngroup().to_numpy()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = sm.Logit(d[outcome].astype(float).to_numpy(), X).fit(
                disp=0, cov_type="cluster", cov_kwds={"groups": groups}, maxiter=200)
            ci = res.conf_int(alpha).loc["acquired"]
            me = res.get_margeff(at="overall", dummy=True)
    except (np.linalg.LinAlgError, ValueError) as e:   # singular design, perfect separation on small samples
        return {"adj_rows": int(len(d)), "adj_note": f"not fitted: {type(e).__name__}"}
    trouble = [w.category.__name__ for w in caught
               if w.category.__name__ in ("PerfectSeparationWarning", "ConvergenceWarning", "HessianInversionWarning")]
    if trouble or not res.mle_retvals.get("converged", True) or not np.isfinite(res.bse["acquired"]):
        return {"adj_rows": int(len(d)), "adj_note": "not fitted: " + (", ".join(sorted(set(trouble)))
                                                                       or "did not converge")}
    j = list(X.columns[1:]).index("acquired")
    me_ci = me.conf_int(alpha)[j]
    return {"adj_coef": float(res.params["acquired"]), "adj_low": float(ci.iloc[0]), "adj_high": float(ci.iloc[1]),
            "adj_or": float(np.exp(res.params["acquired"])), "adj_p": float(res.pvalues["acquired"]),
            "adj_ame_pp": 100 * float(me.margeff[j]), "adj_ame_low_pp": 100 * float(me_ci[0]),
            "adj_ame_high_pp": 100 * float(me_ci[1]), "adj_rows": int(len(d)), "adj_note": ""}


def seat_attribute_strength(seats, column, outcome="win", alpha=0.05, min_rows=200):
    """Win rate by a seat attribute such as role or character, with the minimum-sample flag.

    Uses sim.analysis.winrates.win_rates (outcome "win" by default: in team games the role's/character's win
    rate; `fair` is then what it would get if winning were unrelated to it) and adds enough (n >= min_rows) and a
    rank among those with enough rows.
    """
    from .winrates import win_rates
    t = win_rates(seats, by=column, outcome=outcome, alpha=alpha)
    t["enough"] = t["n"] >= min_rows
    t["rank"] = t["excess"].where(t["enough"]).rank(ascending=False, method="min")
    return t.sort_values(["rank", "excess"], ascending=[True, False], na_position="last").reset_index(drop=True)
