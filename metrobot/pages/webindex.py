"""A server's web page (its running games, open lobbies, finished games and a leaderboard per
game kind) and a person's (their record and rating chart per kind, their recent games).

Only what the server's channels show: names as stored with the games (someone who asked to be
forgotten appears as the stored "Deleted player"), scores, ratings. Every link on them is
signed with the server's key, like the links the bot hands out.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..games import all_plugins, get_plugin
from ..i18n import Lang
from ..service.core import title
from ..service.finishes import finish_rate
from ..service.weblinks import signature
from ..standings.standings import Standings
from ..storage import Finished, GameRow

if TYPE_CHECKING:
    from ..service.core import Games, ServiceOptions
    from ..standings.standings import Standings
    from ..storage import Database

RUNNING, FINISHED, LOBBIES, BOARD = 50, 30, 50, 10  # how many of each a server's page lists
RECENT = 10  # a person's recent games


@dataclass
class Listed:
    """A game in a list: its kind, the people, what it waits for or who won, its page."""

    id: int
    title: str
    people: str
    detail: str = ""
    path: str | None = None  # the game's page (None: a lobby has none)
    when: float | None = None


@dataclass
class Placed:
    position: int
    name: str
    rating: str
    games: int
    path: str


@dataclass
class Leaderboard:
    """One game's leaderboard on a server's page (not a game's board)."""

    kind: str
    title: str
    placings: list[Placed]


@dataclass
class ServerPage:
    guild_id: str
    running: list[Listed]
    lobbies: list[Listed]
    finished: list[Listed]
    boards: list[Leaderboard]
    tournaments: list[Listed] = field(default_factory=list)  # filled in by the tournaments' service


@dataclass
class PersonPage:
    name: str
    records: list[str]  # one line a game kind (**bold** marks the game)
    trends: dict[str, list[float]]  # game title -> ratings over time
    recent: list[Listed] = field(default_factory=list)
    finishes: str = ""  # their finish rate ("": no game counted yet)
    chart_alt: str = ""  # the rating chart in words (`rating_alt`)


def rating_alt(name: str, trends: dict[str, list[float]], language: Lang) -> str:
    """A person's rating chart in words, as their page's alt text: its heading, then each game
    kind with its ratings ("Ann: rating over time — <game>: 20.0, 22.5") — with the reader's
    colon and list comma ("<game>：20.0、22.5" in Chinese and Japanese), put together here rather
    than in the template, which would write Latin ones for everyone."""
    heading = language.t("{name}: rating over time", name=name)
    return heading + "".join(f" — {kind}{language.colon}{language.nums(trend, 1)}" for kind, trend in trends.items())


class WebIndex:
    def __init__(self, db: Database, options: ServiceOptions, games: Games, standings: Standings):
        self.db = db
        self.options = options
        self.games = games
        self.standings = standings

    async def key(self, guild_id: str) -> bytes:
        access = await self.db.web.web_access(guild_id, make=True)
        assert access is not None
        return access[0]

    def _finished_line(self, g: Finished, key: bytes, language: Lang) -> Listed:
        won = language.enumerated(name for _, name, _, w in g.players if w)
        people = language.enumerated(f"{name} {score}" for _, name, score, _ in g.players)
        return Listed(
            g.id,
            title(get_plugin(g.game), language),
            people,
            language.t("won by {names}", names=won) if won else "",
            f"/g/{g.id}/{signature(key, f'game:{g.id}')}/",
            g.finished_at,
        )

    async def server_page(self, guild_id: str, language: Lang) -> ServerPage:
        key = await self.key(guild_id)
        known = {p.name for p in all_plugins()}
        running = []
        for row in await self.db.web.games_in_guild(guild_id, "active", RUNNING):
            if row.game not in known:
                continue
            waiting = language.enumerated(row.names.get(u, u) for u in row.waiting)
            running.append(
                Listed(
                    row.id,
                    title(self.games.plugin(row), language),
                    language.enumerated(s.name for s in row.seats),
                    language.t("waiting for {names}", names=waiting) if waiting else "",
                    f"/g/{row.id}/{signature(key, f'game:{row.id}')}/",
                    row.updated_at,
                )
            )
        lobbies = [
            self._lobby_line(row, language)
            for row in (await self.db.people.lobbies(guild_id))[:LOBBIES]
            if row.game in known
        ]
        finished = [
            self._finished_line(g, key, language)
            for g in await self.db.web.finished_in_guild(guild_id, FINISHED)
            if g.game in known
        ]
        boards = []
        for kind in await self.db.web.rated_kinds(guild_id):
            if kind not in known:
                continue
            placings, _ = await self.db.history.leaderboard(guild_id, kind, 0, BOARD)
            boards.append(
                Leaderboard(
                    kind,
                    title(get_plugin(kind), language),
                    [
                        Placed(
                            p.position,
                            p.name,
                            language.num(p.mu - 3 * p.sigma, 1),
                            p.games,
                            f"/p/{guild_id}/{p.user_id}/{signature(key, f'person:{guild_id}:{p.user_id}')}/",
                        )
                        for p in placings
                    ],
                )
            )
        return ServerPage(guild_id, running, lobbies, finished, boards)

    @staticmethod
    def _lobby_line(row: GameRow, language: Lang) -> Listed:
        return Listed(
            row.id,
            title(get_plugin(row.game), language),
            language.enumerated(s.name for s in row.seats),
            language.t("{seated} of {most} seats taken", seated=len(row.seats), most=row.max_seats),
            None,
            row.created_at,
        )

    async def person_page(self, guild_id: str, user_id: str, language: Lang) -> PersonPage | None:
        """A person's record on a server (None: they have finished no game there)."""
        name = await self.db.web.name_in_guild(guild_id, user_id)
        kinds = [
            k for k in await self.db.history.kinds_played(guild_id, user_id) if k in {p.name for p in all_plugins()}
        ]
        if name is None or not kinds:
            return None
        key = await self.key(guild_id)
        page = PersonPage(name, [], {})
        finishes = await self.db.history.finishes(guild_id, user_id)
        if finishes.counted:
            page.finishes = finish_rate(finishes, language)
        seen: set[int] = set()
        for kind in kinds:
            record = await self.db.history.record_of(guild_id, user_id, kind, RECENT)
            if record is None:
                continue
            page.records.append(self.standings.record_line(record, language))
            if record.trend:
                page.trends[title(get_plugin(kind), language)] = record.trend
            for g in record.recent:
                if g.id not in seen:
                    seen.add(g.id)
                    page.recent.append(self._finished_line(g, key, language))
        page.chart_alt = rating_alt(name, page.trends, language)
        page.recent.sort(key=lambda g: (g.when or 0, g.id), reverse=True)
        page.recent = page.recent[:RECENT]
        return page

    async def rating_chart(self, page: PersonPage, language: Lang) -> bytes | None:
        """The person's ratings over time, one line a game kind (PNG)."""
        if not self.options.images:
            return None
        from metrobot.render.png import encode_png
        from metrobot.render.sparkline import sparkline

        heading = language.t("{name}: rating over time", name=page.name)
        return await asyncio.to_thread(lambda: encode_png(sparkline(page.trends, heading, language)))
