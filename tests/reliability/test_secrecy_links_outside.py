"""Secrecy suite, links to games outside servers (issue 58): they were signed with one key
that all such games share (`@me`) and that nobody could rotate, so a link handed to the wrong
person opened its game for good. A player revokes them with `/me settings web_new_key`: every
link to their games outside servers — the game's page, each seat's play link, the Activity's
sessions — opens nothing from then on, for whoever holds it; new links open; another person's
games outside servers and a server's games keep theirs."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestClient, TestServer

from metrobot.app import build
from metrobot.play import access
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.web import activitytoken, make_app

pytestmark = pytest.mark.timeout(300)
ANN, BOB, CY, DAN = (f"85800000000000000{i}" for i in range(1, 5))
GUILD = "758000000000000001"
INSTANCE = "i-1-pc-2"


async def two_player(svc, channel: str, guild: str | None, host: tuple[str, str], other: tuple[str, str]):
    await svc.lobby.new_game(channel, guild, host[0], host[1], "underground", {}, 2)
    await svc.lobby.join(channel, other[0], other[1])
    await svc.lobby.start(channel, host[0])
    return await svc.db.open_game(channel)


async def links(svc, row, person: str) -> tuple[str, str, str]:
    return (
        await svc.links.game_path(row),
        await access.path(svc, row, person),
        (await activitytoken.issue(svc, row, person, INSTANCE))[0],
    )


async def opens(client, svc, game: str, play: str, session: str) -> tuple[int, int, bool]:
    return (
        (await client.get(game)).status,
        (await client.get(play)).status,
        await activitytoken.opened(svc, session) is not None,
    )


async def test_a_player_revokes_the_links_to_their_games_outside_servers(tmp_path):
    db = await Database(tmp_path / "outside.sqlite3").open()
    app = build(db, seeds=fixed_seeds(58), images=False)
    svc = app.service
    svc.web_base = "http://127.0.0.1:1"
    try:
        ours = await two_player(svc, "958000000000000001", None, (ANN, "Ann"), (BOB, "Bob"))
        theirs = await two_player(svc, "958000000000000002", None, (CY, "Cy"), (DAN, "Dan"))
        served = await two_player(svc, "958000000000000003", GUILD, (BOB, "Bob"), (CY, "Cy"))
        old = {row.id: await links(svc, row, row.seats[1].user_id) for row in (ours, theirs, served)}
        async with TestClient(TestServer(make_app(svc, tournaments=app.tournaments))) as client:
            for row in (ours, theirs, served):
                assert await opens(client, svc, *old[row.id]) == (200, 200, True)
            said = (await svc.people.my_settings(BOB, web_new_key=True)).reply.text
            assert "no longer works" in said and "**Your settings**" in said
            assert await opens(client, svc, *old[ours.id]) == (404, 404, False)  # Bob's game outside servers
            assert await opens(client, svc, *old[theirs.id]) == (200, 200, True)  # Cy and Dan's: theirs
            assert await opens(client, svc, *old[served.id]) == (200, 200, True)  # a server's: its managers'
            new = await links(svc, ours, ANN)  # (for Ann too: the game's links, whoever holds them)
            assert await opens(client, svc, *new) == (200, 200, True)
            assert (await svc.people.my_settings(BOB, web_new_key=True)).reply.text.startswith(said.split("\n")[0])
            assert await opens(client, svc, *new) == (404, 404, False)  # (each revocation is a new key)
            nobody = (await svc.people.my_settings("858000000000000009", web_new_key=True)).reply.text
            assert "no game outside servers" in nobody and "/server settings web_new_key" in nobody
    finally:
        svc.painter.close()
        await db.close()
