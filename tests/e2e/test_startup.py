"""`python bot.py` while Discord cannot be reached yet (issue 42): one log line per try saying
what failed and when the next try is, no traceback, no exit — and once Discord answers (the
stand-in, started late on the port the bot keeps trying) the bot logs in and syncs its
commands. A token Discord refuses (401) exits with status 2 and one line saying what to do.
No start logs the warnings about voice libraries the bot never uses."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys

from harness import ROOT, TEST_SEED
from standin import DiscordStandIn

TRY_LINE = "cannot reach Discord (logging in, try "


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _bot(tmp_path, port: int, token: str = "standin-bot-token") -> asyncio.subprocess.Process:
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


async def test_discord_unreachable_at_start_is_tried_again_one_line_a_try_until_it_answers(tmp_path):
    port = _free_port()  # nothing listens there yet
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
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
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
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    log = out.decode()
    assert proc.returncode == 2, log
    assert "Traceback" not in log and TRY_LINE not in log, log
    [said] = [line for line in log.splitlines() if "DISCORD_TOKEN" in line]
    assert "refused the token" in said and "Reset Token" in said, log
    assert "PyNaCl" not in log and "davey" not in log, log
