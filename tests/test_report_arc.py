"""The report's Arc section: figures and a Fact from a run with the standings trace, equal to sim.analysis.arc's
numbers; a run without it says the exact command that adds it."""

import re
import shlex

import pytest

import sim.analysis as sa
from sim.analysis import arc
from sim.report import collect
from sim.report.build import render
from sim.report.arc import traced_command
from sim.runner import run_study


@pytest.fixture(scope="module")
def pig_runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("arc_runs")
    common = dict(games=400, players=(2, 3), seed=2, progress=False)
    return (
        run_study("toy_pig", base / "traced", standings=True, **common),
        run_study("toy_pig", base / "plain", command="sim run toy_pig --games 400 --players 2-3 --seed 2", **common),
    )


def arc_section(html):
    return re.search(r"<section id='arc'>(.*?)</section>", html, re.S).group(1)


def test_arc_section_matches_the_analysis(pig_runs):
    rep = collect(pig_runs[0], effects=False, robust=False)
    run = sa.load_run(pig_runs[0])
    arcs = arc.game_arcs(run.standings(), run.seats())
    lc = arc.lead_changes(arcs).set_index("players")
    cb = arc.comebacks(arcs).set_index("players")
    (f,) = [f for f in rep.findings if f.kind == "arc"]
    assert f.verdict == "info" and f.data["players"] == 3
    assert f.data["lead-changes"] == pytest.approx(lc.loc[3, "mean"])
    assert f.data["comebacks"] == pytest.approx(cb.loc[3, "rate"])
    assert f"{100 * cb.loc[3, 'rate']:.1f}%" in f.text
    html = arc_section(render(rep))
    assert html.count("<figure") == 2 and html.count("<figcaption>") == 2
    assert "lead changes" in html and "--standings" not in html


def test_a_run_without_the_trace_says_how_to_get_it(pig_runs):
    path = pig_runs[1]
    html = arc_section(render(collect(path, effects=False, robust=False)))
    assert "<figure" not in html
    cmd = re.search(r"<code>(sim run .*?)</code>", html).group(1)
    words = shlex.split(cmd.replace("&#x27;", "'"))
    assert words[:3] == ["sim", "run", "toy_pig"] and words[-1] == "--standings"
    assert words[words.index("--out") + 1] == str(path / "arc") and words[words.index("--games") + 1] == "400"


def test_a_traced_run_kept_beside_the_run_gives_its_arc(pig_runs):
    path = pig_runs[1]
    run_study("toy_pig", path / "arc", games=150, players=(2, 3), seed=2, progress=False, standings=True)
    rep = collect(path, effects=False, robust=False)
    html = arc_section(render(rep))
    assert html.count("<figure") == 2 and f"{path / 'arc'}" in html and "150 games per player count" in html
    (f,) = [f for f in rep.findings if f.kind == "arc"]
    assert f.data["players"] == 3 and "150 games" in f.evidence
    # a traced run of other rules is not taken for this run's arc
    run_study(
        "toy_pig",
        path / "arc",
        games=150,
        players=(2, 3),
        seed=2,
        progress=False,
        standings=True,
        params={"target": 30},
        overwrite=True,
    )
    html = arc_section(render(collect(path, effects=False, robust=False)))
    assert "<figure" not in html and "plays other rules" in html


def test_traced_command_rebuilt_from_the_manifest_without_a_command():
    man = {
        "game": "bang_dice",
        "players": [4, 5],
        "games_per_player_count": 100000,
        "seed": 7,
        "seating": {"lineup": ["a", "b"]},
        "params_changed": {"module.ghost": "on"},
        "command": "python x.py",
    }
    assert traced_command(man, "results/r") == (
        "sim run bang_dice --players 4,5 --lineup a,b --set module.ghost=on "
        "--out results/r/arc --games 20000 --seed 7 --standings"
    )
    man.update(
        games_per_player_count=5000,
        seed=1,
        command="/x/.venv/bin/sim run bang_dice --players 4-8 --games 5000 --seed 1 --overwrite --out r",
    )
    assert traced_command(man, "r") == "sim run bang_dice --players 4-8 --games 5000 --seed 1 --out r/arc --standings"
