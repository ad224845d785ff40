"""The Activity's session: who Discord said the person is, in which game, until when — signed.

Once Discord has vouched for a person (see `discordauth.py`), the page gets a bearer token that
names the game, the person and an expiry, with an HMAC made with the game's server's web key
(the key that signs every web link: `/server settings web_new_key` ends every session too). It
lives in the page's memory only (Discord's frame may refuse third-party cookies) and comes
back as `Authorization: Bearer …`; nothing is kept on the server, so any process serving the
pages reads it. It opens what the person's play link opens: their seat, or, for someone not
seated, the public board. It names the Activity's instance too: a person who leaves it (or can no
longer see its channel, which takes them out of it) loses the session within a minute, as the
pages ask Discord again who is in the instance (`activityapi.opened`).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..storage import GameRow
from .discordauth import INSTANCE

if TYPE_CHECKING:
    from ..wiring import GameService

LIFETIME = 4 * 3600  # then the page asks Discord again (silently: the person already allowed it)
WHAT = "activity:{game}:{person}:{until}:{instance}"
SHAPE = re.compile(rf"([0-9]{{1,18}})\.([0-9]{{1,20}})\.([0-9]{{1,12}})\.({INSTANCE.pattern})\.([A-Za-z0-9_-]{{24}})")


@dataclass(frozen=True)
class Session:
    game_id: int
    user_id: str
    until: int
    instance: str


async def issue(
    service: GameService, row: GameRow, user_id: str, instance: str, now: float | None = None
) -> tuple[str, int]:
    """A bearer token for `user_id` in the game `row`, opened from the Activity's `instance`,
    and the seconds it lives."""
    until = int((time.time() if now is None else now) + LIFETIME)
    sig = await service.links.game_signature(
        row, WHAT.format(game=row.id, person=user_id, until=until, instance=instance)
    )
    return f"{row.id}.{user_id}.{until}.{instance}.{sig}", LIFETIME


def bearer(request_headers: Any) -> str | None:
    auth = request_headers.get("Authorization", "")
    return auth[len("Bearer ") :] if auth.startswith("Bearer ") else None


async def opened(service: GameService, token: str | None, now: float | None = None) -> tuple[Session, GameRow] | None:
    """The session a token proves and its game's row, or None (malformed, forged, expired,
    revoked with the server's key, or a game that no longer exists)."""
    match = SHAPE.fullmatch(token or "")
    if match is None:
        return None
    game_id, user_id, until, instance, sig = int(match[1]), match[2], int(match[3]), match[4], match[5]
    if until < (time.time() if now is None else now):
        return None
    row = await service.queries.game(game_id)
    if row is None or row.state is None:
        return None
    if not await service.links.game_signed(
        row, WHAT.format(game=game_id, person=user_id, until=until, instance=instance), sig
    ):
        return None
    return Session(game_id, user_id, until, instance), row
