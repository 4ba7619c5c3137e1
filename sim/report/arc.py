"""The report's "Arc" section (issue 26): how the lead moves during a game, from the standings table of
`sim run --standings` (sim.analysis.arc): the run's own, or that of a smaller traced run of the same rules and
seats kept in `<run>/arc/` (how `make demo` gets it without writing the trace of a million games).  A run with
neither gets the section too, saying the exact command that adds the second."""

import shlex
from pathlib import Path

import numpy as np

from ..analysis import arc, plotting
from .data import _reference_players, _seat_columns
from .fmt import ci, esc, figure_html, para, pct, table_html
from .model import ALPHA, Finding, Section

POINT_WORDS = {"third": "a third", "half": "half", "two_thirds": "two thirds"}
ARC_GAMES = 20_000  # games per player count of the traced run the report suggests (<run>/arc/)


def add_section(rep, run, seats, spec):
    """Add the Arc section to a run's report (not a sweep's: the trace is kept by `sim run` only)."""

    sec = Section("arc", "Arc: lead changes, comebacks and runaway leads")
    rep.sections.append(sec)
    traced, why = _traced_run(run)
    if traced is None:
        sec.body.append(para(_how_to_get_it(rep.manifest, rep.path, spec, why)))
        return
    if traced is not run:
        seats = traced.seats(columns=_seat_columns(traced.columns("seats"), spec), compact=True)
        m = traced.manifest
        sec.body.append(
            para(
                f"From the traced run kept in <code>{esc(traced.path)}</code>: "
                f"{int(m['games_per_player_count']):,} games per player count, the same rules and "
                f"seats as this run (seed {esc(m.get('seed'))})."
            )
        )
    st = traced.standings(columns=["game", "round", "seat", "standing"], compact=True)
    _arc_body(rep, sec, arc.game_arcs(st, seats[["game", "seat", "players", "win"]]), spec)


def _traced_run(run):
    """(the run holding the standings trace: this run or its <run>/arc/, or None, why the arc folder is not used)."""
    from ..analysis import load_run

    if run.has_standings():
        return run, ""
    folder = Path(run.path) / "arc"
    if not (folder / "manifest.json").exists():
        return None, ""
    other = load_run(folder)
    mine, theirs = run.manifest, other.manifest
    same = all(mine.get(k) == theirs.get(k) for k in ("game", "params", "players")) and (mine.get("seating") or {}).get(
        "lineup"
    ) == (theirs.get("seating") or {}).get("lineup")
    if not same:
        return None, f"{folder} plays other rules, player counts or seats than this run, so it is not used"
    if not other.has_standings() or theirs.get("status") != "complete":
        return None, f"{folder} holds no finished standings trace"
    return other, ""


def _how_to_get_it(man, path, spec, why=""):

    game = man.get("game", "GAME")
    if spec is None or not _has_standings(spec):
        return (
            f"This run has no standings trace, and {esc(game)}'s engine does not record standings yet (a "
            "<code>standings(s, p, out)</code> function beside <code>write_outcome</code>; see "
            "docs/ADDING_A_GAME.md), so lead changes and comebacks cannot be shown."
        )
    return (
        "This run kept no standings trace, so lead changes, comebacks and runaway leads cannot be shown"
        + (f" ({esc(why)})" if why else "")
        + ". A traced run of the same rules and seats kept beside it "
        f"gives them: <code>{esc(traced_command(man, path))}</code>, then <code>sim report {esc(path)}</code> "
        "again (or run this study itself with <code>--standings</code>)."
    )


def _has_standings(spec):
    from ..kernel import has_standings

    return has_standings(spec)


def traced_command(man, path):
    """The `sim run` of the traced run the report reads from <path>/arc/: the run's own command (or one rebuilt
    from its manifest) with --standings and at most ARC_GAMES games per player count."""
    words = shlex.split(man.get("command") or "")
    if "run" in words:
        words = ["sim"] + words[words.index("run") :]
    else:
        counts = ",".join(str(n) for n in man.get("players", []))
        words = ["sim", "run", str(man.get("game")), "--players", counts]
        lineup = (man.get("seating") or {}).get("lineup")
        if lineup:
            words += ["--lineup", ",".join(lineup)]
        for name, value in (man.get("params_changed") or {}).items():
            words += ["--set", f"{name}={value}"]
    games = min(int(man.get("games_per_player_count") or ARC_GAMES), ARC_GAMES)
    replace = {"--out": str(Path(path) / "arc"), "--games": str(games), "--seed": str(man.get("seed", 0))}
    for flag, value in replace.items():
        if flag in words:
            words[words.index(flag) + 1] = value
        else:
            words += [flag, value]
    words = [w for w in words if w not in ("--overwrite", "--standings")] + ["--standings"]
    return shlex.join(words)


def _arc_body(rep, sec, arcs, spec):
    import matplotlib.pyplot as plt

    lc = arc.lead_changes(arcs, alpha=ALPHA)
    cb = arc.comebacks(arcs, alpha=ALPHA)
    rl = arc.runaway_leads(arcs, points=("third", "half", "two_thirds"), alpha=ALPHA)
    rep.tables.update(arc_lead_changes=lc, arc_comebacks=cb, arc_runaway=rl)
    unit = spec.standing_unit if spec is not None else "standing"
    sec.body.append(
        para(
            "Each game's standings were recorded every round (the quantity the game ranks by: "
            f"{unit}). The <b>leader</b> of a round is the one seat on top (a shared top has none); a <b>lead "
            "change</b> is a new leader. A <b>comeback</b>: the winner stood below the top at two thirds of the game. "
            "A <b>runaway lead</b>: the leader at a third or half of the game goes on to win; against 1/players, "
            "the rate of a lead that tells nothing. Intervals 95% (normal for means, Wilson for shares). These are "
            "facts about games played by these scripted players, not verdicts."
        )
    )
    n_ref = _reference_players(arcs, spec)
    a, c = lc.set_index("players").loc[n_ref], cb.set_index("players").loc[n_ref]
    h = rl[(rl["players"] == n_ref) & (rl["point"] == "half")].iloc[0]
    rep.findings.append(
        Finding(
            "info",
            f"In {n_ref}-player games the lead changes {a['mean']:.1f} times a game on average, the winner was "
            f"behind at two thirds of the game in {pct(c['rate'])} of games, and the leader at half-time wins "
            f"{pct(h['rate'])} (against {pct(h['fair'])} if a lead told nothing).",
            f"{int(a['games']):,} games; lead changes {a['low']:.2f}\u2013{a['high']:.2f}; comebacks "
            f"{ci(c['low'], c['high'])}; leader at half wins {ci(h['low'], h['high'])}.",
            "arc",
            sec.anchor,
            {
                "players": n_ref,
                "lead-changes": float(a["mean"]),
                "comebacks": float(c["rate"]),
                "leader-half-wins": float(h["rate"]),
            },
        )
    )

    x = lc["players"].to_numpy()
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    axes[0].errorbar(
        x,
        lc["mean"],
        yerr=np.vstack([lc["mean"] - lc["low"], lc["high"] - lc["mean"]]),
        fmt="o-",
        color=plotting.PALETTE[0],
    )
    axes[0].set_xlabel("players")
    axes[0].set_ylabel("lead changes per game (mean)")
    axes[0].set_title("Lead changes")
    axes[1].errorbar(
        x,
        100 * lc["none"],
        yerr=100 * plotting._err(lc["none"], lc["none_low"], lc["none_high"]),
        fmt="s-",
        color=plotting.PALETTE[1],
        label="lead never changed",
    )
    axes[1].errorbar(
        x,
        100 * cb["rate"],
        yerr=100 * plotting._err(cb["rate"], cb["low"], cb["high"]),
        fmt="o-",
        color=plotting.PALETTE[3],
        label="winner behind at two thirds",
    )
    axes[1].set_xlabel("players")
    axes[1].set_ylabel("games (%)")
    axes[1].set_title("Wire-to-wire games and comebacks")
    axes[1].legend(loc="best", fontsize=8)
    for ax in axes:
        ax.set_xticks(x)
    sec.body.append(
        figure_html(
            fig,
            "lead changes and comebacks per player count",
            "Points: estimate per player count; bars: 95% interval. Left: mean number of lead "
            "changes a game; right: games whose first leader never lost the lead, and games "
            "won from behind at two thirds.",
        )
    )

    fig, ax = plt.subplots(figsize=(7.5, 4.0))
    for k, point in enumerate(("third", "half", "two_thirds")):
        t = rl[rl["point"] == point]
        ax.errorbar(
            t["players"] + (k - 1) * 0.06,
            100 * t["rate"],
            yerr=100 * plotting._err(t["rate"], t["low"], t["high"]),
            fmt="o-",
            color=plotting.PALETTE[k],
            label=f"leader at {POINT_WORDS[point]}",
        )
    fair = rl.drop_duplicates("players")
    ax.plot(fair["players"], 100 * fair["fair"], label="1 / players (a lead that tells nothing)", **plotting.FAIR_STYLE)
    ax.set_xticks(x)
    ax.set_xlabel("players")
    ax.set_ylabel("leader goes on to win (% of games)")
    ax.set_title("Does a lead hold?")
    ax.legend(loc="best", fontsize=8)
    sec.body.append(
        figure_html(
            fig,
            "how often the leader at a third, half and two thirds of the game wins",
            "Share of games whose sole leader at that point of the game won it, with 95% intervals; dashed: 1/players.",
        )
    )

    t = lc.merge(cb[["players", "rate"]].rename(columns={"rate": "comeback"}), on="players")
    for point in ("third", "half"):
        r = rl[rl["point"] == point].set_index("players")
        t[f"leader at {POINT_WORDS[point]} wins"] = t["players"].map(r["rate"])
        t[f"lead at {POINT_WORDS[point]}"] = t["players"].map(r["margin"])
    t = t.drop(columns=["low", "high", "none_low", "none_high"]).rename(
        columns={"mean": "lead changes", "none": "lead never changed", "comeback": "winner behind at two thirds"}
    )
    f1 = lambda v: f"{v:.1f}"  # noqa: E731
    sec.body.append(
        table_html(
            t,
            {
                "games": lambda v: f"{int(v):,}",
                "lead changes": lambda v: f"{v:.2f}",
                "lead never changed": pct,
                "winner behind at two thirds": pct,
                "leader at a third wins": pct,
                "leader at half wins": pct,
                "lead at a third": f1,
                "lead at half": f1,
            },
        )
    )
    sec.body.append(para(f"<i>Lead at</i>: the leader's mean margin over the next seat then, in {unit}."))


def add(st):
    if not st.rep.is_sweep:
        add_section(st.rep, st.run, st.seats, st.spec)
