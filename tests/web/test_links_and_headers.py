"""The web pages without a browser: capability links (per-server keys, rotation, the public
index), caching (a turn's board is immutable, with an ETag; the live JSON revalidates),
languages from Accept-Language, the settings and the command-line entry."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestClient, TestServer

from metrobot.service import Refused, fixed_seeds
from metrobot.service.weblinks import signature, valid
from metrobot.storage import Database
from metrobot.web import make_app
from metrobot.web.reader import accepted
from metrobot.wiring import GameService
from tests.web.world import ANN, BOB, GUILD, play_turns

CHANNEL = "910000000000000001"


@pytest.fixture
async def served(tmp_path):
    db = await Database(tmp_path / "links.sqlite3").open()
    service = GameService(db, seeds=fixed_seeds(8), images=False)
    await service.lobby.new_game(CHANNEL, GUILD, ANN, "Ann", "metromania", {}, 2, language="nl")
    await service.lobby.join(CHANNEL, BOB, "Bob")
    await service.lobby.start(CHANNEL, ANN)
    await play_turns(service, CHANNEL, 2)
    service.images = True
    service.web_base = "http://127.0.0.1:1/metro"
    async with TestClient(TestServer(make_app(service))) as client:
        yield service, client
    service.painter.close()
    await db.close()


def test_signatures_name_what_they_open_and_the_key():
    key, other = b"k" * 32, b"o" * 32
    sig = signature(key, "game:1")
    assert len(sig) == 24 and valid(key, "game:1", sig)
    assert not valid(key, "game:2", sig) and not valid(other, "game:1", sig) and not valid(key, "game:1", sig[:-1])
    assert not valid(key, "game:1", "é" * 24)  # (not even a signature's characters)


async def test_links_open_their_own_page_until_the_key_is_rotated(served):
    service, client = served
    row = await service.db.open_game(CHANNEL)
    path = await service.links.game_path(row)
    assert path.startswith(f"/g/{row.id}/") and (await client.get(path)).status == 200
    assert (await client.get(path[:-1], allow_redirects=False)).headers["Location"] == path
    other_server = await service.links.server_path("720000000000000009")  # another server's key signs nothing here
    assert (await client.get(path.replace(path.split("/")[3], other_server.split("/")[3]))).status == 404
    await service.db.web.change_web(GUILD, rotate=True)
    assert (await client.get(path)).status == 404
    assert (await client.get(await service.links.game_path(row))).status == 200


async def test_the_page_speaks_the_readers_language_else_the_games(served):
    service, client = served
    path = await service.links.game_path(await service.db.open_game(CHANNEL))
    assert (await client.get(path)).headers["Content-Language"] == "nl"  # the game's
    answer = await client.get(path, headers={"Accept-Language": "ar-EG, es;q=0.8, ko;q=0.9"})
    assert answer.headers["Content-Language"] == "ko" and "메트로매니아" in await answer.text()
    assert (await client.get(path + "?lang=es", headers={"Accept-Language": "ko"})).headers["Content-Language"] == "es"
    assert (await client.get(path + "?lang=xx")).status == 400
    italian = await client.get(path + "?lang=it")  # (Italian where it has a text, else English)
    assert italian.status == 200 and italian.headers["Content-Language"] == "it"
    assert (await client.get(path + "?lang=ja")).headers["Content-Language"] == "ja"
    portuguese = await client.get(path, headers={"Accept-Language": "pt-BR, en;q=0.5"})
    assert portuguese.headers["Content-Language"] == "pt-BR" and '<html lang="pt-BR">' in await portuguese.text()
    assert accepted("nl-BE;q=0.5, en;q=0.7, *;q=0.1, xx, ko;q=0") == ["en", "nl"]
    assert accepted("pt-PT, ja-JP;q=0.9, de;q=0.8") == ["pt_BR", "ja", "de"]
    assert accepted("é" * 900) == [] and accepted(None) == []
    assert accepted("it, de;q=0.5") == ["it", "de"] and accepted("zh-TW") == ["zh_TW"]


def test_a_language_being_translated_comes_after_the_complete_ones_the_reader_reads(monkeypatch):
    # (every language is complete since 2026-11-27: one is made "in progress" here, as the
    # offered ones are what `accepted` ranks first)
    import metrobot.web.reader as reader

    monkeypatch.setattr(reader, "OFFERED", {code: name for code, name in reader.OFFERED.items() if code != "it"})
    assert accepted("it, de;q=0.5") == ["de", "it"]


async def test_boards_are_immutable_and_the_live_json_revalidates(served):
    service, client = served
    row = await service.db.open_game(CHANNEL)
    path = await service.links.game_path(row)
    html = await (await client.get(path)).text()
    assert 'href="/metro/static/site.css' in html  # (behind a proxy's path)
    board = html.split('id="board" src="', 1)[1].split('"', 1)[0]
    first = await client.get(path + board)
    assert first.status == 200 and first.content_type == "image/png"
    assert first.headers["Cache-Control"] == "private, max-age=31536000, immutable"
    again = await client.get(path + board, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status == 304
    live = await client.get(path + "live")
    assert await live.json() == {"version": row.version, "active": True}
    assert live.headers["Cache-Control"] == "no-cache"
    assert (await client.get(path + "live", headers={"If-None-Match": live.headers["ETag"]})).status == 304
    await play_turns(service, CHANNEL, 1)
    assert (await client.get(path + "live", headers={"If-None-Match": live.headers["ETag"]})).status == 200
    assert (await client.get(path + board)).status == 200  # an earlier turn's board stays
    assert (await client.get(path + board.replace("-nl-", "-xx-"))).status == 404


async def test_the_bot_hands_out_links_only_when_there_are_pages(served):
    service, _ = served
    row = await service.db.open_game(CHANNEL)
    label, url = await service.links.status_link(row.id)
    assert label == "🌐 Openen in de browser" and url == service.web_base + await service.links.game_path(row)
    assert url in (await service.links.web_link(CHANNEL)).reply.text
    service.web_base = None
    assert await service.links.status_link(row.id) is None and await service.links.leaderboard_link(GUILD) is None
    with pytest.raises(Refused, match="METROBOT_WEB_PORT"):
        await service.links.web_link(CHANNEL)
    with pytest.raises(Refused, match="Manage Server"):
        await service.links.web_settings(GUILD, manager=False, public=True, rotate=False)
    assert await service.links.web_settings(GUILD, manager=False, public=None, rotate=False) is None


def test_settings_of_the_web_pages(monkeypatch):
    from metrobot.settings import load_settings

    for name in ("METROBOT_WEB_PORT", "METROBOT_WEB_HOST", "METROBOT_WEB_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    plain = load_settings("/nonexistent.env")
    assert plain.web_port is None and plain.web_host == "127.0.0.1" and plain.web_base_url is None
    monkeypatch.setenv("METROBOT_WEB_PORT", "8081")
    monkeypatch.setenv("METROBOT_WEB_BASE_URL", "https://metro.example.org/games/")
    on = load_settings("/nonexistent.env")
    assert on.web_port == 8081 and on.web_base_url == "https://metro.example.org/games"
    monkeypatch.setenv("METROBOT_WEB_BASE_URL", "metro.example.org")
    with pytest.raises(SystemExit, match="METROBOT_WEB_BASE_URL"):
        load_settings("/nonexistent.env")


async def test_python_m_metrobot_web_serves_the_pages_alone(tmp_path):
    """The pages in a process of their own, against the bot's database; SIGTERM stops it (exit 0)."""
    import asyncio
    import os
    import re
    import signal
    import sys
    from pathlib import Path

    import aiohttp

    root = Path(__file__).resolve().parents[2]
    db = await Database(tmp_path / "alone.sqlite3").open()
    service = GameService(db, seeds=fixed_seeds(9), images=False)
    await service.lobby.new_game(CHANNEL, GUILD, ANN, "Ann", "metromania", {}, 2)
    await service.lobby.join(CHANNEL, BOB, "Bob")
    await service.lobby.start(CHANNEL, ANN)
    path = await service.links.game_path(await db.open_game(CHANNEL))
    await db.close()
    env = dict(
        os.environ,
        METROBOT_DB=str(tmp_path / "alone.sqlite3"),
        METROBOT_RENDER_WORKERS="0",
        METROBOT_WEB_BASE_URL="https://metro.example.org",
        LOG_LEVEL="INFO",
    )
    env.pop("METROBOT_DATABASE_URL", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "metrobot", "web", "--port", "0", cwd=root, env=env, stderr=asyncio.subprocess.PIPE
    )
    try:
        line = ""
        while "web pages on" not in line:
            line = (await asyncio.wait_for(proc.stderr.readline(), 60)).decode()
            assert line, "the web process ended before serving"
        port = int(re.search(r"127\.0\.0\.1:(\d+)/", line).group(1))
        assert "links to https://metro.example.org" in line
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}{path}") as answer:
                assert answer.status == 200 and "MetrOmania" in await answer.text()
            async with session.get(f"http://127.0.0.1:{port}/favicon.ico") as answer:
                assert answer.status == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 30) == 0
