"""The play page (issue 44): the server's time for a tap, and taps per turn, board against composer.

(a) A tap, as the service answers it: `Play.compose` (the composer's menu after one more step,
    the steps' words, the preview picture and the next targets drawn in one call to the
    drawing workers — worker processes, as in the bot — and kept for the page), on London late
    in a 5-player seeded game (90 % in), for the person to move. Wall time, p50/p95; goal
    p95 <= 150 ms. The same through the page's HTTP route (aiohttp, on this machine).
(b) Taps per turn over the same seeded games of every game (the greedy players' turns):
    the composer's (▶ Play, one pick per menu level down to each step, ✔ Confirm) against the
    board's (one tap a step, one more where the step shares its spot with another — the
    chooser — and ✔ Confirm; the page stays open between turns, and pinching or panning the
    board is not a tap). Goal: one tap a step plus ✔ Confirm, never more than the composer.

Games are reached through the registry only (shared benchmark).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Iterator
from typing import Any

from metrobot.discord_app.composer import MAX_OPTIONS
from metrobot.games import get_plugin
from metrobot.i18n import lang
from metrobot.turns import menutree

LATE = 0.9
SEEDS = (7, 8, 9)
SETUPS = {  # game -> (players, options)
    "underground": (5, {"map": "london"}),
    "metromania": (3, {}),
    "flipwrite": (3, {"map": "berlin"}),
}


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


# ---------------------------------------------------------------- (a) a tap on the server
async def late_london_game(service: Any) -> Any:
    """A 5-player London game 90 % into a seeded self-play of the greedy players, stored as the
    service stores a running game (five people, Discord-like ids)."""
    from metrobot.storage import Seat

    plugin = get_plugin("underground")
    people = [f"86000000000000000{i}" for i in range(1, 6)]
    states: list[Any] = []
    plugin.self_play(people, {"map": "london"}, 7, each=states.append)
    state = next(s for s in states[int(len(states) * LATE) :] if plugin.game.to_move(s))
    db = service.db
    row = await db.create_game(
        channel_id="960000000000000001",
        guild_id="760000000000000001",
        game="underground",
        host=Seat(people[0], "P1"),
        options={"map": "london"},
        seed=7,
        max_seats=5,
        turn_clock=86400,
    )
    waiting = sorted({plugin.game.owner(state, s) for s in plugin.game.to_move(state)})
    await db.update(
        row,
        status="active",
        seats=[Seat(p, f"P{i}") for i, p in enumerate(people, 1)],
        state=plugin.game.to_json(state),
        waiting=waiting,
    )
    return await db.game(row.id)


async def tap_times(runs: int) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    from metrobot.app import build
    from metrobot.play import Pass, Play, access
    from metrobot.storage import Database
    from metrobot.web import make_app

    db = await Database(":memory:").open()
    app = build(db, images=False, render_workers=2)  # (as the pages are served)
    service = app.service
    service.web_base = "http://127.0.0.1"
    try:
        row = await late_london_game(service)
        service.images = True
        service.painter.start(warm=("underground",))
        play = Play(service)
        user = row.waiting[0]
        seat, en = Pass(row.id, user), lang("en")
        first = await play.compose(seat, row, en)
        placed = [t.code for t in first.targets if t.box is not None]
        code = placed[len(placed) // 2]
        print(f"(a) London, 5 players, late (90 % in): {len(first.targets)} steps, a tap on {code}")
        for _ in range(3):  # (the workers start and draw the map's static layers)
            await play.compose(seat, row, en, moves=row.moves, steps=[code])
        samples = []
        for _ in range(runs):
            t0 = time.perf_counter()
            await play.compose(seat, row, en, moves=row.moves, steps=[code])
            samples.append((time.perf_counter() - t0) * 1000)
        print(
            f"    Play.compose (menu, words, preview + targets in one worker call): median "
            f"{statistics.median(samples):.1f} ms, p95 {percentile(samples, 0.95):.1f} ms, n={runs}   goal p95 <= 150 ms"
        )
        async with TestClient(TestServer(make_app(service, tournaments=app.tournaments))) as client:
            path = await access.path(service, row, user)
            token = await access.token(service, row, user)
            body = {"moves": row.moves, "steps": [code]}
            over_http = []
            for i in range(runs + 3):
                t0 = time.perf_counter()
                answer = await client.post(path + "compose", json=body, headers={"X-Play-Token": token})
                await answer.read()
                assert answer.status == 200, answer.status
                if i >= 3:
                    over_http.append((time.perf_counter() - t0) * 1000)
            print(
                f"    POST compose over HTTP: median {statistics.median(over_http):.1f} ms, "
                f"p95 {percentile(over_http, 0.95):.1f} ms, n={runs}"
            )
    finally:
        service.painter.close()
        await db.close()


# ---------------------------------------------------------------- (b) taps per turn
def turns(game: str, players: int, options: dict[str, Any], seed: int) -> Iterator[list[tuple[Any, str, str]]]:
    """Each decision of the seeded greedy game: its steps as (state before, seat, code)."""
    plugin = get_plugin(game)
    states: list[Any] = []
    actions, _ = plugin.self_play([f"p{i + 1}" for i in range(players)], options, seed, each=states.append)
    run: list[tuple[Any, str, str]] = []
    for state, entry in zip(states, actions):
        seat = entry["player"]
        if run and (run[-1][1] != seat or plugin.game.turn_number(run[-1][0]) != plugin.game.turn_number(state)):
            yield run
            run = []
        run.append((state, seat, plugin.code(state, seat, entry["action"])))
    if run:
        yield run


def composer_picks(plugin: Any, state: Any, seat: str, code: str) -> int:
    """The composer's menu picks down to a step: one a level of groups, one for the step."""
    choices = plugin.choices(state, seat, lang("en"))
    entries = plugin.menu(state, seat, choices, lang("en"))
    node = menutree.build([c for _, c in entries], [p for p, _ in entries], MAX_OPTIONS)
    picks = 1
    while not any(c.code == code for c in node.leaves):
        node = next(g for g in node.groups if any(c.code == code for _, n in menutree.walk(g) for c in n.leaves))
        picks += 1
    return picks


def board_taps(plugin: Any, state: Any, seat: str, code: str) -> tuple[int, bool]:
    """The board's taps for a step (and whether its chooser added one)."""
    from metrobot.render import board_targets

    codes = [c.code for c in plugin.choices(state, seat)]
    _, boxes = board_targets(plugin.game, state, plugin.game.owner(state, seat), codes, seat=seat)
    box = boxes[codes.index(code)]
    shared = box is not None and boxes.count(box) > 1
    return 1 + shared, shared


def taps_per_turn() -> None:
    for game, (players, options) in SETUPS.items():
        plugin = get_plugin(game)
        composer, board, steps_of, choosers, steps = [], [], [], 0, 0
        for seed in SEEDS:
            for run in turns(game, players, options, seed):
                picks = sum(composer_picks(plugin, s, seat, code) for s, seat, code in run)
                taps = [board_taps(plugin, s, seat, code) for s, seat, code in run]
                composer.append(1 + picks + 1)  # ▶ Play, the picks, ✔ Confirm
                board.append(sum(t for t, _ in taps) + 1)  # the taps, ✔ Confirm
                steps_of.append(len(run))
                choosers += sum(shared for _, shared in taps)
                steps += len(run)
        more = sum(b > c for b, c in zip(board, composer))
        extra = sum(b - (n + 1) for b, n in zip(board, steps_of))
        print(
            f"(b) {game}: {len(board)} turns, {steps} steps. Taps a turn, median (p90): composer "
            f"{statistics.median(composer):g} ({percentile(composer, 0.9):g}), board "
            f"{statistics.median(board):g} ({percentile(board, 0.9):g}); board turns over one tap a step + "
            f"Confirm: {sum(b > n + 1 for b, n in zip(board, steps_of))} ({extra} taps, all choosers: "
            f"{choosers} of {steps} steps = {100 * choosers / steps:.1f} %); turns where the board took more "
            f"taps than the composer: {more}"
        )


def main() -> None:
    asyncio.run(tap_times(runs=40))
    taps_per_turn()


if __name__ == "__main__":
    main()
