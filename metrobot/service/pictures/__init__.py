"""What the service says about its pictures besides the pixels: each image's alt text (the
attachment's description, which Discord shows to screen readers) and which palette it is
drawn in (a person's colour-vision setting).

Alt texts come from the game's plug-in (`GamePlugin.alt_text`), from the same view as the
picture and in the picture's language; the service adds what the picture is within a
message (a replay's turn, a rules page) and makes sure every image has one that fits
Discord's 1,024 characters. A hook that fails is a bug: it is logged and the plug-in's
default (the game, whose turn, the scores) stands in, so a post never waits on it.

Palettes (`metrobot/render/vision.py`): what only one person sees (a private `/board`, `/hand`, the
composer's preview, a replay or rules page they asked for) uses their own setting; what a
channel sees uses the key that serves every seated person who set one. The key goes into
the outbox with the message's image spec, so an image drawn again after a crash is drawn
the same way.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from ...games.alttext import ALT_LIMIT, cut, plain_alt_text
from ...games.plugin import GamePlugin
from ...i18n import Lang
from ...storage import Person

log = logging.getLogger("metrobot.service")

SETTING = "colour_vision"  # where a person's setting is kept in their settings JSON
VISIONS = ("off", "protan", "deutan", "tritan")  # what a person may set (render.vision.VISIONS)


def alt_text(
    plugin: GamePlugin,
    view: dict[str, Any],
    viewer: str | None,
    names: dict[str, str] | None,
    language: Lang,
    *,
    picture: str = "board",
    waiting: Iterable[str] = (),
    heading: str = "",
) -> str:
    """The description of one picture: `heading` (what it is within its message) and the
    game's words for it, at most 1,024 characters, never empty."""
    waiting = tuple(waiting)
    try:
        text = plugin.alt_text(view, viewer, names, language, picture=picture, waiting=waiting)
    except Exception:
        log.exception("the %s alt text of a %s picture failed", plugin.name, picture)
        text = plain_alt_text(plugin.title, view, names, language, picture=picture, waiting=waiting)
    # (the heading is a sentence of its own where it ends one: no space after "。" in Chinese and Japanese)
    text = " ".join(language.sentences(heading, text).split())
    return cut(text, ALT_LIMIT) or language.t("A picture of the game.")


def board_alt(
    plugin: GamePlugin,
    state: Any,
    view: dict[str, Any],
    viewer: str | None,
    names: dict[str, str] | None,
    language: Lang,
    *,
    heading: str = "",
) -> str:
    """A board picture's alt text: `alt_text` told whose move it is in `state`."""
    waiting = [s for s in plugin.game.seats(state) if s in plugin.game.to_move(state)]
    return alt_text(plugin, view, viewer, names, language, waiting=waiting, heading=heading)


def own_vision(person: Person | None) -> str:
    """A person's palette key (their setting; "off" when they set none)."""
    value = (person.settings.get(SETTING) if person is not None else None) or "off"
    return value if value in VISIONS else "off"


def shared_vision(people: Iterable[Person]) -> str:
    """The palette key of what the channel sees: one that serves every one of these people
    (the seated players) who set a colour vision."""
    from metrobot.render.vision import for_people

    return for_people(own_vision(p) for p in people)


def chart_alt(heading: str, trends: dict[str, list[float]], language: Lang) -> str:
    """A rating chart in words: its title, then each game's line from its first point to its
    last (what the chart draws: the conservative rating after each rated game)."""
    if not any(trends.values()):
        return cut(language.sentences(language.ended(heading), language.t("No rated games yet.")), ALT_LIMIT)
    lines = [
        language.n(
            "{game}: {n} rated game, from {first} to {last}",
            "{game}: {n} rated games, from {first} to {last}",
            len(values),
            game=game,
            n=len(values),
            first=language.num(values[0], 1),
            last=language.num(values[-1], 1),
        )
        for game, values in trends.items()
        if values
    ]
    return cut(language.sentences(language.ended(heading), language.ended(language.clauses(lines))), ALT_LIMIT)
