"""The status message's "Latest board" link names the latest board, also after a crash: its
edit waits while an older board post of the game is still owed (`Status.edits`)."""

from __future__ import annotations

import random
import types

from metrobot.discord_app.words import discord_text
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.wiring import GameService
from tests.service.helpers import take_turn, whose_turn


async def test_the_status_edit_waits_for_an_older_board_still_owed():
    # (A process that died with a turn post claimed leaves it owed while a live one commits
    # newer moves; the status edit made meanwhile linked to an older board for good: the
    # crash suite saw it once, in a shuffled run.)
    db = await Database(":memory:").open()
    svc = GameService(db, seeds=fixed_seeds(3), images=False)
    try:
        lobby = (await svc.lobby.new_game("c1", "g1", "u1", "Ann", "metromania", {}, 2)).public[0]
        await svc.lobby.join("c1", "u2", "Bob")
        started = await svc.lobby.start("c1", "u1")
        board = next(m for m in started.public if m.images)
        status = next(m for m in started.edits if m.edit == "status")
        await svc.outbox.delivered(lobby, "100")
        assert await svc.status.edits(status) is None  # the board it links to is not out yet
        await svc.outbox.delivered(board, "200")
        [(where, text)] = await svc.status.edits(status) or []
        assert where == "100" and text.endswith("https://discord.com/channels/g1/c1/200")
    finally:
        svc.painter.close()
        await db.close()


async def _started(svc):
    """A two-player MetrOmania game, its lobby post (the status message) "100" and its first
    board "200" posted; the status edit the start owes."""
    lobby = (await svc.lobby.new_game("c1", "g1", "u1", "Ann", "metromania", {}, 2)).public[0]
    await svc.lobby.join("c1", "u2", "Bob")
    started = await svc.lobby.start("c1", "u1")
    await svc.outbox.delivered(lobby, "100")
    await svc.outbox.delivered(next(m for m in started.public if m.images), "200")
    return next(m for m in started.edits if m.edit == "status")


async def _next_turn(svc):
    """Whoever is to move plays a whole turn, built from the menus as the buttons do; its
    board is posted as "300"."""
    out = await take_turn(svc, (await whose_turn(svc))[0], random.Random(1))
    await svc.outbox.delivered(next(m for m in out.public if m.images), "300")
    return next(m for m in out.edits if m.edit == "status")


async def test_a_status_edit_made_late_says_what_the_newest_says():
    # (A restarted process redid a status edit a dead one had left owed while a live sender
    # made the next move's: the older text landed last and stayed — the crash suite saw it.)
    db = await Database(":memory:").open()
    svc = GameService(db, seeds=fixed_seeds(3), images=False)
    try:
        first = await _started(svc)
        newer = await _next_turn(svc)
        assert newer.text != first.text
        newest = newer.text.replace("{board}", "https://discord.com/channels/g1/c1/300")
        assert await svc.status.edits(first) == [("100", newest)]
        assert await svc.status.edits(newer) == [("100", newest)]
    finally:
        svc.painter.close()
        await db.close()


class _Channel:
    """A channel whose messages keep their last edit; `during_edit` runs while the first edit
    is on its way (before it lands)."""

    def __init__(self, during_edit):
        self.texts: dict[str, str] = {}
        self.during_edit = during_edit

    def get_partial_message(self, message_id: int):
        channel = self

        class Partial:
            async def edit(self, content=None, **_):
                during, channel.during_edit = channel.during_edit, None
                if during is not None:
                    await during()
                channel.texts[str(message_id)] = content

        return Partial()


async def test_a_status_edit_overtaken_on_its_way_is_made_again():
    # The next move's status edit is committed and made while the older one is on its way
    # (another process; Discord keeps the last edit to land): the older one, landing last,
    # is made again as the newest reads, so the message does not end on the older text.
    from metrobot.discord_app.delivery import edit

    db = await Database(":memory:").open()
    svc = GameService(db, seeds=fixed_seeds(3), images=False)
    client = types.SimpleNamespace(service=svc)
    try:
        first = await _started(svc)
        made: list = []

        async def newer_move():
            made.append(await _next_turn(svc))
            await edit(client, channel, made[0])  # (lands before the older one)

        channel = _Channel(newer_move)
        await edit(client, channel, first)
        assert channel.texts["100"] == discord_text(made[0].text).replace(
            "{board}", "https://discord.com/channels/g1/c1/300"
        )
    finally:
        svc.painter.close()
        await db.close()
