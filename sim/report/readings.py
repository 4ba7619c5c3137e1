"""Report sections about the rules studied: which preset (first lines), the comparison with another preset's run
kept in `<run>/compare/<name>/`, and "Rulebook ambiguities that change the balance" from a `sim readings` folder
kept in `<run>/readings*/` (hooked into `sim.report.build.collect` by one line)."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
from .fmt import esc, para
from .model import Finding, Section


def add_sections(rep, path, man, spec):

    path = Path(path)
    game = man.get("game")
    if not rep.is_sweep:
        from ..presets import matching

        m = matching(game, man.get("params") or {})
        if m:
            rep.notices.insert(
                0, f"<div class='notice'><b>Rules studied: {esc(m[1])}</b> (preset <code>{esc(m[0])}</code>).</div>"
            )
        _compare_section(rep, path, man, spec, Section, esc, para)
    if not rep.is_sweep:
        _auto_readings(path, man)
    for sub in sorted(path.glob("readings*/summary.parquet")):
        _readings_section(rep, sub.parent, Section, Finding, esc, para)
        players = json.loads((sub.parent / "manifest.json").read_text())["players"]
        note_dependence(rep.findings, pd.read_parquet(sub), int(players), f"#readings-{sub.parent.name}")


REAL = ("matters", "real but small")  # a reading's paired change that is real (Holm-corrected)


def _item_words(name):
    """The words of an item's name a rule parameter would use for it ('Jesse Jones' -> {'jesse', 'jones'})."""
    import re

    return {w for w in re.split(r"[^a-z]+", str(name).lower().partition(":")[2] or str(name).lower()) if len(w) > 2}


def note_dependence(findings, summary, players, anchor):
    """Say in each seat, side and item finding whether it depends on an ambiguous rule reading, from a readings
    study (`summary`: sim.readings.summarise, played at `players`).  A seat finding (that player count, position
    j) depends on the readings whose paired change in position j's win share is real; a side finding likewise on
    its side's share; an item finding on the readings whose rule names the item (`rule.jesse_...` for Jesse
    Jones: the study measures no item, so the rule's largest change is quoted).  A finding the study covers and
    no reading moves says that too; findings at other player counts are left as they are."""
    from ..analysis.sides import side_name

    if summary.empty:
        return
    if "provenance" in summary.columns:  # readings that contradict the rulebook are sensitivity checks, not readings
        summary = summary[summary["provenance"] != "contradicts"]
    unit = {"turn order": 100, "side": 100, "strategy": 100}
    for f in findings:
        d = f.data
        if f.kind == "seat" and d.get("players") == players:
            rows, what = summary[summary["metric"] == f"order{d['position']}"], "this position's win share"
        elif f.kind == "side" and d.get("players") == players:
            side = [m.startswith("side:") and side_name(m[5:]) == d["side"] for m in summary["metric"]]
            rows, what = summary[side], "this side's win rate"
        elif f.kind == "item":  # the study measures no item: the rule's largest change is quoted
            words = _item_words(d.get("item", ""))
            named = summary[[bool(words & set(str(p).lower().replace(".", "_").split("_"))) for p in summary["param"]]]
            if named.empty:
                continue
            rows = named.loc[named.groupby("key", sort=False)["effect"].idxmax()]
        else:
            continue
        if rows.empty:
            continue
        real = rows[rows["verdict"].isin(REAL)]
        if real.empty and f.kind != "item":
            f.evidence += (
                f" <b>Rule readings</b> ({players} players): none of the {rows['key'].nunique()} "
                f"ambiguous readings studied moves {what} (<a href='{anchor}'>readings</a>)."
            )
            continue
        shown = real if len(real) else rows
        parts = []
        for r in shown.itertuples():
            k = unit.get(r.family, 1)
            u = " pts" if k == 100 else " rounds"
            parts.append(
                f"<code>{esc(r.param)}</code> read as '{esc(r.value)}' instead of '{esc(r.default)}': "
                f"{esc(r.metric)} {k * r.diff:+.1f}{u} ({k * r.low:+.1f} to {k * r.high:+.1f}), "
                f"{esc(r.verdict)}"
            )
        lead = "depends on" if len(real) else "a rule about it, studied, moves nothing measured:"
        f.evidence += (
            f" <b>Rule readings</b> ({players} players): {lead} "
            + "; ".join(parts)
            + f" (<a href='{anchor}'>readings</a>)."
        )
        d["readings"] = ",".join(sorted(set(real["param"]))) if len(real) else "none"


# Readings a report always shows both ways at these player counts (game: (parameter, player counts)), played on the
# fly into <run>/readings_<parameter>_<N>p/ when the run folder has none: Gunny Town's "one ammunition card per
# opponent" deals the whole 30-card deck at 6 players, so the literal default and the review's fixed count differ most
# there.
ALWAYS_BOTH = {"gunny_town": ("setup.start_ammo", (5, 6))}
AUTO_GAMES = 1000


def _auto_readings(path, man):
    game = man.get("game")
    if game not in ALWAYS_BOTH:
        return
    param, counts = ALWAYS_BOTH[game]
    if param in (man.get("params_changed") or {}):
        return
    from ..readings import run_readings
    from ..study import Study

    lineup = (man.get("seating") or {}).get("lineup") or None
    for n in man.get("players", []):
        if n in counts:
            out = path / f"readings_{param}_{n}p"
            if not (out / "summary.parquet").exists():
                study = Study(
                    game,
                    players=n,
                    games=AUTO_GAMES,
                    seed=int(man.get("seed", 0)),
                    lineup=lineup,
                    params=man.get("params_changed") or {},
                    out=out,
                    progress=False,
                )
                run_readings(study, only=[param])


def _side_shares(folder, column):
    games = pd.read_parquet(Path(folder) / "games", columns=["players", column])
    out = []
    from ..analysis.stats import wilson

    for n, g in games.groupby("players", observed=True):
        total = len(g)
        for side, k in g[column].astype(str).value_counts().items():
            lo, hi = wilson(k, total)
            out.append(
                {
                    "players": int(n),
                    "side": side,
                    "share": k / total,
                    "low": lo,
                    "high": hi,
                    "games": total,
                    "wins": int(k),
                }
            )
    return pd.DataFrame(out)


def _compare_section(rep, path, man, spec, Section, esc, para):
    """This run against other presets' runs of the same game kept in <run>/compare/<name>/ (sides by player count,
    in the game's declared side column)."""
    others = [d for d in sorted((path / "compare").glob("*")) if (d / "manifest.json").exists()]
    side = spec.side_column if spec is not None else ""
    if not others or not side or side not in _columns(path):
        return
    from ..presets import matching

    this = _side_shares(path, side)
    sec = Section("presets", "The game as published against its base game")
    for d in others:
        om = json.loads((d / "manifest.json").read_text())
        if om.get("game") != man.get("game"):
            continue
        label = matching(om["game"], om.get("params") or {}) or (d.name, d.name)
        other = _side_shares(d, side)
        j = this.merge(other, on=["players", "side"], suffixes=("", "_other"), how="outer")
        j = j[j["side"] != "none"].sort_values(["players", "side"])
        rows = []
        from statsmodels.stats.proportion import confint_proportions_2indep

        for r in j.itertuples():
            dlo = dhi = np.nan
            if np.isfinite(r.share) and np.isfinite(r.share_other):
                dlo, dhi = confint_proportions_2indep(
                    r.wins, r.games, r.wins_other, r.games_other, method="newcomb", compare="diff"
                )
            rows.append(
                f"<tr><td>{r.players}</td><td>{esc(r.side)}</td><td class=num>{_p(r.share)} "
                f"({_p(r.low)}\u2013{_p(r.high)})</td><td class=num>{_p(r.share_other)} "
                f"({_p(r.low_other)}\u2013{_p(r.high_other)})</td><td class=num>"
                f"{_d(r.share - r.share_other)} ({_d(dlo)} to {_d(dhi)})</td></tr>"
            )
        sec.body.append(
            para(
                f"Winning side by player count, this run against the run with preset "
                f"<code>{esc(label[0])}</code> ({esc(label[1])}), 95% Wilson intervals; each run "
                "has its own seeds, so the difference is between independent samples (Newcomb's 95% "
                "interval, statsmodels)."
            )
        )
        sec.body.append(
            "<table class='data'><thead><tr><th>players</th><th>side</th><th>this run</th>"
            f"<th>{esc(label[0])}</th><th>difference (points)</th></tr></thead><tbody>"
            + "".join(rows)
            + "</tbody></table>"
        )
    if sec.body:
        rep.sections.insert(0, sec)


def _columns(path):
    import pyarrow.parquet as pq

    files = sorted((Path(path) / "games").glob("**/*.parquet"))
    return pq.read_schema(files[0]).names if files else []


def _p(x):
    return "n/a" if x is None or not np.isfinite(x) else f"{100 * x:.1f}%"


def _d(x):
    return "n/a" if x is None or not np.isfinite(x) else f"{100 * x:+.1f}"


def _unit(family):
    return (lambda v: f"{v:+.2f} rounds") if family == "length" else (lambda v: f"{100 * v:+.1f} pts")


def _readings_section(rep, folder, Section, Finding, esc, para):
    from ..readings import PROVENANCE, _cap_note, per_reading

    s = pd.read_parquet(folder / "summary.parquet")
    man = json.loads((folder / "manifest.json").read_text())
    pr = per_reading(s)
    sec = Section(f"readings-{folder.name}", f"Rulebook ambiguities that change the balance ({man['players']} players)")
    sec.body.append(
        para(
            f"Each ambiguous rule is kept as a parameter. Here each alternative reading was played on the same seeds "
            f"and seats as our default reading ({man['players']} players"
            + (f", preset <code>{esc(man['preset'])}</code>" if man.get("preset") else "")
            + "), and the paired change is shown for its largest effect with a 95% interval. <b>Matters</b>: a real "
            "change (Holm-corrected over every comparison) at least the practical threshold (turn order 2 points, "
            "strategies 3, sides 5, length 10% of the mean rounds); <b>unclear</b>: an interval still reaches past "
            "the threshold; <b>not exercised</b>: no paired game played out differently, so the reading was never "
            "tested; <b>rare</b>: under 1% of them did (the situation hardly arises with these players), which is "
            "not the same as <b>does not matter</b>. <b>Games changed</b>: the share of paired games whose outcome "
            "differs between the two readings."
        )
    )
    rows = {False: [], True: []}  # apart: the alternatives that contradict the rulebook (sensitivity checks)
    for r in pr.itertuples():
        unit = _unit(r.family)
        g = s[(s["param"] == r.param) & (s["value"] == r.value)]
        per = []
        for fam, f in g.groupby("family", sort=False):
            b = f.loc[f["diff"].abs().idxmax()]
            u = _unit(fam)
            per.append(f"{fam}: {b['metric']} {u(b['diff'])} ({u(b['low'])} to {u(b['high'])})")
        apart = r.provenance == "contradicts"
        change = "" if r.verdict == "not exercised" else f"{r.metric}: {unit(r.diff)} ({unit(r.low)} to {unit(r.high)})"
        rows[apart].append(
            f"<tr><td><code>{esc(r.param)}</code></td><td>{esc(r.doc)}</td><td>{esc(r.default)}</td>"
            f"<td>{esc(r.value)}</td><td>{esc(PROVENANCE[r.provenance])}</td><td>{esc(r.verdict)}</td>"
            f"<td class=num>{100 * r.changed:.1f}%</td><td>{esc(change)}{esc(_cap_note(r))}</td>"
            f"<td>{esc('; '.join(per))}</td><td class=num>{r.games}</td></tr>"
        )
        if r.verdict == "matters" and not _cap_note(r) and not apart:
            rep.findings.append(
                Finding(
                    "red",
                    f"The rulebook ambiguity {r.param} changes the balance: reading it as '{r.value}' instead "
                    f"of '{r.default}' moves {r.metric} by {unit(r.diff)}.",
                    f"paired games on common seeds, {r.games} per reading, {100 * r.changed:.1f}% of them played "
                    f"out differently; 95% interval {unit(r.low)} to {unit(r.high)}",
                    "reading",
                    sec.anchor,
                    {"param": r.param, "value": r.value},
                    next=f"sim readings {man['game']} --players {man['players']} --only {r.param}",
                )
            )
    head = (
        "<div class='scroll'><table class='data'><thead><tr><th>parameter</th><th>rule</th><th>our default</th>"
        "<th>alternative</th><th>provenance</th><th>verdict</th><th>games changed</th>"
        "<th>largest change (95% interval)</th><th>largest change per verdict family</th><th>games</th></tr></thead>"
        "<tbody>"
    )
    sec.body.append(head + "".join(rows[False]) + "</tbody></table></div>")
    if rows[True]:
        sec.body.append(
            "<h3>Sensitivity checks: readings that contradict the rulebook</h3>"
            + para(
                "These alternatives go against the rulebook's words; they are not ambiguities and are shown only "
                "to say how much the balance leans on that rule."
            )
        )
        sec.body.append(head + "".join(rows[True]) + "</tbody></table></div>")
    rep.sections.append(sec)


def add(st):
    add_sections(st.rep, st.path, st.rep.manifest, st.spec)  # preset, readings
