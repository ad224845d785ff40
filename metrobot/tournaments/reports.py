"""Looking at tournaments: `/tournament standings`, `pairings [round]`, `list`, the
tournaments a person is in (in `/games`), and what an owed hall post says when it goes out
(its tables' threads linked, the final standings drawn)."""

from __future__ import annotations

import re
from typing import Any

from ..follow.listing import Listing
from ..games.alttext import ALT_LIMIT, cut
from ..i18n import NP_, Lang, me
from ..i18n import words as part
from ..service import File, Message, Outcome, Refused
from ..service.core import Games, ServiceOptions, title
from ..service.pictures.painter import Painter
from ..storage import Database, Snapshot, TournamentOwed
from .core import TournamentCore, model
from .model import Round
from .scoring import standings
from .texts import FORMAT_WORDS, clean, counted, number, pairings_text, standings_text

MARK = re.compile(r"⟦(\d+):(\d+)⟧")


def _listed(lines: list[str]) -> str:
    """A heading and its list: the list's lines aside (`words.aside`), so that a front end
    with a length limit leaves the last ones out rather than cut a line (or a name) in two."""
    return "\n".join([lines[0], *(part.aside(line) for line in lines[1:])])


# (a context of their own: in some languages a tournament's "finished" is not a game's)
STATUS_WORDS = {
    "signup": NP_("tournament status", "open for sign-up"),
    "running": NP_("tournament status", "under way"),
    "paused": NP_("tournament status", "paused"),
    "finished": NP_("tournament status", "finished"),
    "aborted": NP_("tournament status", "aborted"),
}


def picture_rows(snap: Snapshot) -> list[dict[str, Any]]:
    """The rows of the final standings picture: the hall's final post and the web page draw the same."""
    rules, entrants, rounds, results = model(snap)
    names = {e.user_id: e.name for e in snap.entrants}
    return [
        s.picture_row(names.get(s.person, s.person)) for s in standings(rules, entrants, rounds, results, snap.row.seed)
    ]


class Reports(TournamentCore):
    """The root of the tournaments' looks and pages (Reports, TournamentPages)."""

    def __init__(self, db: Database, options: ServiceOptions, games: Games, painter: Painter, listing: Listing) -> None:
        super().__init__(db, options, games)
        self.painter = painter  # the final standings picture is drawn in its workers
        self.listing = listing  # `/games`, to which the tournaments are added

    async def tournament_standings(self, hall_id: str, guild_id: str | None) -> Outcome:
        row = await self._find(hall_id, guild_id, any_status=True)
        snap = await self._snap(row.id)
        rules, entrants, rounds, results = model(snap)
        table = standings(rules, entrants, rounds, results, row.seed)
        text = standings_text(
            row, table, self._names(snap), me(), len(results), final=row.status == "finished", shown=60
        )
        return Outcome(reply=Message(text))

    async def tournament_pairings(self, hall_id: str, guild_id: str | None, round_number: int | None = None) -> Outcome:
        row = await self._find(hall_id, guild_id, any_status=True)
        snap = await self._snap(row.id)
        if not snap.rounds:
            raise Refused(me().t("No round has been paired yet."))
        wanted = round_number or snap.rounds[-1].number
        found = next((r for r in snap.rounds if r.number == wanted), None)
        if found is None:
            raise Refused(
                me().t(
                    "There is no round {round}: rounds 1 to {last} are paired.",
                    round=wanted,
                    last=snap.rounds[-1].number,
                )
            )
        rnd = Round.from_json(found.pairing)
        text = pairings_text(row, rnd, self._names(snap), me(), league=row.rules["format"] == "league")
        done = {(r["round"], r["table"]): r for r in snap.results}
        lines = [self._link_threads(text, snap.tables)]
        for t in rnd.tables:
            res = done.get((rnd.number, t.number))
            if res:
                places: dict[str, int] = res["places"]
                order = sorted(places, key=lambda p: places[p])
                lines.append(
                    me().t(
                        "Table {table} ended: {order}",
                        table=t.number,
                        order=me().enumerated(
                            f"{places[p]}. {part.name(p, clean(self._names(snap).get(p, p)))}" for p in order
                        ),
                    )
                )
        return Outcome(reply=Message(_listed(lines)))

    async def tournament_list(self, guild_id: str | None) -> Outcome:
        rows = await self.db.tournaments.tournaments_in(str(guild_id)) if guild_id else []
        if not rows:
            return Outcome(
                reply=Message(
                    me().t(
                        "No tournament on this server yet. Create one with {command}.",
                        command=part.command("tournament new", me().code),
                    )
                )
            )
        lines = [me().t("**Tournaments on this server**")]
        for row in rows:
            lines.append(
                me().t(
                    "• **{name}** ({game}, {format}) in {hall}: {status}",
                    name=clean(row.name),
                    game=title(self._tplugin(row), me()),
                    format=me().t(FORMAT_WORDS[row.rules["format"]]),
                    hall=part.channel(row.hall_id),
                    status=me().p(*STATUS_WORDS[row.status]),
                )
            )
        return Outcome(reply=Message(_listed(lines)))

    async def tournament_games(self, user_id: str, guild_id: str | None, page: int = 0) -> Outcome:
        """`/games`, with the tournaments the person is in after their games."""
        outcome = await self.listing.my_games(user_id, guild_id, page)
        if page != 0 or outcome.reply is None:
            return outcome
        mine = await self.db.tournaments.tournaments_of(user_id, guild_id)
        if mine:
            lines = [me().t("**Your tournaments**")]
            for row in mine[:8]:
                rules = row.rules
                lines.append(
                    me().t(
                        "• 🏆 **{name}** ({format}) in {hall}: {status}",
                        name=clean(row.name),
                        format=me().t(FORMAT_WORDS[rules["format"]]),
                        hall=part.channel(row.hall_id),
                        status=me().t("round {round}", round=row.round)
                        if row.round
                        else me().p(*STATUS_WORDS[row.status]),
                    )
                )
            outcome.reply.text = "\n".join([outcome.reply.text, _listed(lines)])
        return outcome

    # ------------------------------------------------------------ what an owed hall post says
    @staticmethod
    def _link_threads(text: str, tables) -> str:
        threads = {(t.round, t.number): t.thread_id for t in tables}

        def link(m: re.Match) -> str:
            thread = threads.get((int(m.group(1)), int(m.group(2))))
            return part.channel(thread) if thread else "—"

        return MARK.sub(link, text)

    async def tournament_message(self, item: TournamentOwed) -> Message:
        """What an owed post or edit says as it goes out: its text with the tables' threads
        linked, and the final standings drawn (in a worker) if it shows them."""
        p = item.payload
        message = Message(p.get("text", ""), mentions=list(p.get("mentions") or []))
        if not MARK.search(message.text) and not p.get("images"):
            return message
        assert item.tournament_id is not None, "a stored item has its tournament"
        snap = await self.db.tournaments.snapshot(item.tournament_id)
        if snap is None:
            return message
        message.text = self._link_threads(message.text, snap.tables)
        if any(spec.get("standings") for spec in p.get("images", ())) and self.options.images:
            message.files.append(await self._standings_file(snap))
        return message

    async def _standings_file(self, snap, g: Lang | None = None) -> File:
        """The final standings picture, in the tournament's language (or `g`: a web page's reader's)."""
        from metrobot.render.standings import standings_png

        row, g = snap.row, g or self._tlang(snap.row)
        rules, entrants, rounds, _ = model(snap)
        rows = picture_rows(snap)
        heading = g.t("{name} — final standings", name=clean(row.name))
        sub = g.n(
            "{game} · {format} · {count} player · {rounds} rounds",
            "{game} · {format} · {count} players · {rounds} rounds",
            len(entrants),
            game=title(self._tplugin(row), g),
            format=g.t(FORMAT_WORDS[rules.format]),
            count=len(entrants),
            rounds=len(rounds),
        )
        data = await self.painter.run(standings_png, heading, sub, rows, g.code)
        return File(f"tournament-{row.id}-standings.png", data, standings_alt(heading, sub, rows, g))


def standings_alt(heading: str, sub: str, rows: list[dict], language: Lang) -> str:
    """The final standings picture in words, for screen readers: what it is, then each place
    with its points (the picture's table, best first, as far as Discord's limit allows)."""
    places = [
        language.n(
            "{rank}. {name}, {points} point",
            "{rank}. {name}, {points} points",
            counted(r["points"]),
            rank=r["rank"],
            name=r["name"],
            points=number(r["points"], language),
        )
        for r in rows
    ]
    said = language.sentences(language.ended(heading), language.ended(sub), language.ended(language.clauses(places)))
    return cut(said, ALT_LIMIT)


__all__ = ["Reports", "number", "standings_alt"]
