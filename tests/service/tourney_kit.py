"""What the director's service tests share: the application (the game service and the
tournaments, built as every front end builds them: metrobot/app.py) on a real SQLite file with
a fake clock, the toy game (Race to 10) registered, and a stand-in for the Discord side that
makes what tournaments owe (threads, hall posts and edits, archiving) the way the adapter
does, recording it."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import pytest

from metrobot import games
from metrobot.app import App, build
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from tests.clock import Clock
from tests.toygame import PLUGIN, Race, race_plugin


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


@pytest.fixture
async def db(tmp_path):
    database = await Database(tmp_path / "tourney.sqlite3").open()
    yield database
    await database.close()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def svc(db, clock, toy):
    return build(db, seeds=fixed_seeds(34), clock=clock, images=False, default_turn_clock=3600)


async def settle(svc: App, hall: Hall) -> None:
    """Deliver everything owed, as the adapter does: games' channel posts are taken as
    delivered; threads are made (once per name), hall posts and edits recorded, finished
    threads archived once their game's posts are out."""
    for _ in range(20):
        async with svc.service.db.driver.read() as q:  # every game post counts as delivered
            await q.execute("UPDATE outbox SET delivered_at = ? WHERE delivered_at IS NULL", time.time())
        items = await svc.tournaments.tournament_items()
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
                await svc.tournaments.table_thread_made(item, hall.threads[name])
            elif item.kind == "archive":
                if await svc.service.db.tournaments.channel_settled(item.payload["game_id"]):
                    hall.archived.add(item.channel_id)
                    await svc.tournaments.tournament_sent(item)
                else:
                    await svc.service.db.tournaments.tournament_release(item)
            else:
                message = await svc.tournaments.tournament_message(item)
                if item.kind == "edit":
                    getattr(hall, item.what).append(message.text)
                else:
                    hall.posts.setdefault(item.channel_id, []).append(message.text)
                    if item.what in ("signup", "standings"):
                        getattr(hall, item.what).append(message.text)
                await svc.tournaments.tournament_sent(item, f"m{item.id}")


async def run_director(svc: App, hall: Hall) -> None:
    """The bot's clock: every due tournament's director runs, then what it owes goes out."""
    for _ in range(10):
        await settle(svc, hall)
        due = await svc.tournaments.tournaments_due()
        if not due:
            return
        for tid in due:
            await svc.tournaments.advance_tournament(tid)
    await settle(svc, hall)


async def play_table(svc: App, thread: str, *, absent: frozenset = frozenset(), clock=None) -> None:
    """Play a toy game to its end: everyone adds the most they may, except `absent` people,
    whose turns the turn clock hands to the automatic player."""
    while True:
        row = await svc.service.db.open_game(thread)
        if row is None or row.status != "active":
            return
        state = row.state
        person = state["players"][state["current"]]
        if person in absent:
            clock.now = row.deadline + 1
            await svc.service.turn_clock.tick_game(thread, clock.now)
            continue
        await svc.service.turns.play(thread, person, [str(min(3, 10 - state["count"]))])
