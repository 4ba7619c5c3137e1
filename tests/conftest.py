import pytest

from sim.game import register
from tests.toygame import GAME as TOY

register(TOY)


@pytest.fixture
def toy():
    return TOY
