"""Pillow images of the games, made from a viewer's view of the state.

`render_png(game, state, viewer=None, names=None, lang=EN, vision="off")` draws what
`viewer` may see (None: a spectator) and returns PNG bytes; every word in it is in `lang`
(a `Lang` or a language code; the service passes the game's), its colours in the palette
of `vision` (a key of `vision.py`: "off", a colour-vision deficiency or a mix of them;
`vision.for_people` picks a channel's). Each game's images live in its own package
here, named by the game's plug-in (`GamePlugin.renderer`), and answer
`image(view, viewer, names, lang, vision="off")` and `final(view, names, lang,
vision="off")`; shared look (fonts, colours, text fitting) is in `style.py`. A package may also answer `prewarm_steps()`:
what it can draw ahead when a worker starts (see `prewarm_steps` below); `size(view, viewer,
names, lang, vision)`: the board picture's size without drawing it; and `targets(view, viewer,
steps, names, lang, vision)`: where each step is tapped on that picture (see `board_targets`). Every PNG is
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
from .targets import Box
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


def board_targets(
    game: Any,
    state: Any,
    viewer: str,
    codes: list[str],
    names: dict[str, str] | None = None,
    lang: Lang | str = EN,
    vision: str = "off",
    *,
    seat: str | None = None,
) -> tuple[tuple[int, int], list[Box | None]]:
    """The picture's size (the same as `render_image(game, state, viewer, names, lang,
    vision).size`) and, for each code (a legal step of `viewer` in `state`, as
    `plugin.choices(state, seat, lang)` lists them), where it is tapped on that picture: a box
    (x, y, width, height), or None for a step with no spot on the board (forgo, no bonus,
    pass, a tied route...), which a page shows as a button beside the board. Codes that share
    a spot (two colours in one gap, one marker letter or another) get the same box: a page
    opens a small chooser there. The boxes keep the hit rules of `targets.py`: at least
    `MIN_SIDE` pixels a side, inside the picture, and no box holds another spot's centre.

    `seat`: whose steps the codes are, where a person plays several seats (a variant where
    one person runs two companies); default: `viewer`'s seat that is to move. Each game's image package
    answers `targets(view, viewer, steps, names, lang, vision)` with `steps` as (code, action)
    pairs read by the game's plug-in; a package without `targets` puts every step beside
    the board. The engines know nothing of pixels: the positions come from the code that
    draws the picture."""
    plugin = get_plugin(game.name)
    painter = _painter(game)
    if painter is None:
        return (0, 0), [None] * len(codes)
    engine = plugin.game
    view = engine.view(state, viewer)
    language, key = _language(lang), palette_key(vision)
    measure = getattr(painter, "size", None)
    if measure is not None:
        size = tuple(measure(view, viewer, names, language, key))
    else:
        size = painter.image(view, viewer, names, language, vision=key).size
    answer = getattr(painter, "targets", None)
    if answer is None or not codes:
        return (size[0], size[1]), [None] * len(codes)
    who = seat if seat is not None else _seat_of(engine, state, viewer)
    # Each code is a legal step's own code: read from the legal steps listed once, rather than
    # parsed one by one (a game's parse may list every legal step for each code: a flip-and-write
    # position's 60 codes listed its steps 60 times). A code not among them is parsed, as before.
    legal = {plugin.code(state, who, action): action for action in engine.legal_actions(state, who)}
    steps = [(code, legal[code] if code in legal else plugin.parse(state, who, code)) for code in codes]
    return (size[0], size[1]), list(answer(view, viewer, steps, names, language, key))


def _seat_of(engine: Any, state: Any, viewer: str) -> str:
    """The seat whose steps `viewer` composes: their own, or (a person with several seats)
    the one to move."""
    if viewer in engine.seats(state):
        return viewer
    mine = engine.seats_of(state, viewer)
    moving = [seat for seat in mine if seat in engine.to_move(state)]
    return (moving or mine or [viewer])[0]


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
    level: int | None = None,
) -> bytes:
    """`language`: a code, not a `Lang` (a worker process gets plain data; it loads the
    catalogue itself, once); `vision`: a palette key (`vision.py`; unknown: "off"); `level`:
    the PNG's compression (`png.py`)."""
    painter = importlib.import_module(renderer)
    return encode_png(painter.image(view, viewer, names, lang(language), vision=palette_key(vision)), level=level)


def finals_of_view(
    renderer: str,
    view: dict[str, Any],
    names: dict[str, str] | None,
    language: str = "en",
    vision: str = "off",
    level: int | None = None,
) -> list[tuple[str, bytes]]:
    painter = importlib.import_module(renderer)
    return [
        (name, encode_png(image, level=level))
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
    "Box",
    "animation_of_views",
    "board_targets",
    "encode_png",
    "final_images",
    "finals_of_view",
    "png_of_view",
    "prewarm_steps",
    "render_image",
    "render_png",
]
