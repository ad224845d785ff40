"""Pillow images of the games, made from a viewer's view of the state.

`render_png(game, state, viewer=None, names=None, lang=EN, vision="off")` draws what
`viewer` may see (None: a spectator) and returns PNG bytes; every word in it is in `lang`
(a `Lang` or a language code; the service passes the game's), its colours in the palette
of `vision` (a key of `vision.py`: "off", a colour-vision deficiency or a mix of them;
`vision.for_people` picks a channel's). Each game's images live in its own package
here, named by the game's plug-in (`GamePlugin.renderer`), and answer
`image(view, viewer, names, lang, vision="off")` and `final(view, names, lang,
vision="off")`; shared look (fonts, colours, text fitting) is in `style.py`. A package may also answer `prewarm_steps()`:
what it can draw ahead when a worker starts (see `prewarm_steps` below). Every PNG is
indexed colour, its palette made from the image (`png.py`: under a third of the bytes,
no visible change); `lossless=True` gives truecolour, for comparison and for tests of exact
pixels. No `discord` import here: the bot attaches the bytes.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from PIL import Image

from metrobot.games import get_plugin
from metrobot.i18n import EN, Lang, lang

from .png import encode_png
from .vision import palette_key


def _painter(game: Any) -> ModuleType | None:
    """The image package of a game (a Game or its plug-in); None if it has no images."""
    renderer = get_plugin(game.name).renderer
    return importlib.import_module(renderer) if renderer else None


def clear_caches() -> None:
    """Every game's image package forgets what it keeps of drawn layers and words (its
    `clear_caches()`, where it has one), so the next image is drawn whole: for tests that
    record every text drawn, never needed by the bot."""
    from metrobot.games import all_plugins

    for plugin in all_plugins():
        painter = _painter(plugin)
        if painter is not None and hasattr(painter, "clear_caches"):
            painter.clear_caches()


def render_image(
    game: Any,
    state: Any,
    viewer: str | None = None,
    names: dict[str, str] | None = None,
    lang: Lang | str = EN,
    vision: str = "off",
) -> Image.Image | None:
    painter = _painter(game)
    if painter is None:
        return None
    engine = get_plugin(game.name).game
    return painter.image(engine.view(state, viewer), viewer, names, _language(lang), vision=palette_key(vision))


def render_png(
    game: Any,
    state: Any,
    viewer: str | None = None,
    names: dict[str, str] | None = None,
    lang: Lang | str = EN,
    vision: str = "off",
    *,
    lossless: bool = False,
) -> bytes | None:
    image = render_image(game, state, viewer, names, lang, vision)
    return None if image is None else encode_png(image, lossless=lossless)


def final_images(
    game: Any,
    state: Any,
    names: dict[str, str] | None = None,
    lang: Lang | str = EN,
    vision: str = "off",
    *,
    lossless: bool = False,
) -> list[tuple[str, bytes]]:
    """Extra images at the end of a game, as (file name, PNG bytes); the state is finished,
    so the public view holds everything."""
    engine = get_plugin(game.name).game
    painter = _painter(game)
    if painter is None or not engine.is_over(state):
        return []
    return [
        (name, encode_png(image, lossless=lossless))
        for name, image in painter.final(engine.view(state, None), names, _language(lang), vision=palette_key(vision))
    ]


def _language(language: Lang | str | None) -> Lang:
    """A `Lang` from a `Lang` or a code ("nl", "qps", a Discord locale)."""
    return lang(language)


# ---------------------------------------------------------------- from views, for worker processes
# A worker process gets plain data (the renderer's module name, a JSON view, names, the
# language's code) and returns PNG bytes: nothing to pickle but dicts, and no game
# registry needed there.


def png_of_view(
    renderer: str,
    view: dict[str, Any],
    viewer: str | None,
    names: dict[str, str] | None,
    language: str = "en",
    vision: str = "off",
) -> bytes:
    """`language`: a code, not a `Lang` (a worker process gets plain data; it loads the
    catalogue itself, once); `vision`: a palette key (`vision.py`; unknown: "off")."""
    painter = importlib.import_module(renderer)
    return encode_png(painter.image(view, viewer, names, lang(language), vision=palette_key(vision)))


def finals_of_view(
    renderer: str, view: dict[str, Any], names: dict[str, str] | None, language: str = "en", vision: str = "off"
) -> list[tuple[str, bytes]]:
    painter = importlib.import_module(renderer)
    return [
        (name, encode_png(image))
        for name, image in painter.final(view, names, lang(language), vision=palette_key(vision))
    ]


def prewarm_steps(renderer: str) -> list[Callable[[], None]]:
    """What a game's images can draw ahead (the static layers of its packaged maps), as
    steps of a second or so, so that a worker drawing them in the background can pause
    between two for its real work; a package without `prewarm_steps()` has none (a board
    made anew for each game, say)."""
    steps = getattr(importlib.import_module(renderer), "prewarm_steps", None)
    return list(steps()) if steps is not None else []


def animation_of_views(
    renderer: str, views: list[dict[str, Any]], names: dict[str, str] | None, language: str = "en", vision: str = "off"
) -> bytes:
    from .animation import animate

    painter = importlib.import_module(renderer)
    key = palette_key(vision)
    return animate([painter.image(view, None, names, lang(language), vision=key) for view in views])[0]


__all__ = [
    "animation_of_views",
    "encode_png",
    "final_images",
    "finals_of_view",
    "png_of_view",
    "prewarm_steps",
    "render_image",
    "render_png",
]
