"""The bot end to end, through the local Discord stand-in and the real discord.py client.

The bot runs as it does in production: `python bot.py` in its own process, pointed at the
stand-in (which, with the scripted users, lives in this process).

1. Latency: from sending an interaction to its final response, for a whole turn sent
   as the game's own slash command (or `/play`, for a game without one) that renders
   and posts a board (until both the private answer and the public post with the image
   have arrived), against a no-op command (/game rules) in the same run; medians and p95,
   and the render alone. Target: move <= 3 x no-op + render alone, and far below 3 s.
2. Load: N channels (default 200) playing scripted two-player games at once in the one
   bot process: errors, lost actions (sent vs logged), moves per second.
The game is the registry's first one unless `--game NAME` says (the bot plays every game).

Run: `python -m bench.discord_e2e [--game NAME] [--channels 200] [--turns 4] [--samples 30]`.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

from metrobot.games import GamePlugin, all_plugins, get_game, get_plugin  # noqa: E402
from metrobot.render import render_png  # noqa: E402
from metrobot.storage import Database  # noqa: E402
from tests.e2e.harness import start_bot_process, stop_process  # noqa: E402
from tests.e2e.players import Table  # noqa: E402
from tests.e2e.standin import DiscordStandIn  # noqa: E402

from .timing import summary  # noqa: E402


def command_of(plugin: GamePlugin) -> str:
    """The slash command a turn is sent with: the game's own first command, else /play."""
    return plugin.commands[0].name if plugin.commands else "play"


async def planned_turn(table: Table, user: int, plugin: GamePlugin) -> dict[str, str]:
    """A turn's options for the game's command, each picked among its suggestions (empty:
    the command's first option has none now, e.g. only another kind of move is legal)."""
    steps: dict[str, str] = {}
    names = [o.name for o in plugin.commands[0].options] if plugin.commands else ["move"]
    for name in names:
        options = await table.choices(user, command_of(plugin), steps, name)
        if not options:
            break
        steps[name] = table.rnd.choice(options)["value"]
    return steps


async def latency(s: DiscordStandIn, db_path: str, samples: int, plugin: GamePlugin) -> None:
    ann, bob = s.add_member(name="Ann"), s.add_member(name="Bob")
    noop: list[float] = []
    moved: list[float] = []
    render: list[float] = []
    channel_no = 0
    simultaneous = plugin.game.simultaneous
    while len(moved) < samples:
        channel_no += 1
        channel = s.create_channel(f"latency-{channel_no}")
        table = Table(s, channel, db_path, seed=channel_no)
        await table.open(ann, plugin.name, [bob], players=2)
        while len(moved) < samples:
            owed = await table.owed()
            if not owed:
                break
            user = owed[0]
            t0 = time.perf_counter()
            h = await s.slash(user, channel, "game rules")
            await h.wait_message()
            noop.append((time.perf_counter() - t0) * 1000)
            steps = await planned_turn(table, user, plugin)
            if not steps:
                await table.play_by_command(user)  # another kind of move: not what is measured
                continue
            seen = len(s.messages(channel))
            t0 = time.perf_counter()
            h = await s.slash(user, channel, command_of(plugin), steps)
            await h.wait_message()
            # (a simultaneous round posts its board after the last decision; before that, a line)
            await s.wait_for_message(
                channel,
                lambda m: bool(
                    (m.attachments or simultaneous)
                    and len(s.messages(channel)) > seen  # noqa: B023 - used within this iteration
                    and m.id == s.messages(channel)[-1].id  # noqa: B023 - used within this iteration
                ),
            )
            moved.append((time.perf_counter() - t0) * 1000)
            row = await table.row()
            assert row is not None
            game = get_game(row.game)
            state = game.from_json(row.state)
            t0 = time.perf_counter()
            render_png(game, state, None, row.names)
            render.append((time.perf_counter() - t0) * 1000)
    print(summary("no-op command (/game rules), end to end", noop))
    command = command_of(plugin)
    print(summary(f"/{command} that renders and posts the board, end to end", moved))
    print(summary("render + encode of that board alone", render))
    bound = 3 * statistics.median(noop) + statistics.median(render)
    print(
        f"{'target: move median <= 3 x no-op + render':<48} {statistics.median(moved):8.1f} ms <= {bound:.1f} ms: "
        f"{'met' if statistics.median(moved) <= bound else 'NOT met'}; slowest move {max(moved):.0f} ms (< 3000)"
    )


async def load(s: DiscordStandIn, db_path: str, channels: int, turns: int, plugin: GamePlugin) -> None:
    errors: list[str] = []

    game_ids: list[int] = []

    async def one(i: int) -> int:
        a, b = s.add_member(name=f"A{i}"), s.add_member(name=f"B{i}")
        channel = s.create_channel(f"load-{i}")
        table = Table(s, channel, db_path, seed=i)
        await table.open(a, plugin.name, [b], players=2)
        row = await table.row()
        assert row is not None
        game_ids.append(row.id)
        played = 0
        for _ in range(turns):
            owed = await table.owed()
            if not owed:
                break
            user = owed[0]
            steps = await planned_turn(table, user, plugin)
            if not steps:
                reply = await table.play_by_command(user)
                played += 1
            else:
                h = await s.slash(user, channel, command_of(plugin), steps)
                reply = await h.wait_message()
                played += len(steps)
            if not reply.content.startswith(("Done", "Saved")):
                errors.append(f"channel {i}: {reply.content[:120]}")
        return played

    t0 = time.perf_counter()
    counts = await asyncio.gather(*(one(i) for i in range(channels)), return_exceptions=True)
    elapsed = time.perf_counter() - t0
    failures = [c for c in counts if isinstance(c, BaseException)]
    sent_moves = sum(c for c in counts if isinstance(c, int))
    logged = 0
    db = await Database(db_path).open()
    for game_id in game_ids:
        logged += sum(1 for a in await db.actions(game_id) if a["actor"] != "auto")
    await db.close()
    turns_played = channels * turns
    print(
        f"load: {channels} channels x {turns} turns at once, one bot process: {elapsed:.1f} s in all "
        f"(incl. lobbies and starts)"
    )
    print(
        f"  moves sent {sent_moves}, actions logged {logged} "
        f"({'none lost' if logged >= sent_moves else 'LOST ' + str(sent_moves - logged)}), "
        f"task failures {len(failures)}, refused replies {len(errors)}"
    )
    print(f"  {turns_played / elapsed:.1f} turns/s, {sent_moves / elapsed:.1f} moves/s")
    for f in failures[:3]:
        print("  failure:", repr(f)[:200])
    for e in errors[:3]:
        print("  refused:", e)


async def run(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.WARNING)
    s = DiscordStandIn(default_timeout=120, session_timeout=120)
    await s.start()
    tmp = Path(tempfile.mkdtemp(prefix="metrobot-bench-"))
    db_path = str(tmp / "bench.sqlite3")
    log_path = tmp / "bot.log"
    plugin = get_plugin(args.game)
    proc = start_bot_process(s, db_path, tick=5, log_path=str(log_path))
    try:
        await s.wait_for_identify(1, timeout=60)
        await s.wait_for_commands("game", command_of(plugin), timeout=60)
        print(f"{plugin.title}, two players a table")
        if args.samples:
            await latency(s, db_path, args.samples, plugin)
        if args.channels:
            await load(s, db_path, args.channels, args.turns, plugin)
    finally:
        await stop_process(proc)
        await s.stop()
    text = log_path.read_text(errors="replace")
    print(
        f"bot log: {text.count(' ERROR ')} errors, {text.count('Traceback')} tracebacks; "
        f"stand-in problems: {len(s.problems())}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--game", default=all_plugins()[0].name)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--turns", type=int, default=4)
    asyncio.run(run(parser.parse_args(argv if argv is not None else [])))


if __name__ == "__main__":
    main(sys.argv[1:])
