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
choose differently. Not in the daily challenge (`work_only`, issue 72): its opponent must
answer the same moves the same way for everyone, on any machine under any load, so its search
is bounded by its work alone — `DAILY_SECONDS`' worth at the player's `work_rate`, whatever
`METROBOT_AI_SECONDS` says — read on a clock that never moves (`no_clock`), so no deadline
ever cuts it. It may take longer on a loaded machine; it never plays differently.
"""

from __future__ import annotations

import random
from typing import Any

from ..games import get_plugin
from ..games.autoplay import AutoPlayer, Budget, take_turn

DAILY_SECONDS = 1.0  # the daily opponent's work: what a second buys on the reference machine


def no_clock() -> float:
    """A clock that never moves: a budget read on it is bounded by its work alone."""
    return 0.0


def work_only(auto: AutoPlayer, seconds: float) -> Budget | None:
    """`seconds`' worth of work and no wall-clock cap (None: the player does not search, and
    its own budget already depends on nothing but the view)."""
    if auto.work_rate is None:
        return None
    return Budget(seconds, max(1, round(auto.work_rate * seconds)), no_clock)


def play_automatic(
    game_name: str,
    state_json: dict[str, Any],
    gone: list[str],
    forced: list[str],
    seed: str,
    level: str,
    seconds: float,
    work_bound: bool = False,
) -> tuple[dict[str, Any], list[tuple[str, dict, str]], list[dict]]:
    """(new state JSON, actions as (seat, action, "auto"), events). `work_bound`: the search
    is bounded by its work alone, never by a clock (the daily challenge's opponent)."""
    plugin = get_plugin(game_name)
    game = plugin.game
    state = game.from_json(state_json)
    rnd = random.Random(seed)
    auto = plugin.player(level)
    budget = work_only(auto, seconds) if work_bound else None
    start_turn = game.turn_number(state)
    actions, events = [], []
    for _ in range(10_000):
        seat = next_automatic(game, state, set(gone), set(forced), start_turn)
        if seat is None:
            break
        state, steps, evs = take_turn(game, auto, state, seat, rnd, seconds, budget)
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
