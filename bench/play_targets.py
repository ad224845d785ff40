"""Tap targets of the play page (`metrobot.render.board_targets`, issue 44): how long they take, and how
often a tap on the board lands on a spot shared by several steps (where the page's chooser
adds a tap).

(a) On the Underground, London, late in a 5-player seeded game (90 % in), for the seat to
    move: the targets alone (the choices listed and their boxes), and a whole tap as the
    server would answer it: the step applied, the next choices, their boxes and the preview
    image (drawn and PNG-encoded, in this process). Goal: p95 <= 150 ms for the whole tap.
(b) The heaviest list: the first placement of the same game (every gap on the map).
(c) For reference, the other games' targets half way through a seeded game.
(d) Over seeded self-played games of every game, each step the automatic players took: on
    the board alone, on a spot it shares with other steps (a chooser: one tap more), or a
    button beside the board.

Games are reached through the registry only (shared benchmark).
"""

from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from metrobot.games import get_plugin
from metrobot.render import board_targets, render_png

from .timing import measure, summary

LATE = 0.9
SETUPS = {  # game -> (players, options, seeds) for (c) and (d)
    "underground": (5, {"map": "london"}, (7, 8)),
    "metromania": (3, {}, (5, 6)),
    "flipwrite": (3, {"map": "berlin", "special_stations": True}, (3, 4)),
}


def played(game: str, players: int, options: dict[str, Any], seed: int) -> tuple[list, list]:
    """Every state of a seeded self-play and the actions between them."""
    states: list = []
    actions, _ = get_plugin(game).self_play([f"p{i + 1}" for i in range(players)], options, seed, each=states.append)
    return states, actions


def mover(plugin, state) -> str | None:
    moving = sorted(plugin.game.to_move(state))
    return moving[0] if moving else None


def targets(plugin, state, seat: str) -> tuple[list[str], list]:
    codes = [choice.code for choice in plugin.choices(state, seat)]
    _, boxes = board_targets(plugin.game, state, plugin.game.owner(state, seat), codes, seat=seat)
    return codes, boxes


def tap(plugin, state, seat: str, code: str) -> None:
    """What the server does for a tap: apply the step to the composed position, list the next
    steps and their boxes, and draw the preview."""
    after, _ = plugin.game.apply(state, seat, plugin.parse(state, seat, code))
    viewer = plugin.game.owner(state, seat)
    if seat in plugin.game.to_move(after):
        targets(plugin, after, seat)
    render_png(plugin.game, after, viewer)


def cpu(fn: Callable[[], object], runs: int) -> list[float]:
    """CPU milliseconds of `runs` calls (this process's: a loaded machine's other work does
    not count), after one warm-up call."""
    fn()
    samples = []
    gc.disable()
    try:
        for _ in range(runs):
            t0 = time.process_time()
            fn()
            samples.append((time.process_time() - t0) * 1000)
    finally:
        gc.enable()
    return samples


def late_london() -> None:
    plugin = get_plugin("underground")
    states, _ = played("underground", 5, {"map": "london"}, 7)
    state = next(s for s in states[int(len(states) * LATE) :] if mover(plugin, s))
    seat = mover(plugin, state)
    assert seat is not None  # (a position someone moves in)
    codes, boxes = targets(plugin, state, seat)
    placed = [c for c, b in zip(codes, boxes) if b is not None]
    middle = placed[len(placed) // 2] if placed else codes[0]
    render_png(plugin.game, state, plugin.game.owner(state, seat))  # the static layers, as a running bot has
    print(f"(a) London, 5 players, state {states.index(state)} of {len(states)}: {len(codes)} steps, tap {middle}")
    print(summary("    targets (choices + boxes)", measure(lambda: targets(plugin, state, seat), runs=60)))
    print(summary("    the same, CPU time of this process", cpu(lambda: targets(plugin, state, seat), runs=60)))

    def whole() -> None:
        tap(plugin, state, seat, middle)

    print(summary("    a tap: step, next targets, preview PNG", measure(whole, runs=30), "p95 <= 150 ms"))
    print(summary("    the same, CPU time of this process", cpu(whole, runs=30), "p95 <= 150 ms"))
    first = states[0]
    opener = mover(plugin, first)
    assert opener is not None  # (a position someone moves in)
    codes, boxes = targets(plugin, first, opener)
    spots = len({b for b in boxes if b is not None})
    print(f"(b) first placement: {len(codes)} steps on {spots} spots")
    print(summary("    targets (choices + boxes)", measure(lambda: targets(plugin, first, opener), runs=20)))


def other_games() -> None:
    for game in ("metromania", "flipwrite"):
        players, options, seeds = SETUPS[game]
        plugin = get_plugin(game)
        states, _ = played(game, players, options, seeds[0])
        state = next(s for s in states[len(states) // 2 :] if mover(plugin, s))
        seat = mover(plugin, state)
        assert seat is not None  # (a position someone moves in)
        codes, _ = targets(plugin, state, seat)
        samples = measure(lambda p=plugin, s=state, who=seat: targets(p, s, who))
        print(summary(f"(c) {game}: targets of {len(codes)} steps", samples))


def choosers() -> None:
    for game, (players, options, seeds) in SETUPS.items():
        plugin = get_plugin(game)
        kinds: Counter[str] = Counter()
        for seed in seeds:
            states, actions = played(game, players, options, seed)
            for state, entry in zip(states, actions):
                seat = entry["player"]
                code = plugin.code(state, seat, entry["action"])
                codes, boxes = targets(plugin, state, seat)
                box = boxes[codes.index(code)]
                if box is None:
                    kinds["button"] += 1
                else:
                    kinds["chooser" if boxes.count(box) > 1 else "board"] += 1
        total = sum(kinds.values())
        shares = ", ".join(f"{k} {100 * kinds[k] / total:.0f} %" for k in ("board", "chooser", "button"))
        print(f"(d) {game}: {total} steps played: {shares}")


def main() -> None:
    late_london()
    other_games()
    choosers()


if __name__ == "__main__":
    main()
