"""The stages of a move (metrobot/turns/turns.py), each on its own, on Race to 10 (the toy game)
through the application as the front ends build it (`app`, `db`, `clock`: tests/conftest.py, built
as TOURNAMENTS in tourney_kit says): validate, apply, automatic replies, clocks, announce, save +
event, and `settle` running the last four in that order. No stage before the save writes anything."""

from __future__ import annotations

import pytest

from metrobot.service import Refused
from metrobot.service.events import GameEnded
from metrobot.turns.turns import Columns, Move, played
from tests.service.tourney_kit import TOURNAMENTS

pytestmark = TOURNAMENTS


async def race(app, players=(("u1", "Ann"), ("u2", "Bob"))):
    """A started game of Race to 10 in channel c1; its row."""
    s = app.service
    await s.lobby.new_game("c1", "g", *players[0], "race", {}, len(players))
    for uid, name in players[1:]:
        await s.lobby.join("c1", uid, name)
    await s.lobby.start("c1", players[0][0])
    return await s.db.open_game("c1")


def mover(row) -> str:
    return row.state["players"][row.state["current"]]


def other(row) -> str:
    return next(p for p in row.state["players"] if p != mover(row))


async def prepared(app, steps=("2",)) -> Move:
    """The mover's `steps` validated and applied (stages 1 and 2), nothing saved."""
    s = app.service
    row = await s.db.open_game("c1")
    row, plugin, state = await s.turns.validate("c1", mover(row), list(steps))
    return s.turns.apply(row, plugin, state, mover(row), list(steps))


async def near_the_end(app):
    """A game played until the counter is at 8: the next move of 2 ends it."""
    s = app.service
    await race(app)
    for n in ("3", "3", "2"):
        row = await s.db.open_game("c1")
        await s.turns.play("c1", mover(row), [n])
    return await s.db.open_game("c1")


# ------------------------------------------------------------------ 1. validate
async def test_validate_gives_the_game_of_someone_who_may_move(app):
    row = await race(app)
    got, plugin, state = await app.service.turns.validate("c1", mover(row), ["1"])
    assert (got.id, got.version, plugin.name, state.count) == (row.id, row.version, "race", 0)


async def test_validate_refuses_stale_controls_too_many_steps_strangers_and_left_seats(app, db):
    row = await race(app, (("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat")))
    turns = app.service.turns
    for user, steps, moves in [
        (mover(row), ["1"], row.moves + 1),  # controls of another position
        (mover(row), ["1"] * 50, None),  # more steps than the game ever takes
        ("u9", ["1"], None),  # not seated
    ]:
        with pytest.raises(Refused):
            await turns.validate("c1", user, steps, moves=moves)
    leaving = next(u for u in ("u1", "u2", "u3") if u != mover(row))
    await app.service.lobby.leave("c1", leaving)
    with pytest.raises(Refused, match="automatic player plays your seat"):
        await turns.validate("c1", leaving, ["1"])
    assert (await db.open_game("c1")).moves == row.moves  # nothing played


# ------------------------------------------------------------------ 2. apply
async def test_apply_makes_the_move_as_the_person_made_it(app, db):
    row = await race(app)
    move = await prepared(app, ["3"])
    who = mover(row)
    assert move.before.count == 0 and move.state.count == 3 and move.played_from is move.state
    assert move.logged == [(who, {"type": "add", "n": 3}, who)] and move.actor == who and move.own
    assert move.events == [{"type": "added", "player": who, "n": 3, "count": 3}] and move.people_told == 1
    assert move.auto_actions == [] and move.actions == move.logged
    assert (await db.open_game("c1")).version == row.version  # nothing saved


async def test_apply_refuses_an_illegal_step_with_its_rule(app):
    await near_the_end(app)
    with pytest.raises(Refused):
        await prepared(app, ["3"])  # past 10


async def test_apply_again_withdraws_the_sealed_decision_first(app):
    s = app.service
    await s.lobby.new_game("c1", "g", "u1", "Ann", "flipwrite", {"map": "berlin"}, 2)
    await s.lobby.join("c1", "u2", "Bob")
    await s.lobby.start("c1", "u1")
    await s.turns.play("c1", "u1", [(await s.turns.menu("c1", "u1", [])).choices[0].code])  # sealed
    step = (await s.turns.menu("c1", "u1", [], replacing=True)).choices[-1].code
    row, plugin, sealed = await s.turns.validate("c1", "u1", [step])
    move = s.turns.apply(row, plugin, sealed, "u1", [step], replacing=True)
    (seat, withdraw, who), (again, _, same) = move.logged
    assert withdraw == {"type": "withdraw"} and who == same == "u1" and seat == again
    assert move.before is sealed and move.events[0]["type"] == "withdrawn"
    assert move.people_told == len(move.events) and move.own


# ------------------------------------------------------------------ 3. automatic replies
async def test_automatic_replies_move_for_a_seat_that_left(app):
    row = await race(app)
    await app.service.lobby.leave("c1", other(row))  # (not theirs to move: nothing plays yet)
    move = await prepared(app, ["1"])
    replied = await app.service.turns.automatic_replies(move)
    gone = other(row)
    assert [a[0] for a in replied.auto_actions] == [gone] and replied.state.count > 1
    assert replied.events[: move.people_told] == move.events and len(replied.events) > len(move.events)
    assert replied.actions == move.logged + replied.auto_actions
    assert (replied.people_told, replied.played_from, replied.logged) == (1, move.state, move.logged)


async def test_automatic_replies_leave_a_move_between_people_as_it_is(app):
    await race(app)
    move = await prepared(app, ["1"])
    assert await app.service.turns.automatic_replies(move) == move


# ------------------------------------------------------------------ 4. clocks
async def test_clocks_wait_for_the_next_person_with_a_fresh_turn_clock(app, clock):
    row = await race(app)
    columns = await app.service.turns.clocks(await prepared(app, ["1"]))
    assert isinstance(columns, Columns) and columns.new_turn and columns.now == clock.now
    assert columns.changes["waiting"] == [other(row)] and columns.changes["reminded"] is False
    assert columns.changes["deadline"] == clock.now + 3600 and "status" not in columns.changes
    assert columns.position == row.moves + 1 == columns.after.moves
    assert columns.after.waiting == [other(row)] and set(columns.people) == {"u1", "u2"}
    assert "takeback" in columns.changes  # (a person's own move: offered or not, the column is written)


async def test_clocks_finish_a_game_that_is_over_and_stop_its_clock(app):
    await near_the_end(app)
    columns = await app.service.turns.clocks(await prepared(app, ["2"]))
    assert columns.changes["status"] == "finished" and columns.changes["deadline"] is None
    assert columns.changes["waiting"] == [] and columns.changes["takeback"] is None  # (an end is not taken back)


async def test_clocks_keep_the_callers_columns_and_take_back_nothing_not_own(app):
    row = await race(app)
    seats = row.seats
    move = played(
        row,
        app.service.turns.games.plugin(row),
        app.service.turns.games.state(app.service.turns.games.plugin(row), row),
        [],
        changes={"seats": seats},
    )
    columns = await app.service.turns.clocks(move)
    assert columns.changes["seats"] == seats and columns.changes["takeback"] is None
    assert not columns.new_turn and columns.position == row.moves and "reminded" not in columns.changes


# ------------------------------------------------------------------ 5. announce
async def test_announce_posts_the_new_turn_calls_the_next_person_and_replies(app, db):
    row = await race(app)
    move = await prepared(app, ["2"])
    columns = await app.service.turns.clocks(move)
    out = await app.service.turns.announce(move, columns)
    (post,) = out.public
    assert other(row) in post.mentions and "2" in post.text
    assert out.reply is not None and out.reply.text.startswith("Done.")
    assert out.edits  # the earlier turn post's buttons, the status message
    assert (await db.open_game("c1")).version == row.version  # nothing saved


async def test_announce_says_only_what_the_note_says_when_no_turn_ended(app):
    row = await race(app)
    plugin = app.service.turns.games.plugin(row)
    move = played(row, plugin, app.service.turns.games.state(plugin, row), [], note="A note.", reply="Fine.")
    out = await app.service.turns.announce(move, await app.service.turns.clocks(move))
    assert out.public[0].text.startswith("A note.") and out.reply is not None and out.reply.text == "Fine."
    assert out.edits == []  # no new turn: the status message stays


# ------------------------------------------------------------------ 6. save + event
async def test_save_writes_the_move_in_one_version_checked_transaction(app, db):
    row = await race(app)
    turns = app.service.turns
    move = await prepared(app, ["3"])
    columns = await turns.clocks(move)
    out = await turns.save(move, columns, await turns.announce(move, columns))
    saved = await db.open_game("c1")
    assert saved.version == row.version + 1 and saved.moves == row.moves + 1 and saved.state["count"] == 3
    assert [a["action"] for a in await db.actions(row.id)][-1] == {"type": "add", "n": 3}
    assert out.reply is not None


async def test_save_refuses_a_move_when_someone_moved_meanwhile(app, db):
    row = await race(app)
    turns = app.service.turns
    move = await prepared(app, ["3"])
    columns = await turns.clocks(move)
    out = await turns.announce(move, columns)
    meanwhile = await db.update(row, reminded=True)  # another process changed the game
    with pytest.raises(Refused, match="at the same moment"):
        await turns.save(move, columns, out)
    assert (await db.open_game("c1")).version == meanwhile.version and len(await db.actions(row.id)) == row.moves


async def test_save_publishes_game_ended_inside_the_finishing_transaction(app, db):
    await near_the_end(app)
    seen = []

    async def count_results(event: GameEnded) -> None:  # what the save wrote is visible to it
        seen.append(await event.tx.fetchone("SELECT COUNT(*) FROM results WHERE game_id = ?", event.game_id))

    app.service.events.subscribe(GameEnded, count_results)
    turns = app.service.turns
    move = await prepared(app, ["2"])
    columns = await turns.clocks(move)
    await turns.save(move, columns, await turns.announce(move, columns))
    assert seen == [(2,)] and (await db.game(move.row.id)).status == "finished"


# ------------------------------------------------------------------ the pipeline
async def test_settle_runs_the_stages_in_their_order(app, monkeypatch):
    await race(app)
    turns, ran = app.service.turns, []
    for stage in ("automatic_replies", "clocks", "announce", "save"):
        real = getattr(turns, stage)

        async def recorded(*args, _real=real, _stage=stage):
            ran.append(_stage)
            return await _real(*args)

        monkeypatch.setattr(turns, stage, recorded)
    await turns.settle(await prepared(app, ["1"]))
    assert ran == ["automatic_replies", "clocks", "announce", "save"]
