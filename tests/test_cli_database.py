"""The command-line tools work on the database the bot works on (issue 58): `--db`, else the
settings from the same `.env` the bot reads (the systemd unit sets none of its own), else the
default file; an SQLite file that is not there is refused with the path tried and what chose it.

Each tool runs in a process of its own whose `ROOT` (where `bot.py`, `.env` and the default
database are) is a folder of the test's, laid out as deploy/metrobot.service has it: the code
and `.env` in one folder, the database in another, named by `METROBOT_DB` in `.env`."""

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.wiring import GameService
from tests.history.play import play_game

ROOT = Path(__file__).resolve().parents[1]
ANN, BOB = ("720000000000000001", "Ann"), ("720000000000000002", "Bob")
pytestmark = pytest.mark.timeout(180)
RUN_WITH_ROOT = (
    "import sys; from pathlib import Path; import metrobot.settings as s; s.ROOT = Path(sys.argv[1]); "
    "from metrobot.cli import main; sys.exit(main(sys.argv[2:]))"
)


def tool(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`python -m metrobot ARGS` as if the checkout were `root`, with only `env` in the environment."""
    return subprocess.run(
        [sys.executable, "-c", RUN_WITH_ROOT, str(root), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "", **(env or {})},
    )


def make_database(path: Path, *, games: bool) -> None:
    async def make():
        db = await Database(str(path)).open()
        try:
            if games:
                svc = GameService(db, seeds=fixed_seeds(3), images=False)
                await play_game(svc, "c1", "g1", [ANN, BOB], kind="metromania")
        finally:
            await db.close()

    path.parent.mkdir(parents=True, exist_ok=True)
    asyncio.run(make())


@pytest.fixture
def service_layout(tmp_path) -> tuple[Path, Path, Path]:
    """(the checkout, the bot's database, a stale database a `make run` left in the checkout)."""
    checkout, state = tmp_path / "opt" / "metrobot", tmp_path / "var" / "lib" / "metrobot" / "metrobot.sqlite3"
    make_database(state, games=True)
    make_database(checkout / "metrobot.sqlite3", games=False)
    (checkout / ".env").write_text(f"DISCORD_TOKEN=not-a-token\nMETROBOT_DB={state}\n", encoding="utf-8")
    return checkout, state, checkout / "metrobot.sqlite3"


def test_the_tools_use_the_database_named_in_the_bots_env_file(service_layout, tmp_path):
    checkout, state, stale = service_layout
    untouched = stale.read_bytes()
    exported = tool(checkout, "export", "--user", ANN[0])
    assert exported.returncode == 0, exported.stderr
    assert [g["name"] for g in json.loads(exported.stdout)["games"]] == ["Ann"]  # (the stale file has no game)

    backup = tool(checkout, "backup", "--to", str(tmp_path / "nightly.sqlite3"))
    assert backup.returncode == 0, backup.stderr
    assert backup.stdout.startswith(f"copied {state} to {tmp_path / 'nightly.sqlite3'}; integrity ok; 1 of 1 games")

    forgot = tool(checkout, "forget", "--user", ANN[0])
    assert forgot.returncode == 0, forgot.stderr
    assert forgot.stdout.startswith(f"forgot user {ANN[0]} in {state}: 1 game renamed")
    again = tool(checkout, "export", "--user", ANN[0])
    assert json.loads(again.stdout)["games"] == []  # forgotten where the bot plays, not in the stale file

    rebuilt = tool(checkout, "ratings", "rebuild")
    assert rebuilt.stdout.startswith(f"rebuilt the ratings of {state} from 1 finished game"), rebuilt.stderr
    assert stale.read_bytes() == untouched


def test_the_environment_wins_over_the_env_file_and_is_named(service_layout, tmp_path):
    checkout, _, stale = service_layout
    backup = tool(checkout, "backup", "--to", str(tmp_path / "b.sqlite3"), env={"METROBOT_DB": str(stale)})
    assert backup.returncode == 0 and backup.stdout.startswith(f"copied {stale} to "), backup.stderr
    missing = tool(checkout, "forget", "--user", ANN[0], env={"METROBOT_DB": str(tmp_path / "none.sqlite3")})
    assert missing.returncode == 2
    assert missing.stderr == (
        f"error: {tmp_path / 'none.sqlite3'}: no such database "
        "(chosen by METROBOT_DB in the environment; --db names another)\n"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["backup", "--to", "copy.sqlite3"],
        ["export", "--user", ANN[0]],
        ["forget", "--user", ANN[0]],
        ["purge", "--guild", "1"],
        ["ratings", "rebuild"],
    ],
)
def test_without_a_database_setting_nor_the_default_file_a_tool_says_what_it_tried(tmp_path, args):
    checkout = tmp_path / "opt" / "metrobot"
    checkout.mkdir(parents=True)
    (checkout / ".env").write_text("DISCORD_TOKEN=not-a-token\n", encoding="utf-8")
    proc = tool(checkout, *args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (
        f"error: {checkout / 'metrobot.sqlite3'}: no such database (chosen by the default: METROBOT_DB is set "
        f"neither in the environment nor in {checkout / '.env'}; --db names another)\n"
    )
    assert not (checkout / "metrobot.sqlite3").exists()  # (refused: no empty database made instead)


def test_the_one_process_unit_leaves_every_setting_to_the_env_file_the_tools_read():
    """A setting only the unit gave (1.0.0's `Environment=METROBOT_DB=…`) is seen by the bot and not by
    the tools cron runs in the same folder: they would back up, or forget a person in, another file."""
    unit = (ROOT / "deploy" / "metrobot.service").read_text(encoding="utf-8").splitlines()
    assert not [line for line in unit if line.startswith(("Environment=", "EnvironmentFile="))]
    assert "WorkingDirectory=/opt/metrobot" in unit and "ExecStart=/opt/metrobot/.venv/bin/python bot.py" in unit
