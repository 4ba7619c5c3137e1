"""Rules tests of the template game, Pig: the pattern to copy for a new game's
tests/games/<game>/test_rules.py.

A rules test builds a state by hand (or from setup), applies one action and asserts what the rulebook says.
"""

from sim.games._template import GAME
from sim.games._template import engine as E
from tests.harness import Harness

H = Harness(GAME)


def fresh(n=3, seed=1, **overrides):
    """A state after setup, and the parameter vector (overrides by name, '__' for '.')."""
    return H.fresh(n, seed, **overrides)


def test_holding_banks_the_turn_total_and_passes_the_turn():
    s, p = fresh()
    s["pot"] = 12
    H.act(s, p, "HOLD")  # by the kind's name, through the game's ActionCodec
    assert s["score"][0] == 12 and s["pot"] == 0 and s["cur"] == 1


def test_reaching_the_target_ends_the_game():
    s, p = fresh(target=20)
    s["score"][0] = 15
    s["pot"] = 5
    E.apply_action(s, p, E.HOLD)
    assert E.is_over(s)


def test_a_roll_of_the_bust_face_loses_the_turn_total():
    s, p = fresh(bust_face=6)
    for _ in range(200):  # roll until a 6 comes up: the pot is lost and the turn passes
        seat = s["cur"]
        s["pot"] = 7
        E.apply_action(s, p, E.ROLL)
        if s["cur"] != seat:
            assert s["pot"] == 0 and s["busts"][seat] == 1 and s["score"][seat] == 0
            return
    raise AssertionError("no bust in 200 rolls")


def test_legal_actions_are_roll_and_hold():
    s, p = fresh()
    assert H.kinds(s, p) == {"ROLL", "HOLD"}
    assert sorted(H.legal(s, p)) == [E.ROLL, E.HOLD]


def test_the_highest_score_wins_and_ties_split():
    s, p = fresh(n=3, target=20)
    s["score"][:3] = (20, 20, 5)
    out = H.outcome(s, p)
    assert [(x["rank"], x["win"], x["share"]) for x in out["seats"]] == [(1, 1, 0.5), (1, 1, 0.5), (3, 0, 0.0)]
