"""Who may play: the capability for one person's seat of one game, and how it is proven.

A play link names the game and the person (`/play/<game>/<person>/<signature>/`) and carries
an HMAC of "play:<game>:<person>" made with the server's own web key (the key that signs every
web link: `/server settings web_new_key` puts a new one in place and every play link handed out
before opens nothing). It is handed only to that person, privately, and it dies when the game
ends, when the person leaves it (the automatic player takes the seat) or is not seated.

What changes the game comes as a POST carrying the page's token: a second HMAC of the same
key over "play-post:<game>:<person>", written into the page the link opened and sent back in
a header (`X-Play-Token`). A cross-site form can send neither the header nor the JSON body,
and the token dies with the key. No cookie is involved: the page may be framed elsewhere later
(a Discord Activity, issue 45), where the same capability is proven by a bearer token instead;
whatever proves it, what the rest of the package receives is a `Pass`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeGuard

from ..i18n import Lang
from ..storage import GameRow
from ..wiring import GameService

LINK = "play:{game}:{person}"
POST = "play-post:{game}:{person}"


@dataclass(frozen=True)
class Pass:
    """This person's seat of this game, however it was proven (a link today)."""

    game_id: int
    user_id: str


class Refusal(Exception):
    """A request the capability does not open (the page answers 404; nothing is said)."""


def playable(row: GameRow | None, user_id: str) -> TypeGuard[GameRow]:
    """Whether a play link of this person opens this game now: running, and their own seat."""
    if row is None or row.status != "active" or row.state is None:
        return False
    seat = row.seat(user_id)
    return seat is not None and not seat.auto


async def path(service: GameService, row: GameRow, user_id: str) -> str:
    """The play page's address below the site's root (signing makes the server's key if needed)."""
    sig = await service.links.game_signature(row, LINK.format(game=row.id, person=user_id))
    return f"/play/{row.id}/{user_id}/{sig}/"


async def opened(service: GameService, game_id: int, user_id: str, given: str) -> tuple[Pass, GameRow]:
    """The pass a link proves and the game as it is, or `Refusal` (no such game, not running,
    not the person's seat, a forged, altered or revoked signature)."""
    row = await service.queries.game(game_id)
    if not playable(row, user_id):
        raise Refusal()
    if not await service.links.game_signed(row, LINK.format(game=row.id, person=user_id), given):
        raise Refusal()
    return Pass(row.id, user_id), row


async def token(service: GameService, row: GameRow, user_id: str) -> str:
    """The token a page sends with what changes the game (see above)."""
    return await service.links.game_signature(row, POST.format(game=row.id, person=user_id))


async def token_ok(service: GameService, row: GameRow, user_id: str, given: str | None) -> bool:
    if not given or len(given) > 64:
        return False
    return await service.links.game_signed(row, POST.format(game=row.id, person=user_id), given)


async def link(
    service: GameService, game_id: int, user_id: str, language: Lang | None = None
) -> tuple[str, str] | None:
    """The "🖐 Play on the board" link button a person is handed (its label in `language`, by
    default their own language; the URL), or None: no web pages, or no game of theirs running
    there."""
    base = getattr(service, "web_base", None)
    if base is None:
        return None
    row = await service.queries.game(game_id)
    if not playable(row, user_id):
        return None
    if language is None:
        language = await service.games.player_language(row, user_id)
    return language.p("button", "🖐 Play on the board"), base.rstrip("/") + await path(service, row, user_id)
