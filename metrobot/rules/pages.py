"""The illustrated rules as the service gives them: a page of a game's rules (its text and
its picture, in the requester's language) with ◀ ▶ controls, and the pointer a refused move
gets to the page that explains the rule against it.

Pictures are drawn by a drawing worker the first time a page is asked for in a language,
then kept (`RULES_CACHE` pages, least recently shown dropped first): they never change
while the bot runs.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

from ..games import BadInput, RuleError, all_plugins, get_plugin
from ..games.plugin import GamePlugin
from ..games.rulebook import page_texts, position
from ..i18n import Lang, me
from ..i18n import words as part
from ..metrics import RENDER_SECONDS, timed
from ..service import pictures
from ..service.core import title
from ..service.outcome import Controls, File, Message, Outcome, Refused

if TYPE_CHECKING:
    from ..service.core import ServiceOptions
    from ..service.pictures.drawing import Drawing
    from ..service.pictures.painter import Painter
    from ..storage import Database

# Pictures kept, about 10 MB of PNG: not every one (18 pages x 8 languages x 4 colour visions is
# 576), but all of them in the four languages a bot's servers use most, say.
RULES_CACHE = 72


def rules_pointer(plugin: GamePlugin, exc: RuleError | BadInput, language: Lang) -> str:
    """Where the rules explain a refusal (empty: nowhere, or not a rule)."""
    index = plugin.rules_page_of(exc.rule) if isinstance(exc, RuleError) else None
    if index is None:
        return ""
    page = plugin.rules_pages()[index]
    # Without a kind, /game rules shows the channel's game: the one the refusal is about.
    return language.t(
        "📖 The rules explain this on page {page} ({title}): {command}.",
        page=index + 1,
        title=page.heading(language),
        command=part.command(f"game rules page:{index + 1}", language.code),
    )


def page_message(plugin: GamePlugin, index: int, language: Lang) -> str:
    """The text posted with page `index` of a game's rules: a heading line, then the page."""
    heading, body = page_texts(plugin, index, language)
    return "\n".join(
        [
            language.t(
                "📖 **{game} rules** — {title} ({page}/{pages})",
                game=title(plugin, language),
                title=heading,
                page=index + 1,
                pages=len(plugin.rules_pages()),
            ),
            "",
            body,
        ]
    )


class RulesPages:
    def __init__(self, db: Database, options: ServiceOptions, painter: Painter, drawing: Drawing):
        self.db = db
        self.options = options
        self.painter = painter
        self.drawing = drawing
        # pictures of the rules pages (game, page, language) -> PNG: they never change
        self._rules_pictures: OrderedDict[tuple[str, int, str, str], bytes | None] = OrderedDict()

    async def rules(
        self, channel_id: str, game_name: str | None = None, page: int | None = None, *, user_id: str | None = None
    ) -> Outcome:
        """Page `page` (from 0) of the named game's rules, else of this channel's game,
        else of the first game the bot offers; its picture in the palette of who asks."""
        if game_name is None:
            row = await self.db.open_game(channel_id) or await self.db.last_game(channel_id)
            game_name = row.game if row else all_plugins()[0].name
        mine = me()
        try:
            plugin = get_plugin(game_name)
        except BadInput as exc:
            raise Refused(exc.in_language(mine)) from None
        pages = plugin.rules_pages()
        index = page or 0
        if not 0 <= index < len(pages):
            raise Refused(
                mine.n(
                    "The {game} rules have {pages} page; there is no page {page}.",
                    "The {game} rules have {pages} pages; there is no page {page}.",
                    len(pages),
                    game=title(plugin, mine),
                    pages=len(pages),
                    page=index + 1,
                )
            )
        text = page_message(plugin, index, mine)
        vision = await self.drawing.vision_of(user_id) if user_id else "off"
        picture = await self._rules_picture(plugin, index, mine, vision)
        files = (
            [File(f"rules-{plugin.name}-{index + 1}.png", picture, self._rules_alt(plugin, index, mine))]
            if picture
            else []
        )
        return Outcome(
            reply=Message(text, files, controls=Controls("rules", 0, plugin.name, index, total=len(pages) - 1))
        )

    @staticmethod
    def _rules_alt(plugin: GamePlugin, index: int, language: Lang) -> str:
        """A rules picture's alt text: the page, then the game's words for the position it
        shows (the same position, names and viewer as the picture)."""
        page = plugin.rules_pages()[index]
        shown = position(plugin.name, page)
        heading = language.t("Rules, page {page}: {title}.", page=index + 1, title=page.heading(language))
        if shown is None:
            return heading
        names = {seat: language.t(name) for seat, name in shown.names.items()} if shown.names else None
        return pictures.alt_text(
            plugin,
            plugin.game.view(shown.state, shown.viewer),
            shown.viewer,
            names,
            language,
            picture=shown.picture,
            heading=heading,
        )

    async def _rules_picture(self, plugin: GamePlugin, index: int, language: Lang, vision: str = "off") -> bytes | None:
        if not self.options.images or plugin.renderer is None:
            return None
        cache = self._rules_pictures
        key = (plugin.name, index, language.code, vision)
        if key in cache:
            cache.move_to_end(key)
            return cache[key]
        from metrobot.render.rulebook import page_png

        with timed(RENDER_SECONDS, plugin.name):
            data = await self.painter.run(page_png, plugin.name, index, language.code, vision)
        cache[key] = data
        while len(cache) > RULES_CACHE:
            cache.popitem(last=False)
        return data
