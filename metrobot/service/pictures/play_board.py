"""The play page's picture and its targets, drawn together in one call to a drawing worker
(as Discord's previews are): the board as the person sees it after the steps chosen so far,
and where each next legal step is tapped on that very picture.

Where a step sits comes from the code that draws the picture (`metrobot.render.board_targets`); a
game that does not say (the toy game) has every step beside the board. The worker gets plain
data (the game's name, its JSON state, the step codes) and returns the PNG, the picture's
size and a box (or None) per code.
"""

from __future__ import annotations

from typing import Any

Box = tuple[int, int, int, int]


def draw(
    kind: str,
    state_json: Any,
    viewer: str,
    codes: list[str],
    names: dict[str, str],
    language: str,
    vision: str,
    level: int | None = None,
) -> tuple[bytes | None, tuple[int, int], list[Box | None]]:
    """PNG bytes (None: the game has no pictures), the picture's size and each code's box;
    `level`: the PNG's compression, as the bot's other images (`METROBOT_PNG_COMPRESSION`;
    None: the drawing code's)."""
    from metrobot import render
    from metrobot.games import get_plugin
    from metrobot.i18n import lang

    plugin = get_plugin(kind)
    if plugin.renderer is None:
        return None, (0, 0), [None] * len(codes)
    state = plugin.game.from_json(state_json)
    image = render.render_image(plugin.game, state, viewer, names, lang(language), vision)
    if image is None:
        return None, (0, 0), [None] * len(codes)
    targets = getattr(render, "board_targets", None)
    if targets is None or not codes:
        boxes: list[Box | None] = [None] * len(codes)
    else:
        size, found = targets(plugin.game, state, viewer, codes, names, lang(language), vision)
        if tuple(size) != tuple(image.size):  # (the contract: the same picture) — never guess
            raise ValueError(f"{kind}: targets for a picture of {size}, drawn {image.size}")
        boxes = [(int(b[0]), int(b[1]), int(b[2]), int(b[3])) if b is not None else None for b in found]
    png = render.encode_png(image, level=level)
    return png, (image.size[0], image.size[1]), boxes
