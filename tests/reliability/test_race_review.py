"""Races of the review by the strong player (issue 64): two requests at once for the same review,
in one process or in two sharing the database, make one review that both answers show; a review
asked for while another person's is being made is theirs alone. And its limits against a flood
(issue 72): one review in the making a person, a bound on all, none of a seat never played, one
at a time in thread mode."""

from __future__ import annotations

import asyncio
import math
import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from metrobot.games import get_plugin
from metrobot.games import review as pure
from metrobot.review import reviews as reviews_module
from metrobot.service import Refused, fixed_seeds
from metrobot.storage import Database
from metrobot.wiring import GameService
from tests.service.helpers import SERVICE, finished, take_turn

pytestmark = SERVICE  # (`counted`: tests/reliability/conftest.py)


async def test_two_requests_at_once_make_one_review(svc, counted):
    row = await finished(svc)
    a, b, c = await asyncio.gather(
        svc.reviews.review("c1", "u1"), svc.reviews.review("c1", "u1", row.id), svc.reviews.review("c1", "u2")
    )
    assert a.reply.text == b.reply.text and counted.count(("flipwrite", "u1")) == 1
    assert counted.count(("flipwrite", "u2")) == 1 and c.reply.text != a.reply.text


async def test_two_processes_asking_at_once_both_answer_and_keep_one(tmp_path, counted):
    path = tmp_path / "race.sqlite3"
    one, two = await Database(path).open(), await Database(path).open()
    try:
        first = GameService(one, seeds=fixed_seeds(11), images=False, default_turn_clock=3600)
        second = GameService(two, seeds=fixed_seeds(11), images=False, default_turn_clock=3600)
        row = await finished(first)
        x, y = await asyncio.gather(first.reviews.review("c1", "u1"), second.reviews.review("c1", "u1", row.id))
        assert x.reply.text == y.reply.text  # each made it (no conflict fails), one row kept
        assert await one.reviews.review(row.id, "u1") == await two.reviews.review(row.id, "u1")
    finally:
        await one.close()
        await two.close()


# ---------------------------------------------------------------- limits (issue 72 item 5)
@pytest.fixture
def gated(monkeypatch):
    """Reviews that wait, in the background worker, until the test opens the gate (so that they
    stay in the making), each made with a small budget; `made` lists the reviews begun."""
    gate, made = threading.Event(), []

    def waiting(game, players, options, seed, entries, person, key):
        made.append((key, person))
        gate.wait()
        plugin = get_plugin(game)
        assert plugin.reviewing is not None
        return pure.review(
            plugin.game, plugin.reviewing, players, options, seed, entries, person, key, seconds=0.02, deals=1, select=1
        )

    monkeypatch.setattr(reviews_module, "review_by_name", waiting)
    yield gate, made
    gate.set()  # (a test that failed midway leaves nothing waiting)


async def played_then_left(svc, channel, people, moves=1):
    """A flip-and-write game of `people` in `channel` (one automatic player besides), where each
    person makes `moves` moves and leaves: the automatic player plays the rest to the end."""
    (host, host_name), *others = people
    await svc.lobby.new_game(channel, "g", host, host_name, "flipwrite", {"map": "berlin"}, len(people) + 1, bots=1)
    for uid, name in others:
        await svc.lobby.join(channel, uid, name)
    await svc.lobby.start(channel, host)
    rnd = random.Random(3)
    for uid, _ in people:
        for _ in range(moves):
            await take_turn(svc, uid, rnd, channel=channel)
        await svc.lobby.leave(channel, uid)
    row = await svc.db.last_game(channel)
    assert row.status == "finished"
    return row


async def in_the_making(svc, *keys):
    """Wait until the reviews of (game id, person) are being made (each a step of the event loop)."""
    while not all(k in svc.reviews._making for k in keys):
        await asyncio.sleep(0)


async def test_a_flood_of_games_left_at_move_0_queues_no_review(svc, counted):
    """Six games opened, started and left before a move (the automatic player plays them out):
    none has a decision of the person's to review, so each request is refused, and none is made."""
    rows = [await played_then_left(svc, f"c{k}", [("u1", "Ann")], moves=0) for k in range(6)]
    for k, row in enumerate(rows):
        with pytest.raises(Refused, match=r"You made no move in game #.*only a game you played can be reviewed"):
            await svc.reviews.review(f"c{k}", "u1", row.id)
    assert counted == [] and all([await svc.db.reviews.review(r.id, "u1") is None for r in rows])


async def test_one_review_in_the_making_a_person(svc, gated):
    """A person's second review waits until their first is made: refused meanwhile (naming the
    one being made); the same review asked again joins its making; once made, the next is made."""
    gate, made = gated
    first = await played_then_left(svc, "c1", [("u1", "Ann")])
    second = await played_then_left(svc, "c2", [("u1", "Ann")])
    asking = asyncio.ensure_future(svc.reviews.review("c1", "u1", first.id))
    await in_the_making(svc, (first.id, "u1"))
    with pytest.raises(Refused, match=f"Your review of game #{first.id} is still being made"):
        await svc.reviews.review("c2", "u1", second.id)
    again = asyncio.ensure_future(svc.reviews.review("c1", "u1", first.id))
    gate.set()
    a, b = await asyncio.gather(asking, again)
    assert a.reply.text == b.reply.text
    await svc.reviews.review("c2", "u1", second.id)
    assert made == [(f"game:{first.id}", "u1"), (f"game:{second.id}", "u1")]


async def test_a_busy_worker_answers_when_to_try_again(svc, gated, monkeypatch):
    """At most `IN_FLIGHT` reviews in the making in all: the next is refused with when to try
    again (before any review was made here, each is taken to take REVIEW_SECONDS); once they are
    made, it is made."""
    gate, made = gated
    monkeypatch.setattr(reviews_module, "IN_FLIGHT", 2)
    row = await played_then_left(svc, "c1", [("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat")])
    asking = [asyncio.ensure_future(svc.reviews.review("c1", u, row.id)) for u in ("u1", "u2")]
    await in_the_making(svc, (row.id, "u1"), (row.id, "u2"))
    minutes = math.ceil(2 * reviews_module.REVIEW_SECONDS / 60)
    with pytest.raises(Refused, match=rf"busy: 2 reviews are being made.*Try again in about {minutes} minute"):
        await svc.reviews.review("c1", "u3", row.id)
    gate.set()
    await asyncio.gather(*asking)
    await svc.reviews.review("c1", "u3", row.id)
    assert sorted(p for _, p in made) == ["u1", "u2", "u3"]


def test_without_workers_reviews_run_one_at_a_time_in_a_thread_of_their_own():
    """Thread mode (`METROBOT_RENDER_WORKERS=0`): the background worker is one thread, not the
    event loop's shared pool, so reviews never run side by side (each would hold the event loop
    up in turn), and they run in the order asked."""
    from metrobot.service.pictures.painter import Painter

    painter = Painter(0)
    background = painter.background()
    try:
        assert isinstance(background._thread, ThreadPoolExecutor) and background._thread._max_workers == 1
        log: list[tuple[str, int]] = []
        lock = threading.Lock()

        def work(k):
            with lock:
                log.append(("start", k))
            with lock:
                log.append(("end", k))
            return threading.get_ident()

        async def run_all():
            return await asyncio.gather(*(background.run(work, k) for k in range(4)))

        threads = asyncio.run(run_all())
        assert len(set(threads)) == 1 and threads[0] != threading.get_ident()
        assert log == [(x, k) for k in range(4) for x in ("start", "end")]
    finally:
        painter.close()


def test_the_players_guide_states_the_bound_the_service_keeps():
    """The limit people meet is said once, in the players' guide: the number there is the code's."""
    from pathlib import Path

    guide = " ".join((Path(__file__).parents[2] / "docs" / "players" / "playing.md").read_text().split())
    assert f"With {reviews_module.IN_FLIGHT} reviews in the making" in guide
