"""A small cache of drawn layers (a board's static layer, a map with its station names),
safe across threads, that draws each layer once: a caller wanting a layer that another
thread is drawing waits for it instead of drawing it again. That matters when a worker
draws the static layers ahead in the background (`prewarm`) and the first user's board
wants the same one meanwhile: two drawings at once would each take twice as long."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock
from typing import Generic, TypeVar

T = TypeVar("T")


class Layers(Generic[T]):
    def __init__(self, size: int):
        self.size = size
        self.stats = {"hits": 0, "misses": 0}  # misses: layers drawn
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
            made = draw()
            with self._lock:
                self.stats["misses"] += 1
                self._made[key] = made
                while len(self._made) > self.size:
                    self._made.popitem(last=False)
                self._drawing.pop(key, None)
            return made

    def _hit(self, key: Hashable) -> T:
        self._made.move_to_end(key)
        self.stats["hits"] += 1
        return self._made[key]

    def clear(self) -> None:
        with self._lock:
            self._made.clear()
