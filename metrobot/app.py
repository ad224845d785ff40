"""The whole application in one place: the game service (its parts: service/wiring.py) and the
tournaments beside it, each receiving what it uses, and who listens to what.

Every composition root builds through `build`: the Discord client, the web server, the
command line, the benchmarks and the tests. The front ends then hold the two separately
(`bot.service` and `bot.tournaments`; the web app's `SERVICE` and `TOURNAMENTS`).

    GameService ...... the facade over the game service's parts (service/service.py)
    TournamentService  the tournaments: handed the parts they use (db, options, painter,
                       games, status, lobby, links, listing, web_index), never the service;
                       subscribed to GameEnded, which the service publishes inside the
                       transaction that finishes a game, so a table's result is stored with
                       its game's end or not at all
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .service import GameService
from .service.events import GameEnded
from .storage import Database
from .tournaments.service import TournamentService


@dataclass(frozen=True)
class App:
    """What the front ends talk to: the game service and the tournaments."""

    service: GameService
    tournaments: TournamentService


def build(db: Database, **options: Any) -> App:
    """The game service on `db` (`options`: GameService's: clock, seeds, images, render_workers,
    …) and the tournaments on its parts, subscribed to the end of a game."""
    service = GameService(db, **options)
    parts = service.parts
    tournaments = TournamentService(
        db,
        parts.options,
        parts.painter,
        parts.games,
        parts.status,
        parts.lobby,
        parts.links,
        parts.listing,
        parts.web_index,
    )
    parts.events.subscribe(GameEnded, tournaments.game_ended)
    return App(service, tournaments)


__all__ = ["App", "build"]
