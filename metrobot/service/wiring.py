"""The game service's parts and who receives what: the whole graph in one place.

Each part owns one concern and gets the parts it calls in its constructor, so the order below is
the order of dependence: a part only receives parts built above it. `GameService` (service.py) is
the facade the front ends still talk to; a new capability should take the parts it uses from
`Parts` instead.

    Events ........... what the service tells whoever listens (GameEnded: see events.py)
    Games ............ the game of a channel: load, lock, who may act, names, save with its outbox
    Drawing .......... the pictures of a position (in the painter's workers) and the ones drawn last
    Outbox ........... what the front ends are owed, and what they delivered
    Status ........... a game's status message; tidying a channel
    ServerSettings ... a server's settings
    WebLinks ......... signed links to the web pages
    Reminders ........ a person's digest of the games waiting for them
    People ........... a person's settings and time away
    Pace, Steps ...... how fast a game goes; a move typed or tapped step by step
    Turns ............ a move: compose, apply, the automatic players, save and say
    Clock ............ turn clocks: reminders and expiry
    Lobby ............ open, join, leave, start, abort
    GameSettings ..... a lobby's settings
    TakeBack, Hints .. a move taken back; the suggestion of the greedy player
    Tutorial ......... a newcomer's solo game
    PlayAgain ........ ↻ a finished game's players open a lobby for the same game again
    FindGame ......... a server's queue, the tables found in it and their lobbies
    Queries .......... status, board, hand
    RulesPages ....... the illustrated rules
    Replays .......... finished games turn by turn
    Daily ............ the daily challenge: the day's deal, once a day, its table and streaks
    Reviews .......... a finished game reviewed by the strong player, for each of its players
    Standings ........ history, leaderboards, profiles
    WebGame, WebIndex  what the web pages show
    Listing .......... /games, nudges
    Following ........ DMs to a game's followers
"""

from __future__ import annotations

from dataclasses import dataclass

from ..storage import Database
from .again import PlayAgain
from .clock import Clock
from .core import Games, ServiceOptions
from .daily import Daily
from .events import Events, GameEnded
from .following import Following
from .gamesettings import GameSettings
from .hints import Hints
from .listing import Listing
from .lobby import Lobby
from .outbox import Outbox
from .pace import Pace
from .people import People
from .pictures.drawing import Drawing
from .pictures.painter import Painter
from .queries import Queries
from .queue import FindGame
from .reminders import Reminders
from .replays import Replays
from .review import Reviews
from .rulespages import RulesPages
from .server import ServerSettings
from .standings import Standings
from .status import Status
from .steps import Steps
from .takeback import TakeBack
from .turns import Turns
from .tutorial import Tutorial
from .webgame import WebGame
from .webindex import WebIndex
from .weblinks import WebLinks


@dataclass(frozen=True)
class Parts:
    """Every part of the game service, built by `wire`."""

    db: Database
    options: ServiceOptions
    painter: Painter
    events: Events
    games: Games
    drawing: Drawing
    outbox: Outbox
    status: Status
    server: ServerSettings
    links: WebLinks
    reminders: Reminders
    people: People
    pace: Pace
    steps: Steps
    turns: Turns
    turn_clock: Clock
    lobby: Lobby
    game_settings: GameSettings
    takeback: TakeBack
    hints: Hints
    tutorial: Tutorial
    again: PlayAgain
    find: FindGame
    queries: Queries
    rules_pages: RulesPages
    replays: Replays
    daily: Daily
    reviews: Reviews
    standings: Standings
    web_game: WebGame
    web_index: WebIndex
    listing: Listing
    following: Following


def wire(db: Database, options: ServiceOptions, painter: Painter) -> Parts:
    """Build the parts, each receiving what it uses."""
    events = Events()
    games = Games(db, options)
    drawing = Drawing(db, options, painter, games)
    outbox = Outbox(db, options, games, drawing)
    status = Status(db, options, games)
    server = ServerSettings(db, options)
    links = WebLinks(db, options, games)
    reminders = Reminders(db, options, games)
    people = People(db, options, games, status, links, reminders)
    pace = Pace(db, painter)
    steps = Steps(games)
    turns = Turns(db, options, painter, games, drawing, status, people, pace, steps, events)
    turn_clock = Clock(db, options, games, people, turns)
    lobby = Lobby(db, options, games, drawing, status, server, turns)
    game_settings = GameSettings(games, status, lobby)
    takeback = TakeBack(db, options, games, drawing, status)
    hints = Hints(painter, games, turns)
    tutorial = Tutorial(lobby)
    again = PlayAgain(db, options, games, server, lobby)
    find = FindGame(db, options, games, server, lobby)
    queries = Queries(db, options, games, drawing, lobby)
    rules_pages = RulesPages(db, options, painter, drawing)
    replays = Replays(db, options, painter, games, drawing)
    daily = Daily(db, options, games, links, lobby, replays)
    events.subscribe(GameEnded, daily.game_ended)
    reviews = Reviews(db, options, painter, games, drawing, links)
    standings = Standings(db, options, games)
    web_game = WebGame(db, games, drawing, replays)
    web_index = WebIndex(db, options, games, standings)
    listing = Listing(db, options, games)
    following = Following(db, options, games, drawing, outbox)
    return Parts(
        db=db,
        options=options,
        painter=painter,
        events=events,
        games=games,
        drawing=drawing,
        outbox=outbox,
        status=status,
        server=server,
        links=links,
        reminders=reminders,
        people=people,
        pace=pace,
        steps=steps,
        turns=turns,
        turn_clock=turn_clock,
        lobby=lobby,
        game_settings=game_settings,
        takeback=takeback,
        hints=hints,
        tutorial=tutorial,
        daily=daily,
        again=again,
        find=find,
        queries=queries,
        rules_pages=rules_pages,
        replays=replays,
        reviews=reviews,
        standings=standings,
        web_game=web_game,
        web_index=web_index,
        listing=listing,
        following=following,
    )
