"""The door every interaction comes through, before discord.py dispatches it: a per-person
rate limit, the refusal while the bot stops, the count of what is in flight (so that a stop can
wait for it), and the interactions' metrics.

It sits on the gateway's INTERACTION_CREATE parser, so it sees commands, buttons, menus and
modals alike, whichever handler would run them. discord.py creates the handlers' tasks while
parsing (the command tree's invoker, the component's dispatch, `on_interaction`): the tasks that
appear during the parse are this interaction's work, and it is in flight until they are done.

**The limit** is a token bucket per person (`BURST` tokens, one back every `1 / RATE` seconds):
10 at once, then one a second — a phone player walking the composer presses 5–8 controls in a
few seconds, a flood of 150 in 8 s gets 18 served. Over the limit, the interaction is answered
privately with when to try again (the answer itself costs no database or image work).
Autocomplete is not limited (Discord sends one per keystroke) and not answered while stopping.
The buckets live in this process: a person's interactions reach the process of their server's
shard, so a flood is limited where it lands.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable
from typing import Any

import discord

from ..metrics import RATE_LIMITED
from .accounting import CURRENT, Account
from .controls import DYNAMIC_ITEMS
from .languages import speaker
from .messages import clip

log = logging.getLogger("metrobot.discord")

RATE = 1.0  # tokens a second: one interaction a second, sustained
BURST = 10  # a full bucket: ten at once
_PRUNE_EVERY = 1000  # takes between sweeps of the buckets of people gone quiet
REFUSALS_AT_ONCE = 8  # refusals being answered at a time
ANSWER_WINDOW = 2.8  # seconds Discord gives an interaction's first answer (3 s, less the way there)

COMMAND, COMPONENT, AUTOCOMPLETE, MODAL = 2, 3, 4, 5
KINDS = {COMMAND: "command", COMPONENT: "control", AUTOCOMPLETE: "autocomplete", MODAL: "modal"}


class TokenBuckets:
    """One bucket per key; `take` says 0 when a token was there (and takes it), else how
    many seconds until one will be."""

    def __init__(self, rate: float = RATE, burst: int = BURST, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: dict[Any, tuple[float, float]] = {}  # key -> (tokens, when counted)
        self._takes = 0

    def take(self, key: Any) -> float:
        if self.rate <= 0:  # (no limit)
            return 0.0
        now = self.clock()
        tokens, then = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        self._takes += 1
        if self._takes % _PRUNE_EVERY == 0:
            self._prune(now)
        if tokens >= 1:
            self._buckets[key] = (tokens - 1, now)
            return 0.0
        self._buckets[key] = (tokens, now)
        return (1 - tokens) / self.rate

    def _prune(self, now: float) -> None:
        """Forget buckets that have filled up again (they would say the same as no bucket)."""
        full = self.burst / self.rate
        for key in [k for k, (_, then) in self._buckets.items() if now - then >= full]:
            del self._buckets[key]

    def __len__(self) -> int:
        return len(self._buckets)


class Gate:
    def __init__(self, bot: Any, buckets: TokenBuckets | None = None):
        self.bot = bot
        self.buckets = buckets if buckets is not None else TokenBuckets()
        self.stopping = False
        self._in_flight: set[asyncio.Task] = set()
        self._answering = asyncio.Semaphore(REFUSALS_AT_ONCE)
        self.state: Any = None  # discord.py's connection state, which reads a refused interaction

    def install(self, state: Any) -> None:
        """In front of discord.py's parser of interactions, in its connection state."""
        self.state = state
        parsers: dict[str, Callable[[Any], Any]] = state.parsers
        parse = parsers["INTERACTION_CREATE"]
        parsers["INTERACTION_CREATE"] = lambda data: self.admit(data, parse)

    def admit(self, data: Any, parse: Callable[[Any], Any]) -> Any:
        try:
            return self._admit(data, parse)
        except _Unreadable as exc:  # (a payload Discord would never send: discord.py's guarded parser says so)
            log.warning("gate: could not read an interaction (%s); passed on as it came", exc)
            return parse(data)

    def _admit(self, data: Any, parse: Callable[[Any], Any]) -> Any:
        """Let the interaction through to discord.py, or answer it here."""
        kind_code = data.get("type") if isinstance(data, dict) else None
        kind = KINDS.get(kind_code, "other") if isinstance(kind_code, int) else "other"
        if kind == "other":  # (a ping, or nothing Discord sends)
            return parse(data)
        try:
            name, user = self._name(data), _user_id(data)
        except Exception as exc:
            raise _Unreadable(f"{type(exc).__name__}: {exc}") from None
        if kind == "autocomplete":
            return None if self.stopping else self._through(data, parse, Account(kind, name))
        if self.stopping:
            return self._answer(
                data,
                Account(kind, name, outcome="stopping"),
                lambda lang: lang.t("The bot is restarting; try again in a minute."),
            )
        wait = self.buckets.take(user)
        if wait:
            RATE_LIMITED.inc()
            seconds = max(1, math.ceil(wait))
            return self._answer(
                data,
                Account(kind, name, outcome="limited"),
                lambda lang: lang.n(
                    "That is more than the bot takes from one person at once: try again in {n} second.",
                    "That is more than the bot takes from one person at once: try again in {n} seconds.",
                    seconds,
                    n=seconds,
                ),
            )
        return self._through(data, parse, Account(kind, name))

    def _through(self, data: Any, parse: Callable[[Any], Any], account: Account) -> Any:
        before = asyncio.all_tasks()
        token = CURRENT.set(account)  # (the handlers' tasks copy this context as they are made)
        try:
            return parse(data)
        finally:
            CURRENT.reset(token)
            self._follow(account, asyncio.all_tasks() - before)

    def _answer(self, data: Any, account: Account, text: Callable[[Any], str]) -> None:
        try:
            interaction = discord.Interaction(data=data, state=self.state)
        except Exception as exc:  # (what discord.py could not read, the guarded parser logs)
            log.warning("ignored an interaction that could not be read (%s: %s)", type(exc).__name__, exc)
            return None
        reply = self._refuse(interaction, text(speaker(interaction)), account, time.monotonic())
        self._follow(account, {asyncio.get_running_loop().create_task(reply)})
        return None

    async def _refuse(self, interaction: discord.Interaction, text: str, account: Account, arrived: float) -> None:
        """Answer a refused interaction, a few at a time: a flood's answers take their turn
        behind everybody else's work instead of all at once before it. One that waited past
        Discord's answer window can no longer be answered and is dropped."""
        async with self._answering:
            if time.monotonic() - arrived > ANSWER_WINDOW:
                account.outcome = "expired"
                return
            try:
                await interaction.response.send_message(clip(text), ephemeral=True)
            except discord.HTTPException as exc:  # (the interaction expired, or Discord had a hiccup)
                log.warning("could not answer an interaction: %s", exc)

    def _follow(self, account: Account, tasks: set[asyncio.Task]) -> None:
        account.tasks = len(tasks)
        if not tasks:
            account.done()
            return
        for task in tasks:
            self._in_flight.add(task)
            task.add_done_callback(lambda t, a=account: self._finished(t, a))

    def _finished(self, task: asyncio.Task, account: Account) -> None:
        self._in_flight.discard(task)
        account.tasks -= 1
        if account.tasks == 0:
            account.done()

    @property
    def in_flight(self) -> int:
        return len(self._in_flight)

    async def drain(self, timeout: float) -> bool:
        """Wait until nothing admitted is still running (True), or `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while self._in_flight:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            await asyncio.wait(set(self._in_flight), timeout=left)
        return True

    def _name(self, data: dict) -> str:
        """A label for the metrics from a small fixed set: the command's name, or the kind
        of control (never anything a user typed or a forged payload made up)."""
        raw = data.get("data")
        inner = raw if isinstance(raw, dict) else {}
        if data.get("type") in (COMMAND, AUTOCOMPLETE):
            name = str(inner.get("name", ""))
            return name if self.bot.tree.get_command(name) is not None else "other"
        custom_id = str(inner.get("custom_id", ""))
        if data.get("type") == MODAL:
            return "typed" if custom_id.startswith("mb:tm:") else "other"
        for item in DYNAMIC_ITEMS:
            if item.__discord_ui_compiled_template__.fullmatch(custom_id):
                return item.__name__
        return "other"


class _Unreadable(Exception):
    pass


def _user_id(data: dict) -> str:
    """Who sent it: the member in a server, the user in a DM."""
    who = (data.get("member") or {}).get("user") or data.get("user") or {}
    return str(who.get("id", "?")) if isinstance(who, dict) else "?"
