"""A game's end as an event (metrobot/service/events.py): handlers are called by the event's
class, in the order they subscribed; `GameEnded` is published inside the transaction that
finishes the game, so what a handler writes there is stored with the end or not at all, and a
handler that fails leaves the game unfinished."""

from __future__ import annotations

import pytest

from metrobot.service.events import Events, GameEnded
from metrobot.service.rating import rate
from metrobot.storage import Database, GameResult, PlayerResult, Seat

SEATS = [Seat("u1", "Ann"), Seat("u2", "Bob")]
RESULT = GameResult(
    "g1", "race", (PlayerResult("u1", "Ann", 7, True, True, 1), PlayerResult("u2", "Bob", 3, False, False, 2))
)


async def started(db: Database):
    row = await db.create_game(
        channel_id="c1",
        guild_id="g1",
        game="race",
        host=SEATS[0],
        options={},
        seed=1,
        max_seats=2,
        turn_clock=60,
        seats=SEATS,
    )
    return await db.update(row, status="active", state={})


async def test_handlers_hear_their_events_in_the_order_they_subscribed():
    events, heard = Events(), []

    async def first(event: GameEnded) -> None:
        heard.append(("first", event.game_id))

    async def second(event: GameEnded) -> None:
        heard.append(("second", event.game_id))

    events.subscribe(GameEnded, first)
    events.subscribe(GameEnded, second)
    await events.publish(GameEnded(None, 7, RESULT))  # type: ignore[arg-type]
    assert heard == [("first", 7), ("second", 7)]


async def test_game_ended_runs_inside_the_finishing_transaction(db):
    row = await started(db)
    events, seen = Events(), []

    async def count_results(event: GameEnded) -> None:  # what the finish wrote is visible in its transaction
        seen.append(await event.tx.fetchone("SELECT COUNT(*) FROM results WHERE game_id = ?", event.game_id))

    events.subscribe(GameEnded, count_results)
    await db.update(row, status="finished", result=RESULT, rate=rate, within=events.game_ended(row.id, RESULT))
    assert seen == [(2,)]
    assert (await db.game(row.id)).status == "finished"


async def test_a_failing_handler_leaves_the_game_unfinished(db):
    row = await started(db)
    events = Events()

    async def broken(event: GameEnded) -> None:
        raise RuntimeError("the subscriber failed")

    events.subscribe(GameEnded, broken)
    with pytest.raises(RuntimeError):
        await db.update(row, status="finished", result=RESULT, rate=rate, within=events.game_ended(row.id, RESULT))
    assert (await db.game(row.id)).status == "active"
    async with db.driver.read() as q:  # nor its results
        assert await q.fetchone("SELECT COUNT(*) FROM results WHERE game_id = ?", row.id) == (0,)
