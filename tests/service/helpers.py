"""What the service tests share: four people, a started game, whose turn it is, a whole turn
built from the menus as the buttons build it, a finished game with its review counted, and a
game started by given people and played on (the privacy tests)."""

from __future__ import annotations

import random

import pytest

from metrobot.games import get_game, get_plugin
from metrobot.games import review as pure
from metrobot.review import reviews as reviews_module
from tests.history.play import owed

# How tests/service/test_service.py and the tests that share its helpers build the service (`svc`,
# tests/conftest.py): its words as the channel reads them (tests/said.py).
SERVICE = pytest.mark.service(seed=11, turn_clock=3600, discord=True)

PEOPLE = [("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat"), ("u4", "Dan")]


async def started(svc, n=4, game="metromania", options=None, channel="c1"):
    await svc.lobby.new_game(channel, "g", *PEOPLE[0], game, options or {}, n)
    for uid, name in PEOPLE[1:n]:
        await svc.lobby.join(channel, uid, name)
    return await svc.lobby.start(channel, "u1")


async def whose_turn(svc, channel="c1"):
    row = await svc.db.open_game(channel)
    game = get_game(row.game)
    state = game.from_json(row.state)
    return sorted({game.owner(state, s) for s in game.to_move(state)})


async def take_turn(svc, user, rnd, channel="c1"):
    """Build a whole turn from the menus, as the buttons do, and play it."""
    prefix = []
    menu = await svc.turns.menu(channel, user, prefix)
    while not menu.complete:
        prefix.append(rnd.choice(menu.choices).code)
        menu = await svc.turns.menu(channel, user, prefix)
    return await svc.turns.play(channel, user, prefix)


@pytest.fixture
def counted(monkeypatch):
    """The review made with a small budget (everyday size), and how many times it was made."""
    made = []

    def small(game, players, options, seed, entries, person, key):
        made.append((game, person))
        plugin = get_plugin(game)
        # the plan alone: the suggestion's selection has its tests in tests/test_review.py
        return pure.review(
            plugin.game, plugin.reviewing, players, options, seed, entries, person, key, seconds=0.05, deals=2, select=0
        )

    monkeypatch.setattr(reviews_module, "review_by_name", small)
    return made


async def finished(svc, game="flipwrite", options=None):
    """A 2-player game played to its end in c1: flip-and-write, the cheapest to review (its pure
    review is tested for every game in tests/test_review.py; end to end an On the Underground
    game is reviewed, tests/e2e/test_review.py)."""
    await started(svc, 2, game, options or {"map": "berlin"})
    rnd = random.Random(3)
    for _ in range(400):
        if await svc.db.open_game("c1") is None:
            break
        for user in await whose_turn(svc):
            await take_turn(svc, user, rnd)
    row = await svc.db.last_game("c1")
    assert row.status == "finished"
    return row


async def start(svc, channel, people, kind="metromania", guild="g1"):
    await svc.lobby.new_game(channel, guild, *people[0], kind, {}, len(people))
    for uid, name in people[1:]:
        await svc.lobby.join(channel, uid, name)
    await svc.lobby.start(channel, people[0][0])


async def finish(svc, channel, turns=None):
    while (turns is None or turns > 0) and (who := await owed(svc, channel)):
        turns = None if turns is None else turns - 1
        prefix = []
        menu = await svc.turns.menu(channel, who[0], prefix)
        while not menu.complete:
            prefix.append(menu.choices[-1].code)
            menu = await svc.turns.menu(channel, who[0], prefix)
        await svc.turns.play(channel, who[0], prefix)
