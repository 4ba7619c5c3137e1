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
from scipy import stats as sps

from .load import game_key
from .stats import _difference_from_sums


def acquisitions(seats, items, kind=None):
    """One row per (game, seat, item) acquired: count of acquisitions and first turn, joined to the seat row.

    Returns the seat columns (key, seat, players, strategy, order, outcome columns) plus item, kind, copies,
    first_turn.
    """
    key = game_key(seats)
    it = items if kind is None else items[items["kind"].isin([kind] if isinstance(kind, str) else kind)]
    agg = (
        it.groupby(key + ["seat", "item", "kind"], observed=True)["turn"]
        .agg(copies="size", first_turn="min")
        .reset_index()
    )
    cols = [c for c in seats.columns if c not in ("item", "kind")]
    return agg.merge(seats[cols], on=key + ["seat"], how="inner")


def _strata_cols(seats):
    return (["config"] if "config" in seats.columns else []) + ["players"]


def item_strength(
    seats,
    items,
    outcome="win",
    kind=None,
    min_rows=200,
    alpha=0.05,
    adjusted=True,
    controls=("order", "strategy", "players"),
    max_rows=300_000,
    seed=0,
):
    """Strength of every item: win rate when acquired vs never acquired, difference, pick rate, acquisition turn.

    See the module docstring for each column and what its interval means. min_rows: minimum seat rows both with
    and without the item for it to be ranked (others get enough=False and rank NaN). adjusted: also fit the
    logistic regression (only for items with enough rows; on at most `max_rows` seat rows, one sample of whole
    games drawn with `seed` and shared by all items, so large runs stay fast). Returns a DataFrame sorted by rank
    (best first), unranked items last.
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
        in_strata = np.isin(game_stratum, np.unique(scode[rows]))  # games of the strata where it appears
        yA = np.bincount(gcode[rows], weights=y[rows], minlength=G)
        mA = np.bincount(gcode[rows], minlength=G).astype(float)
        res = _difference_from_sums(yA[in_strata], mA[in_strata], (yT - yA)[in_strata], (mT - mA)[in_strata], alpha)
        n_rows = int(mT[in_strata].sum())
        results.append(
            {
                "item": item,
                "kind": knd,
                **res,
                "pick_rate": res["n_with"] / n_rows if n_rows else np.nan,
                "copies_per_pick": float(a["copies"].mean()),
                "avg_turn": float(a["first_turn"].mean()),
                "median_turn": float(a["first_turn"].median()),
                "enough": bool(res["n_with"] >= min_rows and res["n_without"] >= min_rows),
            }
        )
    out = pd.DataFrame(results)
    if out.empty:
        return out
    out["rank"] = out["diff"].where(out["enough"]).rank(ascending=False, method="min")
    if adjusted:
        sample = _sample_games(s, max_rows, seed)  # one sample of whole games, shared by every item
        adj = [
            adjusted_effect(sample, acq[acq["item"] == it], outcome, controls, alpha, max_rows, seed) if ok else {}
            for it, ok in zip(out["item"], out["enough"])
        ]
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


def adjusted_effect(
    seats, acquired, outcome="win", controls=("order", "strategy", "players"), alpha=0.05, max_rows=300_000, seed=0
):
    """Logistic-regression effect of having acquired one item, controlling for `controls` (all as categories).

    seats: the seat rows; acquired: rows of `acquisitions` for this item (key + seat). Only the strata (player
    count, config) where the item was acquired are used; if more than max_rows seat rows remain, whole games are
    sampled. Fits statsmodels Logit with cluster-robust (by game) covariance; `order` is nested in `players`
    (when both are controls, one dummy per players x order cell). Returns a dict: adj_coef, adj_low, adj_high
    (log-odds, (1-alpha)
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
            continue  # the players x order cells already span players
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
                disp=0, cov_type="cluster", cov_kwds={"groups": groups}, maxiter=200
            )
            ci = res.conf_int(alpha).loc["acquired"]
            me = res.get_margeff(at="overall", dummy=True)
    except (np.linalg.LinAlgError, ValueError) as e:  # singular design, perfect separation on small samples
        return {"adj_rows": int(len(d)), "adj_note": f"not fitted: {type(e).__name__}"}
    trouble = [
        w.category.__name__
        for w in caught
        if w.category.__name__ in ("PerfectSeparationWarning", "ConvergenceWarning", "HessianInversionWarning")
    ]
    if trouble or not res.mle_retvals.get("converged", True) or not np.isfinite(res.bse["acquired"]):
        return {
            "adj_rows": int(len(d)),
            "adj_note": "not fitted: " + (", ".join(sorted(set(trouble))) or "did not converge"),
        }
    j = list(X.columns[1:]).index("acquired")
    me_ci = me.conf_int(alpha)[j]
    return {
        "adj_coef": float(res.params["acquired"]),
        "adj_low": float(ci.iloc[0]),
        "adj_high": float(ci.iloc[1]),
        "adj_or": float(np.exp(res.params["acquired"])),
        "adj_p": float(res.pvalues["acquired"]),
        "adj_ame_pp": 100 * float(me.margeff[j]),
        "adj_ame_low_pp": 100 * float(me_ci[0]),
        "adj_ame_high_pp": 100 * float(me_ci[1]),
        "adj_rows": int(len(d)),
        "adj_note": "",
    }


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


# ----------------------------------------------------------------------------------------------- rebuilt strength


def stratified_difference(seats, items, kind=None, outcome="win", alpha=0.05):
    """Raw difference (win rate with minus without an item) per player count (and config), and combined.

    Pooling player counts mixes them: an item that appears mostly in 3-player games (where everyone wins more often)
    looks strong pooled even if it does nothing at any player count (Simpson's paradox). Here each stratum's
    difference is computed within the stratum (cluster-robust by game, as `item_strength`) and the strata are
    combined weighted by their holders (seats that acquired the item): the average difference over the seats that
    held it. Inverse-variance weights would let a stratum whose few holders all lost (standard error near 0)
    outweigh one with a thousand holders.
    Returns one row per (item, kind, stratum) with stratum = "3", "4", ... and one per item with stratum "all":
    diff, low, high, se, n_with, n_without.
    """
    key = game_key(seats)
    strata = _strata_cols(seats)
    rows = []
    for sval, sub in seats.groupby(strata, observed=True):
        sval = sval if isinstance(sval, tuple) else (sval,)
        label = ":".join(str(v) for v in sval)
        sub_items = items.merge(sub[key].drop_duplicates(), on=key, how="inner")
        if sub_items.empty:
            continue
        t = item_strength(sub, sub_items, outcome=outcome, kind=kind, min_rows=0, alpha=alpha, adjusted=False)
        for _, r in t.iterrows():
            rows.append(
                {
                    "item": r["item"],
                    "kind": r["kind"],
                    "stratum": label,
                    "diff": r["diff"],
                    "se": r["se"],
                    "low": r["low"],
                    "high": r["high"],
                    "n_with": r["n_with"],
                    "n_without": r["n_without"],
                }
            )
    per = pd.DataFrame(rows)
    if per.empty:
        return per
    comb = []
    z = sps.norm.ppf(1 - alpha / 2)
    for (item, knd), g in per.groupby(["item", "kind"], observed=True):
        g = g[np.isfinite(g["diff"]) & np.isfinite(g["se"]) & (g["n_with"] > 0)]
        if g.empty:
            continue
        w = g["n_with"].to_numpy(dtype=float)
        w = w / w.sum()  # by holders: a stratum's say is how many seats held the item there, not its precision
        d = float(w @ g["diff"].to_numpy(dtype=float))
        se = float(np.sqrt(w**2 @ (g["se"].to_numpy(dtype=float) ** 2)))  # strata are independent games
        comb.append(
            {
                "item": item,
                "kind": knd,
                "stratum": "all",
                "diff": d,
                "se": se,
                "low": d - z * se,
                "high": d + z * se,
                "n_with": int(g["n_with"].sum()),
                "n_without": int(g["n_without"].sum()),
            }
        )
    return pd.concat([per, pd.DataFrame(comb)], ignore_index=True)


def _indicator_matrix(seats, items, names):
    """seat rows x items: 1.0 when the seat acquired the item at least once."""
    key = game_key(seats)
    row = pd.Series(np.arange(len(seats)), index=pd.MultiIndex.from_frame(seats[key + ["seat"]]))
    it = items[items["item"].isin(names)][key + ["seat", "item"]].drop_duplicates()
    r = row.reindex(pd.MultiIndex.from_frame(it[key + ["seat"]])).to_numpy()
    ok = ~np.isnan(r)
    col = pd.Categorical(it["item"].astype(str), categories=[str(n) for n in names]).codes
    X = np.zeros((len(seats), len(names)))
    X[r[ok].astype(np.int64), col[ok]] = 1.0
    return X


def _demean(a, gcode, G):
    """Subtract each game's mean from every column of a (the within-game transformation)."""
    a = np.asarray(a, dtype=float)
    cnt = np.bincount(gcode, minlength=G).astype(float)
    if a.ndim == 1:
        return a - (np.bincount(gcode, weights=a, minlength=G) / cnt)[gcode]
    out = np.empty_like(a)
    for j in range(a.shape[1]):
        out[:, j] = a[:, j] - (np.bincount(gcode, weights=a[:, j], minlength=G) / cnt)[gcode]
    return out


def _loo_contrasts(idx, ref, P):
    """Contrast rows (one per item column in idx): the item minus the average of the reference items other than
    itself (leave one out); a kind of one item: its own effect."""
    R = np.zeros((len(idx), P))
    for k, j in enumerate(idx):
        others = [i for i in ref if i != j] or [i for i in idx if i != j]
        R[k, j] = 1.0
        if others:
            R[k, others] = -1.0 / len(others)
    return R


def _baseline(res, idx, ref, P, alpha, outlier_pp):
    """The reference items with clear outliers set aside: an item at least outlier_pp points from the kind's median
    item (by the fitted effects), at the Bonferroni level alpha / len(idx), leaves the baseline. So one strong item
    neither hides in its own baseline nor shifts the others (with it in, -18 points for one of three items read +9
    for each of the other two). Fewer than three reference items, or outlier_pp None: no exclusion."""
    ref = list(ref)
    if outlier_pp is None or len(ref) < 3:
        return ref
    eff = np.asarray(res.params)[ref]
    med = ref[int(np.argsort(eff)[(len(ref) - 1) // 2])]
    rest = [j for j in ref if j != med]
    R = np.zeros((len(rest), P))  # each item minus the median item: contrasts, estimable even for dealt items
    for k, j in enumerate(rest):
        R[k, j], R[k, med] = 1.0, -1.0
    tt = res.t_test(R)
    d, pv = 100 * np.asarray(tt.effect).ravel(), np.asarray(tt.pvalue).ravel()
    out = {j for j, x, q in zip(rest, d, pv) if abs(x) >= outlier_pp and q < alpha / len(idx)}
    return [j for j in ref if j not in out]


def within_game_fit(
    seats,
    items,
    names,
    outcome="win",
    controls=("order", "strategy"),
    alpha=0.05,
    alphas=(),
    reference=None,
    outlier_pp=5.0,
):
    """One within-game linear fit of the outcome on every item of `names` at once, plus controls.

    Each seat's outcome and regressors are centred on its game's mean (game fixed effects), so an item is only
    compared with the other seats of the same game: player count, configuration and everything common to a game
    drop out, and one seat's gain is another's loss. Controls: turn-order position within each player count and
    strategy (as indicators). statsmodels OLS with standard errors clustered by game. Coefficients are linear
    probability effects: x 100 = percentage points of win rate for holding the item (vs the same game's seats
    without it, other items held equal).

    Returns a DataFrame, one row per item: effect_pp, low_pp, high_pp, p (the item's effect vs 0), and rel_pp,
    rel_low_pp, rel_high_pp, rel_se_pp, rel_p (its effect minus the average effect of the `names` items: what the
    item adds over a typical item of its kind, which removes a lead that makes leaders acquire more of everything;
    `reference`: the items whose average is the baseline, default all);
    for every a in `alphas`, rel_low_pp@a / rel_high_pp@a (intervals at that level). Also rows, games.
    """
    import statsmodels.api as sm

    key = game_key(seats)
    s = seats.reset_index(drop=True)
    gcode = s.groupby(key, observed=True, sort=False).ngroup().to_numpy()
    G = int(gcode.max()) + 1
    X_items = _indicator_matrix(s, items, names)
    parts = [X_items]
    cols = list(names)
    for c in controls:
        if c not in s.columns:
            continue
        lab = (s["players"].astype(str) + ":" + s[c].astype(str)) if c == "order" else s[c].astype(str)
        if lab.nunique() > 1:
            d = pd.get_dummies(lab, prefix=c, dtype=float)
            if c == "order":  # one reference position per player count (each game has them all)
                firsts = {f"order_{n}:{s.loc[s['players'] == n, 'order'].min()}" for n in s["players"].unique()}
                d = d.drop(columns=[x for x in d.columns if x in firsts])
            else:
                d = d.iloc[:, 1:]
            parts.append(d.to_numpy())
            cols += list(d.columns)
    X = _demean(np.hstack(parts), gcode, G)
    # acquiring an item raises a seat's indicator relative to its game's mean by 1 - 1/n: scaled so that the
    # coefficient is the change in the seat's own win rate when it acquires the item (the others' falls with it)
    n_rows = s["players"].to_numpy(dtype=float)
    X[:, : len(names)] *= (n_rows / (n_rows - 1))[:, None]
    y = _demean(s[outcome].to_numpy(dtype=float), gcode, G)
    keep = X.std(axis=0) > 0
    X, cols = X[:, keep], [c for c, k in zip(cols, keep) if k]
    names = [n for n in names if n in cols]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dealt items (one per seat) are collinear: only contrasts are estimable
        full = np.linalg.matrix_rank(X.T @ X) == X.shape[1]  # small p x p check; QR is fast when it holds
        res = sm.OLS(y, X, hasconst=False).fit(
            method="qr" if full else "pinv", cov_type="cluster", cov_kwds={"groups": gcode}, use_t=False
        )
    P = X.shape[1]
    idx = [cols.index(n) for n in names]
    out = pd.DataFrame({"item": names})
    with warnings.catch_warnings():
        # items dealt one per seat are collinear: their own effects are not estimable (their variance comes out
        # negative and their intervals NaN); only the contrasts against the kind's average (rel_*) are reported
        warnings.filterwarnings("ignore", "invalid value encountered in sqrt", RuntimeWarning)
        b = res.params[idx]
        ci = res.conf_int(alpha)[idx]
        out["effect_pp"], out["low_pp"], out["high_pp"] = 100 * b, 100 * ci[:, 0], 100 * ci[:, 1]
        out["p"] = res.pvalues[idx]
        ref = [cols.index(n) for n in names if reference is None or n in set(reference)] or idx
        ref = _baseline(res, idx, ref, P, alpha, outlier_pp)
        out["baseline"] = [j in ref for j in idx]
        tt = res.t_test(_loo_contrasts(idx, ref, P))
        out["rel_pp"] = 100 * np.asarray(tt.effect).ravel()
        out["rel_se_pp"] = 100 * np.asarray(tt.sd).ravel()
        c = tt.conf_int(alpha)
        out["rel_low_pp"], out["rel_high_pp"] = 100 * c[:, 0], 100 * c[:, 1]
        out["rel_p"] = np.asarray(tt.pvalue).ravel()
    for a in alphas:
        c = tt.conf_int(a)
        out[f"rel_low_pp@{a:g}"], out[f"rel_high_pp@{a:g}"] = 100 * c[:, 0], 100 * c[:, 1]
    out["rows"], out["games"] = len(s), G
    return out


def late_share(items, games, length_col=None):
    """Per item: the share of its acquisitions made in the last third of the game (turn >= 2/3 of the game's
    length), the "acquired late" half of the leaders-acquire-it diagnostic. length_col: the games column holding
    the game's length in the unit of items' `turn` (default: the last acquisition turn of any item in the game)."""
    key = game_key(items)
    it = items[key + ["item", "turn"]]
    if length_col and games is not None and length_col in games.columns:
        L = games[key + [length_col]].rename(columns={length_col: "_len"})
    else:
        L = it.groupby(key, observed=True)["turn"].max().rename("_len").reset_index()
    d = it.merge(L, on=key, how="inner")
    d["_late"] = (d["_len"] > 0) & (d["turn"] >= (2.0 / 3.0) * d["_len"])  # dealt at setup (turn 0): never late
    return d.groupby("item", observed=True)["_late"].mean().rename("late_share").reset_index()


def item_effects(
    seats,
    items,
    outcome="win",
    alpha=0.05,
    min_rows=200,
    games=None,
    length_col=None,
    by_players=True,
    max_rows=250_000,
    seed=0,
    alphas=(),
    outlier_pp=5.0,
):
    """Item strength rebuilt (per kind): raw difference stratified by player count and combined; a within-game
    adjusted effect for every item with enough rows, fitted on all rows (one fit per kind, all the kind's items
    at once; above max_rows seat rows, a sample of whole games); the effect relative to the kind's average (and per
    unit of price paid where items have a `price` column); the leaders-acquire-it diagnostic.

    Returns one row per item: item, kind, n_with, n_without, pick_rate, enough, diff/low/high (raw, strata
    combined, fractions), diff_pooled (raw pooled over player counts, the old number), effect_pp/low_pp/high_pp/p
    (adjusted), rel_pp/rel_low_pp/rel_high_pp/rel_p (adjusted, minus the average of the kind's *other* items that
    are neither flagged as leaders' items nor set aside as outliers of at least outlier_pp points: see
    within_game_fit), baseline, price, rel_per_price,
    late_share, kind_late_share, winner_extra (mean acquisitions of this kind by winners minus by other seats, the
    kind-level "winners acquire more"), leaders_flag (acquired late: late_share >= max(0.5, kind average + 0.15),
    with a positive raw difference), rank (by rel_pp within the kind), and, with by_players, adj_<n>_pp /
    adj_<n>_low_pp / adj_<n>_high_pp: the adjusted effect fitted within each player count.
    Items without enough rows (fewer than min_rows seats with or without it) are listed, not fitted.
    """
    s = _sample_games(seats, max_rows, seed).reset_index(drop=True)
    key = game_key(s)
    it_all = items.merge(s[key].drop_duplicates(), on=key, how="inner") if len(s) < len(seats) else items
    raw = stratified_difference(s, it_all, outcome=outcome, alpha=alpha)
    pooled = item_strength(s, it_all, outcome=outcome, min_rows=min_rows, alpha=alpha, adjusted=False)
    allr = raw[raw["stratum"] == "all"].drop(columns="stratum")
    out = (
        pooled[["item", "kind", "n_with", "n_without", "pick_rate", "enough", "avg_turn", "diff"]]
        .rename(columns={"diff": "diff_pooled"})
        .merge(allr[["item", "kind", "diff", "low", "high"]], on=["item", "kind"], how="left")
    )
    if "price" in it_all.columns:
        out = out.merge(
            it_all.groupby("item", observed=True)["price"].mean().rename("price").reset_index(), on="item", how="left"
        )
    out = out.merge(late_share(it_all, games, length_col), on="item", how="left")
    out["kind_late_share"] = out.groupby("kind")["late_share"].transform("mean")
    out["leaders_flag"] = (
        ((out["late_share"] >= np.maximum(0.5, out["kind_late_share"] + 0.15)) & (out["diff"] > 0))
        .fillna(False)
        .astype(bool)
    )
    fits = []
    for _, sub in out.groupby("kind", observed=True):
        names = list(sub.loc[sub["enough"], "item"])
        if not names:
            continue
        ref = list(sub.loc[sub["enough"] & ~sub["leaders_flag"], "item"])
        f = within_game_fit(
            s, it_all, names, outcome=outcome, alpha=alpha, alphas=alphas, reference=ref, outlier_pp=outlier_pp
        )
        if by_players and s["players"].nunique() > 1:
            for n, sp in s.groupby("players", observed=True):
                ip = it_all[it_all["players"] == n] if "players" in it_all.columns else it_all
                ok = [x for x in names if (ip["item"] == x).any()]
                if not ok:
                    continue
                try:
                    fp = within_game_fit(sp, ip, ok, outcome=outcome, alpha=alpha)
                except (ValueError, np.linalg.LinAlgError):
                    continue
                fp = fp[["item", "effect_pp", "low_pp", "high_pp"]].rename(
                    columns={
                        "effect_pp": f"adj_{int(n)}_pp",
                        "low_pp": f"adj_{int(n)}_low_pp",
                        "high_pp": f"adj_{int(n)}_high_pp",
                    }
                )
                f = f.merge(fp, on="item", how="left")
        fits.append(f)
    if fits:
        out = out.merge(pd.concat(fits, ignore_index=True), on="item", how="left")
    for c in ("effect_pp", "low_pp", "high_pp", "p", "rel_pp", "rel_low_pp", "rel_high_pp", "rel_se_pp", "rel_p"):
        if c not in out.columns:
            out[c] = np.nan
    if "price" in out.columns:
        out["rel_per_price"] = out["rel_pp"] / out["price"].where(out["price"] > 0)
    # kind-level: winners acquire more (acquisitions per seat, winners minus the others)
    cnt = it_all.groupby(key + ["seat", "kind"], observed=True).size().rename("_k").reset_index()
    extra = {}
    for knd, c in cnt.groupby("kind", observed=True):
        d = s[key + ["seat", outcome]].merge(c.drop(columns="kind"), on=key + ["seat"], how="left").fillna({"_k": 0})
        w = d[outcome] > 0
        extra[knd] = float(d.loc[w, "_k"].mean() - d.loc[~w, "_k"].mean()) if w.any() and (~w).any() else np.nan
    out["winner_extra"] = out["kind"].map(extra)
    out["rank"] = out.groupby("kind")["rel_pp"].rank(ascending=False, method="min")
    return out.sort_values(["kind", "rank"], na_position="last").reset_index(drop=True)


def seat_label_columns(seats, columns, max_labels=60):
    """Of the given seat columns (a game's GameSpec.role_columns: attributes dealt at setup, such as role or
    character), those present in `seats` as labels with 2 to max_labels values: what a seat-attribute comparison
    can rank."""
    out = []
    for c in columns:
        if c not in seats.columns or pd.api.types.is_numeric_dtype(seats[c]) or pd.api.types.is_bool_dtype(seats[c]):
            continue
        col = seats[c]
        if isinstance(col.dtype, pd.CategoricalDtype):  # the same count without a string copy of the column
            labels = col.nunique() + int(bool(col.isna().any()))
        else:
            labels = col.astype(str).nunique()
        if 1 < labels <= max_labels:
            out.append(c)
    return out
