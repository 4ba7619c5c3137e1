"""The report's skill-ladder section: do the findings hold with stronger players? (`sim ladder`, issue 35)

With `RUN/ladder/summary.parquet` present, every seat, side, strategy and item finding that the ladder measured gets
its label (sim.analysis.ladder.ladder_labels: *holds as players get stronger*, *changes with skill*, *unsettled*).
Only findings that hold keep a Strong or Modest headline; a Strong or Modest finding with another label leaves the
findings list for this section's "depends on the players" table, with every rung's figure and without its next
step (a rule change for a finding the strongest players do not reproduce is not advised).  The section also draws
one chart per finding family: the metric against the rung, one line per headline metric, with 95% intervals.
Without a ladder the section says how to add one.
"""

import re
from pathlib import Path

import numpy as np
import pandas as pd

from ..analysis import plotting
from ..analysis.ladder import LABELS, archetype
from .fmt import _new_ax, esc, figure_html, para, table_html
from .model import VERDICTS, Section

TITLE = "Do these findings hold with stronger players?"
HEADLINED = ("red", "amber")
FAMILY_TITLES = {"side": "Sides", "seat": "Turn-order positions", "strategy": "Strategies", "item": "Items (effect)"}


def summary_path(path):
    return Path(path) / "ladder" / "summary.parquet"


def present(path):
    return summary_path(path).exists()


def finding_key(f):
    """The ladder metric of a finding as (family, players or None, key), or None for findings it does not measure."""
    d = f.data
    if f.kind == "seat" and "position" in d:
        return ("seat", int(d["players"]), str(int(d["position"])))
    if f.kind == "side" and "side" in d:
        return ("side", int(d["players"]), str(d["side"]))
    if f.kind == "strategy" and "strategy" in d:
        return ("strategy", 0, archetype(d["strategy"]))
    if f.kind == "item" and "item" in d:
        return ("item", None, str(d["item"]))
    return None


def _label_of(labels, key):
    if key is None:
        return None
    if key[1] is None:  # items: measured at one player count
        hits = [v for k, v in labels.items() if k[0] == key[0] and k[2] == key[2]]
        return hits[0] if hits else None
    return labels.get(key)


def add_section(rep, spec):
    """Label the report's findings from the run's ladder and add the section (or how to add the ladder)."""

    sec = Section("ladder", TITLE)
    if not present(rep.path):
        sec.body.append(
            para(
                "Every verdict in this report is about the game as played by this run's scripted players, and a "
                "stronger player may not see it. Not measured yet for this run: <code>sim ladder "
                f"{esc(rep.path)}</code> plays the same settings with the game's tuned presets and with a rollout "
                "search in every seat (<code>--plan</code> first prints what each rung costs); build the report "
                "again to label every finding <i>holds as players get stronger</i>, <i>changes with skill</i> or "
                "<i>unsettled</i>."
            )
        )
        rep.sections.append(sec)
        return
    summary = pd.read_parquet(summary_path(rep.path))
    rep.tables["ladder"] = summary
    labels = {
        (f, int(n), str(k)): lab
        for f, n, k, lab in summary[["family", "players", "key", "label"]].drop_duplicates().itertuples(index=False)
        if isinstance(lab, str)
    }
    depends, keep = [], []
    for f in rep.findings:
        key = finding_key(f)
        lab = _label_of(labels, key)
        if lab is None:
            keep.append(f)
            continue
        f.data["ladder"] = lab
        f.data["skill"] = lab  # the first screen's robustness label (sim.report.headline)
        f.text += f" <i>({LABELS[lab]})</i>"
        if f.verdict in HEADLINED and lab != "holds":
            depends.append((f, key))
        else:
            keep.append(f)
    rep.findings[:] = keep
    rep.tables["ladder_depends"] = [f for f, _ in depends]
    _intro(sec, summary)
    _labels_table(sec, summary)
    if depends:
        _depends_table(sec, summary, depends)
        rep.notices.append(
            para(
                f"<b>{len(depends)} finding(s) depend on the players</b>: stronger players do not reproduce them "
                "(or cannot settle them yet), so they are not headlined and no rule change is proposed for them; "
                "see <a href='#ladder'>" + TITLE + "</a>"
            )
        )
    for family in ("side", "seat", "strategy", "item"):
        _chart(sec, summary, family)
    rep.sections.append(sec)


def _rungs(summary):
    r = summary.drop_duplicates("rung").sort_values("rung")
    return list(zip(r["rung"].astype(int), r["rung_name"], r["lineup"]))


def _intro(sec, summary):

    rungs = "".join(
        f"<li>rung {k} ({esc(name)}): {esc(lineup)}, {int(summary[summary['rung'] == k]['games'].max()):,} games"
        f"{'' if k else ' (this run)'}</li>"
        for k, name, lineup in _rungs(summary)
    )
    sec.body.append(
        para(
            "The run's headline numbers measured again with successively stronger players, same rules, player "
            "counts and seed (<code>sim ladder</code>); games per player count, at most, for seats and sides "
            f"(items: paired games with and without the item):<ul>{rungs}</ul>"
            "Each rung's reading is its 95% interval: <i>above</i> or <i>below</i> fair when it excludes fair, "
            "<i>balanced</i> when it lies within the section's threshold of fair, else too wide to say. A finding "
            "<b>holds as players get stronger</b> when the two strongest rungs both read it as this run does (the "
            "same side of fair, or both balanced); it <b>changes with skill</b> when either reads it otherwise; it "
            "is <b>unsettled</b> when either is too wide to say (more games on the top rungs would tell). Only "
            "findings that hold are headlined Strong or Modest."
        )
    )


def _labels_table(sec, summary):
    from ..ladder import summary_table

    t = summary_table(summary)
    if len(t):
        sec.body.append("<h3>Every headline metric on every rung</h3>")
        sec.body.append(table_html(t))


def _depends_table(sec, summary, depends):
    from ..ladder import summary_table

    full = summary_table(summary, headline_only=False)
    by_metric = {}
    from ..ladder import describe

    for (fam, n, key), _ in summary.groupby(["family", "players", "key"], sort=False):
        by_metric[(fam, int(n), str(key))] = describe(fam, n, key)
    rows = []
    for f, key in depends:
        if key[1] is None:
            key = next(k for k in by_metric if k[0] == key[0] and k[2] == key[2])
        r = full[full["metric"] == by_metric[key]].iloc[0].to_dict()
        text = re.sub(r"<[^>]+>", "", f.text)
        rows.append({"finding": text[:160], "verdict with this run's players": VERDICTS[f.verdict][0], **r})
    sec.body.append("<h3>Depends on the players</h3>")
    sec.body.append(
        para(
            "These findings are Strong or Modest with this run's players but not with the strongest ones (or the "
            "strongest rungs cannot settle them): not headlined, and no rule change is proposed for them. Each "
            "rung's figure with its 95% interval:"
        )
    )
    sec.body.append(table_html(pd.DataFrame(rows).drop(columns=["metric"])))


def _chart(sec, summary, family):
    from ..ladder import describe

    s = summary[(summary["family"] == family) & summary["headline"]]
    if s.empty:
        return
    rungs = _rungs(summary)
    fig, ax = _new_ax((7.5, 4.0))
    groups = list(s.groupby(["players", "key"], sort=False))
    width = 0.25 / max(1, len(groups))
    for j, ((n, key), sub) in enumerate(groups):
        sub = sub.sort_values("rung")
        x = sub["rung"].to_numpy(dtype=float) + (j - (len(groups) - 1) / 2) * width
        scale = 100
        c = plotting.PALETTE[j % len(plotting.PALETTE)]
        ax.errorbar(
            x,
            scale * sub["value"],
            yerr=scale * plotting._err(sub["value"], sub["low"], sub["high"]),
            fmt="o-",
            color=c,
            capsize=3,
            label=f"{describe(family, n, key)}: {LABELS.get(sub['label'].iloc[0], 'no label')}",
        )
        fair = sub["fair"].to_numpy()
        if np.isfinite(fair).all():
            ax.plot(x, scale * fair, linestyle=":", color=c, linewidth=1)
    ax.set_xticks([k for k, _, _ in rungs], [f"{k}: {name}" for k, name, _ in rungs])
    ax.set_xlabel("rung (stronger players to the right)")
    ax.set_ylabel("effect on the holder's win rate (points)" if family == "item" else "win share (%)")
    ax.set_title(f"{FAMILY_TITLES[family]}: the headline numbers as players get stronger")
    ax.legend(loc="best", fontsize=7)
    sec.body.append(f"<h3>{FAMILY_TITLES[family]}</h3>")
    sec.body.append(
        figure_html(
            fig,
            f"{family} metrics against the ladder's rungs",
            "Dots: the metric on each rung (rung 0: this run's players); bars: 95% interval; dotted: fair "
            "(1/n, the side's target, or no effect). A line that stays on one side of fair holds; one that "
            "crosses or returns to it changes with skill.",
        )
    )


def add(st):
    if not st.rep.is_sweep:
        add_section(st.rep, st.spec)
