"""The sweep section: response curves over the configurations."""

import numpy as np

from .. import analysis as sa
from ..analysis import plotting
from .verdicts import THRESHOLDS
from .model import ALPHA, Finding, Section
from .fmt import ci, esc, figure_html, nice, para, pct, table_html, verdict
from .data import _as_numbers, _config_frame, _length_column


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


def add(st):
    if st.rep.is_sweep:
        _sweep_section(st.rep, st.all_seats, st.all_games, st.rep.manifest, st.solves)
