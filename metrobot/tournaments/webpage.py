"""A tournament as its web page shows it, its link for `/tournament web`, and the tournaments
on a server's page.

Only what the hall shows: the name, the game, the format, the standings with their
tie-breaks (as the standings picture heads them), every round's tables in seat order with
their results and a signed link to each table's game page, the byes, and the final
standings picture once it is over. Never the tournament's seed (nor the coin drawn from it),
and nothing a duplicate round hides while it runs: its tables play one deal, so a table
further on would show the others the cards to come — their games are not linked (here nor
on the server's page) until the round ends.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from ..follow.listing import Listing
from ..games import all_plugins
from ..i18n import Lang, me
from ..pages.webindex import Listed, ServerPage, WebIndex
from ..service import Message, Outcome, Refused
from ..service.core import Games, ServiceOptions, title
from ..service.pictures.painter import Painter
from ..service.weblinks import WebLinks, signature
from ..storage import Database, Snapshot, TournamentRow
from .core import model
from .model import Round
from .reports import STATUS_WORDS, Reports, picture_rows
from .roundrobin import total_rounds
from .scoring import standings
from .texts import FORMAT_WORDS, number, rules_line

LISTED = 25  # tournaments a server's page lists: the open ones, then the latest that ended


@dataclass
class Line:
    """A person's line in the standings."""

    rank: int
    name: str
    points: str
    tiebreaks: list[str]
    played: int
    byes: int
    skipped: int
    dropped: bool


@dataclass
class SeatView:
    name: str
    place: int | None = None  # at the table's end (None: still playing)
    skipped: bool = False  # the automatic player played it all game


@dataclass
class TableView:
    number: int
    seats: list[SeatView]
    game_id: int | None = None
    path: str | None = None  # its game's page (None: no game yet, or a duplicate round still running)
    over: bool = False


@dataclass
class RoundView:
    number: int
    tables: list[TableView]
    byes: str  # who sits it out, as the reader's list ("Ann, Bob"; "Ann、Bob" in Chinese): "" for nobody
    over: bool
    hidden: bool = False  # a duplicate round under way: its games are not linked yet


@dataclass
class TournamentPage:
    id: int
    name: str
    game: str
    format: str
    rules: str  # the format's rules in one line, as the sign-up post says them
    status: str
    status_word: str
    round: int
    rounds: int | None  # how many there will be (None: not known ahead, a knockout or a league)
    lines: list[Line]
    played: list[RoundView] = field(default_factory=list)  # newest first
    picture: str | None = None  # the final standings picture's address, relative to the page
    picture_alt: str = ""  # what the picture shows, in words (`picture_alt`)


PICTURE_ALT_SHOWN = 3  # places the picture's alt text names: the table right below it has everyone


def picture_alt(name: str, lines: list[Line], language: Lang) -> str:
    """The final standings picture in words, as the page's alt text: its heading, then the first
    places with their points, "Spring Cup — final standings: 1. Ann (7), 2. Bob (6)" — with the
    reader's colon, list comma and parentheses ("：", "、", "（7）" in Chinese and Japanese), put
    together here rather than in the template, which would write Latin ones for everyone."""
    places = language.enumerated(f"{s.rank}. {s.name}{language.bracketed(s.points)}" for s in lines[:PICTURE_ALT_SHOWN])
    heading = language.t("{name} — final standings", name=name)
    return heading + language.colon + places if places else heading


def picture_tag(snap: Snapshot) -> str:
    """What the picture shows, in short: its address changes whenever it would."""
    what = [snap.row.name, snap.row.status, picture_rows(snap)]
    return hashlib.blake2b(json.dumps(what, sort_keys=True).encode(), digest_size=4).hexdigest()


def hidden_round(snap: Snapshot, number: int) -> bool:
    """A duplicate round under way (its tables play one deal)."""
    closed = {r.number: r.closed_at for r in snap.rounds}
    return bool(snap.row.rules.get("duplicate")) and closed.get(number) is None and snap.row.status != "finished"


class TournamentPages(Reports):
    """A part of the tournaments: how they look (replies, owed posts, `/games`) and their pages."""

    def __init__(
        self,
        db: Database,
        options: ServiceOptions,
        games: Games,
        painter: Painter,
        listing: Listing,
        links: WebLinks,
        web_index: WebIndex,
    ) -> None:
        super().__init__(db, options, games, painter, listing)
        self.links = links  # the tournament's signed link
        self.web_index = web_index  # the server's page, to which the tournaments are added

    async def tournament_web(self, hall_id: str, guild_id: str | None) -> Outcome:
        """`/tournament web`: the link to this channel's tournament (the open one, else the last)."""
        if self.options.web_base is None:
            raise Refused(me().t("This bot has no web pages: its operator can turn them on (METROBOT_WEB_PORT)."))
        row = await self._find(hall_id, guild_id, any_status=True)
        return Outcome(
            reply=Message(
                me().t(
                    "🌐 This tournament in a browser — standings, pairings and every table's game (anyone with the link "
                    "can follow it): {link}",
                    link=self.links.url(await self.links.tournament_path(row)),
                )
            )
        )

    async def tournament_page(self, row: TournamentRow, language: Lang) -> TournamentPage | None:
        snap = await self.db.tournaments.snapshot(row.id)
        if snap is None or row.game not in {p.name for p in all_plugins()}:
            return None
        row = snap.row
        rules, entrants, rounds, results = model(snap)
        names = self._names(snap)
        total = (
            rules.rounds
            if rules.format == "swiss"
            else total_rounds(rules, entrants)
            if rules.format == "round_robin"
            else None
        )
        lines = [
            Line(
                s.rank,
                names.get(s.person, s.person),
                number(s.points, language),
                [language.num(s.tiebreaks[0], 2), language.num(s.tiebreaks[1], 2), language.num(s.tiebreaks[2], 1)]
                if len(s.tiebreaks) >= 3
                else ["", "", ""],
                s.played,
                s.byes,
                s.skipped,
                s.dropped,
            )
            for s in standings(rules, entrants, rounds, results, row.seed)
        ]
        page = TournamentPage(
            row.id,
            row.name,
            title(self._tplugin(row), language),
            language.t(FORMAT_WORDS[rules.format]),
            rules_line(rules, language, row.settings),
            row.status,
            language.p(*STATUS_WORDS[row.status]),
            row.round,
            total,
            lines,
        )
        key = await self.web_index.key(row.guild_id)
        games = {(t.round, t.number): t.game_id for t in snap.tables}
        done = {(r["round"], r["table"]): r for r in snap.results}
        for rnd in reversed(rounds):
            page.played.append(self._round_view(snap, rnd, names, games, done, key, language))
        if row.status == "finished":
            page.picture = f"standings-{language.code}-{picture_tag(snap)}.png"
            page.picture_alt = picture_alt(row.name, lines, language)
        return page

    @staticmethod
    def _round_view(
        snap: Snapshot, rnd: Round, names: dict[str, str], games: dict, done: dict, key: bytes, language: Lang
    ) -> RoundView:
        hidden = hidden_round(snap, rnd.number)
        tables = []
        for t in rnd.tables:
            result = done.get((rnd.number, t.number))
            places = result["places"] if result else {}
            skipped = set(result.get("skipped", ())) if result else set()
            game = games.get((rnd.number, t.number))
            path = f"/g/{game}/{signature(key, f'game:{game}')}/" if game is not None and not hidden else None
            tables.append(
                TableView(
                    t.number,
                    [SeatView(names.get(p, p), places.get(p), p in skipped) for p in t.seats],
                    game,
                    path,
                    result is not None,
                )
            )
        byes = language.enumerated(names.get(p, p) for p in rnd.byes)
        return RoundView(rnd.number, tables, byes, all(t.over for t in tables), hidden)

    async def tournament_picture(self, row: TournamentRow, language: Lang, tag: str) -> bytes | None:
        """The final standings picture in the reader's language (None: not finished, an
        outdated address, or no images)."""
        snap = await self.db.tournaments.snapshot(row.id)
        if snap is None or snap.row.status != "finished" or tag != picture_tag(snap) or not self.options.images:
            return None
        return (await self._standings_file(snap, language)).data

    async def tournament_server_page(self, guild_id: str, language: Lang) -> ServerPage:
        """The server's page with its tournaments; a duplicate round's games stay off it while
        the round runs."""
        page = await self.web_index.server_page(guild_id, language)
        key = await self.web_index.key(guild_id)
        known = {p.name for p in all_plugins()}
        hidden: set[int] = set()
        for row in await self.db.tournaments.tournaments_in(guild_id, LISTED):
            if row.game not in known or row.status == "aborted":
                continue
            if row.open and row.rules.get("duplicate"):
                snap = await self.db.tournaments.snapshot(row.id)
                if snap is not None:
                    hidden |= {t.game_id for t in snap.tables if t.game_id is not None and hidden_round(snap, t.round)}
            what = f"{title(self._tplugin(row), language)} · {language.t(FORMAT_WORDS[row.rules['format']])}"
            status = language.p(*STATUS_WORDS[row.status])
            if row.status in ("running", "paused") and row.round:
                status = language.t("round {round}", round=row.round) + " · " + status
            page.tournaments.append(
                Listed(row.id, row.name, what, status, f"/t/{row.id}/{signature(key, f't:{row.id}')}/", row.updated_at)
            )
        page.running = [g for g in page.running if g.id not in hidden]
        return page
