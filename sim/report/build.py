"""Build a designer report: findings first, then the evidence, provenance and how to reproduce it.

`collect(path)` reads a run or sweep folder and computes everything with sim.analysis (no statistic is computed
here), returning a `Report` (findings, sections, facts); `render(report)` turns that into one self-contained HTML
page: CSS inline, charts as embedded PNG (data: URIs), no JavaScript, no external resources, print-friendly.
`build_report` does both and writes the file; `write_pdf` prints the HTML to PDF with headless Chromium.

Verdicts never come from a point estimate alone, and never from one comparison picked out of many: every verdict
of a section belongs to a family corrected for multiple comparisons (sim.report.verdicts: Holm decisions,
simultaneous intervals) and is read against a stated practical threshold (`THRESHOLDS`, percentage points):
- red        "strong": differs from fair and the corrected interval lies entirely beyond fair +- threshold;
- amber      "modest": differs from fair but the corrected interval is not entirely beyond the threshold;
- negligible "negligible": differs from fair but the corrected interval lies entirely within the threshold;
- green      "balanced": does not differ and the corrected interval lies entirely within fair +- threshold;
- grey       "unclear": does not differ and the corrected interval is wider than the threshold (more games needed).
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
from ..errors import UserError
from . import verdicts as vd
from .verdicts import MIN_ROWS, THRESHOLDS  # noqa: F401  (thresholds in percentage points; rows to rank)

BT_BOOTSTRAP = 100  # bootstrap refits for the Bradley-Terry rating intervals
ITEMS_SHOWN = 10  # top and bottom ranked items per kind in charts and tables
EFFECT_ITEMS = 3  # items flagged by association whose causal effect the report measures (sim effect)
EFFECT_GAMES = 4000  # paired games per measured item (cached in <run>/effects/)
ROBUST_GAMES = 3000  # games per player count of the second population (cached in <run>/robust/)
ROBUST_LABELS = {"holds": "holds with other players", "depends": "depends on the bots"}
ALPHA = 0.05

VERDICTS = {  # key: (label, colour (Okabe-Ito, colour-blind safe), symbol so colour is never the only cue)
    "red": ("Strong", "#D55E00", "\u25b2"),
    "amber": ("Modest", "#E69F00", "\u25c6"),
    "green": ("Balanced", "#009E73", "\u2714"),
    "negligible": ("Negligible", "#3A8DBF", "\u2248"),
    "grey": ("Unclear", "#8C8C8C", "?"),
    "info": ("Fact", "#0072B2", "i"),
}
SEVERITY = {"red": 0, "amber": 1, "grey": 2, "negligible": 3, "green": 4, "info": 5}

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "headless_shell")
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


# ----------------------------------------------------------------------------------------------- verdicts


def verdict(low, high, fair, threshold):
    """Verdict key of one uncorrected interval [low, high] against the fair value and a practical threshold (same
    units): the interval excluding fair is the decision. Sections use the corrected family verdicts of
    sim.report.verdicts instead; this is the rule for a single comparison (and for sweeps' per-value curves)."""
    if not (np.isfinite(low) and np.isfinite(high)):
        return "grey"
    return vd.decide(low > fair or high < fair, low, high, fair, threshold)


def family_note(r, points=False):
    """Evidence text of a corrected verdict: the family, the adjusted p-value and the corrected interval (rates,
    or percentage points when points=True)."""
    p = r.get("p_adj", np.nan)
    lo, hi = r.get("low_s", np.nan), r.get("high_s", np.nan)
    if not np.isfinite(p):
        return ""
    iv = f"{lo:+.1f} to {hi:+.1f} points" if points else ci(lo, hi)
    return (
        f" Verdict corrected for {int(r['family'])} comparisons in this section ({vd.METHOD.capitalize()}, "
        f"the report's 5% shared among its sections): adjusted p {pval(p)}, corrected interval {iv}."
    )


def next_html(spec, kind, **kw):
    """' Next step: <code>command</code> (moves PARAM).' for a red finding, or ''."""
    cmd, param = vd.next_step(spec, kind, **kw)
    if not cmd:
        if spec is None:
            return ""
        return (
            f" Next step: no parameter of the game is named for this; pick one that should move it "
            f"(<code>sim params {esc(spec.name)}</code>) and <code>sim sweep {esc(spec.name)} --grid "
            f"PARAM=...</code> it."
        )
    return f" Next step: <code>{esc(cmd)}</code>" + (f" (moves {esc(param)})." if param else ".")


def pval(p):
    """A p-value as text: never '0' (below 1e-300 it is shown as '< 1e-300')."""
    if not np.isfinite(p):
        return "n/a"
    if p < 1e-300:
        return "< 1e-300"
    return f"{p:.2g}" if p >= 1e-4 else f"{p:.1e}"


@dataclass
class Finding:
    verdict: str
    text: str  # the plain-language sentence
    evidence: str  # the numbers behind it and the rule that gave the verdict
    kind: str  # seat, strategy, item, role, length, capped, sweep, balance
    section: str  # anchor of the section holding the evidence
    data: dict = field(default_factory=dict)  # machine-readable numbers (written as data-* attributes)


@dataclass
class Section:
    anchor: str
    title: str
    body: list = field(default_factory=list)  # HTML fragments


@dataclass
class Report:
    title: str
    path: str
    manifest: dict
    is_sweep: bool
    findings: list = field(default_factory=list)
    sections: list = field(default_factory=list)
    notices: list = field(default_factory=list)  # HTML fragments shown above the findings
    tables: dict = field(default_factory=dict)  # the analysis tables behind the findings (for tests)
    family_alpha: float = ALPHA  # each family's error rate: ALPHA / the number of families
    spec: object = None  # the game's GameSpec (None: a game this code does not know)


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


def figure_html(fig, alt, caption):
    """Embed a matplotlib figure as a base64 PNG <img> inside a <figure> with its caption; closes the figure.
    The <figure> carries the axis labels each of its charts was drawn with (data-axes: JSON, one {x, y} per axes
    that holds data; a colour bar is its chart's legend, not a chart), read from the figure itself, so a check of
    the page (tests/test_report_render.py) can tell a chart without an axis label."""
    import matplotlib.pyplot as plt

    axes = [
        {"x": ax.get_xlabel(), "y": ax.get_ylabel()}
        for ax in fig.get_axes()
        if ax.has_data() and ax.get_label() != "<colorbar>"
    ]
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
    plt.close(fig)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return (
        f"<figure data-axes='{esc(json.dumps(axes))}'><img src='data:image/png;base64,{data}' "
        f"alt='{esc(alt)}'><figcaption>{caption}</figcaption></figure>"
    )


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
    files += [
        Path(f) for f in sorted(glob.glob(os.path.join(str(path), "*.json"))) if os.path.basename(f) != "manifest.json"
    ]
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


def declared(spec, name):
    """A convention of the results tables the game declares in its GameSpec (which column measures length, which
    seat columns are roles...), or the GameSpec default for a game this code does not know."""
    from ..game import GameSpec

    return getattr(spec, name) if spec is not None else GameSpec.__dataclass_fields__[name].default


def _length_column(spec):
    return declared(spec, "length_column")


def _points(spec, columns):
    """The game's points-by-source prefix when its seat columns hold such points, else ''."""
    prefix = declared(spec, "points_prefix")
    return prefix if prefix and any(c.startswith(prefix) for c in columns) else ""


def _seat_columns(names, spec):
    """The seat columns the report uses (large runs: read only these)."""
    base = {
        "config",
        "game",
        "seat",
        "players",
        "strategy",
        "win_share",
        "rank",
        "win",
        "order",
        "eliminated",
        "elim_turn",
        declared(spec, "money_column"),
        *declared(spec, "role_columns"),
    }
    prefix = _points(spec, names)
    if prefix:
        base.add("score")  # score margins and ties (the shape section) need it, nothing else
    return [c for c in names if c in base or (prefix and c.startswith(prefix))]


def _role_columns(seats, spec):
    """The game's role columns (labels dealt to a seat at setup, GameSpec.role_columns) the seats table holds."""
    return sa.seat_label_columns(seats, declared(spec, "role_columns"))


# ----------------------------------------------------------------------------------------------- sections


def _seat_section(rep, seats, spec=None):
    T = THRESHOLDS["seat"]
    adv = sa.seat_advantage(seats, alpha=ALPHA)
    eq = sa.equality_tests(seats, alpha=ALPHA)
    rep.tables["seat_advantage"] = adv
    rep.tables["equality_tests"] = eq
    sec = Section("seats", "Seat and first-player advantage")
    sec.body.append(
        para(
            "Each row is a position in turn order (1 = the player who starts). Its <b>win share</b> is the share of "
            "wins it takes; in a perfectly fair n-player game every position takes 1/n. Rotated line-ups put every "
            f"strategy in every seat equally often, so what remains is the seat itself. Verdicts use a practical "
            f"threshold of {T:g} percentage points around 1/n."
        )
    )
    note = spec.turn_order_note if spec is not None else ""
    if note:
        sec.body.append(para(f"<b>Read position 1 with care:</b> {esc(note)}"))
    elif _role_columns(seats, spec):
        sec.body.append(
            para(
                "This game deals roles or characters: where the rules tie one to the turn order "
                "(for example a sheriff who always starts), a position's share measures that role "
                "as much as the seat; see the roles section."
            )
        )
    fam = vd.seat_family(seats, alpha=ALPHA, family_alpha=rep.family_alpha)
    rep.tables["seat_family"] = fam
    for r in vd.seat_picks(fam):
        n = int(r["players"])
        v = r["verdict"]
        first = int(r["order"]) == 0
        side = "advantage" if r["rate"] > r["fair"] else "disadvantage"
        if v == "red":
            tail = (
                f"a strong {side} for position 1"
                if first and note
                else f"a strong first-player {side}"
                if first
                else f"a strong {side} for that seat"
            )
        elif v == "amber":
            tail = f"a real but modest {side} (not clearly beyond {T:g} points)"
        elif v == "negligible":
            tail = f"a real {side} but negligible: within {T:g} points of an even share"
        elif v == "green":
            tail = f"fair: within {T:g} points of an even share"
        else:
            tail = f"too few games to tell whether it is within {T:g} points of fair"
        text = (
            f"The {who(r['order'])} wins {pct(r['rate'])} ({ci(r['low'], r['high'])}) of {n}-player "
            f"games against a fair {pct(r['fair'])}: {tail}."
        )
        ev = (
            f"{int(r['games']):,} games; win share with its 95% interval; "
            f"{pts(r['excess_pp'])} points from fair.{family_note(r)}"
        )
        if v == "red":
            ev += next_html(spec, "seat", players=n, position=int(r["order"]))
        rep.findings.append(
            Finding(
                v,
                text,
                ev,
                "seat",
                sec.anchor,
                {
                    "players": n,
                    "position": int(r["order"]),
                    "rate": float(r["rate"]),
                    "low": float(r["low"]),
                    "high": float(r["high"]),
                    "fair": float(r["fair"]),
                    "games": int(r["games"]),
                    "p-adj": float(r["p_adj"]),
                },
            )
        )
    if note:  # said once, not in every position-1 finding
        rep.findings.append(
            Finding(
                "info",
                f"Position 1 in turn order: {esc(note)}",
                "A rule of the game, not a result.",
                "seat-note",
                sec.anchor,
                {},
            )
        )
    import matplotlib.pyplot as plt  # noqa: F401  (backend chosen by matplotlib)

    fig, ax = _new_ax((7.5, 4.2))
    plotting.plot_seat_advantage(adv, ax=ax)
    sec.body.append(
        figure_html(
            fig,
            "win share by turn-order position per player count",
            "Dots: win share; bars: 95% interval; dashed lines: the fair share 1/n.",
        )
    )
    t = adv.assign(position=adv["order"] + 1)[
        ["players", "position", "games", "rate", "low", "high", "fair", "excess_pp", "flagged"]
    ]
    t = t.assign(verdict=[VERDICTS[v][0] for v in fam["verdict"]])
    sec.body.append(
        table_html(
            t.rename(
                columns={
                    "rate": "win share",
                    "low": "95% low",
                    "high": "95% high",
                    "excess_pp": "points from fair",
                    "flagged": "differs (Holm)",
                }
            ),
            {
                "win share": pct,
                "95% low": pct,
                "95% high": pct,
                "fair": pct,
                "points from fair": pts,
                "games": lambda v: f"{int(v):,}",
                "differs (Holm)": lambda v: "yes" if v else "no",
            },
        )
    )
    e = eq[["players", "games", "p", "best", "worst", "gap_pp", "gap_low_pp", "gap_high_pp"]].copy()
    e["best"] = e["best"].astype(int) + 1
    e["worst"] = e["worst"].astype(int) + 1
    sec.body.append(
        para(
            "Are all positions equal? The test below asks whether the differences between positions could be luck "
            "(a small p-value, say under 0.05, means they are not); the gap is the best position's share minus the "
            "worst one's, in percentage points."
        )
    )
    sec.body.append(
        table_html(
            e.rename(
                columns={
                    "p": "p-value",
                    "gap_pp": "gap (points)",
                    "gap_low_pp": "gap low",
                    "gap_high_pp": "gap high",
                    "best": "best position",
                    "worst": "worst position",
                }
            ),
            {
                "p-value": pval,
                "gap (points)": lambda v: f"{v:.1f}",
                "gap low": lambda v: f"{v:.1f}",
                "gap high": lambda v: f"{v:.1f}",
                "games": lambda v: f"{int(v):,}",
            },
        )
    )
    rep.sections.append(sec)


def _sides_section(rep, games, seats, targets=None, spec=None):
    """Team games: which side wins at each player count against the designer's target, and downtime."""
    import matplotlib.pyplot as plt

    T = THRESHOLDS["side"]
    fam = vd.side_family(games, spec.side_column, targets=targets, alpha=ALPHA, family_alpha=rep.family_alpha)
    if fam.empty:
        return
    rep.tables["sides"] = fam
    tgt = sa.parse_targets(targets)
    sec = Section("sides", "Sides: who wins at each player count")
    sec.body.append(
        para(
            "In a team game the first question is which side wins. Each row is the share of games a side won at that "
            "player count, with its 95% interval, against the <b>target</b>: "
            + (
                esc(", ".join(f"{k} {100 * v:.0f}%" for k, v in tgt.items())) + " (the other sides share the rest)"
                if tgt
                else "equal sides (1 / the number of sides), the default; set your own with "
                "<code>sim report RUN --target law=0.5</code>"
            )
            + f". Threshold: {T:g} points; verdicts corrected over all {len(fam)} rows (Holm). These are "
            "results of the scripted players, and describe what happened (association with the side), not "
            "what a rule change would do."
        )
    )
    for r in vd.side_picks(fam):
        v = r["verdict"]
        n = int(r["players"])
        tail = {
            "red": "far from the target",
            "amber": "a real but modest miss",
            "negligible": f"a real but negligible miss (within {T:g} points)",
            "green": f"within {T:g} points of the target",
            "grey": "too few games to tell",
        }[v]
        text = (
            f"With {n} players the {esc(nice(r['side']))} side wins {pct(r['rate'])} "
            f"({ci(r['low'], r['high'])}) of games against a target of {pct(r['fair'])}: {tail}."
        )
        others = fam[(fam["players"] == n) & (fam["side"] != r["side"])]
        ev = (
            f"{int(r['games']):,} games; other sides: "
            + ", ".join(f"{nice(o['side'])} {pct(o['rate'])}" for _, o in others.iterrows())
            + (f"; no winner in {pct(r['no_winner'])}" if r["no_winner"] > 0 else "")
            + "."
            + family_note(r)
        )
        if v == "red":
            ev += next_html(spec, "side", players=n, side=r["side"])
        rep.findings.append(
            Finding(
                v,
                text,
                ev,
                "side",
                sec.anchor,
                {
                    "players": n,
                    "side": str(r["side"]),
                    "rate": float(r["rate"]),
                    "low": float(r["low"]),
                    "high": float(r["high"]),
                    "target": float(r["fair"]),
                    "p-adj": float(r["p_adj"]),
                },
            )
        )
    sides = sorted(fam["side"].unique())
    fig, ax = _new_ax((7.5, 4.2))
    counts = sorted(fam["players"].unique())
    width = 0.8 / max(1, len(sides))
    for k, sd in enumerate(sides):
        sub = fam[fam["side"] == sd].set_index("players").reindex(counts)
        x = np.arange(len(counts)) + (k - (len(sides) - 1) / 2) * width
        c = plotting.PALETTE[k % len(plotting.PALETTE)]
        ax.bar(
            x,
            100 * sub["rate"],
            width,
            color=c,
            label=nice(sd),
            edgecolor="0.25",
            linewidth=0.6,
            yerr=100 * plotting._err(sub["rate"].fillna(0), sub["low"].fillna(0), sub["high"].fillna(0)),
        )
        for xi, tv in zip(x, sub["fair"]):
            if np.isfinite(tv):
                ax.plot([xi - width / 2, xi + width / 2], [100 * tv] * 2, color="0.2", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(counts)), [str(c) for c in counts])
    ax.set_xlabel("players")
    ax.set_ylabel("games won by the side (%)")
    ax.set_title("Side win rates per player count (95% intervals)")
    ax.legend(loc="best", fontsize=8)
    sec.body.append(
        figure_html(
            fig,
            "side win rates per player count",
            "Bars: share of games the side won; whiskers: 95% interval; dashed: the target.",
        )
    )
    sec.body.append(
        table_html(
            fam[["players", "side", "games", "rate", "low", "high", "fair", "verdict"]]
            .assign(verdict=[VERDICTS[v][0] for v in fam["verdict"]])
            .rename(columns={"rate": "won", "low": "95% low", "high": "95% high", "fair": "target"}),
            {"won": pct, "95% low": pct, "95% high": pct, "target": pct, "games": lambda v: f"{int(v):,}"},
        )
    )
    if {"eliminated", "elim_turn"} <= set(seats.columns):
        length = _length_column(spec)
        dt = sa.downtime(seats, games, length=length, alpha=ALPHA)
        rep.tables["downtime"] = dt
        sec.body.append("<h3>Elimination downtime</h3>")
        sec.body.append(
            para(
                "Players knocked out wait for the game to end. <b>Out early</b>: share of players eliminated before "
                f"half of the game's {esc(nice(length))}; <b>share of the game out</b>: the mean share of the game a "
                f"player spends eliminated (0 for survivors); <b>{esc(nice(length))} out</b>: how long an eliminated "
                "player waits, counted in all players' turns. Intervals clustered by game."
            )
        )
        n_ref = _reference_players(seats, spec)
        r = dt[dt["players"] == n_ref].iloc[0]
        rep.findings.append(
            Finding(
                "info",
                f"In {n_ref}-player games {pct(r['out_early'])} of players are out before half of the game, "
                f"and a player spends {pct(r['share_out'])} of the game eliminated on average.",
                f"{int(r['games']):,} games; out early {ci(r['out_early_low'], r['out_early_high'])}; an eliminated "
                f"player waits {r['turns_out']:.1f} {nice(length)} ({r['turns_out_low']:.1f}\u2013"
                f"{r['turns_out_high']:.1f}).",
                "downtime",
                sec.anchor,
                {"players": n_ref, "out-early": float(r["out_early"])},
            )
        )
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
        x = dt["players"].to_numpy()
        axes[0].errorbar(
            x,
            100 * dt["out_early"],
            yerr=100 * plotting._err(dt["out_early"], dt["out_early_low"], dt["out_early_high"]),
            fmt="o-",
            color=plotting.PALETTE[0],
            label="out before half the game",
        )
        axes[0].errorbar(
            x,
            100 * dt["share_out"],
            yerr=100 * plotting._err(dt["share_out"], dt["share_out_low"], dt["share_out_high"]),
            fmt="s-",
            color=plotting.PALETTE[1],
            label="share of the game spent out",
        )
        axes[0].set_xlabel("players")
        axes[0].set_ylabel("players (%)")
        axes[0].set_title("Eliminated early")
        axes[0].legend(loc="best", fontsize=8)
        axes[1].errorbar(
            x,
            dt["turns_out"],
            yerr=np.vstack([dt["turns_out"] - dt["turns_out_low"], dt["turns_out_high"] - dt["turns_out"]]),
            fmt="o-",
            color=plotting.PALETTE[2],
        )
        axes[1].set_xlabel("players")
        axes[1].set_ylabel(f"{nice(length)} spent out (mean)")
        axes[1].set_title("Wait of an eliminated player")
        sec.body.append(
            figure_html(
                fig,
                "elimination downtime per player count",
                "Points: estimate; bars: 95% interval (clustered by game).",
            )
        )
        sec.body.append(
            table_html(
                dt[["players", "games", "eliminated", "out_early", "share_out", "turns_out"]].rename(
                    columns={
                        "eliminated": "eliminated by the end",
                        "out_early": "out early",
                        "share_out": "share of game out",
                        "turns_out": f"{nice(length)} out",
                    }
                ),
                {
                    "games": lambda v: f"{int(v):,}",
                    "eliminated by the end": pct,
                    "out early": pct,
                    "share of game out": pct,
                    f"{nice(length)} out": lambda v: f"{v:.1f}",
                },
            )
        )
    rep.sections.append(sec)


def _lineup_hint(spec):
    """The command that would compare the game's strategies (for a run with one strategy in every seat)."""
    if spec is None or len(spec.strategies) < 2:
        return "Run with <code>--lineup</code> to compare several."
    names = ",".join(s.name for s in spec.strategies if not s.sees_hidden)
    return f"To measure them: <code>sim run {esc(spec.name)} --lineup {esc(names)} --all-rotations --out ...</code>."


def _strategy_section(rep, seats, spec=None):
    T = THRESHOLDS["strategy"]
    sec = Section("strategies", "Strategies")
    names = sorted({str(x) for x in seats["strategy"].unique()})  # no string copy of the column
    if len(names) < 2:
        sec.body.append(
            para(
                f"Every seat played the same scripted strategy ({esc(names[0])}), so strategies, and skill "
                "against luck (how often the stronger of two strategies wins), cannot be measured in this run. "
                + _lineup_hint(spec)
            )
        )
        rep.sections.append(sec)
        return
    wr = sa.win_rates(seats, by="strategy", alpha=ALPHA)
    rep.tables["win_rates"] = wr
    sec.body.append(
        para(
            "The scripted strategies are simple rule-of-thumb players, not experts: a strategy far above the others "
            "points to a line of play the game may reward too much. Win share as above; <b>fair</b> is what a "
            f"strategy would take if it made no difference. Threshold: {T:g} points."
        )
    )
    fam = vd.strategy_family(seats, alpha=ALPHA, family_alpha=rep.family_alpha)
    rep.tables["strategy_family"] = fam
    picks = vd.strategy_picks(fam)
    for r in picks:
        word = "strongest" if r["strategy"] == picks[0]["strategy"] else "weakest"
        v = r["verdict"]
        tail = {
            "red": "a clearly dominant line of play among these bots"
            if r["excess"] > 0
            else "clearly outclassed by the other bots",
            "amber": "a real but modest edge" if r["excess"] > 0 else "a real but modest handicap",
            "negligible": f"a real but negligible difference (within {T:g} points of fair)",
            "green": f"within {T:g} points of fair",
            "grey": "too few games to tell",
        }[v]
        text = (
            f"The {esc(r['strategy'])} strategy ({word}) takes {pct(r['rate'])} ({ci(r['low'], r['high'])}) "
            f"of the wins against a fair {pct(r['fair'])}: {tail}."
        )
        ev = (
            f"{int(r['n']):,} seats in {int(r['games']):,} games; 95% interval ({r['interval']}). A verdict "
            f"about these scripted players, not about the game: a bot far below the others may just play "
            f"badly.{family_note(r)}" + (next_html(spec, "strategy") if v == "red" else "")
        )
        rep.findings.append(
            Finding(
                v,
                text,
                ev,
                "strategy",
                sec.anchor,
                {
                    "strategy": str(r["strategy"]),
                    "rate": float(r["rate"]),
                    "low": float(r["low"]),
                    "high": float(r["high"]),
                    "fair": float(r["fair"]),
                    "p-adj": float(r["p_adj"]),
                },
            )
        )
    fig, ax = _new_ax((7.5, 0.4 * len(wr) + 1.6))
    plotting.plot_rates(wr, label="strategy", ax=ax, xlabel="win share (%)", title="Win share by strategy")
    sec.body.append(
        figure_html(fig, "win share by strategy", "Dots: win share; bars: 95% interval; grey: the fair share.")
    )
    if seats["players"].nunique() > 1:
        wp = sa.win_rates_by_players(seats, by="strategy", alpha=ALPHA)
        rep.tables["win_rates_by_players"] = wp
        sec.body.append(para("By player count:"))
        sec.body.append(
            table_html(
                wp[["players", "strategy", "n", "rate", "low", "high", "fair"]].rename(
                    columns={"n": "seats", "rate": "win share", "low": "95% low", "high": "95% high"}
                ),
                {"win share": pct, "95% low": pct, "95% high": pct, "fair": pct, "seats": lambda v: f"{int(v):,}"},
            )
        )
    try:
        mm = sa.matchup_matrix(seats, alpha=ALPHA)
        bt = sa.bradley_terry(seats, alpha=ALPHA, bootstrap=BT_BOOTSTRAP, seed=0)
    except ValueError:
        mm, bt = None, None
    if mm is not None and len(mm):
        rep.tables["matchups"], rep.tables["ratings"] = mm, bt
        sec.body.append(
            para(
                "<b>Match-ups.</b> How often the row strategy finishes ahead of the column strategy when both are in "
                "the same game (50% = even). <b>Ratings</b> put all strategies on one scale from those results "
                "(Bradley-Terry, shown as Elo points: +100 means finishing ahead of an average opponent about 64% of "
                "the time)."
            )
        )
        k = len(names)
        fig, ax = _new_ax((1.0 * k + 3.0, 0.8 * k + 2.2))
        plotting.plot_matchups(mm, ax=ax)
        sec.body.append(
            figure_html(
                fig,
                "head-to-head matrix of strategies",
                "Each cell: how often the row strategy finishes ahead of the column strategy "
                "in the games where both play (50%: even).",
            )
        )
        fig, ax = _new_ax((7.5, 0.4 * len(bt) + 1.6))
        plotting.plot_ratings(bt, ax=ax)
        sec.body.append(
            figure_html(
                fig,
                "strategy ratings with intervals",
                "Dots: Bradley-Terry rating in Elo points (0: the average strategy); bars: 95% bootstrap interval.",
            )
        )
        _skill_luck(rep, sec, mm, wr)
    rep.sections.append(sec)


def _skill_luck(rep, sec, mm, wr):
    """How often the stronger of two strategies finishes ahead of the weaker when they meet: 50% is a game of
    pure luck between them, 100% one of pure skill."""
    share = wr.set_index("strategy")["rate"]
    rows = []
    for _, r in mm.iterrows():
        a, b = str(r["a"]), str(r["b"])
        if a in share.index and b in share.index and share[a] > share[b]:
            rows.append(
                {
                    "stronger": a,
                    "weaker": b,
                    "gap_pp": 100 * (share[a] - share[b]),
                    "rate": r["rate"],
                    "low": r["low"],
                    "high": r["high"],
                    "pairs": int(r["n"]),
                }
            )
    if not rows:
        return
    t = pd.DataFrame(rows).sort_values("gap_pp").reset_index(drop=True)
    rep.tables["skill_luck"] = t
    top = t.iloc[-1]
    rep.findings.append(
        Finding(
            "info",
            f"Skill against luck: the strongest strategy ({esc(top['stronger'])}) finishes ahead of the weakest "
            f"({esc(top['weaker'])}) in {pct(top['rate'])} ({ci(top['low'], top['high'])}) of the games they "
            f"share; 50% would be pure luck between them, 100% pure skill. Strategy win shares range over "
            f"{100 * (share.max() - share.min()):.1f} points.",
            f"{int(top['pairs']):,} meetings; interval clustered by game. About these scripted players.",
            "luck",
            sec.anchor,
            {"rate": float(top["rate"])},
        )
    )
    fig, ax = _new_ax((7.5, 0.35 * len(t) + 1.8))
    y = np.arange(len(t))
    ax.errorbar(
        100 * t["rate"], y, xerr=100 * plotting._err(t["rate"], t["low"], t["high"]), fmt="o", color=plotting.PALETTE[0]
    )
    ax.axvline(50, **plotting.FAIR_STYLE)
    ax.set_yticks(y, [f"{a} vs {b} (+{g:.1f})" for a, b, g in zip(t["stronger"], t["weaker"], t["gap_pp"])])
    ax.set_xlim(min(40, 100 * t["low"].min() - 2), 100)
    ax.set_xlabel("stronger strategy finishes ahead (% of their meetings)")
    ax.set_ylabel("pair (win-share gap, points)")
    ax.set_title("Skill against luck")
    sec.body.append(
        figure_html(
            fig,
            "how often the stronger strategy finishes ahead",
            "Dots: share of meetings the stronger strategy (by win share) finishes ahead; bars: "
            "95% interval (clustered by game); dashed: 50%, a coin flip.",
        )
    )


def _item_verb(kind, spec):
    return "are dealt" if str(kind) in declared(spec, "dealt_kinds") else "acquire"


def _measure_effects(rep, fam, picks, spec, effects):
    """sim effect for the items the association flags (red / amber, up to EFFECT_ITEMS, largest first), at the
    reference player count, cached beside the run. {item: result}."""
    if not effects or rep.is_sweep or spec is None:
        return {}
    from ..effect import cached_effect, can_intervene

    hot = [r for r in picks if r["verdict"] in ("red", "amber") and can_intervene(spec, r["item"])]
    hot = sorted(hot, key=lambda r: -abs(r["rel_pp"]))[:EFFECT_ITEMS]
    n = (
        int(spec.default_players)
        if spec.default_players in rep.manifest.get("players", [])
        else int((rep.manifest.get("players") or [spec.default_players])[0])
    )
    out = {}
    for r in hot:
        try:
            out[str(r["item"])] = cached_effect(rep.path, rep.manifest, str(r["item"]), n, EFFECT_GAMES)
        except UserError as e:  # e.g. a line-up the current code no longer knows
            rep.notices.append(para(f"sim effect for {esc(r['item'])} could not run: {esc(e)}"))
    return {k: v for k, v in out.items() if v}


def _items_section(rep, seats, items, games=None, spec=None, effects=True, item_seats=None):
    """item_seats: the seat rows of the games `items` holds, when items is a sample of whole games
    (_item_sample); default all of `seats`."""
    T = THRESHOLDS["item"]
    sec = Section("items", "Item strength (association)")
    fit_seats = seats if item_seats is None else item_seats
    fam = vd.item_family(
        fit_seats,
        items,
        alpha=ALPHA,
        min_rows=MIN_ROWS,  # late: vs each game's last acquisition
        family_alpha=rep.family_alpha,
        max_rows=max(ITEM_ROWS, len(fit_seats)),
    )
    rep.tables["item_family"] = fam
    sec.body.append(
        para(
            "For each card, building or other item: how much more often seats holding it win. The <b>adjusted "
            "effect</b> compares a seat only with the other seats of the same game (so player count and everything "
            "common to a game drop out), holding turn order, strategy and the kind's other items equal; it is fitted "
            "for every item with enough games, one model per kind, on all seats (above 250,000 seats, on a sample of "
            "whole games of that size). Items are ranked by that effect "
            "<b>relative to the kind's average</b>: a player who is already winning tends to acquire more of "
            "everything, which lifts every item of a kind alike and cancels in the comparison. The raw difference is "
            "computed within each player count and combined (pooling player counts can make an item look strong "
            "only because it appears in games with fewer players). Items mostly acquired in the last third of the game "
            "are flagged <i>leaders acquire it</i> and never judged Strong. "
            f"Threshold: {T:g} points; verdicts corrected over all {int(fam['family'].max() if len(fam) else 0)} "
            f"fitted items (Holm). Items seen in fewer than {MIN_ROWS} seats (with or without it) are listed, not "
            "ranked. <b>All of this is association, not effect</b>: what removing an item would change is measured "
            "by <code>sim effect GAME --item NAME</code> (paired games with and without it)."
        )
    )
    game = rep.manifest.get("game", "GAME")
    picks = vd.item_picks(fam)
    measured = _measure_effects(rep, fam, picks, spec, effects)
    rep.tables["item_effects_measured"] = measured
    for r in picks:
        v = r["verdict"]
        kind = str(r["kind"])
        e, lo, hi = r["rel_pp"], r["rel_low_pp"], r["rel_high_pp"]
        how = "more" if e > 0 else "less"
        tail = {
            "red": "a clear outlier to look at",
            "amber": "a real but modest difference",
            "negligible": f"real but negligible (within {T:g} points)",
            "green": f"within {T:g} points of the kind's average",
            "grey": "too few games to tell",
        }[v]
        if r["leaders_flag"]:
            tail += "; leaders acquire it late, so part of this is their lead, not the item"
        verb = _item_verb(kind, spec)
        text = (
            f"Seats that {verb} the {nice(kind)} {esc(item_name(r['item']))} win {abs(e):.1f} points {how} "
            f"often than with an average {nice(kind)} (association, adjusted): {tail}."
        )
        ev = (
            f"Adjusted effect relative to the kind's average {pts(e)} points (95% interval {lo:+.1f} to "
            f"{hi:+.1f}); adjusted effect {pts(r['effect_pp'])} points; raw difference (player counts combined) "
            f"{pts(100 * r['diff'])}; held by {pct(r['pick_rate'])} of seats; {pct(r['late_share'], 0)} of "
            f"acquisitions in the last third of the game.{family_note(r, points=True)}"
        )
        m = measured.get(str(r["item"]))
        if m:
            h = m["holder_win"]
            ev += (
                f" <b>Effect</b> (causal: {m['games']:,} paired games with and without it, same seeds, "
                f"{m['players']} players): {pts(100 * h['mean'])} points of win rate for its holder "
                f"(95% interval {100 * h['low']:+.1f} to {100 * h['high']:+.1f})."
            )
        else:
            ev += f" Causal check: <code>sim effect {esc(game)} --item '{esc(r['item'])}'</code>."
        if v == "red":
            ev += next_html(spec, "item", players=_reference_players(seats, spec), item=r["item"])
        rep.findings.append(
            Finding(
                v,
                text,
                ev,
                "item",
                sec.anchor,
                {
                    "item": str(r["item"]),
                    "item_kind": kind,
                    "effect_pp": float(e),
                    "low_pp": float(lo),
                    "high_pp": float(hi),
                    "adjusted": True,
                    "leaders": bool(r["leaders_flag"]),
                    "p-adj": float(r["p_adj"]),
                    **({"effect-holder-pp": 100 * float(m["holder_win"]["mean"])} if m else {}),
                },
            )
        )
    if measured:
        rows = []
        for it, m in measured.items():
            r = fam[fam["item"].astype(str) == it].iloc[0]
            h, a, w = m["holder_win"], m.get("association") or {}, m["holder"]
            rows.append(
                {
                    "item": item_name(it),
                    "association: adjusted vs kind avg": r["rel_pp"],
                    "association: raw (holders - others)": 100 * a.get("diff", np.nan),
                    "effect on holder": 100 * h["mean"],
                    "effect low": 100 * h["low"],
                    "effect high": 100 * h["high"],
                    "effect (win share)": 100 * w["mean"],
                    "paired games": m["games"],
                    "players": m["players"],
                }
            )
        sec.body.append("<h3>Association and effect</h3>")
        sec.body.append(
            para(
                "The numbers above are <b>association</b>. For the items they flag, the report also measured the "
                "<b>effect</b>: the same games played again with the item removed from the game (same seeds, so each "
                "game is compared with itself), and the change in its holder's win rate, in points (and in win share, "
                "ties and team wins split). Association columns are win rates from this run; the effect is what the "
                "item causes with these players."
            )
        )
        f1 = lambda v: "" if not np.isfinite(v) else f"{v:+.1f}"  # noqa: E731
        sec.body.append(
            table_html(
                pd.DataFrame(rows),
                {
                    "association: adjusted vs kind avg": f1,
                    "association: raw (holders - others)": f1,
                    "effect on holder": f1,
                    "effect low": f1,
                    "effect high": f1,
                    "effect (win share)": f1,
                    "paired games": lambda v: f"{int(v):,}",
                },
            )
        )
    for kind in sorted(fam["kind"].astype(str).unique()):
        t = fam[fam["kind"].astype(str) == kind]
        ranked = t[t["enough"] & t["rel_pp"].notna()].sort_values("rel_pp", ascending=False)
        sec.body.append(f"<h3>{esc(nice(kind).capitalize())} ({len(t)} items, {len(ranked)} ranked)</h3>")
        shown = pd.concat(
            [ranked.head(ITEMS_SHOWN), ranked.tail(ITEMS_SHOWN), t[~t.index.isin(ranked.index)].head(ITEMS_SHOWN)]
        )
        shown = shown[~shown.index.duplicated()]
        fig, ax = _new_ax((7.5, 0.32 * len(shown) + 1.8))
        plotting.plot_item_strength(
            shown,
            ax=ax,
            top=len(shown),
            value="rel_pp",
            title=f"{nice(kind).capitalize()}: adjusted effect relative to the average",
        )
        ax.set_ylabel(nice(kind))
        note = "" if len(shown) == len(t) else f" Showing the top and bottom {ITEMS_SHOWN} ranked items."
        sec.body.append(
            figure_html(
                fig,
                f"{kind} strength",
                "Dots: adjusted effect minus the kind's average, percentage points; bars: 95% "
                "interval (clustered by game); hollow grey: too few games to fit (raw "
                "difference shown)." + note,
            )
        )
        cols = [
            "item",
            "n_with",
            "pick_rate",
            "diff",
            "low",
            "high",
            "effect_pp",
            "rel_pp",
            "rel_low_pp",
            "rel_high_pp",
            "verdict",
            "late_share",
            "leaders_flag",
        ]
        cols += [c for c in ("price", "rel_per_price") if c in shown.columns]
        cols += sorted(c for c in shown.columns if re.fullmatch(r"adj_\d+_pp", c))
        tab = shown[cols].assign(
            verdict=[VERDICTS[x][0] if isinstance(x, str) else "not ranked" for x in shown["verdict"]]
        )
        tab = tab.rename(
            columns={
                "n_with": "seats with",
                "pick_rate": "held by",
                "diff": "raw diff",
                "low": "raw low",
                "high": "raw high",
                "effect_pp": "adjusted",
                "rel_pp": "vs kind avg",
                "rel_low_pp": "low",
                "rel_high_pp": "high",
                "late_share": "late",
                "leaders_flag": "leaders acquire it",
                "price": "mean price",
                "rel_per_price": "vs avg per unit price",
                **{c: f"adjusted, {c.split('_')[1]} players" for c in cols if re.fullmatch(r"adj_\d+_pp", c)},
            }
        )
        f1 = lambda v: "" if not np.isfinite(v) else f"{v:+.1f}"  # noqa: E731
        f100 = lambda v: "" if not np.isfinite(v) else f"{100 * v:+.1f}"  # noqa: E731
        fmts = {
            "seats with": lambda v: f"{int(v):,}",
            "held by": pct,
            "raw diff": f100,
            "raw low": f100,
            "raw high": f100,
            "adjusted": f1,
            "vs kind avg": f1,
            "low": f1,
            "high": f1,
            "late": lambda v: pct(v, 0),
            "leaders acquire it": lambda v: "yes" if v else "",
            "mean price": lambda v: "" if not np.isfinite(v) else f"{v:.1f}",
            "vs avg per unit price": lambda v: "" if not np.isfinite(v) else f"{v:+.2f}",
        }
        fmts.update({c: f1 for c in tab.columns if c.startswith("adjusted, ")})
        sec.body.append(table_html(tab, fmts))
    rep.tables["item_strength"] = {k: fam[fam["kind"] == k] for k in fam["kind"].unique()}
    if len(fam):
        rep.sections.append(sec)


def _reference_players(seats, spec):
    values, n = np.unique(seats["players"].to_numpy(), return_counts=True)  # (no row-sized group index)
    counts = pd.Series(n, index=values)
    if spec is not None and spec.default_players in counts.index:
        return int(spec.default_players)
    return int(counts.idxmax())


def _roles_section(rep, seats, spec, quiet=()):
    """quiet: role columns shown without findings (a team game's role is its side, judged in the sides section;
    a column that is also an item kind, e.g. characters, is judged once, in item strength)."""
    T = THRESHOLDS["role"]
    cols = _role_columns(seats, spec)
    if not cols:
        return
    sec = Section("roles", "Roles and characters")
    n_ref = _reference_players(seats, spec)
    sec.body.append(
        para(
            "Win rate of each role or character: the share of games its seat won (in team games, its team won). "
            "<b>Fair</b> is what it would win if it made no difference: in team games, the average number of winners "
            f"per game divided by the players. Shown for {n_ref}-player games. Labels seen in fewer than {MIN_ROWS} "
            f"seats are flagged <i>too few games</i>. Threshold: {T:g} points; verdicts corrected over all labels "
            "(Holm). Association: a label's win rate, not what it causes."
            + (
                f" Findings for {esc(', '.join(sorted(nice(q) for q in quiet if q in cols)))} are given elsewhere "
                "(a side in the sides section; an item kind, with the adjusted comparison, in item strength); "
                "the tables below are for reference."
                if set(quiet) & set(cols)
                else ""
            )
        )
    )
    sub = seats[seats["players"] == n_ref]
    tables = {}
    fams = vd.role_family(sub, cols, alpha=ALPHA, min_rows=MIN_ROWS, family_alpha=rep.family_alpha)
    for col in cols:
        t = fams.get(col)
        if t is None or len(t) < 2:
            continue
        tables[col] = t
        for r in [] if col in quiet else vd.role_picks(t):
            v = r["verdict"]
            tail = {
                "red": "far from even",
                "amber": "a real but modest difference",
                "negligible": f"a real but negligible difference (within {T:g} points of fair)",
                "green": f"within {T:g} points of fair",
                "grey": "too few games to tell",
            }[v]
            text = (
                f"The {esc(nice(r[col]))} ({nice(col)}) wins {pct(r['rate'])} ({ci(r['low'], r['high'])}) "
                f"of {n_ref}-player games, against {pct(r['fair'])} if it made no difference: {tail}."
            )
            ev = (
                f"{int(r['n']):,} seats; 95% interval ({r['interval']}); outcome: won or shared the win."
                f"{family_note(r)}"
            )
            rep.findings.append(
                Finding(
                    v,
                    text,
                    ev,
                    "role",
                    sec.anchor,
                    {
                        "column": col,
                        "label": str(r[col]),
                        "players": n_ref,
                        "rate": float(r["rate"]),
                        "low": float(r["low"]),
                        "high": float(r["high"]),
                        "fair": float(r["fair"]),
                        "p-adj": float(r["p_adj"]),
                    },
                )
            )
        fig, ax = _new_ax((7.5, 0.32 * len(t) + 1.8))
        plotting.plot_rates(
            t, label=col, ax=ax, xlabel="win rate (%)", title=f"Win rate by {nice(col)} ({n_ref} players)"
        )
        sec.body.append(f"<h3>{esc(nice(col).capitalize())}</h3>")
        sec.body.append(figure_html(fig, f"win rate by {col}", "Dots: win rate; bars: 95% interval; grey: fair."))
        sec.body.append(
            table_html(
                t[[col, "n", "rate", "low", "high", "fair", "excess", "enough"]].rename(
                    columns={
                        "n": "seats",
                        "rate": "win rate",
                        "low": "95% low",
                        "high": "95% high",
                        "excess": "points from fair",
                        "enough": "ranked",
                    }
                ),
                {
                    "win rate": pct,
                    "95% low": pct,
                    "95% high": pct,
                    "fair": pct,
                    "seats": lambda v: f"{int(v):,}",
                    "points from fair": lambda v: f"{100 * v:+.1f}",
                    "ranked": lambda v: "yes" if v else "too few games",
                },
            )
        )
    rep.tables["roles"] = tables
    if tables:
        rep.sections.append(sec)


def _shape_section(rep, games, seats, spec):
    sec = Section("shape", "Game length and score margins")
    col = _length_column(spec)
    ls = sa.length_summary(games, column=col, alpha=ALPHA)
    rep.tables["length"] = ls
    n_ref = _reference_players(seats, spec)
    r = ls[ls["players"] == n_ref].iloc[0]
    unit = nice(col)
    rep.findings.append(
        Finding(
            "info",
            f"A {n_ref}-player game lasts {r['mean']:.1f} {unit} on average; half of the games take "
            f"{r['q25']:.0f} to {r['q75']:.0f} {unit} and 90% take {r['q05']:.0f} to {r['q95']:.0f}.",
            f"{int(r['games']):,} games; mean {r['mean']:.2f} (95% interval {r['low']:.2f}\u2013{r['high']:.2f}).",
            "length",
            sec.anchor,
            {"players": n_ref, "mean": float(r["mean"]), "column": col},
        )
    )
    if "capped_rate" in ls.columns and (ls["capped_rate"] > 0).any():
        c = ls.loc[ls["capped_rate"].idxmax()]
        v = "red" if c["capped_low"] > 0.01 else "amber"
        rep.findings.append(
            Finding(
                v,
                f"{pct(c['capped_rate'], 2)} ({ci(c['capped_low'], c['capped_high'], 2)}) of {int(c['players'])}"
                "-player games never finished and were stopped by the simulator's step limit: the bots (or the "
                "rules) can stall.",
                "Red when the interval lies above 1% of games, amber below.",
                "capped",
                sec.anchor,
                {"players": int(c["players"]), "rate": float(c["capped_rate"])},
            )
        )
    sec.body.append(
        para(
            f"Length is counted in {unit}. Dots and bars in the table: mean with its 95% interval; "
            "the quantiles say how spread out games are."
        )
    )
    fig, ax = _new_ax((7.5, 4.0))
    plotting.plot_length(games, column=col, ax=ax, unit=unit)
    sec.body.append(
        figure_html(
            fig,
            "distribution of game length per player count",
            f"Share of games by length in {esc(unit)}, one outline per player count.",
        )
    )
    sec.body.append(
        table_html(
            ls[
                ["players", "games", "mean", "low", "high", "q05", "median", "q95"]
                + (["capped_rate"] if "capped_rate" in ls.columns else [])
            ].rename(
                columns={
                    "low": "95% low",
                    "high": "95% high",
                    "q05": "5% of games under",
                    "q95": "95% of games under",
                    "capped_rate": "stopped by step limit",
                }
            ),
            {
                "games": lambda v: f"{int(v):,}",
                "mean": lambda v: f"{v:.1f}",
                "95% low": lambda v: f"{v:.1f}",
                "95% high": lambda v: f"{v:.1f}",
                "5% of games under": lambda v: f"{v:.0f}",
                "median": lambda v: f"{v:.0f}",
                "95% of games under": lambda v: f"{v:.0f}",
                "stopped by step limit": lambda v: pct(v, 2),
            },
        )
    )
    prefix = _points(spec, seats.columns)
    if prefix:
        m = sa.score_margins(seats)
        ms = sa.length_summary(m, column="margin", alpha=ALPHA)
        tr = sa.tie_rates(seats, alpha=ALPHA)
        rep.tables["margins"], rep.tables["ties"] = ms, tr
        r = ms[ms["players"] == n_ref].iloc[0]
        t = tr[tr["players"] == n_ref].iloc[0]
        rep.findings.append(
            Finding(
                "info",
                f"In {n_ref}-player games the winner leads the runner-up by {r['mean']:.1f} points on average "
                f"(median {r['median']:.0f}); {pct(t['score_tie_rate'])} of games end tied on top score.",
                f"{int(r['games']):,} games; mean margin 95% interval {r['low']:.2f}\u2013{r['high']:.2f}; "
                f"tie interval {ci(t['score_tie_low'], t['score_tie_high'])}.",
                "margin",
                sec.anchor,
                {"players": n_ref, "mean": float(r["mean"])},
            )
        )
        sec.body.append("<h3>Score margins</h3>")
        sec.body.append(
            para("The <b>margin</b> is the winner's score minus the runner-up's: small margins mean close games.")
        )
        fig, ax = _new_ax((7.5, 4.0))
        plotting.plot_length(
            m,
            column="margin",
            ax=ax,
            xlabel="winner's lead over the runner-up (points)",
            title="Winner's lead over the runner-up",
        )
        sec.body.append(
            figure_html(
                fig,
                "distribution of the winning margin per player count",
                "Share of games by the winner's lead over the runner-up in points, one "
                "outline per player count (0: tied on top score).",
            )
        )
        sec.body.append(
            table_html(
                ms[["players", "games", "mean", "median", "q05", "q95"]]
                .merge(tr[["players", "score_tie_rate"]], on="players")
                .rename(
                    columns={
                        "mean": "mean margin",
                        "median": "median margin",
                        "q05": "5% under",
                        "q95": "95% under",
                        "score_tie_rate": "tied on top score",
                    }
                ),
                {
                    "games": lambda v: f"{int(v):,}",
                    "mean margin": lambda v: f"{v:.1f}",
                    "median margin": lambda v: f"{v:.0f}",
                    "5% under": lambda v: f"{v:.0f}",
                    "95% under": lambda v: f"{v:.0f}",
                    "tied on top score": pct,
                },
            )
        )
        pb = sa.points_by_source(seats, prefix)
        if len(pb) and pb["source"].nunique() > 1:
            rep.tables["points_by_source"] = pb
            fig, ax = _new_ax((7.5, 4.2))
            plotting.plot_points_by_source(pb, ax=ax)
            sec.body.append(
                figure_html(
                    fig,
                    "mean points per seat by source",
                    "Mean points a seat scores from each source, stacked, per player count.",
                )
            )
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
            sec.body.append(
                figure_html(
                    fig,
                    "share of games by end reason",
                    "Share of games ending each way per player count; bars: 95% interval.",
                )
            )
    rep.sections.append(sec)


# ----------------------------------------------------------------------------------------------- robustness


def _robustness(rep, spec, targets=None, items=True):
    """Recompute the seat, side and item findings with a second population of players (the game's other
    strategies), played at the run's player counts and parameters and cached as a run in <run>/robust/; label
    each finding "holds with other players" or "depends on the bots"."""
    from ..runner import run_study

    man = rep.manifest
    seating = man.get("seating", {}) or {}
    alt = vd.second_lineup(spec, seating.get("lineup") or [])
    if not alt:
        return
    counts = [int(n) for n in man.get("players", [])]
    seed = int(man.get("seed", 0))
    overrides = {k: str(v) for k, v in (man.get("params_changed") or {}).items()}
    games2 = int(min(20 * ROBUST_GAMES, max(ROBUST_GAMES, int(man.get("games_per_player_count", 0)) // 10)))
    out = Path(rep.path) / "robust" / f"{'-'.join(alt)}_{games2}_s{seed}"
    try:
        path = run_study(
            spec,
            out,
            games=games2,
            players=counts,
            lineup=list(alt),
            seed=seed,
            params=overrides,
            progress=False,
            overwrite=True,
        )
    except UserError as e:
        rep.notices.append(para(f"The robustness check could not run: {esc(e)}"))
        return
    run2 = sa.load_run(path)
    seats2 = run2.seats(columns=_seat_columns(run2.columns("seats"), spec), compact=True)
    tabs = {"seat": vd.seat_family(seats2).set_index(["players", "order"])}
    g2cols = run2.columns("games")
    side = spec.side_column
    if side and side in g2cols:
        tabs["side"] = vd.side_family(
            run2.games(columns=[c for c in ("config", "game", "players", side) if c in g2cols], compact=True),
            side,
            targets=targets,
        ).set_index(["players", "side"])
    if items and any(f.kind == "item" for f in rep.findings):
        s2 = _item_sample(run2, seats2)
        if s2 is not None and s2.rows:
            tabs["item"] = vd.item_family(
                s2.seats, s2.items, by_players=False, max_rows=max(ITEM_ROWS, len(s2.seats))
            ).set_index("item")
    rows = []
    for f in rep.findings:
        d = f.data
        try:
            if f.kind == "seat":
                second = tabs["seat"].loc[(d["players"], d["position"])]
                ex = d["rate"] - d["fair"]
            elif f.kind == "side" and "side" in tabs:
                second = tabs["side"].loc[(d["players"], d["side"])]
                ex = d["rate"] - d["target"]
            elif f.kind == "item" and "item" in tabs:
                second = tabs["item"].loc[d["item"]]
                second = second.copy()
                second["excess"] = second["rel_pp"]
                ex = d["effect_pp"]
            else:
                continue
        except KeyError:
            continue
        if isinstance(second, pd.Series) and f.kind == "item" and not isinstance(second.get("verdict"), str):
            continue
        lab = vd.holds(f.verdict, ex, second)
        if lab is None:
            continue
        f.data["robust"] = lab
        f.text += f" <i>({ROBUST_LABELS[lab]})</i>"
        val = (
            f"{pts(second['rel_pp'])} points"
            if f.kind == "item"
            else f"{pct(second['rate'])} ({ci(second['low'], second['high'])})"
        )
        f.evidence += (
            f" With other players ({esc(', '.join(alt))}, {games2:,} games per player count): "
            f"{val}, {VERDICTS[second['verdict']][0].lower()}."
        )
        rows.append(
            {
                "finding": re.sub(r"<[^>]+>", "", f.text)[:140],
                "with the run's players": VERDICTS[f.verdict][0],
                "with other players": VERDICTS[second["verdict"]][0],
                "label": ROBUST_LABELS[lab],
            }
        )
    rep.tables["robustness"] = pd.DataFrame(rows)
    if rows:
        sec = Section("robustness", "Robustness: do the findings hold with other players?")
        sec.body.append(
            para(
                f"Every verdict above is about the game <i>as played by these scripted players</i>. To tell the game "
                f"from the bots, the seat, side and item findings were computed again on {games2:,} games per "
                f"player count played by the game's other strategies ({esc(', '.join(alt))}), same parameters and "
                "seed. <b>Holds with other players</b>: the second population finds the same direction (or the same "
                "balance); <b>depends on the bots</b>: it does not, so the finding may say more about the bots than "
                "about the rules. Findings the second population cannot settle (too few games) carry no label."
            )
        )
        sec.body.append(table_html(pd.DataFrame(rows)))
        rep.sections.append(sec)


# ----------------------------------------------------------------------------------------------- sweeps


def _config_frame(manifest):
    rows = []
    for i, c in enumerate(manifest.get("configs", []) or []):
        swept = c.get("swept", {}) or {}
        rows.append(
            {
                "config": int(c.get("config", i)),
                "players_cfg": c.get("players"),
                "lineup": ",".join(c.get("lineup", []) or []),
                **{f"p:{k}": v for k, v in swept.items()},
            }
        )
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
        if not set(c.get("swept") or {}) & set(c.get("params_changed") or {}):
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
    col = _length_column(rep.spec)
    ls = sa.length_summary(games, column=col, by="config", alpha=ALPHA).merge(cf, on="config")
    rep.tables["sweep_length"] = ls
    multi = seats["strategy"].astype(str).nunique() > 1
    wr = sa.win_rates(seats, by=["config", "strategy"], alpha=ALPHA).merge(cf, on="config") if multi else None
    sec.body.append(
        para(
            "Each point is one configuration of the sweep, with its 95% interval. The first player's win share "
            "should sit on the dashed fair line; a configuration whose interval lies within "
            f"{T:g} points of fair is balanced for turn order."
        )
    )
    for pc in pcols:
        name = pc[2:]
        others = [c for c in pcols if c != pc]
        panels = 3 if multi else 2
        fig, axes = plt.subplots(1, panels, figsize=(5.0 * panels, 4.0), squeeze=False)
        axes = axes[0]
        xs_all, numeric = _as_numbers(
            sorted(first[pc].unique(), key=lambda v: _as_numbers([v])[0][0] if _as_numbers([v])[1] else str(v))
        )
        cats = {v: i for i, v in enumerate(sorted(first[pc].astype(str).unique()))}

        def xpos(vals, numeric=numeric, cats=cats):
            return [float(v) for v in vals] if numeric else [cats[str(v)] for v in vals]

        for k, (key, g) in enumerate(first.groupby(["players"] + others, dropna=False)):
            key = key if isinstance(key, tuple) else (key,)
            lab = f"{int(key[0])} players" + "".join(f", {o[2:]}={v}" for o, v in zip(others, key[1:]))
            g = g.assign(_x=xpos(g[pc])).sort_values("_x")
            c = plotting.PALETTE[k % len(plotting.PALETTE)]
            axes[0].errorbar(
                g["_x"],
                100 * g["rate"],
                yerr=100 * plotting._err(g["rate"], g["low"], g["high"]),
                fmt="o-",
                color=c,
                label=lab,
            )
            axes[0].axhline(100 * g["fair"].iloc[0], color=c, linestyle="--", linewidth=1)
            L = ls[ls["config"].isin(g["config"])]
            L = L.assign(_x=xpos(L[pc])).sort_values("_x")
            axes[1].errorbar(
                L["_x"],
                L["mean"],
                yerr=np.vstack([L["mean"] - L["low"], L["high"] - L["mean"]]),
                fmt="o-",
                color=c,
                label=lab,
            )
            # findings: where is turn order fair?
            vs = [verdict(100 * a, 100 * b, 100 * f, T) for a, b, f in zip(g["low"], g["high"], g["fair"])]
            fair_at = [str(x) for x, v in zip(g[pc], vs) if v in ("green", "negligible")]
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
            text = (
                f"Changing {esc(name)} from {esc(lo_r[pc])} to {esc(hi_r[pc])} moves the first player's win "
                f"share ({esc(lab)}) from {pct(lo_r['rate'])} ({ci(lo_r['low'], lo_r['high'])}) to "
                f"{pct(hi_r['rate'])} ({ci(hi_r['low'], hi_r['high'])}); fair is {pct(lo_r['fair'])}: {tail}."
            )
            rep.findings.append(
                Finding(
                    v,
                    text,
                    f"{len(g)} configurations, {int(g['games'].sum()):,} games.",
                    "sweep",
                    sec.anchor,
                    {"param": name, "players": int(key[0])},
                )
            )
        if multi:
            for k, (s, g) in enumerate(wr.groupby("strategy")):
                g = g.assign(_x=xpos(g[pc])).groupby("_x")[["rate", "low", "high"]].mean().reset_index()
                axes[2].errorbar(
                    g["_x"],
                    100 * g["rate"],
                    yerr=100 * plotting._err(g["rate"], g["low"], g["high"]),
                    fmt="o-",
                    color=plotting.PALETTE[k % len(plotting.PALETTE)],
                    label=str(s),
                )
            axes[2].set_ylabel("win share (%)")
            axes[2].set_title("Strategies (mean over other settings)")
            axes[2].legend(loc="best", fontsize=8)
        for sv in solves:
            if sv.get("param") == name and numeric:
                for ax in axes[:1]:
                    if np.isfinite(sv.get("low", np.nan)) and np.isfinite(sv.get("high", np.nan)):
                        ax.axvspan(
                            sv["low"],
                            sv["high"],
                            color="0.85",
                            zorder=0,
                            label=f"balance point ({sv.get('players', '?')} players, interval)",
                        )
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
        sec.body.append(
            figure_html(
                fig,
                f"response of the key metrics to {name}",
                "Points: estimate per configuration; bars: 95% interval; dashed: fair share.",
            )
        )
    t = first[["config", "players"] + pcols + ["games", "rate", "low", "high", "fair"]].rename(
        columns={**{c: c[2:] for c in pcols}, "rate": "first player", "low": "95% low", "high": "95% high"}
    )
    sec.body.append(
        table_html(
            t, {"first player": pct, "95% low": pct, "95% high": pct, "fair": pct, "games": lambda v: f"{int(v):,}"}
        )
    )
    rep.sections.append(sec)


def _balance_section(rep, solves):
    from scipy.stats import norm

    sec = Section("balance", "Balance point")
    sec.body.append(
        para(
            "The solver searched for the value of one parameter at which a metric hits its target (for example the "
            "first player's win share equal to 1/n). The interval is every value at which the fitted line is "
            "statistically indistinguishable from the target."
        )
    )
    for sv in solves:
        conf = float(sv.get("confidence", 0.95))
        bounded = bool(sv.get("bounded", True)) and np.isfinite(sv.get("low", np.nan))
        v = "green" if bounded else "grey"
        metric = nice(sv.get("metric", "metric"))
        m = re.fullmatch(r"order(\d+)_win_share", str(sv.get("metric", "")))
        target = f"{sv['target']:.4g}"
        if m:
            metric, target = f"the {who(int(m.group(1)))}'s win share", pct(sv["target"])
        text = (
            f"Balance point: {esc(metric)} reaches {target} at {esc(sv['param'])} = "
            f"{sv['value']:.3g} ({100 * conf:.0f}% interval {sv.get('low', float('nan')):.3g} to "
            f"{sv.get('high', float('nan')):.3g})"
            + ("" if bounded else " - not pinned down by the data")
            + (f" in {sv['players']}-player games" if sv.get("players") else "")
            + "."
        )
        rep.findings.append(
            Finding(
                v,
                text,
                f"{int(sv.get('games', 0)):,} games over "
                f"{len(sv.get('evaluations', []))} evaluations. {esc(sv.get('note', ''))}",
                "balance",
                sec.anchor,
                {"param": sv["param"], "value": float(sv["value"])},
            )
        )
        ev = pd.DataFrame(sv.get("evaluations", []))
        fig, ax = _new_ax((7.5, 4.0))
        if len(ev):
            z = norm.ppf(0.5 + conf / 2)
            ev = ev.sort_values("x")
            half = z * np.sqrt(ev["variance"].clip(lower=0))
            ax.errorbar(ev["x"], ev["estimate"], yerr=half, fmt="o", color=plotting.PALETTE[0], label="evaluations")
        ax.axhline(sv["target"], **plotting.FAIR_STYLE, label="target")
        if bounded:
            ax.axvspan(sv["low"], sv["high"], color="0.85", zorder=0, label="balance point interval")
        ax.axvline(sv["value"], color=plotting.PALETTE[3], linewidth=1.5, label="balance point")
        ax.set_xlabel(sv["param"])
        ax.set_ylabel(metric)
        ax.set_title(f"Balance point for {sv['param']}")
        ax.legend(loc="best", fontsize=8)
        sec.body.append(
            figure_html(
                fig,
                f"balance point search for {sv['param']}",
                "Points: the metric at each value tried, with its 95% interval; dashed: the "
                "target; solid: the balance point found.",
            )
        )
    rep.sections.append(sec)


# ----------------------------------------------------------------------------------------------- provenance


def _provenance_section(rep, spec, manifest, is_sweep, cf):
    sec = Section("provenance", "Provenance: what these results rest on")
    rows = [
        ("Game", f"{manifest.get('title') or manifest.get('game')} ({manifest.get('game')})"),
        ("Rules version", manifest.get("rules_version") or (spec.rules_version if spec else "") or "not stated"),
    ]
    if is_sweep:
        rows.append(("Configurations", str(manifest.get("n_configs", len(cf)))))
    else:
        rows.append(("Player counts", ", ".join(map(str, manifest.get("players", [])))))
        rows.append(
            (
                "Games",
                f"{int(manifest.get('total_games', 0)):,} "
                f"({int(manifest.get('games_per_player_count', 0)):,} per player count)",
            )
        )
        seat = manifest.get("seating", {}) or {}
        rows.append(
            (
                "Seating",
                f"{seat.get('mode', '?')}: {', '.join(seat.get('lineup', []) or [])}"
                + (" (rotated in both directions)" if seat.get("mirror") else "")
                + (" (every rotation replayed)" if seat.get("all_rotations") else ""),
            )
        )
    hidden = [n for n, s in (manifest.get("strategies", {}) or {}).items() if s.get("sees_hidden")]
    if hidden:
        rows.append(("Strategies reading hidden information", ", ".join(hidden)))
    sec.body.append(
        "<table class='kv'>" + "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in rows) + "</table>"
    )
    changed = manifest.get("params_changed")
    if is_sweep:
        sets = (manifest.get("request", {}) or {}).get("set", {}) or {}
        changed = dict(sets)
        swept = sorted({k for c in manifest.get("configs", []) for k in (c.get("swept") or {})})
        sec.body.append(
            para("Swept parameters: " + (esc(", ".join(swept)) or "none (player counts or line-ups only)") + ".")
        )
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
        sec.body.append(
            para(
                f"{len(assumed)} parameter(s) in use are <b>assumed</b> readings or values not fixed "
                f"by the printed rules: <span class='small'>{esc(', '.join(assumed))}</span>."
            )
        )
    comp = manifest.get("assumed_components") or (spec.assumed_components if spec else "")
    if comp:
        sec.body.append(f"<div class='notice'><b>Assumed components.</b> {esc(comp)}</div>")
    rep.sections.append(sec)


def _reproduction_section(rep, manifest, path):
    sec = Section("reproduction", "Reproduction")
    rows = [
        ("Command", manifest.get("command", "")),
        ("Seed", str(manifest.get("seed", ""))),
        ("Code version", f"{manifest.get('code_version', '')} (source {manifest.get('source_hash', '')})"),
        ("Run status", manifest.get("status", "")),
        ("Results folder", str(path)),
        ("This report", f"sim report {path}  (built {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC)"),
    ]
    tm = manifest.get("timings") or {}
    if tm.get("total_s"):
        rows.append(("Run time", f"{tm['total_s']:.0f} s"))
    sec.body.append(
        "<table class='kv'>"
        + "".join(f"<tr><th>{esc(k)}</th><td><code>{esc(v)}</code></td></tr>" for k, v in rows)
        + "</table>"
    )
    pk = manifest.get("packages") or {}
    if pk:
        sec.body.append(para("Package versions: " + esc(", ".join(f"{k} {v}" for k, v in pk.items())) + "."))
    sec.body.append(para("Same command, same seed and code version: the same games, whatever the machine."))
    rep.sections.append(sec)


# ----------------------------------------------------------------------------------------------- collect


def report_families(seats, items, games, spec, kinds=None):
    """(quiet role columns, the report's families of verdicts): each family is judged at ALPHA / len(families).
    kinds: the item kinds of the whole items table when `items` is a sample of it (default: items' own)."""
    quiet = set()
    side = declared(spec, "side_column")
    if side and side in games.columns and declared(spec, "seat_side_column"):
        quiet.add(declared(spec, "seat_side_column"))
    if items is not None and len(items):
        quiet |= {str(k) for k in kinds} if kinds is not None else set(items["kind"].astype(str).unique())
    return quiet, vd.report_families(seats, items, games, quiet, _role_columns(seats, spec), side)


ITEM_COLUMNS = ("config", "game", "seat", "players", "item", "kind", "turn", "price")  # what item strength reads
ITEM_ROWS = 250_000  # seat rows item strength is computed on (a sample of whole games above; items.py)


@dataclass
class ItemSample:
    """The items table as the report uses it, never read whole: `seats` and `items` are the seat rows and item
    rows of one sample of whole games (sim.analysis.items._sample_games, the sample item strength has always
    been computed on: every game when there are at most ITEM_ROWS seat rows); `rows`, `kinds` and `seen` (the
    items acquired at least once) are over the whole table, read column by column and batch by batch."""

    seats: pd.DataFrame
    items: pd.DataFrame
    rows: int
    kinds: set
    seen: set


def _item_sample(run, seats, configs=None, max_rows=None):
    """The ItemSample of a run (of the given sweep configurations), or None when the run has no items table."""
    if not os.path.isdir(os.path.join(run.path, "items")):
        return None
    max_rows = ITEM_ROWS if max_rows is None else max_rows
    import pyarrow.dataset as pds

    from ..analysis.items import _sample_games

    where = None if configs is None else pds.field("config").isin([int(c) for c in configs])
    rows = run.count("items", where)
    kinds = run.distinct("items", "kind", where) if rows else set()
    seen = run.distinct("items", "item", where) if rows else set()
    sample = _sample_games(seats, max_rows, 0)
    key = sa.game_key(seats)
    cols = [c for c in run.columns("items") if c in ITEM_COLUMNS]
    if len(sample) < len(seats):
        games = pds.field("game").isin(np.unique(sample["game"].to_numpy()).tolist())
        where = games if where is None else where & games
    items = run.items(columns=cols, filters=where, compact=True) if rows else pd.DataFrame(columns=cols)
    if len(sample) < len(seats) and "config" in key and len(items):
        items = items.merge(sample[key].drop_duplicates(), on=key, how="inner")  # the sampled (config, game)s
    return ItemSample(sample, items, rows, kinds, seen)


def collect(path, solve=(), targets=None, effects=True, robust=True):
    """Read a run or sweep folder and compute the report's findings, sections and tables (with sim.analysis)."""
    import matplotlib as mpl

    run = open_results(path)
    man = run.manifest
    spec = _spec(man["game"])
    seats = run.seats(columns=_seat_columns(run.columns("seats"), spec), compact=True)
    if seats.empty:
        raise UserError(f"{path} holds no games yet (is the run still starting?)")
    gcols = run.columns("games")
    games = run.games(
        columns=[
            c
            for c in gcols
            if c
            in (
                "config",
                "game",
                "players",
                "steps",
                "capped",
                "end_reason",
                _length_column(spec),
                declared(spec, "side_column"),
            )
        ],
        compact=True,
    )
    solves = _solve_results(path, solve)
    is_sweep = "config" in seats.columns
    title = man.get("title") or (spec.title if spec else man["game"])
    rep = Report(title=title, path=str(path), manifest=man, is_sweep=is_sweep, spec=spec)
    cf = _config_frame(man) if is_sweep else pd.DataFrame()
    with mpl.rc_context():
        plotting.use_style()
        if is_sweep:
            ref = _reference_configs(man, cf)
            _sweep_section(rep, seats, games, man, solves)
            seats_b = seats[seats["config"].isin(ref)]
            games_b = games[games["config"].isin(ref)]
            isample = _item_sample(run, seats_b, ref)
            desc = ", ".join(
                f"{c[2:]} = {v}" for c, v in cf[cf["config"] == ref[0]].iloc[0].items() if c.startswith("p:")
            )
            rep.notices.append(
                para(
                    f"This is a sweep of {len(cf)} configurations. The sections after the "
                    f"response curves describe the reference configuration(s) "
                    f"{esc(', '.join(map(str, ref)))}{' (' + esc(desc) + ')' if desc else ''}."
                )
            )
        else:
            seats_b, games_b = seats, games
            isample = _item_sample(run, seats_b)
        items_b = isample.items if isample is not None and isample.rows else None  # a sample of whole games
        quiet, fams = report_families(seats_b, items_b, games_b, spec, isample.kinds if isample is not None else None)
        rep.family_alpha = ALPHA / len(fams)
        rep.tables["families"] = fams
        if solves:
            _balance_section(rep, solves)
        if declared(spec, "side_column") in games_b.columns:
            _sides_section(rep, games_b, seats_b, targets, spec)
        _seat_section(rep, seats_b, spec)
        _strategy_section(rep, seats_b, spec)
        if items_b is not None and len(items_b):
            _items_section(rep, seats_b, items_b, games_b, spec, effects, item_seats=isample.seats)
        _roles_section(rep, seats_b, spec, quiet)
        _shape_section(rep, games_b, seats_b, spec)
        if not is_sweep:
            __import__("sim.report.arc", fromlist=["x"]).add_section(rep, run, seats_b, spec)
        from . import ladder

        if robust and not is_sweep and spec is not None and not ladder.present(path):  # the ladder supersedes it
            _robustness(rep, spec, targets, items=items_b is not None and len(items_b) > 0)
        if not is_sweep:
            ladder.add_section(rep, spec)  # labels findings from RUN/ladder; only those that hold stay headlined
        __import__("sim.report.bot_health", fromlist=["x"]).add_section(
            rep, seats_b, games_b, items_b, spec, path, seen=isample.seen if isample else None
        )
    comp = man.get("assumed_components") or (spec.assumed_components if spec else "")
    if comp:
        rep.notices.insert(
            0,
            f"<div class='notice'><b>These results rest on assumed components.</b> "
            f"{esc(comp.strip().rstrip('.'))}. Treat the numbers as a study of the rules with "
            f"stand-in components, not of the published game.</div>",
        )
    if man.get("status") not in (None, "complete"):
        rep.notices.append(
            f"<div class='notice'><b>Incomplete results.</b> The run's status is "
            f"'{esc(man.get('status'))}': only finished chunks are included.</div>"
        )
    _provenance_section(rep, spec, man, is_sweep, cf)
    _reproduction_section(rep, man, path)
    __import__("sim.report.readings", fromlist=["x"]).add_sections(rep, path, man, spec)  # preset, readings
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
    return (
        f"<li class='finding verdict-{f.verdict}' data-kind='{esc(f.kind)}' data-verdict='{f.verdict}' {data} "
        f"style='border-left-color:{colour}'><span class='badge' style='background:{colour}'>{sym} {label}"
        f"</span><div><div class='text'>{f.text}</div><div class='ev'>{f.evidence} "
        f"<a href='#{f.section}'>Evidence</a></div></div></li>"
    )


def render(rep):
    man = rep.manifest
    T = THRESHOLDS
    legend = "".join(f"<span class='badge' style='background:{c}'>{s} {lab}</span>" for lab, c, s in VERDICTS.values())
    sub = (
        f"{'Sweep' if rep.is_sweep else 'Study'} of {esc(man.get('game'))}, rules version "
        f"{esc(man.get('rules_version') or 'not stated')}, seed {esc(man.get('seed'))}"
        + (f", {int(man['total_games']):,} games" if man.get("total_games") else "")
        + "."
    )
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
<dt>Verdicts</dt><dd>Always from the interval, never from the estimate alone, against a stated threshold, and
corrected for the number of comparisons a section makes (a fair game would otherwise show "findings" by chance in
most reports): <b>Strong</b> the whole corrected interval is further from fair than the threshold; <b>Modest</b>
it differs from fair but not clearly by the threshold; <b>Negligible</b> it differs from fair, but by less than
the threshold; <b>Balanced</b> the whole corrected interval lies within the threshold of fair; <b>Unclear</b>
the interval is too wide to say (more games needed); <b>Fact</b> a description, no verdict. Labels <i>holds with
other players</i> / <i>depends on the bots</i> say whether a finding survives another population of players.</dd>
<dt>Association and effect</dt><dd>Most numbers here are <b>associations</b>: what happened to seats with a
position, side or item. An <b>effect</b> is what changing the game causes; the report measures it only where it
says so (<code>sim effect</code>: the same games replayed without an item). Thresholds: turn order
{T["seat"]:g} points, strategies {T["strategy"]:g}, items {T["item"]:g}, roles and characters {T["role"]:g},
sweeps {T["sweep"]:g}.</dd>
<dt>Strategies</dt><dd>Scripted rule-of-thumb players, not experts: they show what the rules reward, not what
strong humans will do.</dd>
</dl>"""
    toc = "".join(f"<li><a href='#{s.anchor}'>{esc(s.title)}</a></li>" for s in rep.sections)
    body = "".join(f"<section id='{s.anchor}'><h2>{esc(s.title)}</h2>{''.join(s.body)}</section>" for s in rep.sections)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Balance report: {esc(rep.title)}</title>
<style>{CSS}</style></head>
<body>
<header><h1>Balance report: {esc(rep.title)}</h1><p class='sub'>{sub}</p></header>
{"".join(rep.notices)}
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
        raise UserError(
            "--pdf needs Chromium and none was found (install it, e.g. `apt-get install chromium`, or "
            f"set SIM_CHROMIUM to its path); the HTML report is in {html_path}"
        )
    pdf_path = Path(pdf_path).resolve()
    pdf_path.parent.mkdir(parents=True, exist_ok=True)
    if pdf_path.exists():
        pdf_path.unlink()
    with tempfile.TemporaryDirectory(prefix="sim-chromium-") as tmp:
        cmd = chromium_command(
            binary, tmp, f"--print-to-pdf={pdf_path}", "--no-pdf-header-footer", Path(html_path).resolve().as_uri()
        )
        try:
            res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise UserError(f"Chromium did not finish printing {html_path} within {timeout} s") from None
    if not pdf_path.exists() or pdf_path.stat().st_size == 0:
        last = (res.stderr.strip().splitlines() or ["no output"])[-1]
        raise UserError(f"Chromium could not print the PDF (exit {res.returncode}): {last}")
    return pdf_path


def build_report(results, out=None, pdf=False, solve=(), targets=None, effects=True, robust=True):
    """Write the report of a run or sweep folder; returns the paths written (HTML, and PDF when asked).
    targets: the sides' target win shares in a team game ('law=0.5' or a dict; default equal sides)."""
    from ..errors import check_writable_file
    from ..lock import FolderLock

    try:
        sa.parse_targets(targets)
    except ValueError as e:
        raise UserError(f"--target: {e}") from None
    name = Path(str(results).rstrip("/")).name
    out = Path(out) if out else Path("reports") / f"{name}.html"
    html_out = out.with_suffix(".html") if out.suffix.lower() == ".pdf" else out
    check_writable_file(html_out, "-o")  # before the work, and never a temp file left beside a folder
    with FolderLock(html_out, "sim report"):  # two reports into one file: one refuses
        rep = collect(results, solve, targets, effects, robust)
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
