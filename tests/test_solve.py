"""The balance-point finder: synthetic noisy problems with known roots (coverage of the interval, bracketing,
whole-number parameters, no bracket, a flat metric), then the toy game through the API and the command line."""

import json
import math

import numpy as np
import pytest

from sim.cli import main
from sim.errors import UserError
from sim.game import get_game
from sim.solve import GameMetric, find_root, solve_game


def noisy_share(root, seed, scale=2.0, sign=1.0):
    """A win-share-like metric 0.5 + 0.3 tanh((x - root) / scale), estimated from n binomial games; the games of
    each (x, stage) come from their own generator and more games extend the earlier ones."""
    played = {}

    def evaluate(x, n, stage=0):
        p = 0.5 + sign * 0.3 * math.tanh((x - root) / scale)
        key = (float(x), stage)
        if key not in played:
            played[key] = [np.random.default_rng([seed, stage, int(np.float64(x).view(np.uint64))]), 0, 0]
        rng, have, wins = played[key]
        if n > have:
            wins += int(rng.binomial(n - have, p))
            played[key] = [rng, n, wins]
        n = max(n, have)
        est = played[key][2] / n
        return est, max(est * (1 - est), 1 / n) / n, n

    return evaluate


def test_interval_covers_a_known_root():
    hits, errors, widths = 0, [], []
    for seed in range(40):
        r = find_root(noisy_share(3.7, seed), 0, 10, 0.5, games=500, max_games=60_000)
        hits += r.low <= 3.7 <= r.high
        errors.append(r.value - 3.7)
        widths.append(r.high - r.low)
        assert r.games <= 60_000 and r.bounded
    assert hits >= 34, hits  # nominal 95%: 38 expected of 40
    assert abs(np.mean(errors)) < 0.03 and np.std(errors) < 0.06
    assert max(widths) < 0.5


def test_decreasing_metric_and_bracket_expansion():
    # falls with x, root beyond the given range: the range is stepped outwards within the limits
    r = find_root(noisy_share(9.3, 1, scale=6, sign=-1), 0, 3, 0.5, games=2000, max_games=60_000, limits=(0, 100))
    assert r.low <= 9.3 <= r.high and abs(r.value - 9.3) < 0.5
    assert r.bracket[0] >= 3 and r.bracket[1] > 9  # found beyond the range it was given


def test_whole_number_parameter():
    r = find_root(noisy_share(6.5, 3), 0, 10, 0.5, games=500, max_games=60_000, integer=True)
    assert all(float(e.x).is_integer() for e in r.evaluations)
    assert r.bracket == (6.0, 7.0)
    assert r.low <= 6.5 <= r.high and 6 <= r.value <= 7


def test_no_bracket_is_a_clear_error():
    with pytest.raises(UserError, match=r"no balance point found: the metric is .* same side of the target 0.5"):
        find_root(noisy_share(50, 1), 0, 4, 0.5, games=500, max_games=20_000, limits=(0, 20))
    with pytest.raises(UserError, match="low < high"):
        find_root(noisy_share(5, 1), 4, 4, 0.5)


def test_flat_metric_is_not_given_a_false_interval():
    def flat(x, n, stage=0):
        return 0.5, 0.25 / n, n

    r = find_root(flat, 0, 10, 0.5, games=500, max_games=20_000)
    assert not r.bounded and math.isnan(r.low) and "slope is not resolved" in r.note


def test_toy_game_length_balance_point(tmp_path, capsys):
    """The target score at which a 3-player toy game lasts 12 turns on average: fresh games on either side of
    the answer must fall on either side of 12."""
    r, info = solve_game(
        "toy_pig",
        "target",
        metric="game.turns",
        target=12,
        players=3,
        between="10:100",
        games=1000,
        max_games=30_000,
        seed=1,
    )
    assert r.bounded and r.low < r.value < r.high and r.high - r.low < 3
    check = GameMetric(get_game("toy_pig"), "target", "game.turns", 3, seed=99, cap=20_000)
    below, _, _ = check(math.floor(r.low) - 1, 20_000)
    above, _, _ = check(math.ceil(r.high) + 1, 20_000)
    assert below < 12 < above
    assert info["metric"] == "game.turns" and info["players"] == 3

    out = tmp_path / "solve.json"
    assert (
        main(
            [
                "solve",
                "toy_pig",
                "--players",
                "3",
                "--param",
                "target",
                "--between",
                "10:100",
                "--metric",
                "game.turns",
                "--target",
                "12",
                "--games",
                "1000",
                "--max-games",
                "30000",
                "--seed",
                "1",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert f"at target = {r.value:.4g}" in text and "95% interval" in text
    saved = json.loads(out.read_text())
    assert saved["value"] == pytest.approx(r.value) and len(saved["evaluations"]) == len(r.evaluations)


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--param", "targte"], "Did you mean target"),
        (["--param", "target", "--metric", "stepz"], "Did you mean steps"),
        (["--param", "target", "--metric", "steps"], "--target fair (1/players) fits win shares"),
        (["--param", "target", "--between", "5"], "--between takes LOW:HIGH"),
        (["--param", "target", "--between", "50:10"], "LOW < HIGH"),
        (["--param", "target", "--between", "0:10"], "out of range"),
        (["--param", "target", "--players", "2-3"], "one player count at a time"),
        (["--param", "target", "--set", "target=20"], "do not also --set it"),
        (["--param", "target", "--target", "half"], "--target takes a number or 'fair'"),
        (["--param", "target", "--games", "0"], "--games (0) must be at least 1"),
        (["--param", "target", "--players", "0"], "2-4 players (got 0)"),
    ],
)
def test_solve_bad_input_one_line(capsys, argv, needle):
    assert main(["solve", "toy_pig"] + argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0], err


def test_solver_needs_a_numeric_parameter(monkeypatch):
    from sim.params import ParamTable

    toy = get_game("toy_pig")
    table = ParamTable()
    for p in toy.params.params:
        table.add(p.name, p.default, p.kind, p.lo, p.hi)
    table.add("module.extra", 0, kind="bool")
    monkeypatch.setattr(toy, "params", table)
    with pytest.raises(UserError, match="module.extra is a bool: the solver needs a numeric"):
        solve_game(toy, "module.extra")
