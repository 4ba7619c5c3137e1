from sim.params import ParamTable

PARAMS = ParamTable()
P_TARGET = PARAMS.add("target", 40, lo=1, hi=1000, doc="points to win")
P_BUST_FACE = PARAMS.add("bust_face", 1, lo=1, hi=6, doc="the face that busts")
P_TURN_CAP = PARAMS.add("turn_cap", 200, lo=1, hi=10000, prov="A", doc="turns before the game stops")
