"""The world the bad-input suite pokes at: the Discord stand-in and our real bot (the real
discord.py client, in this process) on an event loop in a thread of their own, so that a
synchronous hypothesis test can drive them one interaction at a time; a set of live games
in several channels, made first through the bot itself; and the measurements.

Channels (all with fixed seeds): a full lobby, an active MetrOmania game (one player's DMs
closed), one between players with odd and overlong names, an active advanced MetrOmania game (one person, two companies), an active
flip-and-write game with one decision already sealed, a solo flip-and-write game in a thread,
an active On the Underground game with a seat the automatic player took over,
a finished game of each kind, an aborted game, a game whose channel was deleted, a game in a
channel where the bot may not post, an empty channel, a channel of another guild and a DM.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from metrobot.games import get_plugin
from metrobot.storage import outbox
from tests.e2e.fixtures import ClientRunner  # tests/e2e
from tests.e2e.harness import make_bot
from tests.e2e.players import Table
from tests.e2e.standin import DiscordStandIn, point_discord_at
from tests.e2e.standin.constants import PERMISSIONS
from tests.e2e.waiting import quiet

from .sizes import FULL

REPLY_TIMEOUT = 10.0
# A review is made when first asked (seconds of the strong player's work; a minute or more on a
# loaded machine): the bot answers at once (Discord's "thinking…") and sends it when it is made,
# as a person waits for it. The full-size run of d57fc58 met one after 10 s under a load of 7.
REVIEW_TIMEOUT = 600.0
# What the bot could not post (a channel it may not post in, or deleted) is the sweep's once the
# sending process's claim on it runs out: 3 s in the everyday run instead of the shipped 10, as in
# the crash suite; a test that settles the world after such a move waited those 10 s. (`make
# reliability` keeps the shipped lease.)
SEND_LEASE = outbox.SEND_LEASE if FULL else 3.0
GENERIC_FAILURE = "Something went wrong on my side"


class LogCapture(logging.Handler):
    """Every record of the bot's process (not the stand-in's own diagnostics)."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.records: list[logging.LogRecord] = []
        self._lock = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        if record.name == "standin" or record.name.startswith("standin."):
            return
        with self._lock:
            self.records.append(record)

    def since(self, start: int) -> list[logging.LogRecord]:
        with self._lock:
            return self.records[start:]

    def __len__(self) -> int:
        with self._lock:
            return len(self.records)


def is_traceback(record: logging.LogRecord) -> bool:
    text = record.getMessage()
    return bool(record.exc_info) or bool(record.exc_text) or "Traceback" in text or bool(record.stack_info)


def describe_record(record: logging.LogRecord) -> str:
    exc = ""
    if record.exc_info and record.exc_info[1] is not None:
        exc = f" [{type(record.exc_info[1]).__name__}: {record.exc_info[1]}]"
    return f"{record.levelname} {record.name}: {record.getMessage()[:300]}{exc}"


@dataclass
class Tally:
    """What the suite measured."""

    tried: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    skipped_legit: int = 0  # drawn interactions that could legitimately change a game (not sent)
    public_by_design: int = 0  # sent, and allowed to answer in public (a replay for everyone, paging)
    tracebacks: int = 0
    unanswered: int = 0  # no response at all, or no reply message/choices after the response
    public_replies: int = 0  # a non-ephemeral reply, or a public post/edit/DM, for input that changed nothing
    generic_replies: int = 0  # "something went wrong" instead of a clear reason
    games_changed: int = 0  # stored games changed by input that must change nothing
    problems: list[str] = field(default_factory=list)

    def note(self, what: str) -> None:
        if len(self.problems) < 50:
            self.problems.append(what)

    @property
    def failures(self) -> int:
        return self.tracebacks + self.unanswered + self.public_replies + self.generic_replies + self.games_changed


class World:
    """The stand-in + bot on a private loop; `call` runs a coroutine there and waits."""

    def __init__(self, db_path: str):
        self.db_path = db_path
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run_loop, name="badinput-world", daemon=True)
        self.capture = LogCapture()
        self.standin: DiscordStandIn | None = None
        self.bot = None
        self.runner: ClientRunner | None = None
        self._restore: Callable[[], None] | None = None
        self.users: dict[str, int] = {}
        self.channels: dict[str, int] = {}
        self.guild2 = 0
        self.games: dict[str, int] = {}  # channel name -> game id made there
        self.composers: list[Any] = []  # ephemeral composer messages (Message) of owed players
        self._root_level = logging.getLogger().level
        self._metrobot_level = logging.getLogger("metrobot").level
        self._send_lease = outbox.SEND_LEASE

    # ------------------------------------------------------------ the loop
    def _run_loop(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def call(self, coro: Awaitable[Any], timeout: float = 120.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def __enter__(self) -> World:
        root = logging.getLogger()
        root.addHandler(self.capture)
        root.setLevel(logging.INFO)
        logging.getLogger("metrobot").setLevel(logging.DEBUG)
        outbox.SEND_LEASE = SEND_LEASE
        self.thread.start()
        try:
            self.call(self._start(), timeout=180)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        try:
            if self.standin is not None:
                self.call(self._stop(), timeout=60)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            root = logging.getLogger()
            root.removeHandler(self.capture)
            root.setLevel(self._root_level)
            logging.getLogger("metrobot").setLevel(self._metrobot_level)
            outbox.SEND_LEASE = self._send_lease

    async def _start(self) -> None:
        self.standin = DiscordStandIn()
        await self.standin.start()
        self._restore = point_discord_at(self.standin.api_base, self.standin.gateway_url)
        self.bot = make_bot(self.db_path)
        self.runner = ClientRunner(self.standin)
        await self.runner(self.bot)
        await self.standin.wait_for_commands("game", "dig", "station", "play", "status", "board", "hand")
        await self._make_games()

    async def _stop(self) -> None:
        try:
            if self.runner is not None:
                await self.runner.close_all()
        finally:
            if self._restore is not None:
                self._restore()
            await self.standin.stop()
            rest = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in rest:
                task.cancel()
            await asyncio.gather(*rest, return_exceptions=True)

    def standin_problems(self) -> list[str]:
        return self.standin.problems() if self.standin else []

    # ------------------------------------------------------------ the games
    async def _make_games(self) -> None:
        s = self.standin
        for name in ("ann", "bob", "cat", "dan", "eve", "fay"):
            self.users[name] = s.add_member(name=name.title())
        self.users["mod"] = s.add_member(name="Mod", manage_channels=True)
        # Names Discord would allow (32 characters, any script, bidi overrides, combining marks,
        # markdown, a mention) and one it would not (100 characters): they play in #names.
        self.users["odd"] = s.add_member(name="\u202e@everyone **Ⅻ**\u200b🚇" + "e\u0301" * 8 + "<@1>")
        self.users["long"] = s.add_member(name="L" * 99 + "\U0001f687")
        self.guild2 = s.add_guild("Elsewhere")
        # Zed may run tournaments on that other server; Org on this one (Manage Server).
        self.users["zed"] = s.add_member(
            name="Zed",
            guild_id=self.guild2,
            roles=[s.create_role("Organisers", PERMISSIONS["manage_guild"], self.guild2)],
        )
        self.users["org"] = s.add_member(name="Org", roles=[s.create_role("Organisers", PERMISSIONS["manage_guild"])])
        for name in (
            "lobby",
            "metro",
            "advanced",
            "flip",
            "tube",
            "names",
            "finished-mm",
            "finished-fw",
            "aborted",
            "gone",
            "locked",
            "empty",
            "cup",
        ):
            self.channels[name] = s.create_channel(name)
        self.channels["thread"] = s.create_thread(self.channels["flip"], "solo side game")
        self.channels["elsewhere"] = s.create_channel("elsewhere", self.guild2)
        ann, bob, cat, dan = (self.users[n] for n in ("ann", "bob", "cat", "dan"))
        self.channels["dm"] = s.dm_channel(ann)
        u = self.users  # eve never plays: the spectator

        # A full lobby (2 of 2 seats).
        h = await s.slash(ann, self.channels["lobby"], "game new", {"kind": "metromania", "players": 2})
        await h.wait_message()
        lobby = await s.wait_for_message(self.channels["lobby"], lambda m: "mb:l:" in " ".join(m.custom_ids()))
        await (await s.click(bob, lobby, label="Join")).wait_message()

        s.close_dms(bob)  # the game start tells the channel, not the hand
        await self._table("metro").open(ann, "metromania", [bob, cat], players=3)
        await self._table("advanced").open(cat, "metromania", [dan], variant="advanced")
        flip = self._table("flip")
        await flip.open(bob, "flipwrite", [ann, dan], players=3, city="paris", variant="special")
        await flip.play_by_command(ann)  # one decision sealed, two owed
        await self._table("thread").open(dan, "flipwrite", [], players=1, city="madrid")
        await self._table("names").open(u["odd"], "metromania", [u["long"]], players=2)
        if drawable("underground"):
            tube = self._table("tube")
            await tube.open(dan, "underground", [ann, u["fay"]], players=3)
            await self._no_take_back(dan, "tube")
            await tube.play_by_buttons((await tube.owed())[0])
            left = await s.slash(u["fay"], self.channels["tube"], "game resign")  # the automatic player's seat now
            await left.wait_message()

        for channel, kind, guests, opts in (
            ("finished-mm", "metromania", [bob], {"players": 2}),
            ("finished-fw", "flipwrite", [cat], {"players": 2, "city": "berlin"}),
        ):
            table = self._table(channel)
            await table.open(ann, kind, guests, **opts)
            await self._no_take_back(ann, channel)
            await table.play_by_buttons((await table.owed())[0])  # leaves stale composer/turn messages
            for user in [ann] + guests:  # everyone resigns: the automatic player finishes the game
                h = await s.slash(user, self.channels[channel], "game resign")
                await h.wait_message()
            assert (await table.row()).status == "finished"

        # A tournament open for sign-up here (Ann and Bob signed up), and one on the other server.
        for user, channel in ((u["org"], "cup"), (u["zed"], "elsewhere")):
            h = await s.slash(
                user,
                self.channels[channel],
                "tournament new",
                {"kind": "metromania", "format": "swiss", "table_size": 2, "rounds": 2},
            )
            await h.wait_message()
        # (both sign-up posts go through the outbox: the tests read them, so wait until each is there)
        await s.wait_for_message(self.channels["elsewhere"], lambda m: "mb:tn:" in " ".join(m.custom_ids()))
        signup = await s.wait_for_message(self.channels["cup"], lambda m: "mb:tn:" in " ".join(m.custom_ids()))
        for user in (ann, bob):
            await (
                await s.click(user, signup, custom_id=next(c for c in signup.custom_ids() if c.endswith(":join")))
            ).wait_message()

        await self._table("aborted").open(dan, "metromania", [cat], players=2)
        await (await s.slash(dan, self.channels["aborted"], "game abort")).wait_message()

        await self._table("gone").open(ann, "metromania", [dan], players=2)
        await self._table("locked").open(cat, "flipwrite", [dan], players=2, city="berlin")
        replay = await s.slash(u["eve"], self.channels["finished-mm"], "game replay", {"public": True})
        await replay.wait_message()
        await (await s.slash(bob, self.channels["metro"], "leaderboard")).wait_message()
        await (await s.slash(u["eve"], self.channels["empty"], "game rules")).wait_message()
        await (await s.slash(u["zed"], self.channels["elsewhere"], "game rules")).wait_message()
        await (await s.slash(ann, self.channels["dm"], "games")).wait_message()  # (/status is not offered in a DM)

        # Composers (ephemeral) of the players owed now, for others to press.
        for channel in ("metro", "advanced", "flip", "tube", "names", "locked", "gone"):
            if await self._table(channel).row() is None:
                continue
            table = self._table(channel)
            for user in await table.owed():
                self.composers.append(await table.compose(user))
        s.delete_channel(self.channels["gone"])
        s.forbid_posting(self.channels["locked"])
        for name in self.channels:
            row = await self._table(name).row()
            if row is not None:
                self.games[name] = row.id
        await self.settled()
        con = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=10)
        try:
            held = con.execute(
                "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL AND not_before IS NOT NULL"
            ).fetchone()[0]
        finally:
            con.close()
        assert held == 0, f"the set-up left {held} item(s) held for later: they would land during the fuzzing"

    async def _no_take_back(self, host: int, channel: str) -> None:
        """A set-up move with take-back on holds the next person's ping for the window (two
        minutes), and it lands then: during the fuzzing, if other tests of the module ran first
        (a shuffled order). The set-up's moves are made with take-back off."""
        h = await self.standin.slash(host, self.channels[channel], "game settings", {"takeback_minutes": 0})
        await h.wait_message()

    async def settled(self, timeout: float = 30.0) -> None:
        """Until the bot owes nothing (games' and tournaments' outboxes delivered) and handles
        nothing: the set-up's last posts and edits (a sign-up post edited for each person who
        joined) must not land during the fuzzing, on a loaded machine least of all. That
        includes the channels it cannot post in: a move there leaves its posts owed until their
        claim runs out (`SEND_LEASE`), then a sweep drops them and makes the edits it can (the
        old turn post's buttons, the status message): edits a later test must not count."""
        await quiet(self.standin, self.db_path, self.bot, timeout=timeout)

    def _table(self, channel: str) -> Table:
        return Table(self.standin, self.channels[channel], self.db_path, seed=len(channel))

    # ------------------------------------------------------------ what is stored
    def read_db(self) -> tuple[dict[int, dict[str, Any]], dict[int, list[tuple]]]:
        """Every game row and its action log, straight from the SQLite file."""
        con = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=10)
        try:
            con.row_factory = sqlite3.Row
            games = {r["id"]: dict(r) for r in con.execute("SELECT * FROM games")}
            actions: dict[int, list[tuple]] = {}
            for r in con.execute("SELECT game_id, seq, seat, action, actor FROM actions ORDER BY game_id, seq"):
                actions.setdefault(r[0], []).append(tuple(r[1:]))
            return games, actions
        finally:
            con.close()

    def fingerprint(self) -> tuple:
        """Cheap: every game's id, version, moves and status, the number of logged actions, and
        every tournament's version, status and entrants."""
        con = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=10)
        try:
            games = tuple(con.execute("SELECT id, version, moves, status FROM games ORDER BY id"))
            actions = con.execute("SELECT count(*) FROM actions").fetchone()[0]
            tournaments = tuple(con.execute("SELECT id, version, status FROM tournaments ORDER BY id"))
            entrants = tuple(
                con.execute(
                    "SELECT tournament_id, user_id, dropped FROM tournament_entrants ORDER BY tournament_id, user_id"
                )
            )
            return games, actions, tournaments, entrants
        finally:
            con.close()

    def tournaments(self) -> dict[int, dict[str, Any]]:
        """The open tournaments by hall channel: id, guild, host, stage, status and who is in."""
        con = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=10)
        try:
            rows = con.execute(
                "SELECT id, hall_id, guild_id, host_id, stage, status, rules FROM tournaments "
                "WHERE status IN ('signup', 'running', 'paused')"
            ).fetchall()
            people = con.execute("SELECT tournament_id, user_id FROM tournament_entrants WHERE dropped IS NULL")
            entrants: dict[int, set[str]] = {}
            for tid, user in people:
                entrants.setdefault(tid, set()).add(user)
        finally:
            con.close()
        import json

        return {
            int(hall): {
                "id": tid,
                "guild": guild,
                "host": host,
                "stage": stage,
                "status": status,
                "rules": json.loads(rules),
                "entrants": entrants.get(tid, set()),
            }
            for tid, hall, guild, host, stage, status, rules in rows
        }

    def model(self) -> dict[int, Seen]:
        """What the oracle needs to know per channel: its open game (or None)."""
        games, actions = self.read_db()
        out: dict[int, Seen] = {}
        for row in sorted(games.values(), key=lambda r: r["id"]):
            channel = int(row["channel_id"])
            if row["status"] in ("lobby", "active"):
                out[channel] = Seen.of(row, actions.get(row["id"], []))
        return out

    def public_footprint(self) -> Footprint:
        """Messages and edits anyone can see (channel posts, DMs): refusals must add none."""
        s = self.standin
        mine = [m for m in s.store.by_id.values() if not m.ephemeral and m.author_id == s.bot_id]
        return Footprint({m.id: m.edits for m in mine}, {m.id: (m.channel_id, m.content[:60]) for m in mine})


@dataclass(frozen=True)
class Footprint:
    """The bot's public messages and DMs by id, each with how often it was edited (and where
    it is and how it begins, to name it when it changed: not compared)."""

    edits: dict[int, int]
    where: dict[int, tuple[int, str]] = field(compare=False)

    def changes(self, before: Footprint) -> list[str]:
        """What is new or edited since `before`, in words."""
        return [
            f"message {i} in {self.where[i][0]}: {before.edits.get(i)} -> {n} edits, now {self.where[i][1]!r}"
            for i, n in self.edits.items()
            if before.edits.get(i) != n
        ] + [f"message {i} is gone" for i in before.edits.keys() - self.edits.keys()]


@dataclass
class Seen:
    """A channel's open game as the oracle sees it."""

    id: int
    game: str
    status: str
    host: str
    seats: list[dict[str, Any]]
    max_seats: int
    moves: int
    state: Any
    takeback: dict[str, Any] | None = None  # the move that may still be taken back
    mover: str | None = None  # who made it (the log's last actor)
    invited: list[str] = field(default_factory=list)  # a lobby to play again: whom it still waits for

    @classmethod
    def of(cls, row: dict[str, Any], actions: list[tuple] = ()) -> Seen:
        import json

        plugin = get_plugin(row["game"])
        state = plugin.game.from_json(json.loads(row["state"])) if row["state"] else None
        return cls(
            row["id"],
            row["game"],
            row["status"],
            row["host_id"],
            json.loads(row["seats"]),
            row["max_seats"],
            row["moves"],
            state,
            json.loads(row["takeback"]) if row.get("takeback") else None,
            actions[-1][3] if actions else None,
            _invited(json.loads(row["settings"]) if row.get("settings") else {}),
        )

    def seated(self, user: str) -> dict[str, Any] | None:
        return next((s for s in self.seats if s["user_id"] == user), None)


def _invited(settings: dict[str, Any]) -> list[str]:
    """The people a lobby to play again invited and who have not declined (tables/again.py)."""
    again = settings.get("again") if isinstance(settings, dict) else None
    found = settings.get("found") if isinstance(settings, dict) else None
    if isinstance(found, dict):  # (a table found in the queue: its people confirm, or drop out)
        return list(found.get("invited", []))
    if not isinstance(again, dict):
        return []
    return [u for u in again.get("invited", []) if u not in again.get("declined", [])]


def drawable(game: str) -> bool:
    """The game's images exist in this tree (a game may join the registry before them)."""
    import importlib.util

    renderer = get_plugin(game).renderer
    try:
        return renderer is None or importlib.util.find_spec(renderer) is not None
    except ModuleNotFoundError:
        return False


# ---------------------------------------------------------------- sending one interaction
def asks_for_a_review(attempt: Any) -> bool:
    """The 🔎 Review button or `/game review`: answered when the review is made."""
    data = attempt.data if isinstance(attempt.data, dict) else {}
    if attempt.family == "component":
        return str(data.get("custom_id", "")).startswith("mb:review:")
    options = data.get("options") if attempt.family == "slash" else None
    return (
        data.get("name") == "game"
        and isinstance(options, list)
        and bool(options)
        and isinstance(options[0], dict)
        and options[0].get("name") == "review"
    )


async def send(world: World, attempt: Any, tally: Tally, baseline: dict[str, Any], *, public: bool = False) -> None:
    """Send one interaction that must change nothing; check and count what the bot did
    (`public`: it may answer in public by design, e.g. a replay for the whole channel)."""
    from tests.e2e.standin import StandInTimeout

    s = world.standin
    log_start = len(world.capture)
    handle = await s.forge(
        attempt.itype,
        world.users[attempt.user],
        world.channels[attempt.channel],
        attempt.data,
        message=attempt.message,
        components=attempt.components,
    )
    tally.tried += 1
    tally.by_kind[attempt.family] = tally.by_kind.get(attempt.family, 0) + 1
    label = attempt.label()
    try:
        await handle.wait_response(timeout=REPLY_TIMEOUT)
        if attempt.family == "autocomplete":
            await handle.wait_choices(timeout=REPLY_TIMEOUT)
        else:
            await handle.wait_message(timeout=REVIEW_TIMEOUT if asks_for_a_review(attempt) else REPLY_TIMEOUT)
    except StandInTimeout:
        tally.unanswered += 1
        tally.note(f"no answer: {label}")
    for msg in handle.messages:
        if not msg.ephemeral and not public:
            tally.public_replies += 1
            tally.note(f"public reply {msg.content[:80]!r}: {label}")
        if GENERIC_FAILURE in msg.content:
            tally.generic_replies += 1
            tally.note(f"generic reply: {label}")
    await asyncio.sleep(0)
    fingerprint = world.fingerprint()
    if fingerprint != baseline["fingerprint"]:
        tally.games_changed += 1
        tally.note(f"stored games changed: {label}")
        baseline["fingerprint"] = fingerprint
        baseline["changed"] = True
    footprint = world.public_footprint()
    if public:
        # An answer allowed in public (a replay or rules page turned for everyone) may edit its
        # message after the response: the baseline is what it shows once the bot is done, so a
        # late edit is not counted against the inputs after it.
        await world.settled(REPLY_TIMEOUT)
        footprint = world.public_footprint()
        baseline["footprint"] = footprint
        tally.public_by_design += 1
    if footprint != baseline["footprint"]:
        tally.public_replies += 1
        tally.note(f"public post/edit/DM: {label} ({footprint.changes(baseline['footprint'])[:4]})")
        baseline["footprint"] = footprint
    for record in world.capture.since(log_start):
        if is_traceback(record):
            tally.tracebacks += 1
            tally.note(f"traceback {describe_record(record)}: {label}")
