"""Race to 10's image: the counter as a bar (the toy game's own renderer)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from metrobot.render.style import INK, PAPER, font


def image(view, viewer, names=None, lang=None, vision="off"):
    im = Image.new("RGB", (400, 80), PAPER)
    d = ImageDraw.Draw(im)
    d.rectangle((10, 30, 10 + 38 * view["count"], 60), fill=(0, 114, 178))
    d.text((10, 5), f"{view['count']} / 10", fill=INK, font=font(18))
    return im


def final(view, names=None, lang=None, vision="off"):
    return [("race-final.png", image(view, None, names, lang, vision))]
