"""`sim bench --compare`: the regression check plays a recorded benchmark again beside the machine reference and
prints the table (what it prints, not how fast anything is); its verdict (sim.bench.judge) on synthetic figures."""

import json

import pytest

from sim.bench import FALL, QUIET_REFERENCE, judge, normalised
from sim.cli import main
from tests.test_cli import one_error_line


def _figures(tmp_path, name, one_thread, reference=None):
    rec = {"game": "toy_pig", "players": 2, "sim_games_per_s_1t": one_thread}
    if reference:
        rec["reference_mops"] = reference
    path = tmp_path / name
    path.write_text(json.dumps(rec))
    return str(path)


def test_compare_prints_the_table_and_the_fallen_game(tmp_path, capsys):
    # recorded at a speed no machine reaches (with a reference): the check must name the game as fallen
    fast = _figures(tmp_path, "fast.json", 10**12, reference=QUIET_REFERENCE)
    assert main(["bench", "--compare", fast, "--repeat", "1"]) in (0, None)
    out = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(out) if line.startswith("game"))
    assert "raw now" in out[head] and "norm. now" in out[head]
    rows = [line.split() for line in out[head + 1 :] if line.startswith("toy_pig")]
    assert len(rows) >= 1 and rows[0][2] == "1" and rows[0][3] == "1,000,000,000,000" and rows[0][-1] == "FELL"
    raw, reference, norm = int(rows[0][4].replace(",", "")), float(rows[0][5]), int(rows[0][7].replace(",", ""))
    then = int(rows[0][6].replace(",", ""))
    assert raw > 0 and reference > 0 and norm > 0 and then == round(normalised(10**12, QUIET_REFERENCE))
    assert rows[0][8] == f"{norm / then - 1:+.1%}"
    lo, hi = (float(x.rstrip("%")) for x in rows[0][9].replace("..", " ").split())
    assert -100 <= lo <= hi < -99  # every pass far below a record no machine reaches
    assert "fell by more than 10% in every pass: toy_pig" in out[-1] and "median of 1 passes" in out[-1]


def test_compare_without_a_recorded_reference_compares_raw(tmp_path, capsys):
    slow = _figures(tmp_path, "slow.json", 1)
    assert main(["bench", "--compare", slow, "--repeat", "1"]) in (0, None)
    out = capsys.readouterr().out.splitlines()
    row = next(line.split() for line in out if line.startswith("toy_pig"))
    assert row[6] == "-" and row[-1] != "FELL"
    assert "no game fell by more than 10% in every pass" in out[-1]


@pytest.mark.parametrize(
    "content, needle",
    [
        (None, "no such file"),
        ("{not json", "not a readable JSON file"),
        ('{"game": "toy_pig"}', "needs the keys game, players, sim_games_per_s_1t"),
        ('{"game": "nogame", "players": 2, "sim_games_per_s_1t": 5}', "unknown game"),
        ('{"game": "toy_pig", "players": 2, "sim_games_per_s_1t": -5}', "every games/s figure positive"),
    ],
)
def test_compare_bad_file_is_one_line(tmp_path, capsys, content, needle):
    path = tmp_path / "bench.json"
    if content is not None:
        path.write_text(content)
    one_error_line(capsys, ["bench", "--compare", str(path)], needle)


def test_compare_refuses_a_game_or_json_beside_it(tmp_path, capsys):
    path = _figures(tmp_path, "x.json", 5)
    one_error_line(capsys, ["bench", "toy_pig", "--compare", path], "give no game and no --json")


def test_judge_flags_a_fall_only_when_every_sample_is_below_the_bar():
    # recorded 1,000 games/s beside the quiet reference: its normalised figure is 1,000
    fallen = [(700.0, v) for v in (780.0, 800.0, 850.0, 880.0, 820.0)]  # all 12-22% below
    v = judge(fallen, 1000, QUIET_REFERENCE)
    assert v["fell"] and v["normalised"] == 820 and v["recorded_normalised"] == 1000
    assert v["change"] == pytest.approx(-0.18) and v["change_lo"] == pytest.approx(-0.22)
    assert v["change_hi"] == pytest.approx(-0.12) and v["raw"] == 700


def test_judge_does_not_flag_noise_inside_the_spread():
    # median 15% down, but one sample within the bar: noise, not a fall (the spread says how noisy)
    noisy = [(900.0, v) for v in (800.0, 850.0, 950.0, 820.0, 870.0)]
    v = judge(noisy, 1000, QUIET_REFERENCE)
    assert not v["fell"] and v["change"] == pytest.approx(-0.15)
    assert v["change_lo"] == pytest.approx(-0.20) and v["change_hi"] == pytest.approx(-0.05)
    # the bar is FALL: a sample exactly at it is not below it
    assert not judge([(1.0, 1000 * (1 - FALL))], 1000, QUIET_REFERENCE)["fell"]


def test_judge_normalises_the_record_by_its_own_reference():
    # recorded at half the quiet machine's speed: its 1,000 games/s read as 2,000 on the quiet machine
    v = judge([(1500.0, 1700.0)] * 3, 1000, QUIET_REFERENCE / 2)
    assert v["recorded_normalised"] == 2000 and v["change"] == pytest.approx(-0.15) and v["fell"]


def test_judge_without_a_recorded_reference_compares_raw():
    # normalised figures far below, raw ones at the record: compared raw, so no fall and no normalised record
    samples = [(r, 10.0) for r in (950.0, 1000.0, 1050.0)]
    v = judge(samples, 1000)
    assert v["recorded_normalised"] is None and not v["fell"] and v["change"] == pytest.approx(0.0)
    assert v["change_lo"] == pytest.approx(-0.05) and v["change_hi"] == pytest.approx(0.05)
    assert judge([(r, 1e9) for r in (800.0, 850.0)], 1000)["fell"]  # raw all below: fell, whatever normalised says
