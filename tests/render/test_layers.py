"""A layer asked for by two threads at once is drawn once: the second waits for the first
(a worker drawing ahead and a user's first board want the same layer)."""

import contextlib
import threading

from metrobot.render.layers import Layers


def test_a_layer_being_drawn_is_waited_for_not_drawn_again():
    layers: Layers[object] = Layers(2)
    started, release, drawn = threading.Event(), threading.Event(), []

    def draw():
        drawn.append(threading.current_thread().name)
        started.set()
        release.wait(5)
        return object()

    got = {}
    first = threading.Thread(target=lambda: got.update(first=layers.get("london", draw)), name="ahead")
    first.start()
    assert started.wait(5)
    second = threading.Thread(target=lambda: got.update(second=layers.get("london", draw)), name="board")
    second.start()
    second.join(0.2)
    assert second.is_alive()  # waiting for the drawing under way, not drawing its own
    release.set()
    first.join(5)
    second.join(5)
    assert drawn == ["ahead"] and got["first"] is got["second"]
    assert layers.stats == {"hits": 1, "misses": 1}


def test_the_oldest_layer_goes_first_and_a_failed_drawing_is_tried_again():
    layers: Layers[str] = Layers(2)
    for key in ("a", "b", "c"):
        layers.get(key, lambda key=key: key.upper())
    assert layers.get("a", lambda: "again") == "again"  # "a" had gone: drawn anew
    assert layers.get("c", lambda: "not drawn") == "C"

    def fail():
        raise ValueError("no")

    with contextlib.suppress(ValueError):
        layers.get("d", fail)
    assert layers.get("d", lambda: "D") == "D"
