"""The kernel body (sim/kernel_body.py, sim/kernel_traced.py) is real Python bound to the template game; a game's
generated kernel is that file with only the binding block between the two marker comments replaced."""

import dataclasses
import difflib
from pathlib import Path

import pytest

from sim import kernel
from sim.game import game_names, get_game
from sim.kernel import BODY, TRACED_BODY, has_standings, load_kernel, load_traced, split_binding

GAMES = sorted(set(game_names()) | {"toy_pig"})


def _block_lines(text):
    """The 0-based line numbers of the binding block of a body's text (the lines between the markers)."""
    before, block, _ = split_binding(text)
    first = before.count("\n")
    return range(first, first + block.count("\n"))


def _changed_lines(body, copy):
    """The line numbers of body that differ in copy (replaced or deleted; an insertion counts at its position)."""
    changed = set()
    matcher = difflib.SequenceMatcher(a=body.splitlines(), b=copy.splitlines(), autojunk=False)
    for tag, i1, i2, _, _ in matcher.get_opcodes():
        if tag != "equal":
            changed.update(range(i1, max(i2, i1 + 1)))
    return changed


@pytest.mark.parametrize("name", GAMES)
def test_generated_kernel_differs_from_the_body_only_in_the_binding(name):
    game = get_game(name)
    kern = load_kernel(game)
    body, copy = BODY.read_text(), Path(kern.__file__).read_text()
    assert copy != body or name == "toy_pig"
    assert _changed_lines(body, copy) <= set(_block_lines(body))
    _, block, _ = split_binding(copy)
    assert f"import {game.engine} as engine\n" in block and f"from {game.strategy_module} import choose\n" in block
    assert kern.GAME_PACKAGE == game.engine.rsplit(".", 1)[0]
    assert kern.RANK_COL == list(game.seat_columns).index("rank")
    # reference counting in decide only for a game whose decisions allocate; the flag reaches numba
    assert kern.DECIDE_NRT is bool(game.decisions_allocate)
    assert kern.decide.targetoptions["_nrt"] is bool(game.decisions_allocate)


@pytest.mark.parametrize("name", [n for n in GAMES if has_standings(get_game(n))])
def test_generated_traced_play_differs_from_its_body_only_in_the_binding(name):
    game = get_game(name)
    traced = load_traced(game)
    body, copy = TRACED_BODY.read_text(), Path(traced.__file__).read_text()
    assert _changed_lines(body, copy) <= set(_block_lines(body))
    assert traced.decide is load_kernel(game).decide  # the traced play calls the game's own kernel


def test_the_body_is_the_template_games_kernel_as_it_stands(toy):
    """The template game's generated kernel is the body file itself, character for character; its traced play
    differs only in the module it takes the kernel from (its generated copy, not sim.kernel_body)."""
    assert Path(load_kernel(toy).__file__).read_text() == BODY.read_text()
    assert kernel.generated(TRACED_BODY, kernel.traced_binding(toy, "sim.kernel_body")) == TRACED_BODY.read_text()
    assert "from sim_kernel_toy_pig import " in Path(load_traced(toy).__file__).read_text()


def test_a_game_without_hidden_py_binds_the_peeking_determinize(toy):
    """The binding names the game's determinize (<package>/hidden.py) or, without one, sim.search's no-op."""
    assert "from sim.games._template.hidden import determinize\n" in kernel.binding(toy)
    blind = dataclasses.replace(toy, engine="tests.overflow_engine")  # a package without hidden.py
    assert "from sim.search import determinize_nothing as determinize\n" in kernel.binding(blind)


def test_a_body_needs_exactly_one_binding_block():
    text = BODY.read_text()
    before, block, after = split_binding(text)
    assert before + block + after == text and block.startswith("# game toy_pig")
    with pytest.raises(ValueError, match="exactly one game binding block"):
        split_binding(before)  # the start marker without its end
    with pytest.raises(ValueError, match=r"\(found 2\)"):
        split_binding(text + text)
