"""Win rates (strategies, team roles) and game-shape summaries on synthetic data with known answers."""

import numpy as np
import pandas as pd
import pytest

from sim.analysis import (
    end_reasons,
    length_distribution,
    length_summary,
    points_by_source,
    score_margins,
    tie_rates,
    win_rates,
    win_rates_by_players,
)
from sim.analysis import synthetic


def test_two_player_win_rates_match_planted_strengths():
    _, s, _ = synthetic.make_tables(n_games=4000, players=(2,), strategies={"a": 3.0, "b": 1.0}, seed=1)
    t = win_rates(s).set_index("strategy")
    assert t.loc["a", "low"] < 0.75 < t.loc["a", "high"]
    assert t.loc["b", "low"] < 0.25 < t.loc["b", "high"]
    assert (t["fair"] == 0.5).all() and t.loc["a", "significant"]
    assert (t["interval"] == "wilson").all() and (t["n"] == 4000).all()


def test_win_share_vs_win_with_ties():
    _, s, _ = synthetic.make_tables(
        n_games=2000, players=(3,), tie_rate=0.4, seed=2, strategies={"x": 1, "y": 1, "z": 1}
    )
    share = win_rates(s, outcome="win_share")
    win = win_rates(s, outcome="win")
    assert abs(share["rate"].mean() - 1 / 3) < 1e-12  # shares always average 1/n
    assert win["rate"].mean() > 0.4  # ties count as a win for both: more than 1/n
    # the fair value of "win" is (winners in the game) / n, so the excess is about zero for equal strategies
    assert (win["excess"].abs() < 0.03).all() and not win["significant"].any()


def _team_game(n_games=1500, seed=3):
    """A 4-seat team game: seat roles sheriff, deputy (team A) and two outlaws (team B); team A wins 40%."""
    rng = np.random.default_rng(seed)
    a_wins = rng.random(n_games) < 0.4
    roles = np.array(["sheriff", "deputy", "outlaw", "outlaw"])
    rows = []
    for g in range(n_games):
        win = np.array([a_wins[g]] * 2 + [not a_wins[g]] * 2, dtype=int)
        rows.append(
            pd.DataFrame(
                {
                    "game": g,
                    "seat": np.arange(4),
                    "players": 4,
                    "strategy": "s",
                    "role": roles,
                    "win": win,
                    "win_share": win / 2.0,
                    "order": np.arange(4),
                    "rank": np.where(win == 1, 1, 2),
                    "score": win.astype(float),
                }
            )
        )
    return pd.concat(rows, ignore_index=True)


def test_team_roles_use_win_and_cluster_intervals():
    s = _team_game()
    t = win_rates(s, by="role", outcome="win").set_index("role")
    assert abs(t.loc["outlaw", "rate"] - (1 - t.loc["sheriff", "rate"])) < 1e-12
    assert t.loc["outlaw", "interval"] == "cluster" and t.loc["sheriff", "interval"] == "wilson"
    # both outlaws of a game win together, so the outlaw interval is as wide as for one row per game
    width = t["high"] - t["low"]
    assert width["outlaw"] > 0.9 * width["sheriff"]
    assert (t["fair"] == 0.5).all()  # two winners of four seats in every game
    assert t.loc["outlaw", "low"] < 0.6 < t.loc["outlaw", "high"]


def test_win_rates_by_players_has_fair_one_over_n():
    _, s, _ = synthetic.make_tables(n_games=300, players=(2, 3, 4), seed=4)
    t = win_rates_by_players(s)
    assert np.allclose(t["fair"], 1 / t["players"])
    assert list(t.columns[:2]) == ["players", "strategy"]


@pytest.fixture(scope="module")
def tables():
    games, seats, _ = synthetic.make_tables(n_games=2000, players=(3, 4), tie_rate=0.15, seed=5)
    return games, seats


def test_length_summary_and_distribution(tables):
    games, _ = tables
    t = length_summary(games, "turns").set_index("players")
    four = games[games["players"] == 4]["turns"]
    assert abs(t.loc[4, "mean"] - four.mean()) < 1e-12 and t.loc[4, "median"] == four.median()
    assert t.loc[4, "low"] < four.mean() < t.loc[4, "high"]
    assert (t["capped_rate"] == 0).all()
    d = length_distribution(games, "turns")
    assert np.allclose(d.groupby("players")["fraction"].sum(), 1)


def test_ties_margins_points_and_end_reasons(tables):
    games, seats = tables
    tr = tie_rates(seats).set_index("players")
    assert ((tr["shared_low"] < 0.15) & (0.15 < tr["shared_high"])).all()
    m = score_margins(seats)
    assert (m["margin"] >= 0).all() and (m["spread"] >= m["margin"]).all() and len(m) == len(games)
    tied_games = seats[seats["win"] == 1].groupby("game").size()
    tied_games = set(tied_games[tied_games > 1].index)
    assert (m.set_index("game").loc[sorted(tied_games), "margin"] == 0).all()
    p = points_by_source(seats, "vp_")
    assert set(p["source"]) == {"a", "b"}
    assert np.allclose(p.groupby("players")["share"].sum(), 1)
    pw = points_by_source(seats, "vp_", by=[], winners_only=True)
    assert pw["mean_points"].sum() > p["mean_points"].sum() / 2
    e = end_reasons(games).set_index(["players", "end_reason"])
    assert np.allclose(e.groupby("players")["fraction"].sum(), 1)
    assert all(e.loc[(n, "points"), "low"] < 0.8 < e.loc[(n, "points"), "high"] for n in (3, 4))


def test_win_rates_on_a_sweep_grouped_by_config(tmp_path):
    from sim.analysis import load_run

    path = synthetic.write_sweep(
        tmp_path / "sw", [{"k": 0}, {"k": 1}], n_games=400, players=(2,), strategies={"a": 3.0, "b": 1.0}, seed=6
    )
    seats = load_run(path).seats()
    t = win_rates(seats, by=["config", "strategy"]).set_index(["config", "strategy"])
    assert len(t) == 4 and (t["n"] == 400).all() and (t["interval"] == "wilson").all()
    assert all(t.loc[(k, "a"), "low"] < 0.75 < t.loc[(k, "a"), "high"] for k in (0, 1))
    by_cfg = win_rates(seats, by="config")
    assert np.allclose(by_cfg["rate"], 0.5) and (by_cfg["interval"] == "cluster").all()
