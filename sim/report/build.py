"""Build a designer report: findings first, then the evidence, provenance and how to reproduce it.

`collect(path)` reads a run or sweep folder and computes everything with sim.analysis (no statistic is computed
here), returning a `Report` (findings, sections, facts); `render(report)` turns that into one self-contained HTML
page: CSS inline, charts as embedded PNG (data: URIs), no JavaScript, no external resources, print-friendly.
`build_report` does both and writes the file; `write_pdf` prints the HTML to PDF with headless Chromium.

Verdicts never come from a point estimate alone: each compares a 95% interval with the fair value and with a
stated practical threshold (`THRESHOLDS`, in percentage points):
- red    "strong": the interval lies entirely beyond fair +- threshold (the effect is real and large);
- amber  "modest": the interval excludes fair but does not lie entirely beyond the threshold;
- green  "balanced": the interval includes fair and lies entirely within fair +- threshold;
- grey   "unclear": the interval includes fair but is wider than fair +- threshold (more games needed).
"""
import base64
import datetime as _dt
import glob
import html
import io
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .. import analysis as sa
from ..analysis import plotting
from ..analysis.items import acquisitions
from ..errors import UserError

# Practical thresholds, percentage points: how far from fair a rate may be before a designer should act.
THRESHOLDS = {"seat": 2.0, "strategy": 3.0, "item": 5.0, "role": 5.0, "sweep": 2.0}
MIN_ROWS = 200            # seat rows with and without an item / with a role before it is ranked
ITEM_MAX_ROWS = 30_000    # rows used by the adjusted (logistic) item model, a sample of whole games (speed)
BT_BOOTSTRAP = 100        # bootstrap refits for the Bradley-Terry rating intervals
ITEMS_SHOWN = 10          # top and bottom ranked items per kind in charts and tables
ALPHA = 0.05

VERDICTS = {  # key: (label, colour (Okabe-Ito, colour-blind safe), symbol so colour is never the only cue)
    "red": ("Strong", "#D55E00", "\u25b2"),
    "amber": ("Modest", "#E69F00", "\u25c6"),
    "green": ("Balanced", "#009E73", "\u2714"),
    "grey": ("Unclear", "#8C8C8C", "?"),
    "info": ("Fact", "#0072B2", "i"),
}
SEVERITY = {"red": 0, "amber": 1, "grey": 2, "green": 3, "info": 4}

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome",
                  "headless_shell")
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage")


# ----------------------------------------------------------------------------------------------- verdicts

def verdict(low, high, fair, threshold):
    """Verdict key from an interval [low, high], the fair value and a practical threshold (same units)."""
    if not (np.isfinite(low) and np.isfinite(high)):
        return "grey"
    if low > fair or high < fair:                          # the interval excludes fair: a real difference
        if low >= fair + threshold or high <= fair - threshold:
            return "red"
        return "amber"
    if low >= fair - threshold and high <= fair + threshold:
        return "green"
    return "grey"


@dataclass
class Finding:
    verdict: str
    text: str            # the plain-language sentence
    evidence: str        # the numbers behind it and the rule that gave the verdict
    kind: str            # seat, strategy, item, role, length, capped, sweep, balance
    section: str         # anchor of the section holding the evidence
    data: dict = field(default_factory=dict)   # machine-readable numbers (written as data-* attributes)


@dataclass
class Section:
    anchor: str
    title: str
    body: list = field(default_factory=list)   # HTML fragments


@dataclass
class Report:
    title: str
    path: str
    manifest: dict
    is_sweep: bool
    findings: list = field(default_factory=list)
    sections: list = field(default_factory=list)
    notices: list = field(default_factory=list)     # HTML fragments shown above the findings
    tables: dict = field(default_factory=dict)      # the analysis tables behind the findings (for tests)


# ----------------------------------------------------------------------------------------------- formatting

def esc(x):
    return html.escape(str(x), quote=True)


def pct(x, digits=1):
    return "n/a" if x is None or not np.isfinite(x) else f"{100 * x:.{digits}f}%"


def ci(lo, hi, digits=1):
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return "interval n/a"
    return f"{100 * lo:.{digits}f}\u2013{100 * hi:.{digits}f}%"


def pts(x, digits=1):
    return "n/a" if not np.isfinite(x) else f"{x:+.{digits}f}"


def ordinal(k):
    k = int(k)
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def who(order):
    return "first player" if int(order) == 0 else f"{ordinal(int(order) + 1)} player in turn order"


def nice(name):
    return str(name).replace("_", " ")


def item_name(name):
    """An item's display name: 'tile:Schoolroom' -> 'Schoolroom' (the kind is said separately)."""
    s = str(name)
    head, sep, tail = s.partition(":")
    return nice(tail if sep and tail and len(head) <= 24 and " " not in head else s)


def table_html(df, formats=None, classes="data"):
    """A small HTML table from a DataFrame; formats: {column: function(value) -> str}."""
    formats = formats or {}
    head = "".join(f"<th>{esc(c)}</th>" for c in df.columns)
    rows = []
    for _, r in df.iterrows():
        cells = []
        for c in df.columns:
            v = r[c]
            f = formats.get(c)
            s = f(v) if f else (f"{v:.3g}" if isinstance(v, (float, np.floating)) else str(v))
            num = isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
            cells.append(f"<td{' class=num' if num else ''}>{esc(s)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table class='{classes}'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def para(text):
    return f"<p>{text}</p>"


# ----------------------------------------------------------------------------------------------- charts

def figure_html(fig, alt, caption=""):
    """Embed a matplotlib figure as a base64 PNG <img> inside a <figure>; closes the figure."""
    import matplotlib.pyplot as plt
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
    plt.close(fig)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    cap = f"<figcaption>{caption}</figcaption>" if caption else ""
    return f"<figure><img src='data:image/png;base64,{data}' alt='{esc(alt)}'>{cap}</figure>"


def _new_ax(size=None):
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=size)
    return fig, ax


# ----------------------------------------------------------------------------------------------- loading

def open_results(path):
    """The results folder as a sim.analysis Run, or a one-line UserError saying what is wrong."""
    p = Path(str(path))
    hint = "pass the folder written by `sim run` or `sim sweep` (it holds manifest.json and games/ seats/ tables)"
    if not p.exists():
        raise UserError(f"no such results folder: {p}; {hint}")
    if not p.is_dir():
        raise UserError(f"{p} is not a results folder; {hint}")
    missing = [n for n in ("manifest.json", "games", "seats") if not (p / n).exists()]
    if missing:
        raise UserError(f"{p} is not a results folder (no {', '.join(missing)}); {hint}")
    try:
        run = sa.load_run(p)
        run.columns("seats")
    except (OSError, ValueError) as e:
        raise UserError(f"{p}: cannot read the results ({type(e).__name__}: {str(e).splitlines()[0]})") from None
    if not run.manifest.get("game"):
        raise UserError(f"{p}/manifest.json names no game; {hint}")
    return run


def _spec(name):
    from ..game import get_game
    try:
        return get_game(name)
    except (UserError, ImportError):
        return None


def _solve_results(path, extra):
    """Solve results (JSON written by `sim solve --out`) found in the results folder or given explicitly."""
    files = [Path(f) for f in extra or []]
    for f in files:
        if not f.is_file():
            raise UserError(f"no such solve result file: {f}")
    files += [Path(f) for f in sorted(glob.glob(os.path.join(str(path), "*.json")))
              if os.path.basename(f) != "manifest.json"]
    out = []
    for f in dict.fromkeys(files):
        try:
            d = json.loads(f.read_text())
        except (OSError, ValueError):
            if f in (extra or []):
                raise UserError(f"{f} is not a solve result (not readable JSON)") from None
            continue
        if isinstance(d, dict) and {"param", "value", "evaluations", "target"} <= set(d):
            out.append(d)
        elif str(f) in [str(e) for e in extra or []]:
            raise UserError(f"{f} is not a solve result (written by `sim solve --out FILE`)")
    return out


def _length_column(games):
    for c in ("turns", "turns_total", "rounds"):
        if c in games.columns:
            return c
    return "steps"


ROLE_WORDS = ("role", "character", "faction", "team", "identity")


def _seat_columns(names):
    """The seat columns the report uses (large runs: read only these)."""
    base = {"config", "game", "seat", "players", "strategy", "score", "win_share", "rank", "win", "order"}
    return [c for c in names if c in base or c.startswith("vp_") or any(k in c.lower() for k in ROLE_WORDS)]


def _role_columns(seats):
    """Seat label columns that are roles or characters (a property of the seat, not an outcome)."""
    out = []
    for c in seats.columns:
        low = c.lower()
        if c == "strategy" or pd.api.types.is_numeric_dtype(seats[c]):
            continue
        if not any(k in low for k in ROLE_WORDS):
            continue
        if low.endswith(("_end", "_by")) or low.startswith(("final", "winner")):
            continue
        if 1 < seats[c].astype(str).nunique() <= 60:
            out.append(c)
    return out


# ----------------------------------------------------------------------------------------------- sections

def _seat_section(rep, seats, spec=None):
    T = THRESHOLDS["seat"]
    adv = sa.seat_advantage(seats, alpha=ALPHA)
    eq = sa.equality_tests(seats, alpha=ALPHA)
    rep.tables["seat_advantage"] = adv
    rep.tables["equality_tests"] = eq
    sec = Section("seats", "Seat and first-player advantage")
    sec.body.append(para(
        "Each row is a position in turn order (1 = the player who starts). Its <b>win share</b> is the share of "
        "wins it takes; in a perfectly fair n-player game every position takes 1/n. Rotated line-ups put every "
        f"strategy in every seat equally often, so what remains is the seat itself. Verdicts use a practical "
        f"threshold of {T:g} percentage points around 1/n."))
    note = spec.turn_order_note if spec is not None else ""
    if note:
        sec.body.append(para(f"<b>Read position 1 with care:</b> {esc(note)}"))
    elif _role_columns(seats):
        sec.body.append(para("This game deals roles or characters: where the rules tie one to the turn order "
                             "(for example a sheriff who always starts), a position's share measures that role "
                             "as much as the seat; see the roles section."))
    for n, sub in adv.groupby("players"):
        n = int(n)
        picks = [sub[sub["order"] == sub["order"].min()].iloc[0]]
        others = sub[sub["order"] != picks[0]["order"]]
        if len(others):
            o = others.loc[others["excess_pp"].abs().idxmax()]
            if SEVERITY[verdict(100 * o["low"], 100 * o["high"], 100 * o["fair"], T)] <= SEVERITY["amber"]:
                picks.append(o)
        for r in picks:
            v = verdict(100 * r["low"], 100 * r["high"], 100 * r["fair"], T)
            first = int(r["order"]) == 0
            side = "advantage" if r["rate"] > r["fair"] else "disadvantage"
            if v == "red":
                tail = (f"a strong {side} for position 1" if first and note else
                        f"a strong first-player {side}" if first else f"a strong {side} for that seat")
            elif v == "amber":
                tail = f"a real but modest {side} (not clearly beyond {T:g} points)"
            elif v == "green":
                tail = f"fair: within {T:g} points of an even share"
            else:
                tail = f"too few games to tell whether it is within {T:g} points of fair"
            text = (f"The {who(r['order'])} wins {pct(r['rate'])} ({ci(r['low'], r['high'])}) of {n}-player "
                    f"games against a fair {pct(r['fair'])}: {tail}.")
            if first and note:
                text += f" {note}"
            ev = (f"{int(r['games']):,} games; win share with its 95% interval; "
                  f"{pts(r['excess_pp'])} points from fair.")
            rep.findings.append(Finding(v, text, ev, "seat", sec.anchor, {
                "players": n, "position": int(r["order"]), "rate": float(r["rate"]), "low": float(r["low"]),
                "high": float(r["high"]), "fair": float(r["fair"]), "games": int(r["games"])}))
    import matplotlib.pyplot as plt  # noqa: F401  (backend chosen by matplotlib)
    fig, ax = _new_ax((7.5, 4.2))
    plotting.plot_seat_advantage(adv, ax=ax)
    sec.body.append(figure_html(fig, "win share by turn-order position per player count",
                                "Dots: win share; bars: 95% interval; dashed lines: the fair share 1/n."))
    t = adv.assign(position=adv["order"] + 1)[["players", "position", "games", "rate", "low", "high", "fair",
                                               "excess_pp", "flagged"]]
    t = t.assign(verdict=[VERDICTS[verdict(100 * a, 100 * b, 100 * f, T)][0]
                          for a, b, f in zip(t["low"], t["high"], t["fair"])])
    sec.body.append(table_html(t.rename(columns={"rate": "win share", "low": "95% low", "high": "95% high",
                                                 "excess_pp": "points from fair",
                                                 "flagged": "differs (Holm)"}),
                               {"win share": pct, "95% low": pct, "95% high": pct, "fair": pct,
                                "points from fair": pts, "games": lambda v: f"{int(v):,}",
                                "differs (Holm)": lambda v: "yes" if v else "no"}))
    e = eq[["players", "games", "p", "best", "worst", "gap_pp", "gap_low_pp", "gap_high_pp"]].copy()
    e["best"] = e["best"].astype(int) + 1
    e["worst"] = e["worst"].astype(int) + 1
    sec.body.append(para(
        "Are all positions equal? The test below asks whether the differences between positions could be luck "
        "(a small p-value, say under 0.05, means they are not); the gap is the best position's share minus the "
        "worst one's, in percentage points."))
    sec.body.append(table_html(e.rename(columns={"p": "p-value", "gap_pp": "gap (points)", "gap_low_pp": "gap low",
                                                 "gap_high_pp": "gap high", "best": "best position",
                                                 "worst": "worst position"}),
                               {"p-value": lambda v: f"{v:.2g}", "gap (points)": lambda v: f"{v:.1f}",
                                "gap low": lambda v: f"{v:.1f}", "gap high": lambda v: f"{v:.1f}",
                                "games": lambda v: f"{int(v):,}"}))
    rep.sections.append(sec)


def _strategy_section(rep, seats):
    T = THRESHOLDS["strategy"]
    sec = Section("strategies", "Strategies")
    names = sorted(seats["strategy"].astype(str).unique())
    if len(names) < 2:
        sec.body.append(para(f"Every seat played the same scripted strategy ({esc(names[0])}), so strategies "
                             "cannot be compared in this run. Run with <code>--lineup</code> to compare several."))
        rep.sections.append(sec)
        return
    wr = sa.win_rates(seats, by="strategy", alpha=ALPHA)
    rep.tables["win_rates"] = wr
    sec.body.append(para(
        "The scripted strategies are simple rule-of-thumb players, not experts: a strategy far above the others "
        "points to a line of play the game may reward too much. Win share as above; <b>fair</b> is what a "
        f"strategy would take if it made no difference. Threshold: {T:g} points."))
    best = wr.loc[wr["excess"].idxmax()]
    worst = wr.loc[wr["excess"].idxmin()]
    for r, word in ((best, "strongest"), (worst, "weakest")):
        v = verdict(100 * r["low"], 100 * r["high"], 100 * r["fair"], T)
        tail = {"red": "a clearly dominant line of play" if r["excess"] > 0 else "clearly outclassed",
                "amber": "a real but modest edge" if r["excess"] > 0 else "a real but modest handicap",
                "green": f"within {T:g} points of fair", "grey": "too few games to tell"}[v]
        text = (f"The {esc(r['strategy'])} strategy ({word}) takes {pct(r['rate'])} ({ci(r['low'], r['high'])}) "
                f"of the wins against a fair {pct(r['fair'])}: {tail}.")
        ev = f"{int(r['n']):,} seats in {int(r['games']):,} games; 95% interval ({r['interval']})."
        rep.findings.append(Finding(v, text, ev, "strategy", sec.anchor, {
            "strategy": str(r["strategy"]), "rate": float(r["rate"]), "low": float(r["low"]),
            "high": float(r["high"]), "fair": float(r["fair"])}))
        if best["strategy"] == worst["strategy"]:
            break
    fig, ax = _new_ax((7.5, 0.4 * len(wr) + 1.6))
    plotting.plot_rates(wr, label="strategy", ax=ax, xlabel="win share (%)", title="Win share by strategy")
    sec.body.append(figure_html(fig, "win share by strategy", "Dots: win share; bars: 95% interval; "
                                                               "grey: the fair share."))
    if seats["players"].nunique() > 1:
        wp = sa.win_rates_by_players(seats, by="strategy", alpha=ALPHA)
        rep.tables["win_rates_by_players"] = wp
        sec.body.append(para("By player count:"))
        sec.body.append(table_html(wp[["players", "strategy", "n", "rate", "low", "high", "fair"]].rename(
            columns={"n": "seats", "rate": "win share", "low": "95% low", "high": "95% high"}),
            {"win share": pct, "95% low": pct, "95% high": pct, "fair": pct, "seats": lambda v: f"{int(v):,}"}))
    try:
        mm = sa.matchup_matrix(seats, alpha=ALPHA)
        bt = sa.bradley_terry(seats, alpha=ALPHA, bootstrap=BT_BOOTSTRAP, seed=0)
    except ValueError:
        mm, bt = None, None
    if mm is not None and len(mm):
        rep.tables["matchups"], rep.tables["ratings"] = mm, bt
        sec.body.append(para(
            "<b>Match-ups.</b> How often the row strategy finishes ahead of the column strategy when both are in "
            "the same game (50% = even). <b>Ratings</b> put all strategies on one scale from those results "
            "(Bradley-Terry, shown as Elo points: +100 means finishing ahead of an average opponent about 64% of "
            "the time)."))
        k = len(names)
        fig, ax = _new_ax((1.0 * k + 3.0, 0.8 * k + 2.2))
        plotting.plot_matchups(mm, ax=ax)
        sec.body.append(figure_html(fig, "head-to-head matrix of strategies"))
        fig, ax = _new_ax((7.5, 0.4 * len(bt) + 1.6))
        plotting.plot_ratings(bt, ax=ax)
        sec.body.append(figure_html(fig, "strategy ratings with intervals"))
    rep.sections.append(sec)


def _item_effect(row):
    """(effect, low, high, adjusted?) in percentage points for one item_strength row."""
    adj = [row.get(c, np.nan) for c in ("adj_ame_pp", "adj_ame_low_pp", "adj_ame_high_pp")]
    if all(isinstance(v, (int, float, np.floating)) and np.isfinite(v) for v in adj):
        return row["adj_ame_pp"], row["adj_ame_low_pp"], row["adj_ame_high_pp"], True
    return 100 * row["diff"], 100 * row["low"], 100 * row["high"], False


def _items_section(rep, seats, items):
    T = THRESHOLDS["item"]
    sec = Section("items", "Item strength")
    sec.body.append(para(
        "For each card, building or other item: the win rate of seats that acquired it minus seats that never "
        "did, in percentage points, with a 95% interval (games are the unit, so one player's gain being another's "
        "loss is accounted for). The <b>adjusted</b> effect removes what turn order, strategy and player count "
        "explain, so an item is not credited for the strong strategy that buys it; it is fitted (on a sample of "
        f"at most {ITEM_MAX_ROWS:,} seats, whole games) for the item of each kind that stands out most, and used "
        f"in the finding when it could be fitted. Items seen in fewer than {MIN_ROWS} seats (with or without it) are flagged "
        f"<i>too few games</i> and not ranked. Threshold: {T:g} points. This shows association, not proof: a "
        "player who is already winning may simply acquire more."))
    strength = {}
    for kind in sorted(items["kind"].astype(str).unique()):
        t = sa.item_strength(seats, items, outcome="win", kind=kind, min_rows=MIN_ROWS, alpha=ALPHA,
                             adjusted=False)
        if t.empty:
            continue
        ranked = t[t["enough"]]
        sec.body.append(f"<h3>{esc(nice(kind).capitalize())} ({len(t)} items, {len(ranked)} ranked)</h3>")
        if len(ranked):
            # the finding: the ranked item furthest from neutral (raw), then its adjusted effect (one model per kind)
            r_idx = (ranked["diff"]).abs().idxmax()
            acq = acquisitions(seats, items, kind)
            fit = sa.adjusted_effect(seats, acq[acq["item"] == ranked.loc[r_idx, "item"]], outcome="win",
                                     alpha=ALPHA, max_rows=ITEM_MAX_ROWS, seed=0)
            for k, v in fit.items():
                if k not in t.columns:
                    t[k] = np.nan if not isinstance(v, str) else ""
                t.loc[r_idx, k] = v
            ranked = t[t["enough"]]
            r = ranked.loc[r_idx]
            e, lo, hi, adj = _item_effect(r)
            v = verdict(lo, hi, 0.0, T)
            how = "more" if e > 0 else "less"
            tail = {"red": "a clear outlier to look at", "amber": "a real but modest effect",
                    "green": f"within {T:g} points of neutral", "grey": "too few games to tell"}[v]
            text = (f"Seats that acquire the {nice(kind)} {esc(item_name(r['item']))} win {abs(e):.1f} points {how} "
                    f"often than seats that do not{' (adjusted)' if adj else ''}: {tail}.")
            ev = (f"{'Adjusted' if adj else 'Raw'} effect {pts(e)} points (95% interval {lo:+.1f} to {hi:+.1f}); "
                  f"win rate {pct(r['rate_with'])} with it vs {pct(r['rate_without'])} without; acquired by "
                  f"{pct(r['pick_rate'])} of seats ({int(r['n_with']):,}).")
            rep.findings.append(Finding(v, text, ev, "item", sec.anchor, {
                "item": str(r["item"]), "item_kind": kind, "effect_pp": float(e), "low_pp": float(lo),
                "high_pp": float(hi), "adjusted": bool(adj)}))
        strength[kind] = t
        shown = pd.concat([ranked.head(ITEMS_SHOWN), ranked.tail(ITEMS_SHOWN),
                           t[~t["enough"]].head(ITEMS_SHOWN)])
        shown = shown[~shown.index.duplicated()]
        fig, ax = _new_ax((7.5, 0.32 * len(shown) + 1.8))
        plotting.plot_item_strength(shown, ax=ax, top=len(shown),
                                       title=f"{nice(kind).capitalize()}: win rate when acquired minus when not")
        note = "" if len(shown) == len(t) else f" Showing the top and bottom {ITEMS_SHOWN} ranked items."
        sec.body.append(figure_html(fig, f"{kind} strength",
                                    "Raw difference with 95% interval (clustered by game); hollow grey: too few "
                                    "games to rank." + note))
        cols = [c for c in ["item", "n_with", "pick_rate", "rate_with", "rate_without", "diff", "low", "high",
                            "adj_ame_pp", "adj_ame_low_pp", "adj_ame_high_pp", "avg_turn", "enough"]
                if c in shown.columns]
        tab = shown[cols].rename(columns={"n_with": "seats with", "pick_rate": "picked", "rate_with": "win with",
                                          "rate_without": "win without", "diff": "raw diff", "low": "raw low",
                                          "high": "raw high", "adj_ame_pp": "adjusted (pts)",
                                          "adj_ame_low_pp": "adj low", "adj_ame_high_pp": "adj high",
                                          "avg_turn": "avg turn", "enough": "ranked"})
        f1 = lambda v: "" if not np.isfinite(v) else f"{v:+.1f}"       # noqa: E731
        f100 = lambda v: "" if not np.isfinite(v) else f"{100 * v:+.1f}"   # noqa: E731
        sec.body.append(table_html(tab, {"seats with": lambda v: f"{int(v):,}", "picked": pct, "win with": pct,
                                         "win without": pct, "raw diff": f100, "raw low": f100, "raw high": f100,
                                         "adjusted (pts)": f1, "adj low": f1, "adj high": f1,
                                         "avg turn": lambda v: f"{v:.1f}",
                                         "ranked": lambda v: "yes" if v else "too few games"}))
    rep.tables["item_strength"] = strength
    if strength:
        rep.sections.append(sec)


def _reference_players(seats, spec):
    counts = seats.groupby("players").size()
    if spec is not None and spec.default_players in counts.index:
        return int(spec.default_players)
    return int(counts.idxmax())


def _roles_section(rep, seats, spec):
    T = THRESHOLDS["role"]
    cols = _role_columns(seats)
    if not cols:
        return
    sec = Section("roles", "Roles and characters")
    n_ref = _reference_players(seats, spec)
    sec.body.append(para(
        "Win rate of each role or character: the share of games its seat won (in team games, its team won). "
        "<b>Fair</b> is what it would win if it made no difference: in team games, the average number of winners "
        f"per game divided by the players. Shown for {n_ref}-player games. Labels seen in fewer than {MIN_ROWS} "
        f"seats are flagged <i>too few games</i>. Threshold: {T:g} points."))
    sub = seats[seats["players"] == n_ref]
    tables = {}
    for col in cols:
        t = sa.seat_attribute_strength(sub, col, outcome="win", alpha=ALPHA, min_rows=MIN_ROWS)
        t = t[t["n"] > 0]
        if len(t) < 2:
            continue
        tables[col] = t
        ranked = t[t["enough"]]
        if len(ranked):
            picks = [ranked.loc[ranked["excess"].abs().idxmax()]]
            if len(ranked) > 12:                 # characters: strongest and weakest
                picks = [ranked.loc[ranked["excess"].idxmax()], ranked.loc[ranked["excess"].idxmin()]]
            for r in picks:
                v = verdict(100 * r["low"], 100 * r["high"], 100 * r["fair"], T)
                tail = {"red": "far from even", "amber": "a real but modest difference",
                        "green": f"within {T:g} points of fair", "grey": "too few games to tell"}[v]
                text = (f"The {esc(nice(r[col]))} ({nice(col)}) wins {pct(r['rate'])} ({ci(r['low'], r['high'])}) "
                        f"of {n_ref}-player games, against {pct(r['fair'])} if it made no difference: {tail}.")
                ev = f"{int(r['n']):,} seats; 95% interval ({r['interval']}); outcome: won or shared the win."
                rep.findings.append(Finding(v, text, ev, "role", sec.anchor, {
                    "column": col, "label": str(r[col]), "players": n_ref, "rate": float(r["rate"]),
                    "low": float(r["low"]), "high": float(r["high"]), "fair": float(r["fair"])}))
        fig, ax = _new_ax((7.5, 0.32 * len(t) + 1.8))
        plotting.plot_rates(t, label=col, ax=ax, xlabel="win rate (%)",
                               title=f"Win rate by {nice(col)} ({n_ref} players)")
        sec.body.append(f"<h3>{esc(nice(col).capitalize())}</h3>")
        sec.body.append(figure_html(fig, f"win rate by {col}", "Dots: win rate; bars: 95% interval; grey: fair."))
        sec.body.append(table_html(
            t[[col, "n", "rate", "low", "high", "fair", "excess", "enough"]].rename(
                columns={"n": "seats", "rate": "win rate", "low": "95% low", "high": "95% high",
                         "excess": "points from fair", "enough": "ranked"}),
            {"win rate": pct, "95% low": pct, "95% high": pct, "fair": pct, "seats": lambda v: f"{int(v):,}",
             "points from fair": lambda v: f"{100 * v:+.1f}", "ranked": lambda v: "yes" if v else "too few games"}))
    rep.tables["roles"] = tables
    if tables:
        rep.sections.append(sec)


def _shape_section(rep, games, seats, spec):
    sec = Section("shape", "Game length and score margins")
    col = _length_column(games)
    ls = sa.length_summary(games, column=col, alpha=ALPHA)
    rep.tables["length"] = ls
    n_ref = _reference_players(seats, spec)
    r = ls[ls["players"] == n_ref].iloc[0]
    unit = nice(col)
    rep.findings.append(Finding(
        "info", f"A {n_ref}-player game lasts {r['mean']:.1f} {unit} on average; half of the games take "
                f"{r['q25']:.0f} to {r['q75']:.0f} {unit} and 90% take {r['q05']:.0f} to {r['q95']:.0f}.",
        f"{int(r['games']):,} games; mean {r['mean']:.2f} (95% interval {r['low']:.2f}\u2013{r['high']:.2f}).",
        "length", sec.anchor, {"players": n_ref, "mean": float(r["mean"]), "column": col}))
    if "capped_rate" in ls.columns and (ls["capped_rate"] > 0).any():
        c = ls.loc[ls["capped_rate"].idxmax()]
        v = "red" if c["capped_low"] > 0.01 else "amber"
        rep.findings.append(Finding(
            v, f"{pct(c['capped_rate'], 2)} ({ci(c['capped_low'], c['capped_high'], 2)}) of {int(c['players'])}"
               "-player games never finished and were stopped by the simulator's step limit: the bots (or the "
               "rules) can stall.",
            "Red when the interval lies above 1% of games, amber below.", "capped", sec.anchor,
            {"players": int(c["players"]), "rate": float(c["capped_rate"])}))
    sec.body.append(para(f"Length is counted in {unit}. Dots and bars in the table: mean with its 95% interval; "
                         "the quantiles say how spread out games are."))
    fig, ax = _new_ax((7.5, 4.0))
    plotting.plot_length(games, column=col, ax=ax, unit=unit)
    sec.body.append(figure_html(fig, "distribution of game length per player count"))
    sec.body.append(table_html(ls[["players", "games", "mean", "low", "high", "q05", "median", "q95"]
                                  + (["capped_rate"] if "capped_rate" in ls.columns else [])].rename(
        columns={"low": "95% low", "high": "95% high", "q05": "5% of games under", "q95": "95% of games under",
                 "capped_rate": "stopped by step limit"}),
        {"games": lambda v: f"{int(v):,}", "mean": lambda v: f"{v:.1f}", "95% low": lambda v: f"{v:.1f}",
         "95% high": lambda v: f"{v:.1f}", "5% of games under": lambda v: f"{v:.0f}",
         "median": lambda v: f"{v:.0f}", "95% of games under": lambda v: f"{v:.0f}",
         "stopped by step limit": lambda v: pct(v, 2)}))
    if any(c.startswith("vp_") for c in seats.columns):
        m = sa.score_margins(seats)
        ms = sa.length_summary(m, column="margin", alpha=ALPHA)
        tr = sa.tie_rates(seats, alpha=ALPHA)
        rep.tables["margins"], rep.tables["ties"] = ms, tr
        r = ms[ms["players"] == n_ref].iloc[0]
        t = tr[tr["players"] == n_ref].iloc[0]
        rep.findings.append(Finding(
            "info", f"In {n_ref}-player games the winner leads the runner-up by {r['mean']:.1f} points on average "
                    f"(median {r['median']:.0f}); {pct(t['score_tie_rate'])} of games end tied on top score.",
            f"{int(r['games']):,} games; mean margin 95% interval {r['low']:.2f}\u2013{r['high']:.2f}; "
            f"tie interval {ci(t['score_tie_low'], t['score_tie_high'])}.", "margin", sec.anchor,
            {"players": n_ref, "mean": float(r["mean"])}))
        sec.body.append("<h3>Score margins</h3>")
        sec.body.append(para("The <b>margin</b> is the winner's score minus the runner-up's: small margins mean "
                             "close games."))
        fig, ax = _new_ax((7.5, 4.0))
        plotting.plot_length(m, column="margin", ax=ax, unit="points")
        ax.set_title("Winner's lead over the runner-up")
        sec.body.append(figure_html(fig, "distribution of the winning margin per player count"))
        sec.body.append(table_html(
            ms[["players", "games", "mean", "median", "q05", "q95"]].merge(
                tr[["players", "score_tie_rate"]], on="players").rename(
                columns={"mean": "mean margin", "median": "median margin", "q05": "5% under", "q95": "95% under",
                         "score_tie_rate": "tied on top score"}),
            {"games": lambda v: f"{int(v):,}", "mean margin": lambda v: f"{v:.1f}",
             "median margin": lambda v: f"{v:.0f}", "5% under": lambda v: f"{v:.0f}",
             "95% under": lambda v: f"{v:.0f}", "tied on top score": pct}))
        pb = sa.points_by_source(seats)
        if len(pb) and pb["source"].nunique() > 1:
            rep.tables["points_by_source"] = pb
            fig, ax = _new_ax((7.5, 4.2))
            plotting.plot_points_by_source(pb, ax=ax)
            sec.body.append(figure_html(fig, "mean points per seat by source"))
    if "end_reason" in games.columns:
        er = sa.end_reasons(games, alpha=ALPHA)
        er = er[er["games"] > 0]
        rep.tables["end_reasons"] = er
        if er["end_reason"].nunique() > 1:
            sec.body.append("<h3>How games end</h3>")
            fig, ax = _new_ax((7.5, 4.0))
            plotting.plot_fractions(er, "end_reason", ax=ax, title="How games end (95% intervals)")
            for lab in ax.get_xticklabels():
                lab.set_rotation(20)
                lab.set_ha("right")
            sec.body.append(figure_html(fig, "share of games by end reason"))
    rep.sections.append(sec)


# ----------------------------------------------------------------------------------------------- sweeps

def _config_frame(manifest):
    rows = []
    for i, c in enumerate(manifest.get("configs", []) or []):
        swept = c.get("swept", {}) or {}
        rows.append({"config": int(c.get("config", i)), "players_cfg": c.get("players"),
                     "lineup": ",".join(c.get("lineup", []) or []), **{f"p:{k}": v for k, v in swept.items()}})
    return pd.DataFrame(rows)


def _as_numbers(values):
    try:
        return [float(v) for v in values], True
    except (TypeError, ValueError):
        return list(values), False


def _reference_configs(manifest, cf):
    """Configs whose swept values are those of the printed game (or of config 0) : the sections' base."""
    pcols = [c for c in cf.columns if c.startswith("p:")]
    if not pcols:
        return list(cf["config"])
    defaults = None
    for c in manifest.get("configs", []):
        if not set((c.get("swept") or {})) & set(c.get("params_changed") or {}):
            defaults = c.get("swept")
            break
    ref = defaults or (manifest.get("configs") or [{}])[0].get("swept", {})
    keep = np.ones(len(cf), dtype=bool)
    for k, v in ref.items():
        keep &= cf[f"p:{k}"].astype(str).to_numpy() == str(v)
    return list(cf.loc[keep, "config"])


def _sweep_section(rep, seats, games, manifest, solves):
    import matplotlib.pyplot as plt
    T = THRESHOLDS["sweep"]
    cf = _config_frame(manifest)
    pcols = [c for c in cf.columns if c.startswith("p:")]
    sec = Section("sweep", "Response to the swept parameters")
    adv = sa.seat_advantage(seats, alpha=ALPHA, by="config")
    first = adv[adv["order"] == 0].merge(cf, on="config")
    rep.tables["sweep_first_player"] = first
    col = _length_column(games)
    ls = sa.length_summary(games, column=col, by="config", alpha=ALPHA).merge(cf, on="config")
    rep.tables["sweep_length"] = ls
    multi = seats["strategy"].astype(str).nunique() > 1
    wr = sa.win_rates(seats, by=["config", "strategy"], alpha=ALPHA).merge(cf, on="config") if multi else None
    sec.body.append(para(
        "Each point is one configuration of the sweep, with its 95% interval. The first player's win share "
        "should sit on the dashed fair line; a configuration whose interval lies within "
        f"{T:g} points of fair is balanced for turn order."))
    for pc in pcols:
        name = pc[2:]
        others = [c for c in pcols if c != pc]
        panels = 3 if multi else 2
        fig, axes = plt.subplots(1, panels, figsize=(5.0 * panels, 4.0), squeeze=False)
        axes = axes[0]
        xs_all, numeric = _as_numbers(sorted(first[pc].unique(), key=lambda v: _as_numbers([v])[0][0]
                                             if _as_numbers([v])[1] else str(v)))
        cats = {v: i for i, v in enumerate(sorted(first[pc].astype(str).unique()))}

        def xpos(vals):
            return [float(v) for v in vals] if numeric else [cats[str(v)] for v in vals]

        for k, (key, g) in enumerate(first.groupby(["players"] + others, dropna=False)):
            key = key if isinstance(key, tuple) else (key,)
            lab = f"{int(key[0])} players" + "".join(f", {o[2:]}={v}" for o, v in zip(others, key[1:]))
            g = g.assign(_x=xpos(g[pc])).sort_values("_x")
            c = plotting.PALETTE[k % len(plotting.PALETTE)]
            axes[0].errorbar(g["_x"], 100 * g["rate"], yerr=100 * plotting._err(g["rate"], g["low"], g["high"]),
                             fmt="o-", color=c, label=lab)
            axes[0].axhline(100 * g["fair"].iloc[0], color=c, linestyle="--", linewidth=1)
            L = ls[ls["config"].isin(g["config"])]
            L = L.assign(_x=xpos(L[pc])).sort_values("_x")
            axes[1].errorbar(L["_x"], L["mean"], yerr=np.vstack([L["mean"] - L["low"], L["high"] - L["mean"]]),
                             fmt="o-", color=c, label=lab)
            # findings: where is turn order fair?
            vs = [verdict(100 * a, 100 * b, 100 * f, T) for a, b, f in zip(g["low"], g["high"], g["fair"])]
            fair_at = [str(x) for x, v in zip(g[pc], vs) if v == "green"]
            lo_r, hi_r = g.iloc[0], g.iloc[-1]
            if fair_at:
                v = "green"
                tail = f"turn order is fair (within {T:g} points) at {name} = {', '.join(fair_at)}"
            elif all(x == "red" for x in vs):
                v = "red"
                tail = f"no tested value brings it within {T:g} points of fair"
            else:
                v = "amber" if any(x in ("amber", "red") for x in vs) else "grey"
                tail = "no tested value is shown to be fair"
            text = (f"Changing {esc(name)} from {esc(lo_r[pc])} to {esc(hi_r[pc])} moves the first player's win "
                    f"share ({esc(lab)}) from {pct(lo_r['rate'])} ({ci(lo_r['low'], lo_r['high'])}) to "
                    f"{pct(hi_r['rate'])} ({ci(hi_r['low'], hi_r['high'])}); fair is {pct(lo_r['fair'])}: {tail}.")
            rep.findings.append(Finding(v, text, f"{len(g)} configurations, {int(g['games'].sum()):,} games.",
                                        "sweep", sec.anchor, {"param": name, "players": int(key[0])}))
        if multi:
            for k, (s, g) in enumerate(wr.groupby("strategy")):
                g = g.assign(_x=xpos(g[pc])).groupby("_x")[["rate", "low", "high"]].mean().reset_index()
                axes[2].errorbar(g["_x"], 100 * g["rate"],
                                 yerr=100 * plotting._err(g["rate"], g["low"], g["high"]), fmt="o-",
                                 color=plotting.PALETTE[k % len(plotting.PALETTE)], label=str(s))
            axes[2].set_ylabel("win share (%)")
            axes[2].set_title("Strategies (mean over other settings)")
            axes[2].legend(loc="best", fontsize=8)
        for sv in solves:
            if sv.get("param") == name and numeric:
                for ax in axes[:1]:
                    if np.isfinite(sv.get("low", np.nan)) and np.isfinite(sv.get("high", np.nan)):
                        ax.axvspan(sv["low"], sv["high"], color="0.85", zorder=0,
                                   label=f"balance point ({sv.get('players', '?')} players, interval)")
                    ax.axvline(sv["value"], color="0.3", linewidth=1.2)
        axes[0].set_ylabel("first player's win share (%)")
        axes[0].set_title("First-player win share")
        axes[0].legend(loc="best", fontsize=8)
        axes[1].set_ylabel(f"mean game length ({nice(col)})")
        axes[1].set_title("Game length")
        for ax in axes:
            ax.set_xlabel(name)
            if not numeric:
                ax.set_xticks(range(len(cats)), list(cats))
        sec.body.append(f"<h3>{esc(name)}</h3>")
        sec.body.append(figure_html(fig, f"response of the key metrics to {name}",
                                    "Points: estimate per configuration; bars: 95% interval; dashed: fair share."))
    t = first[["config", "players"] + pcols + ["games", "rate", "low", "high", "fair"]].rename(
        columns={**{c: c[2:] for c in pcols}, "rate": "first player", "low": "95% low", "high": "95% high"})
    sec.body.append(table_html(t, {"first player": pct, "95% low": pct, "95% high": pct, "fair": pct,
                                   "games": lambda v: f"{int(v):,}"}))
    rep.sections.append(sec)


def _balance_section(rep, solves):
    import matplotlib.pyplot as plt
    from scipy.stats import norm
    sec = Section("balance", "Balance point")
    sec.body.append(para(
        "The solver searched for the value of one parameter at which a metric hits its target (for example the "
        "first player's win share equal to 1/n). The interval is every value at which the fitted line is "
        "statistically indistinguishable from the target."))
    for sv in solves:
        conf = float(sv.get("confidence", 0.95))
        bounded = bool(sv.get("bounded", True)) and np.isfinite(sv.get("low", np.nan))
        v = "green" if bounded else "grey"
        metric = nice(sv.get("metric", "metric"))
        m = re.fullmatch(r"order(\d+)_win_share", str(sv.get("metric", "")))
        target = f"{sv['target']:.4g}"
        if m:
            metric, target = f"the {who(int(m.group(1)))}'s win share", pct(sv["target"])
        text = (f"Balance point: {esc(metric)} reaches {target} at {esc(sv['param'])} = "
                f"{sv['value']:.3g} ({100 * conf:.0f}% interval {sv.get('low', float('nan')):.3g} to "
                f"{sv.get('high', float('nan')):.3g})" + ("" if bounded else " - not pinned down by the data") +
                (f" in {sv['players']}-player games" if sv.get("players") else "") + ".")
        rep.findings.append(Finding(v, text, f"{int(sv.get('games', 0)):,} games over "
                                             f"{len(sv.get('evaluations', []))} evaluations. {esc(sv.get('note', ''))}",
                                    "balance", sec.anchor, {"param": sv["param"], "value": float(sv["value"])}))
        ev = pd.DataFrame(sv.get("evaluations", []))
        fig, ax = _new_ax((7.5, 4.0))
        if len(ev):
            z = norm.ppf(0.5 + conf / 2)
            ev = ev.sort_values("x")
            half = z * np.sqrt(ev["variance"].clip(lower=0))
            ax.errorbar(ev["x"], ev["estimate"], yerr=half, fmt="o", color=plotting.PALETTE[0],
                        label="evaluations")
        ax.axhline(sv["target"], **plotting.FAIR_STYLE, label="target")
        if bounded:
            ax.axvspan(sv["low"], sv["high"], color="0.85", zorder=0, label="balance point interval")
        ax.axvline(sv["value"], color=plotting.PALETTE[3], linewidth=1.5, label="balance point")
        ax.set_xlabel(sv["param"])
        ax.set_ylabel(metric)
        ax.set_title(f"Balance point for {sv['param']}")
        ax.legend(loc="best", fontsize=8)
        sec.body.append(figure_html(fig, f"balance point search for {sv['param']}"))
    rep.sections.append(sec)


# ----------------------------------------------------------------------------------------------- provenance

def _provenance_section(rep, spec, manifest, is_sweep, cf):
    sec = Section("provenance", "Provenance: what these results rest on")
    rows = [("Game", f"{manifest.get('title') or manifest.get('game')} ({manifest.get('game')})"),
            ("Rules version", manifest.get("rules_version") or (spec.rules_version if spec else "") or "not stated")]
    if is_sweep:
        rows.append(("Configurations", str(manifest.get("n_configs", len(cf)))))
    else:
        rows.append(("Player counts", ", ".join(map(str, manifest.get("players", [])))))
        rows.append(("Games", f"{int(manifest.get('total_games', 0)):,} "
                              f"({int(manifest.get('games_per_player_count', 0)):,} per player count)"))
        seat = manifest.get("seating", {}) or {}
        rows.append(("Seating", f"{seat.get('mode', '?')}: {', '.join(seat.get('lineup', []) or [])}"
                                + (" (every rotation replayed)" if seat.get("all_rotations") else "")))
    hidden = [n for n, s in (manifest.get("strategies", {}) or {}).items() if s.get("sees_hidden")]
    if hidden:
        rows.append(("Strategies reading hidden information", ", ".join(hidden)))
    sec.body.append("<table class='kv'>" + "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>"
                                                   for k, v in rows) + "</table>")
    changed = manifest.get("params_changed")
    if is_sweep:
        sets = (manifest.get("request", {}) or {}).get("set", {}) or {}
        changed = dict(sets)
        swept = sorted({k for c in manifest.get("configs", []) for k in (c.get("swept") or {})})
        sec.body.append(para("Swept parameters: " + (esc(", ".join(swept)) or "none (player counts or line-ups "
                                                                               "only)") + "."))
    if changed:
        prow = []
        for name, val in changed.items():
            default, doc = "", ""
            if spec is not None:
                try:
                    p = spec.params.params[spec.params.index(name)]
                    default, doc = p.show(p.default), p.doc
                except (KeyError, ValueError, IndexError, UserError):
                    pass
            prow.append({"parameter": name, "used": val, "printed game": default, "meaning": doc})
        sec.body.append(para("Parameters that differ from the printed game:"))
        sec.body.append(table_html(pd.DataFrame(prow)))
    else:
        sec.body.append(para("All parameters are those of the printed game (no overrides)."))
    assumed = manifest.get("assumed_params") or []
    if assumed:
        sec.body.append(para(f"{len(assumed)} parameter(s) in use are <b>assumed</b> readings or values not fixed "
                             f"by the printed rules: <span class='small'>{esc(', '.join(assumed))}</span>."))
    comp = manifest.get("assumed_components") or (spec.assumed_components if spec else "")
    if comp:
        sec.body.append(f"<div class='notice'><b>Assumed components.</b> {esc(comp)}</div>")
    rep.sections.append(sec)


def _reproduction_section(rep, manifest, path):
    sec = Section("reproduction", "Reproduction")
    rows = [("Command", manifest.get("command", "")), ("Seed", str(manifest.get("seed", ""))),
            ("Code version", f"{manifest.get('code_version', '')} (source {manifest.get('source_hash', '')})"),
            ("Run status", manifest.get("status", "")),
            ("Results folder", str(path)),
            ("This report", f"sim report {path}  (built {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC)")]
    tm = manifest.get("timings") or {}
    if tm.get("total_s"):
        rows.append(("Run time", f"{tm['total_s']:.0f} s"))
    sec.body.append("<table class='kv'>" + "".join(f"<tr><th>{esc(k)}</th><td><code>{esc(v)}</code></td></tr>"
                                                   for k, v in rows) + "</table>")
    pk = manifest.get("packages") or {}
    if pk:
        sec.body.append(para("Package versions: " + esc(", ".join(f"{k} {v}" for k, v in pk.items())) + "."))
    sec.body.append(para("Same command, same seed and code version: the same games, whatever the machine."))
    rep.sections.append(sec)


# ----------------------------------------------------------------------------------------------- collect

def collect(path, solve=()):
    """Read a run or sweep folder and compute the report's findings, sections and tables (with sim.analysis)."""
    import matplotlib as mpl
    run = open_results(path)
    man = run.manifest
    spec = _spec(man["game"])
    seats = run.seats(columns=_seat_columns(run.columns("seats")))
    if seats.empty:
        raise UserError(f"{path} holds no games yet (is the run still starting?)")
    gcols = run.columns("games")
    games = run.games(columns=[c for c in gcols if c in ("config", "game", "players", "steps", "capped",
                                                          "end_reason", _length_column(pd.DataFrame(columns=gcols)))])
    items = run.items() if os.path.isdir(os.path.join(str(path), "items")) else None
    solves = _solve_results(path, solve)
    is_sweep = "config" in seats.columns
    title = man.get("title") or (spec.title if spec else man["game"])
    rep = Report(title=title, path=str(path), manifest=man, is_sweep=is_sweep)
    cf = _config_frame(man) if is_sweep else pd.DataFrame()
    with mpl.rc_context():
        plotting.use_style()
        if is_sweep:
            ref = _reference_configs(man, cf)
            _sweep_section(rep, seats, games, man, solves)
            seats_b = seats[seats["config"].isin(ref)]
            games_b = games[games["config"].isin(ref)]
            items_b = items[items["config"].isin(ref)] if items is not None else None
            desc = ", ".join(f"{c[2:]} = {v}" for c, v in cf[cf["config"] == ref[0]].iloc[0].items()
                             if c.startswith("p:"))
            rep.notices.append(para(f"This is a sweep of {len(cf)} configurations. The sections after the "
                                    f"response curves describe the reference configuration(s) "
                                    f"{esc(', '.join(map(str, ref)))}{' (' + esc(desc) + ')' if desc else ''}."))
        else:
            seats_b, games_b, items_b = seats, games, items
        if solves:
            _balance_section(rep, solves)
        _seat_section(rep, seats_b, spec)
        _strategy_section(rep, seats_b)
        if items_b is not None and len(items_b):
            _items_section(rep, seats_b, items_b)
        _roles_section(rep, seats_b, spec)
        _shape_section(rep, games_b, seats_b, spec)
        __import__("sim.report.bot_health", fromlist=["x"]).add_section(rep, seats_b, games_b, items_b, spec, path)
    comp = man.get("assumed_components") or (spec.assumed_components if spec else "")
    if comp:
        rep.notices.insert(0, f"<div class='notice'><b>These results rest on assumed components.</b> "
                              f"{esc(comp.strip().rstrip('.'))}. Treat the numbers as a study of the rules with stand-in components, "
                              f"not of the published game.</div>")
    if man.get("status") not in (None, "complete"):
        rep.notices.append(f"<div class='notice'><b>Incomplete results.</b> The run's status is "
                           f"'{esc(man.get('status'))}': only finished chunks are included.</div>")
    _provenance_section(rep, spec, man, is_sweep, cf)
    _reproduction_section(rep, man, path)
    rep.findings.sort(key=lambda f: SEVERITY[f.verdict])
    return rep


# ----------------------------------------------------------------------------------------------- render

CSS = """
:root { --ink:#1b1b1b; --muted:#555; --line:#d0d0d0; }
* { box-sizing: border-box; }
body { font-family: -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink);
       max-width: 1040px; margin: 0 auto; padding: 1.2rem 1.4rem 3rem; line-height: 1.45; font-size: 15px; }
h1 { font-size: 1.7rem; margin: 0.2rem 0; } h2 { font-size: 1.3rem; margin-top: 2.2rem;
       border-bottom: 2px solid var(--ink); padding-bottom: 0.2rem; } h3 { font-size: 1.05rem; margin-top: 1.4rem; }
.sub { color: var(--muted); margin: 0 0 1rem; }
.notice { border-left: 6px solid #D55E00; background: #fdf0e8; padding: 0.6rem 0.9rem; margin: 0.8rem 0; }
ul.findings { list-style: none; padding: 0; margin: 0.5rem 0; }
li.finding { display: flex; gap: 0.7rem; align-items: flex-start; border: 1px solid var(--line);
       border-left-width: 8px; border-radius: 4px; padding: 0.5rem 0.7rem; margin: 0.4rem 0; break-inside: avoid; }
.badge { flex: 0 0 7.2rem; font-weight: 700; font-size: 0.85rem; color: #fff; border-radius: 3px;
       padding: 0.15rem 0.4rem; text-align: center; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.finding .text { font-weight: 600; } .finding .ev { color: var(--muted); font-size: 0.88rem; }
.finding a { color: inherit; }
.legend span.badge { display: inline-block; width: auto; margin-right: 0.3rem; }
figure { margin: 0.8rem 0; break-inside: avoid; } figure img { max-width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: 0.85rem; }
table { border-collapse: collapse; font-size: 0.84rem; margin: 0.6rem 0; break-inside: auto; }
th, td { border-bottom: 1px solid var(--line); padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.kv th { width: 16rem; color: var(--muted); font-weight: 600; }
.small { font-size: 0.82rem; color: var(--muted); }
nav.toc { columns: 2; font-size: 0.9rem; } nav.toc a { color: #0072B2; }
code { font-size: 0.85rem; word-break: break-all; }
dl.glossary dt { font-weight: 700; } dl.glossary dd { margin: 0 0 0.4rem 1rem; }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  h2 { break-after: avoid; } h3 { break-after: avoid; }
  section { break-before: auto; } nav.toc { display: none; }
  a { text-decoration: none; }
  @page { size: A4; margin: 14mm 12mm; }
}
"""


def _finding_html(f):
    label, colour, sym = VERDICTS[f.verdict]
    data = " ".join(f"data-{esc(k.replace('_', '-'))}='{esc(v)}'" for k, v in f.data.items())
    return (f"<li class='finding verdict-{f.verdict}' data-kind='{esc(f.kind)}' data-verdict='{f.verdict}' {data} "
            f"style='border-left-color:{colour}'><span class='badge' style='background:{colour}'>{sym} {label}"
            f"</span><div><div class='text'>{f.text}</div><div class='ev'>{f.evidence} "
            f"<a href='#{f.section}'>Evidence</a></div></div></li>")


def render(rep):
    man = rep.manifest
    T = THRESHOLDS
    legend = "".join(f"<span class='badge' style='background:{c}'>{s} {lab}</span>"
                     for lab, c, s in VERDICTS.values())
    sub = (f"{'Sweep' if rep.is_sweep else 'Study'} of {esc(man.get('game'))}, rules version "
           f"{esc(man.get('rules_version') or 'not stated')}, seed {esc(man.get('seed'))}"
           + (f", {int(man['total_games']):,} games" if man.get("total_games") else "") + ".")
    findings = "".join(_finding_html(f) for f in rep.findings) or "<li>No findings.</li>"
    glossary = f"""
<dl class='glossary'>
<dt>Win share</dt><dd>The share of the wins a seat, strategy or role takes. Ties and team wins are split, so the
shares of one game add up to 1; in a fair n-player game each seat takes 1/n (25% with 4 players).</dd>
<dt>Win rate</dt><dd>How often a seat won or shared the win (used for roles, characters and items; in team games
every member of the winning team counts as a winner).</dd>
<dt>Interval</dt><dd>The range in brackets, e.g. 30.9&ndash;31.9%: the 95% confidence interval. With this many
simulated games the true value lies in it 19 times out of 20; more games make it narrower.</dd>
<dt>Points</dt><dd>Percentage points: the difference between two percentages (31% vs 25% is 6 points).</dd>
<dt>Verdicts</dt><dd>Always from the interval, never from the estimate alone, against a stated threshold:
<b>Strong</b> the whole interval is further from fair than the threshold; <b>Modest</b> the interval excludes fair
but not the threshold; <b>Balanced</b> the whole interval lies within the threshold of fair; <b>Unclear</b> the
interval includes fair but is too wide to say; <b>Fact</b> a description, no verdict. Thresholds: turn order
{T['seat']:g} points, strategies {T['strategy']:g}, items {T['item']:g}, roles and characters {T['role']:g},
sweeps {T['sweep']:g}.</dd>
<dt>Strategies</dt><dd>Scripted rule-of-thumb players, not experts: they show what the rules reward, not what
strong humans will do.</dd>
</dl>"""
    toc = "".join(f"<li><a href='#{s.anchor}'>{esc(s.title)}</a></li>" for s in rep.sections)
    body = "".join(f"<section id='{s.anchor}'><h2>{esc(s.title)}</h2>{''.join(s.body)}</section>"
                   for s in rep.sections)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Balance report: {esc(rep.title)}</title>
<style>{CSS}</style></head>
<body>
<header><h1>Balance report: {esc(rep.title)}</h1><p class='sub'>{sub}</p></header>
{''.join(rep.notices)}
<section id='findings'><h2>Findings</h2>
<p class='legend'>{legend}</p>
<ul class='findings'>{findings}</ul></section>
<section id='reading'><h2>How to read this report</h2>{glossary}</section>
<nav class='toc'><ul>{toc}</ul></nav>
{body}
</body></html>
"""


# ----------------------------------------------------------------------------------------------- output

def find_chromium():
    """Path of a Chromium / Chrome binary ($SIM_CHROMIUM first), or None."""
    env = os.environ.get("SIM_CHROMIUM")
    if env:
        return env if shutil.which(env) or os.path.isfile(env) else None
    for name in CHROMIUM_NAMES:
        p = shutil.which(name)
        if p:
            return p
    return None


def chromium_command(binary, user_dir, *extra):
    return [binary, *CHROMIUM_FLAGS, f"--user-data-dir={user_dir}", *extra]


def write_pdf(html_path, pdf_path, timeout=180):
    """Print an HTML report to PDF with headless Chromium; UserError (one line) if Chromium is missing or fails."""
    binary = find_chromium()
    if binary is None:
        raise UserError("--pdf needs Chromium and none was found (install it, e.g. `apt-get install chromium`, or "
                        f"set SIM_CHROMIUM to its path); the HTML report is in {html_path}")
    pdf_path = Path(pdf_path).resolve()
    pdf_path.parent.mkdir(parents=True, exist_ok=True)
    if pdf_path.exists():
        pdf_path.unlink()
    with tempfile.TemporaryDirectory(prefix="sim-chromium-") as tmp:
        cmd = chromium_command(binary, tmp, f"--print-to-pdf={pdf_path}", "--no-pdf-header-footer",
                               Path(html_path).resolve().as_uri())
        try:
            res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise UserError(f"Chromium did not finish printing {html_path} within {timeout} s") from None
    if not pdf_path.exists() or pdf_path.stat().st_size == 0:
        last = (res.stderr.strip().splitlines() or ["no output"])[-1]
        raise UserError(f"Chromium could not print the PDF (exit {res.returncode}): {last}")
    return pdf_path


def build_report(results, out=None, pdf=False, solve=()):
    """Write the report of a run or sweep folder; returns the paths written (HTML, and PDF when asked)."""
    from ..errors import check_writable_file
    from ..lock import FolderLock
    name = Path(str(results).rstrip("/")).name
    out = Path(out) if out else Path("reports") / f"{name}.html"
    html_out = out.with_suffix(".html") if out.suffix.lower() == ".pdf" else out
    check_writable_file(html_out, "-o")            # before the work, and never a temp file left beside a folder
    with FolderLock(html_out, "sim report"):       # two reports into one file: one refuses
        rep = collect(results, solve)
        html_out.parent.mkdir(parents=True, exist_ok=True)
        tmp = html_out.with_name(f".{html_out.name}.tmp{os.getpid()}")
        try:
            tmp.write_text(render(rep), encoding="utf-8")
            os.replace(tmp, html_out)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    written = [html_out]
    if pdf or out.suffix.lower() == ".pdf":
        written.append(write_pdf(html_out, out.with_suffix(".pdf")))
    return written
