"""sim improve (issue 36): expert iteration on the template game's planted bot."""

import json

import pytest

from sim.errors import UserError
from sim.improve import improve


@pytest.mark.slow
def test_expert_iteration_recovers_the_planted_best_knob_value_and_resumes(tmp_path, monkeypatch):
    # planted plays well with chance 1 - ((skill - 0.7) / 0.7)^2: skill 0.7 is best; it starts at 0.2
    kw = dict(iterations=1, positions=150, rollouts=8, evals=40, games_per_eval=600, final_games=2000)
    kw.update(search_rollouts=4, search_games=40, seed=3, work=tmp_path / "w", out_file=tmp_path / "p.toml")
    log, out = improve("toy_pig", "planted", 2, progress=False, **kw)
    (entry,) = log
    assert float(entry["knobs"]["skill"]) == pytest.approx(0.7, abs=0.12)
    assert entry["gain_over_previous_low"] > 0  # the improved preset beats the start on fresh seeds
    assert entry["agreement_after"] > entry["agreement_before"]
    assert entry["audit_mean_regret"] > 0  # the start's decisions are worse than search's
    text = out.read_text()
    assert "command" in text and "iteration = 1" in text and "skill" in text
    # resume: a finished iteration is read back, not played again
    import sim.improve as mod

    monkeypatch.setattr(mod, "Positions", lambda *a, **k: (_ for _ in ()).throw(AssertionError("replayed")))
    again, _ = improve("toy_pig", "planted", 2, progress=False, **kw)
    assert again == log
    assert json.loads((tmp_path / "w" / "log.json").read_text()) == log


def test_improve_refuses_a_preset_without_knobs(tmp_path):
    with pytest.raises(UserError, match="no knobs"):
        improve("toy_pig", "random", 2, work=tmp_path / "w", out_file=tmp_path / "p.toml", progress=False)


def test_cost_command_measures_the_rates_and_scales_them_by_the_budgets():
    from sim.cost import cost, report_lines

    c = cost("toy_pig", 3, games=400)
    assert c["games_per_second_1_thread"] > 0 and c["rollouts_per_second_1_thread"] > 0
    # 3 seats over the 3 presets of the default line-up: 10 line-ups
    assert c["field"]["line_ups"] == 10 and c["field"]["games"] > 10 * c["field"]["budget"]["games"]
    assert c["field"]["cpu_hours"] == pytest.approx(c["field"]["games"] / c["games_per_second_1_thread"] / 3600)
    assert c["improve"]["cpu_hours"] > 0 and "CPU hours" in report_lines(c)[1]
