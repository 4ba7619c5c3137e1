"""The skill ladder's metrics: the same headline numbers measured on populations of players of rising strength.

A rung is a population of players (a line-up). On every rung the ladder measures, with 95% intervals:
- side: each side's share of the games won, per player count (team games; `side_rates`);
- seat: each turn-order position's win share, per player count (`seat_advantage`);
- strategy: each archetype's win share, player counts pooled (`win_rates`), where an archetype is a preset with its
  stronger versions: `rail_baron`, `rail_baron_tuned`, `search@rail_baron_tuned` and `search64@rail_baron_tuned`
  are one archetype, so a line of play can be followed from the hand-written bot to a search that plays it;
- item: an item's causal effect on its holder's win rate (`sim effect`, paired games), when measured.

All values are rates (fractions), with `fair` (the value of no effect: 1/n, the side's target, 0 for an item
effect) and `threshold` (the report's practical threshold, as a fraction).  Each rung's reading is classed from its
interval (`direction`), and a finding's label (`ladder_labels`) compares the two strongest rungs with the finding.
"""

import re

import numpy as np
import pandas as pd

from .seats import seat_advantage
from .sides import side_rates
from .winrates import win_rates

LABELS = {
    "holds": "holds as players get stronger",
    "changes": "changes with skill",
    "unsettled": "unsettled",
}
FAMILIES = ("side", "seat", "strategy", "item")
KEY = ["family", "players", "key"]  # one metric; `rung` adds the rung

_SEARCH = re.compile(r"^search[0-9x.z_peek]*@")


def archetype(name):
    """The line of play a strategy name stands for: the rollout policy of a search (`search64@x` -> x), without the
    `_tuned` of a shipped tuned preset.  A search without a named policy is its own archetype."""
    name = _SEARCH.sub("", str(name))
    return name[: -len("_tuned")] if name.endswith("_tuned") else name


def rung_metrics(seats, games=None, side_column=None, targets=None, thresholds=None, alpha=0.05):
    """Side, seat and strategy metrics of one rung's tables (seats: players, strategy, order, win_share and the game
    key; games: the side column).  thresholds: {family: points} (default sim.report.verdicts.THRESHOLDS).  One row
    per metric: family, players (0: pooled), key (side, position 0-based as text, archetype), games, value, low,
    high, fair, threshold."""
    if thresholds is None:
        from ..report.verdicts import THRESHOLDS as thresholds
    rows = []
    if side_column and games is not None and side_column in games.columns:
        t = side_rates(games, column=side_column, targets=targets, alpha=alpha)
        for _, r in t.iterrows():
            rows.append(_row("side", r["players"], r["side"], r["games"], r, r["target"], thresholds))
    adv = seat_advantage(seats, alpha=alpha)
    for _, r in adv.iterrows():
        rows.append(_row("seat", r["players"], str(int(r["order"])), r["games"], r, r["fair"], thresholds))
    arch = seats.assign(archetype=[archetype(s) for s in seats["strategy"].astype(str)])
    if arch["archetype"].nunique() > 1:
        wr = win_rates(arch, by="archetype", alpha=alpha)
        for _, r in wr.iterrows():
            rows.append(_row("strategy", 0, r["archetype"], r["games"], r, r["fair"], thresholds))
    return pd.DataFrame(rows, columns=KEY + ["games", "value", "low", "high", "fair", "threshold"])


def _row(family, players, key, n, r, fair, thresholds):
    return {
        "family": family,
        "players": int(players),
        "key": str(key),
        "games": int(n),
        "value": float(r["rate"]),
        "low": float(r["low"]),
        "high": float(r["high"]),
        "fair": float(fair),
        "threshold": thresholds[family] / 100,
    }


def effect_row(item, players, result, thresholds=None):
    """The item metric of one rung from a `sim effect` result (sim.effect.item_effect or its JSON): the change in
    its holder's win rate, with its interval."""
    if thresholds is None:
        from ..report.verdicts import THRESHOLDS as thresholds
    h = result["holder_win"]
    return {
        "family": "item",
        "players": int(players),
        "key": str(item),
        "games": int(result["games"]),
        "value": float(h["mean"]),
        "low": float(h["low"]),
        "high": float(h["high"]),
        "fair": 0.0,
        "threshold": thresholds["item"] / 100,
    }


def direction(low, high, fair, threshold):
    """How one rung reads a metric, from its interval: 'balanced' (within fair +- threshold), 'above' / 'below'
    (excludes fair on that side), or 'unsettled' (neither: more games needed)."""
    low, high, fair, threshold = (np.asarray(x, dtype=float) for x in (low, high, fair, threshold))
    out = np.full(np.broadcast(low, high, fair).shape, "unsettled", dtype=object)
    ok = np.isfinite(low) & np.isfinite(high)
    out[ok & (low > fair)] = "above"
    out[ok & (high < fair)] = "below"
    out[ok & (low >= fair - threshold) & (high <= fair + threshold)] = "balanced"
    return out if out.shape else out.item()


def label(finding, second, top):
    """A finding's label from the directions of the finding (its own rung) and of the two strongest rungs:
    'holds' when both strongest rungs read it as the finding does (same side of fair, or both balanced);
    'changes' when they are settled and one of them reads it otherwise; 'unsettled' when either is too wide to say
    (or the finding itself is).  With one rung beyond the finding, `second` is the finding."""
    if "unsettled" in (finding, second, top):
        return "unsettled"
    return "holds" if finding == second == top else "changes"


def ladder_labels(table):
    """Add `direction` (per row) and `label` (per metric: from rung 0 and the two highest rungs that measured it) to
    a ladder table with columns KEY + rung, low, high, fair, threshold."""
    t = table.copy()
    t["direction"] = direction(t["low"], t["high"], t["fair"], t["threshold"])
    labels = {}
    for k, sub in t.groupby(KEY, sort=False):
        sub = sub.sort_values("rung")
        d = sub["direction"].tolist()
        if len(d) < 2 or int(sub["rung"].iloc[0]) != 0:
            labels[k] = None
            continue
        labels[k] = label(d[0], d[-2], d[-1])
    t["label"] = [labels[k] for k in zip(t["family"], t["players"], t["key"])]
    return t


def settled(table):
    """True for the rows whose interval settles the direction (not 'unsettled')."""
    return direction(table["low"], table["high"], table["fair"], table["threshold"]) != "unsettled"


__all__ = ["archetype", "rung_metrics", "effect_row", "direction", "label", "ladder_labels", "settled", "LABELS"]
