"""The process survives what it cannot parse: malformed events from Discord are logged and
ignored, and the bot keeps answering."""

from __future__ import annotations

import asyncio
import logging

import pytest

from tests.e2e.harness import make_bot

pytestmark = pytest.mark.timeout(60)

MALFORMED = [
    {"id": "1"},  # no type
    {"id": "2", "type": 3, "data": None},
    {
        "id": "x",
        "type": 2,
        "token": "t",
        "application_id": "1",
        "data": {"name": "game", "type": 1},
        "channel_id": "abc",
    },
    {"id": "3", "type": 99, "token": "t", "version": 1, "application_id": "1", "data": {}},
]


async def test_malformed_interactions_do_not_end_the_bot(standin, run_client, tmp_path, caplog):
    bot = make_bot(str(tmp_path / "robust.sqlite3"))
    task = await run_client(bot)
    await standin.wait_for_commands("game")
    with caplog.at_level(logging.WARNING, logger="metrobot.discord"):
        for payload in MALFORMED:
            standin.world.dispatch("INTERACTION_CREATE", payload, standin.guild_id, None)
        await asyncio.sleep(0.5)
    assert not task.done(), task.exception() if task.done() else None
    assert sum("could not be read" in r.getMessage() for r in caplog.records) >= 1
    user = standin.add_member(name="Still here")
    h = await standin.slash(user, standin.create_channel("after"), "game rules")
    assert "MetrOmania" in (await h.wait_message()).content
