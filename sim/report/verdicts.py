"""Verdicts corrected for multiple comparisons, one family per report section.

A report section looks at many numbers at once (every turn-order position at every player count, every strategy,
every item, every character) and then speaks about the most extreme. Judged one by one with a 95% interval, a
perfectly fair game would still give "findings" in most reports. So every verdict of a section belongs to a
*family* (all the comparisons the section looked at, not only the ones it prints) and is decided on corrected
numbers:

- "differs from fair" is the family's Holm (default) or Benjamini-Hochberg decision on the comparisons'
  p-values (statsmodels `multipletests`);
- "beyond the threshold" and "within the threshold" are read from simultaneous intervals: each comparison's
  interval at level alpha / m (Bonferroni, m = family size; with Benjamini-Hochberg, the false-coverage-rate
  interval at level alpha * R / m, R = the number of rejections, Benjamini and Yekutieli 2005), computed by the same
  analysis function that gives the ordinary 95% interval.

Verdict keys (labels in sim.report.build.VERDICTS):
- red "Strong": differs, and the whole corrected interval lies beyond fair +- threshold;
- amber "Modest": differs, but the corrected interval is not entirely beyond the threshold (nor within it);
- negligible "Negligible": differs, but the whole corrected interval lies within fair +- threshold (real but too
  small to matter: a +0.2 point edge in a million games);
- green "Balanced": does not differ, and the corrected interval lies within fair +- threshold;
- grey "Unclear": does not differ, and the corrected interval is wider than the threshold (more games needed).

The functions here decide which findings a section issues (the report's text is written in sim.report.build),
so a test can count the verdicts of many synthetic studies without drawing a chart.
"""

import gc

import numpy as np
import pandas as pd
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests

from .. import analysis as sa

ALPHA = 0.05
METHOD = "holm"  # or "fdr_bh"
THRESHOLDS = {"seat": 2.0, "strategy": 3.0, "item": 5.0, "role": 5.0, "side": 5.0, "sweep": 2.0}
MIN_ROWS = 200
ALARMS = ("red", "amber", "grey")  # verdicts that ask the designer to act or to run more games


def adjust(p, alpha=ALPHA, method=METHOD):
    """(reject, p_adjusted) of statsmodels multipletests over the finite p-values (NaN stays NaN, not rejected)."""
    p = np.asarray(p, dtype=float)
    ok = np.isfinite(p)
    reject = np.zeros(len(p), dtype=bool)
    p_adj = np.full(len(p), np.nan)
    if ok.any():
        gc.freeze()  # multipletests calls gc.collect(); see sim.analysis.stats.against_value
        try:
            reject[ok], p_adj[ok], _, _ = multipletests(p[ok], alpha=alpha, method=method)
        finally:
            gc.unfreeze()
    return reject, p_adj


def _adjust_shared(p, family_alpha, method=METHOD):
    """`adjust` at the family's share of the report's ALPHA: the p-values are multiplied by ALPHA / family_alpha
    (Bonferroni over the report's families) and then adjusted within the family, so "adjusted p < ALPHA" is the
    decision, whatever the number of families."""
    k = max(1.0, ALPHA / family_alpha)
    return adjust(np.clip(np.asarray(p, dtype=float) * k, 0, 1), family_alpha * k, method)


def simultaneous_alpha(m, n_reject=0, alpha=ALPHA, method=METHOD):
    """The per-comparison level of the family's corrected intervals (see the module docstring)."""
    m = max(int(m), 1)
    if method.startswith("fdr"):
        return alpha * max(int(n_reject), 1) / m
    return alpha / m


def decide(reject, low, high, fair, threshold):
    """Verdict key from the family decision and the corrected interval (all in the same units)."""
    if not (np.isfinite(low) and np.isfinite(high)):
        return "grey"
    within = low >= fair - threshold and high <= fair + threshold
    if reject:
        if low >= fair + threshold or high <= fair - threshold:
            return "red"
        return "negligible" if within else "amber"
    return "green" if within else "grey"


def _family(table, p, low_fn, scale, threshold, alpha, method):
    """Add p_adj, reject, low_s/high_s (corrected interval) and verdict to a rate table (fair column). alpha: the
    family's error rate (the report's, divided by its number of families)."""
    t = table.copy()
    t["reject"], t["p_adj"] = _adjust_shared(p, alpha, method)
    a_s = simultaneous_alpha(len(t), int(t["reject"].sum()), alpha, method)
    lo_s, hi_s = low_fn(a_s)
    t["low_s"], t["high_s"] = np.asarray(lo_s, dtype=float), np.asarray(hi_s, dtype=float)
    t["alpha_s"] = a_s
    t["family"] = len(t)
    t["verdict"] = [
        decide(r, scale * lo, scale * hi, scale * f, threshold)
        for r, lo, hi, f in zip(t["reject"], t["low_s"], t["high_s"], t["fair"])
    ]
    return t


# ----------------------------------------------------------------------------------------------- families


def seat_family(seats, alpha=ALPHA, method=METHOD, threshold=None, family_alpha=None):
    """seat_advantage over every position and player count as one family, with corrected verdicts. alpha: the
    level of the ordinary intervals (low, high); family_alpha: the family's error rate (default alpha)."""
    T = THRESHOLDS["seat"] if threshold is None else threshold
    adv = sa.seat_advantage(seats, alpha=alpha, correction=method)
    key = ["players", "order"]

    def lows(a):
        s = sa.seat_advantage(seats, alpha=a).set_index(key).reindex(pd.MultiIndex.from_frame(adv[key]))
        return s["low"].to_numpy(), s["high"].to_numpy()

    adv["excess"] = adv["rate"] - adv["fair"]
    return _family(adv, adv["p"].to_numpy(), lows, 100, T, family_alpha or alpha, method)


def seat_picks(fam):
    """The seat findings: the first player at every player count, plus the most extreme other position when its
    corrected verdict says it differs from fair."""
    picks = []
    for _, sub in fam.groupby("players"):
        first = sub[sub["order"] == sub["order"].min()].iloc[0]
        picks.append(first)
        others = sub[sub["order"] != first["order"]]
        if len(others):
            o = others.loc[others["excess_pp"].abs().idxmax()]
            if o["verdict"] in ("red", "amber"):
                picks.append(o)
    return picks


def rate_family(seats, by, outcome, kind, alpha=ALPHA, method=METHOD, threshold=None, min_rows=0, family_alpha=None):
    """win_rates by `by` as one family (rows with fewer than min_rows seats are left out of it: not ranked)."""
    T = THRESHOLDS[kind] if threshold is None else threshold
    t = sa.win_rates(seats, by=by, outcome=outcome, alpha=alpha)
    t = t[t["n"] >= max(min_rows, 1)].reset_index(drop=True)
    if t.empty:
        return t.assign(reject=False, p_adj=np.nan, low_s=np.nan, high_s=np.nan, verdict="grey")

    def lows(a):
        s = sa.win_rates(seats, by=by, outcome=outcome, alpha=a)
        keys = [by] if isinstance(by, str) else list(by)
        s = s.set_index(keys).reindex(t.set_index(keys).index)
        return s["low"].to_numpy(), s["high"].to_numpy()

    return _family(t, t["p"].to_numpy(dtype=float), lows, 100, T, family_alpha or alpha, method)


def strategy_family(seats, alpha=ALPHA, method=METHOD, family_alpha=None):
    """Win share of every strategy at every player count as one family (a strategy can be strong with three
    players and weak with five: pooled, the two cancel), or of every strategy when there is one player count."""
    by = ["players", "strategy"] if seats["players"].nunique() > 1 else "strategy"
    return rate_family(seats, by, "win_share", "strategy", alpha, method, family_alpha=family_alpha)


def strategy_picks(fam):
    """Strongest and weakest strategy (one row when they coincide) at every player count of the family, each row
    with `pick` = "strongest" or "weakest"."""
    if fam.empty:
        return []
    groups = fam.groupby("players", sort=True) if "players" in fam.columns else [(None, fam)]
    picks = []
    for _, sub in groups:
        best, worst = sub.loc[sub["excess"].idxmax()].copy(), sub.loc[sub["excess"].idxmin()].copy()
        best["pick"], worst["pick"] = "strongest", "weakest"
        picks += [best] if best["strategy"] == worst["strategy"] else [best, worst]
    return picks


def role_family(seats, cols, alpha=ALPHA, method=METHOD, min_rows=MIN_ROWS, family_alpha=None):
    """Win rate ("win") of every label of every role column (the caller picks the player count), one family over
    all the columns: {column: table with verdicts}."""
    tables = {c: sa.win_rates(seats, by=c, outcome="win", alpha=alpha) for c in cols}
    rows = []
    for c, t in tables.items():
        t = t[t["n"] > 0].copy()
        t["enough"] = t["n"] >= min_rows
        t["_col"] = c
        rows.append(t.rename(columns={c: "_label"}))
    if not rows:
        return {}
    allt = pd.concat(rows, ignore_index=True)
    ranked = allt[allt["enough"]].reset_index(drop=True)
    if len(ranked):

        def lows(a):
            lo, hi = [], []
            for c in cols:
                s = sa.win_rates(seats, by=c, outcome="win", alpha=a).set_index(c)
                sub = ranked[ranked["_col"] == c]
                s = s.reindex(sub["_label"])
                lo.append(pd.Series(s["low"].to_numpy(), index=sub.index))
                hi.append(pd.Series(s["high"].to_numpy(), index=sub.index))
            return pd.concat(lo).sort_index().to_numpy(), pd.concat(hi).sort_index().to_numpy()

        p = ranked["p"].to_numpy(dtype=float)
        ranked = _family(ranked, p, lows, 100, THRESHOLDS["role"], family_alpha or alpha, method)
    out = {}
    for c in cols:
        t = allt[allt["_col"] == c].drop(columns=["_col", "p_adj", "significant"])
        if len(ranked):
            r = ranked[ranked["_col"] == c].drop(columns="_col")
            extra = [k for k in ("reject", "p_adj", "low_s", "high_s", "alpha_s", "family", "verdict")]
            t = t.merge(r[["_label"] + extra], on="_label", how="left")
        t["rank"] = t["excess"].where(t["enough"]).rank(ascending=False, method="min")
        t = (
            t.rename(columns={"_label": c})
            .sort_values(["rank", "excess"], ascending=[True, False], na_position="last")
            .reset_index(drop=True)
        )
        out[c] = t
    return out


def role_picks(t):
    ranked = t[t["enough"]]
    if ranked.empty:
        return []
    if len(ranked) > 12:  # characters: strongest and weakest
        return [ranked.loc[ranked["excess"].idxmax()], ranked.loc[ranked["excess"].idxmin()]]
    return [ranked.loc[ranked["excess"].abs().idxmax()]]


# ----------------------------------------------------------------------------------------------- a whole study


def report_families(seats, items=None, games=None, quiet=(), roles=(), side=""):
    """The families of verdicts a report judges: seat, strategy (several strategies), item (items), side (the games
    column `side`, a team game's winning side), role (the role columns `roles` not judged elsewhere). The
    report's error rate is shared among them (Bonferroni over families, Holm within each), so a fair game gives
    a report with any false finding at most ALPHA of the time."""
    fams = ["seat"]
    if seats["strategy"].nunique() > 1:
        fams.append("strategy")
    if items is not None and len(items):
        fams.append("item")
    if games is not None and side and side in games.columns:
        fams.append("side")
    if [c for c in roles if c not in quiet]:
        fams.append("role")
    return fams


def study_verdicts(seats, items=None, role_players=None, alpha=ALPHA, method=METHOD, item_max_rows=250_000, roles=()):
    """The verdicts a report would issue on these tables, as a list of (kind, verdict key): seats, strategies,
    items (when given) and roles (the seat label columns `roles`, at role_players, default the most common player
    count). No charts, no text: for counting false alarms over many synthetic studies."""
    cols = sa.seat_label_columns(seats, roles)
    fa = alpha / len(report_families(seats, items, roles=cols))
    out = [("seat", r["verdict"]) for r in seat_picks(seat_family(seats, alpha, method, family_alpha=fa))]
    if seats["strategy"].nunique() > 1:
        out += [
            ("strategy", r["verdict"]) for r in strategy_picks(strategy_family(seats, alpha, method, family_alpha=fa))
        ]
    if items is not None and len(items):
        fam = item_family(
            seats, items, alpha=alpha, method=method, max_rows=item_max_rows, by_players=False, family_alpha=fa
        )
        out += [("item", r["verdict"]) for r in item_picks(fam)]
    if cols:
        n = role_players or int(seats.groupby("players").size().idxmax())
        for t in role_family(seats[seats["players"] == n], cols, alpha, method, family_alpha=fa).values():
            out += [("role", r["verdict"]) for r in role_picks(t)]
    return out


# ----------------------------------------------------------------------------------------------- items

ITEMS_PER_KIND = 3  # item findings per kind at most (the ones that differ, largest first)


def item_family(
    seats,
    items,
    games=None,
    length_col=None,
    alpha=ALPHA,
    method=METHOD,
    min_rows=MIN_ROWS,
    max_rows=250_000,
    by_players=True,
    family_alpha=None,
):
    """sim.analysis.item_effects with one family over every fitted item of every kind: the verdict is on the
    adjusted effect relative to the average of the kind's other items (rel_pp; an item beyond the threshold is set
    aside from the others' baseline) against 0 and the item threshold. An item the leaders acquire (leaders_flag)
    is never "Strong": its association may be the leaders' lead (see `sim effect`)."""
    t = sa.item_effects(
        seats,
        items,
        outcome="win",
        alpha=alpha,
        min_rows=min_rows,
        games=games,
        length_col=length_col,
        max_rows=max_rows,
        by_players=by_players,
        outlier_pp=THRESHOLDS["item"],
    )
    T = THRESHOLDS["item"]
    fitted = np.isfinite(t["rel_p"].to_numpy(dtype=float))
    fa = family_alpha or alpha
    t["reject"], t["p_adj"] = _adjust_shared(np.where(fitted, t["rel_p"], np.nan), fa, method)
    m = int(fitted.sum())
    a_s = simultaneous_alpha(m, int(t["reject"].sum()), fa, method)
    z = sps.norm.ppf(1 - a_s / 2)
    t["low_s"] = t["rel_pp"] - z * t["rel_se_pp"]
    t["high_s"] = t["rel_pp"] + z * t["rel_se_pp"]
    t["alpha_s"], t["family"] = a_s, m
    v = [
        decide(r, lo, hi, 0.0, T) if f else "grey" for r, lo, hi, f in zip(t["reject"], t["low_s"], t["high_s"], fitted)
    ]
    t["verdict"] = ["amber" if (x == "red" and lf) else x for x, lf in zip(v, t["leaders_flag"])]
    t.loc[~fitted, "verdict"] = None
    return t


def item_picks(fam):
    """Per kind: the items whose verdict differs from neutral (red, amber; largest first, ITEMS_PER_KIND at most),
    else the kind's item furthest from its average."""
    picks = []
    for _, sub in fam[fam["verdict"].notna()].groupby("kind", observed=True):
        sub = sub.assign(_a=sub["rel_pp"].abs()).sort_values("_a", ascending=False)
        hot = sub[sub["verdict"].isin(["red", "amber"])]
        chosen = hot.head(ITEMS_PER_KIND) if len(hot) else sub.head(1)
        picks += [r for _, r in chosen.drop(columns="_a").iterrows()]
    return picks


# ----------------------------------------------------------------------------------------------- sides


def side_family(games, col, targets=None, alpha=ALPHA, method=METHOD, family_alpha=None):
    """sim.analysis.side_rates of the games column `col` (the winning side: GameSpec.side_column) over every
    player count and side as one family, verdicts against the target."""
    t = sa.side_rates(games, column=col, targets=targets, alpha=alpha)
    if t.empty:
        return t
    t = t.rename(columns={"target": "fair"})

    def lows(a):
        s = sa.side_rates(games, column=col, targets=targets, alpha=a)
        return s["low"].to_numpy(), s["high"].to_numpy()

    return _family(t, t["p"].to_numpy(), lows, 100, THRESHOLDS["side"], family_alpha or alpha, method)


def side_picks(fam):
    """Per player count: the side furthest from its target."""
    return [sub.loc[sub["excess"].abs().idxmax()] for _, sub in fam.groupby("players")] if len(fam) else []


# ----------------------------------------------------------------------------------------------- next steps


def _param(spec, pattern, kinds=("int", "float")):
    """The first parameter of the game whose name matches the regular expression (numeric kinds)."""
    import re

    if spec is None:
        return None
    for p in spec.params.params:
        if p.kind in kinds and re.search(pattern, p.name):
            return p
    return None


def _grid(p):
    step = max(1, int(round(abs(p.default) / 5))) if p.kind == "int" else max(abs(p.default) / 5, 0.1)
    lo = p.lo if p.lo is not None else p.default - 2 * step
    hi = p.hi if p.hi is not None else p.default + 2 * step
    a, b = max(lo, p.default - 2 * step), min(hi, p.default + 2 * step)
    return f"{p.name}={p.show(a)}:{p.show(b)}:{step}" if p.kind == "int" else f"{p.name}={a:g},{p.default:g},{b:g}"


def next_step(spec, kind, players=None, position=None, side=None, item=None):
    """(command, parameter name) a designer could run next for a red finding, or (None, None).

    seat: `sim solve` on a compensation parameter of that position (a parameter named after order<k>, else a
    starting step or starting amount); side: `sim sweep` over a parameter named after the side (law: the sheriff);
    item: `sim sweep` over the item's cost, VP or life; strategy: another line-up (a verdict on the bots)."""
    if spec is None:
        return None, None
    g, n = spec.name, f" --players {int(players)}" if players else ""
    if kind == "seat":
        k = int(position or 0)
        p = (
            _param(spec, rf"order{k}\b")
            or _param(spec, r"start_step")
            or (_param(spec, r"sheriff") if k == 0 and getattr(spec, "turn_order_note", "") else None)
            or _param(spec, r"(^|\.)start_\w+")
        )
        if p is None:
            return None, None
        return (f"sim solve {g}{n} --param {p.name} --metric order{k}_win_share", p.name)
    if kind == "side":
        words = {
            "law": "sheriff|deputy",
            "outlaws": "outlaw",
            "outlaw": "outlaw",
            "renegade": "renegade",
            "deputy": "deputy",
        }.get(str(side), str(side))
        p = _param(spec, rf"(^|\.)({words})") or _param(spec, rf"({words})")
        if p is None:
            return None, None
        return f"sim sweep {g}{n} --grid {_grid(p)}", p.name
    if kind == "item":
        import re

        from ..effect import slug

        s = slug(item)
        p = _param(spec, rf"(^|\.){re.escape(s)}\.(cost|vp|vp1|price)$") or _param(
            spec, rf"(?i)(^|\.){re.escape(str(item))}$"
        )
        if p is None:
            return None, None
        return f"sim sweep {g}{n} --grid {_grid(p)}", p.name
    if kind == "strategy":
        return f"sim strategies {g}  (then sim run {g}{n} --lineup ... with other players)", None
    return None, None


# ----------------------------------------------------------------------------------------------- robustness


def second_lineup(spec, lineup):
    """Another population of players for the robustness check: the game's strategies that are not in `lineup`
    (public-information ones first; never the uniform-random player), or None when there are none."""
    used = set(lineup or ())
    others = [s for s in spec.strategies if s.name not in used]
    public = [s.name for s in others if not s.sees_hidden]
    names = public or [s.name for s in others]
    return tuple(names) or None


def holds(first_verdict, first_excess, second):
    """'holds' / 'depends' / None: does a finding keep its direction under the second population? second: the
    matching row of the second population's family (verdict, excess, reject), or None."""
    if second is None or first_verdict in (None, "grey", "info"):
        return None
    v2 = second["verdict"]
    if not isinstance(v2, str):
        return None
    if first_verdict in ("red", "amber", "negligible"):
        rej = bool(second["reject"])
        if rej and np.sign(second["excess"]) == np.sign(first_excess):
            return "holds"
        if (rej and np.sign(second["excess"]) != np.sign(first_excess)) or (first_verdict == "red" and v2 == "green"):
            return "depends"
        return None  # the second population cannot tell: no label rather than a wrong one
    if first_verdict == "green":
        return "holds" if v2 in ("green", "negligible") else "depends" if v2 in ("red", "amber") else None
    return None
