"""The storage contract for following games and the farewells owed after an erasure (issue
46) — on SQLite and PostgreSQL alike: 👁 Follow's toggle in one transaction, an unfollow that
settles the follower's DMs not yet sent, a farewell claimed by one process and deleted once
said."""

from __future__ import annotations

import asyncio

from metrobot.storage import Owed, Seat, outbox

ANN = Seat("u1", "Ann")


async def a_game(db) -> int:
    row = await db.create_game(
        channel_id="c1", guild_id="g1", game="metromania", host=ANN, options={}, seed=7, max_seats=2, turn_clock=3600
    )
    return row.id


async def owe(db, game_id: int, target: str, topic: str) -> int:
    item = Owed(target, 1, {"text": "news", "mentions": [], "controls": None, "images": [], "topic": topic})
    async with db.driver.transaction() as tx:
        await outbox.insert(tx, game_id, "c1", [item])
    assert item.id is not None
    return item.id


async def test_follow_toggles_in_one_transaction(db):
    game = await a_game(db)
    assert await db.reminders.toggle_follow("u9", game, 0, 1.0) is True
    assert await db.reminders.followed("u9") == [game]
    assert await db.reminders.toggle_follow("u9", game, 0, 2.0) is False
    assert await db.reminders.followed("u9") == []
    said = await asyncio.gather(*(db.reminders.toggle_follow("u9", game, 0, 3.0) for _ in range(5)))
    stored = len(await db.reminders.followed("u9"))
    assert stored in (0, 1)  # at most one follow, whatever the order
    assert (True in said) if stored else (False in said)  # the last word said matches what is stored


async def test_an_unfollow_settles_the_followers_dms_not_yet_sent(db):
    game = await a_game(db)
    await db.reminders.follow("u9", game, 0, 1.0)
    news = await owe(db, game, "dm:u9", "follow")
    hand = await owe(db, game, "dm:u9", "hand")
    others = await owe(db, game, "dm:u8", "follow")
    assert await db.reminders.still_owed(news)
    assert await db.reminders.unfollow("u9", game)
    assert not await db.reminders.still_owed(news)  # settled unsent
    assert await db.reminders.still_owed(hand) and await db.reminders.still_owed(
        others
    )  # (not about following, or not theirs)
    assert not await db.reminders.unfollow("u9", game)


async def test_a_farewell_is_claimed_once_and_deleted_once_said(db):
    await db.privacy.begin_erasure("u7", "ko")
    await db.privacy.finish_erasure("u7", "완료")
    await db.privacy.finish_erasure("u7", "완료")  # (a second finish of an ended job owes nothing more)
    owed = await db.erasure_dms.farewells_owed()
    assert [(user, text) for _, user, text, _ in owed] == [("u7", "완료")]
    assert await db.erasure_dms.farewells_owed() == []  # claimed: another process does not send it too
    await db.erasure_dms.farewell_said(owed[0][0])
    async with db.driver.read() as q:
        assert await q.fetch("SELECT * FROM farewells") == []
    assert await db.privacy.erasures() == []
