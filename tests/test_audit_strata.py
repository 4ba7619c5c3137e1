"""sim audit's stratified sampling and its table by better action (issue 36), on the template game."""

import numpy as np
import pytest

from sim.audit import run_audit, stratified_rates
from sim.study import Study


def test_stratified_rates_give_rare_kinds_their_share():
    # 40 common decisions and 1 rare a game, 3 samples a game: the rare kind is always sampled, the common one
    # gets the other 2; a kind the pilot never saw is sampled at rate 1; few decisions: all at rate 1
    r = stratified_rates([40.0, 1.0, 0.0], 3.0)
    assert r[1] == 1.0 and r[2] == 1.0 and r[0] == pytest.approx(2.0 / 40.0, rel=1e-6)
    assert np.all(stratified_rates([0.5, 1.0], 3.0) == 1.0)
    both = stratified_rates([10.0, 20.0], 4.0)  # neither kind runs out: two samples each
    assert both * np.array([10.0, 20.0]) == pytest.approx([2.0, 2.0], rel=1e-6)


@pytest.mark.slow
def test_audit_flags_a_defect_in_a_kind_that_arises_about_once_a_game(tmp_path):
    # slipper holds only to win (once a game) but at the start of a turn holds at once with chance 0.2 (a
    # wasted turn): HOLD is about 7% of its decisions. Stratified, the audit samples HOLD as often as ROLL and
    # flags it; uniform sampling of the same budget gives HOLD a handful of samples.
    study = Study("toy_pig", 2, seed=1, progress=False)
    strat, text, out = run_audit(study.replace(out=tmp_path / "s"), "slipper", decisions=300, rollouts=16)
    uni, _, _ = run_audit(study.replace(out=tmp_path / "u"), "slipper", decisions=300, rollouts=16, sampling="uniform")
    s, u = strat.set_index("kind"), uni.set_index("kind")
    assert s.loc["HOLD", "flagged"] and not s.loc["ROLL", "flagged"]
    assert s.loc["HOLD", "decisions"] > 4 * u.loc["HOLD", "decisions"]
    # the weights keep the kinds' shares of all decisions: HOLD is rare however often it was sampled
    assert s.loc["HOLD", "share"] < 0.15 and s.loc["HOLD", "decisions"] > 100
    assert "by the kind of the better action" in text and (out / "by_better.parquet").exists()


@pytest.mark.slow
def test_by_better_action_table_shows_a_move_the_bot_never_makes(tmp_path):
    # never_hold never holds: no HOLD row by chosen action, but holding is often the better move (played out by
    # hold20), so the table by better action has a HOLD row, with decisions where holding was significantly better
    import pandas as pd

    study = Study("toy_pig", 2, seed=2, progress=False, out=tmp_path / "n", params={"turn_cap": 30})
    summary, _, out = run_audit(study, "never_hold", decisions=120, rollouts=16, rollout="hold20")
    assert "HOLD" not in set(summary["kind"])
    better = pd.read_parquet(out / "by_better.parquet").set_index("kind")
    assert better.loc["HOLD", "decisions"] >= 10 and better.loc["HOLD", "worse"] >= 1
    assert better.loc["HOLD", "worst_regret"] > 0.2


def test_audit_rolls_out_with_the_audited_preset_by_default(tmp_path):
    import json

    run_audit(Study("toy_pig", 2, progress=False, out=tmp_path / "a"), "hold10", decisions=8, rollouts=4)
    assert json.loads((tmp_path / "a" / "manifest.json").read_text())["request"]["rollout_policy"] == "hold10"
