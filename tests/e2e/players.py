"""Scripted Discord users for end-to-end tests: they open games, join, and play through
slash commands (with autocomplete, as a person picks suggestions) or through the buttons
and menus on the bot's messages. Whose turn it is is read from the bot's database, the
only thing a test knows that a person would read off the channel."""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from metrobot.games import get_game  # noqa: E402
from metrobot.storage import Database  # noqa: E402
from metrobot.storage.rows import COLUMNS, game_row  # noqa: E402
from tests.e2e.composing import choose, press  # noqa: E402
from tests.e2e.waiting import delivered  # noqa: E402

# The channel's lobby or running game, else its last one (as Database.open_game, then last_game).
OPEN_GAME = f"SELECT {COLUMNS} FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')"
LAST_GAME = f"SELECT {COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1"


class Table:
    def __init__(self, standin, channel: int, db_path: str, seed: int = 0):
        self.s = standin
        self.channel = channel
        self.db_path = db_path
        self.rnd = random.Random(seed)

    # ------------------------------------------------------------ reading the game
    async def row(self):
        """The channel's game as stored. An SQLite file is read as `waiting.owed` reads it: a
        read-only connection, not a `Database` opened (a thread, and a write transaction to
        check the schema, for each look: a thousand a run of tests/e2e, 1.5 ms of CPU each)."""
        if self.db_path.startswith("postgresql://"):
            db = await Database(self.db_path).open()
            try:
                return await db.open_game(str(self.channel)) or await db.last_game(str(self.channel))
            finally:
                await db.close()
        conn = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=10)
        try:
            found = conn.execute(OPEN_GAME, (str(self.channel),)).fetchone()
            found = found or conn.execute(LAST_GAME, (str(self.channel),)).fetchone()
        finally:
            conn.close()
        return game_row(found) if found else None

    async def owed(self) -> list[int]:
        row = await self.row()
        if row is None or row.status != "active":
            return []
        game = get_game(row.game)
        state = game.from_json(row.state)
        return sorted({int(game.owner(state, s)) for s in game.to_move(state)})

    async def first_to_move(self) -> int:
        """Who was to move when the game started: the owner of the seat that made the first
        logged action, or, before any, whose turn it is (a fast clock may already have moved
        for them by the time a loaded machine looks)."""
        row = await self.row()
        db = await Database(self.db_path).open()
        try:
            logged = await db.actions(row.id)
        finally:
            await db.close()
        if not logged:
            return (await self.owed())[0]
        game = get_game(row.game)
        return int(game.owner(game.from_json(row.state), logged[0]["player"]))

    async def actions(self) -> int:
        row = await self.row()
        db = await Database(self.db_path).open()
        try:
            return len(await db.actions(row.id))
        finally:
            await db.close()

    def public(self):
        return self.s.messages(self.channel)

    async def posted(self, timeout: float = 30.0) -> None:
        """Until every post the bot owes this channel is in it: a person reads the newest turn
        post off the channel, and the bot posts it after the move is saved (under load, later)."""
        await delivered(self.s, self.db_path, self.channel, posts=True, timeout=timeout)

    async def open_composer(self, user: int):
        """▶ Play on the newest turn post, once the channel shows it; returns the composer."""
        await self.posted()
        message = self.last_play_message()
        h = await self.s.click(user, message, custom_id=next(c for c in message.custom_ids() if c.endswith(":play")))
        return await h.wait_message()

    def last_play_message(self):
        for m in reversed(self.public()):
            if any(c.startswith("mb:p:") for c in m.custom_ids()):
                return m
        return None

    # ------------------------------------------------------------ lobby
    async def open(self, host: int, kind: str, guests: list[int], **options) -> None:
        earlier = self.public()
        after = earlier[-1] if earlier else None  # an earlier game in this channel posted too
        h = await self.s.slash(host, self.channel, "game new", {"kind": kind, **options})
        reply = await h.wait_message()
        assert "Lobby open" in reply.content, reply.content
        lobby = await self.s.wait_for_message(self.channel, lambda m: "mb:l:" in " ".join(m.custom_ids()), after=after)
        join = next(c for c in lobby.custom_ids() if c.endswith(":join"))  # (its label is in the game's language)
        for guest in guests:
            h = await self.s.click(guest, lobby, custom_id=join)
            await h.wait_message()
        h = await self.s.slash(host, self.channel, "game start")
        await h.wait_message()
        await self.s.wait_for_message(self.channel, lambda m: "begins" in m.content, after=after)

    # ------------------------------------------------------------ playing
    async def choices(self, user: int, command: str, options: dict, focused: str) -> list[dict]:
        got = await self.s.autocomplete(user, self.channel, command, {**options, focused: ""}, focused=focused)
        return [c for c in got if c["value"] != "?"]

    async def dig_by_command(self, user: int):
        """A MetrOmania turn as /dig, each step picked from the autocomplete suggestions."""
        steps: dict[str, str] = {}
        for i in range(1, 5):
            name = f"step{i}"
            options = await self.choices(user, "dig", steps, name)
            if not options:
                break
            steps[name] = self.rnd.choice(options)["value"]
        if not steps:
            station = await self.choices(user, "station", {}, "at")
            h = await self.s.slash(user, self.channel, "station", {"at": station[0]["value"]})
            return await h.wait_message()
        h = await self.s.slash(user, self.channel, "dig", steps)
        return await h.wait_message()

    async def play_by_command(self, user: int):
        """One decision as /play, picked from the suggestions."""
        options = await self.choices(user, "play", {}, "move")
        h = await self.s.slash(user, self.channel, "play", {"move": self.rnd.choice(options)["value"]})
        return await h.wait_message()

    async def compose(self, user: int):
        """Open the composer from the newest turn message and pick steps until the turn is
        complete; returns the composer message, ready to confirm."""
        composer = await self.open_composer(user)
        for _ in range(40):
            ids = composer.custom_ids()
            steps = [c for c in ids if c.startswith("mb:s:")]
            groups = [c for c in ids if c.startswith("mb:g:")]
            buttons = [c for c in ids if c.startswith("mb:b:")]
            if steps or groups:  # a step, or a group of them (menus are a tree)
                await self._pick(user, composer, self.rnd.choice(steps + groups))
            elif buttons:
                await self._press(user, composer, self.rnd.choice(buttons))
            else:
                return composer
        raise AssertionError(f"the composer never completed: {composer.content}")

    async def play_by_buttons(self, user: int):
        composer = await self.compose(user)
        confirm = next((c for c in composer.custom_ids() if c.startswith("mb:ok:")), None)
        assert confirm, f"a composer without ✔ Confirm: {composer.content!r} {composer.custom_ids()}"
        h = await self.s.click(user, composer, custom_id=confirm)
        await h.wait_response()
        return await h.wait_message(lambda m: "Played" in m.content or m.id != composer.id)

    async def _pick(self, user: int, composer, custom_id: str) -> None:
        select = composer.component(custom_id)
        value = self.rnd.choice(select["options"])["value"]
        await choose(self.s, user, composer, custom_id, value)

    async def _press(self, user: int, composer, custom_id: str) -> None:
        await press(self.s, user, composer, custom_id)

    async def play_until_over(self, *, command_every: int = 1, max_turns: int = 400) -> int:
        """Play with whoever is owed a decision until the game ends; returns turns played."""
        turns = 0
        row = await self.row()
        metromania = row.game == "metromania"
        while turns < max_turns:
            owed = await self.owed()
            if not owed:
                return turns
            for user in owed:
                by_buttons = command_every > 1 and turns % command_every == 0
                if by_buttons:
                    await self.play_by_buttons(user)
                elif metromania:
                    await self.dig_by_command(user)
                else:
                    await self.play_by_command(user)
                turns += 1
        raise AssertionError("the game did not end")


def mentioned(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"<@(\d+)>", text)]


def said_done(reader, text: str) -> bool:
    """The private answer to a move that ended a turn, in the reader's language: "Done.", and
    when the move may still be taken back, until when (a Discord timestamp)."""
    done = reader.t("Done.")
    rest = text[len(done) :].strip()
    until = re.escape(reader.t("You may take it back until {when}.", when="WHEN")).replace("WHEN", r"<t:\d+:T>")
    return text.startswith(done) and (not rest or re.fullmatch(until, rest) is not None)
