"""What the end-to-end tests of a bot whose turn clock is ticked by hand share (a busy server, take-backs,
reminders, banks, find, privacy): a tick of the turn clock, a private answer, a game opened and
settled, its row."""

from __future__ import annotations

import asyncio

from metrobot.discord_app.recovery import deliver_owed
from metrobot.storage import Database
from tests.e2e.players import Table


async def tick(bot) -> None:
    """One beat of the turn clock: reminders and expiries, people back from away, what is owed."""
    for channel, outcome in await bot.service.tick():
        await bot.deliver(channel, outcome)
    await deliver_owed(bot)


async def ask(standin, user: int, channel: int, command: str, options: dict | None = None) -> str:
    """A slash command's private answer."""
    reply = await (await standin.slash(user, channel, command, options or {})).wait_message()
    assert reply.ephemeral, reply.content
    return reply.content


async def game(
    standin, bot, host: int, guests: list[int], kind: str = "metromania", channel: int | None = None, **options
) -> Table:
    table = Table(standin, channel or standin.create_channel(kind), bot.settings.db_path, seed=23)
    await table.open(host, kind, guests, players=len(guests) + 1, **options)
    await settled(table)
    return table


async def settled(table: Table) -> None:
    """Until what the game owes now (not what waits for someone's quiet hours) is delivered:
    the private answer comes first, posts and edits follow it."""
    db = await Database(table.db_path).open()
    try:
        for _ in range(500):
            async with db.driver.read() as q:
                (left,) = await q.fetchone(
                    "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL AND not_before IS NULL"
                )
            if not left:
                return
            await asyncio.sleep(0.02)
    finally:
        await db.close()
    raise AssertionError("what the game owes was never delivered")


async def row(table: Table):
    db = await Database(table.db_path).open()
    try:
        return await db.game((await table.row()).id)
    finally:
        await db.close()
