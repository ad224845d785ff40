"""Who finishes (issue 63): a person's finish rate per server — games that ended, finished
themselves or not (a turn clock that ran out, a leave), and running games they left — on
/profile and their web page; the server's cap on the games one may hold; /me data and
/me forget. The toy game, fixed seeds, a fake clock."""

from __future__ import annotations

import asyncio
import random

import pytest
from aiohttp.test_utils import TestClient, TestServer

from metrobot.app import privacy as privacy_of
from metrobot.i18n import reading
from metrobot.service import Refused
from metrobot.storage.personal import GHOST_PREFIX
from metrobot.web import make_app

from .play import owed, play_game

pytestmark = pytest.mark.service(now=1_800_000_000.0, turn_clock=3600, discord=True)

ANN, BOB, CAT = ("1001", "Ann"), ("1002", "Bob"), ("1003", "Cat")
GUILD = "5001"


async def play_out(svc, channel, *, lapse=None):
    """Play a started game to its end; `lapse`: whose turn clock runs out once, at their first turn."""
    rnd = random.Random(channel)
    while who := await owed(svc, channel):
        user = who[0]
        if user == lapse:
            svc.options.clock.now += 3601
            assert [c for c, _ in await svc.tick()] == [channel]
            lapse = None
            continue
        prefix: list[str] = []
        menu = await svc.turns.menu(channel, user, prefix)
        while not menu.complete:
            prefix.append(rnd.choice(menu.choices).code)
            menu = await svc.turns.menu(channel, user, prefix)
        await svc.turns.play(channel, user, prefix)


async def started(svc, channel, people):
    await svc.lobby.new_game(channel, GUILD, *people[0], "race", {}, len(people))
    for person in people[1:]:
        await svc.lobby.join(channel, *person)
    await svc.lobby.start(channel, people[0][0])


async def test_a_clock_that_ran_out_and_a_leave_are_not_finishes(svc, db, toy):
    await play_game(svc, "c1", GUILD, [ANN, BOB])  # both finish it
    await play_game(svc, "c2", GUILD, [ANN, BOB, CAT], leave=CAT[0])  # Cat leaves after the first turn
    await started(svc, "c3", [ANN, BOB])
    await play_out(svc, "c3", lapse=BOB[0])  # Bob's turn clock runs out once
    row = await db.last_game("c3")
    assert row.status == "finished" and row.seat(BOB[0]).lapsed and not row.seat(ANN[0]).lapsed
    ann, bob, cat = [await db.history.finishes(GUILD, u) for u, _ in (ANN, BOB, CAT)]
    assert (ann.finished, ann.counted) == (3, 3)
    assert (bob.finished, bob.counted) == (2, 3)
    assert (cat.finished, cat.counted) == (0, 1)
    assert (await db.history.finishes("5002", ANN[0])).counted == 0  # another server knows nothing of it
    # A game still running counts at once for someone who left it; not for those still in it.
    await started(svc, "c4", [ANN, BOB, CAT])
    await svc.lobby.leave("c4", CAT[0])
    assert (await db.history.finishes(GUILD, CAT[0])).counted == 2
    assert (await db.history.finishes(GUILD, ANN[0])).counted == 3
    # An aborted game is not counted, even by someone who left it.
    await svc.lobby.abort("c4", ANN[0], manager=False)
    assert (await db.history.finishes(GUILD, CAT[0])).counted == 1


async def test_a_tutorial_is_not_counted(svc, db, toy):
    await svc.lobby.new_game("c1", GUILD, *ANN, "race", {}, 2, bots=1, settings={"tutorial": "race"})
    await svc.lobby.start("c1", ANN[0])
    await play_out(svc, "c1")
    assert (await db.last_game("c1")).status == "finished"
    assert (await db.history.finishes(GUILD, ANN[0])).counted == 0


async def test_the_profile_and_the_web_page_say_it(svc, db, toy):
    await play_game(svc, "c1", GUILD, [ANN, BOB])
    await started(svc, "c2", [ANN, BOB])
    await play_out(svc, "c2", lapse=BOB[0])
    assert "Finishes 2 of 2 games (100 %)." in (await svc.standings.profile(GUILD, ANN[0], "Ann")).reply.text
    profile = (await svc.standings.profile(GUILD, BOB[0], "Bob")).reply.text
    assert "Finishes 1 of 2 games (50 %)." in profile
    everywhere = (await svc.standings.profile_everywhere(BOB[0], "Bob", {GUILD: "Metro club"})).reply.text
    assert "Finishes 1 of 2 games (50 %)." in everywhere
    with reading("de"):
        de = (await svc.standings.profile(GUILD, BOB[0], "Bob")).reply.text
    assert "Finishes" not in de and "50 %" in de
    svc.web_base = "http://127.0.0.1:1/metro"
    async with TestClient(TestServer(make_app(svc._inner))) as client:
        page = await (await client.get(await svc.links.person_path(GUILD, BOB[0]))).text()
    assert "Finishes 1 of 2 games (50 %)." in page


async def test_the_profile_says_nothing_without_a_counted_game(svc, db, toy):
    await play_game(svc, "c1", GUILD, [ANN, BOB])
    async with db.driver.transaction() as tx:  # (as results recorded before it was kept)
        await tx.execute("UPDATE results SET finished = NULL")
    assert "Finishes" not in (await svc.standings.profile(GUILD, ANN[0], "Ann")).reply.text


async def test_the_cap_is_off_by_default(svc, db, toy):
    for i in range(6):
        await svc.lobby.new_game(f"c{i}", GUILD, *ANN, "race", {}, 2)
    assert (await db.history.finishes(GUILD, ANN[0])).held == 6


async def test_the_cap_refuses_a_fifth_game_with_its_reason(svc, db, toy):
    await svc.server.server_settings(GUILD, "mod", manager=True, finish_cap=3)
    await play_game(svc, "c0", GUILD, [ANN, BOB])  # one finished game: 1 + 3 = 4 may be held
    for i in range(1, 4):
        await svc.lobby.new_game(f"c{i}", GUILD, *ANN, "race", {}, 2)  # three lobbies she hosts
    await svc.lobby.new_game("c4", GUILD, *BOB, "race", {}, 3)
    await svc.lobby.join("c4", *ANN)  # the fourth
    await svc.lobby.new_game("c5", GUILD, *BOB, "race", {}, 3)
    reason = "may hold as many games as they have finished, plus 3 .* You hold 4 .* finished 1, so 4 at most"
    with pytest.raises(Refused, match=reason):
        await svc.lobby.join("c5", *ANN)
    with pytest.raises(Refused, match="finish one of your games first"):
        await svc.lobby.new_game("c6", GUILD, *ANN, "race", {}, 2)
    # Another server's cap is its own; a tutorial is never refused.
    await svc.lobby.new_game("c7", "5002", *ANN, "race", {}, 2)
    await svc.lobby.new_game("c8", GUILD, *ANN, "race", {}, 2, bots=1, settings={"tutorial": "race"})
    # Leaving a lobby makes room; so does turning the cap off.
    await svc.lobby.leave("c1", ANN[0])
    await svc.lobby.join("c5", *ANN)
    await svc.server.server_settings(GUILD, "mod", manager=True, no_finish_cap=True)
    await svc.lobby.new_game("c6", GUILD, *ANN, "race", {}, 2)


async def test_two_joins_at_once_cannot_both_pass_a_cap_with_one_game_left(svc, db, toy):
    """The race: with room for one more game, Ann joins two lobbies in two channels at the same
    moment (two devices). Checked and stored under one lock per person: one join, one refusal."""
    await svc.server.server_settings(GUILD, "mod", manager=True, finish_cap=2)  # none finished: 2 may be held
    await svc.lobby.new_game("c1", GUILD, *ANN, "race", {}, 2)
    await svc.lobby.new_game("c2", GUILD, *BOB, "race", {}, 3)
    await svc.lobby.new_game("c3", GUILD, *CAT, "race", {}, 3)
    results = await asyncio.gather(svc.lobby.join("c2", *ANN), svc.lobby.join("c3", *ANN), return_exceptions=True)
    joined = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, Refused)]
    assert len(joined) == 1 and len(refused) == 1, results
    assert "You hold 2" in str(refused[0])
    assert (await db.history.finishes(GUILD, ANN[0])).held == 2
    # A join and a new game at once: the same.
    await svc.lobby.leave("c2" if joined[0] is results[0] else "c3", ANN[0])
    results = await asyncio.gather(
        svc.lobby.join("c2", *ANN), svc.lobby.new_game("c4", GUILD, *ANN, "race", {}, 2), return_exceptions=True
    )
    assert sum(isinstance(r, Refused) for r in results) == 1, results
    assert (await db.history.finishes(GUILD, ANN[0])).held == 2


async def test_the_settings_and_the_lobby_show_finish_rates_where_the_server_wants(svc, db, toy):
    with pytest.raises(Refused, match="from 1 to 100"):
        await svc.server.server_settings(GUILD, "mod", manager=True, finish_cap=0)
    text = (await svc.server.server_settings(GUILD, "mod", manager=True)).reply.text
    assert "no cap for the games they finished" in text and "Lobbies do not show finish rates" in text
    await play_game(svc, "c0", GUILD, [ANN, BOB])
    await svc.lobby.new_game("c1", GUILD, *ANN, "race", {}, 3)
    joined = await svc.lobby.join("c1", *CAT)
    assert "finishes" not in joined.public[0].text  # off by default
    text = (
        await svc.server.server_settings(GUILD, "mod", manager=True, lobby_finish_rates=True, finish_cap=2)
    ).reply.text
    assert "as many as they finished, plus 2" in text and "Lobbies show the seated people's finish rates" in text
    lobby = (await svc.lobby.join("c1", *BOB)).public[0].text
    assert "Ann (host) (finishes 1 of 1 game, 100 %)" in lobby and "Bob (finishes 1 of 1 game, 100 %)" in lobby
    assert "Cat\n" in lobby  # (no counted game: nothing said)


async def test_me_data_and_me_forget(svc, db, toy):
    await started(svc, "c1", [ANN, BOB])
    await play_out(svc, "c1", lapse=BOB[0])
    privacy = privacy_of(db, svc._inner)
    data = await privacy.export(BOB[0])
    assert [r["finished_themselves"] for r in data["results"]] == [False]
    assert [g["clock_ran_out"] for g in data["games"]] == [True]
    assert [r["finished_themselves"] for r in (await privacy.export(ANN[0]))["results"]] == [True]
    await privacy.forget(BOB[0])
    assert (await db.history.finishes(GUILD, BOB[0])).counted == 0
    row = await db.last_game("c1")
    (ghost,) = [s for s in row.seats if s.user_id.startswith(GHOST_PREFIX)]
    assert ghost.lapsed  # (renamed, the game's record stands for the others)
    data = await privacy.export(BOB[0])
    assert data["results"] == [] and data["games"] == []


async def test_rebuilding_the_ratings_keeps_who_finished_as_recorded(svc, db, toy):
    await started(svc, "c1", [ANN, BOB])
    await play_out(svc, "c1", lapse=BOB[0])
    await play_game(svc, "c2", GUILD, [ANN, BOB])
    c2 = (await db.last_game("c2")).id
    async with db.driver.transaction() as tx:  # c2 as if it had finished before who finished was kept
        await tx.execute("UPDATE results SET finished = NULL WHERE game_id = ?", c2)
    games, same = await svc.standings.rebuild_ratings()
    assert games == 2 and same
    assert [(f.finished, f.counted) for f in [await db.history.finishes(GUILD, u) for u, _ in (ANN, BOB)]] == [
        (1, 1),
        (0, 1),
    ]
