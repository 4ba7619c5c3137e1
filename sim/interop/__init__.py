"""Our games seen through the field's standard libraries (issue 39): OpenSpiel (`sim.interop.openspiel`) and
PettingZoo (`sim.interop.pettingzoo`), both built on one Python driver of a game's jitted engine
(`sim.interop.core`), plus `sim duel` (`sim.interop.duel`: OpenSpiel bots in the seats of a study) and a speed
benchmark (`python -m sim.interop.bench`).  They need the optional extra: pip install -e ".[interop]".
"""
