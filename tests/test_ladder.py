"""`sim ladder`: a run's headline findings measured again with stronger players, and the report's labels.

The test game (Pig) is set up with a planted rule advantage and a planted bot habit:
- rule: a short race (target 20) and the joker card (its holder wins at once with chance 0.2): the first player
  and the joker's holder win more whoever plays, so the ladder must find both on every rung and label them
  *holds as players get stronger*, and the report must keep them headlined;
- habit: the `planted` preset (skill 0.2) banks its turn at once about half the time, throwing its turns away;
  its shipped tuned version (planted_tuned, skill 0.70) plays the same line well.  "planted is clearly outclassed"
  is a verdict on the bot, not the game: the ladder follows the archetype planted -> planted_tuned ->
  search@planted_tuned and must label it *changes with skill*, and the report must not headline it.
"""

import json
import shutil

import numpy as np
import pandas as pd
import pytest

from sim import ladder as L
from sim.analysis.ladder import archetype, direction, label
from sim.cli import main
from sim.errors import UserError
from sim.runner import run_study
from sim.study import Study

PARAMS = {"target": "20", "card.joker.chance": "0.2"}
BUDGET = {"search_games": 1000, "max_batches": 3, "effect_games": 1000}
STUDY = Study("toy_pig", games=1500, progress=False)


def _run(path):
    return run_study(
        "toy_pig", path, games=3000, players=(3,), lineup=["hold20", "hold10", "planted"], seed=1, params=PARAMS,
        progress=False,
    )  # fmt: skip


@pytest.fixture(scope="module")
def laddered(tmp_path_factory):
    run = _run(tmp_path_factory.mktemp("ladder") / "run")
    summary = L.run_ladder(run, STUDY.replace(threads=1), **BUDGET)
    return run, summary


def _metric(summary, family, players, key):
    s = summary[(summary["family"] == family) & (summary["players"] == players) & (summary["key"] == key)]
    return s.sort_values("rung")


def test_rungs_of_the_default_ladder(laddered):
    run, summary = laddered
    rungs = summary.drop_duplicates("rung").sort_values("rung")
    assert rungs["rung_name"].tolist() == ["run", "tuned", "search", "search64"]
    assert rungs["lineup"].tolist()[1:] == [
        "hold20,hold10,planted_tuned",
        "search@hold20,search@hold10,search@planted_tuned",
        "search64@hold20,search64@hold10,search64@planted_tuned",
    ]
    state = json.loads((run / "ladder" / "ladder.json").read_text())
    assert state["status"] == "complete"
    assert set(state["rungs"]) == {"1-tuned", "2-search", "3-search64"}
    # every rung is a normal results folder per batch, played with the run's rules
    man = json.loads((run / "ladder" / "2-search" / "batch-000" / "manifest.json").read_text())
    assert str(man["params_changed"]["target"]) == "20" and man["status"] == "complete"
    # a search batch is written in chunks, so it shows progress and an interruption keeps its finished games
    assert man["n_chunks"] == L.SEARCH_CHUNKS and len(man["chunks"]) == L.SEARCH_CHUNKS


def test_planted_rule_advantage_holds_on_every_rung_and_is_headlined(laddered):
    run, summary = laddered
    first = _metric(summary, "seat", 3, "0")
    assert (first["direction"] == "above").all(), first
    assert set(first["label"]) == {"holds"}
    joker = _metric(summary, "item", 3, "joker")
    assert len(joker) == 4 and (joker["direction"] == "above").all(), joker
    assert set(joker["label"]) == {"holds"}
    from sim.report.build import collect

    rep = collect(run)
    seat = [f for f in rep.findings if f.kind == "seat" and f.data["position"] == 0]
    assert seat and seat[0].verdict == "red" and seat[0].data["ladder"] == "holds"
    assert "holds as players get stronger" in seat[0].text


def test_planted_bot_habit_changes_with_skill_and_is_not_headlined(laddered):
    run, summary = laddered
    planted = _metric(summary, "strategy", 0, "planted")
    assert planted["direction"].tolist()[0] == "below"  # the hand-written bot throws its turns away
    assert set(planted["direction"].tolist()[1:]) <= {"above", "balanced"}  # better players of the same line do not
    assert set(planted["label"]) == {"changes"}
    from sim.report.build import collect, render

    rep = collect(run)
    assert not [f for f in rep.findings if f.kind == "strategy" and f.data["strategy"] == "planted"]
    moved = rep.tables["ladder_depends"]
    assert [(f.kind, f.data["strategy"], f.verdict) for f in moved] == [("strategy", "planted", "red")]
    page = render(rep)
    assert "Depends on the players" in page and "changes with skill" in page
    first = page[page.index("id='first'") : page.index("id='findings'")]
    assert "Depends on the players" not in first  # a finding about the bots is not listed with the rules
    assert page.count("<figure") >= 3  # a chart per family: seats, strategies, items


def test_same_ladder_for_any_thread_count_and_after_an_interruption(laddered, tmp_path, monkeypatch):
    _, summary = laddered
    run = _run(tmp_path / "run")
    import sim.runner

    real, calls = sim.runner.run_study, []

    def interrupted(*a, **k):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(sim.runner, "run_study", interrupted)
    with pytest.raises(KeyboardInterrupt):
        L.run_ladder(run, STUDY.replace(threads=2), **BUDGET)
    assert json.loads((run / "ladder" / "ladder.json").read_text())["status"] == "running"
    monkeypatch.setattr(sim.runner, "run_study", real)
    again = L.run_ladder(run, STUDY.replace(threads=2), **BUDGET)
    pd.testing.assert_frame_equal(again, summary)


def test_labels_from_the_two_strongest_rungs():
    assert label("above", "above", "above") == "holds"
    assert label("balanced", "balanced", "balanced") == "holds"
    assert label("above", "balanced", "above") == "changes"
    assert label("below", "above", "above") == "changes"
    assert label("above", "above", "unsettled") == "unsettled"
    assert direction(0.30, 0.34, 0.25, 0.02) == "above"
    assert direction(0.24, 0.26, 0.25, 0.02) == "balanced"
    assert direction(0.20, 0.30, 0.25, 0.02) == "unsettled"
    assert archetype("search64@rail_baron_tuned") == "rail_baron" and archetype("search") == "search"
    assert [L._search_over("search64", n) for n in ("a", "random", "search@b", "search")] == [
        "search64@a",
        "search64",
        "search64@b",
        "search64",
    ]


def test_report_without_a_ladder_says_how_to_add_it(tmp_path):
    run = run_study("toy_pig", tmp_path / "run", games=500, players=(3,), seed=1, progress=False)
    from sim.report.build import collect, render

    page = render(collect(run, robust=False))
    assert "Do these findings hold with stronger players?" in page and f"sim ladder {run}" in page


def test_plan_bad_input_and_rungs_added_on_top(laddered, tmp_path, capsys):
    run, summary = laddered
    copy = tmp_path / "run"
    shutil.copytree(run, copy, ignore=shutil.ignore_patterns("ladder", "effects"))
    assert main(["ladder", str(copy), "--plan", "--players", "3", "--plan-games", "2", "--rungs", "tuned;search"]) == 0
    out = capsys.readouterr().out
    assert "1-tuned" in out and "2-search" in out and "s/game" in out
    assert main(["ladder", str(tmp_path / "nothing")]) == 2
    assert "is not a run folder" in capsys.readouterr().err
    assert main(["ladder", str(copy), "--rungs", "tuned;nosuchbot,hold20"]) == 2
    err = capsys.readouterr().err
    assert "nosuchbot" in err and len(err.strip().splitlines()) == 1
    assert main(["ladder", str(copy), "--players", "4"]) == 2
    assert "no such player count (it has 3)" in capsys.readouterr().err
    assert not (copy / "ladder").exists()  # nothing half-written
    # a rung added on top keeps every batch already played: the lower rungs read the same
    full = tmp_path / "full"
    shutil.copytree(run, full)
    more = L.run_ladder(full, STUDY, rungs=["tuned", "search", "search64", "search128"], **BUDGET)
    old = more[more["rung"] <= 3].drop(columns=["label", "direction", "headline"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(old, summary.drop(columns=["label", "direction", "headline"]))
    assert json.loads((full / "ladder" / "ladder.json").read_text())["rungs"]["1-tuned"]["batches"] == 1
    with pytest.raises(UserError, match="nosuchbot"):
        L.run_ladder(full, STUDY, rungs=["nosuchbot"], **BUDGET)


def test_a_field_rung_draws_every_seat_of_a_mirror_run_and_the_search_above_it_uses_the_default_policy(tmp_path):
    """A field rung (`field` or `field:<file>`) is a line-up the seating code expands, not a strategy name; it draws
    every seat, so a run seated with --mirror plays it without mirroring; a search rung above it rolls out with the
    game's default policy (a field has no one preset per seat)."""
    from tests.test_field import _field_file

    run = run_study(
        "toy_pig", tmp_path / "run", games=300, players=(3,), lineup=["hold20", "hold10", "planted"], mirror=True,
        seed=1, progress=False,
    )  # fmt: skip
    f = _field_file(tmp_path / "f.json", {"hold20": 0.6, "hold10": 0.4})
    rungs = L.resolve_rungs(STUDY.spec, json.loads((run / "manifest.json").read_text()), [f"field:{f}", "search4"])
    assert [r.lineup for r in rungs[1:]] == [(f"field:{f}",), ("search4",)]
    L.run_ladder(run, STUDY.replace(threads=1), rungs=[f"field:{f}"], max_batches=1, effect_games=0)
    batch = next((run / "ladder").glob("1-field*/batch-000"))
    assert json.loads((batch / "manifest.json").read_text())["seating"]["mode"] == "field"
    assert set(pd.read_parquet(batch / "seats")["strategy"].astype(str)) == {"hold20", "hold10"}


def test_summary_table_says_too_few_games_instead_of_an_empty_interval():
    rows = [
        dict(family="item", players=4, key="gatling", rung=0, rung_name="run", value=0.19, low=0.13, high=0.26),
        dict(
            family="item", players=4, key="gatling", rung=1, rung_name="search", value=np.nan, low=np.nan, high=np.nan
        ),
        dict(family="seat", players=4, key="0", rung=0, rung_name="run", value=0.287, low=0.281, high=0.294),
        dict(family="seat", players=4, key="0", rung=1, rung_name="search", value=0.5, low=-3.0, high=4.0),
    ]
    t = L.summary_table(pd.DataFrame(rows).assign(headline=True, label="unsettled"))
    assert t["0: run"].tolist() == ["+19.0 (13.0\u201326.0)", "28.7% (28.1\u201329.4)"]
    assert t["1: search"].tolist() == ["too few games", "too few games"]
    assert t["label"].tolist() == ["unsettled", "unsettled"]
