"""Taking a move back (issue 46) through the service, on a real SQLite file: when ↶ is offered,
what a take-back restores (the state, canonical JSON equal; the turn clock; the next person's
held ping and turn DM withdrawn), what it logs and says, and every refusal."""

import json
import random

import pytest

from metrobot.gamelog import GameLog
from metrobot.games import get_game, get_plugin
from metrobot.games.logplay import is_takeback
from metrobot.games.parts import RulesGlue
from metrobot.service import Refused
from metrobot.turns.takeback_window import DEFAULT_WINDOW
from tests.service.helpers import PEOPLE, SERVICE, started, take_turn, whose_turn

pytestmark = SERVICE

OPEN = {"hands": "open"}  # MetrOmania with open hands: a marker dropped is no secret, every move may be taken back


async def pings(db):
    """The held pings in the outbox: (who, until when, settled)."""
    async with db.driver.read() as q:
        rows = await q.fetch("SELECT payload, not_before, delivered_at FROM outbox WHERE not_before IS NOT NULL")
    return [
        (json.loads(p)["mentions"], until, done is not None)
        for p, until, done in rows
        if json.loads(p).get("topic") == "ping"
    ]


async def replayed(db, row):
    actions = await db.actions(row.id)
    log = GameLog(row.game, row.seed, [s.user_id for s in row.seats], row.options, actions)
    return get_game(row.game).to_json(log.replay())


async def test_a_move_taken_back_leaves_the_game_exactly_as_before(svc, db, clock):
    await started(svc, 3, options=OPEN)
    before = await db.open_game("c1")
    mover = (await whose_turn(svc))[0]
    out = await take_turn(svc, mover, random.Random(2))
    moved = await db.open_game("c1")
    # ↶ under the private confirmation, pinned to the position after the move
    assert out.reply.controls.kind == "takeback" and out.reply.controls.moves == moved.moves
    assert "take it back" in out.reply.text
    # the turn post names the next person without pinging; a ping is held for the window
    nxt = moved.waiting[0]
    post = next(m for m in out.public if m.controls and m.controls.kind == "play")
    assert f"<@{nxt}>" in post.text and post.mentions == []
    assert await pings(db) == [([nxt], clock.now + DEFAULT_WINDOW, False)]

    clock.now += 60
    back = await svc.takeback.take_back("c1", mover, game_id=moved.id, moves=moved.moves)
    row = await db.open_game("c1")
    assert row.state == before.state  # canonical JSON equal to the state before the move
    assert row.moves == moved.moves + 1 and await replayed(db, row) == row.state
    assert (row.deadline, row.paused, row.reminded, row.waiting) == (
        before.deadline,
        before.paused,
        before.reminded,
        [mover],
    )
    assert row.takeback is None and await whose_turn(svc) == [mover]
    last = (await db.actions(row.id))[-1]
    assert is_takeback(last["action"]) and last["action"]["to"] == before.moves and last["actor"] == mover
    # the channel is told by an edit of the move's post: its words struck, live buttons again
    edit = next(m for m in back.edits if m.edit == "takeback")
    name = dict(PEOPLE)[mover]
    assert edit.text.startswith(f"↶ {name} took back their move.") and "~~" in edit.text
    assert edit.controls.kind == "play" and edit.controls.moves == row.moves
    assert "Taken back" in back.reply.text
    # the held ping was withdrawn: settled unsent
    assert await pings(db) == [([nxt], clock.now - 60 + DEFAULT_WINDOW, True)]


async def test_refused_after_the_next_move_after_the_window_and_twice(svc, db, clock):
    await started(svc, 2, options=OPEN)
    rnd = random.Random(3)
    mover = (await whose_turn(svc))[0]
    await take_turn(svc, mover, rnd)
    moved = await db.open_game("c1")
    other = (await whose_turn(svc))[0]
    with pytest.raises(Refused, match="Only the person who made a move"):
        await svc.takeback.take_back("c1", other, game_id=moved.id, moves=moved.moves)
    await take_turn(svc, other, rnd)  # the next person moves at once: that closes the window
    with pytest.raises(Refused, match="something has happened since"):
        await svc.takeback.take_back("c1", mover, game_id=moved.id, moves=moved.moves)
    mover = (await whose_turn(svc))[0]
    await take_turn(svc, mover, rnd)
    moved = await db.open_game("c1")
    clock.now += DEFAULT_WINDOW + 1
    with pytest.raises(Refused, match="that time has passed"):
        await svc.takeback.take_back("c1", mover, game_id=moved.id, moves=moved.moves)
    assert (await db.open_game("c1")).moves == moved.moves
    # and once taken back, the same button can't take anything back again
    other = (await whose_turn(svc))[0]
    await take_turn(svc, other, rnd)
    moved = await db.open_game("c1")
    await svc.takeback.take_back("c1", other, game_id=moved.id, moves=moved.moves)
    with pytest.raises(Refused, match="something has happened since"):
        await svc.takeback.take_back("c1", other, game_id=moved.id, moves=moved.moves)
    with pytest.raises(Refused, match="something has happened since"):
        await svc.takeback.take_back("c1", other, game_id=moved.id, moves=moved.moves + 1)


async def test_the_game_setting_turns_it_off_and_calls_at_once(svc, db):
    await started(svc, 2)
    with pytest.raises(Refused, match="at most"):
        await svc.game_settings.configure("c1", "u1", manager=False, takeback=3600)
    said = await svc.game_settings.configure("c1", "u1", manager=False, takeback=0)
    assert "no longer be taken back" in said.reply.text
    mover = (await whose_turn(svc))[0]
    out = await take_turn(svc, mover, random.Random(1))
    nxt = (await db.open_game("c1")).waiting
    assert out.reply.controls is None
    assert next(m for m in out.public if m.controls).mentions == nxt
    assert not [m for m in out.public if m.topic == "ping"]


async def test_the_automatic_player_moving_after_closes_it_at_once(svc, db):
    await svc.lobby.new_game("c1", "g", "u1", "Ann", "metromania", {}, 2, bots=1)
    await svc.lobby.start("c1", "u1")
    rnd = random.Random(5)
    for _ in range(3):
        out = await take_turn(svc, "u1", rnd)
        assert out.reply.controls is None  # the automatic player answered: the mover has seen it
        assert (await db.open_game("c1")).takeback is None


async def test_flipwrite_a_decision_until_the_round_resolves(svc, db):
    await started(svc, 3, "flipwrite", {"map": "berlin"})
    before = await db.open_game("c1")
    first = await svc.turns.menu("c1", "u1", [])
    out = await svc.turns.play("c1", "u1", [first.choices[0].code])
    assert out.reply.controls.kind == "takeback"
    moved = await db.open_game("c1")
    back = await svc.takeback.take_back("c1", "u1", game_id=moved.id, moves=moved.moves)
    row = await db.open_game("c1")
    assert row.state == before.state and sorted(row.waiting) == ["u1", "u2", "u3"]
    edit = next(m for m in back.edits if m.edit == "takeback")
    assert "took back their move" in edit.text and "~~✅ Ann has decided" in edit.text and edit.controls is None
    # the last decision of a round turns a card: never offered
    for user in ("u1", "u2"):
        out = await svc.turns.play("c1", user, [(await svc.turns.menu("c1", user, [])).choices[0].code])
        assert out.reply.controls is not None
    out = await svc.turns.play("c1", "u3", [(await svc.turns.menu("c1", "u3", [])).choices[0].code])
    assert out.reply.controls is None
    row = await db.open_game("c1")
    with pytest.raises(Refused, match=r"can't be taken back\. In Metro flip-and-write .* until the round resolves"):
        await svc.takeback.take_back(
            "c1", "u3", game_id=row.id, moves=row.moves
        )  # (a forged button: the rule says why)


async def test_a_forged_button_meets_the_games_own_rule(svc, db):
    """A move the game's rule keeps (a round resolved) refused even if its record were there."""
    await started(svc, 1 + 1, "flipwrite", {"map": "berlin"})
    await svc.turns.play("c1", "u1", [(await svc.turns.menu("c1", "u1", [])).choices[0].code])
    await svc.turns.play("c1", "u2", [(await svc.turns.menu("c1", "u2", [])).choices[0].code])
    row = await db.open_game("c1")
    forged = {"from": row.moves - 1, "to": row.moves, "until": 2e9, "deadline": None, "paused": None, "reminded": 0}
    await db.update(row, takeback=forged)
    with pytest.raises(Refused, match=r"can't be taken back\. In Metro flip-and-write"):
        await svc.takeback.take_back("c1", "u2", game_id=row.id, moves=row.moves)


async def test_a_finished_game_is_not_taken_back(svc, db):
    await svc.lobby.new_game("c9", "g", "u1", "Ann", "flipwrite", {"map": "paris"}, 1)
    await svc.lobby.start("c9", "u1")
    rnd = random.Random(4)
    while (row := await db.open_game("c9")) is not None:
        out = await take_turn(svc, "u1", rnd, channel="c9")
        assert out.reply.controls is None  # solo: every decision resolves the round
    last = await db.last_game("c9")
    with pytest.raises(Refused, match="The game is over"):
        await svc.takeback.take_back("c9", "u1", game_id=last.id, moves=last.moves)
    assert row is None


def test_every_game_says_its_rule():
    for plugin in (get_plugin(k) for k in ("metromania", "flipwrite", "underground")):
        assert plugin.takeback_rule != RulesGlue.takeback_rule


async def test_pace_measures_the_move_that_stands_from_when_the_turn_began(svc, db):
    """A move taken back never happened: the mover's time for that turn runs from when it began
    to their move after the take-back (as their turn clock does)."""
    from metrobot.turns.pace import move_times

    await started(svc, 2, options=OPEN)
    rnd = random.Random(7)
    first = (await whose_turn(svc))[0]
    await take_turn(svc, first, rnd)
    mover = (await whose_turn(svc))[0]
    await take_turn(svc, mover, rnd)
    moved = await db.open_game("c1")
    await svc.takeback.take_back("c1", mover, game_id=moved.id, moves=moved.moves)
    await take_turn(svc, mover, rnd)
    row = await db.open_game("c1")
    actions = await db.actions(row.id)
    # Timestamps by hand: the first turn ends at 100, the move taken back at 160, the take-back
    # at 170, the move that stands at 200.
    at = {}
    for i, a in enumerate(actions):
        at[i] = 100.0 if a["actor"] == first and i < 3 else 200.0
    taken = next(i for i, a in enumerate(actions) if is_takeback(a["action"]))
    for i in range(taken - 1, -1, -1):
        if actions[i]["actor"] != mover:
            break
        at[i] = 160.0
    at[taken] = 170.0
    timed = [dict(a, at=at[i]) for i, a in enumerate(actions)]
    paces = move_times(svc.games.plugin(row), row, timed, {})
    assert paces[mover] == [100.0]  # 200 - 100: the move that stands, timed from the turn's start


async def test_a_follower_hears_after_the_window_and_sees_the_board_as_it_is_again(svc, db, clock):
    await started(svc, 2, options=OPEN)
    await svc.following.follow("c1", "u9")
    rnd = random.Random(3)
    mover = (await whose_turn(svc))[0]
    await take_turn(svc, mover, rnd)
    assert not [d for _, o in await svc.tick() for d in o.dms if d[0] == "u9"]  # the window is open: not yet
    moved = await db.open_game("c1")
    await svc.takeback.take_back("c1", mover, game_id=moved.id, moves=moved.moves)
    clock.now += DEFAULT_WINDOW + 1
    told = [m for _, o in await svc.tick() for u, m in o.dms if u == "u9"]
    assert len(told) == 1 and told[0].owed.position == moved.moves + 1  # the board after the take-back
