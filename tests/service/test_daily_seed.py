"""The daily deal nobody can compute before it is played and everyone can verify after (issue
72, item 1): the seed is keyed with the installation's daily key, so the public derivation of
before no longer predicts a card; the commitment is published while the day runs and the seed
only once it is over; `python -m metrobot daily-verify` checks a finished day's seed against
its commitment (and refuses a wrong one) and prints the deal the person played; installations
that share a key deal alike; a new key waits for the next day."""

import asyncio
import hashlib
import json
import re

import pytest
from aiohttp.test_utils import TestClient, TestServer

from metrobot import cli
from metrobot.daily.challenge import CLOCK, commitment, day_seed, next_day_starts
from metrobot.games import get_plugin
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.web import make_app
from metrobot.wiring import GameService
from tests.clock import Clock
from tests.service.daily_kit import CHEAP_OPPONENT

from .daily_kit import ANN, BOB, CAT, DAILY, DAY, WEB_BASE, anonymous, dealt, play_out

pytestmark = [DAILY, CHEAP_OPPONENT]

KEY = bytes.fromhex("5e" * 32)
OTHER = bytes.fromhex("a7" * 32)


async def service(tmp_path, name: str, key: bytes | None, clock) -> GameService:
    db = await Database(tmp_path / f"{name}.sqlite3").open()
    if key is not None:  # (as `python -m metrobot daily-key --set` puts it, on a database with none yet)
        await db.daily.add_key("2026-11-19", key, first="2026-11-18")
    svc = GameService(db, seeds=fixed_seeds(5), images=False, clock=clock, ai_seconds=0.05)
    svc.web_base = WEB_BASE
    return svc


@pytest.fixture
async def svc(svc):
    """The daily tests' service (DAILY) on a database given KEY (as `service` above gives it)."""
    await svc.db.daily.add_key("2026-11-19", KEY, first="2026-11-18")
    return svc


def old_public_deal(kind: str, day: str) -> dict:
    """What anyone computed before issue 72: the seed from the public text alone, the map by it."""
    seed = int.from_bytes(hashlib.sha256(f"metrobot-daily:{kind}:{day}".encode()).digest()[:6], "big")
    plugin = get_plugin(kind)
    cities = sorted(plugin.cities())
    city = cities[seed % len(cities)] if cities else None
    players = ["PERSON", "bot-1"][: max(1, plugin.game.min_players)]
    return plugin.game.to_json(plugin.game.new_game(players, plugin.options(None, city), seed))


@pytest.mark.parametrize("kind", ["flipwrite", "metromania", "underground"])
async def test_the_old_public_derivation_no_longer_predicts_the_deal(svc, kind):
    row = await dealt(svc, "5001", ANN, kind)
    predicted = old_public_deal(kind, "2026-11-18")
    assert row.seed != int(predicted["seed"])
    if kind == "flipwrite":  # the attack of the issue: the next card before each move, from the public text
        pile = [row.state["card"], *row.state["deck"]["draw"]]
        assert pile != [predicted["card"], *predicted["deck"]["draw"]]
    actual = json.loads(anonymous(row.state, ANN[0]))
    assert {k: v for k, v in actual.items() if k != "seed"} != {k: v for k, v in predicted.items() if k != "seed"}


def proof(text: str) -> tuple[str | None, str | None]:
    """The commitment and the seed a text gives (None where it gives none)."""
    found = re.search(r"commitment \(SHA-256 of its seed\): ([0-9a-f]{64})", text)
    seed = re.search(r"here is its seed: ([0-9a-f]{64})", text)
    return (found.group(1) if found else None), (seed.group(1) if seed else None)


async def page_of(svc, text: str) -> str:
    path = re.search(r"http://pages\.test(/d/\S+/)", text).group(1)
    async with TestClient(TestServer(make_app(svc))) as client:
        page = await client.get(path)
        assert page.status == 200
        return await page.text()


async def test_the_commitment_is_published_at_once_and_the_seed_only_after_the_day_and_its_games(svc, capsys):
    seed = day_seed(KEY, "flipwrite", "2026-11-18")
    started = (await svc.daily.start("5001", *ANN, "flipwrite")).reply.text
    row = await svc.db.game(await svc.daily.game_of(ANN[0], "flipwrite"))
    deal_played = {"card": row.state["card"], "deck": row.state["deck"]}
    assert proof(started) == (commitment(seed), None)
    await play_out(svc, "flipwrite", ANN[0])  # (finished: still no seed while the day runs)
    await svc.daily.start("5001", *CAT, "flipwrite")  # Cat begins the same deal, late in the day
    for who in (ANN[0], BOB[0]):
        text = (await svc.daily.table("5001", who, "flipwrite")).reply.text
        assert proof(text) == (commitment(seed), None), text
        page = await page_of(svc, text)
        assert commitment(seed) in page and seed.hex() not in page
        assert seed.hex() not in text
    svc.options.clock.now = next_day_starts(DAY) - 1  # 23:59:59 UTC: still the day
    assert proof((await svc.daily.table("5001", BOB[0], "flipwrite")).reply.text)[1] is None
    svc.options.clock.now += 1  # midnight: the day is over, but Cat still plays its deal:
    text = (await svc.daily.table("5001", BOB[0], "flipwrite", "2026-11-18")).reply.text
    assert proof(text) == (commitment(seed), None), "the seed would tell Cat her cards to come"
    assert seed.hex() not in await page_of(svc, text)
    await play_out(svc, "flipwrite", CAT[0], "2026-11-18")  # she finishes after midnight: now it is published
    text = (await svc.daily.table("5001", BOB[0], "flipwrite", "2026-11-18")).reply.text
    assert proof(text) == (commitment(seed), seed.hex())
    assert seed.hex() in await page_of(svc, text)
    committed, revealed = proof(text)

    # Anyone checks it, with no bot and no database, and sees the deal Ann played.
    args = ["daily-verify", "--game", "flipwrite", "--day", "2026-11-18", "--seed", revealed]
    assert cli.main([*args, "--commitment", committed]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"ok: the seed hashes to the commitment {committed}")
    printed = json.loads(out[out.index("{") :])
    assert {"card": printed["card"], "deck": printed["deck"]} == deal_played
    assert printed["game_seed"] == row.seed

    # A wrong seed (another day's, or another key's) is refused, and so is a malformed one.
    for wrong in (day_seed(KEY, "flipwrite", "2026-11-19"), day_seed(OTHER, "flipwrite", "2026-11-18")):
        wrong_args = ["daily-verify", "--game", "flipwrite", "--day", "2026-11-18", "--seed", wrong.hex()]
        assert cli.main([*wrong_args, "--commitment", committed]) == 1
        assert "MISMATCH" in capsys.readouterr().out
    assert cli.main([*args[:-1], "xyz", "--commitment", committed]) == 2
    assert "64 hexadecimal digits" in capsys.readouterr().err


async def test_installations_sharing_a_key_deal_alike_and_others_do_not(tmp_path):
    clock = Clock(DAY)
    one, two, other = [await service(tmp_path, n, k, clock) for n, k in (("a", KEY), ("b", KEY), ("c", OTHER))]
    try:
        for kind in ("flipwrite", "underground"):
            a, b, c = [await dealt(s, "5001", p, kind) for s, p in ((one, ANN), (two, BOB), (other, ANN))]
            assert a.seed == b.seed and anonymous(a.state, ANN[0]) == anonymous(b.state, BOB[0])
            assert a.seed != c.seed and anonymous(a.state, ANN[0]) != anonymous(c.state, ANN[0])
            texts = [(await s.daily.table("5001", p[0], kind)).reply.text for s, p in ((one, ANN), (two, BOB))]
            assert proof(texts[0])[0] == proof(texts[1])[0] is not None
    finally:
        for s in (one, two, other):
            await s.db.close()


async def test_a_new_key_deals_from_the_next_day_and_the_old_days_keep_theirs(svc, tmp_path, capsys, monkeypatch):
    before = proof((await svc.daily.start("5001", *ANN, "flipwrite")).reply.text)[0]
    await svc.db.daily.add_key("2026-11-19", OTHER, first="2026-11-18")  # `daily-key --set` mid-day
    assert proof((await svc.daily.table("5001", BOB[0], "flipwrite")).reply.text)[0] == before
    await dealt(svc, "5001", BOB, "flipwrite")
    assert (await svc.db.game(await svc.daily.game_of(BOB[0], "flipwrite"))).seed == (
        await svc.db.game(await svc.daily.game_of(ANN[0], "flipwrite"))
    ).seed
    for person in (ANN, BOB):  # (the seed of a deal is published once nobody plays it)
        await play_out(svc, "flipwrite", person[0])
    svc.options.clock.now += 86400
    tomorrow = proof((await svc.daily.table("5001", BOB[0], "flipwrite")).reply.text)[0]
    assert tomorrow == commitment(day_seed(OTHER, "flipwrite", "2026-11-19"))
    yesterday = proof((await svc.daily.table("5001", BOB[0], "flipwrite", "2026-11-18")).reply.text)
    assert yesterday == (before, day_seed(KEY, "flipwrite", "2026-11-18").hex())


async def test_a_game_left_for_a_week_no_longer_holds_the_seed_back(svc):
    await svc.daily.start("5001", *ANN, "underground")  # begun, never finished
    seed = day_seed(KEY, "underground", "2026-11-18")
    svc.options.clock.now = DAY + CLOCK - 1
    assert proof((await svc.daily.table("5001", BOB[0], "underground", "2026-11-18")).reply.text)[1] is None
    svc.options.clock.now = DAY + CLOCK
    assert proof((await svc.daily.table("5001", BOB[0], "underground", "2026-11-18")).reply.text)[1] == seed.hex()


def test_the_first_deal_makes_a_key_and_daily_key_shows_and_sets_it(tmp_path, capsys):
    async def first_deal() -> list:
        svc = await service(tmp_path, "fresh", None, Clock(DAY))
        try:
            await svc.daily.start("5001", *ANN, "flipwrite")
            return await svc.db.daily.keys()
        finally:
            await svc.db.close()

    ((since, key),) = asyncio.run(first_deal())
    assert since == "2026-11-18" and len(key) == 32
    path = str(tmp_path / "fresh.sqlite3")
    assert cli.main(["daily-key", "--db", path]) == 0
    assert f"since 2026-11-18: {key.hex()}" in capsys.readouterr().out
    assert cli.main(["daily-key", "--db", path, "--set", OTHER.hex()]) == 0
    out = capsys.readouterr().out
    assert "today's deal stays as it is" in out and f"{OTHER.hex()}" in out and key.hex() in out
    assert cli.main(["daily-key", "--db", path, "--set", "12"]) == 2
