"""The first screen: the few findings a designer should look at first.

`headline(findings)` chooses and ranks them; the report renders its result above the full list. The interface is
small on purpose, so that other measurements can feed it (the skill ladder, `sim ladder`, labels findings by
whether they survive stronger players):

- a Finding (sim.report.model) may carry `data["skill"]`, one of the keys of SKILL_LABELS: "holds" (holds as
  players get stronger), "changes" (changes with skill) or "unsettled". Set it on the report's findings before
  rendering; a finding without it is judged as it stands;
- only Strong and Modest findings without a label or labelled "holds" can be headlined; Strong and Modest ones
  labelled "changes" or "unsettled" (or found by the report's own second population to depend on the bots) go to
  the "depends on the players" list instead;
- an item finding is an association (who holds the item wins more), so it is headlined only when its causal effect
  (`sim effect`: paired games with and without the item, data["effect-holder-low-pp"/"-high-pp"]) excludes zero
  on the association's side; an unmeasured or contradicting effect keeps it in the item section only;
- findings that restate a role (data["restates"]: BANG's first player is the Sheriff), record a result rather
  than a choice (an item kind in GameSpec.outcome_kinds: Cold Comfort's neighbourhood won) or describe the bots
  (strategies, skill against luck, bot health) are never headlined;
- the headline is ranked by verdict (Strong before Modest), then by size (the distance from fair in points over
  the section's threshold, so a 10-point item and a 4-point seat compare as 2 thresholds each), then by certainty
  (the adjusted p-value), and holds at most `limit` (5) findings.
"""

import numpy as np

from .verdicts import THRESHOLDS

SKILL_LABELS = {
    "holds": "holds as players get stronger",
    "changes": "changes with skill",
    "unsettled": "unsettled",
}
HEADLINE_VERDICTS = ("red", "amber")
BOT_KINDS = ("strategy", "luck", "bot_health")  # findings about the scripted players, not the rules
LIMIT = 5


def size_pp(f):
    """A finding's distance from fair (or from its kind's average, for items) in percentage points, or NaN."""
    d = f.data
    if "effect_pp" in d:
        return abs(float(d["effect_pp"]))
    for ref in ("fair", "target"):
        if "rate" in d and ref in d:
            return 100 * abs(float(d["rate"]) - float(d[ref]))
    return np.nan


def headline_reason(f, outcome_kinds=()):
    """Why a finding is never headlined ('' when it may be)."""
    if f.kind in BOT_KINDS:
        return "about the bots"
    if f.data.get("restates"):
        return f"restates a role ({f.data['restates']})"
    if f.kind == "item" and str(f.data.get("item_kind", "")) in set(outcome_kinds):
        return "records a result, not a choice"
    if f.kind == "item" and not causal_agrees(f):
        return "an association its causal effect does not confirm"
    return ""


def causal_agrees(f):
    """Whether an item finding's measured causal effect on its holder excludes zero on the association's side."""
    d = f.data
    if "effect-holder-low-pp" not in d:
        return False
    lo, hi = float(d["effect-holder-low-pp"]), float(d["effect-holder-high-pp"])
    return lo > 0 if float(d.get("effect_pp", 0.0)) > 0 else hi < 0


def _depends(f):
    """The label that keeps a Strong or Modest finding off the headline, or ''."""
    skill = f.data.get("skill")
    if skill is not None and skill not in SKILL_LABELS:
        raise ValueError(f"skill label {skill!r}: expected one of {', '.join(SKILL_LABELS)}")
    if skill in ("changes", "unsettled"):
        return SKILL_LABELS[skill]
    if skill is None and f.data.get("robust") == "depends":
        return "depends on the bots"
    return ""


def _rank(f):
    threshold = THRESHOLDS.get(f.kind, THRESHOLDS["item"])
    size = size_pp(f)
    p = float(f.data.get("p-adj", np.nan))
    return (
        HEADLINE_VERDICTS.index(f.verdict),
        -(size / threshold if np.isfinite(size) else 0.0),
        p if np.isfinite(p) else 1.0,
    )


def headline(findings, outcome_kinds=(), limit=LIMIT):
    """(headline, depends): the at most `limit` findings to show first, ranked, and the Strong / Modest findings
    whose verdict depends on the players, as (finding, label) pairs, ranked the same way. See the module
    docstring for the rules."""
    top, depends = [], []
    for f in findings:
        if f.verdict not in HEADLINE_VERDICTS or headline_reason(f, outcome_kinds):
            continue
        label = _depends(f)
        if label:
            depends.append((f, label))
        else:
            top.append(f)
    top.sort(key=_rank)
    depends.sort(key=lambda fl: _rank(fl[0]))
    return top[:limit], depends
