"""Life on a busy server, end to end through the stand-in: `/games` for a person in several
games and servers, quiet hours across a daylight-saving change, time away (the clock stops
and restarts exactly; the limit), the status message and tidy channels, `/server settings`
(Manage Server only; where games may be made, how many one person hosts, the
looking-for-players role), and `/game nudge`. Time is the bot's service clock, set by the
test (the turn clock's loop is left idle and ticked by hand)."""

from __future__ import annotations

import re

import pytest
import pytest_asyncio

from tests.clock import Clock, at
from tests.e2e.players import Table
from tests.e2e.ticks import ask, game, row, settled, tick


@pytest_asyncio.fixture
async def bot(start_bot):
    # ticked by hand (`tick`)
    return await start_bot("busy", "game", "games", "me", "server", tick=3600.0, clock=Clock(at(2026, 6, 1, 12)))


pytestmark = pytest.mark.timeout(300)
LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)/(\d+)")
MANAGE_GUILD = 1 << 5


async def dig(table: Table, user: int) -> None:
    await table.dig_by_command(user)
    await settled(table)


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
    bot.clock.now = at(2026, 10, 24, 21, 30)
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
    bot.clock.now = at(2026, 10, 25, 3, 35)  # half time: the reminder waits too
    await tick(bot)
    assert not [m for m in standin.messages(table.channel) if "half of the turn clock" in m.content]
    bot.clock.now = ends - 60
    await tick(bot)
    assert not [m for m in standin.dms(bob) if "Your turn" in m.content]
    bot.clock.now = ends
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
    bot.clock.now += 3600
    said = await ask(standin, first, table.channel, "me away", {"days": 2, "note": "sailing"})
    assert "You are away until" in said
    stopped = await row(table)
    assert stopped.deadline is None and stopped.paused == start.deadline - bot.clock.now
    told = [m for m in standin.messages(table.channel) if "is away until" in m.content]
    assert len(told) == 1 and "sailing" in told[0].content  # each of their games' channels, once
    assert "Away:" in await ask(standin, table.s.add_member(name="Spectator"), table.channel, "status")
    bot.clock.now += 86400
    await tick(bot)  # nothing runs out while the clock is stopped
    assert (await row(table)).deadline is None and await table.owed() == [first]
    await ask(standin, first, table.channel, "me back")
    assert (await row(table)).deadline == bot.clock.now + stopped.paused  # restarted with exactly what was left

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
    bot.clock.now = at(2026, 6, 2, 2, 0)
    assert "quiet hours" in await ask(standin, other, table.channel, "game nudge")
    await tick(bot)
    assert len([m for m in table.public() if "a nudge from" in m.content]) == 1
    bot.clock.now = at(2026, 6, 2, 8, 0)
    await tick(bot)
    assert len([m for m in table.public() if "a nudge from" in m.content]) == 2
