"""Bad input to the web pages (issue 37): forged paths (games', tournaments', servers', people's, a
person's page of a day's daily challenge table), junk and altered signatures, huge
numbers, odd Unicode, unknown languages, junk Accept-Language and If-None-Match headers.
Whatever comes in, the answer is a 404 (or a 400 for an unknown language on a page that
opens, a redirect to the same address with its last slash), never a 500, never a traceback,
never a word of a game to a link that does not open it; nothing in the database changes."""

from __future__ import annotations

import logging
from urllib.parse import quote

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from yarl import URL

from metrobot.app import build
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.web import make_app

from .sizes import scale

pytestmark = pytest.mark.timeout(1800)
GUILD = "720000000000000001"
ANN, BOB = "820000000000000001", "820000000000000002"
SIGNATURE = st.text(
    alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", min_size=24, max_size=24
)
NUMBER = st.one_of(st.integers(0, 50), st.integers(0, 10**30), st.just(2**63), st.just(2**63 - 1))
JUNK = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


# Addresses whose path begins with "//" (Hypothesis drew "//%C2%9B%2C?lang=…" at full size):
# aiohttp's test client reads them as another host's address and refuses them; a real client
# sends them as they are, and the pages must answer 404. Always tried, and sent raw (`get`).
DOUBLE_SLASH = ["//%C2%9B%2C?lang=%C2%9B", "//", "//g/1/x/", "//127.0.0.1/g/1/x/"]


async def get(client: TestClient, address: str, headers: dict[str, str]) -> tuple[ClientResponse, bytes]:
    """The answer to a GET of `address` as it is written (no redirect followed), and its body."""
    if address.startswith("//"):
        url = URL(str(client.make_url("/")).rstrip("/") + address, encoded=True)
        async with client.session.get(url, headers=headers, allow_redirects=False) as response:
            return response, await response.read()
    response = await client.get(address, headers=headers, allow_redirects=False)
    return response, await response.read()


def paths(good_sig: str, game_id: int, t_sig: str, t_id: int, d_sig: str = "") -> st.SearchStrategy[str]:
    sig = st.one_of(SIGNATURE, st.just(good_sig), st.just(t_sig), st.just(d_sig), JUNK)
    lang = st.one_of(st.sampled_from(["en", "ko", "xx", "zz", "EN", "qps"]), JUNK)
    tail = st.one_of(
        st.just(""),
        st.just("live"),
        st.builds(
            lambda p, la, t: f"board/{p}-{la}-{t}.png",
            NUMBER,
            lang,
            st.text("0123456789abcdef", min_size=8, max_size=8),
        ),
        JUNK,
    )
    game = st.builds(
        lambda n, s, t: f"/g/{n}/{quote(s, safe='')}/{quote(t, safe='/.-')}",
        st.one_of(NUMBER, st.just(game_id)),
        sig,
        tail,
    )
    server = st.builds(lambda n, s: f"/s/{n}/{quote(s, safe='')}/", st.one_of(NUMBER, st.just(int(GUILD))), sig)
    person = st.builds(
        lambda g, u, s, t: f"/p/{g}/{u}/{quote(s, safe='')}/{quote(t, safe='')}",
        NUMBER,
        NUMBER,
        sig,
        st.one_of(st.just(""), JUNK),
    )
    picture = st.builds(
        lambda la, t: f"standings-{la}-{t}.png", lang, st.text("0123456789abcdef", min_size=8, max_size=8)
    )
    tourney = st.builds(
        lambda n, s, t: f"/t/{n}/{quote(s, safe='')}/{quote(t, safe='/.-')}",
        st.one_of(NUMBER, st.just(t_id), st.just(game_id)),
        sig,
        st.one_of(st.just(""), st.just("live"), picture, JUNK),
    )
    daily = st.builds(  # a person's page of a day's daily challenge table
        lambda u, k, d, s, t: f"/d/{u}/{quote(k, safe='')}/{quote(d, safe='')}/{quote(s, safe='')}/{quote(t, safe='')}",
        st.one_of(NUMBER, st.just(int(ANN))),
        st.one_of(st.sampled_from(["flipwrite", "metromania", "chess", "FLIPWRITE"]), JUNK),
        st.one_of(st.sampled_from(["2026-11-18", "2026-13-01", "0000-00-00", "9999-12-31", "2026-02-30"]), JUNK),
        sig,
        st.one_of(st.just(""), JUNK),
    )
    other = st.builds(lambda j: "/" + quote(j, safe="/"), JUNK)
    return st.one_of(game, tourney, server, person, daily, other)


async def test_junk_addresses_and_headers_open_nothing_and_break_nothing(caplog):
    db = await Database(":memory:").open()
    app = build(db, seeds=fixed_seeds(3), images=False)
    service = app.service
    service.web_base = "http://127.0.0.1"
    await service.lobby.new_game("920000000000000001", GUILD, ANN, "Ann", "metromania", {}, 2)
    await service.lobby.join("920000000000000001", BOB, "Bob")
    await service.lobby.start("920000000000000001", ANN)
    row = await db.open_game("920000000000000001")
    good = await service.links.game_path(row)
    sig = good.rstrip("/").rsplit("/", 1)[1]
    await app.tournaments.tournament_new(
        "920000000000000002", GUILD, BOB, "metromania", "swiss", manager=True, table_size=2, rounds=1, name="Zebra Cup"
    )
    await app.tournaments.tournament_join("920000000000000002", GUILD, ANN, "Ann")
    cup = await db.tournaments.open_tournament("920000000000000002")
    t_good = await service.links.tournament_path(cup)
    t_sig = t_good.rstrip("/").rsplit("/", 1)[1]
    await service.daily.start(GUILD, ANN, "Ann", "flipwrite")  # Ann's page of the day's table (hidden: not finished)
    table = (await service.daily.table(GUILD, ANN, "flipwrite")).reply.text
    d_good = table[table.index("http://127.0.0.1") + len("http://127.0.0.1") :].split()[0]
    d_sig = d_good.rstrip("/").rsplit("/", 1)[1]
    async with db.driver.read() as q:
        (keys,) = await q.fetchone("SELECT COUNT(*) FROM servers")
    before = (row.version, await db.people.server(GUILD), cup.version)
    tried = {"requests": 0, "opened": 0}
    caplog.set_level(logging.INFO)
    try:
        async with TestClient(TestServer(make_app(service, tournaments=app.tournaments))) as client:

            @settings(
                max_examples=scale(300, 5000), deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
            )
            @given(
                path=paths(sig, row.id, t_sig, cup.id, d_sig),
                query=st.one_of(st.just(""), st.builds(lambda j: "?lang=" + quote(j), JUNK)),
                accept=st.one_of(st.none(), JUNK),
                etag=st.one_of(st.none(), JUNK),
            )
            def check(path, query, accept, etag):
                tried["requests"] += 1
                headers = {
                    k: v
                    for k, v in (("Accept-Language", accept), ("If-None-Match", etag))
                    if v is not None and v.isprintable() and v.isascii()
                }
                runs.append((path + query, headers))

            runs: list = [(address, {}) for address in DOUBLE_SLASH]
            check()
            for address, headers in runs:
                response, body = await get(client, address, headers)
                if address.startswith("//"):
                    assert response.status == 404, (address, response.status)
                opened = any(
                    address.startswith(page) and not address[len(page) :].split("?")[0].strip("/")
                    for page in (good, t_good, d_good)
                ) or address.startswith(good + "live")
                assert response.status in (200, 302, 304, 400, 404), (address, response.status)
                if response.status == 200:
                    tried["opened"] += 1
                    assert opened or address.startswith(good + "board/"), address
                elif response.status != 302:
                    assert b"Ann" not in body and b"MetrOmania" not in body and b"Zebra" not in body, address
                assert response.headers.get("Content-Security-Policy") or response.status == 304
            assert (await client.get(good)).status == 200 and (await client.get(good + "live")).status == 200
            assert "Zebra Cup" in await (await client.get(t_good)).text()
            assert "hidden until you have finished" in await (await client.get(d_good)).text()
        assert (await db.game(row.id)).version == before[0] and await db.people.server(GUILD) == before[1]
        assert (await db.tournaments.tournament(cup.id)).version == before[2]
        async with db.driver.read() as q:  # no junk address made a key (or a row) for a server
            assert (await q.fetchone("SELECT COUNT(*) FROM servers"))[0] == keys
        assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
        assert tried["requests"] >= scale(300, 5000) * 0.9
    finally:
        await db.close()
