"""The daily challenge's rows (storage/daily.py, migration 18) on SQLite and PostgreSQL: a
second start of the same deal is refused by the row's key (whichever process makes it), the
result is written with the game's end, the table is best first, one server's or everyone's."""

import pytest

from metrobot.storage import DailyPlay, Duplicate, Seat
from metrobot.storage import daily as rows


async def new_game(db, channel):
    return await db.create_game(
        channel_id=channel,
        guild_id=None,
        game="flipwrite",
        host=Seat("u1", "Ann"),
        options={},
        seed=1,
        max_seats=1,
        turn_clock=60,
    )


def play(user, game_id, guild="g1", day="2026-11-18"):
    return DailyPlay(day, "flipwrite", user, guild, user.upper(), game_id, 1.0, None, None)


async def test_a_second_start_of_the_same_deal_is_refused_with_its_game(db):
    first = await new_game(db, "daily:a")

    async def linked(tx, row):
        await rows.insert(tx, play("u1", row.id))

    await db.create_game(
        channel_id="daily:b",
        guild_id=None,
        game="flipwrite",
        host=Seat("u1", "Ann"),
        options={},
        seed=1,
        max_seats=1,
        turn_clock=60,
        linked=linked,
    )
    with pytest.raises(Duplicate):
        await db.create_game(
            channel_id="daily:c",
            guild_id=None,
            game="flipwrite",
            host=Seat("u1", "Ann"),
            options={},
            seed=1,
            max_seats=1,
            turn_clock=60,
            linked=linked,
        )
    assert await db.open_game("daily:c") is None, "the game of the refused start was rolled back"
    assert (await db.daily.play("2026-11-18", "flipwrite", "u1")).game_id != first.id


async def test_results_tables_and_days(db):
    games = [await new_game(db, f"daily:{i}") for i in range(4)]
    async with db.driver.transaction() as tx:
        await rows.insert(tx, play("u1", games[0].id))
        await rows.insert(tx, play("u2", games[1].id, guild="g2"))
        await rows.insert(tx, play("u3", games[2].id))
        await rows.insert(tx, play("u1", games[3].id, day="2026-11-17"))
    async with db.driver.transaction() as tx:
        await rows.record(tx, games[0].id, {"u1": 30}, 10.0)
        await rows.record(tx, games[1].id, {"u2": 40}, 11.0)
        await rows.record(tx, games[3].id, {"u1": 5}, 12.0)
    everyone = await db.daily.table("2026-11-18", "flipwrite")
    assert [(p.user_id, p.score) for p in everyone] == [("u2", 40), ("u1", 30)]  # (u3 has not finished)
    assert [p.user_id for p in await db.daily.table("2026-11-18", "flipwrite", "g1")] == ["u1"]
    assert await db.daily.finished_days("u1", "2026-01-01") == ["2026-11-18", "2026-11-17"]
    # g1's table of the 18th waits while u3's game (begun at 1.0) runs, up to when it began a week ago:
    assert await db.daily.tables_due("2026-11-10", "2026-11-19", 0.0) == [("g1", "2026-11-17"), ("g2", "2026-11-18")]
    assert await db.daily.tables_due("2026-11-10", "2026-11-19", 1.0) == [
        ("g1", "2026-11-17"),
        ("g1", "2026-11-18"),
        ("g2", "2026-11-18"),
    ]
    assert await db.daily.tables_due("2026-11-18", "2026-11-19", 1.0) == [("g1", "2026-11-18"), ("g2", "2026-11-18")]
    assert await db.daily.finished_count("2026-11-18", "flipwrite", "g1") == 1
    assert await db.daily.owe_post("g1", "2026-11-18", "c9", "the table")
    assert not await db.daily.owe_post("g1", "2026-11-18", "c9", "another") and await db.daily.post_made(
        "g1", "2026-11-18"
    )
    ((post_id, channel, text, _),) = await db.daily.posts_owed()
    assert (channel, text) == ("c9", "the table") and await db.daily.posts_owed() == []  # (claimed)
    await db.daily.post_delivered(post_id)
    assert ("g1", "2026-11-18") not in await db.daily.tables_due("2026-11-10", "2026-11-19", 1.0)  # (made)


async def test_the_daily_keys_first_one_once_then_each_from_its_day(db):
    assert await db.daily.keys() == []
    await db.daily.first_key("2026-11-18", b"\x01" * 32)
    await db.daily.first_key("2026-11-18", b"\x02" * 32)  # (another process at the same moment: the first stays)
    assert await db.daily.keys() == [("2026-11-18", b"\x01" * 32)]
    await db.daily.add_key("2026-11-20", b"\x03" * 32, first="2026-11-19")
    await db.daily.add_key("2026-11-20", b"\x04" * 32, first="2026-11-19")  # (set again the same day: replaced)
    assert await db.daily.keys() == [("2026-11-18", b"\x01" * 32), ("2026-11-20", b"\x04" * 32)]
    assert await db.daily.running("2026-11-18", "flipwrite", 0.0) is False
