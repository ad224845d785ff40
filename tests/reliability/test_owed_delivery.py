"""What a crash leaves owed is delivered promptly after a restart, in order, and never as if
it were current once something newer is out; and the turn clock's loop survives a failure
of that delivery.

* storage (SQLite and PostgreSQL): the outbox hands out a game's messages oldest first per
  place (its channel, each person's DMs), never past an older one someone still holds, and
  marks what a later turn post, the game's or lobby's end, or a later hand made history;
* the real client against the Discord stand-in, with a turn clock that never ticks during
  the test (an hour): moves committed by a process that then "died" (its claim still
  running) are posted by the restarted process as soon as the claim runs out — the old
  turn as history (buttons disabled, nobody pinged), the newest live — and superseded
  hand DMs are dropped; a move made on the new process before that makes every old turn
  history;
* a database error while reading what is owed (and any failure of the delivery) is logged
  with its traceback, and the next tick still runs.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import sqlite3

import discord
import pytest

from metrobot.games import get_plugin
from metrobot.storage import Database, Owed, Seat, outbox
from tests.e2e.harness import make_bot
from tests.e2e.players import Table

pytestmark = pytest.mark.timeout(180)

_names = itertools.count()


@pytest.fixture(params=["sqlite", "postgres"])
def where(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "owed.sqlite3")
    return request.getfixturevalue("pg_server").url(f"owed_{next(_names)}")


def _turn(position: int, text: str) -> Owed:
    return Owed(
        "channel", position, {"text": text, "controls": {"kind": "play", "game_id": 0, "game": "g", "moves": position}}
    )


async def _expire(db: Database, ids: list[int]) -> None:
    async with db.driver.transaction() as tx:
        for i in ids:
            await tx.execute("UPDATE outbox SET claim = ? WHERE id = ?", 0.0, i)


async def test_the_outbox_hands_out_in_order_and_marks_what_was_overtaken(where, monkeypatch):
    db = await Database(where).open()
    try:
        lobby_post = Owed("channel", 0, {"text": "lobby", "controls": {"kind": "lobby"}})
        row = await db.create_game(
            channel_id="c1",
            guild_id="g1",
            game="metromania",
            host=Seat("u1", "Ann"),
            options={},
            seed=1,
            max_seats=2,
            turn_clock=3600,
            announce=lambda row: [lobby_post],
        )  # held by its (live) writer
        monkeypatch.setattr(outbox, "SEND_LEASE", -1.0)  # these were written by a process that died
        t1, news, t2 = _turn(1, "turn 1"), Owed("channel", 2, {"text": "news"}), _turn(2, "turn 2")
        d1, d2, other = (
            Owed("dm:u1", 1, {"text": "hand 1"}),
            Owed("dm:u1", 2, {"text": "hand 2"}),
            Owed("dm:u2", 2, {"text": "Bob's hand"}),
        )
        row = await db.update(row, status="active", state={}, owed=[t1, d1])
        row = await db.update(row, state={}, owed=[news, t2, d2, other])
        first = await db.owed()
        # The channel's messages wait behind the lobby post its writer still holds; the DMs
        # do not (another place); Ann's first hand is history (her second one is owed too).
        assert [(o.payload["text"], o.superseded) for o in first] == [
            ("hand 1", True),
            ("hand 2", False),
            ("Bob's hand", False),
        ]
        await _expire(db, [lobby_post.id])
        second = await db.owed()
        assert [(o.payload["text"], o.superseded) for o in second] == [
            ("lobby", True),
            ("turn 1", True),
            ("news", False),
            ("turn 2", False),
        ]  # the game has started
        await db.delivered([o.id for o in first + second])
        t3 = _turn(3, "turn 3")
        row = await db.update(row, status="finished", state={}, owed=[t3])
        assert [(o.payload["text"], o.superseded) for o in await db.owed()] == [("turn 3", True)]
    finally:
        await db.close()


async def test_an_older_message_still_held_keeps_the_later_ones_of_its_place_waiting(where, monkeypatch):
    db = await Database(where).open()
    try:
        row = await db.create_game(
            channel_id="c2",
            guild_id="g1",
            game="metromania",
            host=Seat("u1", "Ann"),
            options={},
            seed=1,
            max_seats=2,
            turn_clock=3600,
        )
        t1 = _turn(1, "turn 1")
        row = await db.update(row, status="active", state={}, owed=[t1])  # held: its writer is sending it
        monkeypatch.setattr(outbox, "SEND_LEASE", -1.0)
        row = await db.update(row, state={}, owed=[_turn(2, "turn 2")])
        assert await db.owed() == []
        await _expire(db, [t1.id])
        assert [o.payload["text"] for o in await db.owed()] == ["turn 1", "turn 2"]
    finally:
        await db.close()


async def test_a_newer_lobby_makes_an_older_one_history(where, monkeypatch):
    db = await Database(where).open()
    try:
        monkeypatch.setattr(outbox, "SEND_LEASE", -1.0)
        first = Owed("channel", 0, {"text": "lobby: Ann", "controls": {"kind": "lobby"}})
        row = await db.create_game(
            channel_id="c3",
            guild_id="g1",
            game="metromania",
            host=Seat("u1", "Ann"),
            options={},
            seed=1,
            max_seats=2,
            turn_clock=3600,
            announce=lambda row: [first],
        )
        await db.update(row, owed=[Owed("channel", 0, {"text": "lobby: Ann, Bob", "controls": {"kind": "lobby"}})])
        assert [(o.payload["text"], o.superseded) for o in await db.owed()] == [
            ("lobby: Ann", True),
            ("lobby: Ann, Bob", False),
        ]
    finally:
        await db.close()


# ---------------------------------------------------------------- through the stand-in
async def _commit_a_turn(bot, channel: int, user: int):
    """A whole turn through the service, committed with what it owes and never posted (as
    if the process died right after the commit); its outcome."""
    steps: list[str] = []
    while True:
        menu = await bot.service.turns.menu(str(channel), str(user), steps)
        if menu.complete or not menu.choices:
            break
        steps.append(menu.choices[0].code)
    return await bot.service.turns.play(str(channel), str(user), steps)


def _turn_posts(standin, channel: int, game_id: int) -> list[tuple[int, bool, int]]:
    """(position, buttons enabled, message id) of every turn post of the game, in channel order."""
    out = []
    for m in standin.messages(channel):
        plays = [
            c
            for c in m.all_components()
            if str(c.get("custom_id", "")).startswith(f"mb:p:{game_id}:") and c["custom_id"].endswith(":play")
        ]
        if plays:
            out.append((int(plays[0]["custom_id"].split(":")[3]), not plays[0].get("disabled"), m.id))
    return out


def _owed_left(db_path: str) -> int:
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        # (not what is held for later: a ping held for a take-back window, a DM for quiet hours)
        return con.execute("SELECT count(*) FROM outbox WHERE delivered_at IS NULL AND not_before IS NULL").fetchone()[
            0
        ]
    finally:
        con.close()


async def _wait(what, timeout: float = 30.0) -> None:
    """Wait for a condition (a liveness wait, not a measure of speed)."""
    for _ in range(int(timeout / 0.05)):
        if what():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("never happened")


@pytest.fixture
def sends(monkeypatch):
    """What the bot sends to channels: (text, allowed mentions)."""
    seen: list[tuple[str, discord.AllowedMentions | None]] = []
    real = discord.abc.Messageable.send

    async def send(self, content=None, **kwargs):
        seen.append((content or "", kwargs.get("allowed_mentions")))
        return await real(self, content, **kwargs)

    monkeypatch.setattr(discord.abc.Messageable, "send", send)
    return seen


@pytest.mark.parametrize("move_meanwhile", [False, True])
async def test_a_restart_delivers_what_is_owed_promptly_in_order_and_never_stale(
    standin, run_client, tmp_path, monkeypatch, sends, move_meanwhile
):
    db_path = str(tmp_path / "restart.sqlite3")
    first = make_bot(db_path, tick=3600.0)  # the turn clock never ticks in this test
    await run_client(first)
    await standin.wait_for_commands("game", "dig")
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    channel = standin.create_channel("restart")
    table = Table(standin, channel, db_path, seed=2)
    await table.open(ann, "metromania", [bob], players=2)
    # Turn posts keep their (disabled) buttons here, so that the history can be told apart
    # (a tidy channel would take them off: see test_busy_server).
    # (delivered as the command's answer would be: left to the outbox's recovery, what it owes
    # would wait for its claim to run out, ten seconds of this test)
    await first.deliver(
        str(channel), await first.service.game_settings.configure(str(channel), str(ann), manager=True, tidy=False)
    )
    await _wait(lambda: _owed_left(db_path) == 0)
    game_id = (await table.row()).id
    before = len(standin.messages(channel))
    dms_before = {u: len(standin.dms(u)) for u in (ann, bob)}

    # Two turns committed, nothing posted; the claims still run for a few seconds when the
    # process "dies" (it is closed without a word).
    monkeypatch.setattr(outbox, "SEND_LEASE", 3.0)
    monkeypatch.setattr(outbox, "LEASE", 3.0)
    for _ in range(2):
        await _commit_a_turn(first, channel, (await table.owed())[0])
    await run_client.stop(first)
    positions = (await table.row()).moves
    assert _owed_left(db_path) > 0

    second = make_bot(db_path, tick=3600.0)
    await run_client(second)
    if move_meanwhile:  # a newer turn, posted live before the old claims run out
        await table.dig_by_command((await table.owed())[0])
    await _wait(lambda: _owed_left(db_path) == 0)  # the tick never runs: the start-up delivery did it
    await asyncio.sleep(0.3)

    posts = [p for p in _turn_posts(standin, channel, game_id) if p[2] > standin.messages(channel)[before - 1].id]
    live = [pos for pos, enabled, _ in posts if enabled]
    newest = (await table.row()).moves
    assert sorted(pos for pos, _, _ in posts) == sorted({pos for pos, _, _ in posts})  # each turn once
    assert live == [newest]  # only the current turn has buttons that work
    seen = 0
    for pos, enabled, _ in posts:  # no turn lands after a later one as if it were current
        assert not (enabled and pos < seen), posts
        seen = max(seen, pos)
    old = [pos for pos, enabled, _ in posts if not enabled]
    assert old and max(old) <= positions  # the recovered turns went out as history
    history = [a for text, a in sends if a is not None and a.users is False and a.everyone is False]
    assert len(history) >= len(old)  # nobody pinged by history
    # Hands: the last DM each person got is their hand as it is now; no older hand after it.
    row = await table.row()
    plugin = get_plugin(row.game)
    state = plugin.game.from_json(row.state)
    for user in (ann, bob):
        hands = [m.content for m in standin.dms(user)[dms_before[user] :]]
        now = plugin.hand_text(plugin.game.view(state, str(user)), plugin.game.seats_of(state, str(user)))
        if hands:
            assert hands[-1].endswith(now), (hands, now)


async def _a_game_posted(standin, run_client, db_path: str, name: str):
    """A bot whose turn clock never ticks, and a two-player MetrOmania game it opened in a new
    channel with everything it owed posted: (bot, channel, table, game id)."""
    bot = make_bot(db_path, tick=3600.0)
    await run_client(bot)
    await standin.wait_for_commands("game", "dig")
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    channel = standin.create_channel(name)
    table = Table(standin, channel, db_path, seed=3)
    await table.open(ann, "metromania", [bob], players=2)
    await _wait(lambda: _owed_left(db_path) == 0)
    return bot, channel, table, (await table.row()).id


async def test_a_turn_overtaken_while_it_is_posted_becomes_history(standin, run_client, tmp_path, monkeypatch):
    """The race the full crash suite found: a restarted process posts an owed turn while a
    newer turn is committed and posted live; the old post lands last. It is turned into
    history at once (its buttons disabled), so no turn stays live after a later one."""
    from metrobot.discord_app import recovery

    db_path = str(tmp_path / "overtaken.sqlite3")
    first, channel, table, game_id = await _a_game_posted(standin, run_client, db_path, "overtaken")
    monkeypatch.setattr(outbox, "SEND_LEASE", 1.0)
    await _commit_a_turn(first, channel, (await table.owed())[0])  # never posted: the process dies
    await run_client.stop(first)
    old = (await table.row()).moves

    second = make_bot(db_path, tick=3600.0)
    real_post, raced = recovery.post, []

    async def racing_post(where, message):
        if not raced:  # between the last look and the post, a newer turn is committed and posted
            raced.append(True)
            user = (await table.owed())[0]
            steps: list[str] = []
            while (
                not (menu := await second.service.turns.menu(str(channel), str(user), steps)).complete and menu.choices
            ):
                steps.append(menu.choices[0].code)
            await second.deliver(str(channel), await second.service.turns.play(str(channel), str(user), steps))
        return await real_post(where, message)

    monkeypatch.setattr(recovery, "post", racing_post)
    await run_client(second)
    await _wait(lambda: _owed_left(db_path) == 0 and raced)
    await asyncio.sleep(0.3)
    posts = _turn_posts(standin, channel, game_id)
    newest = (await table.row()).moves
    assert [(pos, live) for pos, live, _ in posts[-2:]] == [(newest, True), (old, False)], posts


async def test_a_post_whose_claim_ran_out_while_it_was_sent_is_posted_once(standin, run_client, tmp_path, monkeypatch):
    """The race a loaded machine showed (a turn posted twice in test_crash_play): the process
    that committed a turn is still drawing or uploading its post when its claim runs out; a
    sweep sends the same item, and neither copy exists yet for the other to find. Both go out
    with the outbox item's nonce, so Discord makes one message."""
    from metrobot.discord_app import delivery, recovery

    db_path = str(tmp_path / "slow.sqlite3")
    bot, channel, table, game_id = await _a_game_posted(standin, run_client, db_path, "slow-post")
    real_post, sending, release = delivery.post, asyncio.Event(), asyncio.Event()

    async def slow_post(where, message):  # the live sender, held as a loaded machine holds it
        sending.set()
        await release.wait()
        return await real_post(where, message)

    monkeypatch.setattr(delivery, "post", slow_post)
    outcome = await _commit_a_turn(bot, channel, (await table.owed())[0])
    live = asyncio.create_task(bot.deliver(str(channel), outcome))
    await sending.wait()
    db = await Database(db_path).open()
    try:  # the live sender's claim runs out
        con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        owed = [i for (i,) in con.execute("SELECT id FROM outbox WHERE delivered_at IS NULL")]
        con.close()
        await _expire(db, owed)
    finally:
        await db.close()
    await recovery.deliver_owed(bot)  # a sweep sends it: nothing of the live copy to find yet
    release.set()
    await live
    position = (await table.row()).moves
    posts = [post for post in _turn_posts(standin, channel, game_id) if post[0] == position]
    assert len(posts) == 1, _turn_posts(standin, channel, game_id)


async def test_the_turn_clock_survives_a_failure_to_deliver(standin, run_client, tmp_path, monkeypatch, caplog):
    from metrobot.discord_app import client as client_module
    from metrobot.service.outbox import Outbox
    from metrobot.wiring import GameService

    monkeypatch.setattr(outbox, "SEND_LEASE", 0.2)  # the start-up delivery ends quickly
    monkeypatch.setattr(outbox, "LEASE", 0.2)
    ticks, failures = [0], {"locked": 4, "broken": 3}
    real_tick, real_owed = GameService.tick, client_module.deliver_owed

    async def tick(self):
        ticks[0] += 1
        return await real_tick(self)

    real_undelivered = Outbox.undelivered

    async def undelivered(self):
        if failures["locked"] > 0:
            failures["locked"] -= 1
            raise sqlite3.OperationalError("database is locked")
        async for item in real_undelivered(self):
            yield item

    async def deliver_owed(bot):
        if failures["broken"] > 0 and failures["locked"] == 0:
            failures["broken"] -= 1
            raise RuntimeError("injected: the delivery itself failed")
        return await real_owed(bot)

    monkeypatch.setattr(GameService, "tick", tick)
    monkeypatch.setattr(Outbox, "undelivered", undelivered)
    monkeypatch.setattr(client_module, "deliver_owed", deliver_owed)
    bot = make_bot(str(tmp_path / "tick.sqlite3"), tick=0.05)
    with caplog.at_level(logging.INFO, logger="metrobot"):
        await run_client(bot)
        await _wait(lambda: failures == {"locked": 0, "broken": 0})
        after = ticks[0]
        await _wait(lambda: ticks[0] >= after + 5)  # the loop goes on
    assert bot.turn_clock.is_running()
    logged = [r for r in caplog.records if r.exc_info]
    assert any(isinstance(r.exc_info[1], sqlite3.OperationalError) for r in logged)  # with its traceback
    assert any(isinstance(r.exc_info[1], RuntimeError) for r in logged)
