"""Games for the web pages' tests, made through the service: a running game, a finished one
(rated: two people), a lobby, on one server; all with fixed seeds."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator

from aiohttp import web

from metrobot.app import App
from metrobot.web import make_app
from metrobot.wiring import GameService

GUILD = "700000000000000001"
ANN, BOB, CY = "800000000000000001", "800000000000000002", "800000000000000003"


@contextlib.asynccontextmanager
async def served(app: App) -> AsyncIterator[str]:
    """The web pages of `app` on a free local port (the service's links point at them), until
    the block ends; its pictures' painter is closed with them."""
    runner = web.AppRunner(make_app(app.service, tournaments=app.tournaments), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    app.service.web_base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    try:
        yield app.service.web_base
    finally:
        await runner.cleanup()
        app.service.painter.close()


async def play_turns(svc: GameService, channel: str, turns: int | None, seed: int = 1) -> None:
    """Whoever is owed a move plays random legal steps, `turns` times (None: to the end)."""
    rnd = random.Random(seed)
    done = 0
    while turns is None or done < turns:
        row = await svc.db.open_game(channel)
        if row is None or row.status != "active":
            return
        for user in list(row.waiting):
            prefix: list[str] = []
            menu = await svc.turns.menu(channel, user, prefix)
            while not menu.complete:
                prefix.append(rnd.choice(menu.choices).code)
                menu = await svc.turns.menu(channel, user, prefix)
            await svc.turns.play(channel, user, prefix)
        done += 1


async def new_game(
    svc: GameService, channel: str, kind: str = "metromania", options: dict | None = None, language: str | None = None
) -> int:
    await svc.lobby.new_game(
        channel, GUILD, ANN, "Ann", kind, options or {}, 2, **({"language": language} if language else {})
    )
    await svc.lobby.join(channel, BOB, "Bob")
    await svc.lobby.start(channel, ANN)
    return (await svc.db.open_game(channel)).id


async def make_world(svc: GameService) -> dict[str, int]:
    """A finished MetrOmania game, a running one, running flip-and-write and On the Underground
    games, and a lobby."""
    finished = await new_game(svc, "900000000000000001")
    await play_turns(svc, "900000000000000001", None, seed=2)
    running = await new_game(svc, "900000000000000002")
    await play_turns(svc, "900000000000000002", 3, seed=3)
    flip = await new_game(svc, "900000000000000003", "flipwrite", {"map": "paris"})
    await play_turns(svc, "900000000000000003", 2, seed=4)
    london = await new_game(svc, "900000000000000005", "underground")
    await play_turns(svc, "900000000000000005", 8, seed=5)
    await svc.lobby.new_game("900000000000000004", GUILD, CY, "Cy", "underground", {}, 3)
    return {"finished": finished, "running": running, "flip": flip, "london": london}


TOURNEY_HALL = "900000000000000006"
ENTRANTS = [
    ("800000000000000011", "Dee"),
    ("800000000000000012", "Eli"),
    ("800000000000000013", "Fox"),
    ("800000000000000014", "Gil"),
    ("800000000000000015", "하나"),
]


async def make_tournament(app: App) -> int:
    """A MetrOmania Swiss of five at tables of 2 over 2 rounds (tables of 3 and 2: no bye) on
    the same server: round 1 played out, round 2 paired with one table finished and one under way.
    Its threads are made as the bot's adapter would (the tournament tests' stand-in)."""
    from tests.service.tourney_kit import Hall, run_director, settle

    await app.tournaments.tournament_new(
        TOURNEY_HALL, GUILD, ANN, "metromania", "swiss", manager=True, table_size=2, rounds=2, name="Autumn Cup"
    )
    for uid, name in ENTRANTS:
        await app.tournaments.tournament_join(TOURNEY_HALL, GUILD, uid, name)
    await app.tournaments.tournament_start(TOURNEY_HALL, GUILD, ANN, manager=True)
    hall = Hall()
    await settle(app, hall)
    tid = (await app.service.db.tournaments.open_tournament(TOURNEY_HALL)).id
    for number, seed in ((1, 21), (2, 23)):
        tables = [t for t in (await app.service.db.tournaments.snapshot(tid)).tables if t.round == number]
        for i, table in enumerate(tables):
            await play_turns(
                app.service, table.thread_id, 3 if number == 2 and i == len(tables) - 1 else None, seed=seed + i
            )
            await run_director(app, hall)
    return tid
