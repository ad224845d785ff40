"""What the crash suite needs: a real bot process to kill, players who keep playing through
the Discord stand-in, and an audit of the database file and of everything the stand-in saw.

The audit trusts neither the bot's own bookkeeping nor the outbox: what was acknowledged is
counted by the players as the replies arrive; what had to be announced is derived by
replaying each game's action log from its seed.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import itertools
import json
import os
import random
import signal
import sqlite3
import subprocess
import time
import types
from dataclasses import dataclass, field
from pathlib import Path

from metrobot.gamelog import GameLog
from metrobot.games import get_game, get_plugin
from metrobot.games.logplay import LogPlayer, is_takeback
from tests.e2e.harness import start_bot_process
from tests.e2e.players import Table
from tests.e2e.standin import StandInTimeout

FAULTS_DIR = Path(__file__).with_name("faults")
ROOT = Path(__file__).resolve().parents[2]
# How long a player waits for an answer before taking the move as not acknowledged. Patient:
# the first moves after a start wait for a cold drawing worker, seconds on a loaded machine,
# and a life in which no move was acknowledged checks nothing (an answer that comes is counted
# however late; a process killed meanwhile never answers, and its players stop waiting then).
ACTION_TIMEOUT = 10.0
BY_BUTTONS = 0.3  # the share of moves made through the buttons (Play, the composer, Confirm)
TAKE_BACK = 0.6  # the share of moves offered ↶ that are taken back at once


# ---------------------------------------------------------------- the bot process
class BotProcess:
    def __init__(
        self, standin, db_path: str, log_path: str, *, faults: str = "", tick: float = 0.2, env: dict | None = None
    ):
        self.standin, self.db_path, self.log_path = standin, db_path, log_path
        self.faults, self.tick, self.env = faults, tick, env or {}
        self.proc: subprocess.Popen | None = None
        self.starts = 0
        self.kills = 0

    async def start(self) -> None:
        self.starts += 1
        env = {
            "PYTHONPATH": f"{FAULTS_DIR}{os.pathsep}{ROOT}",
            "METROBOT_TEST_FAULTS": self.faults,
            "METROBOT_TEST_FAULT_SEED": str(self.starts),
            **self.env,
        }
        wanted = self.standin.identify_count + 1
        self.proc = start_bot_process(self.standin, self.db_path, tick=self.tick, log_path=self.log_path, env=env)
        waiter = asyncio.create_task(self.standin.wait_for_identify(wanted, timeout=60))
        while not waiter.done():
            if self.proc.poll() is not None:  # died while starting (a fault may kill it that early)
                waiter.cancel()
                await asyncio.gather(waiter, return_exceptions=True)
                return
            await asyncio.sleep(0.05)
        waiter.result()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    async def kill(self) -> None:
        """SIGKILL now (if a fault has not killed it already); counts every death by SIGKILL."""
        if self.alive():
            os.kill(self.proc.pid, signal.SIGKILL)
        if self.proc is not None:
            await asyncio.get_running_loop().run_in_executor(None, self.proc.wait)
            self.kills += self.proc.returncode == -signal.SIGKILL
            self.proc = None

    async def stop(self) -> None:
        if self.alive():
            self.proc.terminate()
            await asyncio.get_running_loop().run_in_executor(None, self.proc.wait)
        self.proc = None


# ---------------------------------------------------------------- reading the database file
GAMES, ACTIONS, OUTBOX = (
    "SELECT * FROM games ORDER BY id",
    "SELECT game_id, seq, seat, action, actor FROM actions ORDER BY game_id, seq",
    "SELECT * FROM outbox ORDER BY id",
)


async def wait_until(check, what: str, tries: int = 600) -> None:
    """Until `check()` holds, looked at every 50 ms, `tries` times at the most (then: what never happened)."""
    for _ in range(tries):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


async def answered(h, timeout: float = 4.0) -> str | None:
    """The private answer to a command or a press, or None if none comes within `timeout` (the bot died)."""
    try:
        return (await h.wait_message(lambda m: m.ephemeral, timeout=timeout)).content
    except StandInTimeout:
        return None


def read_db(db_path: str) -> tuple[list[dict], dict[int, list[dict]], list[dict]]:
    """(games, actions by game, outbox) straight from the SQLite file (or the PostgreSQL
    database, given its URL)."""
    if db_path.startswith("postgresql://"):
        games, logged, outbox = _read_postgres(db_path)
    else:
        conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=10)
        conn.row_factory = sqlite3.Row
        try:
            games, logged, outbox = ([dict(r) for r in conn.execute(sql)] for sql in (GAMES, ACTIONS, OUTBOX))
        finally:
            conn.close()
    actions: dict[int, list[dict]] = collections.defaultdict(list)
    for r in logged:
        actions[r["game_id"]].append({"player": r["seat"], "action": json.loads(r["action"]), "actor": r["actor"]})
    return [_decoded(g) for g in games], actions, outbox


def read_games(db_path: str, channel_id: int) -> list[dict]:
    """Only one channel's games rows of what `read_db` reads: the suites' players ask this many
    times a second while they play, and reading every action and the outbox each time (growing
    with the session) was most of the test process's own work."""
    if db_path.startswith("postgresql://"):
        return [g for g in read_db(db_path)[0] if g["channel_id"] == str(channel_id)]
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=10)
    conn.row_factory = sqlite3.Row
    try:
        rows = conn.execute("SELECT * FROM games WHERE channel_id = ? ORDER BY id", (str(channel_id),))
        return [_decoded(dict(r)) for r in rows]
    finally:
        conn.close()


def _decoded(game: dict) -> dict:
    """A games row with its JSON columns read."""
    game["seats"] = json.loads(game["seats"])
    game["options"] = json.loads(game["options"])
    game["state"] = json.loads(game["state"]) if game["state"] else None
    return game


def _read_postgres(url: str) -> tuple[list[dict], ...]:
    """The same three queries on PostgreSQL (in a thread of its own: callers are not async)."""
    import asyncpg

    async def read() -> tuple[list[dict], ...]:
        conn = await asyncpg.connect(url)
        try:
            return tuple([[dict(r) for r in await conn.fetch(sql)] for sql in (GAMES, ACTIONS, OUTBOX)])
        finally:
            await conn.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, read()).result()


def turns_played(row: dict, actions: list[dict]) -> int:
    """How many times the turn passed in a game's log (replayed from its seed)."""
    game = get_game(row["game"])
    state = game.new_game([s["user_id"] for s in row["seats"]], row["options"], row["seed"])
    turns = 0
    for a in actions:
        before = game.turn_number(state)
        state, _ = game.apply(state, a["player"], a["action"])
        turns += game.turn_number(state) != before
    return turns


def force_clock_expiry(db_path: str, game_id: int) -> None:
    """Make a game's turn clock due now (as if the hours had passed while the bot was down:
    a claim on the clock by a process that died has long run out too)."""
    conn = sqlite3.connect(db_path, timeout=10)
    try:
        conn.execute(
            "UPDATE games SET deadline = ?, clock_claim = NULL, version = version + 1 WHERE id = ?",
            (time.time() - 1, game_id),
        )
        conn.commit()
    finally:
        conn.close()


# ---------------------------------------------------------------- players
@dataclass
class Channel:
    id: int
    kind: str
    people: list[int]
    acked: collections.Counter = field(default_factory=collections.Counter)  # user -> actions acknowledged


class Players:
    """Plays whatever is owed in every channel: by slash commands picked from autocomplete,
    or through the buttons (Play on the newest turn post, the composer, Confirm)."""

    def __init__(self, standin, db_path: str, seed: int):
        self.s, self.db_path = standin, db_path
        self.rnd = random.Random(seed)
        self.acks = 0
        self.tries = 0
        self.button_tries = 0
        self.button_acks = 0
        self.takeback_tries = 0
        self.takeback_acks = 0

    def owed(self, channel: Channel, games: list[dict]) -> list[int]:
        row = next((g for g in reversed(games) if g["channel_id"] == str(channel.id)), None)
        if row is None or row["status"] != "active" or row["state"] is None:
            return []
        game = get_game(row["game"])
        state = game.from_json(row["state"])
        seats = {s["user_id"]: s for s in row["seats"]}
        return sorted(
            {
                int(game.owner(state, s))
                for s in game.to_move(state)
                if not seats.get(game.owner(state, s), {}).get("auto")
            }
        )

    async def act(self, channel: Channel, user: int) -> bool:
        """One move by `user`; True if the bot acknowledged it."""
        self.tries += 1
        if self.rnd.random() < BY_BUTTONS:
            return await self.act_by_buttons(channel, user)
        command, option = ("dig", "step1") if channel.kind == "metromania" else ("play", "move")
        try:
            choices = await self.s.autocomplete(
                user, channel.id, command, {option: ""}, focused=option, timeout=ACTION_TIMEOUT
            )
            choices = [c for c in choices if c["value"] != "?"]
            if not choices:  # nothing this command can play now (e.g. only a station): the buttons can
                return await self.act_by_buttons(channel, user)
            if command == "dig":
                steps = {"step1": self.rnd.choice(choices)["value"]}
                more = await self.s.autocomplete(
                    user, channel.id, "dig", {**steps, "step2": ""}, focused="step2", timeout=ACTION_TIMEOUT
                )
                more = [c for c in more if c["value"] != "?"]
                if more and self.rnd.random() < 0.7:
                    steps["step2"] = self.rnd.choice(more)["value"]
                h = await self.s.slash(user, channel.id, "dig", steps)
                count = len(steps)
            else:
                h = await self.s.slash(user, channel.id, "play", {"move": self.rnd.choice(choices)["value"]})
                count = 1
            reply = await h.wait_message(timeout=ACTION_TIMEOUT)
        except (TimeoutError, StandInTimeout, ValueError):
            return False
        if reply.content.startswith(("Done", "Saved")):
            channel.acked[user] += count
            self.acks += count
            if any(c.startswith("mb:tb:") for c in reply.custom_ids()) and self.rnd.random() < TAKE_BACK:
                await self.take_back(channel, user, reply)
            return True
        return False

    async def take_back(self, channel: Channel, user: int, reply) -> bool:
        """↶ under the reply of a move just made; acknowledged when the reply says it was taken
        back (the bot edits it after the commit): the take-back is a logged action too."""
        self.takeback_tries += 1
        button = next(c for c in reply.custom_ids() if c.startswith("mb:tb:"))
        try:
            h = await self.s.click(user, reply, custom_id=button)
            await h.wait_response(timeout=ACTION_TIMEOUT)
            for _ in range(int(ACTION_TIMEOUT / 0.02)):
                if "Taken back" in reply.content:
                    break
                await asyncio.sleep(0.02)
            else:
                return False
        except Exception:  # noqa: BLE001 - killed in between, or refused (someone moved first)
            return False
        channel.acked[user] += 1
        self.acks += 1
        self.takeback_acks += 1
        return True

    async def act_by_buttons(self, channel: Channel, user: int) -> bool:
        """A whole turn (or decision) through the buttons; acknowledged when the composer
        says it was played (the bot edits it after the commit)."""
        self.button_tries += 1
        table = Table(self.s, channel.id, self.db_path, seed=self.rnd.randrange(1 << 30))
        try:
            async with asyncio.timeout(3 * ACTION_TIMEOUT):  # (not wait_for: it may swallow a cancel)
                composer = await table.compose(user)
            confirm = next(c for c in composer.custom_ids() if c.startswith("mb:ok:"))
            h = await self.s.click(user, composer, custom_id=confirm)
            await h.wait_response(timeout=ACTION_TIMEOUT)
            await self.s.wait_until(
                lambda: composer.content.startswith("✔ Played"), ACTION_TIMEOUT, what="the composer to say Played"
            )
        except Exception:  # noqa: BLE001 - killed mid-turn, a stale post, a refusal: not acknowledged
            return False
        count = len([step for step in confirm.split(":", 4)[4].split(";") if step])
        channel.acked[user] += count
        self.acks += count
        self.button_acks += count
        return True


# ---------------------------------------------------------------- the audit
@dataclass
class Audit:
    games: int = 0
    actions: int = 0
    acknowledged: int = 0
    lost: int = 0
    corrupt: int = 0
    owed_posts: int = 0
    never_announced: int = 0
    announced_twice: int = 0
    stale_hands: int = 0
    undelivered: int = 0
    lobby_posts_twice: int = 0  # (counted in announced_twice too)
    dms_twice: int = 0  # the same hand DMed twice in a row (counted in announced_twice too)
    stale_turn_posts: int = 0  # a turn post with live buttons after a later turn's post
    status_messages: int = 0  # started games, each with a status message
    stale_status: int = 0  # a status message that does not say what the game's newest status says
    problems: list[str] = field(default_factory=list)

    def figures(self) -> dict[str, int]:
        return {k: v for k, v in self.__dict__.items() if k != "problems"}


def audit_storage(db_path: str, channels: list[Channel], audit: Audit) -> None:
    """Acknowledged actions all there; every stored state equals the replay of its log."""
    games, actions, _ = read_db(db_path)
    for channel in channels:
        for user, count in channel.acked.items():
            stored = sum(
                1
                for g in games
                if g["channel_id"] == str(channel.id)
                for a in actions[g["id"]]
                if a["actor"] == str(user)
            )
            if stored < count:
                audit.lost += count - stored
                audit.problems.append(
                    f"channel {channel.id}: user {user} was acknowledged {count} actions, {stored} stored"
                )
    for g in games:
        if g["state"] is None:
            continue
        log = GameLog(
            g["game"],
            g["seed"],
            [s["user_id"] for s in g["seats"]],
            g["options"],
            [{"player": a["player"], "action": a["action"]} for a in actions[g["id"]]],
        )
        try:
            replayed = get_game(g["game"]).to_json(log.replay())
        except Exception as exc:  # noqa: BLE001 - a log that does not replay is corrupt
            replayed = f"replay failed: {exc}"
        if replayed != g["state"] or len(actions[g["id"]]) != g["moves"]:
            audit.corrupt += 1
            audit.problems.append(f"game {g['id']}: stored state differs from the replay of its log")


def audit_announcements(standin, db_path: str, audit: Audit) -> None:
    """Every position that had to be announced was, exactly once; secret hands are current."""
    games, actions, outbox = read_db(db_path)
    # (a ping or DM held for a take-back window or quiet hours still to come is not undelivered)
    audit.undelivered = sum(
        1 for o in outbox if o["delivered_at"] is None and (o["not_before"] or 0) <= time.time() - 5
    )
    audit.games = sum(1 for g in games if g["state"] is not None)
    audit.actions = sum(len(v) for v in actions.values())
    for g in games:
        channel = int(g["channel_id"])
        posts = [m for m in standin.messages(channel) if m.author_id == standin.bot_id]
        _audit_lobby_post(g, posts, audit)
        if g["state"] is None:
            continue
        by_position = collections.Counter()
        latest = -1
        for m in posts:  # (turn posts are known by the buttons they were posted with: a tidy channel takes them off)
            for c in m.posted_all_components():
                parts = str(c.get("custom_id", "")).split(":")
                if parts[:3] == ["mb", "p", str(g["id"])] and len(parts) == 5 and parts[4] == "play":
                    position = int(parts[3])
                    by_position[position] += 1
                    if not c.get("disabled") and position < latest:
                        audit.stale_turn_posts += 1
                        audit.problems.append(f"game {g['id']}: turn {position} posted live after turn {latest}")
                    latest = max(latest, position)
        game = get_game(g["game"])
        names = {s["user_id"]: s["name"] for s in g["seats"]}
        player = LogPlayer.start(game, [s["user_id"] for s in g["seats"]], g["options"], g["seed"])
        state = player.state
        expected = {0}
        decided = collections.Counter()
        taken_back = collections.Counter()  # moves taken back whose post was edited to say so
        told: set[int] = set()  # positions whose move the channel was told of
        for i, a in enumerate(actions[g["id"]], 1):
            before = game.turn_number(player.state)
            player.play(a["player"], a["action"])
            state = player.state
            if is_takeback(a["action"]):  # told by the edit of the move's post, if it had one
                if i - 1 in told:
                    taken_back[names.get(a["actor"], a["actor"])] += 1
                continue
            if game.is_over(state):
                continue
            if game.turn_number(state) != before:
                expected.add(i)
                told.add(i)
            elif game.simultaneous and a["actor"] != "auto":
                decided[names.get(a["actor"], a["actor"])] += 1
                told.add(i)
        for position in expected:
            audit.owed_posts += 1
            n = by_position.get(position, 0)
            if n == 0:
                audit.never_announced += 1
                audit.problems.append(f"game {g['id']}: position {position} was never announced")
            elif n > 1:
                audit.announced_twice += n - 1
                audit.problems.append(f"game {g['id']}: position {position} announced {n} times")
        owed = [("the end", int(game.is_over(state)), sum("Game over" in m.content for m in posts))]
        owed += [
            (
                f"{name}'s decisions",
                count,
                sum(
                    m.content.startswith(f"✅ {name} has decided") or f"\n~~✅ {name} has decided" in m.content
                    for m in posts
                ),
            )
            for name, count in decided.items()
        ]
        owed += [
            (f"{name}'s moves taken back", count, sum(m.content.startswith(f"↶ {name} took back") for m in posts))
            for name, count in taken_back.items()
        ]
        for what, count, n in owed:
            audit.owed_posts += count
            audit.never_announced += max(0, count - n)
            audit.announced_twice += max(0, n - count)
            if n != count:
                audit.problems.append(f"game {g['id']}: {what}: {count} owed, {n} posted")
        plugin = get_plugin(g["game"])
        if plugin.secret_hands:
            for seat in g["seats"]:
                dms = [m.content for m in standin.dms(int(seat["user_id"])) if f"<#{channel}>" in m.content]
                # A hand is DMed when it changes: the same hand twice in a row was sent twice.
                twice = sum(a == b for a, b in itertools.pairwise(dms))
                audit.dms_twice += twice
                audit.announced_twice += twice
                if twice:
                    audit.problems.append(f"game {g['id']}: {seat['name']} got the same hand DM twice in a row")
                if game.is_over(state):
                    continue
                text = plugin.hand_text(game.view(state, seat["user_id"]), game.seats_of(state, seat["user_id"]))
                if text and (not dms or not dms[-1].endswith(text)):
                    audit.stale_hands += 1
                    audit.problems.append(f"game {g['id']}: {seat['name']}'s last DM is not their hand")


def audit_status_messages(standin, db_path: str, audit: Audit) -> None:
    """A started game's status message (its lobby post, edited) says what the newest status
    it owes says, linking to its latest board: current after every crash, never posted again."""
    from metrobot.discord_app.messages import clip
    from metrobot.service.status import BOARD, jump_link

    games, _, outbox = read_db(db_path)
    for g in games:
        rows = [o for o in outbox if o["game_id"] == g["id"] and o["target"] == "channel"]
        status = [o for o in rows if o["kind"] == "edit" and json.loads(o["payload"]).get("edit") == "status"]
        if not status:
            continue
        audit.status_messages += 1
        posts = [o for o in rows if o["kind"] == "post" and o["message_id"]]
        boards = [o["message_id"] for o in posts if json.loads(o["payload"]).get("images")]
        place = types.SimpleNamespace(guild_id=g["guild_id"], channel_id=g["channel_id"])
        want = clip(json.loads(status[-1]["payload"])["text"].replace(BOARD, jump_link(place, (boards or [None])[-1])))
        got = standin.message(int(posts[0]["message_id"])).content if posts else None
        if got != want:
            audit.stale_status += 1
            audit.problems.append(f"game {g['id']}: its status message says {got!r}, not {want!r}")


def _audit_lobby_post(g: dict, posts: list, audit: Audit) -> None:
    """Every game opened a lobby: posted once (its Join button names the game)."""
    join = f"mb:l:{g['id']}:join"
    n = sum(join in m.posted_custom_ids() for m in posts)  # (a started game's status message has none now)
    audit.owed_posts += 1
    if n == 0:
        audit.never_announced += 1
        audit.problems.append(f"game {g['id']}: the lobby was never posted")
    elif n > 1:
        audit.lobby_posts_twice += n - 1
        audit.announced_twice += n - 1
        audit.problems.append(f"game {g['id']}: the lobby was posted {n} times")
