import numba as nb

from sim.knobs import KnobTable, Preset, strategies

K = KnobTable()
W_HOLD = K.add("hold", 20, 1, 100, "int", "hold once the turn total reaches this")
PRESETS = [Preset("hold20", 1, "Hold at a turn total of 20 (knob hold).", {}),
           Preset("hold10", 1, "Hold at 10 (a preset of hold20's code).", {"hold": 10})]
STRATEGIES = strategies(K, PRESETS)


@nb.njit(cache=True)
def choose(s, p, seat, legal, n, sid, weights):
    # sid 1: hold once the turn total reaches the hold knob; legal is (ROLL, HOLD)
    return 1 if s.pot >= weights[W_HOLD] else 0
