from sim.params import ParamTable

PARAMS = ParamTable()
P_TARGET = PARAMS.add("target", 40, lo=1, hi=1000, doc="points to win")
P_BUST_FACE = PARAMS.add("bust_face", 1, lo=1, hi=6, doc="the face that busts")
P_TURN_CAP = PARAMS.add("turn_cap", 200, lo=1, hi=10000, prov="A", doc="turns before the game stops")
P_JOKER = PARAMS.add("card.joker.chance", 0.0, kind="float", lo=0.0, hi=1.0,
                     doc="a joker card dealt to a random seat wins the game at once with this chance (0: no joker)")
P_JOKER_COPIES = PARAMS.add("card.joker.copies", 1, lo=0, hi=1,
                            doc="1: the joker is in the game (when its chance is above 0); 0: removed (the deal and "
                                "its draw still happen, so the rest of the game is played with the same dice)")
