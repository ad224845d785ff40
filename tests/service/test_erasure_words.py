"""Forgetting a person in what the outbox still holds (issue 62): the texts mark people as
parts, so erasure replaces exactly the forgotten person's parts — a word that spells their
name ("Red", "Green Park") stays — and an owed message delivered afterwards says "Deleted
player". An outbox row written before the parts (Discord's syntax, names as text) is still
delivered as it was, and still scrubbed the old way."""

from __future__ import annotations

import contextlib
import json

import pytest

from metrobot.app import privacy as privacy_of
from metrobot.discord_app.words import discord_text
from metrobot.i18n import words
from metrobot.service import Refused
from metrobot.storage.personal import GHOST_NAME
from tests.service.helpers import finish, start

ANN, RED, PARK = ("720000000000000001", "Ann"), ("720000000000000002", "Red"), ("720000000000000003", "Green Park")
NOW = 1_800_000_000.0

pytestmark = [pytest.mark.timeout(120), pytest.mark.service(now=NOW)]


async def put(db, channel: str, payload: dict, made: float = NOW) -> int:
    """A post owed in the channel's game, as the outbox keeps one (not yet delivered)."""
    game = await db.last_game(channel)
    async with db.driver.transaction() as tx:
        await tx.execute(
            "INSERT INTO outbox (game_id, channel_id, target, position, payload, created_at, kind) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            game.id,
            channel,
            "channel",
            game.moves,
            json.dumps(payload),
            made,
            "post",
        )
        rows = await tx.fetch("SELECT max(id) FROM outbox")
    return rows[0][0]


async def outbox(db) -> dict[int, dict]:
    async with db.driver.read() as q:
        return {oid: json.loads(payload) for oid, payload in await q.fetch("SELECT id, payload FROM outbox")}


@pytest.mark.parametrize("forgotten", [RED, PARK], ids=["Red", "Green Park"])
async def test_forgetting_changes_the_persons_parts_and_no_other_word(db, svc, forgotten):
    await start(svc, "c1", [ANN, RED, PARK], kind="underground")
    await finish(svc, "c1")
    # A text that spells both names as words of its own, as a narration could ("Red" the
    # colour, "Green Park" the station), beside the people themselves.
    text = f"{words.name(RED[0], 'Red')} extended Red to Green Park; {words.person(PARK[0], 'Green Park')} next."
    said = await put(db, "c1", {"text": text, "parts": True, "mentions": [PARK[0]], "controls": None, "images": []})
    before = await outbox(db)
    assert any(words.ids(p["text"]) >= {forgotten[0]} for p in before.values())

    await privacy_of(svc.db, svc).forget(forgotten[0])

    after = await outbox(db)
    changed = 0
    for oid, payload in before.items():
        expected = words.erase(payload["text"], forgotten[0], GHOST_NAME)
        assert after[oid]["text"] == expected, "a word changed that was not the forgotten person's part"
        assert forgotten[0] not in after[oid]["text"] and forgotten[0] not in after[oid]["mentions"]
        changed += expected != payload["text"]
    assert changed > 0
    shown = discord_text(after[said]["text"])
    assert "Red to Green Park" in shown and "Deleted player" in shown


async def test_an_outbox_row_written_before_the_parts_is_delivered_and_scrubbed_as_before(db, svc):
    await start(svc, "c1", [ANN, RED])
    old = {"text": f"<@{RED[0]}> extended Red from Euston.", "mentions": [RED[0]], "controls": None, "images": []}
    async with db.driver.transaction() as tx:  # (what the game said so far has gone out)
        await tx.execute("UPDATE outbox SET delivered_at = ?", NOW)
    await put(db, "c1", old, made=NOW - 3600)  # (owed for an hour: a sweep delivers it)
    owed = [message for _, message in [item async for item in svc.outbox.undelivered()]]
    assert any(discord_text(m.text) == old["text"] and m.mentions == [RED[0]] for m in owed)

    await privacy_of(svc.db, svc).forget(RED[0])
    texts = [p["text"] for p in (await outbox(db)).values() if "Euston" in p["text"]]
    assert texts == ["Deleted player extended Deleted player from Euston."]  # (the old way: by name)


PEOPLE = [
    ("730000000000000001", "Zelda Quux"),
    ("730000000000000002", "Yves Quorn"),
    ("730000000000000003", "Xia Qent"),
]


@pytest.mark.parametrize("kind", ["metromania", "flipwrite", "underground"])
async def test_every_text_the_outbox_keeps_has_its_people_as_parts(db, svc, kind):
    """What makes the erasure above exact: no person's name is written into a kept text as
    plain words — a lobby's list, a move, a take-back, time away, leaving, the end."""
    await svc.lobby.new_game("c1", "g1", *PEOPLE[0], kind, {}, 3)
    await svc.lobby.join("c1", *PEOPLE[1])
    await svc.lobby.leave("c1", PEOPLE[1][0])
    await svc.lobby.join("c1", *PEOPLE[1])
    await svc.lobby.join("c1", *PEOPLE[2])
    await svc.lobby.start("c1", PEOPLE[0][0])
    await svc.people.away(PEOPLE[2][0], 1, "back soon")
    await svc.people.back(PEOPLE[2][0])
    await finish(svc, "c1", turns=2)
    row = await db.open_game("c1")
    for user, _ in PEOPLE:  # (whoever moved last takes it back, if the game allows it)
        with contextlib.suppress(Refused):
            await svc.takeback.take_back("c1", user, game_id=row.id, moves=row.moves)
    await svc.lobby.leave("c1", PEOPLE[1][0])
    await finish(svc, "c1")
    kept = [p for p in (await outbox(db)).values() if p.get("parts")]
    assert len(kept) > 5
    for payload in kept:
        plain_words = "".join(piece for piece in words.parts(payload["text"]) if isinstance(piece, str))
        for _, shown in PEOPLE:
            assert shown not in plain_words, payload["text"]
