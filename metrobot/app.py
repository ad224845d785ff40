"""The whole application: the game service (its parts, wired in wiring.py), and beside it the
tournaments and people's and servers' data (privacy), each receiving what it uses, and who
listens to what.

Every composition root builds through `build`: the Discord client, the web server, the command
line, the benchmarks and the tests. The front ends then hold them separately (`bot.service`,
`bot.tournaments` and `bot.privacy`; the web app's `SERVICE` and `TOURNAMENTS`).

    GameService ...... the game service's parts (wiring.py), each called by name
    TableGames ....... a tournament's tables' games: db, options, games, status, lobby
    Rounds, Running .. a tournament's rounds; once it runs: drop, pause, abort
    Director ......... creating one, sign-up, start
    TournamentPages .. how tournaments look, their pages
    TournamentService  the tournaments' front: subscribed to GameEnded, which the service
                       publishes inside the transaction that finishes a game, so a table's result
                       is stored with its game's end or not at all
    Departures ....... servers that removed the bot: db, options
    Export, Forget ... a person's data: db, options; erased: db, games, lobby, departures
    Policy, Privacy .. /privacy; what the adapter and the command line ask (privacy/)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .privacy import DEFAULT_RETENTION_DAYS, Privacy
from .privacy.departures import Departures
from .privacy.export import Export
from .privacy.forget import Forget
from .privacy.policy import Policy
from .service.core import fixed_seeds
from .service.events import GameEnded
from .settings import Settings
from .storage import Database
from .tournaments.director import Director
from .tournaments.rounds import Rounds
from .tournaments.running import Running
from .tournaments.service import TournamentService
from .tournaments.tablegames import TableGames
from .tournaments.webpage import TournamentPages
from .wiring import GameService


@dataclass(frozen=True)
class App:
    """What the front ends talk to: the game service, the tournaments and people's data."""

    service: GameService
    tournaments: TournamentService
    privacy: Privacy


def build(
    db: Database,
    *,
    retention_days: float = DEFAULT_RETENTION_DAYS,
    contact: str | None = None,
    policy_url: str | None = None,
    **options: Any,
) -> App:
    """The game service on `db` (`options`: GameService's: clock, seeds, images, render_workers,
    …), the tournaments on its parts, subscribed to the end of a game, and privacy on them
    (`retention_days`, `contact`, `policy_url`: the operator's, see `privacy`)."""
    service = GameService(db, **options)
    tables = TableGames(db, service.options, service.games, service.status, service.lobby)
    rounds = Rounds(db, service.options, service.games, service.painter, service.lobby, tables)
    running = Running(db, service.options, service.games, rounds, service.lobby, tables)
    director = Director(db, service.options, service.games, rounds, running)
    pages = TournamentPages(
        db, service.options, service.games, service.painter, service.listing, service.links, service.web_index
    )
    tournaments = TournamentService(db, service.options, tables, rounds, running, director, pages)
    service.events.subscribe(GameEnded, tournaments.game_ended)
    return App(
        service,
        tournaments,
        privacy(db, service, retention_days=retention_days, contact=contact, policy_url=policy_url),
    )


def privacy(
    db: Database,
    service: GameService,
    *,
    retention_days: float = DEFAULT_RETENTION_DAYS,
    contact: str | None = None,
    policy_url: str | None = None,
) -> Privacy:
    """People's and servers' data (privacy/) on `db` and the game service's parts: a server that
    left keeps its data `retention_days`; `contact` and `policy_url` are what /privacy names."""
    departures = Departures(db, service.options, retention_days)
    exports = Export(db, service.options)
    erasures = Forget(db, service.games, service.lobby, departures)
    policies = Policy(retention_days, contact, policy_url)
    # (assigned, not returned at once: architecture.md's wiring block is read from assignments)
    front = Privacy(departures, exports, erasures, policies)
    return front


def for_bot(db: Database, settings: Settings) -> App:
    """The application as the bot runs it: the options its settings say (the turn clock, the
    automatic player's time, the drawing workers, fixed seeds where set, what privacy says)."""
    options: dict[str, Any] = {
        "retention_days": settings.retention_days,
        "contact": settings.operator_contact,
        "policy_url": settings.privacy_url,
        "default_turn_clock": int(settings.turn_clock_hours * 3600),
        "ai_seconds": settings.ai_seconds,
        "render_workers": settings.render_workers,
        "png_compression": settings.png_compression,
    }
    if settings.seed is not None:
        options["seeds"] = fixed_seeds(settings.seed)
    return build(db, **options)


__all__ = ["App", "GameService", "build", "for_bot", "privacy"]
