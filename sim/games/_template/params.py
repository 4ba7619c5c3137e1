"""Every number of the game as a named parameter: `ParamTable.add` returns the slot the engine reads (p[P_TARGET]).

Each parameter has a provenance: prov="F" a fact from the rulebook or a cited public source (the default), "D"
derived from facts, "A" ASSUMED (reports list the assumed parameters a result rests on).  Users change any of them
by name without recompiling: `sim run toy_pig --set target=60`, sweeps with `--grid target=20:100:20`.
"""

from sim.params import ParamTable

PARAMS = ParamTable()
P_TARGET = PARAMS.add("target", 40, lo=1, hi=1000, doc="points to win")
P_BUST_FACE = PARAMS.add("bust_face", 1, lo=1, hi=6, doc="the face that busts")
P_TURN_CAP = PARAMS.add("turn_cap", 200, lo=1, hi=10000, prov="A", doc="turns before the game stops")
# A test fixture of `sim effect` (off by default): a card whose causal effect is known.
P_JOKER = PARAMS.add(
    "card.joker.chance",
    0.0,
    kind="float",
    lo=0.0,
    hi=1.0,
    doc="a joker card dealt to a random seat wins the game at once with this chance (0: no joker)",
)
P_JOKER_COPIES = PARAMS.add(
    "card.joker.copies",
    1,
    lo=0,
    hi=1,
    doc="1: the joker is in the game (when its chance is above 0); 0: removed (the deal and "
    "its draw still happen, so the rest of the game is played with the same dice)",
)
