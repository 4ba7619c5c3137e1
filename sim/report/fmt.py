"""HTML and text helpers shared by the report's sections: escaping, numbers, tables, figures, verdict notes."""

import base64
import html
import io
import json
import shlex

import numpy as np

from . import verdicts as vd


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
        f"the report's 5% shared among its sections): adjusted p {esc(pval(p))}, corrected interval {iv}."
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


def next_command(spec, kind, **kw):
    """The command of sim.report.verdicts.next_step for a finding, or ''."""
    return vd.next_step(spec, kind, **kw)[0] or ""


def pval(p):
    """A p-value as text: never '0' (below 1e-300 it is shown as '< 1e-300')."""
    if not np.isfinite(p):
        return "n/a"
    if p < 1e-300:
        return "< 1e-300"
    return f"{p:.2g}" if p >= 1e-4 else f"{p:.1e}"


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
    table = f"<table class='{classes}'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    return f"<div class='scroll'>{table}</div>"  # a wide table scrolls inside its box, never the page


def para(text):
    return f"<p>{text}</p>"


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


def effect_command(game, item, players=None):
    """The `sim effect` command line for an item, quoted for a POSIX shell (an item may hold an apostrophe)."""
    words = ["sim", "effect", str(game), "--item", str(item)] + (["--players", str(int(players))] if players else [])
    return shlex.join(words)
