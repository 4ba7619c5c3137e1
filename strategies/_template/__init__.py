"""The game's scripted strategies: one jitted choose() for all of them, dispatched by strategy id (sid).

choose(s, p, seat, legal, n, sid, weights) returns an index into legal[:n].  It runs once per decision compiled
without reference counting, so it must not allocate arrays.  A strategy that reads what its seat could not see
(another seat's hand, a hidden role) must say so in its Preset (sees_hidden=True).  The bots read the rules' constants
from the engine (`from sim.games.<game> import engine as E`: E.HOLD) and parameter slots from the params module
(`from sim.games.<game> import params as P`: p[P.P_TARGET]), never copies of them.
"""

import sim

sim.use_game_cache("sim.games._template")  # these bots compile into their game's cache (sim/__init__.py)

import numba as nb

from sim.knobs import KnobTable, Preset, strategies
from sim.rng import rand_float

PLANTED_BEST = 0.7  # the skill at which the planted bot plays best (tests of sim tune recover it)

# The knob table: each knob's name, default, range, type and one line of doc; choose() reads knobs by these slots.
K = KnobTable()
W_HOLD = K.add("hold", 20, 1, 100, "int", "hold once the turn total reaches this")
W_SKILL = K.add(
    "skill",
    0.5,
    0.0,
    1.0,
    doc="planted bot (sid 2): plays each decision well (hold at 20) with "
    "chance 1 - ((skill - 0.7) / 0.7)^2, else holds at once",
)
W_SLIP = K.add(
    "slip",
    0.0,
    0.0,
    1.0,
    doc="planted rare defect (sid 3, which never holds at hold = 100): at the start of a turn, hold at once "
    "(a wasted turn) with this chance",
)
# Presets are data: a name, the strategy id whose code they run, a description and the knobs they change.
PRESETS = [
    Preset("hold20", 1, "Hold at a turn total of 20 (knob hold).", {}),
    Preset("hold10", 1, "Hold at 10 (a preset of hold20's code).", {"hold": 10}),
    # a test fixture rather than a strategy: a bot whose best knob value is known
    Preset("planted", 2, "A bot whose best knob value is known: skill = 0.7 (for tests of sim tune).", {"skill": 0.2}),
    # test fixtures of sim audit: a defect in a rare decision kind, and a move (hold) the bot never makes
    Preset(
        "slipper",
        3,
        "Rolls until the pot reaches the target (its one hold a game wins), but holds at once at the start of a "
        "turn with chance slip = 0.2 (a planted defect in the rare kind HOLD, for tests of sim audit).",
        {"hold": 40, "slip": 0.2},
    ),
    Preset(
        "never_hold",
        3,
        "Never holds (sid 3 with hold = 100): a move the bot never makes, for tests of sim audit.",
        {"hold": 100},
    ),
]
STRATEGIES = strategies(K, PRESETS)


@nb.njit(cache=True)
def choose(s, p, seat, legal, n, sid, weights):
    # legal is (ROLL, HOLD)
    if sid == 2:
        d = (weights[W_SKILL] - PLANTED_BEST) / PLANTED_BEST
        if rand_float(s.rng, 1) >= 1.0 - d * d:
            return 1
        return 1 if s.pot >= 20 else 0
    if sid == 3:
        if s.pot == 0 and rand_float(s.rng, 1) < weights[W_SLIP]:
            return 1
        return 1 if s.pot >= weights[W_HOLD] and weights[W_HOLD] < 100 else 0  # hold 100: never
    # sid 1: hold once the turn total reaches the hold knob
    return 1 if s.pot >= weights[W_HOLD] else 0
