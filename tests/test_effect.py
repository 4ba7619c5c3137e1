"""`sim effect`: paired games with common random numbers give the causal effect of an item.

The test game (Pig) has a joker of known causal effect: dealt to a uniformly random seat, it wins the game at once
with chance q, and its draws happen whether or not it is in the game, so without it the same game is played with
the same dice. The holder's win share changes by 1 - (its share without the joker) when the joker fires and by 0
otherwise; the holder is uniform and the shares of a game add up to 1, so the true effect is q (1 - 1/n)."""
import numpy as np
import pytest

from sim.cli import main
from sim.effect import item_effect, removal
from sim.errors import UserError
from sim.game import get_game

Q = 0.3


def test_joker_effect_interval_covers_the_truth():
    res = item_effect("toy_pig", "joker", players=3, games=4000, seed=2, overrides={"card.joker.chance": str(Q)})
    truth = Q * (1 - 1 / 3)
    h = res["holder"]
    assert h["low"] <= truth <= h["high"], h
    assert h["high"] - h["low"] < 0.06                       # paired games: a narrow interval
    assert res["held_share"] == pytest.approx(1.0)
    # zero-sum: the positions' changes add up to 0, and the first position gains q (1/n - share) on average
    assert res["by_order"]["mean"].sum() == pytest.approx(0.0, abs=1e-9)
    # association in the same games: holders win far more, and the paired effect is what the joker causes
    assert res["association"]["diff"] > 0.2


def test_removal_parameters_and_errors():
    assert removal(get_game("toy_pig"), "joker") == {"card.joker.copies": 0}
    with pytest.raises(UserError, match="no parameter that removes"):
        removal(get_game("toy_pig"), "halfway")
    with pytest.raises(UserError, match="no item 'nope'"):
        item_effect("toy_pig", "nope", players=3, games=10)


def test_cli_prints_effect_and_association(capsys, tmp_path):
    out = tmp_path / "e.json"
    assert main(["effect", "toy_pig", "--item", "joker", "--players", "3", "--games", "600",
                 "--set", f"card.joker.chance={Q}", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "EFFECT (causal" in text and "ASSOCIATION (as printed, not causal)" in text and out.exists()
    assert main(["effect", "toy_pig", "--item", "halfway", "--games", "10"]) == 2
