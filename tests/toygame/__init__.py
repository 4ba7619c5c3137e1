"""Pig, a tiny dice race used to test the core without any real game: roll to add to a turn total, a 1 busts."""
import sim

sim.use_game_cache(__name__)  # before anything jitted of this game is imported

from sim.game import GameSpec, StrategySpec
from sim.params import ParamTable

from .params import PARAMS

GAME = GameSpec(
    name="toy_pig", title="Pig (test game)", engine="tests.toygame.engine", strategy_module="tests.toygame.strategy",
    params=PARAMS, players=(2, 4), default_players=3,
    strategies=[StrategySpec("hold20", 1, "Hold at a turn total of weights[0].", (20.0,)),
                StrategySpec("hold10", 1, "Hold at 10 (a preset of hold20's code).", (10.0,))],
    default_lineup=("hold20", "hold10", "random"),
    game_columns=("turns", "end_reason"), seat_columns=("rank", "win", "order", "busts"),
    labels={"end_reason": ["target", "turn_cap"]},
    item_names=("halfway", "joker"), item_kinds=("milestone", "card"),
    event_text=lambda row, names: f"event {row[0]} seat {row[1]} value {row[2]}",
)
