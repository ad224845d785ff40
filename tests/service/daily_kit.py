"""What the daily challenge's service tests share: the day, three people, a deal with the
person taken out, a day's game dealt and played out, and how they build the service."""

from __future__ import annotations

import json
import random

import pytest

from metrobot.turns import automatic

DAY = 1_795_000_000.0  # 2026-11-18 (UTC), 12:53
WEB_BASE = "http://pages.test"
# The service of the daily challenge's tests (`svc`, tests/conftest.py).
DAILY = pytest.mark.service(now=DAY, ai_seconds=0.05, web_base=WEB_BASE)
ANN, BOB, CAT = ("880000000000000101", "Ann"), ("880000000000000102", "Bob"), ("880000000000000103", "Cat")


def anonymous(state: dict, user_id: str) -> str:
    """A state with the person's id taken out: what the deal is, whoever is dealt it."""
    return json.dumps(state, sort_keys=True).replace(user_id, "PERSON")


async def dealt(svc, guild, person, kind):
    await svc.daily.start(guild, *person, kind)
    row = await svc.db.game(await svc.daily.game_of(person[0], kind))
    return row


async def play_out(svc, kind, user_id, day=None, *, game_id=None, seed=None):
    """Play a person's day's game (default: today's; or the game `game_id`) to its end, as their
    play page does (the service's calls: random legal moves, seeded by `seed`, default the kind);
    returns its last row."""
    rnd = random.Random(kind if seed is None else seed)
    game_id = game_id or await svc.daily.game_of(user_id, kind, day)
    for _ in range(500):
        row = await svc.queries.game(game_id)
        if row.status != "active":
            return row
        prefix: list[str] = []
        menu = await svc.turns.menu(row.channel_id, user_id, prefix)
        while not menu.complete:
            prefix.append(rnd.choice(menu.choices).code)
            menu = await svc.turns.menu(row.channel_id, user_id, prefix)
        await svc.turns.play(row.channel_id, user_id, prefix)
    raise AssertionError("the game did not end")


@pytest.fixture
def cheap_daily_opponent(monkeypatch):
    """The daily opponent's work is fixed (`automatic.DAILY_SECONDS`, the same for everyone): a
    smaller one keeps the suite fast, and is as fixed (a module uses it with CHEAP_OPPONENT)."""
    monkeypatch.setattr(automatic, "DAILY_SECONDS", 0.05)


CHEAP_OPPONENT = pytest.mark.usefixtures("cheap_daily_opponent")
