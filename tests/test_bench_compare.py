"""`sim bench --compare`: the regression check plays a recorded benchmark again beside the machine reference and
prints the table (what it prints, not how fast anything is)."""

import json

import pytest

from sim.bench import QUIET_REFERENCE, normalised
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
    assert "fell by more than 10%: toy_pig" in out[-1]


def test_compare_without_a_recorded_reference_compares_raw(tmp_path, capsys):
    slow = _figures(tmp_path, "slow.json", 1)
    assert main(["bench", "--compare", slow, "--repeat", "1"]) in (0, None)
    out = capsys.readouterr().out.splitlines()
    row = next(line.split() for line in out if line.startswith("toy_pig"))
    assert row[6] == "-" and row[-1] != "FELL"
    assert "no game fell by more than 10%" in out[-1]


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
