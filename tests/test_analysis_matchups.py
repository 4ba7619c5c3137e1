"""Head-to-head matrices and Bradley-Terry ratings recover planted strengths."""

import numpy as np
import pytest
from scipy import stats as sps

from sim.analysis import as_matrix, bradley_terry, matchup_matrix, pairwise_records
from sim.analysis import synthetic
from sim.analysis.matchups import bt_predict

STRENGTH = {"a": 4.0, "b": 2.0, "c": 1.0, "d": 0.5}


@pytest.fixture(scope="module")
def two_player():
    # rotated line-ups over 2 seats, every pairing played: a, b | c, d ... by giving several line-ups
    frames = []
    for k, pair in enumerate([("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("c", "d")]):
        _, s, _ = synthetic.make_tables(
            n_games=800, players=(2,), strategies={p: STRENGTH[p] for p in pair}, seed=k, game_offset=10_000 * k
        )
        frames.append(s)
    import pandas as pd

    return pd.concat(frames, ignore_index=True)


def test_matchup_matrix_two_player_matches_planted_probabilities(two_player):
    t = matchup_matrix(two_player)
    m = as_matrix(t)
    lo, hi = as_matrix(t, "low"), as_matrix(t, "high")
    for a in STRENGTH:
        for b in STRENGTH:
            if a == b:
                assert np.isnan(m.loc[a, b])
                continue
            assert abs(m.loc[a, b] + m.loc[b, a] - 1) < 1e-12
            true = STRENGTH[a] / (STRENGTH[a] + STRENGTH[b])
            # 99.9% Wilson-type check with a margin: the truth lies in (or very near) the interval
            assert lo.loc[a, b] - 0.02 < true < hi.loc[a, b] + 0.02
    assert (t["interval"] == "wilson").all()


def test_bradley_terry_recovers_planted_strengths(two_player):
    bt = bradley_terry(two_player, bootstrap=100, seed=1)
    assert list(bt["label"]) == ["a", "b", "c", "d"]
    truth = np.log(np.array([STRENGTH[x] for x in bt["label"]]))
    truth -= truth.mean()
    covered = (bt["low"] <= truth) & (truth <= bt["high"])
    assert covered.sum() >= 3  # 95% intervals: at most one of four may miss by chance
    assert np.all(np.abs(bt["theta"] - truth) < 4 * bt["se_model"] + 0.05)
    assert abs(bt["theta"].sum()) < 1e-9
    assert abs(bt_predict(bt, "a", "d") - 4.0 / 4.5) < 0.04
    assert (bt["interval"] == "bootstrap").all()
    model = bradley_terry(two_player, bootstrap=0)
    assert (model["interval"] == "model").all() and np.allclose(model["theta"], bt["theta"])


def test_bradley_terry_multiplayer_order_and_bootstrap_is_wider():
    _, s, _ = synthetic.make_tables(n_games=1500, players=(4,), strategies=STRENGTH, tie_rate=0.05, seed=3)
    bt = bradley_terry(s, bootstrap=150, seed=2)
    assert sps.spearmanr(bt["theta"], [np.log(STRENGTH[x]) for x in bt["label"]])[0] == 1.0
    assert list(bt["label"]) == ["a", "b", "c", "d"]
    # six correlated pairs per game: the game bootstrap interval is wider than the independent-pairs one
    width_boot = (bt["high"] - bt["low"]).mean()
    width_model = (2 * 1.96 * bt["se_model"]).mean()
    assert width_boot > width_model


def test_pairwise_records_scores_ranks_and_ties():
    _, s, _ = synthetic.make_tables(
        n_games=200, players=(3,), strategies={"x": 1, "y": 1, "z": 1}, tie_rate=0.5, seed=4
    )
    rec = pairwise_records(s)
    assert len(rec) == 200 * 3 and set(rec["score"]) <= {0.0, 0.5, 1.0}
    ties = s[s["win"] == 1].groupby("game").size()
    assert (rec["score"] == 0.5).sum() == (ties == 2).sum()


def test_mirror_pairs_are_left_out():
    _, s, _ = synthetic.make_tables(n_games=300, players=(4,), strategies={"x": 1.0, "y": 1.0}, seed=5)
    rec = pairwise_records(s)  # line-up x, y, x, y: 4 of 6 pairs are x vs y
    assert (rec["a"] != rec["b"]).all() and len(rec) == 300 * 4
    t = matchup_matrix(s)
    assert (t["interval"] == "cluster").all()  # two x-vs-y pairs per game per cell
