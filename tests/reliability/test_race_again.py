"""Race suite, ↻ Play again (issue 63), through the Discord stand-in and the real client:

* ↻ Play again pressed at once by all three players of a finished game (a double tap, two
  devices): exactly one lobby opens, every other press is told privately that it is open;
* the last one invited joining at the moment the host presses Start: the game starts exactly
  once (one "begins" post, one game running), and the loser of the race is told clearly.

Each round plays the toy game (Race to 10) to the end in a channel of its own first."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio

from tests.e2e.players import Table

from .sizes import scale

pytestmark = pytest.mark.timeout(300)
OPENED, OPEN_ALREADY = "Lobby open to play", "already open here"
STARTED = ("Game started", "everyone invited is here")
TOO_LATE = ("already started", "already running")


@pytest_asyncio.fixture
async def bot(toy, start_bot):
    return await start_bot("race-again", "game", "add")


async def test_play_again_clicks_and_an_accept_against_the_start(standin, bot, report):
    ann, bob, cat = (standin.add_member(name=n) for n in ("Ann", "Bob", "Cat"))
    tried = lobbies = told_open = starts = told_late = unclear = 0
    for round_ in range(scale(2, 8)):
        channel = standin.create_channel(f"race-again-{round_}")
        table = Table(standin, channel, bot.settings.db_path, seed=6 + round_)
        await table.open(ann, "race", [bob, cat], players=3)
        await table.play_until_over()
        final = await standin.wait_for_message(
            channel, lambda m: any(c.startswith("mb:again:") for c in m.custom_ids())
        )
        again = next(c for c in final.custom_ids() if c.startswith("mb:again:"))
        pressers = [ann, bob, cat] * scale(1, 3)
        handles = await asyncio.gather(*(standin.click(u, final, custom_id=again) for u in pressers))
        replies = [(await h.wait_message()).content for h in handles]
        tried += len(replies)
        opened = [r for r in replies if OPENED in r]
        lobbies += len(opened)
        told_open += sum(OPEN_ALREADY in r for r in replies)
        unclear += sum(OPENED not in r and OPEN_ALREADY not in r for r in replies)
        assert len(opened) == 1 and all(OPENED in r or OPEN_ALREADY in r for r in replies), replies
        row = await table.row()
        assert row.status == "lobby"
        host = int(row.host_id)
        first, last = [u for u in (ann, bob, cat) if u != host]
        prefix = f"mb:l:{row.id}:"
        lobby = await standin.wait_for_message(
            channel,
            lambda m: any(c.startswith(prefix) for c in m.custom_ids()),  # noqa: B023 - awaited here
        )
        h = await standin.click(first, lobby, custom_id=f"mb:l:{row.id}:join")
        await h.wait_message(lambda m: m.ephemeral)
        joining, starting = await asyncio.gather(
            standin.click(last, lobby, custom_id=f"mb:l:{row.id}:join"), standin.slash(host, channel, "game start")
        )
        answers = [(await h.wait_message(lambda m: m.ephemeral)).content for h in (joining, starting)]
        started = [a for a in answers if any(s in a for s in STARTED)]
        late = [a for a in answers if any(s in a for s in TOO_LATE)]
        starts += len(started)
        told_late += len(late)
        assert len(started) == 1 and len(late) == 1, answers
        await table.posted()
        begins = [m for m in table.public() if "begins" in m.content and m.id > lobby.id]
        assert len(begins) == 1, [m.content for m in begins]
        row = await table.row()
        assert row.status == "active" and len(row.seats) == (3 if "everyone invited" in started[0] else 2), round_
    report.update(
        rounds=scale(2, 8),
        racing_presses_tried=tried,
        lobbies_opened=lobbies,
        told_open=told_open,
        starts=starts,
        told_too_late=told_late,
        unclear_replies=unclear,
    )


async def test_two_joins_at_once_against_the_cap(standin, bot, report):
    """Who finishes (issue 63): the server lets Ann hold one game; she presses Join on two
    lobbies of two channels at the same moment (two devices). Exactly one seats her, the other
    is told the cap's rule, and she holds one game; then she leaves it for the next round (new
    hosts each round: the cap holds for them too)."""
    boss = standin.add_member(name="Boss", roles=[standin.create_role("Admins", 1 << 5)])
    ann = standin.add_member(name="Ann")
    said = await standin.slash(boss, standin.create_channel("settings"), "server settings", {"finish_cap": 1})
    await said.wait_message()
    rounds = scale(2, 8)
    seated = refused = 0
    for round_ in range(rounds):
        lobbies = []
        for host in (standin.add_member(name=f"Bob{round_}"), standin.add_member(name=f"Cat{round_}")):
            channel = standin.create_channel(f"cap-{round_}-{host}")
            await (await standin.slash(host, channel, "game new", {"kind": "race", "players": 3})).wait_message()
            lobby = await standin.wait_for_message(channel, lambda m: "mb:l:" in " ".join(m.custom_ids()))
            lobbies.append((channel, lobby, next(c for c in lobby.custom_ids() if c.endswith(":join"))))
        handles = await asyncio.gather(*(standin.click(ann, lobby, custom_id=join) for _, lobby, join in lobbies))
        answers = [(await h.wait_message(lambda m: m.ephemeral)).content for h in handles]
        joined = [i for i, a in enumerate(answers) if "You joined" in a]
        told = [a for a in answers if "may hold as many games as they have finished, plus 1" in a]
        assert len(joined) == 1 and len(told) == 1, answers
        seated += len(joined)
        refused += len(told)
        rows = [await Table(standin, channel, bot.settings.db_path).row() for channel, _, _ in lobbies]
        assert sorted(len(r.seats) for r in rows) == [1, 2], [r.seats for r in rows]
        _, lobby, _ = lobbies[joined[0]]
        leave = next(c for c in lobby.custom_ids() if c.endswith(":leave"))
        await (await standin.click(ann, lobby, custom_id=leave)).wait_message(lambda m: m.ephemeral)
    report.update(rounds=rounds, joins_pressed=2 * rounds, seated=seated, told_the_cap=refused)


async def test_open_abort_open_at_once_pings_the_others_once(standin, bot, report):
    """Issue 72: ↻ Play again was a ping loop (open, abort, open: a ping each time). Each cycle all
    three press at once (one lobby opens) and its host aborts it: over every cycle, the others are
    pinged once a finished game."""
    ann, bob, cat = (standin.add_member(name=n) for n in ("Ann", "Bob", "Cat"))
    cycles = scale(3, 6)
    channel = standin.create_channel("again-loop")
    table = Table(standin, channel, bot.settings.db_path, seed=11)
    await table.open(ann, "race", [bob, cat], players=3)
    await table.play_until_over()
    final = await standin.wait_for_message(channel, lambda m: any(c.startswith("mb:again:") for c in m.custom_ids()))
    again = next(c for c in final.custom_ids() if c.startswith("mb:again:"))
    pings: list[int] = []
    for _ in range(cycles):
        handles = await asyncio.gather(*(standin.click(u, final, custom_id=again) for u in (ann, bob, cat)))
        replies = [(await h.wait_message()).content for h in handles]
        assert sum(OPENED in r for r in replies) == 1, replies
        row = await table.row()
        lobby = await standin.wait_for_message(
            channel,
            lambda m: any(c.startswith(f"mb:l:{row.id}:") for c in m.custom_ids()),  # noqa: B023 - awaited here
        )
        pings += lobby.pinged()[0]
        h = await standin.slash(int(row.host_id), channel, "game abort")
        assert "aborted" in (await h.wait_message()).content
    assert len(pings) == 2 and len(set(pings)) == 2, pings  # the two others, once
    report.update(cycles=cycles, pings=len(pings))
