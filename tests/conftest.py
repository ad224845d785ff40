import gc
import os

import pytest
from hypothesis import settings

from metrobot import games
from metrobot.app import App, build
from metrobot.render import png
from metrobot.service import fixed_seeds
from metrobot.storage import Database, sqlite
from metrobot.wiring import GameService
from tests import spread, systemtools
from tests.clock import START, Clock
from tests.databases import BACKENDS, database_at
from tests.said import in_discord
from tests.toygame import PLUGIN
from tools import pgserver

# The collector is off from here until collection ends, when everything is collected once and
# frozen (`pytest_collection_finish`, below): its young collections while the test modules and
# what they import are loaded free nothing, and cost each worker's collection about 0.25 s of
# CPU (2026-11-28, `pytest --collect-only`, four pairs: 2.42 -> 2.19 s).
gc.disable()

# SQLite commits without an fsync (synchronous=NORMAL instead of the bot's FULL, see
# metrobot/storage/sqlite.py): a commit then costs microseconds instead of milliseconds, and
# nothing a test checks depends on it (a killed process loses no committed transaction
# either way; no test cuts the power). Set here, at import, for every test of every worker;
# bots started as processes get the same through `fast_commits` (tests/reliability/faults).
# tests/service/test_service.py::test_storage_settings checks the bot's own setting.
sqlite.SYNCHRONOUS = "NORMAL"

# The tests' own pictures are compressed at zlib's level 1, as their bots' are
# (METROBOT_PNG_COMPRESSION=1, tests/e2e/harness.py): the same pixels in more bytes, 15 ms less
# an image (about 1,200 images a run were at level 6, 43 s of CPU). A size limit checked at
# level 1 holds at 6 too (fewer bytes); the tests of the setting itself restore the product's
# level (`png_product_level`).
PRODUCT_PNG_LEVEL = png.LEVEL
png.LEVEL = 1

# Every run draws the same examples (derandomized: no test depends on chance, and `make
# test` is repeatable everywhere) and keeps no example database between runs. No
# per-example deadlines: machines are shared and slow. To look further than the fixed
# draw, run with HYPOTHESIS_PROFILE=explore (random examples; not for `make test`).
settings.register_profile("ci", deadline=None, derandomize=True, database=None, print_blob=True)
settings.register_profile("dev", deadline=None, derandomize=True, database=None)
settings.register_profile("explore", deadline=None, derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


# The garbage collector, in every worker: what collection imported (the product, the
# catalogues, the Discord spec, pytest's own: hundreds of thousands of objects that live as long
# as the worker) is frozen out of its collections (`gc.freeze`), which walked them all at every
# old-generation collection: 7-8 % less CPU, interleaved runs of the same files (2026-11-27).
# The same garbage is collected; nothing a test checks depends on when a cycle is freed (a test
# that needs it calls gc.collect()). Not taken: young collections every 50,000 allocations
# instead of 700 (fewer collections, but 10 % more CPU for the engines' tests).


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "service(**options): how the `svc`/`app` fixtures build the service (tests/conftest.py, SERVICE)"
    )
    config.addinivalue_line("markers", "backends: a test of the `db` fixture runs on SQLite and on PostgreSQL")
    if not hasattr(config, "workerinput") and getattr(config.option, "dist", "no") != "no":
        gc.enable()  # (xdist's controller collects nothing: its collector back on at once)


def pytest_generate_tests(metafunc):
    """`@pytest.mark.backends`: each test that uses the database runs on both backends."""
    if metafunc.definition.get_closest_marker("backends") and "where" in metafunc.fixturenames:
        metafunc.parametrize("where", BACKENDS, indirect=True)


def pytest_collection_finish(session):
    gc.collect()
    gc.freeze()
    gc.enable()


def pytest_collection_modifyitems(config, items):
    """Under xdist, each worker's share starts with the long files (tests/spread.py); not
    when pytest-randomly shuffles (`make test-repeat`)."""
    if spread.workers() > 1 and config.pluginmanager.get_plugin("randomly") is None:
        items[:] = spread.spread(items, spread.workers())


# A PostgreSQL server for the session, from Debian's package (tools/pgserver.py). Under CI
# (CI=true) the PostgreSQL tests must run: a missing server is a failure there (`.ci/run`
# installs it). Elsewhere they are skipped with a one-line reason.
@pytest.fixture(scope="session")
def pg_server():
    if not pgserver.available():
        if os.environ.get("CI"):
            pytest.fail(
                "PostgreSQL is not installed but CI must run the PostgreSQL tests "
                "(.ci/run installs Debian's postgresql)"
            )
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql): its storage tests are skipped")
    systemtools.need_postgres_user_switch()
    server = pgserver.PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture
def png_product_level(monkeypatch):
    """The drawing code's own PNG level (`metrobot.render.png.LEVEL` as shipped), for the tests of the
    level itself and of bytes compared with a file the product wrote."""
    monkeypatch.setattr(png, "LEVEL", PRODUCT_PNG_LEVEL)
    return PRODUCT_PNG_LEVEL


# The database, the clock and the service of the service-level tests: one of each, here. A module
# (or a test) that needs another service says how with a mark, e.g.
# `pytestmark = pytest.mark.service(seed=11, turn_clock=3600, discord=True)`:
SERVICE = {
    "seed": 5,  # fixed_seeds(seed): every game's seed, in order
    "now": START,  # the clock's time at the start (tests.clock.Clock)
    "images": False,  # draw the posts' pictures
    "turn_clock": None,  # the default turn clock in seconds (None: the product's)
    "ai_seconds": None,  # the automatic player's time (None: the product's)
    "render_workers": None,  # drawing workers (None: GameService's default, a thread)
    "toy": False,  # register the toy game (Race to 10, tests/toygame) for the test
    "discord": False,  # its words as a Discord channel reads them (tests/said.py: in_discord)
    "web_base": None,  # the address its web pages are linked at (None: no web pages)
}


def service_options(request) -> dict:
    """SERVICE, with what the marks say (the module's, then the class's, then the test's)."""
    options = dict(SERVICE)
    for mark in reversed(list(request.node.iter_markers("service"))):
        unknown = set(mark.kwargs) - set(SERVICE)
        assert not unknown, f"pytest.mark.service: no option {sorted(unknown)} (tests/conftest.py, SERVICE)"
        options.update(mark.kwargs)
    return options


@pytest.fixture
def toy():
    """The toy game (Race to 10, tests/toygame) registered for the test."""
    games.register(PLUGIN)
    yield PLUGIN
    games.unregister(PLUGIN.name)


@pytest.fixture
def where(request, tmp_path) -> str:
    """Where the test's database lives: an SQLite file; on both backends with `@pytest.mark.backends`
    (tests/storage: every test, its conftest)."""
    return database_at(request, tmp_path, getattr(request, "param", "sqlite"))


@pytest.fixture
async def db(where):
    """A fresh database (`where`), opened, and closed after the test."""
    database = await Database(where).open()
    yield database
    await database.close()


@pytest.fixture
def clock(request) -> Clock:
    """The service's clock, standing still at `now` (SERVICE) until the test moves it."""
    return Clock(service_options(request)["now"])


def service_arguments(request, clock: Clock) -> dict:
    options = service_options(request)
    if options["toy"]:
        request.getfixturevalue("toy")
    arguments = {"seeds": fixed_seeds(options["seed"]), "clock": clock, "images": options["images"]}
    for option, argument in (
        ("turn_clock", "default_turn_clock"),
        ("ai_seconds", "ai_seconds"),
        ("render_workers", "render_workers"),
    ):
        if options[option] is not None:
            arguments[argument] = options[option]
    return arguments


@pytest.fixture
def svc(request, db, clock) -> GameService:
    """The game service (metrobot.wiring.GameService) on `db` and `clock`, as SERVICE and the marks say."""
    service = GameService(db, **service_arguments(request, clock))
    if service_options(request)["web_base"] is not None:
        service.web_base = service_options(request)["web_base"]
    return in_discord(service) if service_options(request)["discord"] else service


@pytest.fixture
def app(request, db, clock) -> App:
    """The whole application (metrobot.app.build: the game service and the tournaments), as the
    front ends build it, on `db` and `clock`, as SERVICE and the marks say."""
    return build(db, **service_arguments(request, clock))
