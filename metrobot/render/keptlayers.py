"""Drawn layers kept between runs: a map's static layer is the same at every start (drawing
it is most of the first board of a map after a restart: ~0.3 s for London with its names'
places already kept, `labelcache`), so the bot's processes keep it in the user's cache
(`metrobot.cachefiles`) as PNGs with a little JSON, named by the digest of the layer's key and of
everything it is drawn from: the drawing code (`metrobot/render/`, every file), the fonts, the
packaged maps and Pillow's version. A restarted bot, each shard, its drawing workers and the
web pages read it instead of drawing it.

Only processes that ask keep layers (`keep_between_runs`: the bot, its drawing workers, the
web pages): a test that records what is drawn empties the caches to see it drawn again.
PNG and JSON, not pickle: a cache file is data, and one that does not read is drawn again."""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Hashable
from functools import cache
from pathlib import Path
from typing import Any

import PIL
from PIL import Image

from metrobot.cachefiles import keep, kept

from .png import encode_png

HERE = Path(__file__).parent
MAPS = HERE.parent / "games"  # (every game's packaged maps: *.json under it)
FORMAT = b"layers 1"
KIND = "layers"
_on = False


def keep_between_runs(on: bool = True) -> None:
    """From now on this process keeps the layers it draws, and reads those kept before."""
    global _on
    _on = on


def keeping() -> bool:
    return _on


@cache
def _made_of() -> bytes:
    """The digest of what a layer depends on besides its key."""
    h = hashlib.sha256(FORMAT + PIL.__version__.encode())
    for path in sorted(HERE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            # (the fonts by name and size: hashing their 30 MB would cost more than a layer)
            data = path.read_bytes() if path.suffix in (".py", ".json") else str(path.stat().st_size).encode()
            h.update(str(path.relative_to(HERE)).encode() + b"\0" + data)
    for path in sorted(MAPS.rglob("*.json")):
        h.update(str(path.relative_to(MAPS)).encode() + b"\0" + path.read_bytes())
    return h.digest()


def name_of(kind: str, key: Hashable) -> str | None:
    """The file name of a layer of `kind` (a cache's name) at `key`; None if the key cannot
    name it the same way in every process (an object shown by its address)."""
    shown = repr(key)
    if " at 0x" in shown:
        return None
    return hashlib.sha256(_made_of() + kind.encode() + b"\0" + shown.encode()).hexdigest()[:40] + ".layer"


def pack(meta: Any, images: dict[str, Image.Image]) -> bytes:
    """`meta` (JSON) and `images` (PNGs, fast to write and read: zlib level 1) as one file."""
    blobs = {name: encode_png(image, lossless=True) for name, image in images.items()}
    header = json.dumps({"meta": meta, "images": {n: len(b) for n, b in blobs.items()}}).encode()
    return FORMAT + b"\n" + len(header).to_bytes(4, "big") + header + b"".join(blobs.values())


def unpack(data: bytes) -> tuple[Any, dict[str, Image.Image]]:
    """What `pack` made; ValueError if it is not that (another format, a damaged file)."""
    if not data.startswith(FORMAT + b"\n"):
        raise ValueError("not a kept layer")
    at = len(FORMAT) + 1
    size = int.from_bytes(data[at : at + 4], "big")
    header = json.loads(data[at + 4 : at + 4 + size])
    at += 4 + size
    images = {}
    for name, length in header["images"].items():
        images[name] = png_image(data[at : at + length])
        at += length
    if at != len(data):
        raise ValueError("a kept layer of the wrong length")
    return header["meta"], images


def png_image(data: bytes) -> Image.Image:
    """A kept PNG, read whole; ValueError if it is not one (cut short, damaged, not a PNG)."""
    try:
        image = Image.open(io.BytesIO(data))
        image.load()
    except (OSError, SyntaxError, ValueError) as exc:  # (Pillow's words for a file that is not a whole PNG)
        raise ValueError(f"not a whole PNG: {exc}") from exc
    return image


def read(kind: str, key: Hashable) -> bytes | None:
    """The kept file of a layer, if this process keeps layers and it is there."""
    name = name_of(kind, key) if _on else None
    return kept(f"{KIND}/{kind}", name) if name else None


def write(kind: str, key: Hashable, data: bytes) -> None:
    """Keep a layer (a folder for each kind: a game's own layers, one per game, never push a
    map's out of the cache's bound on files)."""
    name = name_of(kind, key) if _on else None
    if name:
        keep(f"{KIND}/{kind}", name, data)
