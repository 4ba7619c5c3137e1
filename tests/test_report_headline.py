"""The report's first screen (sim.report.headline): at most five findings, ranked by verdict, size against the
section's threshold and certainty; restated roles, recorded results and the bots' habits never headlined; findings
whose verdict changes with the players listed apart. And the page itself: valid HTML under html5lib's strict
parser, with `<` escaped in the text."""

import html5lib
import pytest

from sim.report.headline import SKILL_LABELS, headline, size_pp
from sim.report.model import Finding


def f(verdict, kind="seat", name="x", **data):
    return Finding(verdict, f"{name}.", "", kind, "sec", {"name": name, **data})


def seat(verdict, name, excess_pp, p=1e-6, **data):
    return f(verdict, "seat", name, rate=0.25 + excess_pp / 100, fair=0.25, **{"p-adj": p}, **data)


CONFIRMED_LOSS = {"effect-holder-pp": -6.0, "effect-holder-low-pp": -8.0, "effect-holder-high-pp": -4.0}


def test_ranked_by_verdict_then_size_over_threshold_then_certainty():
    found = [
        seat("amber", "modest-big", 9.0),
        seat("red", "seat-4", 4.0),  # 2 thresholds (2 points each)
        f("red", "item", "item-8", effect_pp=-8.0, **{"p-adj": 1e-9}, **CONFIRMED_LOSS),  # 1.6 thresholds (5 points)
        seat("red", "seat-4-less-sure", 4.0, p=1e-3),
        seat("green", "fair", 0.1),
        seat("grey", "unclear", 3.0),
        seat("negligible", "tiny", 0.5),
    ]
    top, depends = headline(found)
    assert [x.data["name"] for x in top] == ["seat-4", "seat-4-less-sure", "item-8", "modest-big"]
    assert depends == []
    assert size_pp(found[2]) == 8.0 and size_pp(found[1]) == pytest.approx(4.0)


def test_at_most_five_and_what_is_never_headlined():
    found = [seat("red", f"s{k}", 10 - k) for k in range(7)]
    found += [
        seat("red", "sheriff", 30.0, restates="role"),  # BANG: position 1 is the Sheriff
        f("red", "item", "hood", effect_pp=-27.0, item_kind="neighbourhood", **CONFIRMED_LOSS),  # Cold Comfort
        f("red", "strategy", "bot", rate=0.5, fair=0.25),
        f("amber", "bot_health", "regret"),
    ]
    top, _ = headline(found, outcome_kinds=("neighbourhood",))
    assert [x.data["name"] for x in top] == ["s0", "s1", "s2", "s3", "s4"]
    top, _ = headline(found)  # a game that declares no outcome kind: the item counts
    assert top[0].data["name"] == "hood"


def test_an_item_association_is_headlined_only_when_its_causal_effect_confirms_it():
    found = [
        f("red", "item", "unmeasured", effect_pp=-9.0),
        f("red", "item", "contradicted", effect_pp=-9.0, **{**CONFIRMED_LOSS, "effect-holder-high-pp": 1.5}),
        f("red", "item", "opposite", effect_pp=9.0, **CONFIRMED_LOSS),  # held by winners, costs its holder
        f("amber", "item", "confirmed", effect_pp=-6.0, **CONFIRMED_LOSS),
    ]
    top, depends = headline(found)
    assert [x.data["name"] for x in top] == ["confirmed"] and depends == []


def test_skill_labels_route_to_the_depends_table():
    found = [
        seat("red", "holds", 5.0, skill="holds"),
        seat("red", "changes", 9.0, skill="changes"),
        seat("amber", "unsettled", 6.0, skill="unsettled"),
        seat("red", "bots", 7.0, robust="depends"),  # the report's own second population
        seat("green", "fair-changes", 0.1, skill="changes"),  # not Strong or Modest: in neither list
    ]
    top, depends = headline(found)
    assert [x.data["name"] for x in top] == ["holds"]
    assert [(x.data["name"], lab) for x, lab in depends] == [
        ("changes", SKILL_LABELS["changes"]),
        ("bots", "depends on the bots"),
        ("unsettled", SKILL_LABELS["unsettled"]),
    ]
    with pytest.raises(ValueError, match="skill label 'maybe'"):
        headline([seat("red", "bad", 5.0, skill="maybe")])


@pytest.fixture(scope="module")
def toy_report(tmp_path_factory):
    from sim.report import build_report
    from sim.runner import run_study

    base = tmp_path_factory.mktemp("headline")
    run = run_study("toy_pig", base / "run", games=3000, players=(2, 3), seed=3, progress=False)
    return build_report(run, base / "report.html", robust=False)[0].read_text(encoding="utf-8")


def test_the_page_is_valid_html_and_opens_with_its_first_screen(toy_report):
    html5lib.HTMLParser(strict=True).parse(toy_report)  # raises on any parse error (an unescaped '<' is one)
    assert toy_report.index("id='first'") < toy_report.index("id='findings'") < toy_report.index("id='reading'")
    first = toy_report[toy_report.index("id='first'") : toy_report.index("id='findings'")]
    assert first.count("<li ") <= 5
    with pytest.raises(html5lib.html5parser.ParseError):  # the check can fail
        html5lib.HTMLParser(strict=True).parse(toy_report.replace("adjusted p", "adjusted p < 1e-300 <", 1))
    assert "adjusted p < " not in toy_report  # escaped where it occurs: 'adjusted p &lt; 1e-300'
