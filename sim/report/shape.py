"""The game shape section: length, margins, ties, end reasons."""

from .. import analysis as sa
from ..analysis import plotting
from .model import ALPHA, Finding, Section
from .fmt import _new_ax, ci, esc, figure_html, nice, para, pct, table_html
from .data import _length_column, _points, _reference_players


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
        _margins(rep, sec, seats, prefix, n_ref)
    if "end_reason" in games.columns:
        _end_reasons(rep, sec, games)
    rep.sections.append(sec)


def _margins(rep, sec, seats, prefix, n_ref):
    """Score margins, ties on top score and points by source (games whose seats hold points by source)."""
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


def _end_reasons(rep, sec, games):
    """How games end, when the game records more than one end reason."""
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


def add(st):
    _shape_section(st.rep, st.games, st.seats, st.spec)
