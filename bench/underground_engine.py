"""On the Underground engine speed on the London board: move generation, one placement,
the passenger's route search, and a greedy decision, all late in a 4-player game; then
what the tests and the bot spend most on: a strong decision (a fixed work budget, early
in the game) and a whole greedy 4-player self-play game. CPU time of this process (the
machine is shared), medians.

Targets on the 2-core CI machine: move generation and apply <= 1 ms median, route search
(both legs, from scratch) <= 20 ms, a greedy decision (incl. rebuilding the state from the
view) <= 50 ms.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from metrobot.gamelog import self_play
from metrobot.games.autoplay import Budget
from metrobot.games.underground import GAME, passenger
from metrobot.games.underground.ai import GreedyPlayer, player_for

from . import timing
from .timing import summary


def measure(fn: Callable[[], object], *, runs: int = 50, warmup: int = 3) -> list[float]:
    """CPU milliseconds of this process for `runs` calls (after `warmup`), collector paused."""
    return timing.measure(fn, runs=runs, warmup=warmup, clock=time.process_time)


def late_position(seed: int = 7, fraction: float = 0.85):
    """A state most of the way through a seeded 4-player self-play game, at a turn's start."""
    log, _ = self_play(GAME, ["p1", "p2", "p3", "p4"], {"map": "london"}, seed)
    state = GAME.new_game(log.players, log.options, log.seed)
    cut = int(len(log.actions) * fraction)
    for i, entry in enumerate(log.actions):
        if i >= cut and state.turn.step == 0 and state.turn.pending is None:
            break
        state, _ = GAME.apply(state, entry["player"], entry["action"])
    return state


def main() -> None:
    state = late_position()
    player = state.player
    actions = GAME.legal_actions(state, player)
    places = [a for a in actions if a["type"] == "place"]
    pieces = sum(len(c.track) for c in state.colours.values())
    print(
        f"late 4-player London position: {pieces} pieces, {len(state.discard)} cards visited, "
        f"{len(actions)} legal actions for {player}"
    )
    print(
        summary(
            "legal-move generation (all steps of a seat)",
            measure(lambda: GAME.legal_actions(state, player), runs=200),
            "<= 1 ms",
        )
    )
    rnd = random.Random(1)
    print(
        summary(
            "apply one placement", measure(lambda: GAME.apply(state, player, rnd.choice(places)), runs=200), "<= 1 ms"
        )
    )

    def routes():
        passenger._CACHE.clear()
        passenger._NETS.clear()
        passenger._RIDES.clear()
        passenger.options(state, "express")
        passenger.options(state, "standard")

    print(summary("passenger route search, both legs, no cache", measure(routes, runs=100), "<= 20 ms"))

    def whole_turn():
        s = state
        while s.player == player and not GAME.is_over(s):
            s, _ = GAME.apply(s, player, GAME.legal_actions(s, player)[0])

    print(summary("a whole turn (4 steps + passenger) incl. moves", measure(whole_turn, runs=50)))

    greedy = GreedyPlayer()
    view = GAME.view(state, player)
    print(
        summary(
            "greedy decision from the view (determinize)",
            measure(lambda: greedy.choose(GAME, view, player, player, rnd), runs=50),
            "<= 50 ms",
        )
    )

    strong = player_for("strong")
    early = late_position(fraction=0.3)
    seat = early.player
    early_view = GAME.view(early, seat)
    budget = Budget(seconds=1e5, iterations=800)  # bounded by work: the same search on any machine
    print(
        summary(
            "strong decision, 800 iterations, early",
            measure(lambda: strong.choose(GAME, early_view, seat, seat, random.Random(3), budget), runs=5, warmup=1),
        )
    )
    seeds = iter(range(100, 10_000))
    print(
        summary(
            "a greedy 4-player self-play game",
            measure(
                lambda: self_play(GAME, ["p1", "p2", "p3", "p4"], {"map": "london"}, next(seeds)), runs=5, warmup=1
            ),
        )
    )


if __name__ == "__main__":
    main()
