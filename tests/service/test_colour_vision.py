"""The colour-vision setting (issue 35): `/me settings colour_vision:…` is kept with the
person's settings, and every picture is drawn in the right palette: what only one person
sees in their own, what a channel sees in the key that serves every seated person who set
one (kept with the message in the outbox, so a picture drawn again after a crash is drawn
the same way). The painter is a spy: the palettes themselves are tested in tests/render.
"""

from __future__ import annotations

import random

import pytest

from metrobot.service import Refused
from metrobot.service.pictures import VISIONS

from .drawn import play_turn, service, start, state_of


def test_the_service_offers_what_the_images_draw():
    from metrobot.render.vision import VISIONS as DRAWN

    assert VISIONS == DRAWN


async def test_the_setting_is_kept_shown_and_taken_off(db):
    svc, _ = service(db)
    out = await svc.people.my_settings("u1", colour_vision="deutan")
    assert (await db.people.person("u1")).settings["colour_vision"] == "deutan"
    assert "Colour vision: deutan" in out.reply.text
    assert "Colour vision: deutan" in (await svc.people.my_settings("u1")).reply.text  # none given: shown
    before = (await db.people.person("u1")).settings
    for bad in ("purple", "", "DEUTAN", "protan+tritan", "off " * 30):
        with pytest.raises(Refused, match="Colour vision is one of"):
            await svc.people.my_settings("u1", colour_vision=bad, turn_dms=True)
        assert (await db.people.person("u1")).settings == before  # bad input changes nothing
    await svc.people.my_settings("u1", colour_vision="off")
    assert "colour_vision" not in (await db.people.person("u1")).settings
    assert "Colour vision: off" in (await svc.people.my_settings("u1")).reply.text


async def test_what_one_person_sees_is_in_their_palette(db):
    svc, spy = service(db)
    await svc.people.my_settings("u2", colour_vision="tritan")
    await start(svc, "underground", 3, {})
    spy.take()
    await svc.queries.board("c1", "u2")
    await svc.queries.status("c1", "u2")
    await svc.queries.hand("c1", "u2")
    await svc.rules_pages.rules("c1", "underground", 1, user_id="u2")
    assert [vision for _, _, vision in spy.take()] == ["tritan"] * 4
    await svc.queries.board("c1", "u1")  # someone without a setting
    await svc.rules_pages.rules("c1", "underground", 1)  # (nobody named: the games' own colours)
    assert [vision for _, _, vision in spy.take()] == ["off", "off"]
    _row, plugin, state = await state_of(svc)
    owed = plugin.game.owner(state, sorted(plugin.game.to_move(state))[0])
    await svc.people.my_settings(owed, colour_vision="protan")
    await svc.turns.menu("c1", owed, [], preview=True)
    assert spy.take() == [("png_of_view", "en", "protan")]  # the composer's preview


async def test_a_channel_sees_what_serves_every_seated_person(db):
    svc, spy = service(db)
    await svc.people.my_settings("u1", colour_vision="tritan")
    await svc.people.my_settings("u3", colour_vision="protan")
    await svc.people.my_settings("u9", colour_vision="deutan")  # not playing: not counted
    out = await start(svc, "metromania", 3, {})
    assert spy.take() == [("png_of_view", "en", "protan+tritan")]
    assert out.public[0].images == [{"board": None, "vision": "protan+tritan"}]
    async with db.driver.read() as q:
        [payload] = [
            p
            for (p,) in await q.fetch("SELECT payload FROM outbox WHERE target = 'channel' AND payload LIKE '%vision%'")
        ]
    assert '"vision": "protan+tritan"' in payload
    # A crash before it was posted: drawn again later in the palette it was committed with,
    # whatever the settings say by then.
    await svc.people.my_settings("u3", colour_vision="off")
    async with db.driver.transaction() as tx:
        await tx.execute("UPDATE outbox SET claim = ?", 0.0)
    again, respy = service(db)
    drawn = [m async for _, m in again.outbox.undelivered()]
    assert any(m.files for m in drawn) and respy.take() == [("png_of_view", "en", "protan+tritan")]
    # the next post follows the settings as they are now
    rnd = random.Random(1)
    while not (out := await play_turn(svc, rnd)).public:
        pass
    assert out.public[0].images == [{"board": None, "vision": "tritan"}]
    assert ("png_of_view", "en", "tritan") in spy.take()


async def test_a_replay_is_drawn_for_whoever_sees_it(db):
    svc, spy = service(db)
    await start(svc, "flipwrite", 2, {"city": "berlin"})
    rnd = random.Random(6)
    while (await db.open_game("c1")) is not None:
        await play_turn(svc, rnd)
    await svc.people.my_settings("u1", colour_vision="deutan")
    await svc.people.my_settings("u2", colour_vision="tritan")
    await svc.people.my_settings("u9", colour_vision="protan")
    spy.take()
    await svc.replays.replay("c1", frame=1, animation=True, user_id="u9")  # privately, to someone who did not play
    assert [vision for _, _, vision in spy.take()] == ["protan", "protan"]
    await svc.replays.replay("c1", frame=1, user_id="u9", public=True)  # to the channel: its players' key
    assert [vision for _, _, vision in spy.take()] == ["deutan+tritan"]
