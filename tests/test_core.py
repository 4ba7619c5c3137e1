"""The core on a toy game: seeding, seat design, parquet output, resume, determinism, replay, parameters."""

import json
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from sim.errors import UserError
from sim.results import part_name
from sim.rng import game_seed, rand_below
from sim.runner import prepare, run_study, simulate
from sim.replay import replay_text


def read(run, table):
    return (
        pd.read_parquet(run / table)
        .sort_values(["game"] + (["seat"] if table != "games" else []))
        .reset_index(drop=True)
    )


def test_rng_reproducible_and_uniform():
    assert game_seed(7, 3) == game_seed(7, 3)
    assert game_seed(7, 3) != game_seed(7, 4) and game_seed(7, 3) != game_seed(8, 3)
    rng = np.array([game_seed(1, 2), 0], dtype=np.uint64)
    draws = np.array([rand_below(rng, 0, 6) for _ in range(60000)])
    counts = np.bincount(draws, minlength=6)
    assert draws.min() == 0 and draws.max() == 5
    from scipy.stats import chisquare

    assert chisquare(counts).pvalue > 1e-4


def test_local_stream_draws_match_the_state_stream():
    """A strategy may keep the policy stream in a local (state + GOLDEN per draw, float_of where the draw is used):
    the draws and the final state must equal rand_float on the state record, draw by draw."""
    from sim.rng import GOLDEN, float_of, rand_float

    rng = np.array([0, game_seed(5, 9)], dtype=np.uint64)
    x = rng[1]
    for _ in range(1000):
        x = np.uint64(x + GOLDEN)
        assert float_of(x) == rand_float(rng, 1)
    assert x == rng[1]


def test_rotation_is_balanced(toy):
    _, design, _ = prepare(toy, (3,), 300, lineup=["hold20", "hold10", "random"])
    players, seed_index, rotation, strat = design.assign(0, 300, 4)
    for seat in range(3):
        counts = np.bincount(strat[:, seat], minlength=3)
        assert list(counts) == [100, 100, 100]
    assert (strat[:, 3] == -1).all()
    assert (seed_index == np.arange(300)).all()


def test_lineup_longer_than_the_table_rotates_through_it(toy):
    _, design, _ = prepare(toy, (2,), 300, lineup=["hold20", "hold10", "random"])
    _, _, rotation, strat = design.assign(0, 300, 4)
    assert set(rotation) == {0, 1, 2}
    for seat in range(2):
        assert list(np.bincount(strat[:, seat], minlength=3)) == [100, 100, 100]
    assert (strat[:, 0] != strat[:, 1]).all()  # two different strategies at every table


def test_all_rotations_share_seeds(toy):
    _, design, _ = prepare(toy, (3,), 9, lineup=["hold20", "hold10", "random"], all_rotations=True)
    _, seed_index, rotation, strat = design.assign(0, 9, 4)
    assert list(seed_index) == [0, 0, 0, 3, 3, 3, 6, 6, 6]
    assert list(rotation) == [0, 1, 2] * 3
    # within a group every strategy occupies every seat once
    assert sorted(strat[:3, 0]) == [0, 1, 2]


def _neighbours(strat, n):
    """Counts of (strategy, its left neighbour, its right neighbour) over the seats of an assignment; the left
    neighbour is the next seat."""
    from collections import Counter

    return Counter((int(row[j]), int(row[(j + 1) % n]), int(row[(j - 1) % n])) for row in strat for j in range(n))


def _left_neighbours(strat, n):
    out = {}
    for (who, left, _), k in _neighbours(strat, n).items():
        out[(who, left)] = out.get((who, left), 0) + k
    return out


def test_cyclic_rotation_keeps_neighbours_and_mirror_balances_them(toy):
    """A,B,A,B rotated one way: B always sits on A's left; rotated both ways, each sits on either side of the
    other equally often, and every strategy still occupies every seat equally often."""
    lineup = ["hold20", "hold10", "hold20", "hold10"]
    _, plain, _ = prepare(toy, (4,), 80, lineup=lineup)
    _, mirrored, _ = prepare(toy, (4,), 80, lineup=lineup, mirror=True)
    *_, strat = plain.assign(0, 80, 4)
    assert _left_neighbours(strat, 4) == {(0, 1): 160, (1, 0): 160}
    _, _, rotation, strat = mirrored.assign(0, 80, 4)
    assert set(rotation) == set(range(8))
    # 3-player line-up: left and right neighbours trade places between the two directions
    _, three, _ = prepare(toy, (3,), 60, lineup=["hold20", "hold10", "random"], mirror=True)
    *_, strat3 = three.assign(0, 60, 4)
    left = _left_neighbours(strat3, 3)
    assert left[(0, 1)] == left[(1, 0)] == left[(0, 2)] == left[(2, 0)] == 30
    for seat in range(3):
        assert list(np.bincount(strat3[:, seat], minlength=3)) == [20, 20, 20]
    for seat in range(4):
        assert list(np.bincount(strat[:, seat], minlength=2)) == [40, 40]


def test_interleaved_mirrored_head_to_head_seats_both_sides_alike(toy):
    """A,X,A',Y with mirror: A and A' meet the same (left, right) neighbours equally often, which a cyclic rotation
    does not give (A always has X on its left, A' always Y)."""

    def sides(design, who):
        *_, strat = design.assign(0, 64, 4)
        return {(left, right): k for (w, left, right), k in _neighbours(strat, 4).items() if w == who}

    lineup = ["hold20", "hold10", "random", "planted"]
    _, plain, _ = prepare(toy, (4,), 64, lineup=lineup)
    _, mirrored, _ = prepare(toy, (4,), 64, lineup=lineup, mirror=True)
    # slots: hold20 0, hold10 1, random 2, planted 3; hold20 and random are the pair compared
    assert sides(plain, 0) == {(1, 3): 64} and sides(plain, 2) == {(3, 1): 64}
    assert sides(mirrored, 0) == sides(mirrored, 2) == {(1, 3): 32, (3, 1): 32}


def test_mirror_with_all_rotations_shares_one_seed_over_both_directions(toy):
    _, design, _ = prepare(toy, (3,), 12, lineup=["hold20", "hold10", "random"], all_rotations=True, mirror=True)
    _, seed_index, rotation, strat = design.assign(0, 12, 4)
    assert list(seed_index) == [0] * 6 + [6] * 6
    assert list(rotation) == list(range(6)) * 2
    assert sorted(map(tuple, strat[:6, :3])) == sorted(  # the 6 arrangements of 3 strategies, each once
        [(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (1, 0, 2), (2, 1, 0)]
    )


def test_mirror_is_recorded_resumed_and_replayed(tmp_path, toy):
    from sim.seating import Design

    def run(out, **kw):
        lineup = ["hold20", "hold10", "random"]
        return run_study(toy, out, games=60, players=(3,), lineup=lineup, seed=3, chunk_size=30, progress=False, **kw)

    mirrored = run(tmp_path / "m", mirror=True)
    m = json.loads((mirrored / "manifest.json").read_text())
    assert m["seating"]["mirror"] is True and Design.from_dict(m["seating"]).mirror
    plain = run(tmp_path / "p")
    assert "mirror" not in json.loads((plain / "manifest.json").read_text())["seating"]
    with pytest.raises(UserError, match="different run"):  # one folder never mixes the two seatings
        run(tmp_path / "m")
    before = (mirrored / "manifest.json").read_text()
    run(tmp_path / "m", mirror=True)  # the same request resumes: nothing left to play
    assert json.loads((mirrored / "manifest.json").read_text())["chunks"] == json.loads(before)["chunks"]
    s, p = read(mirrored, "seats"), read(plain, "seats")
    assert (s.strategy.astype(str) != p.strategy.astype(str)).any()
    from sim.replay import replay

    assert replay(mirrored, 59)[2] is None  # the replay, seated from the manifest, matches the stored game
    with pytest.raises(UserError, match="fixed seats"):
        prepare(toy, (3,), 10, strategies=["hold20", "hold10", "random"], mirror=True)


def test_run_tables_and_manifest(tmp_path, toy):
    run = run_study(toy, tmp_path / "r", games=3000, players=(3, 4), seed=5, chunk_size=1000, progress=False)
    g, s, it = read(run, "games"), read(run, "seats"), read(run, "items")
    m = json.loads((run / "manifest.json").read_text())
    assert m["status"] == "complete" and m["total_games"] == 6000
    assert len(g) == 6000 and list(g.game) == list(range(6000))
    assert len(s) == 3000 * 3 + 3000 * 4
    shares = s.groupby("game").win_share.sum()
    assert np.allclose(shares, 1.0)
    assert set(s.strategy.astype(str)) == {"hold20", "hold10", "random"}
    assert (it.item.astype(str) == "halfway").all() and len(it) > 0
    assert not g.capped.any()


def test_part_files_hold_exactly_the_chunk_tables(tmp_path, toy):
    """The writer's encodings (delta-packed integers, dictionary labels) lose nothing: each part file reads back
    equal, type for type, to the tables built from the kernel's output."""
    import pyarrow.parquet as pq
    from sim.results import chunk_tables

    run = run_study(toy, tmp_path / "r", games=700, players=(3,), seed=2, chunk_size=500, progress=False)
    spec, design, pvec = prepare(toy, (3,), 700)
    for chunk, (start, stop) in enumerate([(0, 500), (500, 700)]):
        built = chunk_tables(spec, design, start, simulate(spec, design, pvec, 2, start, stop))
        for name, table in built.items():
            assert pq.read_table(run / name / part_name(chunk)).equals(table), (name, chunk)


def test_thread_count_and_chunking_do_not_change_results(tmp_path, toy):
    import numba

    a = run_study(toy, tmp_path / "a", games=2000, seed=11, chunk_size=333, threads=1, progress=False)
    b = run_study(
        toy,
        tmp_path / "b",
        games=2000,
        seed=11,
        chunk_size=2000,
        threads=numba.config.NUMBA_NUM_THREADS,
        progress=False,
    )
    for table in ("games", "seats", "items"):
        pd.testing.assert_frame_equal(read(a, table), read(b, table))


def test_seed_changes_results(tmp_path, toy):
    a = run_study(toy, tmp_path / "a", games=500, seed=1, progress=False)
    b = run_study(toy, tmp_path / "b", games=500, seed=2, progress=False)
    assert not read(a, "seats").score.equals(read(b, "seats").score)


def test_resume_plays_only_missing_chunks(tmp_path, toy):
    run = run_study(toy, tmp_path / "r", games=4000, seed=3, chunk_size=1000, progress=False)
    before = {t: read(run, t) for t in ("games", "seats", "items")}
    # as if the process had been killed during chunk 2: its games part (written last) is missing
    (run / "games" / part_name(2)).unlink()
    stamp = {c: (run / "games" / part_name(c)).stat().st_mtime_ns for c in (0, 1, 3)}
    run_study(toy, run, games=4000, seed=3, chunk_size=1000, progress=False)
    for c in (0, 1, 3):
        assert (run / "games" / part_name(c)).stat().st_mtime_ns == stamp[c]
    for t, df in before.items():
        pd.testing.assert_frame_equal(read(run, t), df)


def test_different_request_in_same_folder_is_refused(tmp_path, toy):
    run_study(toy, tmp_path / "r", games=100, seed=3, progress=False)
    with pytest.raises(UserError, match="differs in"):
        run_study(toy, tmp_path / "r", games=100, seed=4, progress=False)
    run_study(toy, tmp_path / "r", games=100, seed=4, progress=False, overwrite=True)
    part = tmp_path / "r" / "games" / part_name(0)
    stamp = part.stat().st_mtime_ns
    run_study(toy, tmp_path / "r", games=100, seed=4, progress=False, overwrite=True)
    assert part.stat().st_mtime_ns == stamp, "--overwrite replaced the same run instead of resuming it"


def test_results_of_other_code_are_not_resumed(tmp_path, toy, monkeypatch):
    """Finished chunks written by another version of the game's code would mix two rule sets in one run."""
    run_study(toy, tmp_path / "r", games=100, seed=3, progress=False)
    monkeypatch.setattr(type(toy), "code_version", lambda self: "another-version")
    with pytest.raises(UserError, match="differs in: game_code"):
        run_study(toy, tmp_path / "r", games=100, seed=3, progress=False)


def test_bad_input_is_refused_before_writing(tmp_path, toy):
    cases = [
        dict(players=(9,)),
        dict(lineup=["nope"]),
        dict(params={"target": "-3"}),
        dict(params={"targte": 5}),
        dict(games=0),
        dict(seed=-1),
        dict(strategies=["hold20"]),
    ]
    for kw in cases:
        out = tmp_path / "x"
        with pytest.raises(UserError):
            run_study(toy, out, **{"games": 10, **kw}, progress=False)
        assert not out.exists(), kw


def test_param_errors_name_the_problem(toy):
    with pytest.raises(UserError, match="Did you mean target"):
        toy.params.resolve({"targe": 3})
    with pytest.raises(UserError, match=r"out of range \[1, 1000\]"):
        toy.params.resolve({"target": 0})
    vec = toy.params.resolve({"target": "60"})
    assert toy.params.changed(vec) == {"target": "60"}


def test_parameter_reaches_the_engine(tmp_path, toy):
    run = run_study(toy, tmp_path / "r", games=300, seed=1, params={"target": 10}, progress=False)
    s = read(run, "seats")
    assert s[s.win == 1].score.min() >= 10 and s.score.max() < 10 + 6 * 30


def test_replay_matches_the_run(tmp_path, toy):
    run = run_study(toy, tmp_path / "r", games=50, seed=9, progress=False)
    s = read(run, "seats")
    lines = replay_text(run, 17)
    assert "game 17" in lines[0]
    for _, row in s[s.game == 17].iterrows():
        assert f"seat {row.seat} ({row.strategy}): score={row.score:g}" in "\n".join(lines)
    with pytest.raises(UserError, match="outside this run"):
        replay_text(run, 50)


def test_engine_functions_listed_for_the_child_are_loaded_from_its_cache(tmp_path, toy):
    """An engine's COMPILE_IN_CHILD functions (the toy game lists _next) go first in the child's half, and the types
    sent for them are the ones the engine's moves call them with: after the child program alone has filled a fresh
    cache, a run loads _next from it instead of compiling it."""
    import pickle
    from sim.kernel import _COMPILE_CHILD, load_kernel
    from sim.runner import kernel_args

    spec, d, p = prepare(toy, (3,), 40)
    _, states, args = kernel_args(spec, d, p, 21, 0, 40)
    in_child, here = load_kernel(spec).callee_types(states, *args)
    assert list(in_child) == ["engine._next", "choose", "decide", "write_outcome"]
    assert list(here) == ["setup", "apply_action", "is_over"]
    env = dict(os.environ, SIM_CACHE_DIR=str(tmp_path / "cache"), NUMBA_CACHE_DIR=str(tmp_path / "cache" / "nb"))
    subprocess.run(
        [sys.executable, "-c", _COMPILE_CHILD, "sim.games._template"],
        input=pickle.dumps(in_child),
        env=env,
        check=True,
        cwd=os.getcwd(),
        capture_output=True,
    )
    code = (
        "import sys; sys.path.insert(0, '.'); from sim.games._template import GAME, engine;"
        "from sim.runner import prepare, simulate; spec, d, p = prepare(GAME, (3,), 40);"
        "simulate(spec, d, p, 21, 0, 40);"
        "print((engine._next.stats.cache_hits.total(), engine._next.stats.cache_misses.total()))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, cwd=os.getcwd(), capture_output=True, text=True
    ).stdout
    assert eval(out.strip().splitlines()[-1]) == (1, 0)


DECLARED_MODULE = """
import numba as nb, numpy as np
from sim.kernel import declared, one_copy
K = 3
@declared(nb.int64(nb.int64, nb.int64))
def add(a, b):
    return a + b
@nb.njit(cache=True)
def caller(x):
    return add(x, K) + add(np.int8(2), 5) + add(True, x)
@one_copy()
def mul(a, b):
    return a * b
@nb.njit(cache=True)
def widening_caller(x):
    return mul(x, K) + mul(np.int8(2), 5) + mul(np.int32(3), x) + mul(0.5, x)
"""


def _in_fresh_process(tmp_path, expression):
    """Evaluate an expression over DECLARED_MODULE (imported as m) in a new process with an empty numba cache."""
    (tmp_path / "declmod.py").write_text(DECLARED_MODULE)
    code = (
        "import sys; sys.path[:0] = [sys.argv[1], '.']; import declmod as m, numpy as np;"
        "sigs = lambda f: sorted(tuple(str(t) for t in sig) for sig in f.signatures);"
        f"print(repr({expression}))"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "nb"))
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)],
        env=env,
        check=True,
        cwd=os.getcwd(),
        capture_output=True,
        text=True,
    ).stdout
    return eval(out.strip().splitlines()[-1])


def test_declared_helper_compiles_once_at_first_use(tmp_path):
    """sim.kernel.declared: nothing is compiled at import, and callers passing an int8, a module constant (typed as
    its literal value) and a bool share the one declared signature instead of compiling a copy for each."""
    before, results, after = _in_fresh_process(  # a tuple is evaluated left to right: before, calls, after
        tmp_path, "(sigs(m.add), (m.caller(np.int8(4)), m.caller(7), m.add(2, 3)), sigs(m.add))"
    )
    assert before == []
    assert after == [("int64", "int64")]
    assert results == ((4 + 3) + (2 + 5) + (1 + 4), (7 + 3) + (2 + 5) + (1 + 7), 5)


def test_one_copy_helper_compiles_once_per_widened_argument_types(tmp_path):
    """sim.kernel.one_copy: a constant, an int8, an int32 and an int64 argument share one int64 copy (numba alone
    compiles one per type), while a float argument, which is not widened, gets its own; results unchanged."""
    results, signatures = _in_fresh_process(
        tmp_path, "((m.widening_caller(np.int8(4)), m.widening_caller(7)), sigs(m.mul))"
    )
    assert signatures == [("float64", "int64"), ("int64", "int64")]
    assert results == (4 * 3 + 2 * 5 + 3 * 4 + 0.5 * 4, 7 * 3 + 2 * 5 + 3 * 7 + 0.5 * 7)


def test_interpreted_engine_gives_identical_results(tmp_path, toy):
    """The same games with NUMBA_DISABLE_JIT=1 (pure Python) equal the compiled ones."""
    code = (
        "import sys, numpy as np; sys.path.insert(0, '.');"
        "from sim.games._template import GAME; from sim.runner import prepare, simulate;"
        "spec, d, p = prepare(GAME, (3,), 40); a = simulate(spec, d, p, 21, 0, 40);"
        "np.save(sys.argv[1], a['seat_f'])"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "nojit.npy")], env=env, check=True, cwd=os.getcwd())
    spec, d, p = prepare(toy, (3,), 40)
    jit = simulate(spec, d, p, 21, 0, 40)["seat_f"]
    assert np.array_equal(np.load(tmp_path / "nojit.npy"), jit)


def test_first_compile_is_shared_with_a_child_process(tmp_path, toy):
    """In a fresh cache the kernel's decide and write_outcome are compiled by a child process (this one loads
    them from numba's cache, so the types it sent were exactly those play_blocks uses) while this one compiles
    the engine's moves; a second process loads the whole kernel and compiles nothing."""
    code = (
        "import sys, numpy as np; sys.path.insert(0, '.');"
        "from sim.games._template import GAME; from sim.kernel import load_kernel;"
        "from sim.runner import prepare, simulate;"
        "spec, d, p = prepare(GAME, (3,), 40); a = simulate(spec, d, p, 21, 0, 40); k = load_kernel(spec);"
        "print([(f.stats.cache_hits.total(), f.stats.cache_misses.total(), len(f.signatures)) for f in "
        "(k.decide, k.write_outcome, k.setup, k.apply_action, k.play_blocks)]); np.save(sys.argv[1], a['seat_f'])"
    )
    env = dict(os.environ, SIM_CACHE_DIR=str(tmp_path / "cache"), NUMBA_CACHE_DIR=str(tmp_path / "cache" / "nb"))
    runs = []
    for i in range(2):
        out = subprocess.run(
            [sys.executable, "-c", code, str(tmp_path / f"{i}.npy")],
            env=env,
            check=True,
            cwd=os.getcwd(),
            capture_output=True,
            text=True,
        ).stdout
        runs.append(eval(out.strip().splitlines()[-1]))
    first, second = runs
    assert first[0] == (1, 0, 1) and first[1] == (1, 0, 1)  # decide, write_outcome: from the child's cache
    assert first[2][1:] == (1, 1) and first[3][1:] == (1, 1)  # setup, apply_action: compiled here
    assert first[4] == (0, 1, 1)  # play_blocks: compiled here, once
    assert second[:4] == [(0, 0, 0)] * 4 and second[4] == (1, 0, 1)  # all from the cache
    assert len(list((tmp_path / "cache").rglob("*_kernel.compiled"))) == 1
    spec, d, p = prepare(toy, (3,), 40)
    jit = simulate(spec, d, p, 21, 0, 40)["seat_f"]
    assert np.array_equal(np.load(tmp_path / "0.npy"), jit) and np.array_equal(np.load(tmp_path / "1.npy"), jit)
