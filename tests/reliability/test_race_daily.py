"""Race suite, the daily challenge (issue 64): the same person starting the day's deal many
times at once — `/daily play` sent together through the Discord stand-in and the real client,
and two services (two processes' worth of locks) on one database starting it at the same
moment — gets exactly one game and one row; every answer hands back that game's link or
says it is waiting, none fails."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio

from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.wiring import GameService
from tests.service.daily_kit import CHEAP_OPPONENT

from .sizes import scale

pytestmark = [pytest.mark.timeout(300), CHEAP_OPPONENT]
PLAY_LABEL = "🖐 Play on the board"


@pytest_asyncio.fixture
async def bot(start_bot):
    return await start_bot("race-daily", "daily", web_port=0)


def link_of(message) -> str | None:
    return next((c["url"] for c in message.all_components() if c.get("label") == PLAY_LABEL), None)


async def games_of(db: Database, user_id: str) -> tuple[int, int]:
    async with db.driver.read() as q:
        plays = await q.fetch("SELECT game_id FROM daily_plays WHERE user_id = ?", user_id)
        games = await q.fetch("SELECT id FROM games WHERE channel_id LIKE 'daily:%' AND host_id = ?", user_id)
    return len(plays), len(games)


async def test_daily_play_sent_many_times_at_once_starts_one_game(standin, bot, report):
    channel = standin.create_channel("race-daily")
    tried = 0
    kinds = ["flipwrite", "underground", "metromania"][: scale(2, 3)]
    for kind in kinds:
        person = standin.add_member(name=f"Racer {kind}")
        handles = await asyncio.gather(
            *(standin.slash(person, channel, "daily play", {"kind": kind}) for _ in range(scale(6, 30)))
        )
        answers = [await h.wait_message() for h in handles]
        tried += len(answers)
        links = {link_of(a) for a in answers}
        dealt = [a for a in answers if "is dealt" in a.content]
        waiting = [a for a in answers if "waiting for you" in a.content]
        assert len(dealt) == 1 and len(dealt) + len(waiting) == len(answers), [a.content for a in answers]
        assert len(links) == 1 and None not in links, "every answer hands back the one game's link"
        assert await games_of(bot.service.db, str(person)) == (1, 1)
    report.update(kinds=len(kinds), racing_starts_tried=tried, games_started=len(kinds))


async def test_two_services_on_one_database_start_one_game(tmp_path, report):
    path = tmp_path / "two.sqlite3"
    dbs = [await Database(path).open() for _ in range(2)]
    try:
        services = [GameService(db, seeds=fixed_seeds(7), images=False) for db in dbs]
        for s in services:
            s.web_base = "http://pages.test"
        rounds = scale(3, 20)
        for n in range(rounds):
            user = f"77000000000000{n:04d}"
            answers = await asyncio.gather(
                *(s.daily.start("5001", user, "Racer", "flipwrite") for s in services for _ in range(3)),
                return_exceptions=True,
            )
            assert not [a for a in answers if isinstance(a, BaseException)], answers
            texts = [a.reply.text for a in answers]
            assert sum("is dealt" in t for t in texts) == 1, texts
            assert await games_of(dbs[0], user) == (1, 1)
        report.update(two_process_rounds=rounds, starts_each=6)
    finally:
        for db in dbs:
            await db.close()
