"""A small cache of drawn layers (a board's static layer, a map with its station names),
safe across threads, that draws each layer once: a caller wanting a layer that another
thread is drawing waits for it instead of drawing it again. That matters when a worker
draws the static layers ahead in the background (`prewarm`) and the first user's board
wants the same one meanwhile: two drawings at once would each take twice as long.

A cache given a `kept` codec (a name, and how to turn a layer into bytes and back) also keeps
its layers between runs, in processes that keep layers (`keptlayers`): a layer not in memory
is read back from there before it is drawn, and one drawn is kept there."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from threading import Lock
from typing import Generic, TypeVar

from . import keptlayers

T = TypeVar("T")


@dataclass(frozen=True)
class Kept(Generic[T]):
    """How a cache's layers are kept between runs: `name` (the cache's, in file names),
    `pack` (a layer as bytes) and `unpack` (key, bytes -> the layer; ValueError if they do
    not make one: it is drawn again)."""

    name: str
    pack: Callable[[T], bytes]
    unpack: Callable[[Hashable, bytes], T]


class Layers(Generic[T]):
    def __init__(self, size: int, kept: Kept[T] | None = None):
        self.size = size
        self.kept = kept
        self.stats = {"hits": 0, "misses": 0}  # misses: layers not in memory (drawn, or read back)
        self._made: OrderedDict[Hashable, T] = OrderedDict()
        self._drawing: dict[Hashable, Lock] = {}
        self._lock = Lock()

    def get(self, key: Hashable, draw: Callable[[], T]) -> T:
        """The layer of `key`, drawn by `draw()` unless cached or being drawn."""
        with self._lock:
            if key in self._made:
                return self._hit(key)
            drawing = self._drawing.setdefault(key, Lock())
        with drawing:
            with self._lock:
                if key in self._made:  # drawn by another thread while this one waited
                    return self._hit(key)
            made = self._read_back(key)
            if made is None:
                made = draw()
                self._keep(key, made)
            with self._lock:
                self.stats["misses"] += 1
                self._made[key] = made
                while len(self._made) > self.size:
                    self._made.popitem(last=False)
                self._drawing.pop(key, None)
            return made

    def _read_back(self, key: Hashable) -> T | None:
        if self.kept is None:
            return None
        data = keptlayers.read(self.kept.name, key)
        if data is None:
            return None
        try:
            return self.kept.unpack(key, data)
        except (ValueError, KeyError, TypeError):  # (a damaged or foreign file: drawn, kept again)
            return None

    def _keep(self, key: Hashable, made: T) -> None:
        if self.kept is not None and keptlayers.keeping():
            keptlayers.write(self.kept.name, key, self.kept.pack(made))

    def _hit(self, key: Hashable) -> T:
        self._made.move_to_end(key)
        self.stats["hits"] += 1
        return self._made[key]

    def clear(self) -> None:
        with self._lock:
            self._made.clear()
