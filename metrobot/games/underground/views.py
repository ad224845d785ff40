"""What a player sees, and a whole state rebuilt from it for automatic players.

Everything in On the Underground is public except the order of the draw pile and the
generator (which would let anyone compute that order). A view is the canonical JSON with
the draw pile replaced by its size, without seed and rng; players and spectators see the
same. `determinize` turns a view back into a state by shuffling the unseen cards (every
destination not face up and not discarded) with the caller's generator.
"""

from __future__ import annotations

import random
from typing import Any

from ..protocol import BadInput, is_object
from .board import board_named
from .canonical import from_json, to_json
from .state import State


def view(s: State, viewer: str | None) -> dict[str, Any]:
    data = to_json(s)
    data.pop("seed", None)
    data.pop("rng", None)
    deck = data["deck"]
    deck["draw_count"] = len(deck.pop("draw"))
    data["viewer"] = viewer
    return data


def determinize(v: dict[str, Any], rnd: random.Random) -> State:
    if not is_object(v) or not is_object(v.get("deck")):
        raise BadInput("a view must be an On the Underground view (with a deck)")
    board = board_named(v.get("map", ""), v.get("map_digest"))
    deck = v["deck"]
    seen = set(deck.get("row", [])) | set(deck.get("discard", []))
    unseen = [c for c in board.destinations if c not in seen]
    if len(unseen) != deck.get("draw_count", len(unseen)):
        raise BadInput(f"the view's draw pile holds {deck.get('draw_count')} cards but {len(unseen)} are unseen")
    rnd.shuffle(unseen)
    data = {k: val for k, val in v.items() if k != "viewer"}
    data["deck"] = {"draw": unseen, "row": list(deck.get("row", [])), "discard": list(deck.get("discard", []))}
    data["seed"] = 0
    data["rng"] = rnd.getrandbits(64)
    return from_json(data)
