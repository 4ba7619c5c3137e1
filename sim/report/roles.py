"""The roles and characters section."""

from ..analysis import plotting
from . import verdicts as vd
from .verdicts import MIN_ROWS, THRESHOLDS
from .model import ALPHA, Finding, Section
from .fmt import _new_ax, ci, esc, family_note, figure_html, nice, para, pct, table_html
from .data import _reference_players, _role_columns


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


def add(st):
    _roles_section(st.rep, st.seats, st.spec, st.quiet)
