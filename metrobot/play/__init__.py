"""Playing on the board (issue 44): a capability on the service, for any front end that
shows a person the board and lets them tap it — the web's play page today, a Discord
Activity later.

* `access`: who may play — the capability for one person's seat of one game (`Pass`), proven
  by a link signed with the server's web key (revoked with it, dead once the game ends) and
  a token for what changes the game;
* `compose`: the composer's service calls (`Turns.menu`, `Turns.play`) with the picture and
  its targets drawn in one call to the drawing workers (`picture`), as plain data (`board`);
* `news`: a move confirmed here is announced in the channel exactly as a composer move is,
  through the outbox — by the bot's own delivery where the pages run inside the bot, else
  handed over to the bots and woken (PostgreSQL NOTIFY).

No rule lives here or in the page's script: the legal steps, their order and words, the
preview, the refusals and the move itself are the service's and the game plug-in's.
"""

from __future__ import annotations

from ..i18n import Lang, reading
from ..storage import GameRow
from ..wiring import GameService
from . import access
from .access import Pass, Refusal
from .board import Board, Target
from .compose import Composer, Stale
from .news import Announce, News


class Play(Composer):
    """What a play page asks of the service (one per service; the pictures it drew are kept)."""

    def __init__(self, service: GameService, announce: Announce | None = None):
        super().__init__(service)
        self.news = News(service, announce)

    async def open(self, game_id: int, user_id: str, signature: str) -> tuple[Pass, GameRow]:
        return await access.opened(self.service, game_id, user_id, signature)

    async def path(self, row: GameRow, user_id: str) -> str:
        return await access.path(self.service, row, user_id)

    async def token(self, row: GameRow, user_id: str) -> str:
        return await access.token(self.service, row, user_id)

    async def token_ok(self, row: GameRow, user_id: str, given: str | None) -> bool:
        return await access.token_ok(self.service, row, user_id, given)

    async def play(
        self, seat: Pass, row: GameRow, language: Lang, *, moves: int, steps: list[str], replacing: bool = False
    ) -> str:
        """Confirm the steps; announce the move; the person's answer in words."""
        outcome = await self.confirm(seat, row, language, moves=moves, steps=steps, replacing=replacing)
        said = outcome.reply.text if outcome.reply else ""
        await self.news.tell(row.channel_id, row.guild_id, outcome)
        return said

    async def take_back(self, seat: Pass, row: GameRow, language: Lang, *, moves: int) -> str:
        """↶ Take back the person's move that left the game at `moves` actions, through the
        service's own take-back (the same rule and window as Discord's button; `Refused` with
        the reason otherwise); the edits it owes are announced; the person's answer in words."""
        with reading(language):
            outcome = await self.service.takeback.take_back(row.channel_id, seat.user_id, game_id=row.id, moves=moves)
        said = outcome.reply.text if outcome.reply else ""
        await self.news.tell(row.channel_id, row.guild_id, outcome)
        return said

    async def moved(self, seat: Pass, row: GameRow, since: int) -> str:
        """What became of the game since position `since` (asked by a page whose ✔ Confirm got
        no answer): "none" (nothing was logged since), "yours" (the first action logged after
        it is this person's: their move was played) or "other" (someone else's came first)."""
        if row.moves == since:
            return "none"
        entries = await self.service.queries.logged_actions(row.id)
        if 0 <= since < len(entries) and entries[since]["actor"] == seat.user_id:
            return "yours"
        return "other"


async def play_link(
    service: GameService, game_id: int, user_id: str, language: Lang | None = None
) -> tuple[str, str] | None:
    """The "🖐 Play on the board" link button for a person (label, URL), or None."""
    return await access.link(service, game_id, user_id, language)


__all__ = ["Board", "Pass", "Play", "Refusal", "Stale", "Target", "play_link"]
