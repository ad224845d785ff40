"""Pillow images of the games, made from a viewer's view of the state.

`render_png(game, state, viewer=None, names=None)` draws what `viewer` may see (None: a
spectator) and returns PNG bytes: the MetrOmania board (with the viewer's hand in the
panel), or for flip-and-write the viewer's own sheet (spectators: the round summary).
No `discord` import here: the bot attaches the bytes.
"""
from __future__ import annotations

from typing import Any

from .style import encode_png


def render_image(game: Any, state: Any, viewer: str | None = None, names: dict[str, str] | None = None):
    view = game.view(state, viewer)
    if game.name == "metromania":
        from .metromania import board_image

        return board_image(view, names)
    if game.name == "flipwrite":
        from .flipwrite import sheet_image, summary_image

        # A player sees their own sheet (with their sealed choice); everyone else the round.
        return sheet_image(view, viewer, names) if viewer is not None else summary_image(view, names)
    raise ValueError(f"no renderer for {game.name}")


def render_png(game: Any, state: Any, viewer: str | None = None, names: dict[str, str] | None = None) -> bytes:
    return encode_png(render_image(game, state, viewer, names))


def final_images(game: Any, state: Any, names: dict[str, str] | None = None) -> list[tuple[str, bytes]]:
    """Extra images at the end of a game, as (file name, PNG bytes); the state is finished,
    so the public view holds everything."""
    if not game.is_over(state):
        return []
    view = game.view(state, None)
    if game.name == "metromania":
        from .metromania_trips import trips_image

        return [("test-trips.png", encode_png(trips_image(view, names)))]
    return []


__all__ = ["render_image", "render_png", "final_images", "encode_png"]
