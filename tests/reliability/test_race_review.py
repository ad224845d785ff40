"""Races of the review by the strong player (issue 64): two requests at once for the same review,
in one process or in two sharing the database, make one review that both answers show; a review
asked for while another person's is being made is theirs alone."""

from __future__ import annotations

import asyncio

from metrobot.service import GameService, fixed_seeds
from metrobot.storage import Database
from tests.service import test_service as base
from tests.service.test_review import counted, finished  # noqa: F401  (the fixture, and a finished game)

db, clock, svc = base.db, base.clock, base.svc  # the service's fixtures


async def test_two_requests_at_once_make_one_review(svc, counted):  # noqa: F811
    row = await finished(svc)
    a, b, c = await asyncio.gather(svc.review("c1", "u1"), svc.review("c1", "u1", row.id), svc.review("c1", "u2"))
    assert a.reply.text == b.reply.text and counted.count(("flipwrite", "u1")) == 1
    assert counted.count(("flipwrite", "u2")) == 1 and c.reply.text != a.reply.text


async def test_two_processes_asking_at_once_both_answer_and_keep_one(tmp_path, counted):  # noqa: F811
    path = tmp_path / "race.sqlite3"
    one, two = await Database(path).open(), await Database(path).open()
    try:
        first = GameService(one, seeds=fixed_seeds(11), images=False, default_turn_clock=3600)
        second = GameService(two, seeds=fixed_seeds(11), images=False, default_turn_clock=3600)
        row = await finished(first)
        x, y = await asyncio.gather(first.review("c1", "u1"), second.review("c1", "u1", row.id))
        assert x.reply.text == y.reply.text  # each made it (no conflict fails), one row kept
        assert await one.reviews.review(row.id, "u1") == await two.reviews.review(row.id, "u1")
    finally:
        await one.close()
        await two.close()
