"""The "🖐 Play on the board" link button (issue 44): a Discord link button (no custom id,
nothing to route after a restart) to the person's own play page, in their composer, their
`/hand` answer and their turn DM. The link is signed when it is handed out (a key rotated
since an older message makes that one dead, as with every web link); none is given where
the bot has no web pages or the person has no seat playing there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from ..i18n import Lang
from ..play import play_link
from ..service import Message, Outcome

if TYPE_CHECKING:
    from ..wiring import GameService

MAX_LABEL = 80


async def for_person(
    bot: Any, user_id: str, language: Lang | None = None, *, game_id: int | None = None, channel_id: str | None = None
) -> tuple[str, str] | None:
    """The link button (label, URL) for this person's seat in a game (by id, or the game running
    in a channel), or None."""
    service: GameService | None = bot.service
    if service is None or getattr(service, "web_base", None) is None:
        return None
    if game_id is None and channel_id is not None:
        game_id = await service.queries.open_game_id(channel_id)
    if game_id is None:
        return None
    return await play_link(service, game_id, user_id, language)


def button(label: str, url: str) -> discord.ui.Button:
    return discord.ui.Button(style=discord.ButtonStyle.link, label=label[:MAX_LABEL], url=url)


def with_links(view: discord.ui.View | None, message: Message) -> discord.ui.View | None:
    """`view` with the message's link buttons added (a new view when it had none)."""
    if not message.links:
        return view
    view = view or discord.ui.View(timeout=None)
    for label, url in message.links:
        view.add_item(button(label, url))
    return view


async def hand(bot: Any, channel_id: str, user_id: str, language: Lang) -> Outcome:
    """`/hand` (and the turn post's hand button): the service's answer with the link button."""
    outcome = await bot.service.queries.hand(channel_id, user_id)
    link = await for_person(bot, user_id, language, channel_id=channel_id)
    if outcome.reply is not None and link is not None:
        outcome.reply.links.append(link)
    return outcome
