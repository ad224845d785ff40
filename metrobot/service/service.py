"""The game service: everything a front end asks of a game, without knowing the front end.

For every request: load the channel's game, check who may do it, apply it with the pure
engine, save it (one transaction, version-checked), then say what to answer privately,
what to post in the channel, what to DM to whom and which images to attach.

Turn-based and simultaneous games go through the same path: `to_move` names the seats
owing a decision; a person acts for the seats they own that are owed.
"""
from __future__ import annotations

import asyncio
import logging
import random
import secrets
import sqlite3
import time
from typing import Any, Callable

from ..games import BadInput, RuleError, get_game
from ..games.protocol import Game
from ..storage import Conflict, Database, GameRow, Seat
from . import narrate
from .notation import notation_for
from .outcome import Controls, File, Menu, Message, Outcome, Refused
from .rules_text import RULES

log = logging.getLogger("metrobot.service")

DEFAULT_TURN_CLOCK = 24 * 3600
MIN_TURN_CLOCK, MAX_TURN_CLOCK = 60, 14 * 24 * 3600
MAX_STEPS = 8  # a MetrOmania turn has at most 4 steps; a flip-and-write chain a few more


def _hours(seconds: float) -> str:
    if seconds >= 3600:
        h = seconds / 3600
        return f"{h:.0f} h" if h == int(h) else f"{h:.1f} h"
    return f"{max(1, round(seconds / 60))} min"


class GameService:
    def __init__(self, db: Database, *, clock: Callable[[], float] = time.time,
                 default_turn_clock: int = DEFAULT_TURN_CLOCK, images: bool = True):
        self.db = db
        self.clock = clock
        self.default_turn_clock = default_turn_clock
        self.images = images
        self._locks: dict[str, asyncio.Lock] = {}
        self._states: dict[int, tuple[int, Any]] = {}

    def _state(self, game: Game, row: GameRow) -> Any:
        """The engine state of a stored game. States are immutable, so the one rebuilt for
        a row version can be reused while the row keeps that version (the database stays
        the only source of truth: any other writer changes the version)."""
        cached = self._states.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        state = game.from_json(row.state)
        self._remember(row, state)
        return state

    def _remember(self, row: GameRow, state: Any) -> None:
        if len(self._states) > 4096:
            self._states.clear()
        self._states[row.id] = (row.version, state)

    def _lock(self, channel_id: str) -> asyncio.Lock:
        return self._locks.setdefault(channel_id, asyncio.Lock())

    # ------------------------------------------------------------ helpers
    async def _open(self, channel_id: str, *, active: bool = True, game_id: int | None = None) -> GameRow:
        row = await self.db.open_game(channel_id)
        if game_id is not None and (row is None or row.id != game_id):
            raise Refused("These controls belong to an earlier game in this channel.")
        if row is None:
            raise Refused("No game here yet. Start one with `/game new`.")
        if active and row.status != "active":
            raise Refused("The game has not started yet: join it from the lobby message; the host starts it.")
        return row

    @staticmethod
    def _namer(game: Game, state: Any, row: GameRow) -> Callable[[str], str]:
        names = row.names

        def name(seat: str) -> str:
            person = game.owner(state, seat) if state is not None else seat
            base = names.get(person, person)
            if person != seat and "#" in seat:
                return f"{base} (company {seat.rsplit('#', 1)[1]})"
            return base
        return name

    def _names_for_images(self, game: Game, state: Any, row: GameRow) -> dict[str, str]:
        name = self._namer(game, state, row)
        return {seat: name(seat) for seat in game.seats(state)}

    async def _image(self, game: Game, state: Any, row: GameRow, viewer: str | None, *,
                     moves: int | None = None) -> File | None:
        """The board as `viewer` sees it, drawn in a worker thread (the event loop keeps
        answering other interactions meanwhile)."""
        if not self.images:
            return None
        from render import render_png

        names = self._names_for_images(game, state, row)
        data = await asyncio.to_thread(render_png, game, state, viewer, names)
        return File(f"{row.game}-{row.id}-{row.moves if moves is None else moves}.png", data)

    async def _final_files(self, game: Game, state: Any, row: GameRow) -> list[File]:
        if not self.images:
            return []
        from render import final_images

        names = self._names_for_images(game, state, row)
        return [File(n, d) for n, d in await asyncio.to_thread(final_images, game, state, names)]

    def _owed_people(self, game: Game, state: Any, row: GameRow) -> list[str]:
        people = []
        for seat in sorted(game.to_move(state), key=game.seats(state).index):
            person = game.owner(state, seat)
            s = row.seat(person)
            if person not in people and s is not None and not s.auto:
                people.append(person)
        return people

    def _acting_seat(self, game: Game, state: Any, user_id: str) -> str:
        seats = game.seats_of(state, user_id)
        owed = [s for s in game.seats(state) if s in game.to_move(state) and s in seats]
        if owed:
            return owed[0]
        if game.is_over(state):
            raise Refused("The game is over.")
        if game.simultaneous:
            raise Refused("You have already decided this round; it resolves when everyone has.")
        waiting = sorted({game.owner(state, s) for s in game.to_move(state)})
        raise Refused(f"It is not your turn. Waiting for: {self._mention_list(waiting)}.")

    @staticmethod
    def _mention_list(user_ids: list[str]) -> str:
        return ", ".join(f"<@{u}>" for u in user_ids if u)

    def _seated(self, row: GameRow, user_id: str) -> Seat:
        seat = row.seat(user_id)
        if seat is None:
            raise Refused("You are not playing in this game. Anyone can follow it with `/status` and `/board`.")
        return seat

    def _hand_dms(self, game: Game, state: Any, row: GameRow, before: dict[str, str | None] | None = None
                  ) -> tuple[dict[str, str | None], list[tuple[str, Message]]]:
        hands: dict[str, str | None] = {}
        dms: list[tuple[str, Message]] = []
        if row.game not in narrate.SECRET_HANDS:
            return hands, dms
        for seat in row.seats:
            seats = game.seats_of(state, seat.user_id)
            text = narrate.hand_text(row.game, game.view(state, seat.user_id), seats)
            hands[seat.user_id] = text
            if text and (before is None or before.get(seat.user_id) != text) and not seat.auto:
                where = f"<#{row.channel_id}>"
                dms.append((seat.user_id, Message(f"{game.title} in {where}: {text}")))
        return hands, dms

    # ------------------------------------------------------------ lobby
    async def new_game(self, channel_id: str, guild_id: str | None, user_id: str, user_name: str, game_name: str,
                       options: dict[str, Any] | None = None, seats: int | None = None,
                       turn_clock: int | None = None) -> Outcome:
        try:
            game = get_game(game_name)
        except BadInput as exc:
            raise Refused(str(exc)) from None
        options = dict(options or {})
        if options.get("advanced"):  # two people, two companies each
            if seats not in (None, 2):
                raise Refused("The advanced variant is for exactly 2 players.")
            seats = 2
        seats = seats or game.max_players
        if not game.min_players <= seats <= game.max_players:
            raise Refused(f"{game.title} seats {game.min_players}-{game.max_players} players.")
        try:
            # Checked now for the table size; stored as given, since defaults such as solo
            # depend on how many actually join.
            game.validate_options(options, seats)
        except BadInput as exc:
            raise Refused(f"Those options don't work: {exc}") from None
        clock = turn_clock or self.default_turn_clock
        async with self._lock(channel_id):
            if await self.db.open_game(channel_id) is not None:
                raise Refused("This channel already has a game. Finish or abort it first (`/game abort`), "
                              "or start a thread for a new one.")
            try:
                row = await self.db.create_game(channel_id=channel_id, guild_id=guild_id, game=game.name,
                                                host=Seat(user_id, user_name), options=options,
                                                seed=secrets.randbits(48), max_seats=seats, turn_clock=clock)
            except sqlite3.IntegrityError:  # the one-open-game index: another create won the race
                raise Refused("This channel already has a game.") from None
        log.info("game %s created in channel %s: %s %s", row.id, channel_id, game.name, options)
        return Outcome(reply=Message("Lobby open. Others join with the button; you start when ready."),
                       public=[self._lobby_message(game, row)])

    def _lobby_message(self, game: Game, row: GameRow) -> Message:
        players = "\n".join(f"• {s.name}" + (" (host)" if s.user_id == row.host_id else "") for s in row.seats)
        opts = ", ".join(f"{k}: {v}" for k, v in row.options.items() if v not in (None, False)) or "standard rules"
        text = (f"**{game.title}** — new game ({opts}).\nPlayers ({len(row.seats)}/{row.max_seats}):\n{players}\n"
                f"Needs {game.min_players}-{row.max_seats} players. Turn clock: {_hours(row.turn_clock)}.")
        return Message(text, controls=Controls("lobby", row.id, row.game, row.moves))

    async def join(self, channel_id: str, user_id: str, user_name: str, *, game_id: int | None = None) -> Outcome:
        async with self._lock(channel_id):
            row = await self._open(channel_id, active=False, game_id=game_id)
            if row.status == "active":
                raise Refused("This game has already started; you can follow it with `/board`.")
            if row.seat(user_id):
                raise Refused("You are already in this game.")
            if len(row.seats) >= row.max_seats:
                raise Refused(f"The table is full ({row.max_seats} players).")
            row = await self._save(row, seats=row.seats + [Seat(user_id, user_name)])
        game = get_game(row.game)
        return Outcome(reply=Message("You joined the game."), public=[self._lobby_message(game, row)])

    async def leave(self, channel_id: str, user_id: str, *, game_id: int | None = None) -> Outcome:
        """Leave the lobby, or leave a running game: the automatic player takes the seat."""
        async with self._lock(channel_id):
            row = await self._open(channel_id, active=False, game_id=game_id)
            seat = self._seated(row, user_id)
            game = get_game(row.game)
            if row.status == "lobby":
                seats = [s for s in row.seats if s.user_id != user_id]
                if not seats:
                    await self._save(row, status="aborted", seats=seats)
                    return Outcome(reply=Message("You left; the empty lobby is closed."),
                                   public=[Message("The lobby is closed: everyone left.")])
                host = row.host_id if row.host_id != user_id else seats[0].user_id
                row = await self._save(row, seats=seats, host_id=host)
                return Outcome(reply=Message("You left the game."), public=[self._lobby_message(game, row)])
            if seat.auto:
                raise Refused("You have already left this game; the automatic player plays your seat.")
            seats = [Seat(s.user_id, s.name, s.auto or s.user_id == user_id) for s in row.seats]
            row = await self._save(row, seats=seats)
            note = f"{seat.name} left the game; the automatic player takes over their seat."
            return await self._advance(row, game, self._state(game, row), [], note=note,
                                       reply="You left the game. Thanks for playing!")

    async def start(self, channel_id: str, user_id: str, *, game_id: int | None = None) -> Outcome:
        async with self._lock(channel_id):
            row = await self._open(channel_id, active=False, game_id=game_id)
            if row.status == "active":
                raise Refused("The game is already running.")
            if user_id != row.host_id:
                raise Refused("Only the host starts the game.")
            game = get_game(row.game)
            if len(row.seats) < game.min_players:
                raise Refused(f"{game.title} needs at least {game.min_players} players; "
                              f"{len(row.seats)} joined so far.")
            try:
                state = game.new_game([s.user_id for s in row.seats], row.options, row.seed)
            except BadInput as exc:
                raise Refused(f"Cannot start: {exc}") from None
            row = await self._save(row, status="active", state=game.to_json(state),
                                   deadline=self.clock() + row.turn_clock, reminded=False)
        log.info("game %s started with %d players", row.id, len(row.seats))
        _, dms = self._hand_dms(game, state, row)
        name = self._namer(game, state, row)
        order = ", ".join(name(s) for s in game.seats(state))
        owed = self._owed_people(game, state, row)
        text = f"**{game.title}** begins! Order: {order}.\n" + self._prompt(game, state, row)
        image = await self._image(game, state, row, None)
        public = Message(text, [image] if image else [], owed, Controls("play", row.id, row.game, row.moves))
        return Outcome(reply=Message("Game started."), public=[public], dms=dms)

    async def abort(self, channel_id: str, user_id: str, *, manager: bool) -> Outcome:
        async with self._lock(channel_id):
            row = await self._open(channel_id, active=False)
            if user_id != row.host_id and not manager:
                raise Refused("Only the host or someone with Manage Channels can abort the game.")
            await self._save(row, status="aborted", deadline=None)
        log.info("game %s aborted by %s", row.id, user_id)
        return Outcome(reply=Message("Game aborted."),
                       public=[Message(f"The {get_game(row.game).title} game was aborted by <@{user_id}>.")])

    async def configure(self, channel_id: str, user_id: str, *, manager: bool, turn_clock: int) -> Outcome:
        if not MIN_TURN_CLOCK <= turn_clock <= MAX_TURN_CLOCK:
            raise Refused(f"The turn clock must be between {_hours(MIN_TURN_CLOCK)} and {_hours(MAX_TURN_CLOCK)}.")
        async with self._lock(channel_id):
            row = await self._open(channel_id, active=False)
            if user_id != row.host_id and not manager:
                raise Refused("Only the host or someone with Manage Channels changes the settings.")
            changes: dict[str, Any] = {"turn_clock": turn_clock}
            if row.status == "active" and row.deadline is not None:
                changes["deadline"] = row.deadline - row.turn_clock + turn_clock
                changes["reminded"] = False
            await self._save(row, **changes)
        return Outcome(reply=Message(f"Turn clock set to {_hours(turn_clock)}."),
                       public=[Message(f"⏱️ Turn clock is now {_hours(turn_clock)} (set by <@{user_id}>).")])

    # ------------------------------------------------------------ looking
    async def status(self, channel_id: str, user_id: str) -> Outcome:
        row = await self.db.open_game(channel_id) or await self.db.last_game(channel_id)
        if row is None:
            raise Refused("No game in this channel yet. Start one with `/game new`.")
        game = get_game(row.game)
        if row.status == "lobby":
            return Outcome(reply=self._lobby_message(game, row))
        state = self._state(game, row)
        name = self._namer(game, state, row)
        viewer = user_id if game.seats_of(state, user_id) else None
        lines = [f"**{game.title}** — {row.status}."]
        scores = game.to_json(state).get("scores", {})
        lines.append("Scores: " + ", ".join(f"{name(s)} {scores.get(s, 0)}" for s in game.seats(state)))
        if row.status == "active":
            lines.append(self._prompt(game, state, row, mention=False))
            if row.deadline:
                lines.append(f"Turn clock: {_hours(row.turn_clock)}; time is up <t:{int(row.deadline)}:R>.")
        left = [s.name for s in row.seats if s.auto]
        if left:
            lines.append("Played by the automatic player: " + ", ".join(left) + ".")
        image = await self._image(game, state, row, viewer)
        return Outcome(reply=Message("\n".join(lines), [image] if image else []))

    async def board(self, channel_id: str, user_id: str) -> Outcome:
        row = await self.db.open_game(channel_id) or await self.db.last_game(channel_id)
        if row is None or row.state is None:
            raise Refused("No game is running in this channel.")
        game = get_game(row.game)
        state = self._state(game, row)
        viewer = user_id if game.seats_of(state, user_id) else None
        image = await self._image(game, state, row, viewer)
        text = "Your view of the board." if viewer else "The board (spectator view)."
        return Outcome(reply=Message(text, [image] if image else []))

    async def hand(self, channel_id: str, user_id: str) -> Outcome:
        row = await self._open(channel_id)
        game = get_game(row.game)
        state = self._state(game, row)
        self._seated(row, user_id)
        text = narrate.hand_text(row.game, game.view(state, user_id), game.seats_of(state, user_id))
        image = await self._image(game, state, row, user_id)
        return Outcome(reply=Message(text or "Nothing is secret in this game: everything is on the board.",
                                     [image] if image else []))

    async def rules(self, channel_id: str, game_name: str | None = None) -> Outcome:
        """The rules summary of the named game, else of this channel's game, else MetrOmania."""
        if game_name is None:
            row = await self.db.open_game(channel_id) or await self.db.last_game(channel_id)
            game_name = row.game if row else "metromania"
        try:
            return Outcome(reply=Message(RULES[get_game(game_name).name]))
        except BadInput as exc:
            raise Refused(str(exc)) from None

    # ------------------------------------------------------------ playing
    def _apply_steps(self, game: Game, state: Any, seat: str, steps: list[str]) -> tuple[Any, list, list]:
        """Parse and apply a player's steps; refuse the lot if any is illegal."""
        notation = notation_for(game.name)
        actions, events = [], []
        for i, step in enumerate(steps):
            if seat not in game.to_move(state):
                raise Refused(f"Step {i + 1} ('{step}') comes after your turn ended; nothing was played.")
            try:
                action = notation.parse(game, state, seat, step)
                state, evs = game.apply(state, seat, action)
            except (RuleError, BadInput) as exc:
                prefix = f"Step {i + 1} ('{step}'): " if len(steps) > 1 else ""
                raise Refused(f"{prefix}{_capital(str(exc))} Nothing was played.") from None
            actions.append(action)
            events.extend(evs)
        return state, actions, events

    async def menu(self, channel_id: str, user_id: str, prefix: list[str], *, moves: int | None = None,
                   game_id: int | None = None, preview: bool = False) -> Menu:
        row = await self._open(channel_id, game_id=game_id)
        if moves is not None and moves != row.moves:
            raise Refused("The game has moved on since these controls were made; use the newest message.")
        game = get_game(row.game)
        state = self._state(game, row)
        self._seated(row, user_id)
        seat = self._acting_seat(game, state, user_id)
        if len(prefix) > MAX_STEPS:
            raise Refused("Too many steps.")
        after, _, events = self._apply_steps(game, state, seat, prefix)
        notation = notation_for(game.name)
        owed = seat in game.to_move(after) and game.turn_number(after) == game.turn_number(state)
        choices = notation.choices(game, after, seat) if owed else []
        summary = notation.summarise(game, state, seat, prefix) if prefix else ""
        image = await self._image(game, after, row, user_id) if preview else None
        return Menu(row.game, row.id, row.moves, list(prefix), choices, summary, complete=not owed,
                    can_submit=bool(prefix), preview=image)

    async def play(self, channel_id: str, user_id: str, steps: list[str], *, moves: int | None = None,
                   game_id: int | None = None) -> Outcome:
        """Play steps for the person (typed or coded); all of them or none."""
        if not steps:
            raise Refused("No move given.")
        if len(steps) > MAX_STEPS:
            raise Refused("Too many steps.")
        async with self._lock(channel_id):
            row = await self._open(channel_id, game_id=game_id)
            if moves is not None and moves != row.moves:
                raise Refused("Someone moved before you: these controls are out of date. Nothing was played; "
                              "use the newest message.")
            game = get_game(row.game)
            state = self._state(game, row)
            seat_row = self._seated(row, user_id)
            if seat_row.auto:
                raise Refused("You left this game; the automatic player plays your seat.")
            seat = self._acting_seat(game, state, user_id)
            before = state
            state, actions, events = self._apply_steps(game, state, seat, steps)
            logged = [(seat, a, user_id) for a in actions]
            return await self._advance(row, game, state, logged, events=events, before=before, actor=user_id)

    async def _advance(self, row: GameRow, game: Game, state: Any, logged: list, *, events: list | None = None,
                       before: Any = None, actor: str | None = None, note: str | None = None,
                       reply: str | None = None) -> Outcome:
        """After a person's actions: let the automatic player move for seats that left,
        save everything in one transaction, and say what to post."""
        before = before if before is not None else state
        events = list(events or [])
        state, auto_actions, auto_events = self._autoplay(game, state, row)
        events += auto_events
        changes = self._finish_fields(game, state)
        new_turn = game.turn_number(state) != game.turn_number(before) or game.is_over(state)
        if new_turn:
            changes.setdefault("deadline", None if game.is_over(state) else self.clock() + row.turn_clock)
            changes["reminded"] = False
        actions = logged + auto_actions
        # The board image (the slow part) is drawn in a worker thread while the move is saved.
        drawing = asyncio.create_task(self._image(game, state, row, None, moves=row.moves + len(actions))) \
            if new_turn or note else None
        try:
            row = await self._save(row, state=game.to_json(state), actions=actions, **changes)
            self._remember(row, state)
        except Conflict:
            if drawing:
                drawing.cancel()
            raise Refused("Someone else moved at the same moment; nothing was played. Look at the board "
                          "and try again.") from None
        return await self._report(row, game, before, state, events, actor=actor, note=note, reply=reply,
                                  drawing=drawing)

    def _autoplay(self, game: Game, state: Any, row: GameRow, *, seats: set[str] | None = None
                  ) -> tuple[Any, list, list]:
        """Moves of the automatic player for seats of people who left (and `seats`, e.g.
        when a turn clock ran out) until a person is owed a decision. Seeded by the game
        and its position, so the same situation gets the same moves."""
        gone = {s.user_id for s in row.seats if s.auto}
        actions, events = [], []
        rnd = random.Random(f"{row.seed}:{row.moves}")
        forced = set(seats or ())
        start_turn = game.turn_number(state)
        for _ in range(10_000):
            if game.is_over(state):
                break
            owed = [s for s in game.seats(state) if s in game.to_move(state)]
            todo = [s for s in owed if game.owner(state, s) in gone
                    or (s in forced and game.turn_number(state) == start_turn)]
            if not todo:
                break
            seat = todo[0]
            action = game.auto_action(state, seat, rnd)
            state, evs = game.apply(state, seat, action)
            actions.append((seat, action, "auto"))
            events.extend(evs)
        return state, actions, events

    @staticmethod
    def _finish_fields(game: Game, state: Any) -> dict[str, Any]:
        return {"status": "finished", "deadline": None} if game.is_over(state) else {}

    def _prompt(self, game: Game, state: Any, row: GameRow, *, mention: bool = True) -> str:
        if game.is_over(state):
            return ""
        owed = self._owed_people(game, state, row)
        who = self._mention_list(owed) if mention else ", ".join(row.names.get(u, u) for u in owed)
        if game.simultaneous:
            data = game.view(state, None)
            card = data.get("card_label") or data.get("card")
            return f"Round {data.get('round')}: the card is **{card}**. Waiting for: {who}."
        name = self._namer(game, state, row)
        seat = next(iter(game.to_move(state)))
        last = " (last round)" if game.to_json(state).get("phase") == "last_round" else ""
        return f"Next: {who or name(seat)}{last} — `/dig` or the buttons below."

    async def _report(self, row: GameRow, game: Game, before: Any, state: Any, events: list, *,
                      actor: str | None, note: str | None = None, reply: str | None = None,
                      drawing: "asyncio.Task[File | None] | None" = None) -> Outcome:
        name = self._namer(game, state, row)
        story = narrate.narrate(row.game, state, events, name)
        dms: list[tuple[str, Message]] = []
        if narrate.hands_may_change(row.game, events):
            _, dms = self._hand_dms(game, state, row, self._hand_dms(game, before, row)[0])
        out = Outcome(dms=dms)
        new_turn = game.turn_number(state) != game.turn_number(before) or game.is_over(state)
        controls = None if game.is_over(state) else Controls("play", row.id, row.game, row.moves)
        header = [note] if note else []
        if new_turn or note:
            text = "\n".join(header + story + ([self._prompt(game, state, row)] if not game.is_over(state) else []))
            files = []
            image = await (drawing if drawing is not None else self._image(game, state, row, None))
            if image:
                files.append(image)
            if game.is_over(state):
                files += await self._final_files(game, state, row)
            out.public.append(Message(text.strip() or "The game goes on.", files,
                                      self._owed_people(game, state, row), controls))
        elif actor is not None and game.simultaneous:
            waiting = ", ".join(row.names.get(u, u) for u in self._owed_people(game, state, row))
            out.public.append(Message(f"✅ {row.names.get(actor, actor)} has decided. Waiting for: {waiting}."))
        if actor is not None:
            if new_turn:
                out.reply = Message(reply or "Done.")
            else:
                notation = notation_for(game.name)
                seat = next((s for s in game.seats_of(state, actor) if s in game.to_move(state)), None)
                more = notation.continuation(game, state, seat) if seat else ""
                image = await self._image(game, state, row, actor)
                out.reply = Message((reply or "Saved.") + (" " + more if more else ""), [image] if image else [])
        elif reply:
            out.reply = Message(reply)
        return out

    async def _save(self, row: GameRow, **changes: Any) -> GameRow:
        return await self.db.update(row, **changes)

    # ------------------------------------------------------------ clocks
    async def tick(self) -> list[tuple[str, Outcome]]:
        """Half-time reminders and expired turn clocks (the automatic player moves)."""
        now = self.clock()
        out = []
        for due in await self.db.due_games(now):
            try:
                result = await self._tick_game(due.channel_id, now)
            except Exception:  # one broken game must not stop the clock for the others
                log.exception("turn clock of game %s failed", due.id)
                continue
            if result is not None:
                out.append((due.channel_id, result))
        return out

    async def _tick_game(self, channel_id: str, now: float) -> Outcome | None:
        async with self._lock(channel_id):
            row = await self.db.open_game(channel_id)
            if row is None or row.status != "active" or row.deadline is None:
                return None
            game = get_game(row.game)
            state = self._state(game, row)
            owed = self._owed_people(game, state, row)
            if row.deadline <= now:
                # The automatic player completes the turn (or decision) of everyone owed.
                before = state
                state, actions, events = self._autoplay(game, state, row, seats=set(game.to_move(state)))
                names = ", ".join(row.names.get(u, u) for u in owed) or "the absent"
                log.info("game %s: turn clock expired for %s", row.id, owed)
                try:
                    return await self._advance(row, game, state, actions, events=events, before=before,
                                               note=f"⏰ Time is up for {names}: the automatic player moved for them.")
                except Refused:  # someone moved at the last moment: nothing to do
                    return None
            if not row.reminded:
                await self._save(row, reminded=True)
                left = _hours(row.deadline - now)
                return Outcome(public=[Message(f"⏳ {self._mention_list(owed)}: half of the turn clock has passed; "
                                               f"{left} left before the automatic player moves for you.",
                                               mentions=owed)])
        return None


def _capital(text: str) -> str:
    """A message as a sentence: capital first letter, full stop at the end."""
    text = text.strip()
    if text and text[-1] not in ".!?":
        text += "."
    return text[:1].upper() + text[1:]
