"""Past one machine: two `python bot.py` processes run different shards of one bot (as
Discord hands each guild to one shard) on one PostgreSQL database. Games in guilds on both
shards are played at once; one process is killed with SIGKILL mid-game and restarted; no
move is lost or applied twice, and a turn clock fires exactly once per expiry (both
processes watch every clock)."""
from __future__ import annotations

import asyncio
import collections
import os
import signal
import time

import pytest

from harness import start_bot_process, stop_process
from players import Table

from metrobot.gamelog import GameLog
from metrobot.games import get_game
from metrobot.storage import Database

pytestmark = pytest.mark.timeout(300)


def guild_on_shard(standin, shard: int, count: int = 2) -> int:
    while True:
        guild = standin.add_guild(f"Guild for shard {shard}")
        if (guild >> 22) % count == shard:
            return guild


async def rows(url: str):
    db = await Database(url).open()
    try:
        async with db.driver.read() as q:
            ids = [r[0] for r in await q.fetch("SELECT id FROM games ORDER BY id")]
        return [(await db.game(i), await db.actions(i)) for i in ids]
    finally:
        await db.close()


async def test_two_shard_processes_one_database(standin, pg_server, tmp_path):
    url = pg_server.url("sharded")
    guilds = [guild_on_shard(standin, 0), guild_on_shard(standin, 1)]

    def start(shard: int):
        return start_bot_process(standin, str(tmp_path / "unused.sqlite3"), tick=0.2,
                                 log_path=str(tmp_path / f"shard{shard}.log"),
                                 env={"METROBOT_DATABASE_URL": url, "METROBOT_SHARD_COUNT": "2",
                                      "METROBOT_SHARD_IDS": str(shard), "METROBOT_RENDER_WORKERS": "1"})
    procs = {0: start(0), 1: start(1)}
    try:
        await standin.wait_for_identify(2, timeout=90)
        await standin.wait_for_commands("game", "dig")
        tables, clock_tables, kinds = [], [], {}
        for shard, guild in enumerate(guilds):
            ann = standin.add_member(name=f"Ann{shard}", guild_id=guild)
            bob = standin.add_member(name=f"Bob{shard}", guild_id=guild)
            for kind in ("metromania", "flipwrite"):
                table = Table(standin, standin.create_channel(f"{kind}-{shard}", guild_id=guild), url, seed=shard)
                options = {"city": "madrid"} if kind == "flipwrite" else {}
                await table.open(ann, kind, [bob], players=2, **options)
                tables.append(table)
                kinds[table.channel] = kind
            clock = Table(standin, standin.create_channel(f"clock-{shard}", guild_id=guild), url)
            await clock.open(ann, "metromania", [bob], players=2)
            clock_tables.append(clock)
        acked = collections.Counter()

        async def play(table: Table, turns: int):
            for _ in range(turns):
                owed = await table.owed()
                if not owed:
                    return
                reply = await (table.dig_by_command(owed[0]) if kinds[table.channel] == "metromania"
                               else table.play_by_command(owed[0]))
                if reply.content.startswith(("Done", "Saved")):
                    acked[table.channel] += 1

        await asyncio.gather(*(play(t, 4) for t in tables))  # both shards at once
        os.kill(procs[0].pid, signal.SIGKILL)  # shard 0 dies mid-game
        await asyncio.get_running_loop().run_in_executor(None, procs[0].wait)
        await asyncio.gather(*(play(t, 2) for t in tables[2:]))  # shard 1 goes on meanwhile
        # Both turn clocks run out while shard 0 is down; shard 1's process watches them all.
        db = await Database(url).open()
        async with db.driver.transaction() as tx:
            await tx.execute("UPDATE games SET deadline = ?, version = version + 1 WHERE channel_id IN (?, ?)",
                             time.time() - 1, *(str(t.channel) for t in clock_tables))
        await db.close()
        procs[0] = start(0)
        await standin.wait_for_identify(3, timeout=90)
        await asyncio.gather(*(play(t, 3) for t in tables))
        for clock in clock_tables:
            await standin.wait_for_message(clock.channel, lambda m: "Time is up" in m.content, timeout=30)
        await asyncio.sleep(2.0)  # time for a second firing, if there were one
    finally:
        for proc in procs.values():
            await stop_process(proc)

    for row, actions in await rows(url):
        log = GameLog(row.game, row.seed, [s.user_id for s in row.seats], row.options,
                      [{"player": a["player"], "action": a["action"]} for a in actions])
        assert get_game(row.game).to_json(log.replay()) == row.state  # nothing applied twice, nothing torn
        assert len(actions) == row.moves
        by_people = sum(1 for a in actions if a["actor"] != "auto")
        table = next((t for t in tables if str(t.channel) == row.channel_id), None)
        if table is not None:
            assert by_people >= acked[table.channel]  # every acknowledged move is there
    for clock in clock_tables:
        fired = [m for m in standin.messages(clock.channel) if "Time is up" in m.content]
        assert len(fired) == 1, [m.content for m in fired]
    for shard in (0, 1):
        assert "Traceback" not in (tmp_path / f"shard{shard}.log").read_text()
