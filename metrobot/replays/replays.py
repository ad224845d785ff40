"""Replays of finished games: the turns, drawn from the action log, and the whole game as
an animation. A finished game never changes, so its frames are kept for a while (with
their events: what happened is told, and drawn, in the language of whoever asks).

A move taken back (issue 46) stays in the log: a whole turn taken back is a frame of its
own ("↶ … took back their move", the board as it is again); steps taken back inside a turn
that was never told to the channel are left out, as if they had not been made."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..games import get_plugin
from ..games.logplay import TAKEN_BACK, LogPlayer, is_takeback
from ..games.plugin import GamePlugin
from ..i18n import N_, Lang, me
from ..i18n import words as part
from ..service import pictures
from ..service.core import shown, title
from ..service.outcome import Controls, File, Message, Outcome, Refused
from ..storage import GameRow

if TYPE_CHECKING:
    from ..service.core import Games, ServiceOptions
    from ..service.pictures.drawing import Drawing
    from ..service.pictures.painter import Painter
    from ..storage import Database

KEEP = 8  # finished games whose frames stay in memory
TAKEN_BACK_LINE = N_("↶ {name} took back their move.")


def own_daily(row: GameRow, user_id: str | None) -> bool:
    """A day's challenge (daily/challenge.py) of this person's: they may replay it wherever they ask."""
    seat = row.seat(user_id) if user_id else None
    return bool(row.settings.get("daily")) and seat is not None and not seat.auto


def taken_back_line(name: str, language: Lang) -> str:
    """What the channel is told of a move taken back (the same words in every replay)."""
    return language.t(TAKEN_BACK_LINE, name=name)


@dataclass(frozen=True)
class Frame:
    position: int  # actions played so far
    state: Any
    events: list  # what happened since the frame before (none for the start)

    def story(self, plugin: GamePlugin, name: Callable[[str], str], language: Lang) -> list[str]:
        """What happened since the frame before, as the channel read it, in `language`."""
        if self.position == 0:
            return [language.t("**{game}** begins.", game=title(plugin, language))]
        back = [taken_back_line(name(e["player"]), language) for e in self.events if e.get("type") == TAKEN_BACK]
        rest = [e for e in self.events if e.get("type") != TAKEN_BACK]
        return back + (plugin.narrate(self.state, rest, name, language) if rest or not back else [])


@dataclass(frozen=True)
class Progress:
    """A log replayed so far: where it is, its whole turns as frames, and the events since
    the last frame with the position each came at."""

    player: LogPlayer
    frames: list[Frame]
    pending: list[tuple[int, list]]

    @property
    def moves(self) -> int:
        return self.player.position

    @property
    def state(self) -> Any:
        return self.player.state

    @classmethod
    def start(cls, plugin: GamePlugin, row: GameRow) -> Progress:
        player = LogPlayer.start(plugin.game, [s.user_id for s in row.seats], row.options, row.seed)
        return cls(player, [Frame(0, player.state, [])], [])


def extend(plugin: GamePlugin, known: Progress, actions: list[dict], *, close: bool = False) -> Progress:
    """`known` with more of the log played: a frame at the end of every turn (or round) and of
    the game (with `close`, at the last action too). Steps taken back inside the turn they
    were made in leave no trace; a take-back of a whole turn is a frame of its own."""
    game = plugin.game
    player, frames, pending = known.player.copy(), list(known.frames), list(known.pending)
    for entry in actions:
        before = game.turn_number(player.state)
        events = player.play(entry["player"], entry["action"])
        if is_takeback(entry["action"]) and entry["action"]["to"] >= frames[-1].position:
            pending, events = [(p, e) for p, e in pending if p <= entry["action"]["to"]], []
        pending.append((player.position, events))
        if game.turn_number(player.state) != before or game.is_over(player.state):
            frames.append(Frame(player.position, player.state, [e for _, evs in pending for e in evs]))
            pending = []
    if close and frames[-1].position != player.position:
        frames.append(Frame(player.position, player.state, [e for _, evs in pending for e in evs]))
        pending = []
    return Progress(player, frames, pending)


class Replays:
    def __init__(self, db: Database, options: ServiceOptions, painter: Painter, games: Games, drawing: Drawing):
        self.db = db
        self.options = options
        self.painter = painter
        self.games = games
        self.drawing = drawing
        self._frames: OrderedDict[int, list[Any]] = OrderedDict()  # replays of finished games (immutable)

    def clear_cache(self) -> None:
        """Forget the finished games replayed so far (the next replay reads the log again)."""
        self._frames.clear()

    async def _finished_row(self, channel_id: str, game_id: int | None, user_id: str | None = None) -> GameRow:
        if game_id is None:
            games = await self.db.history.finished_in_channel(channel_id, 1)
            if not games:
                raise Refused(me().t("No game has finished in this channel yet: there is nothing to replay."))
            game_id = games[0].id
        row = await self.db.game(game_id)
        if row is not None and row.channel_id != channel_id and own_daily(row, user_id):
            channel_id = row.channel_id  # (a day's challenge has no channel: its player replays it anywhere)
        if row is None or row.channel_id != channel_id:
            raise Refused(
                me().t(
                    "There is no game #{id} in this channel. {command} lists the finished ones.",
                    id=game_id,
                    command=part.command("history", me().code),
                )
            )
        if row.status != "finished":
            raise Refused(
                me().t(
                    "Only finished games can be replayed (until then the board shows the game; secrets stay secret)."
                )
            )
        return row

    async def frames(self, row: GameRow) -> list[Frame]:
        """The start, the end of every turn (or round) and the end of the game."""
        cache = self._frames
        if row.id in cache:
            cache.move_to_end(row.id)
            return cache[row.id]
        actions = await self.db.actions(row.id)
        plugin = self.games.plugin(row)
        frames = (await asyncio.to_thread(extend, plugin, Progress.start(plugin, row), actions, close=True)).frames
        cache[row.id] = frames
        if len(cache) > KEEP:
            cache.popitem(last=False)
        return frames

    async def replay(
        self,
        channel_id: str,
        game_id: int | None = None,
        frame: int | None = None,
        *,
        animation: bool = False,
        user_id: str | None = None,
        public: bool = False,
    ) -> Outcome:
        """Turn `frame` of a finished game (default: the end), with the buttons to step; its
        pictures in the palette of who asked (`user_id`), or of the game's players when it
        is shown to the channel (`public`)."""
        row = await self._finished_row(channel_id, game_id, user_id)
        frames = await self.frames(row)
        last = len(frames) - 1
        k = last if frame is None else frame
        mine = me()
        if k < 0:
            raise Refused(mine.t("This is the start of the game already: there is no turn before it."))
        if k > last:
            raise Refused(mine.t("This is the end of the game already: there is no turn after it."))
        plugin = self.games.plugin(row)
        shown = frames[k]
        game = title(plugin, mine)
        if k == 0:
            heading = mine.t("**Replay** — {game} #{id}, the start.", game=game, id=row.id)
        elif k == last:
            heading = mine.t("**Replay** — {game} #{id}, the end.", game=game, id=row.id)
        else:
            heading = mine.t(
                "**Replay** — {game} #{id}, turn {turn} of {last}.", game=game, id=row.id, turn=k, last=last
            )
        story = shown.story(plugin, self.games.namer(plugin, shown.state, row, mine), mine)
        text = "\n".join([heading] + story)
        vision = (
            pictures.shared_vision((await self.games.people(row)).values())
            if public
            else await self.drawing.vision_of(user_id)
            if user_id
            else "off"
        )
        files = [
            f
            for f in [
                await self.drawing.image(
                    plugin,
                    shown.state,
                    row,
                    None,
                    moves=shown.position,
                    language=mine,
                    vision=vision,
                    heading=heading.replace("**", ""),
                )
            ]
            if f
        ]
        if animation and self.options.images:
            files += [f for f in [await self._animation(plugin, row, frames, mine, vision)] if f]
        return Outcome(reply=Message(text, files, controls=Controls("replay", row.id, row.game, k, total=last)))

    async def _animation(
        self, plugin: GamePlugin, row: GameRow, frames: list[Frame], language: Lang, vision: str = "off"
    ) -> File | None:
        from metrobot.render import animation_of_views
        from metrobot.render.animation import DISCORD_LIMIT

        if plugin.renderer is None:
            return None
        names = self.drawing.names_for_images(plugin, frames[-1].state, row, language)
        views = [plugin.game.view(f.state, None) for f in frames]
        data = await self.painter.run(animation_of_views, plugin.renderer, views, names, language.code, vision)
        if len(data) > DISCORD_LIMIT:  # even the smallest animation would be refused: the board alone
            return None
        heading = language.n(
            "The whole game #{id} animated, {n} frame from the start to the end; the last one:",
            "The whole game #{id} animated, {n} frames from the start to the end; the last one:",
            len(views),
            id=row.id,
            n=len(views),
        )
        return File(
            f"{row.game}-{row.id}-replay.gif",
            data,
            pictures.alt_text(plugin, views[-1], None, names, language, heading=heading),
        )

    async def replay_choices(self, channel_id: str, typed: str = "") -> list[tuple[str, int]]:
        """This channel's finished games, newest first, as (label, game id) for suggestions."""
        out, mine = [], me()
        for g in await self.db.history.finished_in_channel(channel_id, 25):
            won = " & ".join(shown(user, name, mine) for user, name, _, won in g.players if won)
            game = title(get_plugin(g.game), mine)
            label = (
                mine.t("#{id} {game} — won by {names}", id=g.id, game=game, names=won)
                if won
                else mine.t("#{id} {game} — won by nobody", id=g.id, game=game)
            )
            if typed.lower() in label.lower():
                out.append((label, g.id))
        return out
