"""First-player advantage: a planted turn-order bias must be found; without one, the tests keep their level."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from sim.analysis import advantage_by, equality_tests, first_player_summary, indicator_effect, seat_advantage
from sim.analysis import synthetic


def _binomial_upper(reps, level, q=0.999):
    return sps.binom.ppf(q, reps, level)


@pytest.fixture(scope="module")
def biased():
    # 4 players: the first player gets +0.35 log-strength; 3 players: no bias. Random first player, so seat != order.
    _, seats, _ = synthetic.make_tables(
        n_games=3000, players=(3, 4), order_bias={4: [0.35, 0.0, 0.0, 0.0]}, tie_rate=0.05, seed=11
    )
    return seats


def test_planted_first_player_bias_is_found(biased):
    adv = seat_advantage(biased)
    four = adv[adv["players"] == 4].set_index("order")
    assert four.loc[0, "flagged"] and four.loc[0, "excess_pp"] > 3
    assert four.loc[0, "low"] > 0.25  # the interval lies above the fair 1/4
    assert (four["fair"] == 0.25).all()
    # true share of the first player under the planted model: exp(.35) / (exp(.35) + 3) ~ 0.32
    true = np.exp(0.35) / (np.exp(0.35) + 3)
    assert four.loc[0, "low"] < true < four.loc[0, "high"] + 0.01
    for method in ("pearson", "g", "wald"):
        eq = equality_tests(biased, method=method).set_index("players")
        assert eq.loc[4, "reject"] and eq.loc[4, "best"] == 0
        assert eq.loc[4, "gap_low_pp"] > 0
    # shares sum to one per game, so the rates of one player count add up to one
    assert abs(four["rate"].sum() - 1) < 1e-12


def test_bias_is_by_turn_order_not_seat(biased):
    by_seat = equality_tests(biased, position="seat").set_index("players")
    by_order = equality_tests(biased, position="order").set_index("players")
    assert by_order.loc[4, "p"] < 1e-6
    assert by_seat.loc[4, "p"] > 1e-3  # first player is random: seats are (nearly) fair


def _null_datasets(reps, seed, **kw):
    """reps independent synthetic datasets without any bias, stacked with a `rep` column."""
    rng = np.random.default_rng(seed)
    frames = []
    for r in range(reps):
        _, seats, _ = synthetic.make_tables(seed=int(rng.integers(1 << 30)), **kw)
        frames.append(seats.assign(rep=r))
    return pd.concat(frames, ignore_index=True)


def test_no_bias_rejects_at_about_the_level():
    """200 synthetic 4-player datasets without a bias: the equality test rejects about 5% of the time."""
    reps, level = 200, 0.05
    data = _null_datasets(reps, 0, n_games=300, players=(4,))
    lo, hi = sps.binom.ppf(0.001, reps, level), _binomial_upper(reps, level)
    for method in ("pearson", "g", "wald"):
        eq = equality_tests(data, method=method, alpha=level, by="rep")
        assert len(eq) == reps
        k = int(eq["reject"].sum())
        assert lo <= k <= hi, (method, k)
        # p-values under the null are about uniform
        assert sps.kstest(eq["p"], "uniform").pvalue > 0.001


def test_holm_flags_keep_the_familywise_level():
    """600 fair datasets: Holm flags any position in at most 5% of them. The bound (43 of 600) is passed by a true
    familywise rate of 5% with probability 99.2% and by one of 10% with probability 1%."""
    reps, level, bound = 600, 0.05, 43
    assert sps.binom.sf(bound, reps, level) < 0.01 and sps.binom.cdf(bound, reps, 0.10) < 0.015
    data = _null_datasets(reps, 7, n_games=300, players=(4,))
    flagged_any = sum(bool(seat_advantage(sub, alpha=level)["flagged"].any()) for _, sub in data.groupby("rep"))
    assert flagged_any <= bound


def test_split_wins_make_the_test_conservative_not_liberal():
    reps, level = 200, 0.05
    data = _null_datasets(reps, 1, n_games=300, players=(3,), tie_rate=0.3)
    eq = equality_tests(data, alpha=level, by="rep")
    assert (eq["split_win_rate"] > 0.2).all()
    assert eq["reject"].sum() <= _binomial_upper(reps, level)


def test_advantage_by_config_and_summary(tmp_path):
    from sim.analysis import load_run

    path = synthetic.write_sweep(
        tmp_path / "sw",
        [{"comp": 0, "order_bias": {4: [0.5, 0, 0, 0]}}, {"comp": 1}],
        n_games=1500,
        players=(4,),
        seed=3,
    )
    seats = load_run(path).seats()
    per_pos, tests = advantage_by(seats, "config")
    t = tests.set_index("config")
    assert t.loc[0, "reject"] and t.loc[0, "best"] == 0
    assert t.loc[0, "gap_pp"] > t.loc[1, "gap_pp"]
    assert set(per_pos["config"]) == {0, 1} and len(per_pos) == 8
    summ = first_player_summary(seats[seats["config"] == 0])
    assert summ["first_rate"].iloc[0] > 0.25 and summ["reject"].iloc[0]


def test_indicator_effect_finds_planted_ender_advantage():
    _, seats, _ = synthetic.make_tables(n_games=2000, players=(4,), order_bias={4: [0.0, 0.0, 0.0, 0.6]}, seed=5)
    seats = seats.assign(ended=seats["order"] == 3)  # the last player ends the game and is stronger
    eff = indicator_effect(seats, "ended").iloc[0]
    assert eff["diff"] > 0 and eff["low"] > 0
    null = indicator_effect(seats.assign(ended=seats["seat"] == 0), "ended").iloc[0]
    assert null["low"] < 0 < null["high"]
