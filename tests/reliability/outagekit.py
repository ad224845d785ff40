"""What the database-fault suite needs besides its servers (pgcluster.py): the bot as
`python bot.py` on a database that will go away, its health check, a two-player game played
through the stand-in (by commands and by the buttons), and people who keep asking while the
database is away, noting what they were answered and how fast.

The game's moves are made only while the database answers (between faults), so each is
answered "Done"/"Saved" (acknowledged) or refused by a rule: the audit can then ask that the
log holds exactly the acknowledged moves. What people send while it is away must all be
answered with the clear word, and changes nothing.
"""

from __future__ import annotations

import asyncio
import collections
import os
import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import aiohttp

from tests.e2e.harness import start_bot_process, stop_process
from tests.e2e.players import Table
from tests.e2e.standin import StandInTimeout
from tests.e2e.waiting import delivered
from tools.ports import free_port

from .crashkit import FAULTS_DIR, ROOT, Audit, Channel, audit_announcements, audit_storage, read_db
from .sizes import FULL

CLEAR = "The game's database is not answering; nothing was changed — try again in a minute."
CLEAR_SHORT = "The game's database is not answering; try again in a minute."  # (an autocomplete suggestion)
MAYBE_SAVED = "The game's database stopped answering while I was saving"
WENT_WRONG = "Something went wrong on my side"
WINDOW = 3.0  # Discord's: an interaction's first answer (a deferral counts) comes within it
# The everyday size frees what a process was delivering when the database went away after 3 s,
# not 10 (sends) and 20 (sweeps), as the crash suite does: a message sent while the database
# failed, whose delivery could not be recorded, is the next sweep's once its claim runs out, and
# each test's last step waited 10 s for that (`make reliability` keeps the shipped leases). A
# shorter lease only makes a second copy likelier, which the audit counts.
EVERYDAY = "" if FULL else "leases:3"


class OutageBot:
    """`python bot.py` on `database` (an SQLite file or a postgresql:// URL), with its health check."""

    def __init__(self, standin, database: str, folder: Path, faults: str = ""):
        self.standin, self.database, self.faults = standin, database, faults
        self.log = folder / "bot.log"
        self.spare = folder / "unused.sqlite3"  # (bot.py wants a file even when it uses PostgreSQL)
        self.port = free_port()
        self.proc = None

    async def start(self) -> None:
        env = {"METROBOT_METRICS_PORT": str(self.port)}
        faults = ",".join(f for f in (self.faults, EVERYDAY) if f)
        if faults:  # (see faults/sitecustomize.py)
            env.update({"PYTHONPATH": f"{FAULTS_DIR}{os.pathsep}{ROOT}", "METROBOT_TEST_FAULTS": faults})
        db_path = self.database
        if self.database.startswith("postgresql://"):
            env["METROBOT_DATABASE_URL"], db_path = self.database, str(self.spare)
        wanted = self.standin.identify_count + 1
        # (commits synced as the bot syncs them: a disk that fills up or turns read-only fails there)
        self.proc = start_bot_process(self.standin, db_path, log_path=str(self.log), env=env, fsync=True)
        await self.standin.wait_for_identify(wanted, timeout=60)

    async def stop(self) -> int:
        await stop_process(self.proc, timeout=20)
        return self.proc.returncode

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    async def health(self) -> tuple[int | None, dict]:
        try:
            async with (
                aiohttp.ClientSession() as http,
                http.get(f"http://127.0.0.1:{self.port}/healthz", timeout=aiohttp.ClientTimeout(total=5)) as response,
            ):
                return response.status, await response.json()
        except (TimeoutError, aiohttp.ClientError) as exc:
            return None, {"error": str(exc)}

    async def wait_health(self, status: int, timeout: float = 60.0) -> dict:
        """Until /healthz says `status`; its body then."""
        until = time.monotonic() + timeout
        while True:
            got, body = await self.health()
            if got == status:
                return body
            assert time.monotonic() < until, f"/healthz stayed {got} {body}, not {status}"
            await asyncio.sleep(0.2)

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


class Game:
    """A two-player MetrOmania game in a channel of its own, played whenever asked: one move
    (a whole turn, or some of it) by the person it waits for, by /dig with steps picked from
    the suggestions, or (every third) through ▶ Play, the composer and ✔ Confirm."""

    def __init__(self, standin, database: str, name: str = "db-faults", seed: int = 3):
        self.s, self.database, self.name, self.seed = standin, database, name, seed
        self.people = [standin.add_member(name="Ann"), standin.add_member(name="Bob")]
        self.channels: list[Channel] = []
        self._new_channel()
        self.tries = 0
        self.acked = 0  # steps acknowledged
        self.unclear = 0  # moves answered with neither an acknowledgement nor a refusal

    def _new_channel(self) -> None:
        self.channel_id = self.s.create_channel(f"{self.name}-{len(self.channels) + 1}")
        self.table = Table(self.s, self.channel_id, self.database, seed=self.seed + len(self.channels))
        self.channel = Channel(self.channel_id, "metromania", self.people)
        self.channels.append(self.channel)

    async def open(self) -> None:
        await self.table.open(self.people[0], "metromania", self.people[1:], players=2)

    async def move(self) -> bool:
        """One move by whoever is owed one (after a game that ended, in a new game in a channel
        of its own); True if it was acknowledged."""
        owed = await self.table.owed()
        if not owed:
            await self.table.posted()
            self._new_channel()
            await self.open()
            owed = await self.table.owed()
        user = owed[0]
        self.tries += 1
        try:
            steps, text = await (self._by_buttons(user) if self.tries % 3 == 0 else self._by_command(user))
        except (TimeoutError, StandInTimeout):
            self.unclear += 1
            return False
        if text.startswith(("Done", "Saved", "✔ Played")):
            self.acked += steps
            self.channel.acked[user] += steps
            return True
        if text.startswith((CLEAR, MAYBE_SAVED)) or WENT_WRONG in text:
            self.unclear += 1
        return False

    async def play(self, moves: int) -> int:
        """`moves` moves; how many were acknowledged (each must be: the database answers)."""
        return sum([await self.move() for _ in range(moves)])

    async def _by_command(self, user: int) -> tuple[int, str]:
        steps: dict[str, str] = {}
        for i in range(1, 3):
            options = await self.table.choices(user, "dig", steps, f"step{i}")
            if not options:
                break
            steps[f"step{i}"] = self.table.rnd.choice(options)["value"]
        if not steps:  # (only a station can be built: the buttons can)
            return await self._by_buttons(user)
        h = await self.s.slash(user, self.channel_id, "dig", steps)
        return len(steps), (await h.wait_message()).content

    async def _by_buttons(self, user: int) -> tuple[int, str]:
        composer = await self.table.compose(user)
        confirm = next(c for c in composer.custom_ids() if c.startswith("mb:ok:"))
        h = await self.s.click(user, composer, custom_id=confirm)
        await h.wait_response()
        message = await h.wait_message(lambda m: m.content.startswith("✔ Played") or m.id != composer.id)
        return len([s for s in confirm.split(":", 4)[4].split(";") if s]), message.content


@dataclass
class Answer:
    what: str
    latency: float | None
    text: str


@dataclass
class Probes:
    """People asking while the database is away: what they sent, what they got back."""

    game: Game
    answers: list[Answer] = field(default_factory=list)
    mover: int = 0  # the person the game waits for
    other: int = 0
    step: str = ""  # a legal step of the mover's
    elsewhere: int = 0  # a channel without a game

    def fresh(self) -> Probes:
        """The same people asking the same, with no answers yet."""
        return replace(self, answers=[])

    async def prepare(self) -> None:
        """While the database answers: a legal step to try later, and a second channel."""
        owed = (await self.game.table.owed())[0]
        self.mover = owed
        self.other = next(p for p in self.game.people if p != owed)
        self.step = (await self.game.table.choices(owed, "dig", {}, "step1"))[0]["value"]
        self.elsewhere = self.game.s.create_channel(f"{self.game.channel_id}-elsewhere")

    async def round(self, *, reads: bool = True, writes: bool = True) -> None:
        """Each kind of request once: the reads (/status, 🗺 Board, ▶ Play, autocomplete) and
        the writes (/dig, /game new, /me settings)."""
        s, g = self.game.s, self.game
        asks = []
        if reads:
            asks += [
                ("/status", lambda: s.slash(self.other, g.channel_id, "status")),
                ("board button", lambda: self._press(self.other, "board")),
                ("play button", lambda: self._press(self.mover, "play")),
            ]
        if writes:
            asks += [
                ("/dig", lambda: s.slash(self.mover, g.channel_id, "dig", {"step1": self.step})),
                ("/game new", lambda: s.slash(self.other, self.elsewhere, "game new", {"kind": "metromania"})),
                ("/me settings", lambda: s.slash(self.other, g.channel_id, "me settings", {"turn_dms": False})),
            ]
        for what, ask in asks:
            h = await ask()
            message = await h.wait_message(timeout=15)
            self.answers.append(Answer(what, h.response_latency, message.content))
        if reads:
            start = time.monotonic()
            choices = await s.autocomplete(self.mover, g.channel_id, "dig", {"step1": ""}, focused="step1", timeout=15)
            self.answers.append(
                Answer("autocomplete", time.monotonic() - start, " | ".join(c["name"] for c in choices))
            )

    async def while_hung(self, thaw, seconds: float) -> None:
        """The reads, all at once, while the database hangs; `thaw()` after `seconds`. The
        commands wait (deferred) for it; autocomplete can't, and must answer in time anyway."""
        s, g = self.game.s, self.game

        async def ask(what: str, send) -> None:
            h = await send()
            text = (await h.wait_message(timeout=60)).content
            self.answers.append(Answer(what, h.response_latency, text))

        async def complete() -> None:
            start = time.monotonic()
            choices = await s.autocomplete(self.mover, g.channel_id, "dig", {"step1": ""}, focused="step1", timeout=60)
            self.answers.append(
                Answer("autocomplete", time.monotonic() - start, " | ".join(c["name"] for c in choices))
            )

        asking = [
            asyncio.create_task(ask("/status", lambda: s.slash(self.other, g.channel_id, "status"))),
            asyncio.create_task(ask("board button", lambda: self._press(self.other, "board"))),
            asyncio.create_task(complete()),
        ]
        await asyncio.sleep(seconds)
        await thaw()
        await asyncio.gather(*asking)

    async def _press(self, user: int, op: str):
        """`op` (play, board) on the newest turn post that has it now (earlier posts lose
        their buttons as the game goes on)."""
        post = _turn_post(self.game.table, op)
        return await self.game.s.click(user, post, custom_id=_button(post, op))

    def wrong(self, expected: dict[str, str], *, clear_ok: bool = False) -> list[Answer]:
        """The answers that were too slow or not as expected: the text `expected` says for
        their kind of request; for the others, anything but the words for a bug (and the
        clear word, unless `clear_ok`)."""
        bad = []
        for a in self.answers:
            want = expected.get(a.what)
            if want is not None:
                unexpected = a.text != want
            else:
                unexpected = WENT_WRONG in a.text or (
                    not clear_ok and ("database is not answering" in a.text or a.text.startswith(MAYBE_SAVED))
                )
            if unexpected or a.latency is None or a.latency >= WINDOW:
                bad.append(a)
        return bad


ALL_CLEAR = {
    "/status": CLEAR,
    "board button": CLEAR,
    "play button": CLEAR,
    "autocomplete": CLEAR_SHORT,
    "/dig": CLEAR,
    "/game new": CLEAR,
    "/me settings": CLEAR,
}
WRITES_CLEAR = {k: v for k, v in ALL_CLEAR.items() if k in ("/dig", "/game new", "/me settings")}


def _turn_post(table: Table, op: str):
    """The newest post with a turn's button `op`."""
    for message in reversed(table.public()):
        if any(c.startswith("mb:p:") and c.endswith(f":{op}") for c in message.custom_ids()):
            return message
    raise AssertionError(f"no turn post with its {op} button in the channel")


def _button(message, op: str) -> str:
    return next(c for c in message.custom_ids() if c.startswith("mb:p:") and c.endswith(f":{op}"))


def slow_answers(standin) -> list[str]:
    """Every interaction the stand-in sent that was not answered (a deferral counts) within WINDOW."""
    return [
        f"{h.name}: {h.response_latency}"
        for h in standin.interactions()
        if h.response_latency is None or h.response_latency >= WINDOW
    ]


async def settled(standin, database: str, timeout: float = 90.0) -> None:
    """Until the outbox holds nothing undelivered (what an outage left owed goes out after it)."""
    await delivered(standin, database, timeout=timeout)


def audit(standin, database: str, game: Game) -> tuple[Audit, int]:
    """The storage and announcement audits of the crash suite, and how many moves of people
    the log holds."""
    result = Audit()
    audit_storage(database, game.channels, result)
    result.acknowledged = game.acked
    audit_announcements(standin, database, result)
    _, actions, _ = read_db(database)
    stored = sum(1 for log in actions.values() for a in log if a["actor"] != "auto")
    return result, stored


def log_lines(text: str, pattern: str) -> list[str]:
    return [line for line in text.splitlines() if re.search(pattern, line)]


def warnings(text: str) -> collections.Counter[str]:
    """The log's warnings and errors, by logger and message (without the time)."""
    return collections.Counter(
        line.split(" ", 2)[2][:160] for line in text.splitlines() if " WARNING " in line or " ERROR " in line
    )
