"""The queue of "find a game" (storage/queue.py) on both backends: entries and their versions,
the matching's tables written only from the queue they were read from, a table's thread claimed
and recorded once, one lobby a table, a table dissolved with its people back at their places."""

from __future__ import annotations

import pytest

from metrobot.storage import Conflict, Duplicate, Seat
from metrobot.storage.queue import QueueEntry


def entry(user: str, since: float, guild: str = "g") -> QueueEntry:
    return QueueEntry(guild, user, user.upper(), "race", 2, 3, "few", "c1", False, since)


async def test_the_queue_and_its_tables(db):
    assert await db.queue.snapshot("g") == (0, [])
    for n, user in enumerate(("u1", "u2", "u3")):
        await db.queue.enter(entry(user, 10.0 + n))
    with pytest.raises(Duplicate):
        await db.queue.enter(entry("u1", 99.0))
    version, waiting = await db.queue.snapshot("g")
    assert version == 3 and [e.user_id for e in waiting] == ["u1", "u2", "u3"]
    await db.queue.enter(entry("u1", 5.0, guild="other"))  # another server's queue, its own version
    assert (await db.queue.snapshot("g"))[0] == 3
    # a table from a queue read before a change: refused, nothing written
    await db.queue.leave("g", "u3")
    with pytest.raises(Conflict):
        await db.queue.form_tables("g", version, [("race", "few", "c1", waiting[:2], 500.0)], 100.0)
    version, waiting = await db.queue.snapshot("g")
    assert [e.user_id for e in waiting] == ["u1", "u2"]
    [table] = await db.queue.form_tables("g", version, [("race", "few", "c1", waiting, 500.0)], 100.0)
    assert (await db.queue.snapshot("g"))[1] == [] and table.ids == ["u1", "u2"]
    # its thread: claimed once at a time, each claim counted; the first thread recorded stays
    [owed] = await db.queue.threads_owed()
    assert owed.id == table.id and owed.tries == 1 and await db.queue.threads_owed() == []
    assert (await db.queue.thread_made(table.id, "t1")).thread_id == "t1"
    assert (await db.queue.thread_made(table.id, "t2")).thread_id == "t1"
    assert [t.id for t in await db.queue.unopened()] == [table.id]

    # one lobby a table (linked in its creation's transaction)
    async def link(tx, row):
        await db.queue.link_game(tx, table.id, row.id)

    host = Seat("u1", "U1")
    made = await db.create_game(
        channel_id="t1", guild_id="g", game="race", host=host, options={}, seed=1, max_seats=2,
        turn_clock=3600, seats=[], linked=link,
    )  # fmt: skip
    assert made.seats == [] and (await db.queue.table(table.id)).game_id == made.id
    with pytest.raises(Conflict):
        await db.create_game(
            channel_id="t9", guild_id="g", game="race", host=host, options={}, seed=1, max_seats=2,
            turn_clock=3600, linked=link,
        )  # fmt: skip
    assert await db.open_game("t9") is None
    assert await db.queue.due(499.0) == [] and [t.id for t in await db.queue.due(500.0)] == [table.id]
    # dissolved: u2 back at their place, before someone who came later
    await db.queue.enter(entry("u4", 50.0))
    await db.queue.dissolve_now(await db.queue.table(table.id), [table.people[1]])
    assert await db.queue.table(table.id) is None
    assert [(e.user_id, e.since) for e in (await db.queue.snapshot("g"))[1]] == [("u2", 11.0), ("u4", 50.0)]


async def test_avoids(db):
    assert await db.queue.avoid("u1", "u2") and not await db.queue.avoid("u1", "u2")
    await db.queue.avoid("u1", "u3")
    assert await db.queue.avoided("u1") == ["u2", "u3"]
    assert await db.queue.avoided_by(["u1", "u2"]) == {"u1": {"u2", "u3"}, "u2": set()}
    assert await db.queue.unavoid("u1", "u2") and not await db.queue.unavoid("u1", "u2")
    assert await db.queue.avoided("u1") == ["u3"]


async def test_an_avoid_list_is_capped_in_the_transaction_that_adds(db):
    """Issue 72: at most `cap` people avoided; adds at once at the last place add one (on
    PostgreSQL too, where two read-committed transactions would each count one place left)."""
    import asyncio

    from metrobot.storage import Conflict

    assert await db.queue.avoid("u1", "u2", 2)
    results = await asyncio.gather(*(db.queue.avoid("u1", f"x{n}", 2) for n in range(6)), return_exceptions=True)
    assert sum(r is True for r in results) == 1, results
    assert sum(isinstance(r, Conflict) for r in results) == 5, results
    assert not await db.queue.avoid("u1", "u2", 2)  # (one avoided already: said so, not refused)
    assert len(await db.queue.avoided("u1")) == 2
