"""`python bot.py` while Discord cannot be reached yet (issue 42): one log line per try saying
what failed and when the next try is, no traceback, no exit — and once Discord answers (the
stand-in, started late on the port the bot keeps trying) the bot logs in and syncs its
commands. A token Discord refuses (401) exits with status 2 and one line saying what to do.
The README's quick start in its own order (issue 58): `DISCORD_DEV_GUILD` set, the bot started,
then invited: Discord refuses the sync (403, 50001), the log says so in one line, and the bot
syncs once invited; any other refusal of the sync is one line naming the request and what to do
(the invite link, or no development server), and the bot goes on. No start logs the warnings about voice libraries the bot never uses."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys

from tests.e2e.harness import ROOT, TEST_SEED
from tests.e2e.standin import DiscordStandIn
from tools.ports import free_port

TRY_LINE = "cannot reach Discord (logging in, try "


async def _bot(tmp_path, port: int, token: str = "standin-bot-token", **more: str) -> asyncio.subprocess.Process:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("METROBOT_", "DISCORD_"))}
    env.update(
        {
            "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
            "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/",
            "DISCORD_TOKEN": token,
            "METROBOT_DB": str(tmp_path / "late.sqlite3"),
            "METROBOT_SEED": str(TEST_SEED),
            "METROBOT_DRAW_AHEAD": "0",
            "METROBOT_RENDER_WORKERS": "0",
            "LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",
            **more,
        }
    )
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "bot.py"),
        cwd=str(ROOT),
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


async def _line(proc: asyncio.subprocess.Process, seen: list[str]) -> str:
    raw = await asyncio.wait_for(proc.stdout.readline(), timeout=120)
    assert raw, "the bot exited:\n" + "".join(seen)
    seen.append(raw.decode())
    return seen[-1]


async def _reap(proc) -> None:
    """A bot a failed test left running is killed (and waited for)."""
    if proc.returncode is None:
        proc.kill()
        await proc.wait()


async def test_discord_unreachable_at_start_is_tried_again_one_line_a_try_until_it_answers(tmp_path):
    port = free_port()  # nothing listens there yet
    proc = await _bot(tmp_path, port)
    seen: list[str] = []
    standin = DiscordStandIn()
    try:
        while sum(TRY_LINE in line for line in seen) < 2:  # two tries failed, each said in a line
            await _line(proc, seen)
        await standin.start(port)  # Discord comes up
        await standin.wait_for_commands("game", timeout=120)  # logged in and synced its commands
        while "has connected to Gateway" not in seen[-1]:  # (and the gateway connected)
            await _line(proc, seen)
        proc.send_signal(signal.SIGTERM)
        rest, _ = await asyncio.wait_for(proc.communicate(), timeout=60)
        seen.append(rest.decode())
    finally:
        await _reap(proc)
        await standin.stop()
    log = "".join(seen)
    assert proc.returncode == 0, log
    assert "Traceback" not in log, log
    assert "PyNaCl" not in log and "davey" not in log and "voice" not in log, log
    tries = [line for line in log.splitlines() if TRY_LINE in line]
    assert len(tries) >= 2, log
    for number, line in enumerate(tries, 1):  # what failed, and when the next try is
        assert f"try {number}): cannot connect to 127.0.0.1:{port} (connection refused)" in line, line
        assert "; next try in " in line and " s, at " in line, line
    assert "next try in 1 s" in tries[0] and "next try in 2 s" in tries[1]  # backing off
    assert standin.problems() == []


async def test_a_token_discord_refuses_stops_the_bot_with_status_2_and_what_to_do(tmp_path):
    async with DiscordStandIn() as standin:
        proc = await _bot(tmp_path, standin.port, token="not-the-bot-token")
        try:
            out, _ = await asyncio.wait_for(proc.communicate(), timeout=120)
        finally:
            await _reap(proc)
    log = out.decode()
    assert proc.returncode == 2, log
    assert "Traceback" not in log and TRY_LINE not in log, log
    [said] = [line for line in log.splitlines() if "DISCORD_TOKEN" in line]
    assert "refused the token" in said and "Reset Token" in said, log
    assert "PyNaCl" not in log and "davey" not in log, log
    # The database is made after Discord accepts the token (setup_hook runs after the login), as
    # README's quick start and install.md say (issue 73, audit item 16).
    assert not (tmp_path / "late.sqlite3").exists()
    for page in ("README.md", "docs/operators/install.md"):
        said = " ".join((ROOT / page).read_text(encoding="utf-8").split())
        assert "once Discord has accepted the token, creates" in said, page


async def _until(proc: asyncio.subprocess.Process, seen: list[str], words: str) -> str:
    while words not in (line := await _line(proc, seen)):
        pass
    return line


async def _stopped(proc: asyncio.subprocess.Process, seen: list[str]) -> str:
    proc.send_signal(signal.SIGTERM)
    rest, _ = await asyncio.wait_for(proc.communicate(), timeout=60)
    seen.append(rest.decode())
    return "".join(seen)


async def test_the_quick_start_in_its_order_says_invite_the_bot_then_syncs_once_invited(tmp_path):
    async with DiscordStandIn() as standin:
        server = standin.add_guild("My server", with_bot=False)  # step 5 before step 4: not invited yet
        proc = await _bot(tmp_path, standin.port, DISCORD_DEV_GUILD=str(server))
        seen: list[str] = []
        try:
            said = await _until(proc, seen, "DISCORD_DEV_GUILD")
            await _until(proc, seen, "metrobot ready")  # (it goes on)
            assert standin.commands(server) == []
            standin.add_bot(server)  # step 4: the invite (GUILD_CREATE)
            await standin.wait_for_commands("game", guild_id=server, timeout=60)
            log = await _stopped(proc, seen)
        finally:
            await _reap(proc)
    assert proc.returncode == 0, log
    assert "Traceback" not in log, log
    assert f"development server {server} (DISCORD_DEV_GUILD)" in said and "not in that server yet" in said, log
    assert (
        "Invite it with the link in the README's quick start (step 4)" in said and "unset DISCORD_DEV_GUILD" in said
    ), log
    assert sum("DISCORD_DEV_GUILD" in line for line in log.splitlines()) == 1, log  # one line, once


async def test_any_other_refusal_of_the_sync_is_one_line_naming_the_request_and_the_bot_goes_on(tmp_path):
    async with DiscordStandIn() as standin:
        unknown = standin.guild_id + 12345  # a server Discord does not know: 404, code 10004
        proc = await _bot(tmp_path, standin.port, DISCORD_DEV_GUILD=str(unknown))
        seen: list[str] = []
        try:
            said = await _until(proc, seen, "Discord refused")
            await _until(proc, seen, "metrobot ready")
            log = await _stopped(proc, seen)
        finally:
            await _reap(proc)
    assert proc.returncode == 0, log
    assert "Traceback" not in log, log
    path = f"/api/v10/applications/{standin.application_id}/guilds/{unknown}/commands"
    assert f"PUT {path} answered 404 (code 10004: Unknown Guild)" in said, log
    # what to do: the invite link (with its scope), or no development server
    assert "README's quick start (step 4" in said and "unset DISCORD_DEV_GUILD" in said, log


async def test_a_refused_application_at_start_is_one_line_and_status_2(tmp_path):
    async with DiscordStandIn() as standin:
        standin.application_refusal = (403, 50001, "Missing Access")
        proc = await _bot(tmp_path, standin.port)
        try:
            out, _ = await asyncio.wait_for(proc.communicate(), timeout=120)
        finally:
            await _reap(proc)
    log = out.decode()
    assert proc.returncode == 2, log  # (make run does not restart it: starting again would not help)
    assert "Traceback" not in log and TRY_LINE not in log, log
    [said] = [line for line in log.splitlines() if "Discord refused" in line]
    assert "GET /api/v10/oauth2/applications/@me answered 403 (code 50001: Missing Access)" in said, log


async def test_a_servers_news_while_the_bot_stops_is_left_to_the_next_start(caplog):
    """The gateway can connect, and send the servers it has, after a stop began; the database
    then closes under the news (seen on a busy machine): one line, no traceback."""
    import logging
    from types import SimpleNamespace

    from metrobot.discord_app.client import Metro

    class ClosedUnder:
        async def guild_back(self, guild_id: str) -> None:
            bot.stopping = True  # (the stop begins while the news is read)
            raise sqlite3.ProgrammingError("Cannot operate on a closed database.")

    bot = SimpleNamespace(privacy=ClosedUnder(), _closed=False, stopping=False)
    with caplog.at_level(logging.INFO, logger="metrobot.discord"):
        await Metro._server_news(bot, "guild_back", SimpleNamespace(id=42))  # type: ignore[arg-type]
    assert "left to the next start" in caplog.text and "Traceback" not in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]

    class Failing:
        async def guild_back(self, guild_id: str) -> None:
            raise sqlite3.OperationalError("disk I/O error")

    bot.stopping, bot.privacy = False, Failing()  # and news that fails while the bot runs is a failure
    with caplog.at_level(logging.INFO, logger="metrobot.discord"):
        await Metro._server_news(bot, "guild_back", SimpleNamespace(id=42))  # type: ignore[arg-type]
    assert [r for r in caplog.records if r.levelno >= logging.ERROR]
