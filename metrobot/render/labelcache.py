"""Station names placed once, kept between runs: `place_labels` searches for the best spot of
every name of a map (most of the time of drawing a map's static layer: a second or more for
London), and its answer is the same at every start. So the answer is kept in the user's cache
(`metrobot.cachefiles`), named by the digest of the search's inputs and of what the search is made
of: the shared drawing code (`metrobot/render/*.py`), the fonts (names and sizes) and Pillow's version.
A restarted bot, each shard, and every test process that draws the map read it instead.

JSON, not pickle: a cache file is data, and one that does not read as labels is placed again."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict
from functools import cache, wraps
from pathlib import Path
from typing import Any, ParamSpec

import PIL

from metrobot.cachefiles import keep, kept

from .labelspots import Label

P = ParamSpec("P")
HERE = Path(__file__).parent
FORMAT = b"labels 1"
KEEP = True  # False: always searched (the benchmarks of drawing a new map's layer)


@cache
def _made_of() -> bytes:
    """The digest of what the placement depends on besides its arguments."""
    h = hashlib.sha256(FORMAT + PIL.__version__.encode())
    for path in sorted(HERE.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    for path in sorted((HERE / "fonts").iterdir()):
        h.update(f"{path.name}\0{path.stat().st_size}".encode())
    return h.digest()


def kept_between_runs(search: Callable[P, list[Label]]) -> Callable[P, list[Label]]:
    """`search` (the placement) answered from the cache when it can, kept when it cannot: its
    arguments, as JSON, name the answer. A search asked to explain itself is always made."""

    @wraps(search)
    def kept_or_searched(*args: P.args, **kwargs: P.kwargs) -> list[Label]:
        if not KEEP or kwargs.get("explain") is not None:
            return search(*args, **kwargs)
        try:
            inputs = json.dumps([args, sorted(kwargs.items())], sort_keys=True).encode()
        except (TypeError, ValueError):  # (arguments that are not plain data: nothing to name them by)
            return search(*args, **kwargs)
        name = hashlib.sha256(_made_of() + inputs).hexdigest()[:32] + ".json"
        data = kept("labels", name)
        if data is not None:
            try:
                return [label_from(x) for x in json.loads(data)]
            except (ValueError, KeyError, TypeError):  # (a damaged file: searched again, kept again)
                pass
        labels = search(*args, **kwargs)
        keep("labels", name, json.dumps([asdict(label) for label in labels]).encode())
        return labels

    return kept_or_searched


def label_from(x: dict[str, Any]) -> Label:
    """A label read back from its JSON (`asdict`)."""
    return Label(
        sid=x["sid"],
        lines=tuple(x["lines"]),
        rect=tuple(x["rect"]),
        align=x["align"],
        size=x["size"],
        angle=x["angle"],
        centre=tuple(x["centre"]),
        boxes=tuple(tuple(b) for b in x["boxes"]),
    )
