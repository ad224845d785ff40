"""Running our real bot against the stand-in, in this process or as `python bot.py`."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from metrobot.discord_app.client import MetroBot  # noqa: E402
from metrobot.settings import Settings  # noqa: E402

TEST_SEED = 20261123  # every game a test makes has a fixed seed


def settings(
    db_path: str, *, tick: float = 0.2, clock_hours: float = 24.0, seed: int = TEST_SEED, rate: float = 0, **extra
) -> Settings:
    # No rate limit (rate 0): scripted players press faster than people can; the limit has its
    # own tests. PNGs compressed at zlib's level 1 (the same pixels; 10-20 ms less an image than
    # the bot's default, which the image tests keep). Images drawn in a thread: a worker process per test bot would only slow the suite down
    # (the bot's default, worker processes, is exercised by the `python bot.py` tests).
    # (api_base: where the bot's own HTTP calls go besides discord.py's, e.g. the Activity's
    # OAuth2 exchange; discord.py itself is pointed at the stand-in by the `standin` fixture)
    return Settings(
        token="standin-bot-token",
        db_path=db_path,
        log_level="INFO",
        gateway_url=None,
        tick_seconds=tick,
        turn_clock_hours=clock_hours,
        seed=seed,
        render_workers=0,
        png_compression=1,
        rate_per_second=rate,
        **{"api_base": None, "dev_guild": None, **extra},
    )


def make_bot(db_path: str, **kwargs) -> MetroBot:
    return MetroBot(settings(db_path, **kwargs))


async def running_bot(
    standin, run_client, db_path: str, commands: tuple[str, ...] = (), *, clock=None, **kwargs
) -> MetroBot:
    """A bot (`make_bot(db_path, **kwargs)`) run in this process (the `run_client` fixture), once
    the stand-in has its `commands`; with a `clock` (tests.clock.Clock), its service reads that
    clock (as `bot.clock`), which the test moves."""
    client = make_bot(db_path, **kwargs)
    await run_client(client)
    await standin.wait_for_commands(*commands)
    if clock is not None:
        client.service.clock = client.clock = clock
    return client


FAULTS_DIR = ROOT / "tests" / "reliability" / "faults"  # (its sitecustomize.py: faults, and a few settings)


def start_bot_process(
    standin,
    db_path: str,
    *,
    tick: float = 0.2,
    log_path: str | None = None,
    env: dict[str, str] | None = None,
    fsync: bool = False,
) -> subprocess.Popen:
    """`python bot.py` itself, configured only through its environment (`env` adds to it).
    SQLite commits without an fsync, as in the tests' own process (tests/conftest.py), unless
    `fsync` (the database-fault suite: a disk that fills up or turns read-only)."""
    extra = env or {}
    env = dict(os.environ)
    env.update(standin.env())
    # METROBOT_DRAW_AHEAD=0: every start of a bot would have its workers draw all maps (seconds
    # of CPU) while the suite's other tests want the cores; the tests that need it turn it on.
    # Images drawn in a thread of the bot (METROBOT_RENDER_WORKERS=0), not in a worker process
    # as the bot's default: a worker starts cold (a second interpreter importing the bot and
    # Pillow, a map's static layers), and the suite starts a bot about a hundred times; the tests
    # of the workers themselves (drawing ahead, a worker killed, shards) ask for one.
    env.update(
        {
            "METROBOT_DB": db_path,
            "METROBOT_TICK_SECONDS": str(tick),
            "LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",
            "METROBOT_SEED": str(TEST_SEED),
            "METROBOT_DRAW_AHEAD": "0",
            "METROBOT_RENDER_WORKERS": "0",
            "METROBOT_RATE_PER_SECOND": "0",
            "METROBOT_PNG_COMPRESSION": "1",
        }
    )
    env.pop("DISCORD_DEV_GUILD", None)
    env.update(extra)
    if not fsync:  # (`fast_commits` in tests/reliability/faults/sitecustomize.py)
        env["METROBOT_TEST_FAULTS"] = ",".join(filter(None, [env.get("METROBOT_TEST_FAULTS"), "fast_commits"]))
        path = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
        env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys([str(FAULTS_DIR), *path, str(ROOT)]))
    out = open(log_path, "ab") if log_path else subprocess.DEVNULL  # noqa: SIM115 - the bot's process holds it
    return subprocess.Popen(
        [sys.executable, str(ROOT / "bot.py")], cwd=str(ROOT), env=env, stdout=out, stderr=subprocess.STDOUT
    )


async def stop_process(proc: subprocess.Popen, timeout: float = 10) -> None:
    proc.terminate()
    loop = asyncio.get_running_loop()
    try:
        await asyncio.wait_for(loop.run_in_executor(None, proc.wait), timeout)
    except TimeoutError:
        proc.kill()
        await loop.run_in_executor(None, proc.wait)
