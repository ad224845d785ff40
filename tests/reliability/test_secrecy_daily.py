"""Secrecy suite, the daily challenge (issue 64): a daily result never shows the deal's later
cards to someone who has not finished it. Twin worlds: in each, Ann plays the day's
flip-and-write deal to its end with other (seeded) choices, so her results — and the cards her
finished game shows — differ; Bob has begun the same deal and Cat has not. Everything the
daily commands answer Bob and Cat (the day's table of the server and of everyone, today's and
by its date, their web page of it, starting it again; the deal's commitment with them) must be the same in both worlds, and carry none of Ann's
results; once Bob has finished too, the table does show Ann's score to him (the check can
fail)."""

from __future__ import annotations

import re

import pytest
from aiohttp.test_utils import TestClient, TestServer

from metrobot.i18n import lang, reading
from metrobot.service import Refused, fixed_seeds
from metrobot.storage import Database
from metrobot.web import make_app
from metrobot.wiring import GameService
from tests.clock import Clock
from tests.service.daily_kit import play_out

from .sizes import scale

DAY = 1_795_000_000.0
KEY = bytes(range(32))
ANN, BOB, CAT = ("880000000000000201", "Ann"), ("880000000000000202", "Bob"), ("880000000000000203", "Cat")


async def final_score(svc, user_id: str, kind: str, seed: str) -> int:
    """The person's score at the end of their day's game, played out (tests/service/daily_kit.py)."""
    return (await play_out(svc, kind, user_id, seed=seed)).state["scores"][user_id]


async def answers(svc, user_id: str, kind: str) -> list[str]:
    """Everything the daily commands tell this person about the day, and their web page of it
    (the link in the answer is signed with each world's own key: it is set aside, the page kept)."""
    out = []
    for everyone in (False, True):
        for day in (None, "2026-11-18"):
            text = (await svc.daily.table("5001", user_id, kind, day, everyone=everyone)).reply.text
            link = re.search(r"http://pages\.test(/d/\S+/)", text)
            out.append(text.replace(link.group(0), "LINK") if link else text)
            if link:
                async with TestClient(TestServer(make_app(svc))) as client:
                    page = await client.get(link.group(1))
                    out.append(f"{page.status} {await page.text()}")
    try:
        out.append((await svc.daily.start("5001", user_id, "X", kind)).reply.text)
    except Refused as exc:
        out.append(str(exc))
    return out


async def world(tmp_path, name: str, ann_seed: str):
    db = await Database(tmp_path / f"{name}.sqlite3").open()
    await db.daily.add_key("2026-11-19", KEY, first="2026-11-18")  # (twins: the same deal, one key)
    svc = GameService(db, seeds=fixed_seeds(3), images=False, clock=Clock(DAY))
    svc.web_base = "http://pages.test"
    with reading(lang("en")):
        await svc.daily.start("5001", *ANN, "flipwrite")
        score = await final_score(svc, ANN[0], "flipwrite", ann_seed)
        await svc.daily.start("5001", *BOB, "flipwrite")
    return db, svc, score


@pytest.mark.parametrize("round_", range(scale(1, 5)))
async def test_nobody_who_has_not_finished_sees_a_result(tmp_path, round_, report):
    worlds = []
    for seed in (f"a{round_}", f"b{round_}", f"c{round_}"):
        worlds.append(await world(tmp_path, seed, seed))
    scores = {score for _, _, score in worlds}
    first, second = next(((a, b) for a in worlds for b in worlds if a[2] != b[2]), (None, None))
    assert first is not None, f"the twins must differ in Ann's result: {scores}"
    try:
        compared = 0
        with reading(lang("en")):
            for person in (BOB[0], CAT[0]):
                seen = [await answers(svc, person, "flipwrite") for _, svc, _ in (first, second)]
                assert seen[0] == seen[1], (
                    "what the daily commands tell someone who has not finished depends on Ann's game"
                )
                assert not any("Ann" in text for text in seen[0])
                assert any(a.startswith("200 ") and "hidden until" in a for a in seen[0]), "the web page was read"
                compared += len(seen[0])
            await final_score(second[1], BOB[0], "flipwrite", "bob")  # Bob finishes in one world:
            after = await answers(second[1], BOB[0], "flipwrite")
            assert any(f"Ann\ue002 — {second[2]}" in text for text in after), after  # now he sees Ann's score
        report.update(twins=2, answers_compared=compared)
    finally:
        for db, _, _ in worlds:
            await db.close()
