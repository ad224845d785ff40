"""An animated GIF of a whole game, small enough for Discord.

Frames are scaled down, share one palette (so colours don't flicker between frames) and
GIF stores each frame as its difference from the one before (Pillow crops to what
changed), which on a board that grows piece by piece is small. If the file is still over
the budget, frames are scaled down further (to `min_width`), then only every second turn is
kept (the first and last always are). Every round makes the width or the number of frames
strictly smaller, so the search ends; if even two frames at `min_width` are over the budget
that smallest file is returned, and the caller checks its size.
"""

from __future__ import annotations

import io

from PIL import Image

DISCORD_LIMIT = 8 * 1024 * 1024
FRAME_MS, LAST_MS = 700, 4000


def animate(
    frames: list[Image.Image],
    *,
    budget: int = DISCORD_LIMIT - 512 * 1024,
    width: int = 800,
    max_frames: int = 150,
    min_width: int = 400,
) -> tuple[bytes, int]:
    """(GIF bytes, frames kept)."""
    if not frames:
        raise ValueError("no frames to animate")
    keep = _thin(list(range(len(frames))), max_frames)
    min_width = min(min_width, width)
    while True:
        data = _encode([frames[i] for i in keep], width)
        if len(data) <= budget:
            return data, len(keep)
        if width > min_width:
            width = max(min_width, int(width * 0.8))
        elif len(keep) > 2:
            keep = _thin(keep, max(2, len(keep) // 2))
        else:
            return data, len(keep)  # as small as it gets


def _thin(indices: list[int], at_most: int) -> list[int]:
    if len(indices) <= at_most:
        return indices
    if at_most < 2:
        return indices[-1:]
    step = (len(indices) - 1) / (at_most - 1)
    return sorted({indices[round(i * step)] for i in range(at_most)})


def _encode(frames: list[Image.Image], width: int) -> bytes:
    scale = width / frames[0].width
    size = (width, round(frames[0].height * scale))
    small = [f.convert("RGB").resize(size, Image.Resampling.LANCZOS) for f in frames]
    palette = small[-1].quantize(colors=255, method=Image.Quantize.MEDIANCUT)  # the fullest board
    quantised = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in small]
    buf = io.BytesIO()
    durations = [FRAME_MS] * (len(quantised) - 1) + [LAST_MS]
    quantised[0].save(
        buf, "GIF", save_all=True, append_images=quantised[1:], duration=durations, loop=0, optimize=False, disposal=1
    )
    return buf.getvalue()
