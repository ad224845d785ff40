"""A tournament's web page without a browser (issue 37 meets issue 34): its signed link and
`/tournament web`, the page (standings with the picture's tie-break heads, rounds with their
tables in seat order, each table's signed game link, byes), the final standings picture
(immutable, cached), the server's page listing tournaments, revocation, and a duplicate
round whose games stay unlinked while it runs. The toy game, fixed seeds."""

from __future__ import annotations

import re

import pytest
from aiohttp.test_utils import TestClient, TestServer

from metrobot.service import Refused
from metrobot.web import make_app
from tests.service import tourney_kit
from tests.service.tourney_kit import TOURNAMENTS, Hall, play_table, run_director, settle

# the tournament tests' fixtures: the toy games registered (`db`, `clock`, `app`: tests/conftest.py)
toy = tourney_kit.toy  # (the toy game and Duel to 10)
pytestmark = TOURNAMENTS  # (the application: `app`, tests/conftest.py)

GUILD = "730000000000000001"
HALL = "930000000000000001"
PEOPLE = [(f"83000000000000000{i}", name) for i, name in enumerate(["Ann", "Bob", "Cat", "Dan", "Eve"], 1)]


async def swiss(app, count: int = 5, **kw):
    """A Swiss of the two-player toy game (Duel to 10) (an odd field: a bye each round), round 1 paired."""
    kw.setdefault("table_size", 2)
    await app.tournaments.tournament_new(
        HALL, GUILD, "host", kw.pop("kind", "duel"), "swiss", manager=True, rounds=2, name="Spring Cup", **kw
    )
    for uid, name in PEOPLE[:count]:
        await app.tournaments.tournament_join(HALL, GUILD, uid, name)
    await app.tournaments.tournament_start(HALL, GUILD, "host", manager=True)
    hall = Hall()
    await settle(app, hall)
    return (await app.service.db.tournaments.open_tournament(HALL)), hall


async def play_round(app, clock, hall, tid: int, number: int) -> None:
    snap = await app.service.db.tournaments.snapshot(tid)
    for table in [t for t in snap.tables if t.round == number]:
        await play_table(app, table.thread_id, clock=clock)
        await run_director(app, hall)


@pytest.fixture
async def served(app):
    app.service.web_base = "http://127.0.0.1:1"
    async with TestClient(TestServer(make_app(app.service, tournaments=app.tournaments))) as client:
        yield app, client
    app.service.painter.close()


async def test_the_link_opens_the_page_and_nothing_else(served, clock):
    app, client = served
    row, _ = await swiss(app)
    path = await app.service.links.tournament_path(row)
    assert re.fullmatch(rf"/t/{row.id}/[A-Za-z0-9_-]{{24}}/", path)
    reply = (await app.tournaments.tournament_web(HALL, GUILD)).reply.text
    assert app.service.web_base + path in reply
    answer = await client.get(path)
    html = await answer.text()
    assert answer.status == 200 and answer.headers["Cache-Control"] == "no-store"
    assert "Spring Cup" in html and "Duel to 10" in html and "Swiss" in html and "Round 1 of 2" in html
    for head in ("Rank", "Points", "Opp. pts", "S-B", "Opp. rating", "Games", "Byes"):
        assert f'<th scope="col">{head}</th>' in html
    snap = await app.service.db.tournaments.snapshot(row.id)
    for table in snap.tables:  # seats in order, a signed link to the table's game that opens it
        names = [dict(PEOPLE)[p] for p in table.seats]
        assert re.search(r"<li>\s*" + r"\s*</li>\s*<li>".join(names), html)
        game = await app.service.db.game(table.game_id)
        link = await app.service.links.game_path(game)
        assert f'href="{link}"' in html and (await client.get(link)).status == 200
    bye = snap.rounds[0].pairing["byes"]
    assert len(bye) == 1 and f"Bye: {dict(PEOPLE)[bye[0]]}" in html
    assert str(snap.row.seed) not in html
    # not the same link without its last slash, another id, an altered or a game's signature
    assert (await client.get(path[:-1], allow_redirects=False)).headers["Location"] == path
    sig = path.split("/")[3]
    game_sig = (await app.service.links.game_path(await app.service.db.game(snap.tables[0].game_id))).split("/")[3]
    for wrong in (
        path.replace(f"/t/{row.id}/", f"/t/{row.id + 1}/"),
        path.replace(sig, sig[::-1]),
        path.replace(sig, game_sig),
        f"/t/{snap.tables[0].game_id}/{game_sig}/",
    ):
        answer = await client.get(wrong)
        assert answer.status == 404 and "Spring Cup" not in await answer.text() and "Ann" not in await answer.text()
    # the Korean reader gets Korean words; the tournament's language is the default
    korean = await client.get(path, headers={"Accept-Language": "ko"})
    assert korean.headers["Content-Language"] == "ko" and "순위" in await korean.text()
    # revoked with the server's key, like every other link
    await app.service.db.web.change_web(GUILD, rotate=True)
    assert (await client.get(path)).status == 404
    assert (await client.get(await app.service.links.tournament_path(row))).status == 200


async def test_a_finished_tournament_shows_its_final_standings_picture(served, clock):
    app, client = served
    row, hall = await swiss(app)
    await play_round(app, clock, hall, row.id, 1)
    await play_round(app, clock, hall, row.id, 2)
    row = await app.service.db.tournaments.tournament(row.id)
    assert row.status == "finished"
    path = await app.service.links.tournament_path(row)
    html = await (await client.get(path)).text()
    assert "Round 2 of 2" in html and "place 1" in html and "place 2" in html
    picture = re.search(
        r'<img class="chart" src="(standings-en-[0-9a-f]{8}\.png)" alt="Spring Cup — final standings'
        r": 1\. ",
        html,
    ).group(1)
    assert (await client.get(path + picture)).status == 404  # (no images in this service: nothing drawn)
    app.service.images = True
    first = await client.get(path + picture)
    assert first.status == 200 and first.content_type == "image/png"
    assert first.headers["Cache-Control"] == "private, max-age=31536000, immutable"
    assert (await client.get(path + picture, headers={"If-None-Match": first.headers["ETag"]})).status == 304
    assert (await client.get(path + picture.replace("-en-", "-xx-"))).status == 404
    assert (await client.get(path + re.sub(r"-[0-9a-f]{8}\.", "-00000000.", picture))).status == 404
    korean = await (await client.get(path + "?lang=ko")).text()
    assert "standings-ko-" in korean and (await client.get(path + picture.replace("-en-", "-ko-"))).status == 200


async def test_the_server_page_lists_tournaments_and_the_command_refuses_clearly(served, clock):
    app, client = served
    row, _ = await swiss(app)
    html = await (await client.get(await app.service.links.server_path(GUILD))).text()
    assert 'id="tournaments"' in html and "Spring Cup" in html and "round 1" in html
    assert f'href="{await app.service.links.tournament_path(row)}"' in html
    with pytest.raises(Refused, match="No tournament here"):
        await app.tournaments.tournament_web("930000000000000009", GUILD)
    with pytest.raises(Refused, match="No tournament here"):  # another server's channel
        await app.tournaments.tournament_web(HALL, "730000000000000009")
    app.service.web_base = None
    with pytest.raises(Refused, match="METROBOT_WEB_PORT"):
        await app.tournaments.tournament_web(HALL, GUILD)


async def test_a_running_duplicate_rounds_games_are_not_linked(served, clock):
    app, client = served
    row, _ = await swiss(app, 4, kind="flipwrite", duplicate=True)
    path = await app.service.links.tournament_path(row)
    html = await (await client.get(path)).text()
    snap = await app.service.db.tournaments.snapshot(row.id)
    links = [await app.service.links.game_path(await app.service.db.game(t.game_id)) for t in snap.tables]
    assert "the same deal" in html and not any(link in html for link in links)
    server = await (await client.get(await app.service.links.server_path(GUILD))).text()
    assert "Spring Cup" in server and not any(link in server for link in links)
    games = [await app.service.db.game(t.game_id) for t in snap.tables]
    assert not any(str(g.seed) in html for g in games) and str(snap.row.seed) not in html
