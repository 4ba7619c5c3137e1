"""The report's "Bot health" section (issue 24): can the bots be trusted with the verdicts above?

From the run itself: items no seat ever acquired, money left unspent at the end per strategy, games stopped by
the step limit.  From an audit, when the run folder holds one (`sim audit GAME ... --out RUN/audit`): the decision
kinds where the bots' choices lose win share, with intervals (sim/audit.py).  A flagged kind becomes an amber
finding: a balance verdict may be the bots' habit rather than the game's."""

import os

import pandas as pd
from .data import declared
from .fmt import esc, para, pct, table_html
from .model import Finding, Section


def add_section(rep, seats, games, items, spec, path, seen=None):
    """seen: the items acquired at least once over the whole items table (when `items` is a sample of it)."""

    sec = Section("bot-health", "Bot health")
    sec.body.append(
        para(
            "Balance verdicts are only as good as the bots that played. These checks look for habits "
            "a designer would question: things never bought, money hoarded to the end, stalled games, "
            "and (from an audit by rollouts) decisions that measurably lose."
        )
    )
    if spec is not None and items is not None and getattr(spec, "item_names", ()):
        if seen is not None:
            seen = {str(x) for x in seen}
        else:
            seen = set(items["item"].astype(str)) if "item" in items.columns else set()
        dealt = set(declared(spec, "dealt_kinds"))
        kinds = list(spec.item_kinds) or [""] * len(spec.item_names)
        for word, names in (
            ("acquired", [n for n, k in zip(spec.item_names, kinds) if k not in dealt]),
            ("dealt", [n for n, k in zip(spec.item_names, kinds) if k in dealt]),
        ):
            never = [n for n in names if n not in seen]
            if never:
                sec.body.append(
                    para(
                        f"<b>Never {word}</b> ({len(never)} of {len(names)}): "
                        f"{esc(', '.join(never[:40]))}{' ...' if len(never) > 40 else ''}."
                    )
                )
            elif names:
                sec.body.append(para(f"Every item was {word} at least once."))
    col = declared(spec, "money_column")
    if col and col in seats.columns and "strategy" in seats.columns:
        t = seats.groupby("strategy")[col].agg(["mean", "median"]).reset_index()
        sec.body.append(para(f"<b>Left at the end</b>: {esc(col)} per seat when the game ended, by strategy."))
        sec.body.append(
            table_html(
                t.rename(columns={"mean": f"mean {col}", "median": f"median {col}"}),
                {f"mean {col}": lambda v: f"{v:.1f}", f"median {col}": lambda v: f"{v:.0f}"},
            )
        )
    if games is not None and "capped" in games.columns and len(games):
        sec.body.append(para(f"<b>Stopped by the step limit</b>: {pct(float(games['capped'].mean()), 2)} of games."))
    audit = os.path.join(str(path), "audit", "summary.parquet")
    if os.path.exists(audit):
        s = pd.read_parquet(audit)
        rep.tables["bot_health_audit"] = s
        for _, r in s[s["flagged"]].iterrows():
            rep.findings.append(
                Finding(
                    "amber",
                    f"The bots' '{r['kind']}' decisions lose {r['mean_regret']:.1%} of win share on average "
                    f"against the best action found by rollouts: verdicts touching them may reflect the bots.",
                    f"{int(r['decisions'])} audited decisions; mean regret 95% interval {r['mean_regret_lo']:.3f} to "
                    f"{r['mean_regret_hi']:.3f}; flagged: above 0.02, and above 0 at 5% after a Holm correction "
                    "over the audited kinds (sim audit).",
                    "bot_health",
                    sec.anchor,
                    {"kind": r["kind"], "mean_regret": float(r["mean_regret"])},
                )
            )
        sec.body.append(
            para(
                "<b>Audit by rollouts</b>: per decision kind, how often the bots' choice was "
                "significantly worse than the best action and the mean regret in win share."
            )
        )
        sec.body.append(
            table_html(
                s[
                    [
                        "kind",
                        "decisions",
                        "worse_share",
                        "mean_regret",
                        "mean_regret_lo",
                        "mean_regret_hi",
                        "worst_regret",
                        "flagged",
                    ]
                ],
                {
                    "worse_share": pct,
                    "mean_regret": lambda v: f"{v:+.3f}",
                    "mean_regret_lo": lambda v: f"{v:+.3f}",
                    "mean_regret_hi": lambda v: f"{v:+.3f}",
                    "worst_regret": lambda v: f"{v:+.3f}",
                },
            )
        )
    else:
        sec.body.append(para("No audit in this run folder: `sim audit GAME --out RUN/audit` adds one."))
    rep.sections.append(sec)


def add(st):
    seen = st.isample.seen if st.isample is not None else None
    add_section(st.rep, st.seats, st.games, st.items, st.spec, st.path, seen=seen)
