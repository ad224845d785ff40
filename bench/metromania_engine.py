"""MetrOmania engine speed: move generation, applying a dig, the scoring phase, and the
CPU of what the automatic players do with them (a greedy self-play game, a strong player's
decision at a fixed amount of work, loading a state as each decision does).

Targets on the 2-core CI machine: move generation and apply <= 1 ms median, scoring of a
finished 4-player game <= 20 ms. The CPU figures (this process's, so that other work on a
shared machine does not count) are for comparing two versions of the code in the same run.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from metrobot.gamelog import self_play
from metrobot.games.autoplay import Budget
from metrobot.games.metromania import GAME
from metrobot.games.metromania.ai.strong import StrongPlayer
from metrobot.games.metromania.scoring import score

from .timing import measure, summary


def mid_game_position(seed: int = 7):
    """The state halfway through a seeded 4-player self-play game, at the start of a turn."""
    log, _ = self_play(GAME, ["p1", "p2", "p3", "p4"], {}, seed)
    state = GAME.new_game(log.players, log.options, log.seed)
    half = len(log.actions) // 2
    for entry in log.actions[:half]:
        state, _ = GAME.apply(state, entry["player"], entry["action"])
    while state.turn.tunnels:  # move on to the start of a turn
        entry = log.actions[half]
        state, _ = GAME.apply(state, entry["player"], entry["action"])
        half += 1
    return state


def cpu_ms(fn: Callable[[], object], runs: int) -> float:
    """Median CPU milliseconds of this process for one call, after a warm-up call."""
    return statistics.median(measure(fn, runs=runs, warmup=1, clock=time.process_time))


def cpu_figures() -> dict[str, float]:
    """CPU medians of the engine's and the automatic players' work, mid-game and whole games."""
    state = mid_game_position()
    player = state.players[state.current]
    digs = [a for a in GAME.legal_actions(state, player) if a["type"] == "tunnel"]
    rnd = random.Random(1)
    data = GAME.to_json(state)
    view = GAME.view(state, player)
    strong = StrongPlayer()
    return {
        "legal-move generation": cpu_ms(lambda: GAME.legal_actions(state, player), 300),
        "apply one dig step": cpu_ms(lambda: GAME.apply(state, player, rnd.choice(digs)), 300),
        "load a state (from_json)": cpu_ms(lambda: GAME.from_json(data), 200),
        "greedy self-play, 4 players, seed 11": cpu_ms(lambda: self_play(GAME, ["p1", "p2", "p3", "p4"], {}, 11), 3),
        "strong decision, 300 steps of work": cpu_ms(
            lambda: strong.plan(GAME, view, player, player, random.Random(5), Budget(seconds=1000, iterations=300)), 3
        ),
    }


def main() -> None:
    state = mid_game_position()
    player = state.players[state.current]
    actions = GAME.legal_actions(state, player)
    digs = [a for a in actions if a["type"] == "tunnel"]
    print(
        f"mid-game position: {len(state.stations)} stations, {sum(len(l.cells) for l in state.lines)} tunnels, "
        f"{len(actions)} legal actions for {player}"
    )
    print(
        summary(
            "legal-move generation (all actions of a seat)",
            measure(lambda: GAME.legal_actions(state, player), runs=200),
            "<= 1 ms",
        )
    )
    rnd = random.Random(1)
    print(
        summary(
            "apply one dig step (tunnel)",
            measure(lambda: GAME.apply(state, player, rnd.choice(digs)), runs=200),
            "<= 1 ms",
        )
    )

    def whole_dig():
        s = state
        while s.players[s.current] == player and s.turn.tunnels < 3:
            options = [a for a in GAME.legal_actions(s, player) if a["type"] == "tunnel"]
            if not options:
                break
            s, _ = GAME.apply(s, player, options[0])

    print(summary("a whole 3-tunnel dig turn incl. move generation", measure(whole_dig, runs=100)))

    _, finished = self_play(GAME, ["p1", "p2", "p3", "p4"], {}, 11)
    print(f"finished 4-player game: {len(finished.stations)} stations")
    print(summary("scoring phase (6 trips + park-lake, winner)", measure(lambda: score(finished), runs=50), "<= 20 ms"))
    for name, ms in cpu_figures().items():
        print(f"CPU {name:<44} median {ms:8.3f} ms")


if __name__ == "__main__":
    main()
