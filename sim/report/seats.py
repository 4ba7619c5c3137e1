"""The seat and first-player advantage section."""

from .. import analysis as sa
from ..analysis import plotting
from . import verdicts as vd
from .verdicts import THRESHOLDS
from .model import ALPHA, Finding, Section, VERDICTS
from .fmt import next_command
from .fmt import _new_ax, ci, esc, family_note, figure_html, next_html, para, pct, pts, pval, table_html, who
from .data import _role_columns


def _seat_section(rep, seats, spec=None):
    T = THRESHOLDS["seat"]
    adv = sa.seat_advantage(seats, alpha=ALPHA)
    eq = sa.equality_tests(seats, alpha=ALPHA)
    rep.tables["seat_advantage"] = adv
    rep.tables["equality_tests"] = eq
    sec = Section("seats", "Seat and first-player advantage")
    sec.body.append(
        para(
            "Each row is a position in turn order (1 = the player who starts). Its <b>win share</b> is the share of "
            "wins it takes; in a perfectly fair n-player game every position takes 1/n. Rotated line-ups put every "
            f"strategy in every seat equally often, so what remains is the seat itself. Verdicts use a practical "
            f"threshold of {T:g} percentage points around 1/n."
        )
    )
    note = spec.turn_order_note if spec is not None else ""
    if note:
        sec.body.append(para(f"<b>Read position 1 with care:</b> {esc(note)}"))
    elif _role_columns(seats, spec):
        sec.body.append(
            para(
                "This game deals roles or characters: where the rules tie one to the turn order "
                "(for example a sheriff who always starts), a position's share measures that role "
                "as much as the seat; see the roles section."
            )
        )
    fam = vd.seat_family(seats, alpha=ALPHA, family_alpha=rep.family_alpha)
    rep.tables["seat_family"] = fam
    for r in vd.seat_picks(fam):
        rep.findings.append(_seat_finding(r, spec, note, sec.anchor))
    if note:  # said once, not in every position-1 finding
        rep.findings.append(
            Finding(
                "info",
                f"Position 1 in turn order: {esc(note)}",
                "A rule of the game, not a result.",
                "seat-note",
                sec.anchor,
                {},
            )
        )
    import matplotlib.pyplot as plt  # noqa: F401  (backend chosen by matplotlib)

    fig, ax = _new_ax((7.5, 4.2))
    plotting.plot_seat_advantage(adv, ax=ax)
    sec.body.append(
        figure_html(
            fig,
            "win share by turn-order position per player count",
            "Dots: win share; bars: 95% interval; dashed lines: the fair share 1/n.",
        )
    )
    t = adv.assign(position=adv["order"] + 1)[
        ["players", "position", "games", "rate", "low", "high", "fair", "excess_pp", "flagged"]
    ]
    t = t.assign(verdict=[VERDICTS[v][0] for v in fam["verdict"]])
    sec.body.append(
        table_html(
            t.rename(
                columns={
                    "rate": "win share",
                    "low": "95% low",
                    "high": "95% high",
                    "excess_pp": "points from fair",
                    "flagged": "differs (Holm)",
                }
            ),
            {
                "win share": pct,
                "95% low": pct,
                "95% high": pct,
                "fair": pct,
                "points from fair": pts,
                "games": lambda v: f"{int(v):,}",
                "differs (Holm)": lambda v: "yes" if v else "no",
            },
        )
    )
    _equality_table(sec, eq)
    rep.sections.append(sec)


def _seat_finding(r, spec, note, anchor):
    """The finding of one position at one player count (a row of the seat family)."""
    T = THRESHOLDS["seat"]
    n = int(r["players"])
    v = r["verdict"]
    first = int(r["order"]) == 0
    side = "advantage" if r["rate"] > r["fair"] else "disadvantage"
    if v == "red":
        tail = (
            f"a strong {side} for position 1"
            if first and note
            else f"a strong first-player {side}"
            if first
            else f"a strong {side} for that seat"
        )
    elif v == "amber":
        tail = f"a real but modest {side} (not clearly beyond {T:g} points)"
    elif v == "negligible":
        tail = f"a real {side} but negligible: within {T:g} points of an even share"
    elif v == "green":
        tail = f"fair: within {T:g} points of an even share"
    else:
        tail = f"too few games to tell whether it is within {T:g} points of fair"
    text = (
        f"The {who(r['order'])} wins {pct(r['rate'])} ({ci(r['low'], r['high'])}) of {n}-player "
        f"games against a fair {pct(r['fair'])}: {tail}."
    )
    ev = (
        f"{int(r['games']):,} games; win share with its 95% interval; "
        f"{pts(r['excess_pp'])} points from fair.{family_note(r)}"
    )
    if v == "red":
        ev += next_html(spec, "seat", players=n, position=int(r["order"]))
    restates = {"restates": "role"} if first and note else {}  # the rules tie a role to position 1
    return Finding(
        v,
        text,
        ev,
        "seat",
        anchor,
        {
            "players": n,
            "position": int(r["order"]),
            "rate": float(r["rate"]),
            "low": float(r["low"]),
            "high": float(r["high"]),
            "fair": float(r["fair"]),
            "games": int(r["games"]),
            "p-adj": float(r["p_adj"]),
            **restates,
        },
        next=next_command(spec, "seat", players=n, position=int(r["order"])),
    )


def _equality_table(sec, eq):
    """The test that all positions are equal, and the largest gap, per player count."""
    e = eq[["players", "games", "p", "best", "worst", "gap_pp", "gap_low_pp", "gap_high_pp"]].copy()
    e["best"] = e["best"].astype(int) + 1
    e["worst"] = e["worst"].astype(int) + 1
    sec.body.append(
        para(
            "Are all positions equal? The test below asks whether the differences between positions could be luck "
            "(a small p-value, say under 0.05, means they are not); the gap is the best position's share minus the "
            "worst one's, in percentage points."
        )
    )
    sec.body.append(
        table_html(
            e.rename(
                columns={
                    "p": "p-value",
                    "gap_pp": "gap (points)",
                    "gap_low_pp": "gap low",
                    "gap_high_pp": "gap high",
                    "best": "best position",
                    "worst": "worst position",
                }
            ),
            {
                "p-value": pval,
                "gap (points)": lambda v: f"{v:.1f}",
                "gap low": lambda v: f"{v:.1f}",
                "gap high": lambda v: f"{v:.1f}",
                "games": lambda v: f"{int(v):,}",
            },
        )
    )


def add(st):
    _seat_section(st.rep, st.seats, st.spec)
