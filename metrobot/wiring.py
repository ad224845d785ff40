"""The game service's parts and who receives what: the whole graph in one place (the
tournaments beside them are wired in app.py).

Each part owns one concern and gets the parts it calls in its constructor, so the order below is
the order of dependence: a part only receives parts built above it. Front ends call the part that
owns what they ask, by name (`service.lobby.start`, `service.daily.start`); there is no facade.
The application around it (the tournaments and privacy beside it) is built in app.py, through
which every composition root builds.

    Events ........... what the service tells whoever listens (GameEnded: service/events.py)
    Games ............ the game of a channel: load, lock, who may act, names, save with its outbox
    Drawing .......... the pictures of a position (in the painter's workers) and the ones drawn last
    Outbox ........... what the front ends are owed, and what they delivered
    Status ........... a game's status message; tidying a channel
    ServerSettings ... a server's settings
    WebLinks ......... signed links to the web pages
    Reminders ........ a person's digest of the games waiting for them (people/)
    People ........... a person's settings and time away (people/)
    Pace, Steps ...... how fast a game goes; a move typed or tapped step by step (turns/)
    Turns ............ a move: validate, apply, the automatic players, clocks, say, save (turns/)
    Clock ............ turn clocks: reminders and expiry (turns/)
    Lobby ............ open, join, leave, start, abort (tables/)
    GameSettings ..... a lobby's settings (tables/)
    TakeBack, Hints .. a move taken back; the suggestion of the greedy player (turns/)
    Tutorial ......... a newcomer's solo game (tables/)
    PlayAgain ........ ↻ a finished game's players open a lobby for the same game again (tables/)
    FindGame ......... a server's queue, the tables found in it and their lobbies (tables/)
    Queries .......... status, board, hand (tables/)
    RulesPages ....... the illustrated rules (rules/)
    Replays .......... finished games turn by turn (replays/)
    Daily ............ the daily challenge: the day's deal, once a day, its table and streaks (daily/)
    Reviews .......... a finished game reviewed by the strong player, for each of its players (review/)
    Standings ........ history, leaderboards, profiles (standings/)
    WebGame, WebIndex  what the web pages show (pages/)
    Listing .......... /games, nudges (follow/)
    Following ........ DMs to a game's followers (follow/)
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

from .daily.challenge import Daily
from .follow.following import Following
from .follow.listing import Listing
from .pages.webgame import WebGame
from .pages.webindex import WebIndex
from .people.people import People
from .people.reminders import Reminders
from .replays.replays import Replays
from .review.reviews import Reviews
from .rules.pages import RulesPages
from .service.core import DEFAULT_TURN_CLOCK, Games, ServiceOptions, random_seed
from .service.events import Events, GameEnded
from .service.outbox import Outbox
from .service.outcome import Outcome
from .service.pictures.drawing import Drawing
from .service.pictures.painter import Painter
from .service.server import ServerSettings
from .service.status import Status
from .service.weblinks import WebLinks
from .standings.standings import Standings
from .storage import Database, DatabaseUnavailable
from .tables.again import PlayAgain
from .tables.find import FindGame
from .tables.gamesettings import GameSettings
from .tables.lobby import Lobby
from .tables.queries import Queries
from .tables.tutorial import Tutorial
from .turns.clock import Clock
from .turns.hints import Hints
from .turns.pace import Pace
from .turns.steps import Steps
from .turns.takeback import TakeBack
from .turns.turns import Turns


class GameService:
    """The game service's parts, built here in the order of dependence; a front end calls the one
    that owns what it asks. Besides them: how the service runs (its options), closing it, what
    operators ask and the tick."""

    closed = False  # the database is closed (see close): the service answers nothing more

    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], float] = time.time,
        default_turn_clock: int = DEFAULT_TURN_CLOCK,
        images: bool = True,
        seeds: Callable[[], int] = random_seed,
        render_workers: int | None = 0,
        ai_seconds: float = 1.0,
        png_compression: int | None = None,
    ):
        self.db = db
        self.options = options = ServiceOptions(
            clock=clock,
            default_turn_clock=default_turn_clock,
            images=images,
            seeds=seeds,
            ai_seconds=ai_seconds,
            png_compression=png_compression,
        )
        # Images and the automatic player's thinking run here: worker processes in the bot;
        # 0, the default of the service alone (tests, tools), means a thread.
        self.painter = painter = Painter(render_workers)
        self.events = events = Events()
        self.games = games = Games(db, options)
        self.drawing = drawing = Drawing(db, options, painter, games)
        self.outbox = outbox = Outbox(db, options, games, drawing)
        self.status = status = Status(db, options, games)
        self.server = server = ServerSettings(db, options)
        self.links = links = WebLinks(db, options, games)
        self.reminders = reminders = Reminders(db, options, games)
        self.people = people = People(db, options, games, status, links, reminders)
        self.pace = pace = Pace(db, painter)
        self.steps = steps = Steps(games)
        self.turns = turns = Turns(db, options, painter, games, drawing, status, people, pace, steps, events)
        self.turn_clock = Clock(db, options, games, people, turns)
        self.lobby = lobby = Lobby(db, options, games, drawing, status, server, turns)
        self.game_settings = GameSettings(games, status, lobby)
        self.takeback = TakeBack(db, options, games, drawing, status)
        self.hints = Hints(painter, games, turns)
        self.tutorial = Tutorial(lobby)
        self.again = PlayAgain(db, options, games, server, lobby)
        self.find = FindGame(db, options, games, server, lobby)
        self.queries = Queries(db, options, games, drawing, lobby)
        self.rules_pages = RulesPages(db, options, painter, drawing)
        self.replays = replays = Replays(db, options, painter, games, drawing)
        self.daily = daily = Daily(db, options, games, links, lobby, replays)
        events.subscribe(GameEnded, daily.game_ended)
        self.reviews = Reviews(db, options, painter, games, drawing, links)
        self.standings = standings = Standings(db, options, games)
        self.web_game = WebGame(db, games, drawing, replays)
        self.web_index = WebIndex(db, options, games, standings)
        self.listing = Listing(db, options, games)
        self.following = Following(db, options, games, drawing, outbox)

    # How the service runs: the options its parts share (a test may change them as it runs).
    @property
    def clock(self) -> Callable[[], float]:
        return self.options.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.options.clock = clock

    @property
    def images(self) -> bool:
        return self.options.images

    @images.setter
    def images(self, on: bool) -> None:
        self.options.images = on

    @property
    def web_base(self) -> str | None:
        return self.options.web_base

    @web_base.setter
    def web_base(self, base: str | None) -> None:
        self.options.web_base = base

    @property
    def board_play(self) -> bool:
        return self.options.board_play

    @board_play.setter
    def board_play(self, on: bool) -> None:
        self.options.board_play = on

    @property
    def default_turn_clock(self) -> int:
        return self.options.default_turn_clock

    async def close(self) -> None:
        """Stop the drawing workers and close the database, as the process that opened it stops."""
        self.closed = True
        self.painter.close()
        await self.db.close()

    # What operators ask (/healthz, /metrics).

    async def database_fault(self) -> str | None:
        """What is wrong with the database (the kind of fault), or None: it answers and takes writes."""
        return await self.db.health.fault()

    async def backlog(self) -> tuple[int, float | None]:
        """(messages owed and due now, when the oldest of them became due); messages held for
        someone's quiet hours are not yet due and not counted."""
        return await self.db.health.backlog(self.options.clock())

    async def games_by_status(self) -> dict[tuple[str, str], int]:
        """(status, kind) -> how many games, for the lobbies and the games being played."""
        return await self.db.health.games_by_status()

    async def tick(self) -> list[tuple[str, Outcome]]:
        """The turn clocks (turns/clock.py), then the digests, the followers' DMs and the found
        tables due."""
        out = await self.turn_clock.tick()
        for due in (self.reminders.digests, self.following.follow_news, self.find.tick):
            with contextlib.suppress(DatabaseUnavailable):  # (what is due stays due: a later tick)
                out += await due()
        return out
