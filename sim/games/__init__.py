"""One folder per game; each defines GAME (a sim.game.GameSpec) in its __init__.py."""
