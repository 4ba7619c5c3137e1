"""Pig, a tiny dice race used to test the core without any real game: roll to add to a turn total, a 1 busts."""
import sim

sim.use_game_cache(__name__)  # before anything jitted of this game is imported

from sim.game import GameSpec

from .params import PARAMS
from . import strategy as S

GAME = GameSpec(
    name="toy_pig", title="Pig (test game)", engine="tests.toygame.engine", strategy_module="tests.toygame.strategy",
    params=PARAMS, players=(2, 4), default_players=3,
    strategies=S.STRATEGIES,
    default_lineup=("hold20", "hold10", "random"),
    game_columns=("turns", "end_reason"), seat_columns=("rank", "win", "order", "busts"),
    labels={"end_reason": ["target", "turn_cap"]},
    item_names=("halfway",), item_kinds=("milestone",),
    event_text=lambda row, names: f"event {row[0]} seat {row[1]} value {row[2]}",
)
