"""People own their data, end to end through the stand-in (issue 36): `/me data` holds exactly
what the database holds of the requester; `/me forget` leaves no row with their id or name, while
the finished games still replay, the others' ratings stand and the running game goes on with
the automatic player; a server that removes the bot keeps its games paused for the retention
period and gets them back when it adds the bot again, or loses everything after it; `/privacy`
speaks the reader's language. Time is the bot's service clock, set by the test."""

from __future__ import annotations

import asyncio
import json

import pytest
import pytest_asyncio

from metrobot import __version__
from metrobot.backup import replay_all
from metrobot.discord_app.recovery import deliver_owed
from metrobot.storage import Database
from tests.clock import Clock
from tests.e2e.harness import make_bot
from tests.e2e.players import Table
from tests.e2e.privacy_world import NAME, expected_export, exported, forget_by_discord, history, holding, ratings, rows

pytestmark = pytest.mark.timeout(300)
DAY = 24 * 3600


@pytest_asyncio.fixture
async def bot(start_bot):
    # ticked by hand (`tick`)
    return await start_bot("privacy", "game", "me", "privacy", tick=3600.0, clock=Clock(1800000000.0))


async def tick(bot) -> None:
    for channel, outcome in await bot.service.tick() + await bot.privacy.tick():
        await bot.deliver(channel, outcome)
    await deliver_owed(bot)


async def checked(db_path: str):
    db = await Database(db_path).open()
    try:
        return await replay_all(db)
    finally:
        await db.close()


async def test_a_person_gets_their_data_then_is_forgotten(standin, bot):
    zoe = standin.add_member(name=NAME)
    bob, cat = standin.add_member(name="Bob"), standin.add_member(name="Cat")
    db_path = bot.settings.db_path
    tables = await history(standin, db_path, zoe, bob, cat)
    for table in tables.values():
        await table.posted()

    # /me data: the file by DM holds exactly what the database holds of them, nothing of others
    reply = await (await standin.slash(zoe, tables["running"].channel, "me data")).wait_message()
    assert reply.ephemeral and not reply.attachments
    dm = await standin.wait_for_dm(zoe, lambda m: bool(m.attachments))
    document = json.loads(dm.attachments[0].data)
    assert document["format"] == "metrobot-personal-data" and document["version"] == 1
    assert document["user_id"] == str(zoe)
    assert exported(document) == expected_export(db_path, str(zoe))
    assert len(document["games"]) == 3 and len(document["results"]) == 2 and len(document["ratings"]) == 1
    finished = [g for g in document["games"] if g["status"] == "finished"]
    assert len(finished) == 2 and all(g["hand"] and g["moves"] for g in finished)
    assert all("hand" not in g for g in document["games"] if g["status"] == "active")
    assert (
        document["settings"]["away_note"] == "on a boat" and document["settings"]["quiet"]["tz"] == "Europe/Amsterdam"
    )
    text = dm.attachments[0].data.decode()
    for other in (str(bob), str(cat), "Bob", "Cat", '"seed"', '"rng"'):
        assert other not in text, other

    # DMs closed: the same file, privately, where it was asked
    standin.close_dms(zoe)
    reply = await (await standin.slash(zoe, tables["running"].channel, "me data")).wait_message()
    assert reply.ephemeral and json.loads(reply.attachments[0].data)["games"] == document["games"]
    standin.open_dms(zoe)

    before = ratings(db_path)
    running = (await tables["running"].row()).id
    answer = await forget_by_discord(standin, zoe, tables["running"].channel)
    assert answer.ephemeral
    await tables["running"].posted()

    assert holding(db_path, str(zoe), NAME, "on a boat") == []
    assert rows(db_path)["erasures"] == [] and not any(p["user_id"] == str(zoe) for p in rows(db_path)["people"])
    checked_games = await checked(db_path)
    assert checked_games.good and checked_games.games == 3  # every game replays to its stored state
    after = ratings(db_path)
    assert {k: v for k, v in before.items() if k[2] != str(zoe)} == after  # the others' ratings stand
    results = rows(db_path)["results"]
    ghosts = {r["user_id"] for r in results if r["user_id"] not in (str(bob), str(cat))}
    assert len(ghosts) == 1 and all(r["name"] == "Deleted player" for r in results if r["user_id"] in ghosts)

    # The running game goes on: the automatic player has the seat; the others play to the end.
    game = next(g for g in rows(db_path)["games"] if g["id"] == running)
    seats = json.loads(game["seats"])
    assert [s["auto"] for s in seats if s["user_id"] in ghosts] == [True]
    left = [m for m in tables["running"].public() if "Deleted player" in m.content or "automatic player" in m.content]
    assert left, [m.content for m in tables["running"].public()][-3:]
    await tables["running"].play_until_over()
    assert (await tables["running"].row()).status == "finished"

    # Where names are shown, the forgotten person is "Deleted player"; they have nothing left.
    history_reply = await (await standin.slash(bob, tables["first"].channel, "history")).wait_message()
    assert "Deleted player" in history_reply.content and NAME not in history_reply.content
    again = await (await standin.slash(zoe, tables["first"].channel, "me data")).wait_message()
    assert again.ephemeral
    dm = await standin.wait_for_dm(zoe, lambda m: bool(m.attachments) and m.id != dm.id)
    assert json.loads(dm.attachments[0].data)["games"] == []

    # Forgetting again is harmless (nothing is left to forget).
    assert (await forget_by_discord(standin, zoe, tables["first"].channel)).ephemeral
    assert holding(db_path, str(zoe), NAME) == []


async def test_a_server_that_removes_the_bot_gets_its_games_back_within_the_period(standin, bot):
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    other = standin.add_guild("Elsewhere")
    for user in (ann, bob):
        standin.add_member(user, guild_id=other)
    here = Table(standin, standin.create_channel("stays"), bot.settings.db_path, seed=1)
    await here.open(ann, "metromania", [bob], players=2)
    there = Table(standin, standin.create_channel("leaves", guild_id=other), bot.settings.db_path, seed=2)
    await there.open(ann, "metromania", [bob], players=2)
    await there.dig_by_command((await there.owed())[0])
    game = await there.row()
    left = game.deadline - bot.clock.now

    standin.remove_bot(other)
    paused = await _until(lambda: _game(bot, game.id), lambda g: g["deadline"] is None)
    assert abs(paused["paused"] - left) < 1e-6
    bot.clock.now += 20 * DAY  # within the period: the turn clock neither expires nor deletes anything
    await tick(bot)
    assert _game(bot, game.id)["deadline"] is None and rows(bot.settings.db_path)["departures"]

    standin.add_bot(other)
    resumed = await _until(lambda: _game(bot, game.id), lambda g: g["deadline"] is not None)
    assert abs(resumed["deadline"] - (bot.clock.now + left)) < 1e-6 and resumed["paused"] is None
    assert not rows(bot.settings.db_path)["departures"]
    await there.dig_by_command((await there.owed())[0])  # it goes on

    standin.remove_bot(other)
    await _until(lambda: rows(bot.settings.db_path)["departures"], bool)
    bot.clock.now += 30 * DAY + 1
    await tick(bot)
    everything = rows(bot.settings.db_path)
    gone = [
        f"{t}: {r}"
        for t, entries in everything.items()
        for r in entries
        if str(other) in json.dumps(r, default=str)
        or str(there.channel) in json.dumps(r, default=str)
        or r.get("game_id") == game.id
        or (r.get("id") == game.id and t == "games")
    ]
    assert gone == []
    assert (await here.row()).status == "active" and everything["actions"] is not None
    await here.dig_by_command((await here.owed())[0])  # the other server's game is untouched


async def test_a_server_that_removed_the_bot_while_it_was_down_is_noticed_at_start(standin, run_client, bot):
    """Discord tells no one of a removal while the bot is not connected: at the next start the
    servers the database knows and READY no longer lists are taken as gone."""
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    other = standin.add_guild("Elsewhere")
    for user in (ann, bob):
        standin.add_member(user, guild_id=other)
    there = Table(standin, standin.create_channel("leaves", guild_id=other), bot.settings.db_path, seed=2)
    await there.open(ann, "metromania", [bob], players=2)
    here = Table(standin, standin.create_channel("stays"), bot.settings.db_path, seed=1)
    await here.open(ann, "metromania", [bob], players=2)
    await run_client.stop(bot)
    standin.remove_bot(other)  # (nobody connected: nothing is sent)
    again = make_bot(bot.settings.db_path, tick=3600.0)
    await run_client(again)
    game = (await there.row()).id
    paused = await _until(lambda: _game(bot, game), lambda g: g["deadline"] is None, timeout=20)
    assert paused["paused"] is not None and [d["guild_id"] for d in rows(bot.settings.db_path)["departures"]] == [
        str(other)
    ]
    assert (await here.row()).deadline is not None  # a server still there goes on


async def test_privacy_is_said_in_the_readers_language_with_the_operators_contact(standin, bot):
    bot.privacy.policies.contact = "privacy@example.org"
    ann = standin.add_member(name="Ann")
    standin.set_locale(ann, "ko")
    reply = await (await standin.slash(ann, standin.create_channel("hall"), "privacy")).wait_message()
    # (the command as the reader's Discord shows it: /me forget is /나 잊기 in Korean)
    assert reply.ephemeral and "privacy@example.org" in reply.content and "/나 잊기" in reply.content
    assert "30" in reply.content and any("\uac00" <= ch <= "\ud7a3" for ch in reply.content)  # Hangul
    assert f"metrobot {__version__}" in reply.content  # the version the operator runs


def _game(bot, game_id: int) -> dict:
    return next(g for g in rows(bot.settings.db_path)["games"] if g["id"] == game_id)


async def _until(read, ok, timeout: float = 10.0):
    for _ in range(int(timeout / 0.05)):
        value = read()
        if ok(value):
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {read()}")
