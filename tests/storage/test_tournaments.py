"""The storage contract of tournaments, on SQLite and PostgreSQL alike: one open tournament
per hall, version-checked saves, one game per table, a table's result written with the
game that finishes it, and the tournament outbox's order and claims."""

from __future__ import annotations

import asyncio

import pytest

from metrobot.storage import (
    Conflict,
    Duplicate,
    EntrantRow,
    GameResult,
    PlayerResult,
    RoundRow,
    Seat,
    TableRow,
    TournamentOwed,
)
from metrobot.storage.tourney_outbox import LEASE

RULES = {"format": "swiss", "table_size": 2, "min_seats": 2, "max_seats": 4, "rounds": 3}


async def tournament(db, hall="h1", announce=lambda row: [TournamentOwed("post", "signup", {"text": "sign up"})]):
    return await db.tournaments.create_tournament(
        guild_id="g1",
        hall_id=hall,
        host_id="host",
        name="Spring",
        game="metromania",
        rules=RULES,
        settings={"clock": 3600},
        seed=2**47 + 5,
        announce=announce,
    )


def rate(standings, current):
    return [(25.0, 8.0) for _ in standings]


async def test_one_open_tournament_per_hall_and_its_sign_up_post(db):
    row = await tournament(db)
    assert row.status == "signup" and row.rules == RULES and row.settings == {"clock": 3600} and row.seed == 2**47 + 5
    with pytest.raises(Duplicate):
        await tournament(db)
    assert (await db.tournaments.open_tournament("h1")).id == row.id
    assert await db.tournaments.tournament(2**70) is None  # a forged id
    [item] = await db.tournaments.owed_tournament_items()
    assert (item.kind, item.what, item.channel_id, item.payload, item.tries) == (
        "post",
        "signup",
        "h1",
        {"text": "sign up", "parts": True},  # (insert_owed: its texts are parts, erased by part)
        0,
    )
    assert await db.tournaments.owed_tournament_items() == []  # claimed
    await db.tournaments.tournament_delivered(item, "555")
    assert (await db.tournaments.tournament(row.id)).signup_message_id == "555"
    assert await db.tournaments.tournament_posts(row.id, "signup") == ["555"]
    await db.tournaments.save_tournament(await db.tournaments.tournament(row.id), status="aborted")
    assert await db.tournaments.open_tournament("h1") is None
    assert (await tournament(db)).id != row.id  # the hall is free again


async def test_saves_are_version_checked_and_all_or_nothing(db):
    row = await tournament(db, announce=lambda row: [])
    people = [EntrantRow("u1", "Ann"), EntrantRow("u2", "Bob", rating=3.5)]
    saved = await db.tournaments.save_tournament(row, entrants=people, settings={"clock": 7200})
    assert saved.version == row.version + 1 and saved.settings == {"clock": 7200}
    with pytest.raises(Conflict):  # a second writer with the old version
        await db.tournaments.save_tournament(
            row, status="running", owed=[TournamentOwed("post", "news", {"text": "lost"})]
        )
    snap = await db.tournaments.snapshot(row.id)
    assert snap.row.status == "signup" and [e.user_id for e in snap.entrants] == ["u1", "u2"]
    assert await db.tournaments.owed_tournament_items() == []  # the refused save owed nothing
    pairing = {"number": 1, "tables": [{"number": 1, "seats": ["u2", "u1"]}], "byes": []}
    saved = await db.tournaments.save_tournament(
        saved,
        status="running",
        round=1,
        rounds=[RoundRow(1, pairing)],
        tables=[TableRow(1, 1, ["u2", "u1"], "Spring · R1 T1")],
        entrants=[EntrantRow("u1", "Ann", dropped=2)],
        removed=["u2"],
        owed=[
            TournamentOwed("thread", "table", {"round": 1, "table": 1, "name": "Spring · R1 T1"}),
            TournamentOwed("post", "pairings", {"text": "round 1"}),
        ],
    )
    snap = await db.tournaments.snapshot(row.id)
    assert snap.rounds[0].pairing == pairing and snap.rounds[0].closed_at is None
    assert snap.tables == [TableRow(1, 1, ["u2", "u1"], "Spring · R1 T1")]
    assert [(e.user_id, e.dropped) for e in snap.entrants] == [("u1", 2)]
    await db.tournaments.save_tournament(saved, closed=[1])
    assert (await db.tournaments.snapshot(row.id)).rounds[0].closed_at is not None


async def test_two_saves_at_once_one_wins(db):
    row = await tournament(db, announce=lambda row: [])
    outcomes = await asyncio.gather(
        *(db.tournaments.save_tournament(row, status="running", stage=1) for _ in range(5)), return_exceptions=True
    )
    assert sum(not isinstance(o, Exception) for o in outcomes) == 1
    assert all(isinstance(o, Conflict) for o in outcomes if isinstance(o, Exception))


async def test_a_table_has_one_game_and_its_result_comes_with_the_finish(db):
    row = await tournament(db, announce=lambda row: [])
    row = await db.tournaments.save_tournament(
        row, status="running", round=1, tables=[TableRow(1, 1, ["u1", "u2"], "T1")]
    )
    [thread] = await db.tournaments.owed_tournament_items() or [None]
    assert thread is None  # (no thread owed in this test: the table's thread is recorded directly)
    item = TournamentOwed("thread", "table", {"round": 1, "table": 1}, "h1", id=None, tournament_id=row.id)
    await db.tournaments.save_tournament(row, owed=[item])
    [claimed] = await db.tournaments.owed_tournament_items()
    assert await db.tournaments.table_thread(claimed, "t77") == "t77"
    assert await db.tournaments.table_thread(claimed, "t78") == "t77"  # the first thread recorded stays

    async def link(tx, game):
        await db.tournaments.link_table_game(tx, row.id, 1, 1, game.id)

    seats = [Seat("u1", "Ann"), Seat("u2", "Bob")]
    game = await db.create_game(
        channel_id="t77",
        guild_id="g1",
        game="metromania",
        host=seats[0],
        options={},
        seed=1,
        max_seats=2,
        turn_clock=60,
        seats=seats,
        linked=link,
    )
    with pytest.raises(Conflict):  # a second game for the same table is rolled back
        await db.create_game(
            channel_id="t99",
            guild_id="g1",
            game="metromania",
            host=seats[0],
            options={},
            seed=1,
            max_seats=2,
            turn_clock=60,
            seats=seats,
            linked=link,
        )
    assert await db.open_game("t99") is None
    assert (await db.tournaments.table_of_thread("t77"))[1].game_id == game.id
    game = await db.update(game, status="active", actions=[("u1", {"a": 1}, "u1"), ("u2", {"a": 2}, "auto")])
    result = GameResult(
        "g1", "metromania", (PlayerResult("u1", "Ann", 7, True, True, 1), PlayerResult("u2", "Bob", 3, False, False, 2))
    )
    db.tournaments.tournament_news = False
    # (what the tournaments' GameEnded handler runs in the finishing transaction: see metrobot/app.py)
    await db.update(
        game,
        status="finished",
        result=result,
        rate=rate,
        within=lambda tx: db.tournaments.record_table(tx, game.id, result),
    )
    assert db.tournaments.tournament_news
    snap = await db.tournaments.snapshot(row.id)
    assert snap.results == [
        {"round": 1, "table": 1, "places": {"u1": 1, "u2": 2}, "skipped": ["u2"], "scores": {"u1": 7.0, "u2": 3.0}}
    ]
    due = await db.tournaments.claim_due_tournaments(snap.row.due + 1)
    assert [r.id for r in due] == [row.id] and await db.tournaments.claim_due_tournaments(snap.row.due + 1) == []
    [archive] = await db.tournaments.owed_tournament_items()
    assert (archive.kind, archive.channel_id, archive.payload) == ("archive", "t77", {"game_id": game.id})
    assert await db.tournaments.channel_settled(game.id)


async def test_the_outbox_keeps_a_tournaments_order_and_frees_a_dead_claim(db):
    row = await tournament(
        db,
        announce=lambda row: [
            TournamentOwed("post", "signup", {"text": "a"}),
            TournamentOwed("post", "news", {"text": "b"}),
        ],
    )
    other = await tournament(db, hall="h2", announce=lambda row: [TournamentOwed("post", "signup", {"text": "c"})])
    first = await db.tournaments.owed_tournament_items(limit=1)
    assert [i.payload["text"] for i in first] == ["a"]
    # the next item of the same tournament waits behind the held one; another tournament's does not
    assert [i.payload["text"] for i in await db.tournaments.owed_tournament_items()] == ["c"]
    async with db.driver.read() as q:  # the holder died: its lease ran out
        await q.execute("UPDATE tournament_outbox SET claim = ? WHERE id = ?", 1.0, first[0].id)
    again = await db.tournaments.owed_tournament_items()
    assert [(i.payload["text"], i.tries) for i in again] == [("a", 1), ("b", 0)]
    assert LEASE > 0 and other.id != row.id


async def test_ratings_and_a_persons_tournaments(db):
    row = await tournament(db, announce=lambda row: [])
    await db.tournaments.save_tournament(row, entrants=[EntrantRow("u1", "Ann"), EntrantRow("u2", "Bob", dropped=1)])
    assert [t.id for t in await db.tournaments.tournaments_of("u1", "g1")] == [row.id]
    assert await db.tournaments.tournaments_of("u2", "g1") == []  # dropped
    assert await db.tournaments.tournaments_of("u1", "g2") == [] and [
        t.id for t in await db.tournaments.tournaments_of("u1")
    ] == [row.id]
    assert [t.id for t in await db.tournaments.tournaments_in("g1")] == [row.id]
    assert await db.tournaments.ratings_for("g1", "metromania", ["u1"]) == {}
