"""The images a message attaches: the board as one viewer sees it and the final pictures,
each with its alt text and in the palette that serves its readers, drawn by the painter's
workers.

A part of the service (see wiring.py): it receives the painter, the options (`images`), the
database and `Games` (the seats' names, `namer`).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from ...games.plugin import GamePlugin
from ...i18n import Lang
from ...metrics import RENDER_SECONDS, timed
from ...storage import GameRow, Person
from .. import pictures
from ..outcome import File, Message

if TYPE_CHECKING:
    from ...storage import Database
    from ..core import Games, ServiceOptions
    from .painter import Painter


# The boards drawn last, by everything a drawing depends on: after a move the same board is
# asked for again and again (the turn post, then each person who presses Board or /board, a
# follower's DM), and a board is 50-100 ms of CPU. The bytes of a few dozen PNGs.
KEEP_DRAWN = 32


def _key(*drawing: Any) -> bytes:
    """A digest of what a board is drawn from (its view is JSON: plain data, no secret beyond
    what the viewer may see, which is part of the key)."""
    text = json.dumps(drawing, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.blake2b(text.encode(), digest_size=20).digest()


class Drawing:
    def __init__(self, db: Database, options: ServiceOptions, painter: Painter, games: Games):
        self.db = db
        self.options = options
        self.painter = painter
        self.games = games
        self._drawn: OrderedDict[bytes, bytes] = OrderedDict()  # the boards drawn last
        self.keep_drawn = KEEP_DRAWN  # how many (0: every board is drawn anew)

    def clear_cache(self) -> None:
        """Forget the boards drawn last (the next picture is drawn anew)."""
        self._drawn.clear()

    def names_for_images(
        self, plugin: GamePlugin, state: Any, row: GameRow, language: Lang | None = None
    ) -> dict[str, str]:
        """Every seat's name as drawn on the board and told in its alt text (see `namer`)."""
        name = self.games.namer(plugin, state, row, language)
        return {seat: name(seat) for seat in plugin.game.seats(state)}

    async def image(
        self,
        plugin: GamePlugin,
        state: Any,
        row: GameRow,
        viewer: str | None,
        *,
        moves: int | None = None,
        language: Lang | None = None,
        vision: str = "off",
        heading: str = "",
    ) -> File | None:
        """The board as `viewer` sees it, in `language` (default: the game's) and the palette
        `vision`, drawn by a worker (the event loop keeps answering other interactions
        meanwhile), with its alt text from the same view (`heading`: what it is in its message)."""
        if not self.options.images or plugin.renderer is None:
            return None
        from metrobot.render import png_of_view

        language = language or self.games.lang(row)
        names = self.names_for_images(plugin, state, row, language)
        view = plugin.game.view(state, viewer)
        key = _key(plugin.renderer, view, viewer, names, language.code, vision, self.options.png_compression)
        data = self._drawn.get(key) if self.keep_drawn else None
        if data is None:
            with timed(RENDER_SECONDS, plugin.name):
                data = await self.painter.run(
                    self.compressed(png_of_view), plugin.renderer, view, viewer, names, language.code, vision
                )
            self._drawn[key] = data
            while len(self._drawn) > self.keep_drawn:
                self._drawn.popitem(last=False)
        else:
            self._drawn.move_to_end(key)
        return File(
            f"{row.game}-{row.id}-{row.moves if moves is None else moves}.png",
            data,
            pictures.board_alt(plugin, state, view, viewer, names, language, heading=heading),
        )

    async def draw(self, message: Message, plugin: GamePlugin, state: Any, row: GameRow, position: int) -> None:
        """Draw the images a message describes (each in the palette its spec names)."""
        for spec in message.images:
            vision = spec.get("vision", "off")
            if "board" in spec:
                image = await self.image(plugin, state, row, spec["board"], moves=position, vision=vision)
                message.files += [image] if image else []
            elif spec.get("final"):
                message.files += await self._final_files(plugin, state, row, vision=vision)

    async def _final_files(self, plugin: GamePlugin, state: Any, row: GameRow, *, vision: str = "off") -> list[File]:
        if not self.options.images or plugin.renderer is None or not plugin.game.is_over(state):
            return []
        from metrobot.render import finals_of_view

        language = self.games.lang(row)  # posted with the last turn: the game's language
        names = self.names_for_images(plugin, state, row, language)
        view = plugin.game.view(state, None)
        with timed(RENDER_SECONDS, plugin.name):
            finals = await self.painter.run(
                self.compressed(finals_of_view), plugin.renderer, view, names, language.code, vision
            )
        return [
            File(n, d, pictures.alt_text(plugin, view, None, names, language, picture=f"final:{n}")) for n, d in finals
        ]

    def compressed(self, draw: Callable[..., Any]) -> Callable[..., Any]:
        """`draw` with the PNG compression the bot was given (none given: the drawing code's)."""
        return draw if self.options.png_compression is None else partial(draw, level=self.options.png_compression)

    async def vision_of(self, user_id: str) -> str:
        """The palette of what only this person sees: their own colour-vision setting."""
        return pictures.own_vision(await self.db.people.person(user_id))

    @staticmethod
    def channel_images(people: dict[str, Person], *specs: dict[str, Any]) -> list[dict[str, Any]]:
        """A channel message's image specs, with the palette that serves its seated people
        (kept with the spec in the outbox: an image drawn again is drawn the same way)."""
        vision = pictures.shared_vision(people.values())
        return [dict(spec, vision=vision) if vision != "off" else dict(spec) for spec in specs]
