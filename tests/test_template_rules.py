"""Rules tests of the template game, Pig: the pattern to copy for a new game's tests/test_<game>_rules.py.

A rules test builds a state by hand (or from setup), applies one action and asserts what the rulebook says.
"""
import numpy as np

from sim.games._template import GAME
from sim.games._template import engine as E
from sim.rng import seed_streams

OUT = np.empty(E.MAX_ACTIONS, np.int64)


def fresh(n=3, seed=1, **overrides):
    """A state after setup, and the parameter vector (overrides by name, '__' for '.')."""
    p = GAME.params.resolve({k.replace("__", "."): v for k, v in overrides.items()})
    s = np.zeros(1, E.STATE_DTYPE)[0]
    seed_streams(s["rng"], 99, seed)
    E.setup(s, p, n)
    return s, p


def test_holding_banks_the_turn_total_and_passes_the_turn():
    s, p = fresh()
    s["pot"] = 12
    E.apply_action(s, p, E.HOLD)
    assert s["score"][0] == 12 and s["pot"] == 0 and s["cur"] == 1


def test_reaching_the_target_ends_the_game():
    s, p = fresh(target=20)
    s["score"][0] = 15
    s["pot"] = 5
    E.apply_action(s, p, E.HOLD)
    assert E.is_over(s)


def test_a_roll_of_the_bust_face_loses_the_turn_total():
    s, p = fresh(bust_face=6)
    for _ in range(200):                       # roll until a 6 comes up: the pot is lost and the turn passes
        seat = s["cur"]
        s["pot"] = 7
        E.apply_action(s, p, E.ROLL)
        if s["cur"] != seat:
            assert s["pot"] == 0 and s["busts"][seat] == 1 and s["score"][seat] == 0
            return
    raise AssertionError("no bust in 200 rolls")


def test_legal_actions_are_roll_and_hold():
    s, p = fresh()
    n = E.legal_actions(s, p, OUT)
    assert sorted(OUT[:n]) == [E.ROLL, E.HOLD]
