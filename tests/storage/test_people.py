"""The storage contract for people, servers, who sits where, and the outbox's edits and held
messages — on SQLite and PostgreSQL alike."""

from __future__ import annotations

import time

from metrobot.storage import Owed, Person, Seat

ANN, BOB, BOT = Seat("u1", "Ann"), Seat("u2", "Bob"), Seat("bot-1", "🤖 1", auto=True)


async def lobby(db, channel, guild="g1", host=ANN, seats=None, announce=lambda row: []):
    return await db.create_game(
        channel_id=channel,
        guild_id=guild,
        game="metromania",
        host=host,
        options={},
        seed=7,
        max_seats=3,
        turn_clock=3600,
        announce=announce,
        seats=seats,
    )


async def test_people_and_servers_keep_their_settings(db):
    assert (await db.people.person("u1")) == Person("u1")  # never seen: the defaults
    await db.people.save_person(Person("u1", {"turn_dms": True, "quiet": {"start": 1, "end": 2, "tz": "UTC"}}, 100.0))
    await db.people.save_person(Person("u2", {}, 50.0))
    got = await db.people.people(["u1", "u2", "u3"])
    assert got["u1"].settings["turn_dms"] and got["u1"].away_until == 100.0 and got["u3"] == Person("u3")
    assert await db.people.back_from_away(60.0) == ["u2"] and await db.people.back_from_away(200.0) == ["u1", "u2"]
    await db.people.save_person(Person("u2", {}, None))
    assert await db.people.back_from_away(200.0) == ["u1"]
    assert await db.people.server("g1") == {} and await db.people.server(None) == {}
    await db.people.save_server("g1", {"max_hosted": 2, "channels": ["c1"]})
    await db.people.save_server("g1", {"max_hosted": 3})
    assert await db.people.server("g1") == {"max_hosted": 3}


async def test_who_sits_where_follows_the_seats(db):
    first = await lobby(db, "c1", seats=[ANN, BOT])
    second = await lobby(db, "c2", host=BOB, guild="g2")
    third = await lobby(db, "c3")
    assert [r.id for r in await db.people.games_of("u1")] == [third.id, first.id]  # newest first, bots are nobody
    assert await db.people.games_of("bot-1") == []
    second = await db.update(second, seats=[BOB, ANN])
    assert [r.id for r in await db.people.games_of("u1", "g2")] == [second.id]
    assert [r.id for r in await db.people.games_of("u1")] == [third.id, second.id, first.id]
    await db.update(second, seats=[BOB, Seat("u1", "Ann", auto=True)])  # left: the automatic player plays it
    assert [r.id for r in await db.people.games_of("u1")] == [third.id, first.id]
    await db.update(third, status="aborted")
    assert [r.id for r in await db.people.games_of("u1")] == [first.id]  # open games only
    assert [r.id for r in await db.people.lobbies("g1")] == [first.id] and await db.people.hosted("g1", "u1") == 1
    row = await db.update(first, waiting=["u1"], paused=12.5, settings={"tidy": False}, nudged_at=3.0)
    stored = await db.game(row.id)
    assert (stored.waiting, stored.paused, stored.settings, stored.nudged_at) == (["u1"], 12.5, {"tidy": False}, 3.0)


async def test_held_messages_wait_and_edits_know_their_messages(db):
    row = await lobby(db, "c1", announce=lambda r: [Owed("channel", 0, {"text": "lobby", "controls": None})])
    later = time.time() + 3600
    turn = Owed("channel", 1, {"text": "turn", "controls": {"kind": "play"}, "images": [{"board": None}]})
    tidy = Owed("channel", 1, {"text": "", "edit": "tidy"}, kind="edit")
    status = Owed("channel", 1, {"text": "status 1", "edit": "status"}, kind="edit")
    held = Owed("dm:u1", 1, {"text": "your turn", "topic": "turn"}, not_before=later)
    hand = Owed("dm:u1", 1, {"text": "hand", "topic": "hand"}, not_before=later)
    row = await db.update(row, owed=[turn, tidy, status, held, hand])
    newer = Owed("channel", 2, {"text": "status 2", "edit": "status"}, kind="edit")
    newer_turn = Owed("dm:u1", 2, {"text": "your turn again", "topic": "turn"}, not_before=later)
    await db.update(row, owed=[newer, newer_turn])
    assert await db.owed(due=time.time() + 60) == []  # each is its writer's to send for a few seconds
    first = await _all_owed(db, time.time() + 20)
    assert {o.payload["text"] for o in first} == {"lobby", "turn", "", "status 1", "status 2"}  # not the held
    by = {o.payload["text"]: o for o in first}
    assert by["status 1"].superseded and not by["status 2"].superseded and by["status 2"].edit == "status"
    await db.delivered([by["lobby"].id], "m-lobby")
    await db.delivered([by["turn"].id], "m-turn")
    assert await db.people.status_message(row.id) == "m-lobby" and await db.people.last_boards([row.id]) == {
        row.id: "m-turn"
    }
    assert await db.people.untidied(by[""]) == []  # the turn post it follows stays live
    dms = [o for o in await _all_owed(db, later + 30) if o.target.startswith("dm:")]
    assert sorted((o.payload["text"], o.superseded) for o in dms) == [
        ("hand", False),
        ("your turn", True),
        ("your turn again", False),
    ]  # a newer turn DM, not a hand


async def test_a_status_edit_waits_for_an_older_board_still_owed(db):
    """A process that died with a turn post claimed leaves it owed while a live one commits
    newer moves: their status edit would link to an older board for good (the crash suite saw
    it once), so it waits until no older board post is owed; a post without a board, a held
    one or a newer one does not hold it."""
    row = await lobby(db, "c1", announce=lambda r: [Owed("channel", 0, {"text": "lobby", "controls": None})])
    board = Owed("channel", 1, {"text": "round 1", "images": [{"board": None}]})
    words = Owed("channel", 1, {"text": "Ann has decided"})
    held = Owed("channel", 1, {"text": "later", "images": [{"board": None}]}, not_before=time.time() + 3600)
    row = await db.update(row, owed=[board, words, held])
    status = Owed("channel", 2, {"text": "status", "edit": "status"}, kind="edit")
    row = await db.update(row, owed=[status, Owed("channel", 2, {"text": "round 2", "images": [{"board": None}]})])
    assert await db.people.board_owed_before(status)
    await db.delivered([board.id], "m-board")
    assert not await db.people.board_owed_before(
        status
    )  # (the words, the held board and the newer one: not waited for)


async def _all_owed(db, due):
    """What anyone may claim once the writers' leases ran out and `due` has come."""
    import metrobot.storage.outbox as outbox

    async with db.driver.transaction() as tx:
        await tx.execute("UPDATE outbox SET claim = NULL WHERE delivered_at IS NULL")
        return await outbox.claim(tx, db.store.skip_locked, due=due)
