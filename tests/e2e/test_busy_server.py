"""Life on a busy server, end to end through the stand-in: `/games` for a person in several
games and servers, quiet hours across a daylight-saving change, time away (the clock stops
and restarts exactly; the limit), the status message and tidy channels, `/server settings`
(Manage Server only; where games may be made, how many one person hosts, the
looking-for-players role), and `/game nudge`. Time is the bot's service clock, set by the
test (the turn clock's loop is left idle and ticked by hand)."""

from __future__ import annotations

import asyncio
import datetime as dt
import re

import pytest
import pytest_asyncio

from metrobot.discord_app.recovery import deliver_owed
from metrobot.storage import Database
from tests.e2e.harness import make_bot
from tests.e2e.players import Table

pytestmark = pytest.mark.timeout(300)
UTC = dt.UTC
LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)/(\d+)")
MANAGE_GUILD = 1 << 5


def at(*when: int) -> float:
    return dt.datetime(*when, tzinfo=UTC).timestamp()


@pytest_asyncio.fixture
async def bot(standin, run_client, tmp_path):
    client = make_bot(str(tmp_path / "busy.sqlite3"), tick=3600.0)  # ticked by hand (`tick`)
    await run_client(client)
    await standin.wait_for_commands("game", "games", "me", "server")
    client.now = at(2026, 6, 1, 12)
    client.service.clock = lambda: client.now
    return client


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


async def dig(table: Table, user: int) -> None:
    await table.dig_by_command(user)
    await settled(table)


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


# ---------------------------------------------------------------- /games
async def test_games_lists_a_persons_games_theirs_first_with_links_and_lobbies_to_join(standin, bot):
    ann, bob, cat = (standin.add_member(name=n) for n in ("Ann", "Bob", "Cat"))
    hall = standin.create_channel("hall")
    thread = standin.create_thread(hall, "side game")
    metro = await game(standin, bot, ann, [bob], channel=hall)
    await game(standin, bot, cat, [ann], "flipwrite", channel=thread, city="paris")  # waits for both
    tube = await game(standin, bot, ann, [cat], "underground")
    lobby = Table(standin, standin.create_channel("lobby"), bot.settings.db_path)
    await (await standin.slash(cat, lobby.channel, "game new", {"kind": "metromania", "players": 3})).wait_message()
    other = standin.add_guild("Elsewhere")
    dan = standin.add_member(name="Dan", guild_id=other)
    standin.add_member(ann, guild_id=other)
    away = await game(standin, bot, dan, [ann], channel=standin.create_channel("far", guild_id=other))

    listing = await ask(standin, ann, hall, "games")
    lines = listing.splitlines()[1:]
    assert len(lines) == 4 and f"<#{away.channel}>" not in listing  # three games here, and a lobby to join
    waiting = [table for table in (metro, tube) if ann in await table.owed()] + [None]  # flip-and-write: always
    yours = [line for line in lines if "your turn" in line]
    assert len(yours) == len(waiting) and lines[: len(yours)] == yours  # the games waiting for Ann come first
    assert "lobby with 2 free seats" in lines[-1] and f"<#{lobby.channel}>" in lines[-1]
    for line in lines:  # each with a jump link to its latest board (or the lobby post)
        guild, channel, message = map(int, LINK.search(line).groups())
        assert guild == standin.guild_id and standin.message(message).channel_id == channel
    for line in lines[:3]:
        assert "<t:" in line  # the clock's deadline, as Discord shows it where the reader is

    everywhere = await ask(standin, ann, standin.dm_channel(ann), "games")  # in a DM: every server
    assert len(everywhere.splitlines()) == 5 and f"<#{away.channel}>" in everywhere and "lobby with" not in everywhere


# ---------------------------------------------------------------- quiet hours
async def test_quiet_hours_across_a_daylight_saving_change(standin, bot):
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    # Saturday 24 October 2026, 23:30 in Amsterdam (summer time, UTC+2); the clocks go back
    # at 03:00 that night, so Bob's quiet hours end at 07:00 winter time, 06:00 UTC.
    bot.now = at(2026, 10, 24, 21, 30)
    quiet = await ask(
        standin,
        bob,
        standin.dm_channel(bob),
        "me settings",
        {"quiet_hours": "22:00-07:00", "time_zone": "europe/amsterdam", "turn_dms": True},
    )
    assert "Quiet hours: 22:00–07:00 (Europe/Amsterdam)" in quiet and "DM when it is my turn: on" in quiet
    table = await game(standin, bot, ann, [bob], clock_hours=12)
    if await table.owed() != [bob]:
        await dig(table, ann)
    assert await table.owed() == [bob]
    post = table.last_play_message()
    users, _ = post.pinged()
    assert f"<@{bob}>" in post.content and bob not in users  # named, not pinged
    assert not [m for m in standin.dms(bob) if "Your turn" in m.content]  # the DM waits...
    ends = at(2026, 10, 25, 6, 0)
    deadline = (await row(table)).deadline
    bot.now = at(2026, 10, 25, 3, 35)  # half time: the reminder waits too
    await tick(bot)
    assert not [m for m in standin.messages(table.channel) if "half of the turn clock" in m.content]
    bot.now = ends - 60
    await tick(bot)
    assert not [m for m in standin.dms(bob) if "Your turn" in m.content]
    bot.now = ends
    await tick(bot)
    assert [m for m in standin.dms(bob) if "Your turn" in m.content]  # ...until 07:00 winter time
    reminder = [m for m in standin.messages(table.channel) if "half of the turn clock" in m.content]
    assert len(reminder) == 1 and reminder[0].pinged()[0] == [bob]
    assert (await row(table)).deadline == deadline  # the clock ran on


# ---------------------------------------------------------------- away
async def test_away_stops_and_restarts_the_clock_exactly_and_its_limit_holds(standin, bot):
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    table = await game(standin, bot, ann, [bob])
    (first,) = await table.owed()
    start = await row(table)
    bot.now += 3600
    said = await ask(standin, first, table.channel, "me away", {"days": 2, "note": "sailing"})
    assert "You are away until" in said
    stopped = await row(table)
    assert stopped.deadline is None and stopped.paused == start.deadline - bot.now
    told = [m for m in standin.messages(table.channel) if "is away until" in m.content]
    assert len(told) == 1 and "sailing" in told[0].content  # each of their games' channels, once
    assert "Away:" in await ask(standin, table.s.add_member(name="Spectator"), table.channel, "status")
    bot.now += 86400
    await tick(bot)  # nothing runs out while the clock is stopped
    assert (await row(table)).deadline is None and await table.owed() == [first]
    await ask(standin, first, table.channel, "me back")
    assert (await row(table)).deadline == bot.now + stopped.paused  # restarted with exactly what was left

    refused = await ask(standin, first, table.channel, "me away", {"days": 14})  # a day used of 14 in 30
    assert "at most 14 days" in refused and "you have 13 left" in refused
    await ask(standin, first, table.channel, "me away", {"days": 13})
    await dig(table, first)  # a move ends the time away
    assert "You are not away" in await ask(standin, first, table.channel, "me back")


# ---------------------------------------------------------------- status message and tidy channel
async def test_the_status_message_and_a_tidy_channel(standin, bot):
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    table = await game(standin, bot, ann, [bob])
    status = next(m for m in table.public() if m.posted_custom_ids() and "mb:l:" in m.posted_custom_ids()[0])
    edits = status.edits
    for _turn in range(4):
        assert status.content.startswith("📋 **MetrOmania** — in progress.")
        assert [c.split(":")[1] for c in status.custom_ids()] == ["fw"]  # its one control: 👁 Follow
        latest = table.last_play_message()
        assert int(LINK.search(status.content).group(3)) == latest.id  # a link to the latest board
        owed = await table.owed()
        assert f"Waiting for {'Ann' if owed == [ann] else 'Bob'}" in status.content
        turn_posts = [m for m in table.public() if any("mb:p:" in c for c in m.posted_custom_ids())]
        assert [bool(m.components) for m in turn_posts] == [False] * (len(turn_posts) - 1) + [True]
        await dig(table, owed[0])
    assert status.edits - edits <= 4 + 1  # one edit a turn (and one when the game started)
    assert sum("📋" in m.content for m in table.public()) == 1  # edited, never posted again

    await ask(standin, ann, table.channel, "game settings", {"tidy": False})
    kept = table.last_play_message()
    await dig(table, (await table.owed())[0])
    assert kept.components  # old turn posts keep their buttons now


# ---------------------------------------------------------------- /server settings
async def test_server_settings_are_for_managers_and_shape_new_games(standin, bot):
    manager_role = standin.create_role("Admins", MANAGE_GUILD)
    boss = standin.add_member(name="Boss", roles=[manager_role])
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    games, other = standin.create_channel("games"), standin.create_channel("chat")
    lfp = standin.create_role("Looking for players")
    refused = await ask(standin, bob, other, "server settings", {"max_hosted": 50})
    assert "Manage Server" in refused
    shown = await ask(
        standin,
        boss,
        other,
        "server settings",
        {"looking_for_players": lfp, "allow_channel": games, "max_hosted": 1, "clock_hours": 6, "language": "nl"},
    )
    assert f"<@&{lfp}>" in shown and f"<#{games}>" in shown and "Open games one person may host: 1" in shown

    refused = await ask(standin, ann, other, "game new", {"kind": "metromania"})
    assert f"created in <#{games}>" in refused
    opened = await (await standin.slash(ann, games, "game new", {"kind": "metromania"})).wait_message()
    assert opened.ephemeral
    lobby = await standin.wait_for_message(games, lambda m: "mb:l:" in " ".join(m.custom_ids()))
    assert lobby.pinged()[1] == [lfp]  # the looking-for-players role is pinged
    assert "spelers nodig" in lobby.content and "6 u" in lobby.content  # in Dutch, with a 6-hour clock
    thread = standin.create_thread(games, "another")
    refused = await ask(standin, ann, thread, "game new", {"kind": "metromania"})
    assert "most one person may" in refused  # one open game per host here


# ---------------------------------------------------------------- /game nudge
async def test_nudges_are_limited_and_wait_for_quiet_hours(standin, bot):
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    table = await game(standin, bot, ann, [bob])
    (waited,) = await table.owed()
    other = bob if waited == ann else ann
    assert "waits for you only" in await ask(standin, waited, table.channel, "game nudge")
    assert await ask(standin, other, table.channel, "game nudge") == "Nudged."
    nudge = [m for m in table.public() if "a nudge from" in m.content]
    assert len(nudge) == 1 and nudge[0].pinged()[0] == [waited]
    refused = await ask(standin, other, table.channel, "game nudge")
    assert "was nudged" in refused and "<t:" in refused  # once in 6 hours, and when the next may go
    # Six hours later the waited-for person is asleep (their quiet hours): the nudge waits.
    await ask(standin, waited, table.channel, "me settings", {"quiet_hours": "00:00-08:00", "time_zone": "UTC"})
    bot.now = at(2026, 6, 2, 2, 0)
    assert "quiet hours" in await ask(standin, other, table.channel, "game nudge")
    await tick(bot)
    assert len([m for m in table.public() if "a nudge from" in m.content]) == 1
    bot.now = at(2026, 6, 2, 8, 0)
    await tick(bot)
    assert len([m for m in table.public() if "a nudge from" in m.content]) == 2
