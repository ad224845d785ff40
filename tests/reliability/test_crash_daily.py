"""Crash suite, the daily challenge (issue 64): a real `python bot.py` (with its web pages) is
killed with SIGKILL

* the moment `/daily play` has committed the day's game with its day's row, before the game is
  dealt: the next process's `/daily play` deals that same game (one row, one game, running),
  and never a second one;
* the moment the clock tick has recorded yesterday's table as owed to a server's channel,
  before it is posted (the service's clock a day ahead: `clock_ahead`): the next process posts
  it, exactly once, and makes no second one."""

from __future__ import annotations

import pytest

from tests.dbfile import rows

from .crashkit import BotProcess, wait_until

pytestmark = pytest.mark.timeout(300)
WEB = {"METROBOT_WEB_PORT": "0"}
MANAGE_GUILD = 1 << 5


async def test_killed_between_creating_and_dealing_the_days_game(standin, tmp_path):
    db_path = str(tmp_path / "daily-crash.sqlite3")
    ann = standin.add_member(name="Ann")
    channel = standin.create_channel("daily")
    bot = BotProcess(standin, db_path, str(tmp_path / "bot.log"), faults="kill_after_daily_created", env=WEB)
    try:
        await bot.start()
        await standin.wait_for_commands("daily")
        await standin.slash(ann, channel, "daily play", {"kind": "underground"})  # (never answered: it dies)
        await wait_until(lambda: not bot.alive(), "the fault's kill")
        await bot.kill()
        assert bot.kills == 1
        assert rows(db_path, "SELECT status FROM games WHERE channel_id LIKE 'daily:%'") == [("lobby",)]
        bot.faults = ""
        await bot.start()
        answer = await (await standin.slash(ann, channel, "daily play", {"kind": "underground"})).wait_message()
        assert "waiting for you" in answer.content, answer.content
        assert any(c.get("url") for c in answer.all_components()), "the play link"
        assert rows(db_path, "SELECT status FROM games WHERE channel_id LIKE 'daily:%'") == [("active",)]
        assert len(rows(db_path, "SELECT * FROM daily_plays")) == 1
    finally:
        await bot.stop()


async def test_killed_after_yesterdays_table_was_owed_it_is_posted_once(standin, tmp_path):
    db_path = str(tmp_path / "daily-table.sqlite3")
    boss = standin.add_member(name="Boss", roles=[standin.create_role("Admins", MANAGE_GUILD)])
    ann = standin.add_member(name="Ann")
    channel, tables = standin.create_channel("daily"), standin.create_channel("daily-tables")
    first = BotProcess(standin, db_path, str(tmp_path / "first.log"), env=WEB)
    try:
        await first.start()
        await standin.wait_for_commands("daily", "server")
        await (await standin.slash(boss, channel, "server settings", {"daily_channel": str(tables)})).wait_message()
        await (await standin.slash(ann, channel, "daily play", {"kind": "flipwrite"})).wait_message()
    finally:
        await first.stop()
    # Ann's sheet is played to its end here, through the service, as her play page would.
    from metrobot.storage import Database
    from metrobot.wiring import GameService

    db = await Database(db_path).open()
    try:
        svc = GameService(db, images=False)
        from tests.service.daily_kit import play_out

        await play_out(svc, "flipwrite", str(ann))
    finally:
        await db.close()
    posted = lambda: [m for m in standin.messages(tables) if "Daily challenge of" in m.content]  # noqa: E731
    bot = BotProcess(
        standin, db_path, str(tmp_path / "bot.log"), faults="kill_after_daily_table,clock_ahead:86400", env=WEB
    )
    try:
        await bot.start()
        await wait_until(lambda: not bot.alive(), "the fault's kill")
        await bot.kill()
        assert bot.kills == 1 and posted() == []
        assert rows(db_path, "SELECT delivered_at FROM daily_posts") == [(None,)]
        bot.faults = "clock_ahead:86400"
        await bot.start()
        await wait_until(lambda: len(posted()) == 1, "the owed table posted")
        await wait_until(
            lambda: rows(db_path, "SELECT COUNT(*) FROM daily_posts WHERE delivered_at IS NOT NULL") == [(1,)],
            "the table marked delivered",
        )
        assert len(posted()) == 1 and len(rows(db_path, "SELECT * FROM daily_posts")) == 1
        assert "1. Ann — " in posted()[0].content
    finally:
        await bot.stop()
