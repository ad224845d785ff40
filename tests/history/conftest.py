import pytest

from metrobot import games
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.wiring import GameService
from tests.said import in_discord
from tests.toygame import PLUGIN


@pytest.fixture
def toy():
    games.register(PLUGIN)
    yield PLUGIN
    games.unregister(PLUGIN.name)


@pytest.fixture
async def db(tmp_path):
    database = await Database(tmp_path / "history.sqlite3").open()
    yield database
    await database.close()


@pytest.fixture
def svc(db):
    return in_discord(GameService(db, seeds=fixed_seeds(5), images=False))  # (as a channel reads it: tests/said.py)
