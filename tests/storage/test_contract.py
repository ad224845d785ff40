"""The storage contract: what the service relies on, checked on SQLite and PostgreSQL alike."""

from __future__ import annotations

import asyncio
import time

import pytest

from metrobot.storage import Conflict, Database, Duplicate, GameResult, Owed, PlayerResult, Seat
from metrobot.storage.schema import MIGRATIONS

ANN, BOB = Seat("u1", "Ann"), Seat("u2", "Bob")
SEED = 2**47 + 12345  # seeds are 48-bit


async def lobby(db, channel="c1", guild="g1", announce=lambda row: []):
    return await db.create_game(
        channel_id=channel,
        guild_id=guild,
        game="metromania",
        host=ANN,
        options={"x": 1},
        seed=SEED,
        max_seats=2,
        turn_clock=3600,
        announce=announce,
    )


def rate(standings, current):
    return [(25.0 + (1 if s.won else -1) + (c[0] - 25.0 if c else 0), 8.0) for s, c in zip(standings, current)]


async def test_migrations_are_applied_once_even_from_two_processes_at_once(where):
    first, second = Database(where), Database(where)
    await asyncio.gather(first.open(), second.open())
    assert first.schema_version == second.schema_version == len(MIGRATIONS["sqlite"]) >= 9
    await first.close()
    await second.close()
    again = await Database(where).open()  # nothing left to do
    await again.close()


async def test_one_open_game_per_channel(db):
    row = await lobby(db)
    assert row.status == "lobby" and row.seed == SEED and row.options == {"x": 1} and row.seats == [ANN]
    with pytest.raises(Duplicate):
        await lobby(db)
    assert (await db.open_game("c1")).id == row.id
    other = await lobby(db, channel="c2")
    assert other.id != row.id


async def test_updates_are_version_checked_and_append_the_log(db):
    row = await lobby(db)
    row = await db.update(row, seats=[ANN, BOB], status="active", state={"n": 1}, deadline=time.time() + 0.25)
    saved = await db.update(row, state={"n": 2}, actions=[("u1", {"type": "a"}, "u1"), ("u1", {"type": "b"}, "u1")])
    with pytest.raises(Conflict):
        await db.update(row, state={"n": 99})  # computed from the old version
    stored = await db.game(row.id)
    assert stored.state == {"n": 2} and stored.version == saved.version and stored.moves == 2
    assert stored.seats == [ANN, BOB] and abs(stored.deadline - row.deadline) < 1e-6
    assert [a["action"]["type"] for a in await db.actions(row.id)] == ["a", "b"]
    assert [a["seq"] for a in await db.actions(row.id)] == [1, 2]


async def test_two_connections_racing_on_one_game_apply_once(where):
    a, b = await Database(where).open(), await Database(where).open()
    try:
        row = await lobby(a)
        results = await asyncio.gather(
            *(db.update(row, state={"by": i}, actions=[("u1", {"i": i}, "u1")]) for i, db in enumerate([a, b, a, b])),
            return_exceptions=True,
        )
        assert sum(not isinstance(r, Exception) for r in results) == 1
        assert all(isinstance(r, Conflict) for r in results if isinstance(r, Exception))
        assert len(await a.actions(row.id)) == 1
    finally:
        await a.close()
        await b.close()


async def test_a_failed_transaction_leaves_nothing(db, monkeypatch):
    from metrobot.storage import outbox

    row = await lobby(db)

    async def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(outbox, "insert", broken)
    with pytest.raises(RuntimeError):
        await db.update(row, state={"n": 1}, actions=[("u1", {"type": "a"}, "u1")])
    stored = await db.game(row.id)
    assert stored.version == row.version and stored.state is None and await db.actions(row.id) == []


async def test_the_outbox_is_written_with_the_change_claimed_once_and_marked(db, monkeypatch):
    from metrobot.storage import outbox

    post = Owed("channel", 0, {"text": "the lobby"})
    row = await lobby(db, announce=lambda row: [post])
    assert await db.owed() == []  # the writer has a few seconds to send it itself
    monkeypatch.setattr(outbox, "SEND_LEASE", -1.0)  # as if those seconds had passed
    item = Owed("dm:u2", 3, {"text": "your hand"})
    await db.update(row, state={"n": 1}, owed=[item])
    assert item.id is not None
    owed = await db.owed()
    assert [o.payload["text"] for o in owed] == ["your hand"]
    assert owed[0].target == "dm:u2" and owed[0].position == 3 and owed[0].channel_id == "c1"
    assert await db.owed() == []  # claimed by the first call
    await db.delivered([post.id], "m-123")
    assert await db.last_post(row.id) == "m-123"


async def test_due_clocks_are_claimed_by_one_and_released_by_a_change(where):
    a, b = await Database(where).open(), await Database(where).open()
    try:
        row = await lobby(a)
        row = await a.update(row, status="active", state={}, deadline=time.time() - 1)
        claims = await asyncio.gather(a.claim_due(time.time()), b.claim_due(time.time()))
        assert sorted(len(c) for c in claims) == [0, 1]
        row = await a.update(row, deadline=time.time() - 1)  # the game moved on: a new due time
        assert [r.id for r in await b.claim_due(time.time())] == [row.id]
    finally:
        await a.close()
        await b.close()


def two_player(winner):
    """Ann scores 10, Bob 5; the winner is placed first (a tie-break may beat the score)."""
    return GameResult(
        "g1",
        "metromania",
        (
            PlayerResult("u1", "Ann", 10, winner == "u1", True, 1 + (winner != "u1")),
            PlayerResult("u2", "Bob", 5, winner == "u2", True, 1 + (winner != "u2")),
        ),
    )


async def finished_games(db, winners):
    rows = []
    for i, winner in enumerate(winners):
        row = await lobby(db, channel=f"c{i + 1}")
        row = await db.update(row, seats=[ANN, BOB], status="active", state={})
        rows.append(await db.update(row, status="finished", result=two_player(winner), rate=rate))
    return rows


async def test_results_and_ratings_with_the_end_and_the_board(db):
    rows = await finished_games(db, ["u1", "u1", "u2"])
    board, total = await db.history.leaderboard("g1", "metromania", 0, 10)
    assert total == 2 and [p.user_id for p in board] == ["u1", "u2"]
    assert board[0].games == 3 and board[0].mu == 26.0  # +1, +1, -1
    assert await db.history.position("g1", "metromania", "u2") == 2
    record = await db.history.record_of("g1", "u1", "metromania")
    assert (record.played, record.won, record.average) == (3, 2, 10) and len(record.trend) == 3
    assert [g.id for g in await db.history.finished_in_channel("c3")] == [rows[2].id]
    assert [p[0] for p in (await db.history.finished_in_channel("c3"))[0].players] == ["u2", "u1"]  # by place
    assert await db.history.results_order() == await db.history.rating_order() == [r.id for r in rows]
    before = await db.history.stored_ratings()
    await db.history.rebuild_ratings([(r.id, two_player(w)) for r, w in zip(rows, ["u1", "u1", "u2"])], rate)
    assert await db.history.stored_ratings() == before
    assert (await db.history.leaderboard("g2", "metromania", 0, 10)) == ([], 0)  # other servers see nothing


async def test_games_finished_before_results_were_kept_are_rated_first(db):
    """Games finished before schema version 3 have no results and no finishing time: the
    rebuild takes them first (by when they finished), gives them results, and numbers all
    results again so that later games and later rebuilds keep that order."""
    rows = await finished_games(db, ["u1", "u2", "u2", "u1"])
    before = await db.history.stored_ratings()
    async with db.driver.transaction() as tx:  # the first two, as an old version left them
        await tx.execute("DELETE FROM results WHERE game_id IN (?, ?)", rows[0].id, rows[1].id)
        await tx.execute("UPDATE games SET finished_at = NULL WHERE id IN (?, ?)", rows[0].id, rows[1].id)
        await tx.execute("DELETE FROM ratings")
    assert [g.players for g in await db.history.finished_in_channel("c1")] == [[]]
    assert await db.history.rating_order() == [r.id for r in rows]
    await db.history.rebuild_ratings([(r.id, two_player(w)) for r, w in zip(rows, ["u1", "u2", "u2", "u1"])], rate)
    assert await db.history.stored_ratings() == before
    assert [p[0] for p in (await db.history.finished_in_channel("c1"))[0].players] == ["u1", "u2"]
    assert (await db.history.finished_in_channel("c1"))[0].finished_at == (await db.game(rows[0].id)).updated_at
    later = await finished_games(db, ["u1"])  # numbered after the renumbered ones
    assert await db.history.results_order() == await db.history.rating_order() == [r.id for r in rows] + [later[0].id]
