"""The secrecy suite's look at reminders and following (issue 46): a follower's DM (its words,
its board and the board's alt text) and a person's digest of waiting games, made by a service
holding the game and by one holding its twin.

* The follower's DM shows the public board, whoever follows (a player following their own
  game included): it must be the same for the game and for a twin that differs in *every*
  secret, theirs too.
* The digest is the person's own: the same for the game and for a twin that differs only in
  what they may not see.
Both are also read for secrets the way every DM is (`Watcher.check`).
"""

from __future__ import annotations

import random
import re
from typing import Any

from metrobot.discord_app.words import discord_text
from metrobot.storage import GameRow

from .twins import twin

WHEN = re.compile(r"<t:\d+:R>")  # (when the stored game last moved: the test's two rows differ in it)
NOW = 1_800_000_000.0


async def compare_reminders(w, who: str, rnd: random.Random, *, images: bool) -> None:
    """`who`'s follower DM and digest for the watched game, against twins (see above)."""
    if w.row is None or w.state is None or w.row.status != "active":
        return
    keep = who if w.game.seats_of(w.state, who) else None
    public_twin, _ = w.model.twin(w.state, None, rnd)
    own_twin, _ = w.model.twin(w.state, keep, rnd)
    mine = await made(w.row, w.state, who, images)
    followed = await made(w.row, public_twin, who, images)
    digested = await made(w.row, own_twin, who, False)
    w.watch.reminder_checks += 1
    if mine["follow"] != followed["follow"]:
        w.watch.leak(f"{w.label}: the follower's DM to {who} depends on a secret: {_differ(mine, followed, 'follow')}")
    if mine["digest"] != digested["digest"]:
        w.watch.leak(
            f"{w.label}: the digest to {who} depends on what they may not see: {_differ(mine, digested, 'digest')}"
        )
    for what in ("follow", "digest"):
        if mine[what] is not None:
            text, files = mine[what]
            w.check("\n".join([text] + [f"{name} {about}" for name, _, about in files]), what, who)


def _differ(a: dict, b: dict, what: str) -> str:
    x, y = a[what], b[what]
    if x is None or y is None or x[0] != y[0]:
        return f"{str(x and x[0])[:200]!r} vs {str(y and y[0])[:200]!r}"
    return "its pictures or their alt text"


async def made(row: GameRow, state: Any, who: str, images: bool) -> dict[str, Any]:
    """What a service holding this game in this state makes for `who`: the follower's DM once
    a turn ended, and the digest once the game has waited an hour (None where none is made)."""
    from metrobot.games import get_plugin

    game = get_plugin(row.game).game
    owed = [game.owner(state, s) for s in game.seats(state) if s in game.to_move(state)]
    fields = {
        "status": row.status,
        "host_id": row.host_id,
        "deadline": row.deadline,
        "waiting": list(dict.fromkeys(owed)),
    }
    async with twin(row, state, images=images, now=NOW, **fields) as (service, stored):
        await service.db.reminders.follow(who, stored.id, 0, NOW - 7200)
        told = await service.following.tell_follower(who, stored.id, 0, NOW)
        await service.db.reminders.set_reminder(who, 3600.0)
        digest = await service.reminders.digest(who, 3600.0, None, NOW + 7200)
        return {"follow": _said(told), "digest": _said(digest)}


def _said(made: tuple[str, Any] | None) -> tuple[str, list] | None:
    if made is None:
        return None
    ((_, message),) = made[1].dms
    return WHEN.sub("<t:…>", discord_text(message.text)), [(f.name, f.data, f.description) for f in message.files]
