"""Strategy knobs by name: every preset of every game is declared by named knobs (sim.knobs)."""
import re
from pathlib import Path

import pytest

from sim.errors import UserError
from sim.game import game_names, get_game
from sim.knobs import KnobTable, Preset, split_overrides, strategies

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", game_names())
def test_every_preset_is_named_knobs(name):
    game = get_game(name)
    tables = {id(s.knobs) for s in game.strategies}
    assert len(tables) == 1, "one knob table per game"
    for s in game.strategies:
        assert s.knobs is not None and len(s.weights) == len(s.knobs), s.name
        assert all(k.doc and k.lo <= v <= k.hi for k, v in zip(s.knobs.knobs, s.weights)), s.name
        # a preset is the table's defaults plus the knobs it changes, nothing else
        assert s.knobs.vector(s.changes) == s.weights


@pytest.mark.parametrize("path", sorted((ROOT / "strategies").glob("*.py")))
def test_no_positional_weight_indexing(path):
    # a knob is read by its named slot (w[W_DENY]), never by a bare number (w[4])
    hits = re.findall(r"\b(?:w|weights)\[\d+\]", path.read_text())
    assert not hits, f"{path.name}: {hits}"


def test_presets_are_validated_when_declared():
    t = KnobTable()
    t.add("hold", 20, 1, 100, "int", "hold at")
    with pytest.raises(UserError, match="unknown knob of bad"):
        strategies(t, [Preset("bad", 1, "doc", {"hodl": 3})])
    with pytest.raises(UserError, match=r"out of range \[1, 100\]"):
        strategies(t, [Preset("bad", 1, "doc", {"hold": 0})])
    with pytest.raises(UserError, match="whole number"):
        strategies(t, [Preset("bad", 1, "doc", {"hold": 2.5})])


def test_split_overrides():
    game, knobs = split_overrides({"target": 50, "strategy.hold20.hold": 30})
    assert game == {"target": 50} and knobs == {("hold20", "hold"): 30}
    with pytest.raises(UserError, match=r"strategy\.<preset>\.<knob>"):
        split_overrides({"strategy.hold": 3})


def test_strategies_command_prints_knobs_by_name(capsys):
    from sim.cli import main
    assert main(["strategies", "raccoon_tycoon"]) == 0
    out = capsys.readouterr().out
    assert "deny    = 0.4" in out and "rail_baron_denier" in out and "deny=1.0" in out
