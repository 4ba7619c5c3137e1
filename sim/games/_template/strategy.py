"""The game's scripted strategies: one jitted choose() for all of them, dispatched by strategy id (sid).

choose(s, p, seat, legal, n, sid, weights) returns an index into legal[:n].  It runs once per decision compiled
without reference counting, so it must not allocate arrays.  A strategy that reads what its seat could not see
(another seat's hand, a hidden role) must say so with StrategySpec(..., sees_hidden=True).
"""
import numba as nb

from sim.knobs import KnobTable, Preset, strategies

# The knob table: each knob's name, default, range, type and one line of doc; choose() reads knobs by these slots.
K = KnobTable()
W_HOLD = K.add("hold", 20, 1, 100, "int", "hold once the turn total reaches this")
# Presets are data: a name, the strategy id whose code they run, a description and the knobs they change.
PRESETS = [Preset("hold20", 1, "Hold at a turn total of 20 (knob hold).", {}),
           Preset("hold10", 1, "Hold at 10 (a preset of hold20's code).", {"hold": 10})]
STRATEGIES = strategies(K, PRESETS)


@nb.njit(cache=True)
def choose(s, p, seat, legal, n, sid, weights):
    # sid 1: hold once the turn total reaches the hold knob; legal is (ROLL, HOLD)
    return 1 if s.pot >= weights[W_HOLD] else 0
