"""The standings trace (`sim run --standings`) and the arc metrics computed from it.

Hand-built traces whose arc is known give exact lead changes, comebacks and runaway leads; a toy_pig run with the
trace round-trips (the same games as without it, a final row equal to the scores), is checked and resumed like
the other tables, and a game without standings is refused with one line.
"""

import dataclasses
import sys
import types

import numpy as np
import pandas as pd
import pytest

from sim.analysis import arc
from sim.check import check_folder
from sim.cli import main
from sim.game import register
from sim.runner import output_buffers, prepare, simulate


def trace(rows):
    """A standings table from {game: [(round, [standing per seat]), ...]}."""
    out = [(g, r, s, float(v)) for g, rs in rows.items() for r, vals in rs for s, v in enumerate(vals)]
    return pd.DataFrame(out, columns=["game", "round", "seat", "standing"])


def winners(wins):
    """A seats table from {game: [win per seat]}."""
    out = [(g, s, len(w), int(x)) for g, w in wins.items() for s, x in enumerate(w)]
    return pd.DataFrame(out, columns=["game", "seat", "players", "win"])


# Game 0: seat 0 leads throughout and wins.  Game 1: 1 leads, then 0, then 1 again (a tie in between), 1 wins.
# Game 2: seat 1 leads up to two thirds, seat 0 overtakes and wins (a comeback).  Game 3: a 3-player game.
ROWS = {
    0: [(0, [0, 0]), (1, [5, 2]), (2, [9, 4]), (3, [12, 6]), (4, [20, 7])],
    1: [(0, [0, 0]), (1, [1, 3]), (2, [6, 3]), (3, [6, 6]), (4, [7, 9]), (5, [8, 15])],
    2: [(0, [0, 0]), (1, [0, 4]), (2, [2, 8]), (3, [5, 9]), (4, [12, 10])],
    3: [(0, [0, 0, 0]), (1, [3, 1, 1]), (2, [3, 6, 2]), (3, [4, 8, 9])],
}
WINS = {0: [1, 0], 1: [0, 1], 2: [1, 0], 3: [0, 0, 1]}


def test_hand_built_arcs_are_exact():
    a = arc.game_arcs(trace(ROWS), winners(WINS)).set_index("game")
    assert a["rounds"].tolist() == [4, 5, 4, 3]
    assert a["lead_changes"].tolist() == [0, 2, 1, 2]
    # checkpoints: the last row at or before floor(f * rounds): game 1 (5 rounds) -> rounds 1, 2, 3
    assert a.loc[1, ["leader_third", "leader_half", "leader_two_thirds"]].tolist() == [1, 0, -1]
    assert a.loc[1, ["margin_third", "margin_half", "margin_two_thirds"]].tolist() == [2.0, 3.0, 0.0]
    assert a["winner_behind_two_thirds"].tolist() == [False, False, True, True]
    assert a["leader_wins_half"].tolist() == [True, False, False, False]
    assert a["leader_wins_third"].tolist() == [True, True, False, False]


def test_hand_built_metrics_per_player_count():
    a = arc.game_arcs(trace(ROWS), winners(WINS))
    lc = arc.lead_changes(a).set_index("players")
    assert lc.loc[2, "games"] == 3 and lc.loc[2, "mean"] == pytest.approx(1.0)
    assert lc.loc[2, "none"] == pytest.approx(1 / 3)
    assert lc.loc[2, "low"] < 1.0 < lc.loc[2, "high"]
    cb = arc.comebacks(a).set_index("players")
    assert cb.loc[2, "rate"] == pytest.approx(1 / 3) and cb.loc[3, "rate"] == 1.0
    assert cb.loc[2, "low"] < 1 / 3 < cb.loc[2, "high"]
    rl = arc.runaway_leads(a).set_index(["players", "point"])
    assert rl.loc[(2, "third"), "rate"] == pytest.approx(2 / 3)  # leaders 0, 1, 1 at rounds 1, 1, 1
    assert rl.loc[(2, "half"), "rate"] == pytest.approx(1 / 3)  # game 2's leader at half (seat 1) lost
    assert rl.loc[(2, "half"), "fair"] == 0.5 and rl.loc[(3, "third"), "fair"] == pytest.approx(1 / 3)
    assert rl.loc[(2, "third"), "margin"] == pytest.approx((5 - 2 + 3 - 1 + 4 - 0) / 3)


def test_team_winners_and_shared_tops():
    """Two winners (a team): the winner is behind only when both stand below the top."""
    rows = {
        0: [(0, [0, 0, 0, 0]), (2, [4, 1, 5, 2]), (3, [4, 1, 6, 2])],
        1: [(0, [0, 0, 0, 0]), (2, [1, 6, 2, 6]), (3, [1, 6, 2, 7])],
    }
    a = arc.game_arcs(trace(rows), winners({0: [1, 0, 1, 0], 1: [1, 0, 1, 0]})).set_index("game")
    assert a["winner_behind_two_thirds"].tolist() == [False, True]
    assert a["leader_two_thirds"].tolist() == [2, -1]  # game 1: seats 1 and 3 share the top
    assert a["leader_wins_two_thirds"].tolist() == [True, False]


@pytest.fixture
def no_standings_game(toy):
    """toy_pig without a standings function in its engine (the engine module is a copy without it)."""
    eng = toy.engine_module()
    module = types.ModuleType("tests._pig_without_standings")
    module.__dict__.update({k: v for k, v in vars(eng).items() if k != "standings" and not k.startswith("__")})
    sys.modules[module.__name__] = module
    spec = dataclasses.replace(toy, name="toy_pig_plain", engine=module.__name__)
    register(spec)
    yield spec
    del sys.modules[module.__name__]


def test_a_game_without_standings_is_refused_in_one_line(no_standings_game, tmp_path, capsys):
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as e:
        raise SystemExit(
            main(["run", "toy_pig_plain", "--games", "10", "--out", str(out), "--no-progress", "--standings"])
        )
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--standings" in err[0] and "toy_pig_plain" in err[0], err
    assert not out.exists()


def test_run_with_standings_round_trips_and_resumes(tmp_path, capsys):
    traced, plain = tmp_path / "traced", tmp_path / "plain"
    common = ["--games", "300", "--players", "2-4", "--seed", "3", "--chunk-size", "250", "--no-progress"]
    assert main(["run", "toy_pig", *common, "--out", str(traced), "--standings"]) == 0
    assert main(["run", "toy_pig", *common, "--out", str(plain)]) == 0
    for table in ("games", "seats", "items"):  # the same games, with or without the trace
        assert pd.read_parquet(traced / table).equals(pd.read_parquet(plain / table))
    assert not (plain / "standings").exists()
    st = pd.read_parquet(traced / "standings")
    seats = pd.read_parquet(traced / "seats")
    assert list(st.columns) == ["game", "round", "seat", "standing"]
    assert st.groupby("game").size().eq(seats.groupby("game").size() * st.groupby("game")["round"].nunique()).all()
    start = st[st["round"] == 0]
    assert (start["standing"] == 0).all() and start["game"].nunique() == 900
    last = st[st["round"] == st.groupby("game")["round"].transform("max")]
    end = last.merge(seats, on=["game", "seat"])
    assert (end["standing"] == end["score"]).all()  # the last row is the final score
    assert (st.groupby(["game", "seat"])["round"].diff().dropna() > 0).all()  # rounds increase within a game
    v = check_folder(traced)
    assert v.ok and len(v.done) == 4

    # resume: a damaged standings part is found by sim check and its chunk replayed to the same bytes
    part = traced / "standings" / "part-00001.parquet"
    good = part.read_bytes()
    part.write_bytes(good[: len(good) // 2])
    assert not check_folder(traced).ok
    capsys.readouterr()
    assert main(["run", "toy_pig", *common, "--out", str(traced), "--standings"]) == 0
    assert "replaying chunk 1" in capsys.readouterr().err
    assert part.read_bytes() == good and check_folder(traced).ok

    # the trace is part of the request: the plain run's folder is not silently extended with it
    capsys.readouterr()
    assert main(["run", "toy_pig", *common, "--out", str(plain), "--standings"]) == 2
    assert "standings" in capsys.readouterr().err


def test_long_games_are_thinned_not_cut(toy):
    """A trace shorter than the game keeps rows spread over the whole game, its last row the final score."""
    spec, design, pvec = prepare(toy, (2,), 40, ["random", "random"], None, False, {"target": 200})
    full = simulate(spec, design, pvec, 5, 0, 40, standings=True)
    small = output_buffers(spec, 40, standings=True)
    small.update(t_round=np.empty((40, 8), np.int32), t_val=np.empty((40, 8, small["t_val"].shape[2]), np.float32))
    thin = simulate(spec, design, pvec, 5, 0, 40, small, standings=True)
    assert (thin["steps"] == full["steps"]).all()
    long = np.flatnonzero(full["t_rows"] > 8)
    assert len(long) > 10
    for g in long:
        rounds = thin["t_round"][g, : thin["t_rows"][g]]
        assert rounds[0] == 0 and (np.diff(rounds) > 0).all()
        assert rounds[-1] == full["t_round"][g, full["t_rows"][g] - 1]  # the end is kept
        assert (thin["t_val"][g, thin["t_rows"][g] - 1, :2] == full["seat_f"][g, :2, 0]).all()
        kept = dict(zip(full["t_round"][g, : full["t_rows"][g]], full["t_val"][g, : full["t_rows"][g], :2].tolist()))
        assert all(kept[r] == v for r, v in zip(rounds, thin["t_val"][g, : thin["t_rows"][g], :2].tolist()))
        assert len(set(np.diff(rounds[:-1]))) <= 2  # evenly spaced (one stride)
