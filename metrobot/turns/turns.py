"""Playing: composing steps, playing them, the automatic player, saving and reporting.

The path of a move is six stages, each a method below with one input and one output:

    validate ........... the channel's game, if the person may move in it     -> row, plug-in, state
    apply .............. their steps applied by the engine, all or none         -> Move
    automatic_replies .. the automatic player moves for the seats that left     -> Move
    clocks ............. the columns the save writes: status, whom the game waits
                         for, the turn clock, the take-back window; the row after -> Columns
    announce ........... the post, DMs, the reply, the status message           -> Outcome
    save ............... state, actions, columns and what is owed (the outbox) in
                         one version-checked transaction, a finished game's result
                         and its GameEnded event inside it; the images drawn
                         meanwhile                                              -> Outcome

`play` runs all six in the channel's lock; `advance` (a seat changing hands in lobby.py, a turn
clock running out in clock.py) starts at automatic_replies with the actions it was given, and
`settle` runs the last four. Nothing of the move is written before the save, which writes all of
it or nothing: a stage that refuses (`Refused`) leaves the game as it was.

Replies, refusals, menus and the images in them speak the requester's language (`me()`);
what is posted in the channel speaks the game's (`self.games.lang(row)`).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..games.plugin import GamePlugin
from ..i18n import me
from ..i18n import words as part
from ..metrics import AI_DECISIONS, AI_SECONDS, timed
from ..people.people import People
from ..service.outcome import Menu, Message, Outcome, Refused
from ..service.rating import game_result, rate
from ..service.time_off import is_away, quiet_until
from ..service.turnclock import policy
from ..service.unrated import hints_on, is_daily
from ..storage import Conflict, GameRow, Person
from . import automatic
from .automatic import next_automatic, play_automatic
from .changed_decision import changed_decision, withdrawn
from .coach import coach
from .pace import Pace
from .preview import shown_after
from .steps import Steps
from .story import told
from .takeback_window import button, hold_calls, offer

if TYPE_CHECKING:
    from ..people.people import People
    from ..service.core import Games, ServiceOptions
    from ..service.events import Events
    from ..service.pictures.drawing import Drawing
    from ..service.pictures.painter import Painter
    from ..service.status import Status
    from ..storage import Database
    from .pace import Pace
    from .steps import Steps


@dataclass(frozen=True)
class Move:
    """A move as the stages pass it on: what was played (validate and apply make it, or the
    callers of `played` that hand it to `Turns.settle`), then the automatic player's replies (stage 3)."""

    row: GameRow  # the game as the move found it: its version is checked at the save
    plugin: GamePlugin
    before: Any  # the state before the move
    state: Any  # the state after it (and after the automatic player's replies, from stage 3)
    logged: list  # the people's actions: (seat, action, user id)
    events: list  # the engine's events: the people's, then the automatic player's
    people_told: int  # how many of `events` are the people's
    played_from: Any  # the state after the people's actions, before the automatic player's
    actor: str | None = None  # who moved (replied to privately), if a person did
    note: str | None = None  # a line the channel's post starts with
    reply: str | None = None  # the reply to the actor, instead of "Done." or "Saved."
    changes: dict[str, Any] = field(default_factory=dict)  # columns the caller changes with the move
    own: bool = False  # a person's own move: it may be taken back for a while
    auto_actions: list = field(default_factory=list)  # the automatic player's, as `logged`

    @property
    def actions(self) -> list:
        """Every action the move logs: the people's, then the automatic player's."""
        return self.logged + self.auto_actions


def played(
    row: GameRow,
    plugin: GamePlugin,
    state: Any,
    logged: list,
    *,
    events: list | None = None,
    before: Any = None,
    actor: str | None = None,
    note: str | None = None,
    reply: str | None = None,
    changes: dict[str, Any] | None = None,
    own: bool = False,
) -> Move:
    """The move of `logged` that left `state` (`before`: the state it started from, `state` if
    nothing moved), as the stages after it take it: `Turns.settle(played(...))` runs them on a
    seat changing hands or a turn clock run out. A person's `own` move may be taken back for a
    while (takeback_window.py): then the next people are called only once the window closes."""
    events = list(events or [])
    return Move(
        row,
        plugin,
        before if before is not None else state,
        state,
        logged,
        events,
        len(events),
        state,
        actor=actor,
        note=note,
        reply=reply,
        changes=dict(changes or {}),
        own=own,
    )


@dataclass(frozen=True)
class Columns:
    """What the clocks stage (4) makes of a move for the stages after it."""

    changes: dict[str, Any]  # the game's columns the save writes (the caller's and the clocks')
    people: dict[str, Person]  # the game's people, by id (their quiet hours, their time away)
    now: float  # the time of the move
    new_turn: bool  # the move ended a turn (or the game)
    position: int  # the log's length after the move (the row's `moves`)
    after: GameRow  # the row as the move leaves it


class Turns:
    def __init__(
        self,
        db: Database,
        options: ServiceOptions,
        painter: Painter,
        games: Games,
        drawing: Drawing,
        status: Status,
        people: People,
        pace: Pace,
        steps: Steps,
        events: Events,
    ):
        self.db = db
        self.options = options
        self.painter = painter
        self.games = games
        self.drawing = drawing
        self.status = status
        self.people = people
        self.pace = pace
        self.steps = steps
        self.bus = (
            events  # a game's end is published (GameEnded) in the transaction that saves it (not the engine's events)
        )

    async def menu(
        self,
        channel_id: str,
        user_id: str,
        prefix: list[str],
        *,
        moves: int | None = None,
        game_id: int | None = None,
        preview: bool = False,
        kind: str | None = None,
        typed: str | None = None,
        replacing: bool = False,
    ) -> Menu:
        """The next steps after `prefix`; with `typed`, a step written as `/play` takes it
        (in any of the bot's languages) is added to the prefix first, or refused with its rule;
        `replacing`: composed in place of the person's sealed decision (see changed_decision.py)."""
        row = await self.games.open_game(channel_id, game_id=game_id)
        self.steps.check_kind(row, kind, None)
        if moves is not None and moves != row.moves:
            raise Refused(me().t("The game has moved on since these controls were made; use the newest message."))
        plugin = self.games.plugin(row)
        game = plugin.game
        state = self.games.state(plugin, row)
        self.games.seated(row, user_id)
        if replacing:
            state = withdrawn(plugin, state, user_id)[0]
        seat = self.games.acting_seat(plugin, state, user_id)
        if len(prefix) > plugin.max_steps:
            raise Refused(me().t("Too many steps."))
        after, _, _events = self.steps.apply_steps(plugin, state, seat, prefix)
        owed = seat in game.to_move(after) and game.turn_number(after) == game.turn_number(state)
        if typed is not None:
            if not owed:
                raise Refused(me().t("Your steps so far end your turn: confirm them, or undo one first."))
            step = self.steps.typed_step(plugin, after, seat, typed)
            return await self.menu(
                channel_id,
                user_id,
                [*prefix, step],
                moves=moves,
                game_id=game_id,
                preview=preview,
                kind=kind,
                replacing=replacing,
            )
        entries = plugin.menu(after, seat, plugin.choices(after, seat, me()), me()) if owed else []
        summary = plugin.summarise(state, seat, prefix, me()) if prefix else ""
        image = (
            await self.drawing.image(
                plugin,
                shown_after(plugin, state, seat, prefix),  # (never what the move's end reveals)
                row,
                user_id,
                language=me(),
                vision=await self.drawing.vision_of(user_id),
            )
            if preview
            else None
        )
        labels = plugin.game_labels(me())
        return Menu(
            row.game,
            row.id,
            row.moves,
            list(prefix),
            [c for _, c in entries],
            summary,
            complete=not owed,
            can_submit=bool(prefix),
            preview=image,
            heading=labels.composer,
            group_hint=labels.groups,
            paths=[p for p, _ in entries],
            example=plugin.typing_example(after, seat, me()) if owed else "",
            hints=hints_on(row) and owed,
        )

    async def play(
        self,
        channel_id: str,
        user_id: str,
        steps: list[str],
        *,
        moves: int | None = None,
        game_id: int | None = None,
        kind: str | None = None,
        command: str | None = None,
        replacing: bool = False,
    ) -> Outcome:
        """Play steps for the person (typed or coded); all of them or none. A move of someone
        away ends their time away. `replacing`: in place of their sealed decision (see changed_decision.py).
        The stages, in the channel's lock: validate, apply, then those of every move (`settle`)."""
        if not steps:
            raise Refused(me().t("No move given."))
        person = await self.db.people.person(user_id)
        back = await self.people.end_away(person) if is_away(person, self.options.clock()) else []
        async with self.games.lock(channel_id):
            row, plugin, state = await self.validate(
                channel_id, user_id, steps, moves=moves, game_id=game_id, kind=kind, command=command
            )
            outcome = await self.settle(self.apply(row, plugin, state, user_id, steps, replacing=replacing))
        outcome.elsewhere = back + outcome.elsewhere  # (committed before the move)
        return outcome

    async def validate(
        self,
        channel_id: str,
        user_id: str,
        steps: list[str],
        *,
        moves: int | None = None,
        game_id: int | None = None,
        kind: str | None = None,
        command: str | None = None,
    ) -> tuple[GameRow, GamePlugin, Any]:
        """Stage 1, validate: the channel's game (`game_id`: that one) as it stands, its plug-in and
        its state, if the person may move in it: the command is the game's, the controls are the
        newest (`moves`), the steps not too many, the person is seated and plays their seat
        themselves. Otherwise `Refused`, and nothing changes."""
        row = await self.games.open_game(channel_id, game_id=game_id)
        self.steps.check_kind(row, kind, command)
        if moves is not None and moves != row.moves:
            raise Refused(
                me().t(
                    "Someone moved before you: these controls are out of date. Nothing was played; "
                    "use the newest message."
                )
            )
        plugin = self.games.plugin(row)
        if len(steps) > plugin.max_steps:
            raise Refused(me().t("Too many steps."))
        state = self.games.state(plugin, row)
        seat_row = self.games.seated(row, user_id)
        if seat_row.auto:
            raise Refused(me().t("You left this game; the automatic player plays your seat."))
        return row, plugin, state

    def apply(
        self, row: GameRow, plugin: GamePlugin, state: Any, user_id: str, steps: list[str], *, replacing: bool = False
    ) -> Move:
        """Stage 2, apply: the person's steps applied to `state` by the engine, all or none (an
        illegal one is `Refused` with its rule); `replacing`: first their sealed decision is withdrawn
        (logged as taken back, see changed_decision.py). The move as the person made it."""
        before, taken, undone = state, [], []
        if replacing:
            state, was, action, undone = withdrawn(plugin, state, user_id)
            taken = [(was, action, user_id)]
        seat = self.games.acting_seat(plugin, state, user_id)
        state, actions, events = self.steps.apply_steps(plugin, state, seat, steps)
        logged = taken + [(seat, a, user_id) for a in actions]
        return played(row, plugin, state, logged, events=undone + events, before=before, actor=user_id, own=True)

    async def settle(self, move: Move) -> Outcome:
        """The stages of every move once applied, in this order: the automatic player replies,
        the clocks (and the rest of the columns the save writes), the announcement, then the
        save with its event, in one version-checked transaction. What to post and reply."""
        move = await self.automatic_replies(move)
        columns = await self.clocks(move)
        out = await self.announce(move, columns)
        return await self.save(move, columns, out)

    async def automatic_replies(self, move: Move) -> Move:
        """Stage 3, automatic replies: the automatic player moves for the seats that left while
        it is theirs to move (`autoplay`); the move with its actions and events added."""
        state, auto_actions, auto_events = await self.autoplay(move.plugin, move.state, move.row)
        return replace(move, state=state, auto_actions=auto_actions, events=move.events + auto_events)

    async def clocks(self, move: Move) -> Columns:
        """Stage 4, clocks: the columns the save writes (besides the caller's `changes`): a finished
        game's status, whom the game waits for, the turn clock of whoever that is (turnclock.py),
        a new turn's reminder reset, the take-back window of a person's own move; and the row
        as the move leaves it."""
        row, plugin, state, game = move.row, move.plugin, move.state, move.plugin.game
        changes = dict(move.changes)
        people = await self.games.people(replace(row, seats=changes.get("seats", row.seats)))
        now = self.options.clock()
        if game.is_over(state):
            changes.update(status="finished", deadline=None, paused=None)
        new_turn = game.turn_number(state) != game.turn_number(move.before) or game.is_over(state)
        changes["waiting"] = self.games.waiting_for(plugin, state, replace(row, seats=changes.get("seats", row.seats)))
        if new_turn:
            changes["reminded"] = False
        if not game.is_over(state):  # the turn clock of whoever it waits for now (turnclock.py)
            clocked = replace(row, settings=changes.get("settings", row.settings))
            changes.update(policy(row).moved(clocked, changes["waiting"], people, now, new_turn=new_turn))
        position = row.moves + len(move.actions)
        changes["takeback"] = (
            offer(row, plugin, move.before, state, move.logged, move.auto_actions, now) if move.own else None
        )
        after = replace(row, moves=position, **{k: v for k, v in changes.items() if k != "state"})
        return Columns(changes, people, now, new_turn, position, after)

    async def announce(self, move: Move, columns: Columns) -> Outcome:
        """Stage 5, announce: what the move says — its events told (story.py) in the channel's post
        and the DMs (`_announce`), the reply with the take-back button while the window is open
        (the next people's calls held until it closes), and at a new turn the earlier turn posts'
        buttons taken away and the status message."""
        row, plugin, state, after = move.row, move.plugin, move.state, columns.after
        story = told(
            plugin,
            state,
            move.events,
            self.games.namer(plugin, state, after, parts=True),
            self.games.lang(row),
            game_id=row.id,
            played_from=move.played_from,
            auto_actions=move.auto_actions,
            own=move.people_told,
        )
        out = self._announce(
            after,
            plugin,
            move.before,
            state,
            move.events,
            story,
            actor=move.actor,
            note=move.note,
            reply=move.reply,
            people=columns.people,
        )
        if columns.changes["takeback"] is not None:
            until = columns.changes["takeback"]["until"]
            hold_calls(out, until, self.games.lang(row))
            if out.reply is not None:
                out.reply.text = me().sentences(
                    out.reply.text, me().t("You may take it back until {when}.", when=part.time(until, "T"))
                )
                out.reply.controls = button(row, columns.position, me().p("button", "↶ Take back"))
        if columns.new_turn:  # the earlier turn posts lose their buttons; the status message follows
            out.edits += self.status.tidy(after) + [await self.status.status_message(plugin, state, after)]
        return out

    async def save(self, move: Move, columns: Columns, out: Outcome) -> Outcome:
        """Stage 6, save + event: the game's state, its actions, its columns and what it owes the
        channel and the players (`out`, through the outbox) in one transaction, checked against
        the version the move started from; a finished game's result (each player's pace, the
        rating) and its `GameEnded` event inside the same transaction. The images (the slow
        part) are drawn in worker threads meanwhile, cancelled if the move is not saved; a
        move that was not its turn's last gets the actor's board in the reply. A conflict
        (someone moved at the same moment) is `Refused`, and nothing was played."""
        row, plugin, state, game = move.row, move.plugin, move.state, move.plugin.game
        # (none for a day's challenge: it owes no channel anything, its player's page draws the board)
        unseen = is_daily(row.settings)
        drawing = [
            asyncio.create_task(self.drawing.draw(m, plugin, state, row, columns.position))
            for m in out.public
            if m.images and not unseen
        ]
        result = await self.result(move, columns, out, drawing) if game.is_over(state) else None
        try:
            row = await self.games.save(
                row,
                state=game.to_json(state),
                actions=move.actions,
                says=out,
                position=columns.position,
                result=result,
                rate=rate if result else None,
                within=self.bus.game_ended(row.id, result) if result else None,
                **columns.changes,
            )
            self.games.remember(row, state)
        except Conflict:
            for task in drawing:
                task.cancel()
            raise Refused(
                me().t("Someone else moved at the same moment; nothing was played. Look at the board and try again.")
            ) from None
        await asyncio.gather(*drawing)
        actor = move.actor
        if out.reply is not None and actor is not None and not columns.new_turn and not unseen:
            out.reply.files += [
                f
                for f in [
                    await self.drawing.image(
                        plugin, state, row, actor, language=me(), vision=await self.drawing.vision_of(actor)
                    )
                ]
                if f
            ]
        return out

    async def result(self, move: Move, columns: Columns, out: Outcome, drawing: list[asyncio.Task]) -> Any:
        """A finished game's result, for the save: each player's pace in it (the log replayed in a
        worker, while `drawing` runs; cancelled if that fails), said in the last post, and what
        the rating takes (`rating.game_result`)."""
        row, plugin = move.row, move.plugin
        try:
            paces = await self.pace.game_pace(plugin, row, move.actions, columns.people)
        except BaseException:
            for task in drawing:
                task.cancel()
            raise
        if paces and out.public:  # the last post says each player's pace in this game
            out.public[0].text = "\n".join(
                filter(None, [out.public[0].text, self.pace.pace_line(row, paces, self.games.lang(row))])
            )
        return game_result(plugin, move.state, row, paces)

    async def autoplay(
        self, plugin: GamePlugin, state: Any, row: GameRow, *, seats: set[str] | None = None
    ) -> tuple[Any, list, list]:
        """Moves of the automatic player (see automatic.py), in a worker: a strong player
        may think for a second, and the event loop must not wait for it."""
        game = plugin.game
        gone = [s.user_id for s in row.seats if s.auto]
        forced = sorted(seats or ())
        if next_automatic(game, state, set(gone), set(forced), game.turn_number(state)) is None:
            return state, [], []
        daily = bool(row.settings.get("daily"))  # (one opponent for everyone: work, no clock)
        with timed(AI_SECONDS, plugin.name):
            state_json, actions, events = await self.painter.run(
                play_automatic,
                plugin.name,
                game.to_json(state),
                gone,
                forced,
                f"{row.seed}:{row.moves}",
                row.bot_level,
                automatic.DAILY_SECONDS if daily else self.options.ai_seconds,
                daily,
            )
        # one decision per run of steps by the same seat (a whole turn, or a seat's round decision)
        turns = sum(1 for i, a in enumerate(actions) if i == 0 or a[0] != actions[i - 1][0])
        AI_DECISIONS.labels(plugin.name, row.bot_level).inc(turns)
        return game.from_json(state_json), [tuple(a) for a in actions], events

    def _announce(
        self,
        row: GameRow,
        plugin: GamePlugin,
        before: Any,
        state: Any,
        events: list,
        story: list[str],
        *,
        actor: str | None,
        note: str | None = None,
        reply: str | None = None,
        people: dict[str, Person] | None = None,
    ) -> Outcome:
        """What a change says: the public post (text, pings, controls, which images), the
        DMs of changed hands and of turns to those who want them, and the private reply to
        whoever acted. `row.moves` is the position after the change; `story`: its events told
        (`story.told`). People in their quiet hours are named, not pinged, and their DMs wait."""
        game, g = plugin.game, self.games.lang(row)
        people = people or {}
        dms: list[tuple[str, Message]] = []
        if plugin.secret_hands and plugin.hands_may_change(events):
            _, dms = self.games.hand_dms(
                plugin, state, row, self.games.hand_dms(plugin, before, row, people=people)[0], people
            )
        out = Outcome(dms=dms)
        over = game.is_over(state)
        new_turn = game.turn_number(state) != game.turn_number(before) or over
        now = self.options.clock()
        quiet = {u: t for u, t in ((u, quiet_until(p, now)) for u, p in people.items()) if t is not None}
        if new_turn or note:
            prompt = [] if over else [self.games.prompt(plugin, state, row)]
            post = ([note] if note else []) + story + prompt
            coached = (
                [part.aside(line) for line in coach(plugin, row, before, state, g)]
                if row.settings.get("tutorial") and new_turn
                else []
            )
            text = "\n".join(post + coached)
            images = self.drawing.channel_images(people, {"board": None}, *([{"final": True}] if over else []))
            waits_for = self.games.waiting_for(plugin, state, row)
            out.public.append(
                Message(
                    text.strip() or g.t("The game goes on."),
                    mentions=[u for u in waits_for if u not in quiet],
                    controls=self.games.final_controls(row) if over else self.games.play_controls(plugin, row),
                    images=images,
                )
            )
            if new_turn and not over:
                out.dms += self.games.turn_dms(plugin, row, waits_for, people)
        elif actor is not None and game.simultaneous and not changed_decision(events):
            waiting = g.enumerated(self.games.named(row, u) for u in self.games.waiting_for(plugin, state, row))
            # The round's number makes every such notice unique (see recovery's look for copies).
            out.public.append(
                Message(
                    g.t(
                        "✅ {name} has decided (round {round}). Waiting for: {waiting}.",
                        name=self.games.named(row, actor),
                        round=game.turn_number(state) + 1,
                        waiting=waiting,
                    )
                )
            )
        if actor is not None:
            if new_turn:
                out.reply = Message(reply or me().t("Done."))
            else:
                seat = next((s for s in game.seats_of(state, actor) if s in game.to_move(state)), None)
                more = plugin.continuation(state, seat, me()) if seat else ""
                out.reply = Message((reply or me().t("Saved.")) + (" " + more if more else ""))
        elif reply:
            out.reply = Message(reply)
        return out
