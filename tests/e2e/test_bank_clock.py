"""Bank clocks (issue 63 item 3), end to end through the Discord stand-in: a game opened with
`/game new clock:` a preset; a bank that runs out during a player's turn (the automatic player
moves, posted once, the banks shown in the status message and `/status`), and one that does
not run during the player's quiet hours. Time is the bot's service clock, set by the test (the
turn clock's loop is left idle and ticked by hand): no real waiting."""

from __future__ import annotations

import pytest
import pytest_asyncio

from tests.clock import Clock, at
from tests.e2e.players import Table
from tests.e2e.ticks import tick
from tests.e2e.waiting import delivered

pytestmark = pytest.mark.timeout(300)
MINUTE, HOUR = 60, 3600


@pytest_asyncio.fixture
async def bot(start_bot):
    # a Saturday, 20:00 UTC (after every real time a move is logged at)
    return await start_bot("bank", "game", "status", "me", tick=3600.0, clock=Clock(at(2031, 3, 8, 20)))


def time_up(standin, channel: int) -> list:
    return [m for m in standin.messages(channel) if "Time is up for" in m.content]


async def test_a_bank_that_runs_out_during_a_turn_lets_the_automatic_player_move_once(standin, bot):
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    hall = standin.create_channel("hall")
    table = Table(standin, hall, bot.settings.db_path, seed=5)
    await table.open(ann, "metromania", [bob], players=2, clock="sitting")  # 15 min, +2 min a move, ≤ 30 min
    row = await table.row()
    assert row.settings["bank"] == {"bank": 900, "increment": 120, "cap": 1800, "quiet": False, "away": True}
    first = (await table.owed())[0]
    await delivered(standin, bot.settings.db_path, hall)
    [status] = [m for m in standin.messages(hall) if m.content.startswith("📋")]
    assert "Banks: " in status.content and "⏳" in status.content  # the status message shows each bank

    bot.clock.now += 14 * MINUTE
    await tick(bot)
    assert time_up(standin, hall) == []
    bot.clock.now += 2 * MINUTE  # 16 minutes: the bank of 15 is empty
    await tick(bot)
    await tick(bot)
    await table.posted()
    [expired] = time_up(standin, hall)
    name = "Ann" if first == ann else "Bob"
    assert expired.content.startswith(f"⏰ Time is up for {name}")
    row = await table.row()
    assert first not in await table.owed() and row.seat(str(first)).lapsed
    assert row.settings["banks"]["left"][str(first)] == 120  # empty, then the move's increment
    bot.clock.now += 5 * MINUTE
    await tick(bot)
    assert len(time_up(standin, hall)) == 1  # (the other's bank still has 10 minutes)

    reply = await (await standin.slash(ann, hall, "status", {})).wait_message()
    assert "Bank clock: a sitting" in reply.content and "Banks: Ann" in reply.content


async def test_a_bank_does_not_run_during_its_players_quiet_hours(standin, bot):
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    hall = standin.create_channel("hall")
    for person in (ann, bob):
        said = await (
            await standin.slash(person, hall, "me settings", {"quiet_hours": "22:00-07:00", "time_zone": "UTC"})
        ).wait_message()
        assert said.ephemeral
    table = Table(standin, hall, bot.settings.db_path, seed=6)
    await table.open(ann, "metromania", [bob], players=2, clock="weekend")  # 12 h, stops in quiet hours
    row = await table.row()
    # 2 h tonight (20:00–22:00), none in the night, 10 h from 07:00: empty at 17:00 on Sunday
    assert row.deadline == at(2031, 3, 9, 17)

    bot.clock.now = at(2031, 3, 9, 8, 1)  # 12 h and a minute later: a clock that ran at night would be out
    await tick(bot)
    assert time_up(standin, hall) == []
    bot.clock.now = at(2031, 3, 9, 16, 59)
    await tick(bot)
    assert time_up(standin, hall) == []
    bot.clock.now = at(2031, 3, 9, 17, 0, 1)
    await tick(bot)
    await table.posted()
    assert len(time_up(standin, hall)) == 1
