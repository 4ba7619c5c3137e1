import pytest

from sim.game import register
from sim.games._template import GAME as TOY

register(TOY)


@pytest.fixture
def toy():
    return TOY
