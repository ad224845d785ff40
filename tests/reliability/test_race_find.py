"""Race suite, find a game (issue 63), through the Discord stand-in and the real client:

* two people taking the last seat of a queued table at once (two waiting who want three, and two
  more `/game find` at the same moment): exactly one table forms, with one of them; the other is
  told they wait, and waits; nobody sits at two tables;
* the table's last two confirmations at once: the game starts exactly once.

Each round has people of its own (the toy game, Race to 10, 2-3 players)."""

from __future__ import annotations

import asyncio
import json

import pytest
import pytest_asyncio

from tests.dbfile import rows
from tests.e2e.tourney_play import until

from .sizes import scale

pytestmark = pytest.mark.timeout(300)
FOUND, WAITS = "A table was found for you", "You are in the queue"


@pytest_asyncio.fixture
async def bot(toy, start_bot):
    return await start_bot("race-find", "game")


async def test_two_take_the_last_seat_at_once(standin, bot, report):
    lounge = standin.create_channel("lounge")
    db = bot.settings.db_path
    tables = told_wait = starts = 0
    for round_ in range(scale(3, 12)):
        ann, bob, cat, dan = (standin.add_member(name=f"{n}{round_}") for n in ("Ann", "Bob", "Cat", "Dan"))
        for person in (ann, bob):
            h = await standin.slash(person, lounge, "game find", {"kind": "race", "fewest": 3})
            assert WAITS in (await h.wait_message()).content
        handles = await asyncio.gather(
            *(standin.slash(p, lounge, "game find", {"kind": "race", "fewest": 3}) for p in (cat, dan))
        )
        replies = [(await h.wait_message()).content for h in handles]
        found = [r for r in replies if FOUND in r]
        assert len(found) == 1 and sum(WAITS in r for r in replies) == 1, replies
        tables += len(found)
        told_wait += 1
        seated = cat if FOUND in replies[0] else dan
        waiting = dan if seated == cat else cat
        assert [u for (u,) in rows(db, "SELECT user_id FROM queue")] == [str(waiting)]
        # the thread and its lobby
        lobby = await until(
            lambda: next(
                (
                    m
                    for t in standin.threads_under(lounge)
                    for m in standin.messages(int(t["id"]))
                    if m.custom_ids() and str(seated) in m.content  # noqa: B023 - awaited here
                ),
                None,
            ),
            30,
            "the table's lobby",
        )
        assert sorted(lobby.pinged()[0]) == sorted([ann, bob, seated])
        confirm = next(c for c in lobby.custom_ids() if c.endswith(":confirm"))
        h = await standin.click(ann, lobby, custom_id=confirm)
        await h.wait_message(lambda m: m.ephemeral)
        handles = await asyncio.gather(*(standin.click(p, lobby, custom_id=confirm) for p in (bob, seated)))
        answers = [(await h.wait_message(lambda m: m.ephemeral)).content for h in handles]
        assert sum("the game begins" in a for a in answers) == 1, answers
        await standin.wait_for_message(lobby.channel_id, lambda m: "begins" in m.content)
        await asyncio.sleep(0.2)
        begins = [m for m in standin.messages(lobby.channel_id) if "begins" in m.content]
        assert len(begins) == 1
        starts += 1
        # (the one who waits leaves, for the next round)
        h = await standin.slash(waiting, lounge, "game find", {"leave": True})
        assert "You left the queue" in (await h.wait_message()).content
    ids = [s["user_id"] for (seats,) in rows(db, "SELECT seats FROM games") for s in json.loads(seats)]
    assert len(ids) == len(set(ids))  # nobody in two tables
    report.update(rounds=scale(3, 12), tables_formed=tables, told_they_wait=told_wait, games_started=starts)


async def test_avoids_at_once_never_pass_the_cap(standin, bot, report, monkeypatch):
    """Issue 72: avoid lists are capped (tables/find.py AVOIDS, counted in the transaction that
    adds): several `/me avoid` at once with one place left add exactly one; the others are told
    the list is full."""
    monkeypatch.setattr("metrobot.tables.find.AVOIDS", 2)
    lounge = standin.create_channel("lounge")
    db = bot.settings.db_path
    added = refused = 0
    for round_ in range(scale(2, 8)):
        ann = standin.add_member(name=f"Ann{round_}")
        others = [standin.add_member(name=f"Other{round_}-{n}") for n in range(scale(3, 6))]
        h = await standin.slash(ann, lounge, "me avoid", {"person": str(others[0])})
        assert "will not be matched" in (await h.wait_message()).content
        handles = await asyncio.gather(
            *(standin.slash(ann, lounge, "me avoid", {"person": str(p)}) for p in others[1:])
        )
        replies = [(await h.wait_message()).content for h in handles]
        assert sum("will not be matched" in r for r in replies) == 1, replies
        assert sum("the most one may" in r for r in replies) == len(others) - 2, replies
        assert rows(db, "SELECT COUNT(*) FROM avoids WHERE user_id = ?", str(ann)) == [(2,)]
        added += 1
        refused += len(others) - 2
    report.update(rounds=scale(2, 8), added_at_the_last_place=added, refused_past_the_cap=refused)
