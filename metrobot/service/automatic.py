"""The automatic player's moves, worked out away from the event loop (a search may take a
second): in a worker process, from plain data, or in a thread.

Seats of people who left, bots, and — when a turn clock ran out — the seats it ran out
for are played, until a person is owed a decision. Each decision is made once, from the
seat's own view, and its steps are played at once (`autoplay.take_turn`: a strong player
plans a whole turn with one search), exactly as the benchmarks play. Nothing is kept in
memory between requests.

The same situation gets the same moves: the generator is seeded by the game and its
position, and a search is bounded by its work (`AutoPlayer.budget`), with `seconds` as a
cap that only a slow or overloaded machine reaches — then a search is cut short and may
choose differently.
"""

from __future__ import annotations

import random
from typing import Any

from ..games import get_plugin
from ..games.autoplay import take_turn


def play_automatic(
    game_name: str,
    state_json: dict[str, Any],
    gone: list[str],
    forced: list[str],
    seed: str,
    level: str,
    seconds: float,
) -> tuple[dict[str, Any], list[tuple[str, dict, str]], list[dict]]:
    """(new state JSON, actions as (seat, action, "auto"), events)."""
    plugin = get_plugin(game_name)
    game = plugin.game
    state = game.from_json(state_json)
    rnd = random.Random(seed)
    auto = plugin.player(level)
    start_turn = game.turn_number(state)
    actions, events = [], []
    for _ in range(10_000):
        seat = next_automatic(game, state, set(gone), set(forced), start_turn)
        if seat is None:
            break
        state, steps, evs = take_turn(game, auto, state, seat, rnd, seconds)
        actions.extend((seat, action, "auto") for action in steps)
        events.extend(evs)
    return game.to_json(state), actions, events


def next_automatic(game: Any, state: Any, gone: set[str], forced: set[str], start_turn: int) -> str | None:
    """The first seat owed a decision that the automatic player plays (None: a person's turn)."""
    if game.is_over(state):
        return None
    for seat in game.seats(state):
        if seat in game.to_move(state) and (
            game.owner(state, seat) in gone or (seat in forced and game.turn_number(state) == start_turn)
        ):
            return seat
    return None
