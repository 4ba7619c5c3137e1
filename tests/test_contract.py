"""The engine protocol, checked on every registered game (in the spirit of pgx's api_test and OpenSpiel's
random_sim_test): state layout, random legal play to the end, well-formed outcomes, determinism."""

import numpy as np
import pytest

from sim.game import game_names, get_game
from sim.kernel import check_state_dtype
from sim.runner import prepare, simulate

GAMES = game_names() + ["toy_pig"]  # the template game (sim/games/_template) too


def test_every_game_folder_is_registered():
    assert {"bang_dice", "raccoon_tycoon", "saloon_tycoon", "cold_comfort", "gunny_town"} <= set(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_state_layout(name):
    eng = get_game(name).engine_module()
    names = eng.STATE_DTYPE.names
    for field in ("rng", "ev", "n_ev", "log_on"):
        assert field in names, field
    assert eng.STATE_DTYPE["rng"].shape == (2,)
    check_state_dtype(eng)  # raises if a field shadows a numpy.record attribute (breaks NUMBA_DISABLE_JIT)


@pytest.mark.parametrize("name", GAMES)
def test_random_play_is_well_formed_and_deterministic(name):
    game = get_game(name)
    eng = game.engine_module()
    for n in sorted({game.players[0], game.default_players, game.players[1]}):
        spec, design, pvec = prepare(game, (n,), 40, lineup=["random"])
        a = simulate(spec, design, pvec, 123, 0, 40)
        b = simulate(spec, design, pvec, 123, 0, 40)
        for key in a:
            assert np.array_equal(a[key], b[key]), (name, n, key)
        assert (a["steps"] > 0).all(), f"{name} {n}p: a random game hit the step cap"
        share = a["seat_f"][:, :, 1]
        assert np.allclose(share.sum(axis=1), 1.0), (name, n)
        assert (share[:, n:] == 0).all()
        cols = {c: i for i, c in enumerate(game.seat_columns)}
        win = a["seat_int"][:, :n, cols["win"]]
        assert ((win == 0) | (win == 1)).all()
        # winners share the game; a game nobody wins is a draw split over every seat
        nobody = win.sum(axis=1) == 0
        assert ((share[:, :n] > 0) == (win == 1))[~nobody].all()
        assert np.allclose(share[nobody, :n], 1.0 / n)
        order = np.sort(a["seat_int"][:, :n, cols["order"]], axis=1)
        assert (order == np.arange(n)).all(), f"{name}: turn order is not a permutation"
        assert (a["n_items"] <= eng.MAX_ITEMS).all()
        items = a["items"]
        for g in range(40):
            k = a["n_items"][g]
            assert ((items[g, :k, 0] >= 0) & (items[g, :k, 0] < n)).all()
            assert ((items[g, :k, 1] >= 0) & (items[g, :k, 1] < len(game.item_names))).all()


@pytest.mark.parametrize("name", GAMES)
def test_reused_state_plays_like_a_fresh_one(name):
    """The runner plays many games on one reused state: setup() must initialise everything a game reads, so a
    game played after others on the same state matches the same game on a fresh state (default strategies)."""
    from sim.kernel import load_kernel, new_states

    game = get_game(name)
    eng = game.engine_module()
    kern = load_kernel(game)
    spec, design, pvec = prepare(game, (game.default_players,), 30)
    players, seed_index, _, strat = design.assign(0, 30, eng.MAX_PLAYERS)
    sids = np.array([game.strategy(x).sid for x in design.slots], dtype=np.int64)
    weights = game.weights_matrix(design.slots)

    def run(n_states):
        out = [
            np.zeros((30, len(game.game_columns)), np.int64),
            np.zeros((30, eng.MAX_PLAYERS, len(game.seat_columns)), np.int64),
            np.zeros((30, eng.MAX_PLAYERS, 2)),
            np.zeros((30, eng.MAX_ITEMS, 3 + len(game.item_columns)), np.int64),
            np.zeros(30, np.int64),
            np.zeros(30, np.int64),
        ]
        kern.play_batch(new_states(eng, n_states), pvec, np.uint64(5), seed_index, players, strat, sids, weights, *out)
        return out

    for fresh, reused in zip(run(30), run(2)):
        assert np.array_equal(fresh, reused)


@pytest.mark.parametrize("name", GAMES)
def test_reused_output_buffers_give_fresh_results(name):
    """The runner plays every chunk into the same output buffers: a chunk played into buffers full of another
    chunk's results (and garbage) equals the same chunk played into fresh ones."""
    from sim.runner import output_buffers

    game = get_game(name)
    spec, design, pvec = prepare(game, (game.players[0], game.players[1]), 30)
    fresh = simulate(spec, design, pvec, 4, 10, 40)
    bufs = output_buffers(spec, 60)
    simulate(spec, design, pvec, 9, 0, 60, bufs)  # other games, some with more items and seats
    for a in bufs.values():
        a.view(np.uint8)[::7] = 0xA5  # and garbage left in between
    reused = simulate(spec, design, pvec, 4, 10, 40, bufs)
    for key in fresh:
        assert np.array_equal(fresh[key], reused[key]), (name, key)


@pytest.mark.parametrize("name", GAMES)
def test_interpreted_engine_matches_compiled(name, tmp_path):
    """The same two games with NUMBA_DISABLE_JIT=1 (plain Python) and compiled give identical outcomes."""
    import os
    import subprocess
    import sys

    code = (
        "import sys, numpy as np; from sim.runner import prepare, simulate; import tests.conftest;"
        f"spec, d, p = prepare({name!r}, None, 2);"
        "a = simulate(spec, d, p, 77, 0, 2);"
        "np.savez(sys.argv[1], seat_int=a['seat_int'], seat_f=a['seat_f'], steps=a['steps'], items=a['items'])"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=os.getcwd())
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "nojit.npz")], env=env, check=True, timeout=600)
    spec, d, p = prepare(name, None, 2)
    jit = simulate(spec, d, p, 77, 0, 2)
    nojit = np.load(tmp_path / "nojit.npz")
    for key in ("steps", "seat_int", "seat_f", "items"):
        assert np.array_equal(nojit[key], jit[key]), key


@pytest.mark.parametrize("name", GAMES)
def test_every_step_is_well_formed(name):
    """Per-step checks in the spirit of pgx's api_test, over random play from Python: the deciding seat is a seat of
    the game, 1 <= n <= MAX_ACTIONS, no action is listed twice, and every legal action has text for `sim replay`."""
    from sim.kernel import new_states
    from sim.rng import seed_streams

    game = get_game(name)
    eng = game.engine_module()
    pvec = game.params.defaults()
    legal = np.empty(eng.MAX_ACTIONS, np.int64)
    pick = np.random.default_rng(11)
    for n_players in sorted({game.players[0], game.players[1]}):
        for g in range(2):
            s = new_states(eng, 1)[0]
            seed_streams(s["rng"], np.uint64(99), g)
            eng.setup(s, pvec, n_players)
            steps = 0
            while not eng.is_over(s):
                seat = eng.current_player(s)
                assert 0 <= seat < n_players, (name, n_players, steps, seat)
                n = eng.legal_actions(s, pvec, legal)
                assert 1 <= n <= eng.MAX_ACTIONS, (name, n_players, steps, n)
                actions = legal[:n]
                assert len(np.unique(actions)) == n, f"{name}: an action is listed twice at step {steps}"
                if game.action_text is not None:
                    for a in actions:
                        assert game.action_text(int(a)).strip(), f"{name}: action {a} has no text"
                eng.apply_action(s, pvec, actions[pick.integers(n)])
                steps += 1
                assert steps <= eng.MAX_STEPS
            assert steps > 1, f"{name}: a random game ended after {steps} decisions"


@pytest.mark.parametrize("name", GAMES)
def test_hidden_fields_are_declared_and_blind_strategies_ignore_them(name):
    """Each engine declares HIDDEN_FIELDS, the state fields some seat cannot see; the game's determinize (hidden.py)
    re-samples what the deciding seat cannot see and may change only those fields; and every strategy declared
    sees_hidden=False chooses the same on the re-sampled state as on the true one (its own random stream
    restored), at decisions sampled from random play at the smallest and largest player counts."""
    import importlib

    from sim.kernel import new_states
    from sim.rng import seed_streams

    game = get_game(name)
    eng = game.engine_module()
    hidden = set(eng.HIDDEN_FIELDS)
    assert hidden <= set(eng.STATE_DTYPE.names), f"{name}: HIDDEN_FIELDS names unknown fields"
    determinize = importlib.import_module(game.engine.rsplit(".", 1)[0] + ".hidden").determinize
    choose = importlib.import_module(game.strategy_module).choose
    blind = [st for st in game.strategies if not st.sees_hidden]
    pvec = game.params.defaults()
    legal = np.empty(eng.MAX_ACTIONS, np.int64)
    pick = np.random.default_rng(3)
    checked = varied = 0
    for n_players in sorted({game.players[0], game.players[1]}):
        for g in range(3):
            st = new_states(eng, 2)
            s = st[0]
            seed_streams(s["rng"], np.uint64(7), g)
            eng.setup(s, pvec, n_players)
            steps = 0
            while not eng.is_over(s) and steps < 3000:
                seat = eng.current_player(s)
                n = eng.legal_actions(s, pvec, legal)
                if n > 1 and pick.random() < 0.2:
                    st[1] = s
                    other = st[1]
                    other["rng"][0] ^= np.uint64(0x9E3779B97F4A7C15)  # another re-sampling than the true deal
                    determinize(other, pvec, seat)
                    other["rng"] = s["rng"]
                    for f in eng.STATE_DTYPE.names:
                        if f not in hidden and f != "rng":
                            assert np.array_equal(other[f], s[f]), f"{name}: determinize changed public field {f}"
                    varied += any(not np.array_equal(other[f], s[f]) for f in hidden)
                    for strat in blind:
                        w = np.asarray(game.weights_matrix([strat.name])[0])
                        a = st.copy()
                        k1 = choose(a[0], pvec, seat, legal[:n].copy(), n, strat.sid, w)
                        k2 = choose(a[1], pvec, seat, legal[:n].copy(), n, strat.sid, w)
                        assert k1 == k2, f"{name}: {strat.name} (sees_hidden=False) reads hidden fields"
                        checked += 1
                eng.apply_action(s, pvec, legal[pick.integers(n)])
                steps += 1
    assert checked > 0 or not blind
    assert varied > 0 or not hidden, f"{name}: determinize never changed a hidden field"
