"""The secrecy suite's players and watcher.

Whole seeded games are played through the service (`GameService` on SQLite, as the Discord
adapter uses it) by scripted people who use everything a person can: menus step by step,
whole turns at once, /status, /board, /hand, moves out of turn, resigning, turn clocks that
run out. A `Watcher` checks everything the service says to anyone:

* every public message, every DM (and its addressee), every private reply and refusal (and
  its addressee), every menu (and its addressee), every log record at INFO and above: no
  secret in the forms the game's own texts use, except to the one person it belongs to
  (log lines: to nobody);
* after every change, for a spectator and for one player: the view (the public JSON), the
  hand text, the menu, the prompt, the alt text of their picture and their text board are
  the same for the state and for its twin that
  differs only in what that viewer may not see (`secrecy_model`), and the view holds no
  secret by its keys;
* now and then, the read-only requests (/status, /board, /hand, a menu with its preview,
  /board format:text)
  of one person, answered by two services whose games differ only in what that person may
  not see: the answers must be identical (texts, and with images on, the images byte for
  byte) — `/me data`'s file among them;
* now and then, a person's `/me data` file from the game's own database (with its log): no
  secret of anyone else in it;
* now and then, a move that may be taken back is (↶): what the take-back says is the same for
  the game and for its twin that differs only in what the mover may not see (the same move
  played in both), and everything it says is checked like the rest.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from metrobot.games import BadInput, RuleError, get_plugin
from metrobot.games.hints import requester_view, suggest
from metrobot.service import Menu, Outcome, Refused, fixed_seeds
from metrobot.storage import Database, GameRow, Seat
from metrobot.wiring import GameService
from tests.clock import Clock

from .secrecy_model import Secret, model
from .twins import twin

PEOPLE = [
    (str(880000000000000000 + 11 * i), name)
    for i, name in enumerate(["Ann", "Bob", "Cat", "Dan", "Eli", "Fay", "Gus", "Hal", "Ivy"], 1)
]
SPECTATOR = ("880000000000009999", "Sid")

# (players, variant, city) per game kind, taken in turn.
CONFIGS: dict[str, list[tuple[int, str | None, str | None]]] = {
    "metromania": [
        (3, None, None),
        (4, None, None),
        (2, None, None),
        (3, "open", None),
        (4, None, None),
        (3, None, None),
        (2, "advanced", None),
        (4, "strict", None),
    ],
    "flipwrite": [
        (3, None, "paris"),
        (2, "special", "berlin"),
        (1, None, "amsterdam"),
        (4, "special", "madrid"),
        (5, None, "berlin"),
        (8, "special", "paris"),
        (2, None, "madrid"),
        (3, "special", "amsterdam"),
    ],
}
DEFAULT_CONFIGS = [(2, None, None), (3, None, None), (4, None, None)]
ASKS = ("status", "board", "hand", "menu", "board_text", "data")


def configs(kind: str) -> list[tuple[int, str | None, str | None]]:
    game = get_plugin(kind).game
    return CONFIGS.get(kind) or [
        c for c in DEFAULT_CONFIGS + [(game.max_players, None, None)] if game.min_players <= c[0] <= game.max_players
    ]


class Records(logging.Handler):
    """Log records at INFO and above of everything but the Discord stand-in."""

    def __init__(self) -> None:
        super().__init__(level=logging.INFO)
        self.records: list[logging.LogRecord] = []
        self._lock = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        if not record.name.startswith("standin"):
            with self._lock:
                self.records.append(record)

    def take(self) -> list[logging.LogRecord]:
        with self._lock:
            out, self.records = self.records, []
        return out


@dataclass
class Watch:
    """What the suite counted."""

    games: dict[str, int] = field(default_factory=dict)
    outputs: dict[str, int] = field(default_factory=dict)  # public, dm, reply, menu, log, autocomplete
    leaks: int = 0
    view_checks: int = 0  # twin comparisons of views, hands, menus and prompts
    twins_changed: int = 0  # of those, twins that differed in more than the generator
    service_twins: int = 0  # read-only requests answered for a state and its twin
    image_checks: int = 0  # images drawn for a state and its twin
    cli_checks: int = 0  # `python -m metrobot render` outputs for a state and its twin
    hint_checks: int = 0  # hints (the greedy player's suggestion) for a state and its twin
    brief_checks: int = 0  # the tutorial coach's word on the board, for a state and its twin
    alt_checks: int = 0  # an image's alt text and the text board, for a state and its twin
    data_checks: int = 0  # /me data files read for secrets
    takeback_twins: int = 0  # what taking a move back says, for a game and its twin
    takebacks: int = 0  # moves taken back (everything they said checked)
    reminder_checks: int = 0  # a follower's DM and a digest made for a state and its twins
    problems: list[str] = field(default_factory=list)

    def merge(self, other: Watch) -> None:
        """Add another watch's counts (games played elsewhere, e.g. in a worker process)."""
        for name in (
            "leaks",
            "view_checks",
            "twins_changed",
            "service_twins",
            "image_checks",
            "cli_checks",
            "hint_checks",
            "brief_checks",
            "alt_checks",
            "data_checks",
            "takeback_twins",
            "takebacks",
            "reminder_checks",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for mine, theirs in ((self.games, other.games), (self.outputs, other.outputs)):
            for key, value in theirs.items():
                mine[key] = mine.get(key, 0) + value
        self.problems += other.problems[: max(0, 40 - len(self.problems))]

    def leak(self, what: str) -> None:
        self.leaks += 1
        if len(self.problems) < 40:
            self.problems.append(what)

    def count(self, channel: str, n: int = 1) -> None:
        self.outputs[channel] = self.outputs.get(channel, 0) + n


class Watcher:
    """Checks what is said about one game against what is secret in it now."""

    def __init__(self, kind: str, watch: Watch, label: str, rnd: random.Random):
        self.kind, self.watch, self.label, self.rnd = kind, watch, label, rnd
        self.plugin = get_plugin(kind)
        self.game = self.plugin.game
        self.model = model(kind)
        self.row: GameRow | None = None
        self.state: Any = None
        self.secrets: list[Secret] = []
        self.revealed: list[str] = []
        self._version: int | None = None
        self._logged = 0
        self._worded: list[str] = []
        self._held = 0  # the last held message checked

    async def look(self, db: Database, channel: str) -> bool:
        """Read the game again; True if it changed since the last look."""
        row = await db.open_game(channel) or await db.last_game(channel)
        changed = row is not None and row.version != self._version
        self.row, self._version = row, (row.version if row else None)
        if changed and row.state is not None:
            self.state = self.game.from_json(row.state)
        self.secrets = self.model.secrets(self.state) if self.state is not None else []
        self.revealed = await self._revealed(db) if changed and self.state is not None else []
        return changed and self.state is not None

    async def _revealed(self, db: Database) -> list[str]:
        """What a change made public in the words of the game's descriptions: the forms that
        were secret before it and the descriptions of the actions it logged, less what is
        still secret (a round that resolves reveals its decisions; the automatic player may
        already have decided the next one). Only secrets written as descriptions need it."""
        worded = [f for s in self.secrets if not s.in_menus for f in s.forms]
        if not worded and not self._worded:
            self._logged = self.row.moves
            return []
        actions = await db.actions(self.row.id)
        new, self._logged = actions[self._logged :], len(actions)
        out, self._worded = list(self._worded), worded
        for a in new:
            try:
                out.append(self.plugin.describe(self.state, a["action"]))
            except Exception:  # noqa: BLE001 - then nothing of it is allowed
                continue
        for form in worded:
            if form in out:
                out.remove(form)
        return out

    def check(self, text: str, channel: str, to: str | None, *, public: bool = False) -> None:
        """No secret in `text` unless it is `to`'s own (log lines: nobody's); in public, forms
        the last change revealed may appear as often as it revealed them; to a person, forms
        of their own secrets as often as they hold them (their sealed decision told back to
        them reads the same as someone else's same decision)."""
        self.watch.count(channel)
        revealed = list(self.revealed) if public else []
        if to is not None and channel != "log":
            revealed += [f for s in self.secrets if s.owner == to for f in s.forms]
        for secret in self.secrets:
            if to is not None and secret.owner == to and channel != "log":
                continue
            if channel in ("menu", "composer", "autocomplete") and not secret.in_menus:
                continue  # others' menus use the same words: the twin comparisons cover them
            for form in secret.forms:
                if form and text.count(form) > sum(r.count(form) for r in revealed):
                    self.watch.leak(f"{self.label}: {secret.what} in a {channel} message to {to}: {text[:300]!r}")
                    break

    def check_records(self, records: list[logging.LogRecord]) -> None:
        for record in records:
            self.check(record.getMessage() + (f"\n{record.exc_text}" if record.exc_text else ""), "log", None)

    def check_result(self, who: str | None, result: Any) -> None:
        if isinstance(result, Refused):
            self.check(str(result), "reply", who)
        elif isinstance(result, Menu):
            texts = [result.summary, result.heading] + [f"{c.code} {c.label} {c.group}" for c in result.choices]
            self.check("\n".join(texts), "menu", who)
        elif isinstance(result, Outcome):
            if result.reply is not None:
                self.check(result.reply.text, "reply", who)
            for message in result.public + result.edits:  # (the status message is edited in public)
                self.check(message.text, "public", None, public=True)
            for user, message in result.dms:
                self.check(message.text, "dm", user)
            for _, other in result.elsewhere:
                self.check_result(None, Outcome(public=other.public, dms=other.dms, edits=other.edits))

    async def check_held(self, db: Database) -> None:
        """What waits for someone's quiet hours (a DM, a reminder, a nudge) is owed, not in the
        outcome: read it where it waits."""
        async with db.driver.read() as q:
            rows = await q.fetch(
                "SELECT id, target, payload FROM outbox WHERE not_before IS NOT NULL AND id > ? ORDER BY id", self._held
            )
        for oid, target, payload in rows:
            self._held = oid
            text = json.loads(payload)["text"]
            if target.startswith("dm:"):
                self.check(text, "dm", target.removeprefix("dm:"))
            else:
                self.check(text, "public", None, public=True)

    def compare_views(self, people: list[str]) -> None:
        """The state and its twin look the same to a spectator and to one player."""
        state, game, plugin = self.state, self.game, self.plugin
        for viewer in (None, self.rnd.choice(people)):
            twin, changed = self.model.twin(state, viewer, self.rnd)
            self.watch.view_checks += 1
            self.watch.twins_changed += changed
            view = game.view(state, viewer)
            for problem in self.model.structure(state, view, viewer):
                self.watch.leak(f"{self.label}: view for {viewer}: {problem}")
            other = game.view(twin, viewer)
            if view != other:
                self.watch.leak(
                    f"{self.label}: the view for {viewer} depends on what they may not see: {diff(view, other)}"
                )
            if plugin.prompt(state, "<who>") != plugin.prompt(twin, "<who>"):
                self.watch.leak(f"{self.label}: the prompt depends on secrets")
            for seat in game.seats(state):  # the tutorial's coach says it to the whole thread
                self.watch.brief_checks += 1
                if plugin.board_brief(state, seat) != plugin.board_brief(twin, seat):
                    self.watch.leak(f"{self.label}: the coach's word on the board for {seat} depends on secrets")
            self.compare_words(state, twin, viewer)
            if viewer is None:
                continue
            seats = game.seats_of(state, viewer)
            if plugin.hand_text(view, seats) != plugin.hand_text(other, seats):
                self.watch.leak(f"{self.label}: {viewer}'s hand text depends on others' secrets")
            for seat in seats:
                if seat in game.to_move(state) and plugin.choices(state, seat) != plugin.choices(twin, seat):
                    self.watch.leak(f"{self.label}: {viewer}'s menu depends on others' secrets")
                if seat in game.to_move(state) and not game.is_over(state):
                    # A hint (💡, /hint) is made from what the service hands it: the same for the twin.
                    key = f"{self.label}:{game.turn_number(state)}"
                    hints = [suggest(plugin.name, *requester_view(game, s, seat), seat, [], key) for s in (state, twin)]
                    self.watch.hint_checks += 1
                    if hints[0] != hints[1]:
                        self.watch.leak(f"{self.label}: {viewer}'s hint depends on others' secrets: {hints}")

    def compare_words(self, state: Any, twin: Any, viewer: str | None) -> None:
        """What a screen reader hears of the picture `viewer` gets (its alt text, as the
        service makes it) and of `/board format:text`: the same for the state and its twin,
        and no secret of anyone else in it."""
        from metrobot.i18n import EN
        from metrobot.service.pictures import alt_text

        game, plugin = self.game, self.plugin
        said = []
        for s in (state, twin):
            view = game.view(s, viewer)
            waiting = [seat for seat in game.seats(s) if seat in game.to_move(s)]
            pictures = [alt_text(plugin, view, viewer, None, EN, waiting=waiting)]
            if game.is_over(s):
                pictures.append(alt_text(plugin, view, viewer, None, EN, picture="final:end.png"))
            said.append((pictures, plugin.text_board(view, viewer, None, EN, waiting=tuple(waiting))))
        self.watch.alt_checks += 1
        if said[0][0] != said[1][0]:
            self.watch.leak(f"{self.label}: the alt text for {viewer} depends on what they may not see")
        if said[0][1] != said[1][1]:
            self.watch.leak(f"{self.label}: the text board for {viewer} depends on what they may not see")
        self.check("\n".join(said[0][0]), "alt_text", viewer)
        self.check("\n".join(said[0][1]), "text_board", viewer)

    async def compare_takeback(self, service: GameService, db: Database, who: str, before: Any) -> None:
        """What taking back `who`'s move just made would say (the edit of its post, the status
        message, the reply, the DMs) for the game and for its twin that differs only in what
        the mover may not see, the same move played in both: the same, word for word."""
        row, after, game = self.row, self.state, self.game
        record = row.takeback or {}
        taken = (await db.actions(row.id))[record.get("from", 0) : record.get("to", 0)]
        if not taken:
            return
        seat = taken[0]["player"]
        twin_before, _ = self.model.twin(before, who, self.rnd)
        twin_after = twin_before
        try:
            for entry in taken:
                twin_after, _ = game.apply(twin_after, entry["player"], entry["action"])
        except (RuleError, BadInput) as exc:
            self.watch.leak(f"{self.label}: {who}'s move is not legal in the twin ({exc}): it depends on secrets")
            return
        said = []
        for b, a in ((before, after), (twin_before, twin_after)):
            out, changes = await service.takeback.taken_back(row, self.plugin, a, b, seat, who, service.clock())
            said.append(([m.text for m in out.edits], out.reply.text, sorted((u, m.text) for u, m in out.dms), changes))
        self.watch.takeback_twins += 1
        if said[0] != said[1]:
            self.watch.leak(f"{self.label}: taking back {who}'s move says what they may not see: {diff(*said)}")

    async def compare_answers(self, who: str, images: bool) -> None:
        """/status, /board, /hand and a menu of one person, for the game and for its twin
        that differs only in what that person may not see."""
        if self.row is None or self.state is None or self.row.status != "active":
            return
        keep = who if self.game.seats_of(self.state, who) else None
        twin, _ = self.model.twin(self.state, keep, self.rnd)
        mine = await answers(self.row, self.state, who, images)
        theirs = await answers(self.row, twin, who, images)
        for ask, a, b in zip(ASKS, mine, theirs):
            self.watch.service_twins += 1
            if a != b:
                self.watch.leak(
                    f"{self.label}: /{ask} for {who} depends on what they may not see: "
                    f"{str(a)[:200]!r} vs {str(b)[:200]!r}"
                )


async def answers(row: GameRow, state: Any, who: str, images: bool) -> list[Any]:
    """The read-only requests' answers of a service holding this game in this state, as
    comparable data (texts, image bytes, menu choices)."""
    fields = {"status": row.status, "host_id": row.host_id, "deadline": row.deadline, "reminded": row.reminded}
    async with twin(row, state, images=images, **fields) as (service, _):
        return [await _ask(service, ask, row.channel_id, who) for ask in ASKS]


async def _ask(service: GameService, ask: str, channel: str, who: str) -> Any:
    try:
        if ask == "data":  # /me data's file
            from metrobot.app import privacy

            document = _timeless(
                await privacy(service.db, service).export(who)
            )  # (the two services' rows differ in when)
            return ("data", json.dumps(document, sort_keys=True, ensure_ascii=False))
        if ask == "menu":
            m = await service.turns.menu(channel, who, [], preview=True)
            return (
                "menu",
                m.choices,
                m.summary,
                m.complete,
                m.can_submit,
                (m.preview.data, m.preview.description) if m.preview else None,
            )
        outcome = await getattr(service.queries, ask)(channel, who)
    except Refused as exc:
        return ("refused", str(exc))
    reply = outcome.reply
    return ("reply", reply.text if reply else None, [(f.data, f.description) for f in (reply.files if reply else [])])


def _timeless(value: Any) -> Any:
    """A `/me data` file without its times (when the rows were written is not a secret)."""
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items() if k != "at" and not k.endswith("_at")}
    if isinstance(value, list):
        return [_timeless(v) for v in value]
    return value


def diff(a: Any, b: Any, path: str = "$") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return diff(a.get(k), b.get(k), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return diff(x, y, f"{path}[{i}]")
    return f"{path}: {str(a)[:120]} vs {str(b)[:120]}"


Until = Callable[[Watch], bool]  # when a game may stop early (see `play_games`)


# ---------------------------------------------------------------- a whole game through the service
class Table:
    """One seeded game through the service, with everything it says checked."""

    def __init__(
        self,
        kind: str,
        number: int,
        watch: Watch,
        records: Records,
        *,
        twin_every: float = 0.03,
        images: Path | None = None,
        until: Until | None = None,
    ):
        self.kind, self.number, self.watch, self.records = kind, number, watch, records
        self.rnd = random.Random(f"secrecy:{kind}:{number}")
        self.asks = random.Random(f"secrecy:data:{kind}:{number}")
        self.undo = random.Random(f"secrecy:takeback:{kind}:{number}")  # (drawn apart, as `asks`)
        self.notes = random.Random(f"secrecy:reminders:{kind}:{number}")  # (the game's own draws unchanged)
        self.noted = False  # a follower's DM and a digest compared with twins in this game
        self.w = Watcher(kind, watch, f"{kind} game {number}", self.rnd)
        self.plugin, self.game = self.w.plugin, self.w.game
        choices = configs(kind)
        self.players, self.variant, self.city = choices[number % len(choices)]
        self.people = PEOPLE[: 2 if self.variant == "advanced" else self.players]
        self.everyone = [u for u, _ in self.people]
        self.channel = f"77{number:016d}"
        self.twin_every = twin_every
        self.images = images  # a folder for the command line's files: images are checked too
        self.until = until  # (a fault test: stop once what it lets out has been seen)
        self.states: list[Any] = []  # the game's states, one per change while it runs
        self.clock = Clock(1_800_000_000.0)
        self.db: Database | None = None
        self.service: GameService | None = None

    async def play(self, max_calls: int = 4000) -> None:
        self.db = await Database(":memory:").open()
        try:
            self.service = GameService(
                self.db, images=False, seeds=fixed_seeds(7_000_000 + self.number), clock=self.clock
            )
            await self._run(max_calls)
        finally:
            await self.db.close()

    async def _run(self, max_calls: int) -> None:
        svc, ch = self.service, self.channel
        host, host_name = self.people[0]
        await self.call(
            host,
            lambda: svc.lobby.new_game(
                ch,
                "g",
                host,
                host_name,
                self.kind,
                seats=self.players if self.variant != "advanced" else None,
                variant=self.variant,
                city=self.city,
            ),
        )
        for user, name in self.people[1:]:
            await self.call(user, lambda: svc.lobby.join(ch, user, name))  # noqa: B023 - used within this iteration
        await self.call(SPECTATOR[0], lambda: svc.lobby.join(ch, SPECTATOR[0], SPECTATOR[1]))  # the table is full
        await self.call(host, lambda: svc.lobby.start(ch, host))
        self.watch.games[self.kind] = self.watch.games.get(self.kind, 0) + 1
        for _ in range(max_calls):
            if self.until is not None and self.until(self.watch):
                return
            if self.w.row.status != "active":
                await self._afterwards(host, host_name)
                if self.images is not None and self.states:
                    from .secrecy_output import check_images

                    await check_images(
                        self.w, self.rnd.choice(self.states), self.w.state, self.people, self.rnd, self.images
                    )
                return
            await self._turn()
        raise AssertionError(f"{self.kind} game {self.number} did not end")

    async def _afterwards(self, host: str, host_name: str) -> None:
        """The finished game looked at again: history, replays, standings."""
        svc, ch, who = self.service, self.channel, SPECTATOR[0]
        await self.call(who, lambda: svc.standings.history(ch))
        for frame in (0, 1, None):
            await self.call(who, lambda: svc.replays.replay(ch, None, frame))  # noqa: B023 - used within this iteration
        await self.call(host, lambda: svc.standings.leaderboard("g", host, self.kind))
        await self.call(host, lambda: svc.standings.profile("g", host, host_name))

    async def _turn(self) -> None:
        svc, rnd, ch = self.service, self.rnd, self.channel
        owed = self._owed()
        roll = rnd.random()
        if roll < 0.05:
            who = rnd.choice(self.everyone + [SPECTATOR[0]])
            ask = rnd.choice(
                [
                    svc.queries.status,
                    svc.queries.board,
                    svc.queries.hand,
                    lambda c, w: svc.replays.replay(c),
                    lambda c, w: svc.standings.history(c),
                ]
            )
            await self.call(who, lambda: ask(ch, who))
        elif roll < 0.08:
            who = rnd.choice([u for u in self.everyone if u not in owed] + [SPECTATOR[0]])
            await self.call(who, lambda: svc.turns.menu(ch, who, []))
        elif roll < 0.10 and owed:
            await self._out_of_turn(owed)
        elif roll < 0.103:
            who = rnd.choice([u for u in self.everyone if not self.w.row.seat(u).auto] or self.everyone)
            await self.call(who, lambda: svc.lobby.leave(ch, who))
            return
        elif roll < 0.113:
            await self._clock(expire=rnd.random() < 0.5)
            return
        elif roll < 0.123:
            await self._away_or_quiet()
        if rnd.random() < self.twin_every:
            await self.w.compare_answers(rnd.choice(self.everyone + [SPECTATOR[0]]), images=False)
        if self.notes.random() < 0.04 or not self.noted:
            # someone's follower DM (its board drawn the first time in a game) and digest, against twins
            from .secrecy_follow import compare_reminders

            who = self.notes.choice(self.everyone + [SPECTATOR[0]])
            await compare_reminders(self.w, who, self.notes, images=not self.noted and self.images is not None)
            self.noted = True
        if self.asks.random() < 0.05:  # someone's /me data (drawn apart: the games play as before)
            await self.ask_data(self.asks.choice(self.everyone + [SPECTATOR[0]]))
        if rnd.random() < 0.1:  # someone types into /play: the adapter's suggestions
            from .secrecy_output import check_autocomplete

            owed = self._owed()  # the person owed a move gets suggestions; others get why not
            who = rnd.choice(owed) if owed and rnd.random() < 0.5 else rnd.choice(self.everyone + [SPECTATOR[0]])
            await check_autocomplete(self.w, svc, ch, who, rnd.choice(["", "", "a", "1", "s", "C"]))
        owed = self._owed()
        if owed:
            await self._move(rnd.choice(owed))

    async def ask_data(self, who: str) -> None:
        """A person's `/me data` file, from this game's database with its log: nobody else's secret."""
        from metrobot.app import privacy

        assert self.db is not None and self.service is not None
        document = await privacy(self.db, self.service).export(who)
        self.w.check(json.dumps(document, ensure_ascii=False), "data", who)
        self.watch.data_checks += 1

    async def _move(self, person: str) -> None:
        """A person's whole turn (or decision): step by step through the menu, each step the
        automatic player's choice or a random legal one; played at once or step by step."""
        svc, ch = self.service, self.channel
        at_once = self.rnd.random() < 0.5
        prefix: list[str] = []
        for _ in range(8):
            menu = await self.call(person, lambda: svc.turns.menu(ch, person, prefix))
            if not isinstance(menu, Menu) or menu.complete or not menu.choices:
                break
            code = self._pick(person, prefix, menu)
            if at_once:
                prefix.append(code)
            else:
                before = self.w.state
                played = await self.call(person, lambda: svc.turns.play(ch, person, [code]))  # noqa: B023 - used within this iteration
                if await self._take_back(person, before, played):
                    return
                if person not in self._owed():
                    return
        if prefix:
            before = self.w.state
            await self._take_back(
                person, before, await self.call(person, lambda: svc.turns.play(ch, person, list(prefix)))
            )

    async def _take_back(self, person: str, before: Any, played: Any) -> bool:
        """Now and then, ↶ when it is offered: what it would say is compared with its twin's,
        then it is taken back with everything it says checked. True if it was taken back."""
        controls = played.reply.controls if isinstance(played, Outcome) and played.reply else None
        if controls is None or controls.kind != "takeback" or self.undo.random() >= 0.3:
            return False
        await self.w.compare_takeback(self.service, self.db, person, before)
        svc, ch = self.service, self.channel
        back = await self.call(
            person, lambda: svc.takeback.take_back(ch, person, game_id=controls.game_id, moves=controls.moves)
        )
        self.watch.takebacks += not isinstance(back, Refused)
        return True

    def _pick(self, person: str, prefix: list[str], menu: Menu) -> str:
        if self.rnd.random() < 0.5:
            return self.rnd.choice(menu.choices).code
        state = self.w.state
        seat = next(
            s for s in self.game.seats(state) if s in self.game.to_move(state) and self.game.owner(state, s) == person
        )
        for step in prefix:
            state, _ = self.game.apply(state, seat, self.plugin.parse(state, seat, step))
        action = self.plugin.auto_action(state, seat, self.rnd)
        named = [c for c in menu.choices if c.label == self.plugin.describe(state, action)]
        if len(named) == 1:
            return named[0].code
        for choice in named or menu.choices:
            if self.plugin.parse(state, seat, choice.code) == action:
                return choice.code
        return self.rnd.choice(menu.choices).code

    async def _away_or_quiet(self) -> None:
        """Someone steps away or comes back, sets quiet hours that hold their DMs (and the
        reminders and nudges for them), nudges, or lists their games: all that is said then
        is checked like the rest."""
        svc, rnd, ch = self.service, self.rnd, self.channel
        who = rnd.choice(self.everyone)
        what = rnd.choice(["away", "back", "quiet", "loud", "nudge", "games"])
        if what == "away":
            await self.call(who, lambda: svc.people.away(who, rnd.randint(1, 3), rnd.choice([None, "holiday"])))
        elif what == "back":
            await self.call(who, lambda: svc.people.back(who))
        elif what in ("quiet", "loud"):
            span = f"{rnd.randrange(24)}:00-{rnd.randrange(24)}:30" if what == "quiet" else "off"
            await self.call(who, lambda: svc.people.my_settings(who, quiet=span, time_zone="Asia/Seoul", turn_dms=True))
        elif what == "nudge":
            await self.call(who, lambda: svc.listing.nudge(ch, who))
        else:
            await self.call(who, lambda: svc.listing.my_games(who, "g"))

    async def _out_of_turn(self, owed: list[str]) -> None:
        """Someone else sends a move the owed person could make (refused, saying why)."""
        svc, ch = self.service, self.channel
        person = self.rnd.choice(owed)
        menu = await self.call(person, lambda: svc.turns.menu(ch, person, []))
        if isinstance(menu, Menu) and menu.choices:
            who = self.rnd.choice([u for u in self.everyone if u != person] + [SPECTATOR[0]])
            code = self.rnd.choice(menu.choices).code
            await self.call(who, lambda: svc.turns.play(ch, who, [code]))

    async def _clock(self, *, expire: bool) -> None:
        row = self.w.row
        if row.deadline is None:
            return
        self.clock.now = row.deadline + 1 if expire else row.deadline - row.turn_clock / 2 + 1
        earlier = self.records.take()
        results = await self.service.tick()
        await self._after(
            None,
            Outcome(
                public=[m for _, o in results for m in o.public],
                dms=[d for _, o in results for d in o.dms],
                edits=[m for _, o in results for m in o.edits],
            ),
            earlier,
        )

    async def call(self, who: str, request: Callable[[], Awaitable[Any]]) -> Any:
        earlier = self.records.take()
        try:
            result = await request()
        except Refused as exc:
            result = exc
        await self._after(who, result, earlier)
        return result

    async def _after(self, who: str | None, result: Any, earlier: list[logging.LogRecord]) -> None:
        from .secrecy_output import check_adapter

        changed = await self.w.look(self.db, self.channel)
        self.w.check_records(earlier + self.records.take())
        self.w.check_result(who, result)
        await self.w.check_held(self.db)
        check_adapter(self.w, who, result)
        if changed:
            self.w.compare_views(self.everyone)
            if self.w.row.status == "active":
                self.states.append(self.w.state)

    def _owed(self) -> list[str]:
        row, state, game = self.w.row, self.w.state, self.game
        if row is None or row.status != "active" or state is None:
            return []
        people = [game.owner(state, s) for s in game.seats(state) if s in game.to_move(state)]
        return [p for p in dict.fromkeys(people) if not row.seat(p).auto]


def row_for(kind: str, state: Any, people: list[tuple[str, str]]) -> GameRow:
    """A stored game as the service would hold it, for a state made without the service."""
    now = time.time()
    seats = [Seat(u, n) for u, n in people]
    return GameRow(
        1,
        "770000000000000001",
        "g",
        kind,
        "active",
        seats[0].user_id,
        {},
        1,
        seats,
        len(seats),
        None,
        1,
        0,
        24 * 3600,
        now + 3600,
        False,
        None,
        now,
        now,
    )
