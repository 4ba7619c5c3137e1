"""The balance-point section (sim solve results)."""

import re

import numpy as np
import pandas as pd

from ..analysis import plotting
from .model import Finding, Section
from .fmt import _new_ax, esc, figure_html, nice, para, pct, who


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


def add(st):
    if st.solves:
        _balance_section(st.rep, st.solves)
