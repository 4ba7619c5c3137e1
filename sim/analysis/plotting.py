"""One consistent matplotlib style for the lab's charts.

- Colour-blind-safe palette (Okabe & Ito's eight colours), set as the default colour cycle by `use_style()`.
- Rates are drawn in percent, always with their interval (error bars), and axes say their units.
- Seat charts draw the fair line 1/n (dashed grey) for each player count.
Every function takes an optional `ax` and returns the Axes (or Figure) it drew on, so notebooks can compose them.
"""

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np

# Okabe-Ito palette (colour-blind safe), black last
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442", "#000000"]
FAIR_STYLE = {"color": "0.45", "linestyle": "--", "linewidth": 1.2, "zorder": 1}


def use_style():
    """Set the lab's rcParams: palette, grid, font sizes, no top/right spines, tight layout."""
    mpl.rcParams.update(
        {
            "axes.prop_cycle": mpl.cycler(color=PALETTE),
            "axes.grid": True,
            "grid.alpha": 0.3,
            "grid.linestyle": "-",
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.titlesize": 12,
            "axes.labelsize": 11,
            "xtick.labelsize": 10,
            "ytick.labelsize": 10,
            "legend.fontsize": 10,
            "legend.frameon": False,
            "figure.figsize": (7.5, 4.5),
            "figure.dpi": 100,
            "figure.autolayout": True,
            "errorbar.capsize": 3,
            "lines.markersize": 6,
        }
    )


def _ax(ax, figsize=None):
    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    return ax


def _err(rate, low, high):
    rate, low, high = (np.asarray(x, dtype=float) for x in (rate, low, high))
    return np.vstack([np.clip(rate - low, 0, None), np.clip(high - rate, 0, None)])


def plot_rates(
    table,
    label="strategy",
    rate="rate",
    low="low",
    high="high",
    fair="fair",
    ax=None,
    title=None,
    xlabel="win rate (%)",
    color=None,
    ylabel=None,
):
    """Horizontal dot plot of rates (percent) with interval bars, one row per label, and the fair value(s).

    table: a win-rate table (sim.analysis.winrates.win_rates or items.seat_attribute_strength). If `fair` is a
    column, its values are drawn as grey ticks (a single dashed line when they are all equal).
    """
    ax = _ax(ax, (7.5, 0.35 * len(table) + 1.5))
    t = table.reset_index(drop=True)
    y = np.arange(len(t))
    ax.errorbar(
        100 * t[rate],
        y,
        xerr=100 * _err(t[rate], t[low], t[high]),
        fmt="o",
        color=color or PALETTE[0],
        ecolor=color or PALETTE[0],
        zorder=3,
    )
    if fair in t.columns:
        f = t[fair].to_numpy(dtype=float)
        if np.allclose(f, f[0]):
            ax.axvline(100 * f[0], label=f"fair ({100 * f[0]:.1f}%)", **FAIR_STYLE)
        else:
            ax.scatter(100 * f, y, marker="|", s=200, color="0.45", zorder=2, label="fair")
        ax.legend(loc="best")
    ax.set_yticks(y, t[label].astype(str))
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel or label.replace("_", " "))
    if title:
        ax.set_title(title)
    return ax


def plot_seat_advantage(adv, position="order", ax=None, title=None):
    """Win share by turn-order position (percent), one colour per player count, intervals, and the fair 1/n line
    per player count. adv: the table from sim.analysis.seats.seat_advantage."""
    ax = _ax(ax)
    counts = sorted(adv["players"].unique())
    width = 0.8 / max(1, len(counts))
    for k, n in enumerate(counts):
        sub = adv[adv["players"] == n].sort_values(position)
        x = sub[position].to_numpy() + (k - (len(counts) - 1) / 2) * width
        c = PALETTE[k % len(PALETTE)]
        ax.errorbar(
            x,
            100 * sub["rate"],
            yerr=100 * _err(sub["rate"], sub["low"], sub["high"]),
            fmt="o",
            color=c,
            label=f"{n} players",
            zorder=3,
        )
        ax.hlines(100 / n, x.min() - width / 2, x.max() + width / 2, colors=c, linestyles="--", linewidth=1.2, zorder=1)
    ax.plot([], [], **FAIR_STYLE, label="fair share 1/n")
    ax.set_xticks(range(int(adv[position].max()) + 1), [f"{i + 1}" for i in range(int(adv[position].max()) + 1)])
    ax.set_xlabel("turn-order position (1 = first player)" if position == "order" else f"{position} (1 = first)")
    ax.set_ylabel("win share (%)")
    ax.legend(loc="best")
    ax.set_title(title or "Win share by turn order (intervals: 95% Wilson)")
    return ax


def plot_matchups(table, ax=None, title=None, annotate=True):
    """Heat map of a head-to-head matrix (row strategy finishes ahead of column strategy, percent), centred on
    50% with a diverging colour-blind-safe map; cells annotated with the rate. table: matchups.matchup_matrix
    output (long) or a square DataFrame of rates."""
    from .matchups import as_matrix

    m = as_matrix(table) if "a" in getattr(table, "columns", []) else table
    ax = _ax(ax, (1.0 * len(m) + 2.5, 0.8 * len(m) + 2))
    vals = 100 * m.to_numpy(dtype=float)
    span = max(5.0, np.nanmax(np.abs(vals - 50))) if np.isfinite(vals).any() else 50
    im = ax.imshow(vals, cmap="PuOr", vmin=50 - span, vmax=50 + span)
    ax.set_xticks(range(len(m.columns)), m.columns.astype(str), rotation=45, ha="right")
    ax.set_yticks(range(len(m.index)), m.index.astype(str))
    ax.set_xlabel("opponent")
    ax.set_ylabel("strategy")
    ax.grid(False)
    if annotate:
        for i in range(vals.shape[0]):
            for j in range(vals.shape[1]):
                if np.isfinite(vals[i, j]):
                    dark = abs(vals[i, j] - 50) > 0.6 * span  # white text on the deep colours
                    ax.text(
                        j,
                        i,
                        f"{vals[i, j]:.0f}",
                        ha="center",
                        va="center",
                        fontsize=9,
                        color="white" if dark else "black",
                    )
    ax.figure.colorbar(im, ax=ax, label="finishes ahead (%)")
    ax.set_title(title or "Head-to-head: row finishes ahead of column")
    return ax


def plot_ratings(ratings, ax=None, title=None):
    """Bradley-Terry ratings on the Elo scale with intervals (bradley_terry output), best at the top."""
    ax = _ax(ax, (7.5, 0.35 * len(ratings) + 1.5))
    t = ratings.reset_index(drop=True)
    y = np.arange(len(t))
    ax.errorbar(t["elo"], y, xerr=_err(t["elo"], t["elo_low"], t["elo_high"]), fmt="o", color=PALETTE[2], zorder=3)
    ax.axvline(0, **FAIR_STYLE)
    ax.set_yticks(y, t["label"].astype(str))
    ax.invert_yaxis()
    ax.set_xlabel("rating (Elo points; 0 = average, +100 ≈ 64% to finish ahead)")
    ax.set_ylabel("strategy")
    ax.set_title(title or f"Bradley-Terry ratings ({t['interval'].iloc[0]} 95% intervals)")
    return ax


def plot_item_strength(table, ax=None, top=20, value="diff", title=None):
    """Item strength: the win-rate difference when acquired vs not (percentage points) with intervals, for the
    `top` ranked items; items flagged for too few samples are drawn hollow in grey at the bottom.
    table: items.item_strength output. value "diff" (raw) or "adj_ame_pp" (adjusted, already in points)."""
    t = table.head(top).reset_index(drop=True)
    ax = _ax(ax, (7.5, 0.35 * len(t) + 1.5))
    y = np.arange(len(t))
    if value == "diff":
        v, lo, hi = 100 * t["diff"], 100 * t["low"], 100 * t["high"]
    elif value == "rel_pp":
        v, lo, hi = t["rel_pp"], t["rel_low_pp"], t["rel_high_pp"]
    else:
        v, lo, hi = t["adj_ame_pp"], t["adj_ame_low_pp"], t["adj_ame_high_pp"]
    ok = t["enough"].to_numpy() & np.isfinite(v.to_numpy(dtype=float))
    v, lo, hi = v.to_numpy(dtype=float), lo.to_numpy(dtype=float), hi.to_numpy(dtype=float)
    if value != "diff":  # unfitted items: drawn at their raw difference, hollow
        v, lo, hi = (
            np.where(ok, a, 100 * t[c].to_numpy(dtype=float)) for a, c in ((v, "diff"), (lo, "low"), (hi, "high"))
        )
    ax.errorbar(v[ok], y[ok], xerr=_err(v[ok], lo[ok], hi[ok]), fmt="o", color=PALETTE[0], zorder=3, label="ranked")
    if (~ok).any():
        ax.errorbar(
            v[~ok],
            y[~ok],
            xerr=_err(v[~ok], lo[~ok], hi[~ok]),
            fmt="o",
            mfc="none",
            color="0.6",
            zorder=3,
            label="too few games (not ranked)",
        )
        ax.legend(loc="best")
    ax.axvline(0, **FAIR_STYLE)
    ax.set_yticks(y, (t["item"].astype(str)).tolist())
    ax.invert_yaxis()
    ax.set_ylabel("item")
    ax.set_xlabel(
        {
            "diff": "win rate when acquired − when not (percentage points)",
            "rel_pp": "adjusted effect minus the kind's other items' average (points)",
        }.get(value, "adjusted effect on win probability (percentage points)")
    )
    ax.set_title(title or "Item strength (95% intervals, clustered by game)")
    return ax


def plot_length(games, column="steps", by="players", ax=None, unit=None, bins=30, xlabel=None, title=None):
    """Histogram (as step lines, fraction of games) of game length per player count. Whole-number values get bins
    of whole-number width centred on the values (no empty alternating bins)."""
    ax = _ax(ax)
    x_all = games[column].to_numpy(dtype=float)
    x_fin = x_all[np.isfinite(x_all)]
    if len(x_fin) and np.all(x_fin == np.round(x_fin)):
        lo, hi = float(x_fin.min()), float(x_fin.max())
        width = max(1.0, float(np.ceil((hi - lo + 1) / bins)))
        edges = np.arange(lo - 0.5, hi + width + 0.5, width)
    else:
        edges = np.histogram_bin_edges(x_all, bins=bins)
    for k, (n, sub) in enumerate(games.groupby(by, observed=True)):
        h, _ = np.histogram(sub[column], bins=edges)
        ax.stairs(
            100 * h / max(1, len(sub)),
            edges,
            color=PALETTE[k % len(PALETTE)],
            linewidth=1.8,
            label=f"{n} players" if by == "players" else str(n),
        )
    ax.set_xlabel(xlabel or f"game length ({unit or column})")
    ax.set_ylabel("games (%)")
    ax.legend(loc="best")
    ax.set_title(title or "Game length")
    return ax


def plot_points_by_source(table, by="players", ax=None, title=None):
    """Stacked bars of mean points per seat by source (shape.points_by_source output), one bar per group."""
    ax = _ax(ax)
    m = table.pivot_table(index=by, columns="source", values="mean_points", observed=True)
    bottom = np.zeros(len(m))
    x = np.arange(len(m))
    for k, src in enumerate(m.columns):
        ax.bar(
            x, m[src], bottom=bottom, color=PALETTE[k % len(PALETTE)], label=str(src), edgecolor="0.25", linewidth=0.6
        )  # outlined: the light yellow swatch stays visible
        bottom += m[src].to_numpy()
    ax.set_xticks(x, [str(i) for i in m.index])
    ax.set_xlabel(by if by != "players" else "players")
    ax.set_ylabel("mean points per seat (VP)")
    ax.legend(loc="best", title="source")
    ax.set_title(title or "Where points come from")
    return ax


def plot_fractions(table, category, ax=None, by="players", title=None, xlabel=None):
    """Grouped bars of fractions (percent) with Wilson intervals, e.g. shape.end_reasons output."""
    ax = _ax(ax)
    cats = sorted(table[category].astype(str).unique())
    groups = sorted(table[by].unique())
    width = 0.8 / max(1, len(groups))
    for k, g in enumerate(groups):
        sub = table[table[by] == g].set_index(table[table[by] == g][category].astype(str)).reindex(cats)
        x = np.arange(len(cats)) + (k - (len(groups) - 1) / 2) * width
        ax.bar(
            x,
            100 * sub["fraction"],
            width,
            color=PALETTE[k % len(PALETTE)],
            label=f"{g} {by}",
            yerr=100 * _err(sub["fraction"].fillna(0), sub["low"].fillna(0), sub["high"].fillna(0)),
        )
    ax.set_xticks(range(len(cats)), cats)
    ax.set_xlabel(xlabel or category.replace("_", " "))
    ax.set_ylabel("games (%)")
    ax.legend(loc="best")
    ax.set_title(title or category.replace("_", " "))
    return ax
