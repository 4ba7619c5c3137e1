"""The sides section of a team game (and downtime)."""

import numpy as np

from .. import analysis as sa
from ..analysis import plotting
from . import verdicts as vd
from .verdicts import THRESHOLDS
from .model import ALPHA, Finding, Section, VERDICTS
from .fmt import next_command
from .fmt import _new_ax, ci, esc, family_note, figure_html, next_html, nice, para, pct, table_html
from .data import _length_column, _reference_players
from .data import declared


def _sides_section(rep, games, seats, targets=None, spec=None):
    """Team games: which side wins at each player count against the designer's target, and downtime."""
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
                next=next_command(spec, "side", players=n, side=r["side"]),
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
        _downtime(rep, sec, seats, games, spec)
    rep.sections.append(sec)


def _downtime(rep, sec, seats, games, spec):
    """Player elimination and downtime (games whose seats record eliminations)."""
    import matplotlib.pyplot as plt

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


def add(st):
    if declared(st.spec, "side_column") in st.games.columns:
        _sides_section(st.rep, st.games, st.seats, st.targets, st.spec)
