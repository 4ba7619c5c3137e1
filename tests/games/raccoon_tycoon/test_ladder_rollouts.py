"""The ladder refuses a search rung whose rollout policy stalls: Raccoon Tycoon's town_builder_tuned, in every seat,
often plays to the engine's step cap (every player hoards and no one ends the game), so the default search rung
(each seat a search rolling out with its tuned preset) would spend tens of CPU seconds a game on blind rollouts."""

import pytest

from sim.errors import UserError
from sim.game import get_game
from sim.ladder import check_rollout_policies, resolve_rungs

SPEC = get_game("raccoon_tycoon")
MANIFEST = {"seating": {"mode": "rotate", "lineup": list(SPEC.default_lineup)}}


@pytest.fixture(autouse=True)
def _unregister_shipped_presets():
    """The rungs register the shipped tuned presets on the game; other tests (the golden settings) list its
    strategies, so leave the list as it was."""
    before = list(SPEC.strategies)
    yield
    SPEC.strategies[:] = before


def test_a_stalling_rollout_policy_is_refused_with_a_line_up_that_works():
    rungs = resolve_rungs(SPEC, MANIFEST, ["tuned", "search"])
    with pytest.raises(UserError, match=r"rung 'search': its rollout policy town_builder_tuned stalls") as e:
        check_rollout_policies(SPEC, rungs, (4,))
    suggested = str(e.value).split("--rungs ")[1].strip("'").split(";")[1]
    check_rollout_policies(SPEC, resolve_rungs(SPEC, MANIFEST, ["tuned", suggested]), (4,))  # not refused


def test_heuristic_rungs_are_not_checked():
    check_rollout_policies(SPEC, resolve_rungs(SPEC, MANIFEST, ["tuned", "town_builder_tuned"]), (4,))
