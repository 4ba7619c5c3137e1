"""The item strength section (association, and the causal effect of the flagged items)."""

import re

import numpy as np
import pandas as pd

from ..analysis import plotting
from ..errors import UserError
from . import verdicts as vd
from .verdicts import MIN_ROWS, THRESHOLDS
from . import model
from .model import ALPHA, EFFECT_GAMES, EFFECT_ITEMS, Finding, ITEMS_SHOWN, Section, VERDICTS
from .fmt import (
    _new_ax,
    effect_command,
    next_command,
    esc,
    family_note,
    figure_html,
    item_name,
    next_html,
    nice,
    para,
    pct,
    pts,
    table_html,
)
from .data import _reference_players, declared


def _item_verb(kind, spec):
    return "are dealt" if str(kind) in declared(spec, "dealt_kinds") else "acquire"


def _measure_effects(rep, fam, picks, spec, effects):
    """sim effect for the items the association flags (red / amber, up to EFFECT_ITEMS, largest first), at the
    reference player count, cached beside the run. {item: result}."""
    if not effects or rep.is_sweep or spec is None:
        return {}
    from ..effect import cached_effect, can_intervene

    hot = [r for r in picks if r["verdict"] in ("red", "amber") and can_intervene(spec, r["item"])]
    hot = sorted(hot, key=lambda r: -abs(r["rel_pp"]))[:EFFECT_ITEMS]
    n = (
        int(spec.default_players)
        if spec.default_players in rep.manifest.get("players", [])
        else int((rep.manifest.get("players") or [spec.default_players])[0])
    )
    out = {}
    for r in hot:
        try:
            out[str(r["item"])] = cached_effect(rep.path, rep.manifest, str(r["item"]), n, EFFECT_GAMES)
        except UserError as e:  # e.g. a line-up the current code no longer knows
            rep.notices.append(para(f"sim effect for {esc(r['item'])} could not run: {esc(e)}"))
    return {k: v for k, v in out.items() if v}


def _items_section(rep, seats, items, games=None, spec=None, effects=True, item_seats=None):
    """item_seats: the seat rows of the games `items` holds, when items is a sample of whole games
    (_item_sample); default all of `seats`."""
    T = THRESHOLDS["item"]
    sec = Section("items", "Item strength (association)")
    fit_seats = seats if item_seats is None else item_seats
    fam = vd.item_family(
        fit_seats,
        items,
        alpha=ALPHA,
        min_rows=MIN_ROWS,  # late: vs each game's last acquisition
        family_alpha=rep.family_alpha,
        max_rows=max(model.ITEM_ROWS, len(fit_seats)),
    )
    rep.tables["item_family"] = fam
    sec.body.append(
        para(
            "For each card, building or other item: how much more often seats holding it win. The <b>adjusted "
            "effect</b> compares a seat only with the other seats of the same game (so player count and everything "
            "common to a game drop out), holding turn order, strategy and the kind's other items equal; it is fitted "
            "for every item with enough games, one model per kind, on all seats (above 250,000 seats, on a sample of "
            "whole games of that size). Items are ranked by that effect "
            "<b>relative to the average of the kind's other items</b>: a player who is already winning tends to "
            "acquire more of everything, which lifts every item of a kind alike and cancels in the comparison (an "
            f"item at least {T:g} points from the others is left out of their average). The raw difference is "
            "computed within each player count and combined (pooling player counts can make an item look strong "
            "only because it appears in games with fewer players). Items mostly acquired in the last third of the game "
            "are flagged <i>leaders acquire it</i> and never judged Strong. "
            f"Threshold: {T:g} points; verdicts corrected over all {int(fam['family'].max() if len(fam) else 0)} "
            f"fitted items (Holm). Items seen in fewer than {MIN_ROWS} seats (with or without it) are listed, not "
            "ranked. <b>All of this is association, not effect</b>: what removing an item would change is measured "
            "by <code>sim effect GAME --item NAME</code> (paired games with and without it)."
        )
    )
    game = rep.manifest.get("game", "GAME")
    picks = vd.item_picks(fam)
    measured = _measure_effects(rep, fam, picks, spec, effects)
    rep.tables["item_effects_measured"] = measured
    for r in picks:
        rep.findings.append(_item_finding(r, measured, spec, seats, game, sec.anchor))
    if measured:
        _effects_table(sec, fam, measured)
    for kind in sorted(fam["kind"].astype(str).unique()):
        _kind_table(sec, fam, kind)
    rep.tables["item_strength"] = {k: fam[fam["kind"] == k] for k in fam["kind"].unique()}
    if len(fam):
        rep.sections.append(sec)


def _item_finding(r, measured, spec, seats, game, anchor):
    """The finding of one picked item (a row of the item family), with its causal effect when measured."""
    T = THRESHOLDS["item"]
    v = r["verdict"]
    kind = str(r["kind"])
    e, lo, hi = r["rel_pp"], r["rel_low_pp"], r["rel_high_pp"]
    how = "more" if e > 0 else "less"
    tail = {
        "red": "a clear outlier to look at",
        "amber": "a real but modest difference",
        "negligible": f"real but negligible (within {T:g} points)",
        "green": f"within {T:g} points of the kind's other items",
        "grey": "too few games to tell",
    }[v]
    if r["leaders_flag"]:
        tail += "; leaders acquire it late, so part of this is their lead, not the item"
    verb = _item_verb(kind, spec)
    name = item_name(r["item"])
    # the kind is said once: 'the hotel size 1', not 'the hotel hotel size 1'
    named = name if name.lower().startswith(nice(kind).lower()) else f"{nice(kind)} {name}"
    text = (
        f"Seats that {verb} the {esc(named)} win {abs(e):.1f} points {how} "
        f"often than with the other {nice(kind)}s on average (association, adjusted): {tail}."
    )
    ev = (
        f"Adjusted effect relative to the average of the kind's other items {pts(e)} points (95% interval "
        f"{lo:+.1f} to {hi:+.1f}); adjusted effect {pts(r['effect_pp'])} points; raw difference (player "
        f"counts combined, weighted by holders) {pts(100 * r['diff'])}; held by {pct(r['pick_rate'])} of "
        f"seats; {pct(r['late_share'], 0)} of acquisitions in the last third of the game."
        f"{family_note(r, points=True)}"
    )
    m = measured.get(str(r["item"]))
    if m:
        h = m["holder_win"]
        ev += (
            f" <b>Effect</b> (causal: {m['games']:,} paired games with and without it, same seeds, "
            f"{m['players']} players): {pts(100 * h['mean'])} points of win rate for its holder "
            f"(95% interval {100 * h['low']:+.1f} to {100 * h['high']:+.1f})."
        )
    else:
        ev += f" Causal check: <code>{esc(effect_command(game, r['item']))}</code>."
    players = _reference_players(seats, spec)
    if v == "red":
        ev += next_html(spec, "item", players=players, item=r["item"])
    return Finding(
        v,
        text,
        ev,
        "item",
        anchor,
        {
            "item": str(r["item"]),
            "item_kind": kind,
            "effect_pp": float(e),
            "low_pp": float(lo),
            "high_pp": float(hi),
            "adjusted": True,
            "leaders": bool(r["leaders_flag"]),
            "p-adj": float(r["p_adj"]),
            **(
                {
                    "effect-holder-pp": 100 * float(m["holder_win"]["mean"]),
                    "effect-holder-low-pp": 100 * float(m["holder_win"]["low"]),
                    "effect-holder-high-pp": 100 * float(m["holder_win"]["high"]),
                }
                if m
                else {}
            ),
        },
        # measured: what to change next (no parameter named for it: the game's parameters, to pick one to sweep);
        # not measured: whether it is the item at all
        next=(next_command(spec, "item", players=players, item=r["item"]) or f"sim params {game}")
        if m
        else effect_command(game, r["item"], players),
    )


def _effects_table(sec, fam, measured):
    """Association beside the causal effect, for the items whose effect the report measured."""
    rows = []
    for it, m in measured.items():
        r = fam[fam["item"].astype(str) == it].iloc[0]
        h, a, w = m["holder_win"], m.get("association") or {}, m["holder"]
        rows.append(
            {
                "item": item_name(it),
                "association: adjusted vs kind avg": r["rel_pp"],
                "association: raw (holders - others)": 100 * a.get("diff", np.nan),
                "effect on holder": 100 * h["mean"],
                "effect low": 100 * h["low"],
                "effect high": 100 * h["high"],
                "effect (win share)": 100 * w["mean"],
                "paired games": m["games"],
                "players": m["players"],
            }
        )
    sec.body.append("<h3>Association and effect</h3>")
    sec.body.append(
        para(
            "The numbers above are <b>association</b>. For the items they flag, the report also measured the "
            "<b>effect</b>: the same games played again with the item removed from the game (same seeds, so each "
            "game is compared with itself), and the change in its holder's win rate, in points (and in win share, "
            "ties and team wins split). Association columns are win rates from this run; the effect is what the "
            "item causes with these players."
        )
    )
    f1 = lambda v: "" if not np.isfinite(v) else f"{v:+.1f}"  # noqa: E731
    sec.body.append(
        table_html(
            pd.DataFrame(rows),
            {
                "association: adjusted vs kind avg": f1,
                "association: raw (holders - others)": f1,
                "effect on holder": f1,
                "effect low": f1,
                "effect high": f1,
                "effect (win share)": f1,
                "paired games": lambda v: f"{int(v):,}",
            },
        )
    )


def _kind_table(sec, fam, kind):
    """The chart and table of one kind's items (the top and bottom ITEMS_SHOWN ranked, then the unranked)."""
    t = fam[fam["kind"].astype(str) == kind]
    ranked = t[t["enough"] & t["rel_pp"].notna()].sort_values("rel_pp", ascending=False)
    sec.body.append(f"<h3>{esc(nice(kind).capitalize())} ({len(t)} items, {len(ranked)} ranked)</h3>")
    shown = pd.concat(
        [ranked.head(ITEMS_SHOWN), ranked.tail(ITEMS_SHOWN), t[~t.index.isin(ranked.index)].head(ITEMS_SHOWN)]
    )
    shown = shown[~shown.index.duplicated()]
    fig, ax = _new_ax((7.5, 0.32 * len(shown) + 1.8))
    plotting.plot_item_strength(
        shown,
        ax=ax,
        top=len(shown),
        value="rel_pp",
        title=f"{nice(kind).capitalize()}: adjusted effect relative to the average",
    )
    ax.set_ylabel(nice(kind))
    note = "" if len(shown) == len(t) else f" Showing the top and bottom {ITEMS_SHOWN} ranked items."
    sec.body.append(
        figure_html(
            fig,
            f"{kind} strength",
            "Dots: adjusted effect minus the average of the kind's other items, percentage points; bars: 95% "
            "interval (clustered by game); hollow grey: too few games to fit (raw "
            "difference shown)." + note,
        )
    )
    cols = [
        "item",
        "n_with",
        "pick_rate",
        "diff",
        "low",
        "high",
        "effect_pp",
        "rel_pp",
        "rel_low_pp",
        "rel_high_pp",
        "verdict",
        "late_share",
        "leaders_flag",
    ]
    cols += [c for c in ("price", "rel_per_price") if c in shown.columns]
    cols += sorted(c for c in shown.columns if re.fullmatch(r"adj_\d+_pp", c))
    tab = shown[cols].assign(verdict=[VERDICTS[x][0] if isinstance(x, str) else "not ranked" for x in shown["verdict"]])
    tab = tab.rename(
        columns={
            "n_with": "seats with",
            "pick_rate": "held by",
            "diff": "raw diff",
            "low": "raw low",
            "high": "raw high",
            "effect_pp": "adjusted",
            "rel_pp": "vs kind avg",
            "rel_low_pp": "low",
            "rel_high_pp": "high",
            "late_share": "late",
            "leaders_flag": "leaders acquire it",
            "price": "mean price",
            "rel_per_price": "vs avg per unit price",
            **{c: f"adjusted, {c.split('_')[1]} players" for c in cols if re.fullmatch(r"adj_\d+_pp", c)},
        }
    )
    f1 = lambda v: "" if not np.isfinite(v) else f"{v:+.1f}"  # noqa: E731
    f100 = lambda v: "" if not np.isfinite(v) else f"{100 * v:+.1f}"  # noqa: E731
    fmts = {
        "seats with": lambda v: f"{int(v):,}",
        "held by": pct,
        "raw diff": f100,
        "raw low": f100,
        "raw high": f100,
        "adjusted": f1,
        "vs kind avg": f1,
        "low": f1,
        "high": f1,
        "late": lambda v: pct(v, 0),
        "leaders acquire it": lambda v: "yes" if v else "",
        "mean price": lambda v: "" if not np.isfinite(v) else f"{v:.1f}",
        "vs avg per unit price": lambda v: "" if not np.isfinite(v) else f"{v:+.2f}",
    }
    fmts.update({c: f1 for c in tab.columns if c.startswith("adjusted, ")})
    sec.body.append(table_html(tab, fmts))


def add(st):
    if st.items is not None:
        _items_section(st.rep, st.seats, st.items, st.games, st.spec, st.effects, item_seats=st.isample.seats)
