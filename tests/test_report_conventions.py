"""The report reads the tables as the game declares them (GameSpec.length_column, money_column, role_columns...),
never by guessing from column names: the same run reported under two declarations reads differently."""

import dataclasses

import pytest

from sim.game import register
from sim.report import collect
from sim.runner import run_study


@pytest.fixture(scope="module")
def pig_run(tmp_path_factory):
    return run_study(
        "toy_pig", tmp_path_factory.mktemp("conv") / "run", games=300, players=(2, 3), seed=4, progress=False
    )


@pytest.fixture
def declared_as(toy):
    """Report toy_pig's run as if its GameSpec declared other fields (the registry entry restored after)."""

    def use(**fields):
        register(dataclasses.replace(toy, **fields))

    yield use
    register(toy)


def length_text(rep):
    return next(f.text for f in rep.findings if f.kind == "length")


def test_length_is_read_in_the_declared_column(pig_run, declared_as):
    assert " turns on average" in length_text(collect(pig_run, effects=False, robust=False))
    declared_as(length_column="steps")
    rep = collect(pig_run, effects=False, robust=False)
    assert " steps on average" in length_text(rep) and rep.tables["length"]["mean"].iloc[0] > 10


def test_money_left_and_roles_only_where_declared(pig_run, declared_as):
    rep = collect(pig_run, effects=False, robust=False)
    health = next(s for s in rep.sections if s.anchor == "bot-health")
    assert not any("Left at the end" in b for b in health.body)
    assert not any(s.anchor == "roles" for s in rep.sections)
    declared_as(money_column="busts", role_columns=("strategy_copy",))
    rep = collect(pig_run, effects=False, robust=False)
    health = next(s for s in rep.sections if s.anchor == "bot-health")
    assert any("Left at the end" in b and "busts" in b for b in health.body)
    assert not any(s.anchor == "roles" for s in rep.sections)  # a declared column the tables lack: no section


def test_items_never_dealt_are_not_called_never_acquired(pig_run, declared_as):
    def health(rep):
        return " ".join(next(s for s in rep.sections if s.anchor == "bot-health").body)

    plain = health(collect(pig_run, effects=False, robust=False))
    assert "<b>Never acquired</b> (1 of 2): joker" in plain  # the joker is off by default
    declared_as(dealt_kinds=("card",))
    dealt = health(collect(pig_run, effects=False, robust=False))
    assert "<b>Never dealt</b> (1 of 1): joker" in dealt and "Never acquired" not in dealt
    assert "Every item was acquired at least once" in dealt
