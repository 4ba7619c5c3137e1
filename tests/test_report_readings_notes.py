"""Findings that depend on an ambiguous rule reading say which (sim.report.readings.note_dependence), from a
hand-built readings summary whose dependences are known."""

import pandas as pd

from sim.report.build import Finding
from sim.report.readings import note_dependence

COLUMNS = ["key", "param", "value", "default", "family", "metric", "diff", "low", "high", "verdict", "effect"]
SUMMARY = pd.DataFrame(
    [
        ("rule.a=on", "rule.a", "on", "off", "turn order", "order0", 0.04, 0.02, 0.06, "matters", 2.0),
        ("rule.a=on", "rule.a", "on", "off", "turn order", "order1", -0.001, -0.01, 0.008, "does not matter", 0.05),
        ("rule.b=x", "rule.b", "x", "y", "side", "side:law", -0.08, -0.1, -0.06, "matters", 1.6),
        ("rule.b=x", "rule.b", "x", "y", "turn order", "order1", 0.002, -0.01, 0.014, "does not matter", 0.1),
        (
            "rule.jesse_once=off",
            "rule.jesse_once",
            "off",
            "on",
            "turn order",
            "order0",
            0.001,
            -0.01,
            0.012,
            "does not matter",
            0.05,
        ),
        (
            "rule.jesse_once=off",
            "rule.jesse_once",
            "off",
            "on",
            "length",
            "rounds",
            0.5,
            0.3,
            0.7,
            "real but small",
            0.4,
        ),
    ],
    columns=COLUMNS,
)


def finding(kind, **data):
    return Finding("amber", "text.", "evidence.", kind, "x", data)


def test_each_finding_names_the_readings_that_move_it():
    seat0, seat1 = finding("seat", players=5, position=0), finding("seat", players=5, position=1)
    other_count = finding("seat", players=4, position=0)
    side, jesse, jack = (
        finding("side", players=5, side="law"),
        finding("item", item="JESSE_JONES"),
        finding("item", item="BLACK_JACK"),
    )
    strategy = finding("strategy", strategy="a")
    note_dependence([seat0, seat1, other_count, side, jesse, jack, strategy], SUMMARY, 5, "#readings-r")
    assert (
        "depends on <code>rule.a</code> read as 'on' instead of 'off': order0 +4.0 pts (+2.0 to +6.0)" in seat0.evidence
        and "rule.b" not in seat0.evidence
        and seat0.data["readings"] == "rule.a"
    )
    assert "none of the 2 ambiguous readings studied moves this position's win share" in seat1.evidence
    assert seat1.data.get("readings") is None
    assert "depends on <code>rule.b</code>" in side.evidence and "side:law -8.0 pts" in side.evidence
    assert "depends on <code>rule.jesse_once</code>" in jesse.evidence and "rounds +0.5 rounds" in jesse.evidence
    for f in (other_count, jack, strategy):
        assert f.evidence == "evidence." and "readings" not in f.data


def test_a_rule_about_an_item_that_moves_nothing_is_said_so():
    quiet = SUMMARY.assign(verdict="does not matter")
    jesse = finding("item", item="character:JESSE_JONES")
    note_dependence([jesse], quiet, 5, "#readings-r")
    assert "a rule about it, studied, moves nothing measured: <code>rule.jesse_once</code>" in jesse.evidence
    assert jesse.data["readings"] == "none"
