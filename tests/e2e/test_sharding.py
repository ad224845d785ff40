"""Past one machine: two `python bot.py` processes run different shards of one bot (as
Discord hands each guild to one shard) on one PostgreSQL database.

* Games in guilds on both shards are played at once, by slash commands; every move sent is
  noted, and whether the bot acknowledged it ("Done"/"Saved").
* Process A (shard 0) is killed with SIGKILL while it is working on moves: two commands
  sent, received (deferred), not yet answered — the kill lands before, during or after their
  commits (runs differ), then A is restarted.
* While A is down, B (shard 1) acts on the turn clocks of both shards' games: its posts land
  in A's guild. Once A is back, a player clicks the ▶ Play button of B's message and plays
  through the composer (select menus, Confirm): the click goes to A, which plays it and DMs
  the player's changed hand. (The bot's commands are guild-only and its DMs carry no
  buttons, so no interaction comes from a DM; what crosses processes is the DM a process
  sends for a click on a message another process posted.)
* Then both processes are up and ticking while turn clocks run out, several times over:
  they race for every expiry, and exactly one acts on each — one "Time is up" post and one
  automatic turn per expiry.

At the end every log replays to its game's stored state; the moves in each log are exactly
the moves sent, in order — every acknowledged one once, an unacknowledged one (the kill)
once or not at all, nothing twice, nothing else.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import signal
import time
from dataclasses import dataclass

import pytest

from metrobot.games import get_game, get_plugin
from metrobot.storage import Database
from tests.e2e.harness import start_bot_process, stop_process
from tests.e2e.players import Table
from tests.replaying import stored_log

pytestmark = pytest.mark.timeout(300)

CONTESTED = 3  # rounds of expiries with both processes up
MARKER = re.compile(r":[LR]:[A-F]$")  # a MetrOmania tunnel step that drops a marker


def guild_on_shard(standin, shard: int, count: int = 2) -> int:
    while True:
        guild = standin.add_guild(f"Guild for shard {shard}")
        if (guild >> 22) % count == shard:
            return guild


@dataclass
class Sent:
    """A move as a player sent it: where the game was, who, the actions its steps mean."""

    position: int
    user: str
    actions: list  # (seat, action as JSON)
    acked: bool = False


async def prepare(table: Table, kind: str, user: int) -> tuple[Sent, str, dict]:
    """A move picked from the autocomplete suggestions: (what it means, command, options)."""
    row = await table.row()
    plugin = get_plugin(row.game)
    state = plugin.game.from_json(row.state)
    if kind == "metromania":
        options: dict = {}
        for i in range(1, 5):
            suggested = await table.choices(user, "dig", options, f"step{i}")
            if not suggested:
                break
            options[f"step{i}"] = table.rnd.choice(suggested)["value"]
        command, codes = "dig", list(options.values())
        if not codes:
            command, options = "station", {"at": (await table.choices(user, "station", {}, "at"))[0]["value"]}
            codes = [options["at"]]
    else:
        command, options = "play", {"move": table.rnd.choice(await table.choices(user, "play", {}, "move"))["value"]}
        codes = [options["move"]]
    seat = next(s for s in plugin.game.to_move(state) if plugin.game.owner(state, s) == str(user))
    actions = []
    for code in codes:
        action = plugin.parse(state, seat, code)
        actions.append((seat, json.loads(json.dumps(action))))
        state, _ = plugin.game.apply(state, seat, action)
    return Sent(row.moves, str(user), actions), command, options


def acknowledged(handle) -> bool:
    return any(not m.loading and m.content.startswith(("Done", "Saved")) for m in handle.messages)


def check_log(sent: list[Sent], log: list[dict]) -> int:
    """The log is exactly the moves sent that were applied, in order; returns how many
    acknowledged moves it holds."""
    at, acked = 0, 0
    for move in sent:
        want = [(seat, action, move.user) for seat, action in move.actions]
        got = [(a["player"], a["action"], a["actor"]) for a in log[at : at + len(want)]]
        if move.position == at and got == want:
            at += len(want)
            acked += move.acked
        else:
            assert not move.acked, f"acknowledged move lost: {move} (log from {at}: {log[at : at + 4]})"
    assert at == len(log), f"moves nobody sent, or applied twice: {log[at:]}"
    return acked


async def expire(url: str, channels: list[int]) -> None:
    """The turn clocks of these channels' games run out now (as if the time had passed)."""
    db = await Database(url).open()
    try:
        async with db.driver.transaction() as tx:
            marks = ",".join("?" * len(channels))
            await tx.execute(
                f"UPDATE games SET deadline = ?, version = version + 1 WHERE status = 'active' AND "
                f"channel_id IN ({marks})",
                time.time() - 1,
                *(str(c) for c in channels),
            )
    finally:
        await db.close()


def time_is_up(standin, channel: int) -> list:
    return [m for m in standin.messages(channel) if "Time is up" in m.content]


async def play_on_buttons(standin, table: Table, user: int, message):
    """▶ Play on `message`, then the composer's menus until the turn is complete, then
    Confirm. A step that drops a marker is taken whenever one is offered (in any group of
    the menu), so that the player's hand changes."""
    h = await standin.click(user, message, custom_id=next(c for c in message.custom_ids() if c.endswith(":play")))
    composer = await h.wait_message()

    async def use(custom_id: str, value: str | None = None) -> None:
        before = composer.edits
        h = await (
            standin.select(user, composer, custom_id, [value])
            if value is not None
            else standin.click(user, composer, custom_id=custom_id)
        )
        await h.wait_response()
        for _ in range(300):  # the composer is edited after the deferred update
            if composer.edits > before:
                return
            await asyncio.sleep(0.02)
        raise AssertionError(f"the composer was not updated after {custom_id} {value}")

    def options(prefix: str) -> tuple[str | None, list[str]]:
        menu = next((c for c in composer.custom_ids() if c.startswith(prefix)), None)
        return menu, [o["value"] for o in composer.component(menu)["options"]] if menu else []

    for _ in range(8):
        steps, values = options("mb:s:")
        groups, names = options("mb:g:")
        marked = [v for v in values if MARKER.search(v)]
        for name in names if groups and not marked else ():
            await use(groups, name)
            steps, values = options("mb:s:")
            marked = [v for v in values if MARKER.search(v)]
            if marked:
                break
        buttons = [c for c in composer.custom_ids() if c.startswith("mb:b:")]
        if steps:
            await use(steps, (marked or [table.rnd.choice(values)])[0])
        elif buttons:
            await use(table.rnd.choice(buttons))
        else:
            break
    confirm = [c for c in composer.custom_ids() if c.startswith("mb:ok:")]
    assert confirm, (composer.content, composer.custom_ids())
    h = await standin.click(user, composer, custom_id=confirm[0])
    return await h.wait_message(lambda m: "Played" in m.content)


async def test_two_shard_processes_one_database(standin, pg_server, tmp_path):
    url = pg_server.url("sharded")
    guilds = [guild_on_shard(standin, 0), guild_on_shard(standin, 1)]
    logs = [tmp_path / f"shard{shard}.log" for shard in (0, 1)]

    def start(shard: int):
        return start_bot_process(
            standin,
            str(tmp_path / "unused.sqlite3"),
            tick=0.2,
            log_path=str(logs[shard]),
            env={
                "METROBOT_DATABASE_URL": url,
                "METROBOT_SHARD_COUNT": "2",
                "METROBOT_SHARD_IDS": str(shard),
                "METROBOT_RENDER_WORKERS": "1",
            },
        )

    procs = {0: start(0), 1: start(1)}
    sent: dict[int, list[Sent]] = {}
    try:
        await standin.wait_for_identify(2, timeout=90)
        await standin.wait_for_commands("game", "dig")
        tables, clocks, kinds, people = {0: [], 1: []}, [], {}, {}
        for shard, guild in enumerate(guilds):
            ann = standin.add_member(name=f"Ann{shard}", guild_id=guild)
            bob = standin.add_member(name=f"Bob{shard}", guild_id=guild)
            for kind in ("metromania", "flipwrite"):
                table = Table(standin, standin.create_channel(f"{kind}-{shard}", guild_id=guild), url, seed=shard)
                await table.open(ann, kind, [bob], players=2, **({"city": "madrid"} if kind == "flipwrite" else {}))
                tables[shard].append(table)
                kinds[table.channel], sent[table.channel] = kind, []
            clock = Table(standin, standin.create_channel(f"clock-{shard}", guild_id=guild), url, seed=7)
            await clock.open(ann, "metromania", [bob], players=2)
            clocks.append(clock)
            kinds[clock.channel], sent[clock.channel] = "metromania", []
            people[shard] = (ann, bob)

        async def move(table: Table) -> bool:
            owed = await table.owed()
            if not owed:
                return False
            note, command, options = await prepare(table, kinds[table.channel], owed[0])
            sent[table.channel].append(note)
            h = await standin.slash(owed[0], table.channel, command, options)
            await h.wait_message()
            note.acked = acknowledged(h)
            return True

        async def play(table: Table, turns: int) -> None:
            for _ in range(turns):
                if not await move(table):
                    return

        everyone = tables[0] + tables[1]
        await asyncio.gather(*(play(t, 3) for t in everyone + clocks))  # both shards at once

        # SIGKILL lands while A works on two moves: sent, received (deferred), not yet answered.
        handles = []
        for table in tables[0]:
            owed = await table.owed()
            note, command, options = await prepare(table, kinds[table.channel], owed[0])
            sent[table.channel].append(note)
            handles.append((note, await standin.slash(owed[0], table.channel, command, options)))
        waiting = [asyncio.ensure_future(h.wait_response()) for _, h in handles]
        await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        os.kill(procs[0].pid, signal.SIGKILL)
        for task in waiting:
            task.cancel()
        await asyncio.get_running_loop().run_in_executor(None, procs[0].wait)
        for note, h in handles:
            note.acked = acknowledged(h)  # an answer that beat the kill counts as acknowledged

        # A is down: B goes on with its games and acts on both shards' turn clocks.
        await asyncio.gather(*(play(t, 2) for t in tables[1]))
        before = {c.channel: c.public()[-1] for c in clocks}
        await expire(url, [c.channel for c in clocks])
        for clock in clocks:
            await standin.wait_for_message(
                clock.channel, lambda m: "Time is up" in m.content, after=before[clock.channel], timeout=30
            )
        turn_message = await standin.wait_for_message(  # B's post in A's guild, with the turn's buttons
            clocks[0].channel,
            lambda m: any(c.startswith("mb:p:") for c in m.custom_ids()),
            after=before[clocks[0].channel],
            timeout=30,
        )

        procs[0] = start(0)
        await standin.wait_for_identify(3, timeout=90)
        # The click on B's message goes to A (the guild's shard): A plays it and DMs the hand.
        user = (await clocks[0].owed())[0]
        dms_before = standin.dms(user)
        played = await play_on_buttons(standin, clocks[0], user, turn_message)
        assert "Played" in played.content
        dm = await standin.wait_for_dm(
            user, lambda m: "MetrOmania" in m.content, after=dms_before[-1] if dms_before else None, timeout=30
        )
        assert f"<#{clocks[0].channel}>" in dm.content

        await asyncio.gather(*(play(t, 3) for t in everyone))

        # Both processes up and ticking: they race for every expiry.
        for _ in range(CONTESTED):
            assert procs[0].poll() is None and procs[1].poll() is None
            before = {c.channel: c.public()[-1] for c in clocks}
            await expire(url, [c.channel for c in clocks])
            for clock in clocks:
                await standin.wait_for_message(
                    clock.channel, lambda m: "Time is up" in m.content, after=before[clock.channel], timeout=30
                )
            await asyncio.sleep(1.0)  # five more ticks of each process: time for a second firing, if any
    finally:
        for proc in procs.values():
            await stop_process(proc)

    expiries = 1 + CONTESTED
    db = await Database(url).open()
    try:
        acked = 0
        for table in everyone:
            row = await db.last_game(str(table.channel))
            log = await db.actions(row.id)
            replayed = stored_log(row, log).replay()
            assert get_game(row.game).to_json(replayed) == row.state and len(log) == row.moves
            acked += check_log(sent[table.channel], log)
        for i, clock in enumerate(clocks):
            row = await db.last_game(str(clock.channel))
            log = await db.actions(row.id)
            game, states = get_game(row.game), []
            stored_log(row, log).replay(each=states.append)
            assert game.to_json(states[-1]) == row.state and len(log) == row.moves
            first_auto = next(k for k, a in enumerate(log) if a["actor"] == "auto")
            acked += check_log(sent[clock.channel], log[:first_auto])  # the moves by command
            # Then turn by turn, who acted: the automatic player once per expiry, and the click.
            turns: list[set[str]] = [set()]
            for a, (s0, s1) in list(zip(log, itertools.pairwise(states)))[first_auto:]:
                turns[-1].add(a["actor"])
                if game.turn_number(s1) != game.turn_number(s0):
                    turns.append(set())
            assert [t for t in turns if t] == [{"auto"}] + [{str(user)}] * (i == 0) + [{"auto"}] * CONTESTED, turns
            if i == 0:  # the click's move dropped a marker: that is what changed the hand DMed
                assert any(a["action"].get("marker") for a in log if a["actor"] == str(user))
            assert len(time_is_up(standin, clock.channel)) == expiries
            fired = sum(
                text.count(f"game {row.id}: turn clock expired") for text in (path.read_text() for path in logs)
            )
            assert fired == expiries  # one process acted on each expiry (the other never got that far)
        assert acked == sum(s.acked for moves in sent.values() for s in moves) > 0
    finally:
        await db.close()
    for path in logs:
        assert "Traceback" not in path.read_text()
