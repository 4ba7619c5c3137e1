"""`sim readings` and rule presets: paired games per reading, verdicts, resumption, bad input."""

import pandas as pd
import pytest

from sim.cli import main
from sim.errors import UserError
from sim.game import get_game
from sim.presets import matching, preset_params, with_preset
from sim.study import Study
from sim.readings import alternatives, reading_params, run_readings, summarise


def test_presets():
    full = preset_params("bang_dice", "full")
    assert full["module.ghost"] == "on" and full["module.special_roles"] == "replace"
    assert with_preset("bang_dice", "full", {"module.ghost": "off"})["module.ghost"] == "off"
    with pytest.raises(UserError, match="Valid: base, full"):
        preset_params("bang_dice", "fulll")
    with pytest.raises(UserError, match="no variants"):
        preset_params("saloon_tycoon", "full")
    spec = get_game("bang_dice")
    vec = spec.params.resolve(full)
    assert matching("bang_dice", spec.params.describe(vec))[0] == "full"
    assert matching("bang_dice", spec.params.describe(spec.params.defaults()))[0] == "base"


def test_reading_parameters_and_alternatives():
    spec = get_game("cold_comfort")
    names = [p.name for p in reading_params(spec)]
    assert "score.block" in names and "build.resized_is_new" in names
    p = spec.params.params[spec.params.index("score.block")]
    assert alternatives(p) == ["count", "highest_die"]
    bang = [p.name for p in reading_params(get_game("bang_dice"))]
    assert "rule.vera_reduction_per" in bang
    assert "rule.ghost_turns" not in bang  # a single choice has no alternative


def test_paired_games_and_verdicts(tmp_path):
    """At 5 players the 3-player-only reading cannot change any game: with common random numbers every paired
    difference is exactly 0; a reading that does change play gives non-zero differences on the same seeds."""
    out = tmp_path / "r"
    study = Study("bang_dice", 5, games=300, seed=3, preset="full", out=out, progress=False)
    only = ["rule.three_player_indian_kill_counts", "rule.dynamite_resolves_rest"]
    s = run_readings(study, only=only)
    three = s[s["param"] == "rule.three_player_indian_kill_counts"]
    # never tested, not "does not matter": no paired game played out differently
    assert (three["diff"] == 0).all() and (three["changed"] == 0).all()
    assert (three["verdict"] == "not exercised").all()
    dyn = s[s["param"] == "rule.dynamite_resolves_rest"]
    assert (dyn["diff"].abs() > 0).any() and (dyn["changed"] > 0.01).all()
    assert (s["provenance"] == "supported").all()
    assert set(s["family"]) == {"turn order", "strategy", "side", "length"}
    # resumed: the same folder gives the same table without replaying
    before = pd.read_parquet(out / "summary.parquet")
    again = run_readings(study, only=only)
    pd.testing.assert_frame_equal(before.reset_index(drop=True), again.reset_index(drop=True))
    pd.testing.assert_frame_equal(summarise(out).reset_index(drop=True), again.reset_index(drop=True))


def _row(**kw):
    base = dict(
        param="rule.x",
        value="b",
        default="a",
        key="rule.x=b",
        doc="",
        family="turn order",
        metric="order0",
        games=1000,
        diff=0.001,
        low=-0.004,
        high=0.006,
        p=0.5,
        p_holm=1.0,
        threshold=0.02,
        capped_default=0.0,
        capped_alt=0.0,
        changed=0.2,
        provenance="supported",
        effect=0.05,
    )
    return {**base, **kw}


def test_rare_and_not_exercised_are_not_does_not_matter():
    from types import SimpleNamespace

    from sim.readings import _verdict

    v = lambda **kw: _verdict(SimpleNamespace(**_row(**kw)))  # noqa: E731
    assert v() == "does not matter"
    assert v(changed=0.004) == "rare"  # 0.4% of the paired games played out differently
    assert v(changed=0.0, diff=0.0, low=0.0, high=0.0) == "not exercised"
    assert v(changed=0.004, p_holm=0.001, diff=0.03, low=0.021, high=0.04) == "matters"  # real stays real
    assert v(changed=0.3, low=-0.03, high=0.035) == "unclear"


def test_alternatives_that_contradict_the_rulebook_are_shown_apart():
    """Raccoon Tycoon: 'they may perform any action, including another auction' -- a cap of one auction a turn
    contradicts it; Gunny Town's once-per-duel Sheriff's penalty, the literal reading, is the default, and its
    per-round alternative a rulebook-supported reading."""
    from sim.readings import per_reading, provenance, table_lines

    rt = get_game("raccoon_tycoon")
    cap = rt.params.params[rt.params.index("rule.auctions_per_turn")]
    assert provenance(cap, "1")[0] == "contradicts" and "another auction" in provenance(cap, "1")[1]
    gt = get_game("gunny_town")
    pen = gt.params.params[gt.params.index("rule.sheriff_penalty")]
    assert pen.choices[int(gt.params.defaults()[gt.params.index("rule.sheriff_penalty")])] == "per_duel"
    assert provenance(pen, "per_round")[0] == "supported"
    summary = pd.DataFrame(
        [
            _row(
                param="rule.auctions_per_turn",
                value="1",
                key="k1",
                provenance="contradicts",
                p_holm=1e-9,
                diff=0.08,
                low=0.07,
                high=0.09,
                effect=4.0,
                verdict="matters",
            ),
            _row(param="rule.y", value="on", key="k2", verdict="does not matter"),
            _row(param="rule.z", value="on", key="k3", changed=0.001, verdict="rare"),
        ]
    )
    pr = per_reading(summary)
    assert list(pr["param"]) == ["rule.z", "rule.y", "rule.auctions_per_turn"]  # rare first; the sensitivity check last
    lines = table_lines(summary)
    head = [k for k, line in enumerate(lines) if line.startswith("sensitivity checks")]
    assert len(head) == 1 and "rule.auctions_per_turn" in lines[head[0] + 1]
    assert "contradicts the rulebook" in lines[head[0] + 1] and "    0.1%" in lines[1]


def _one_error(capsys, argv, *needles):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    for n in needles:
        assert n in err[0], err[0]


def test_bad_input(tmp_path, capsys):
    _one_error(capsys, ["readings", "bang_dice", "--players", "4-5", "--out", str(tmp_path / "a")], "one player count")
    _one_error(
        capsys,
        ["readings", "bang_dice", "--players", "5", "--only", "module.ghost", "--out", str(tmp_path / "b")],
        "not a reading parameter",
    )
    _one_error(capsys, ["run", "bang_dice", "--preset", "nope", "--out", str(tmp_path / "c")], "unknown preset")


def test_report_names_the_preset_compares_and_shows_readings(tmp_path):
    from sim.report import build_report
    from sim.runner import run_study

    run = tmp_path / "run"
    run_study("bang_dice", run, games=400, players=(5,), params=preset_params("bang_dice", "full"), progress=False)
    run_study("bang_dice", run / "compare" / "base", games=400, players=(5,), seed=1, progress=False)
    study = Study("bang_dice", 5, games=200, preset="full", out=run / "readings", progress=False)
    run_readings(study, only=["rule.dynamite_resolves_rest"])
    html = build_report(run, out=tmp_path / "r.html")[0].read_text()
    head = html[html.index("<header>") : html.index("<section id='findings'>")]
    assert "Rules studied" in head and "all five modules" in head
    assert "The game as published against its base game" in html and "renegade" in html
    assert "Rulebook ambiguities that change the balance (5 players)" in html
    assert "rule.dynamite_resolves_rest" in html


def test_gunny_report_shows_both_ammunition_readings_at_6(tmp_path, monkeypatch):
    import sim.report.readings as R
    from sim.report import build_report
    from sim.runner import run_study

    monkeypatch.setattr(R, "AUTO_GAMES", 60)
    run = tmp_path / "run"
    run_study("gunny_town", run, games=60, players=(4, 6), progress=False)
    html = build_report(run, out=tmp_path / "r.html")[0].read_text()
    assert (run / "readings_setup.start_ammo_6p" / "summary.parquet").exists()
    assert not (run / "readings_setup.start_ammo_4p").exists()
    assert "setup.start_ammo" in html and "(6 players)" in html


def test_sweep_preset_leaves_swept_parameters_out(capsys):
    argv = [
        "sweep",
        "bang_dice",
        "--players",
        "5",
        "--grid",
        "module.ghost=off,on",
        "--preset",
        "full",
        "--games",
        "10",
        "--dry-run",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "module.chief_arrow=on" in out and "module.ghost=on," not in out.split("config=")[0]


def test_alternative_that_stops_games_at_a_cap_is_flagged(tmp_path):
    """Cold Comfort's grow.trigger_rule=exactly never starts the scoring rounds: every game ends at the turn cap, and
    the table says so rather than reporting a plain change."""
    from sim.readings import per_reading, table_lines

    study = Study("cold_comfort", 4, games=40, seed=2, out=tmp_path / "cc", progress=False)
    s = run_readings(study, only=["grow.trigger_rule"])
    pr = per_reading(s)
    assert pr["capped_alt"].iloc[0] > 0.9 and pr["capped_default"].iloc[0] == 0
    assert "[!]" in "\n".join(table_lines(s))
