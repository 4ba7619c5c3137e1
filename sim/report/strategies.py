"""The strategies section: win shares per player count, match-ups, ratings, skill against luck."""

import numpy as np
import pandas as pd

from .. import analysis as sa
from ..analysis import plotting
from . import verdicts as vd
from .verdicts import THRESHOLDS
from .model import ALPHA, BT_BOOTSTRAP, Finding, Section, VERDICTS
from .fmt import _new_ax, ci, esc, family_note, figure_html, next_html, para, pct, table_html


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
    for rows in _strategy_groups(vd.strategy_picks(fam)):
        rep.findings.append(_strategy_finding(rows, spec, sec.anchor, T))
    fig, ax = _new_ax((7.5, 0.4 * len(wr) + 1.6))
    plotting.plot_rates(wr, label="strategy", ax=ax, xlabel="win share (%)", title="Win share by strategy")
    sec.body.append(
        figure_html(fig, "win share by strategy", "Dots: win share; bars: 95% interval; grey: the fair share.")
    )
    if seats["players"].nunique() > 1:
        wp = sa.win_rates_by_players(seats, by="strategy", alpha=ALPHA)
        rep.tables["win_rates_by_players"] = wp
        wp = wp.merge(fam[["players", "strategy", "verdict"]], on=["players", "strategy"], how="left")
        wp["verdict"] = [VERDICTS[x][0] if isinstance(x, str) else "" for x in wp["verdict"]]
        sec.body.append(para("By player count (the verdicts are judged at each player count):"))
        sec.body.append(
            table_html(
                wp[["players", "strategy", "n", "rate", "low", "high", "fair", "verdict"]].rename(
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


def _strategy_groups(picks):
    """The strategy picks of every player count grouped into findings: one per (strategy, strongest or weakest,
    verdict), in the order first seen, so a strategy strong at every count is one finding and one strong at three
    players and weak at five is two."""
    groups = {}
    for r in picks:
        groups.setdefault((str(r["strategy"]), r["pick"], r["verdict"]), []).append(r)
    return list(groups.values())


def _strategy_finding(rows, spec, anchor, T):
    """One strategy finding from its rows (one per player count, or one for a run of one player count)."""
    r = max(rows, key=lambda x: abs(x["excess"]))
    v, up = r["verdict"], r["excess"] > 0
    tail = {
        "red": "a clearly dominant line of play among these bots" if up else "clearly outclassed by the other bots",
        "amber": "a real but modest edge" if up else "a real but modest handicap",
        "negligible": f"a real but negligible difference (within {T:g} points of fair)",
        "green": f"within {T:g} points of fair",
        "grey": "too few games to tell",
    }[v]
    counts = [int(x["players"]) for x in rows if "players" in x.index]
    shares = "; ".join(
        f"{pct(x['rate'])} ({ci(x['low'], x['high'])}) against a fair {pct(x['fair'])}"
        + (f" at {int(x['players'])} players" if "players" in x.index else "")
        for x in rows
    )
    text = f"The {esc(r['strategy'])} strategy ({r['pick']}) takes {shares} of the wins: {tail}."
    ev = (
        "; ".join(f"{int(x['n']):,} seats in {int(x['games']):,} games" for x in rows)
        + f"; 95% interval ({r['interval']}). A verdict about these scripted players, not about the game: a bot "
        f"far below the others may just play badly.{family_note(r)}"
        + (next_html(spec, "strategy", players=counts[0] if len(counts) == 1 else None) if v == "red" else "")
    )
    data = {
        "strategy": str(r["strategy"]),
        "rate": float(r["rate"]),
        "low": float(r["low"]),
        "high": float(r["high"]),
        "fair": float(r["fair"]),
        "p-adj": float(r["p_adj"]),
    }
    if counts:
        data["players"] = ",".join(str(n) for n in counts)
    return Finding(v, text, ev, "strategy", anchor, data)


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


def add(st):
    _strategy_section(st.rep, st.seats, st.spec)
