"""The rollout search player (sim/search.py, the kernel's search_choose) on the toy game Pig."""

import numba
import numpy as np
import pytest

from sim.errors import UserError
from sim.game import get_game
from sim.players import StrategySpec
from sim.kernel import load_kernel, new_states
from sim.runner import prepare, simulate
from sim.study import Study
from sim.search import ACCEPT, ACCEPT_FROM, COURSE, HEADER, SEARCH_SID, W_ACCEPT, W_COURSE, W_FIRST, W_HALVING
from sim.search import search_strategy, t_quantile, t_threshold


def _outs():
    return (np.zeros(2, np.int64), np.zeros((4, 4), np.int64), np.zeros((4, 2)), np.zeros((4, 3), np.int64))


def _pig(score0, score1, pot, seed=7):
    game = get_game("toy_pig")
    st = new_states(game.engine_module(), 1)
    game.engine_module().setup(st[0], game.params.resolve({}), 2)
    st[0]["score"][0], st[0]["score"][1], st[0]["pot"] = score0, score1, pot
    st[0]["rng"][:] = [seed, seed + 1]
    return game, st


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_search_fixes_its_rollout_policys_blunder(seed):
    """At 35-30 with 6 in the pot holding wins at once; hold10 would roll on (it holds at 10): the search that rolls
    out with hold10 must hold.  The same at 38-35 with 5 in the pot and hold20."""
    game, st = _pig(35, 30, 6, seed)
    kern = load_kernel(game)
    legal = np.array([0, 1], np.int64)
    pvec = game.params.resolve({})
    hold10 = np.array(game.strategy("search64@hold10").weights)
    assert kern.search_decision(st, pvec, 0, legal, 2, hold10, *_outs()) == 1  # hold and win
    game, st = _pig(38, 35, 5, seed)
    w = np.array(game.strategy("search64").weights)  # rolls out with hold20, which would roll here
    assert kern.search_decision(st, pvec, 0, legal, 2, w, *_outs()) == 1  # hold and win
    flat = np.array(game.strategy("search64_flat").weights)  # every candidate every rollout, too
    assert kern.search_decision(st, pvec, 0, legal, 2, flat, *_outs()) == 1


def _course(win, margin, k):
    """The challenger's paired t statistic against the heuristic's choice over rollouts :k (win share; score margin
    where every win share agrees), written independently of the kernel's course_statistic."""
    for d in (win[1, :k] - win[0, :k], margin[1, :k] - margin[0, :k]):
        if d.std() > 0:
            return d.mean() / (d.std(ddof=1) / np.sqrt(k))
        if d.mean() != 0:
            return np.inf * np.sign(d.mean())
    return 0.0


def test_halving_drops_a_challenger_only_off_course():
    """Sequential halving's stopping rule, read from the rollouts it played (the columns it wrote): the first round
    shares rollouts / 4, a challenger goes on only while its paired t statistic is above COURSE x the final
    threshold x sqrt(k / rollouts), the heuristic's choice stands when it is dropped, a challenger that stops early
    on course was accepted (above ACCEPT x Student's t for its rollouts, at least ACCEPT_FROM of them), and when it
    reaches the end the flat search's test decides."""
    game, st = _pig(0, 0, 0)
    kern = load_kernel(game)
    pvec = game.params.resolve({})
    w = np.array(game.strategy("search32").weights)
    rollouts, z = 32, w[4]
    legal = np.array([0, 1], np.int64)
    work = kern.make_work(st, *_outs())
    stops = set()
    for score0, score1, pot in [(35, 30, 6), (38, 35, 5), (0, 0, 0), (10, 30, 12), (20, 20, 3), (30, 36, 9)]:
        for heuristic in (0, 1):
            for base in range(4):
                game, st = _pig(score0, score1, pot, base)
                cand = np.zeros(12, np.int64)
                cand[:2] = heuristic, 1 - heuristic
                win, margin = np.full((2, rollouts), np.nan), np.full((2, rollouts), np.nan)
                args = (legal, cand, 2, rollouts, np.uint64(base + 1), np.int64(w[2]), w[HEADER:], False, work)
                c = kern.halving_choice(st[0], pvec, 0, *args, win, margin, w)
                played = (~np.isnan(win)).sum(1)
                assert played[0] == played.max() and played[1] in (4, 8, 16, 32)  # rollouts / 4 shared, then doubling
                k = 4
                while k < played[1]:  # every round it went on from was on course and not accepted
                    t = _course(win, margin, k)
                    assert t > COURSE * z * np.sqrt(k / rollouts)
                    assert k < ACCEPT_FROM or not (np.isfinite(t) and t > ACCEPT * t_threshold(2.0, k))
                    k *= 2
                t = _course(win, margin, k)
                if played[1] < rollouts and t <= COURSE * z * np.sqrt(k / rollouts):
                    assert c == 0  # dropped: off course, and the heuristic's choice stands
                    stops.add("dropped")
                elif played[1] < rollouts:  # on course and stopped: accepted early
                    assert c == 1 and k >= ACCEPT_FROM and np.isfinite(t) and t > ACCEPT * t_threshold(2.0, k)
                    stops.add("accepted")
                else:  # the flat test on all the rollouts
                    assert c == (1 if _course(win, margin, rollouts) > z else 0)
                    stops.add("full")
    assert stops == {"dropped", "accepted", "full"}  # every way out was taken


def test_t_quantile_matches_scipy():
    """The kernel's Cornish-Fisher t quantile (for the early accept) against scipy's, from 3 degrees of freedom."""
    for z, tolerance in ((1.0, 0.005), (2.0, 0.005), (2.5, 0.01)):
        for df in (3, 4, 7, 15, 31, 63, 200):
            exact = t_threshold(z, df + 1)
            assert abs(t_quantile(z, df) - exact) < tolerance * exact, (z, df)


def test_search_names():
    game = get_game("toy_pig")
    s = game.strategy("search64x3z1@hold10")
    # header (rollouts, candidates, rollout sid, peek, threshold, unanimous, margin, halving, first round, first
    # round in all, course, early accept, level),
    # then the rollout preset's knobs
    assert s.sid == SEARCH_SID and s.weights[:4] == (64.0, 3.0, 1.0, 0.0)
    assert s.weights[HEADER:] == tuple(game.strategy("hold10").weights)
    # sequential halving by default (first round 64 / 16 rollouts), the flat allocation by name
    assert s.weights[W_HALVING] == 1.0 and s.weights[W_FIRST] == 4.0 and s.weights[W_COURSE] == COURSE
    assert s.weights[W_ACCEPT] == ACCEPT
    assert game.strategy("search_halving").weights == game.strategy("search").weights
    flat = game.strategy("search64x3z1_flat@hold10")
    assert flat.weights[W_HALVING] == 0.0 and flat.weights[:W_HALVING] == s.weights[:W_HALVING]
    assert flat.weights[W_ACCEPT] == 0.0  # no early accept without halving
    assert "sequential halving" in s.doc and "by 64 rollouts each" in flat.doc
    assert game.strategy("search4").weights[W_FIRST] == 1.0  # at least one rollout
    # z = 1 is a one-sided level of 15.9%; Student's t with 63 degrees of freedom needs a little more than 1
    assert 1.0 < s.weights[4] < 1.02
    assert game.strategy("search4").weights[4] > 3.0 > game.strategy("search").weights[4] > 2.0
    # four equal advantages happen by chance 1 time in 16, above the 2.3% level of z = 2; six do not (1 in 64)
    assert s.weights[5] == 1.0 and game.strategy("search4").weights[5] == 0.0
    assert game.strategy("search6").weights[5] == 1.0 and game.strategy("search5").weights[5] == 0.0
    assert not s.sees_hidden  # Pig supplies a determinize (it hides nothing)
    assert game.strategy("search_peek").sees_hidden
    assert search_strategy(game, "hold20") is None
    assert "search" not in game.strategy_names()  # the golden fingerprints' "every strategy" line-up is unchanged
    with pytest.raises(UserError):
        game.strategy("search@nosuch")


def test_a_game_may_set_the_plain_search_budget():
    # Pig keeps the generic 16 rollouts (flat; the halving search's final round twice as many); BANG declares 64
    # (GameSpec.search_rollouts); an explicit count wins
    assert get_game("toy_pig").strategy("search_flat").weights[0] == 16.0
    assert get_game("toy_pig").strategy("search").weights[0] == 32.0
    bang = get_game("bang_dice")
    assert bang.strategy("search_flat").weights[0] == 64.0
    assert bang.strategy("search").weights[0] == 128.0
    assert bang.strategy("search16").weights[0] == 16.0
    assert bang.strategy("search_peek").weights[0] == 128.0


def test_a_game_may_turn_off_the_score_margin_tie_break():
    # BANG's score is life points, which a deputy does not play for (GameSpec.search_margin = False)
    pig, bang = get_game("toy_pig").strategy("search"), get_game("bang_dice").strategy("search")
    assert pig.weights[6] == 1.0 and "score margin" in pig.doc
    assert bang.weights[6] == 0.0 and "score margin" not in bang.doc


@pytest.mark.parametrize("name", ["search8_flat", "search8"])
def test_search_player_reproducible_for_any_thread_count(name):
    spec, design, pvec = prepare("toy_pig", (3,), 60, [name, "hold20", "hold10"], None, False, None)
    runs = []
    for threads in (1, 2):
        numba.set_num_threads(threads)
        out = simulate(spec, design, pvec, 5, 0, design.total)
        runs.append({k: v.copy() for k, v in out.items()})
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    for k in runs[0]:
        np.testing.assert_array_equal(runs[0][k], runs[1][k])
    # the search seat plays differently from its rollout policy alone (it is not a no-op) ...
    spec2, design2, _ = prepare("toy_pig", (3,), 60, ["hold20", "hold20", "hold10"], None, False, None)
    plain = simulate(spec2, design2, pvec, 5, 0, design2.total)
    assert not np.array_equal(plain["steps"], runs[0]["steps"])


@pytest.fixture
def planted(toy, monkeypatch):
    """A deliberately bad preset of Pig: banks the turn total after every roll (hold knob 1)."""
    monkeypatch.setattr(
        toy,
        "strategies",
        list(toy.strategies)
        + [StrategySpec("hold1", 1, "Planted blunder: holds as soon as the turn total is 1 or more.", (1.0,))],
    )
    return "hold1"


def test_audit_flags_a_planted_blunder_and_not_the_search_player(tmp_path, planted):
    from sim.audit import run_audit

    bad = Study("toy_pig", 2, out=tmp_path / "bad", progress=False)
    summary, text, out = run_audit(bad, planted, decisions=120, rollouts=32)
    # banking 2-6 points, turn after turn
    assert summary.loc[summary.kind == "HOLD", "flagged"].item(), text
    assert (out / "decisions" / "part-00000.parquet").exists() and (out / "summary.txt").exists()
    again, _, _ = run_audit(bad, planted, decisions=120, rollouts=32)
    pd_eq = again.drop(columns=[]).equals(summary)  # resumed from the written chunks: the same summary
    assert pd_eq
    summary, text, _ = run_audit(bad.replace(out=tmp_path / "search"), "search32", decisions=120, rollouts=32)
    assert not summary["flagged"].any(), text
    rows = __import__("pandas").read_parquet(tmp_path / "search" / "decisions")
    assert len(rows) >= 120 and set(rows.kind) <= {"ROLL", "HOLD"}  # the kinds of Pig's ActionCodec


def test_report_bot_health_section_shows_the_audit(tmp_path, planted):
    from sim.audit import run_audit
    from sim.report.build import collect
    from sim.runner import run_study

    run = run_study(
        "toy_pig", tmp_path / "run", games=300, players=(2,), lineup=[planted, "hold20"], seed=1, progress=False
    )
    run_audit(Study("toy_pig", 2, out=run / "audit", progress=False), planted, decisions=200, rollouts=32)
    rep = collect(run)
    sec = [s for s in rep.sections if s.anchor == "bot-health"]
    assert sec and "Audit by rollouts" in "".join(sec[0].body)
    assert any(f.kind == "bot_health" and f.data["kind"] == "HOLD" for f in rep.findings)


def test_audit_command(tmp_path, capsys):
    from sim.cli import main

    out = tmp_path / "a"
    assert (
        main(
            [
                "audit",
                "toy_pig",
                "--players",
                "2",
                "--strategy",
                "hold10",
                "--decisions",
                "20",
                "--rollouts",
                "8",
                "--out",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "sim audit toy_pig: hold10 in every seat" in text and (out / "summary.parquet").exists()
    assert main(["audit", "toy_pig", "--rollouts", "7", "--out", str(tmp_path / "b")]) != 0  # one-line error
    assert "--rollouts must be even" in capsys.readouterr().err


def test_audit_interrupted_resumes_to_the_same_result(tmp_path, planted, monkeypatch, capsys):
    """An audit interrupted after its first chunk keeps that chunk and says so; the same command then resumes
    (with the progress bar on) and ends with what an uninterrupted audit gives."""
    import json

    import pandas as pd

    from sim import audit

    args = dict(decisions=60, rollouts=8, per_game=2, chunk_games=10)
    whole, _, _ = audit.run_audit(Study("toy_pig", 2, out=tmp_path / "whole", progress=False), planted, **args)
    play = audit._Kernel.play
    calls, interrupt_at = [], [2]

    def interrupted(self, start, stop):
        calls.append(start)
        if len(calls) == interrupt_at[0]:
            raise KeyboardInterrupt
        return play(self, start, stop)

    monkeypatch.setattr(audit._Kernel, "play", interrupted)
    with pytest.raises(KeyboardInterrupt):
        audit.run_audit(Study("toy_pig", 2, out=tmp_path / "cut"), planted, **args)
    cut = tmp_path / "cut"
    assert json.loads((cut / "manifest.json").read_text())["status"] == "interrupted"
    assert sorted(p.name for p in (cut / "decisions").iterdir()) == ["part-00000.parquet"]
    assert "run the same command again to resume" in capsys.readouterr().err
    calls.clear()
    interrupt_at[0] = 0  # never again
    resumed, _, _ = audit.run_audit(Study("toy_pig", 2, out=cut), planted, **args)
    assert calls and calls[0] == 10  # the first chunk was read back, not played again
    assert "decisions" in capsys.readouterr().err  # the progress bar ran
    assert json.loads((cut / "manifest.json").read_text())["status"] == "complete"
    pd.testing.assert_frame_equal(resumed, whole)
    pd.testing.assert_frame_equal(pd.read_parquet(cut / "decisions"), pd.read_parquet(tmp_path / "whole" / "decisions"))


def test_rollout_rate_counts_the_rollouts_it_times(toy):
    from sim.audit import rollout_rate

    rate, done, seconds = rollout_rate("toy_pig", 2, games=8, rollouts=4, cap=2)
    # Pig has two actions at every decision: each sampled decision is 2 actions x 4 rollouts
    assert done > 0 and done % 8 == 0 and rate == pytest.approx(done / seconds)


def test_search_candidates_are_the_heuristics_next_choices_then_random():
    """With more legal actions than the cap, the candidates after the heuristic's choice start with its next
    choice (its choose on the list without the first), the rest are distinct other actions, and the ranking
    leaves the game's policy stream untouched (BANG, a re-roll decision of a 5-player game)."""
    from tests.harness import Harness

    h = Harness("bang_dice")
    from strategies.bang_dice import choose  # after the game: its package imports the strategies first

    game, E = h.game, h.E
    s, p = h.fresh(5, seed=3)
    rng = np.random.default_rng(0)
    while len(h.legal(s, p)) < 8:
        legal = h.legal(s, p)
        E.apply_action(s, p, legal[int(rng.integers(len(legal)))])
    legal = np.array(h.legal(s, p), np.int64)
    n = len(legal)
    policy = game.strategy("belief")
    rw = np.array(policy.weights, np.float64)
    seat = E.current_player(s)
    first = choose(s, p, seat, legal, n, policy.sid, rw)
    ref = s.copy()
    rest = np.array([a for i, a in enumerate(legal) if i != first], np.int64)
    second = list(legal).index(rest[choose(ref, p, seat, rest, n - 1, policy.sid, rw)])
    stream = s["rng"].copy()
    cand, tmp, sub = (np.zeros(E.MAX_ACTIONS, np.int64) for _ in range(3))
    pick = np.array([1, 2], np.uint64)
    m = load_kernel(game).select_candidates(s, p, seat, legal, n, 5, first, 2, policy.sid, rw, pick, cand, tmp, sub)
    assert m == 5 and cand[0] == first and cand[1] == second
    assert len(set(cand[:m])) == m and all(0 <= c < n for c in cand[:m])
    np.testing.assert_array_equal(s["rng"], stream)


def test_audit_flags_are_corrected_over_the_kinds():
    """A kind's flag is a verdict in a family: one borderline kind among many (one-sided p about 0.02 on its own)
    is not flagged after the Holm correction, a kind with a clear regret is, and a kind below 2 points never is."""
    import pandas as pd

    from sim.audit import summarise

    rng = np.random.default_rng(3)
    rows = []

    def add(kind, regrets):
        for i, r in enumerate(regrets):
            rows.append(dict(kind=kind, regret=float(r), worse=False, game=i, step=0, chosen_text="a", best_text="b"))

    add("BORDERLINE", [0.06, 0.0, 0.05, -0.01, 0.04, 0.03, 0.02])  # mean 0.027, p about 0.02 alone
    add("CLEAR", 0.05 + 0.01 * rng.standard_normal(60))
    add("SMALL", 0.01 + 0.001 * rng.standard_normal(60))  # certainly above 0, but below the 2-point bar
    for k in range(12):
        add(f"NOISE{k}", 0.02 * rng.standard_normal(30))
    s = summarise(pd.DataFrame(rows)).set_index("kind")
    assert s.loc["BORDERLINE", "p"] < 0.05 < s.loc["BORDERLINE", "p_holm"]
    assert not s.loc["BORDERLINE", "flagged"]
    assert s.loc["CLEAR", "flagged"] and not s.loc["SMALL", "flagged"]
    assert not s.loc["all", "flagged"]


def test_audit_plays_strategy_knobs_set_by_name(tmp_path):
    # hold10 with its knob set to 20 is hold20 (same code, same knobs): the same audit, decision for decision
    from sim.audit import run_audit

    kw = dict(decisions=40, rollouts=8, rollout="hold20")
    study = Study("toy_pig", 2, progress=False)
    knobbed, _, _ = run_audit(study.replace(out=tmp_path / "a", params={"strategy.hold10.hold": 20}), "hold10", **kw)
    plain, _, _ = run_audit(study.replace(out=tmp_path / "b"), "hold20", **kw)
    other, _, _ = run_audit(study.replace(out=tmp_path / "c"), "hold10", **kw)
    cols = ["kind", "decisions", "mean_regret"]
    assert knobbed[cols].equals(plain[cols]) and not knobbed[cols].equals(other[cols])
    manifest = __import__("json").loads((tmp_path / "a" / "manifest.json").read_text())
    assert manifest["request"]["knobs"] == {"strategy.hold10.hold": 20.0}
    with pytest.raises(UserError, match="plays only hold10"):
        run_audit(study.replace(out=tmp_path / "d", params={"strategy.random.x": 1}), "hold10", **kw)
