"""Item strength: planted effects found with the right sign, a planted confounder removed by the adjustment,
rare items flagged instead of ranked."""

import numpy as np
import pytest

from sim.analysis import item_strength, seat_attribute_strength
from sim.analysis import synthetic
from sim.analysis.items import acquisitions

ITEMS = {
    "good": {"effect": 0.6, "p": 0.3},
    "bad": {"effect": -0.6, "p": 0.3},
    "neutral": {"effect": 0.0, "p": 0.3},
    # no effect of its own, but the strong strategy takes it far more often
    "confounded": {"effect": 0.0, "p": 0.1, "p_by_strategy": {"strong": 0.7}},
    "rare": {"effect": 0.0, "p": 0.004, "kind": "building"},
}
STRATS = {"strong": 3.0, "b": 1.0, "c": 1.0, "d": 1.0}


@pytest.fixture(scope="module")
def data():
    _, seats, items = synthetic.make_tables(n_games=3000, players=(3, 4), strategies=STRATS, items=ITEMS, seed=21)
    return seats, items


@pytest.fixture(scope="module")
def table(data):
    seats, items = data
    return item_strength(seats, items, min_rows=200).set_index("item")


def test_planted_effects_have_the_right_sign(table):
    assert table.loc["good", "low"] > 0 and table.loc["good", "adj_low"] > 0
    assert table.loc["bad", "high"] < 0 and table.loc["bad", "adj_high"] < 0
    assert table.loc["neutral", "low"] < 0 < table.loc["neutral", "high"]
    assert table.loc["neutral", "adj_low"] < 0 < table.loc["neutral", "adj_high"]
    # the adjusted log-odds effect recovers the planted +-0.6 log-strength roughly (Plackett-Luce is not logit,
    # so only the neighbourhood is checked)
    assert 0.3 < table.loc["good", "adj_coef"] < 0.9
    assert -0.9 < table.loc["bad", "adj_coef"] < -0.3
    assert table.loc["good", "adj_ame_low_pp"] > 0 and table.loc["good", "adj_or"] > 1


def test_adjustment_removes_the_confounder(table):
    c = table.loc["confounded"]
    assert c["low"] > 0.05  # raw: looks like a strong card
    assert c["adj_low"] < 0 < c["adj_high"]  # adjusted for strategy: no effect
    assert abs(c["adj_ame_pp"]) < 100 * c["diff"] / 3


def test_rare_items_are_flagged_not_ranked(table):
    r = table.loc["rare"]
    assert not r["enough"] and np.isnan(r["rank"]) and np.isnan(r["adj_coef"])
    assert r["n_with"] < 200
    ranked = table[table["enough"]]
    assert list(table.index)[-1] == "rare"
    assert ranked.loc["good", "rank"] == 1 or ranked.loc["confounded", "rank"] == 1
    assert ranked.loc["bad", "rank"] == len(ranked)


def test_pick_rate_turns_and_counts(data, table):
    seats, items = data
    assert abs(table.loc["good", "pick_rate"] - 0.3) < 0.02
    assert table.loc["good", "n_with"] + table.loc["good", "n_without"] == len(seats)
    a = acquisitions(seats, items)
    g = a[a["item"] == "good"]
    assert table.loc["good", "n_with"] == len(g)
    assert abs(table.loc["good", "avg_turn"] - g["first_turn"].mean()) < 1e-12
    assert 1 <= table.loc["good", "avg_turn"] <= 9


def test_only_strata_where_the_item_exists_are_compared():
    _, seats, items = synthetic.make_tables(n_games=400, players=(3, 4), items={"x": {"p": 0.3}}, seed=2)
    items = items[items["players"] == 4]  # x only exists in 4-player games
    t = item_strength(seats, items, min_rows=10, adjusted=False).set_index("item")
    assert t.loc["x", "n_with"] + t.loc["x", "n_without"] == 400 * 4
    only = item_strength(seats, items, kind="building", adjusted=False)
    assert only.empty


def test_seat_attribute_strength_flags_small_groups():
    _, seats, _ = synthetic.make_tables(n_games=600, players=(4,), strategies=STRATS, seed=9)
    seats = seats.assign(character=np.where(seats["game"] < 20, "rare_char", seats["strategy"]))
    t = seat_attribute_strength(seats, "character", min_rows=100).set_index("character")
    assert not t.loc["rare_char", "enough"] and np.isnan(t.loc["rare_char", "rank"])
    assert t.loc["strong", "rank"] == 1 and t.loc["strong", "significant"]


def test_adjusted_effect_on_a_sample_of_games(data):
    seats, items = data
    t = item_strength(seats, items, min_rows=200, max_rows=6000, seed=3).set_index("item")
    assert (t.loc[t["enough"], "adj_rows"] <= 6004).all()  # whole games: at most one game's rows over
    assert t.loc["good", "adj_coef"] > 0 and t.loc["bad", "adj_coef"] < 0
    # the raw columns do not depend on the sample
    full = item_strength(seats, items, min_rows=200, adjusted=False).set_index("item")
    assert (t.loc[full.index, "diff"] == full["diff"]).all()


def test_adjusted_effect_reports_a_model_that_cannot_be_fitted():
    from sim.analysis import adjusted_effect

    _, seats, items = synthetic.make_tables(n_games=60, players=(4,), items={"x": {"p": 0.3}}, seed=8)
    seats = seats.copy()
    acq = acquisitions(seats, items)
    hit = seats.merge(acq[["game", "seat"]], on=["game", "seat"], how="left", indicator=True)["_merge"] == "both"
    seats["win"] = hit.to_numpy().astype(int)  # acquiring x decides the game: perfect separation
    res = adjusted_effect(seats, acq)
    assert res["adj_note"].startswith("not fitted") and "adj_coef" not in res


def test_one_strong_item_neither_hides_in_nor_shifts_the_kind_average():
    """Planted: one railroad of three at a large negative effect, the other two at none. Compared with the kind's
    average including itself, the strong one read only two thirds of its effect and each other one read a third of
    it (Modest or Strong at this size); leave one out with the outlier set aside, each reads its own."""
    from sim.report import verdicts as vd

    spec = {f"rail{i}": {"effect": -1.0 if i == 0 else 0.0, "p": 0.35, "kind": "railroad"} for i in range(3)}
    _, seats, items = synthetic.make_tables(n_games=6000, players=(3, 4), items=spec, seed=5)
    fam = vd.item_family(seats, items, by_players=False).set_index("item")
    strong = fam.loc["rail0"]
    assert strong["verdict"] == "red" and strong["rel_pp"] < -8
    # its own (absolute) adjusted effect and its relative one agree: nothing of it is in its own baseline
    assert abs(strong["rel_pp"] - (strong["effect_pp"] - fam.loc[["rail1", "rail2"], "effect_pp"].mean())) < 1e-6
    assert not strong["baseline"] and fam.loc["rail1", "baseline"] and fam.loc["rail2", "baseline"]
    for other in ("rail1", "rail2"):
        r = fam.loc[other]
        assert r["rel_low_pp"] < 0 < r["rel_high_pp"], r[["rel_pp", "rel_low_pp", "rel_high_pp"]]
        assert r["verdict"] in ("green", "grey")
    # the old baseline (the kind's average, the item included) shifts the others by a third of the strong effect
    old = fam.loc["rail1", "effect_pp"] - fam[["effect_pp"]].loc[["rail0", "rail1", "rail2"]].mean().iloc[0]
    assert old > 3


def test_player_counts_combined_by_holders_not_by_precision():
    """Planted: at 3 players a strong item held by about a thousand seats; at 5 players a handful of holders who
    all lost (standard error near 0). Inverse-variance weights let the 5-player stratum dominate the combined
    difference (it read about -20 while +20 at 3 players); weighted by holders it stays with the 3-player one."""
    import pandas as pd

    from sim.analysis.items import stratified_difference

    g3, s3, i3 = synthetic.make_tables(n_games=3000, players=(3,), items={"works": {"effect": 1.0, "p": 0.13}}, seed=1)
    g5, s5, i5 = synthetic.make_tables(
        n_games=3000, players=(5,), items={"works": {"effect": -8.0, "p": 0.0012}}, seed=2, game_offset=10_000
    )
    seats, items = pd.concat([s3, s5], ignore_index=True), pd.concat([i3, i5], ignore_index=True)
    t = stratified_difference(seats, items).set_index("stratum")
    assert t.loc["5", "n_with"] < 40 and t.loc["5", "diff"] < -0.15 and t.loc["5", "se"] < 0.02
    assert t.loc["3", "n_with"] > 1000 and t.loc["3", "diff"] > 0.15
    w = t.loc[["3", "5"], "n_with"] / t.loc[["3", "5"], "n_with"].sum()
    assert t.loc["all", "diff"] == pytest.approx((w * t.loc[["3", "5"], "diff"]).sum())
    assert t.loc["all", "diff"] > 0.9 * t.loc["3", "diff"] and t.loc["all", "low"] > 0
    # what inverse-variance weights would have said
    iv = 1 / t.loc[["3", "5"], "se"] ** 2
    assert (iv * t.loc[["3", "5"], "diff"]).sum() / iv.sum() < 0
