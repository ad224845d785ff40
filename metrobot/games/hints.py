"""Hints: what the greedy automatic player would do in the requester's seat, and what it scores.

A hint is computed from the requester's own view and nothing else: the view is turned into a
whole state by `Game.determinize` (hidden parts drawn at random among those the view
allows), the steps already chosen in the composer are applied, and the greedy player plans
from the view after them. The generator is seeded by public facts only (the game, its
position, the seat, the steps so far), never by the game's own seed, so two games that look
the same from the seat get the same hint (the secrecy suite checks it with twin states).
"""

from __future__ import annotations

import random
from typing import Any

from . import get_plugin
from .autoplay import DEFAULT_LEVEL, play_steps

HINT_SECONDS = 1.0  # a greedy decision takes milliseconds; the budget is only a cap


def requester_view(game: Any, state: Any, seat: str) -> tuple[dict[str, Any], str]:
    """(the view of the person playing `seat`, that person): all a hint may know of `state`."""
    viewer = game.owner(state, seat)
    return game.view(state, viewer), viewer


def suggest(
    game_name: str, view: dict[str, Any], viewer: str, seat: str, prefix: list[str], key: str
) -> dict[str, Any]:
    """The greedy player's next steps after `prefix` for `seat`, from `view` (= the game's view
    for `viewer`), as plain data (it runs in a worker): {"steps": step codes as the composer and
    /play take them, "scores_now": what the requester's total changes by once they are played (0
    where a game scores later, e.g. at a round's end), "total": the total after them}."""
    plugin = get_plugin(game_name)
    game = plugin.game
    # The same whole state for every call on this position (whatever the steps so far), so
    # that steps suggested by one call are legal in the next one's.
    state = game.determinize(view, viewer, random.Random(f"hint:{key}:{seat}"))
    rnd = random.Random(f"hint:{key}:{seat}:{'|'.join(prefix)}")
    turn = game.turn_number(state)
    for code in prefix:
        state, _ = game.apply(state, seat, plugin.parse(state, seat, code))
    before = _score(game, state, viewer, seat)
    # The steps so far end the turn (or seal the round's decision): what follows depends on
    # what the requester cannot see yet (the next card, the others' sealed choices).
    if game.is_over(state) or seat not in game.to_move(state) or game.turn_number(state) != turn:
        return {"steps": [], "scores_now": 0, "total": before}
    auto = plugin.player(DEFAULT_LEVEL)
    planned = auto.plan(game, game.view(state, viewer), viewer, seat, rnd, auto.budget(HINT_SECONDS))
    after, played, _ = play_steps(game, state, seat, planned)
    codes: list[str] = []
    replay = state
    for action in played:  # (a step's code is written from the position before it)
        codes.append(plugin.code(replay, seat, action))
        replay, _ = game.apply(replay, seat, action)
    total = _score(game, after, viewer, seat)
    return {"steps": codes, "scores_now": total - before, "total": total}


def _score(game: Any, state: Any, viewer: str, seat: str) -> int:
    return int(game.view(state, viewer).get("scores", {}).get(seat, 0) or 0)
