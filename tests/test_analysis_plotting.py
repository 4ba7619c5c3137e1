"""The chart helpers draw what they promise: intervals, the fair 1/n line, labelled axes with units."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from sim.analysis import (
    bradley_terry,
    end_reasons,
    item_strength,
    matchup_matrix,
    points_by_source,  # noqa: E402
    seat_advantage,
    win_rates,
)
from sim.analysis import plotting, synthetic  # noqa: E402


@pytest.fixture(scope="module")
def data():
    plotting.use_style()
    return synthetic.make_tables(
        n_games=400, players=(3, 4), items={"x": {"p": 0.3, "effect": 0.5}, "y": {"p": 0.01}}, seed=1
    )


def test_style_uses_colour_blind_palette():
    plotting.use_style()
    cyc = matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]
    assert [c.lower() for c in cyc] == [c.lower() for c in plotting.PALETTE]


def test_seat_chart_has_fair_lines_and_error_bars(data):
    _, seats, _ = data
    adv = seat_advantage(seats)
    ax = plotting.plot_seat_advantage(adv)
    fair_levels = sorted(
        {
            round(float(seg[0][1]), 6)
            for coll in ax.collections
            if isinstance(coll, matplotlib.collections.LineCollection)
            for seg in coll.get_segments()
            if len(seg) == 2 and seg[0][1] == seg[1][1]
        }
    )
    assert round(100 / 3, 6) in fair_levels and 25.0 in fair_levels
    assert len(ax.containers) == 2  # one errorbar container per player count
    assert "%" in ax.get_ylabel() and "turn-order" in ax.get_xlabel()
    plt.close("all")


def test_other_charts_label_units(data):
    _, seats, items = data
    ax = plotting.plot_rates(win_rates(seats))
    assert "%" in ax.get_xlabel() and len(ax.containers) == 1
    ax = plotting.plot_matchups(matchup_matrix(seats))
    assert ax.images and "strategy" in ax.get_ylabel()
    ax = plotting.plot_ratings(bradley_terry(seats, bootstrap=20))
    assert "Elo" in ax.get_xlabel()
    t = item_strength(seats, items, min_rows=50)
    ax = plotting.plot_item_strength(t)
    assert "percentage points" in ax.get_xlabel() and len(ax.containers) == 2  # ranked + flagged
    ax = plotting.plot_item_strength(t, value="adj_ame_pp")
    assert "adjusted" in ax.get_xlabel()
    games = data[0]
    ax = plotting.plot_length(games, "turns", unit="turns")
    assert "turns" in ax.get_xlabel() and "%" in ax.get_ylabel()
    ax = plotting.plot_points_by_source(points_by_source(seats, "vp_"))
    assert "VP" in ax.get_ylabel() and len(ax.patches) == 4
    ax = plotting.plot_fractions(end_reasons(games), "end_reason")
    assert "%" in ax.get_ylabel() and np.isclose(sum(p.get_height() for p in ax.patches), 200)
    plt.close("all")
