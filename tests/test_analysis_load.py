"""Loading plain runs and hive-partitioned sweeps written in the core's schema (by sim.analysis.synthetic)."""

import pyarrow.dataset as ds
import pytest

from sim.analysis import load_run, load_tables, game_key
from sim.analysis import synthetic


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    return synthetic.write_run(
        tmp_path_factory.mktemp("plain") / "run",
        n_games=300,
        players=(3, 4),
        parts=3,
        items={"x": {"p": 0.2}, "y": {"p": 0.1, "kind": "building"}},
        seed=4,
    )


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    return synthetic.write_sweep(
        tmp_path_factory.mktemp("sweep") / "run",
        [{"gold": 0}, {"gold": 1}, {"gold": 2}],
        n_games=100,
        players=(4,),
        parts=2,
    )


def test_plain_run_tables_and_manifest(plain):
    run = load_run(plain)
    assert run.game == "synthetic" and not run.is_sweep
    games, seats, items, manifest = load_tables(plain)
    assert len(games) == 600 and games["game"].is_unique
    assert len(seats) == 300 * 3 + 300 * 4
    # every game's win shares add up to one
    assert (seats.groupby("game")["win_share"].sum().sub(1).abs() < 1e-12).all()
    assert set(items["item"]) == {"x", "y"} and set(items["kind"]) == {"card", "building"}
    assert manifest["seating"]["mode"] == "rotate"
    assert game_key(seats) == ["game"]
    assert run.configs.empty


def test_column_selection_and_filters(plain):
    run = load_run(plain)
    s = run.seats(columns=["game", "order", "win_share"], filters={"players": 4})
    assert list(s.columns) == ["game", "order", "win_share"]
    assert len(s) == 300 * 4
    s2 = run.seats(columns=["players"], filters={"players": [3, 4]})
    assert sorted(s2["players"].unique()) == [3, 4]
    cat = run.seats(columns=["strategy"], categorical=True)
    assert str(cat["strategy"].dtype) == "category"
    with pytest.raises(KeyError):
        run.seats(columns=["no_such_column"])
    assert isinstance(run.dataset("seats"), ds.Dataset)
    assert "win_share" in run.columns("seats")


def test_seats_with_games_joins_game_columns(plain):
    run = load_run(plain)
    sg = run.seats_with_games(["game", "seat", "win"], ["end_reason", "turns"])
    assert len(sg) == 300 * 7 and sg["end_reason"].notna().all()
    g = run.games(["game", "turns"]).set_index("game")["turns"]
    assert (sg["turns"].to_numpy() == g.loc[sg["game"]].to_numpy()).all()


def test_sweep_partitions(sweep):
    run = load_run(sweep)
    assert run.is_sweep
    seats = run.seats(columns=["config", "game", "win_share"])
    assert str(seats["config"].dtype) == "int64"
    assert sorted(seats["config"].unique()) == [0, 1, 2]
    assert game_key(seats) == ["config", "game"]
    # game ids repeat across configs, so shares add up to one per (config, game), not per game
    assert (seats.groupby(["config", "game"])["win_share"].sum().sub(1).abs() < 1e-12).all()
    assert (seats.groupby("game")["win_share"].sum() > 1.5).all()
    one = run.games(filters={"config": 2})
    assert len(one) == 100 and (one["config"] == 2).all()
    cfg = run.configs
    assert list(cfg["config"]) == [0, 1, 2] and list(cfg["gold"]) == [0, 1, 2]
    assert "other.param" not in cfg.columns  # only the swept values, not every parameter
    sg = run.seats_with_games(["config", "game", "seat"], ["turns"])
    assert len(sg) == 3 * 100 * 4 and sg["turns"].notna().all()


def test_missing_folder_raises(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_run(tmp_path / "nope")


def test_several_runs_read_as_one_sweep(tmp_path):
    from sim.analysis import load_runs, equality_tests

    a = synthetic.write_run(tmp_path / "a", n_games=800, players=(4,), order_bias={4: [0.6, 0, 0, 0]}, seed=1)
    b = synthetic.write_run(tmp_path / "b", n_games=800, players=(4,), seed=2)
    rs = load_runs([a, b], params=[{"comp": 0}, {"comp": 2}])
    seats = rs.seats(columns=["config", "game", "players", "order", "win_share"])
    assert list(seats.columns) == ["config", "game", "players", "order", "win_share"]
    assert sorted(seats["config"].unique()) == [0, 1] and len(seats) == 2 * 800 * 4
    assert list(rs.configs["comp"]) == [0, 2] and rs.is_sweep
    eq = equality_tests(seats, by="config").set_index("config")
    assert eq.loc[0, "reject"] and eq.loc[0, "best"] == 0 and eq.loc[0, "gap_pp"] > eq.loc[1, "gap_pp"]
    sg = rs.seats_with_games(["config", "game", "seat"], ["turns"])
    assert len(sg) == 2 * 800 * 4 and sg["turns"].notna().all()
    one = rs.games(filters={"config": 1, "players": 4})
    assert len(one) == 800 and (one["config"] == 1).all()
