"""What the director's service tests share: the application (the game service and the
tournaments, built as every front end builds them: metrobot/app.py) on a real SQLite file with
a fake clock, the toy game (Race to 10) registered, and a stand-in for the Discord side that
makes what tournaments owe (threads, hall posts and edits, archiving) the way the adapter
does, recording it; opening a tournament and playing a round of it.

The application itself is the root conftest's `app` (tests/conftest.py), built as
`pytest.mark.service(seed=34, turn_clock=3600, toy=True)` says (TOURNAMENTS)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

import pytest

from metrobot import games
from metrobot.app import App
from tests.toygame import PLUGIN, Race, race_plugin

# How the director's tests build the application (`app`, tests/conftest.py).
TOURNAMENTS = pytest.mark.service(seed=34, turn_clock=3600, toy=True)


class Duel(Race):
    """Race to 10 for exactly two: a field of odd size cannot be seated without a bye."""

    name = "duel"
    title = "Duel to 10"
    max_players = 2


DUEL = race_plugin(Duel())


@dataclass
class Hall:
    """What Discord would show: posts per channel (text), edits of the sign-up and standings
    messages, threads made (name -> id) and archived."""

    posts: dict[str, list[str]] = field(default_factory=dict)
    signup: list[str] = field(default_factory=list)
    standings: list[str] = field(default_factory=list)
    threads: dict[str, str] = field(default_factory=dict)
    archived: set[str] = field(default_factory=set)
    made: int = 0
    private: dict[str, list[str]] = field(default_factory=dict)  # private threads -> the people added

    def said(self, channel: str) -> str:
        return "\n".join(self.posts.get(channel, []))


@pytest.fixture
def toy():
    games.register(PLUGIN)
    games.register(DUEL)
    try:
        yield PLUGIN
    finally:
        games.unregister(PLUGIN.name)
        games.unregister(DUEL.name)


async def settle(app: App, hall: Hall) -> None:
    """Deliver everything owed, as the adapter does: games' channel posts are taken as
    delivered; threads are made (once per name), hall posts and edits recorded, finished
    threads archived once their game's posts are out."""
    for _ in range(20):
        async with app.service.db.driver.read() as q:  # every game post counts as delivered
            await q.execute("UPDATE outbox SET delivered_at = ? WHERE delivered_at IS NULL", time.time())
        items = await app.tournaments.tournament_items()
        if not items:
            return
        for item in items:
            if item.kind == "thread":
                name = item.payload["name"]
                if name not in hall.threads:
                    hall.made += 1
                    hall.threads[name] = f"th{item.tournament_id}-{item.payload['round']}-{item.payload['table']}"
                    if item.payload.get("private"):
                        hall.private[hall.threads[name]] = list(item.payload["seats"])
                await app.tournaments.table_thread_made(item, hall.threads[name])
            elif item.kind == "archive":
                if await app.service.db.tournaments.channel_settled(item.payload["game_id"]):
                    hall.archived.add(item.channel_id)
                    await app.tournaments.tournament_sent(item)
                else:
                    await app.service.db.tournaments.tournament_release(item)
            else:
                message = await app.tournaments.tournament_message(item)
                if item.kind == "edit":
                    getattr(hall, item.what).append(message.text)
                else:
                    hall.posts.setdefault(item.channel_id, []).append(message.text)
                    if item.what in ("signup", "standings"):
                        getattr(hall, item.what).append(message.text)
                await app.tournaments.tournament_sent(item, f"m{item.id}")


async def run_director(app: App, hall: Hall) -> None:
    """The bot's clock: every due tournament's director runs, then what it owes goes out."""
    for _ in range(10):
        await settle(app, hall)
        due = await app.tournaments.tournaments_due()
        if not due:
            return
        for tid in due:
            await app.tournaments.advance_tournament(tid)
    await settle(app, hall)


async def play_table(app: App, thread: str, *, absent: frozenset = frozenset(), clock=None) -> None:
    """Play a toy game to its end: everyone adds the most they may, except `absent` people,
    whose turns the turn clock hands to the automatic player."""
    while True:
        row = await app.service.db.open_game(thread)
        if row is None or row.status != "active":
            return
        state = row.state
        person = state["players"][state["current"]]
        if person in absent:
            clock.now = row.deadline + 1
            await app.service.turn_clock.tick_game(thread, clock.now)
            continue
        await app.service.turns.play(thread, person, [str(min(3, 10 - state["count"]))])


async def new(app, fmt="swiss", kind="race", **kw):
    kw.setdefault("table_size", 3 if kind == "race" else 2)
    if fmt == "swiss":
        kw.setdefault("rounds", 3)
    return await app.tournaments.tournament_new("hall", "g", "host", kind, fmt, manager=True, **kw)


async def threads_of(app, tid, number):
    snap = await app.service.db.tournaments.snapshot(tid)
    return [t for t in snap.tables if t.round == number]


async def play_round(app, tid, number, clock, absent=frozenset(), hall=None):
    """Every table of a round played out (the director running after each game, if `hall`)."""
    for table in await threads_of(app, tid, number):
        await play_table(app, table.thread_id, absent=absent, clock=clock)
        if hall is not None:
            await run_director(app, hall)


PEOPLE = [(f"u{i}", name) for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"], 1)]


async def expire_all(svc, clock, thread: str, turns: int | None = None) -> None:
    """The automatic player plays every seat of a table's game (each turn clock runs out)."""
    done = 0
    while turns is None or done < turns:
        row = await svc.service.db.open_game(thread)
        if row is None or row.status != "active":
            return
        clock.now = max(clock.now, row.deadline or clock.now) + 1
        await svc.service.turn_clock.tick_game(thread, clock.now)
        done += 1


async def hands(svc) -> set[str]:
    """Every hand the games DMed, as their owners read them."""
    async with svc.service.db.driver.read() as q:
        rows = await q.fetch("SELECT payload FROM outbox WHERE target LIKE 'dm:%'")
    out = set()
    for (payload,) in rows:
        data = json.loads(payload)
        if data.get("topic") == "hand":
            out.add(data["text"].split(": ", 1)[1])
    return out
