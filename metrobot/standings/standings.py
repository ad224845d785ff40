"""A server's standings: this channel's finished games, the leaderboard, a player's profile,
and rebuilding every rating from the stored finished games. All private replies, in the
requester's language (`me()`), the profile's image included."""

from __future__ import annotations

import asyncio
import statistics
from typing import TYPE_CHECKING, Any

from ..games import all_plugins, get_plugin
from ..games.logplay import replay as replay_log
from ..games.plugin import GamePlugin
from ..i18n import Lang, me
from ..i18n import words as part
from ..service import pictures
from ..service.core import shown, title
from ..service.finishes import finish_rate
from ..service.outcome import Controls, File, Message, Outcome, Refused
from ..service.rating import game_result, rate
from ..service.words import duration, number
from ..storage import Finished, GameRow, Record

if TYPE_CHECKING:
    from ..service.core import Games, ServiceOptions
    from ..storage import Database

PAGE = 10
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def _when(at: float) -> str:
    return part.time(at, "d")


def _line(g: Finished, language: Lang) -> str:
    people = language.enumerated(
        f"{'🏆 ' if won else ''}{shown(user, name, language)} {score}" for user, name, score, won in g.players
    )
    return f"#{g.id} {title(get_plugin(g.game), language)} · {_when(g.finished_at)} · {people}"


class Standings:
    def __init__(self, db: Database, options: ServiceOptions, games: Games):
        self.db = db
        self.options = options
        self.games = games

    async def history(self, channel_id: str) -> Outcome:
        games = await self.db.history.finished_in_channel(channel_id, 15)
        mine = me()
        if not games:
            raise Refused(mine.t("No game has finished in this channel yet."))
        lines = [
            mine.t(
                "**Finished games in this channel** (newest first; {command} to watch one again):",
                command=part.command("game replay game:#", mine.code),
            )
        ]
        lines += [_line(g, mine) for g in games]
        return Outcome(reply=Message("\n".join(lines)))

    def _kind(self, kind: str | None) -> str:
        if kind is None:
            return all_plugins()[0].name
        try:
            return get_plugin(kind).name
        except Exception:
            raise Refused(me().t("There is no game called {name}.", name=repr(kind))) from None

    async def leaderboard(
        self, guild_id: str, user_id: str, kind: str | None = None, page: int = 0, *, channel_id: str | None = None
    ) -> Outcome:
        """Without a kind: the kind last finished in the requester's channel, else the server's
        most played (a game just finished here is what people ask about)."""
        if kind is None:
            kind = await self.db.history.usual_kind(guild_id, channel_id)
            if kind is not None and kind not in {p.name for p in all_plugins()}:
                kind = None  # a kind no longer installed
        kind = self._kind(kind)
        mine = me()
        game = title(get_plugin(kind), mine)
        placings, total = await self.db.history.leaderboard(guild_id, kind, page * PAGE, PAGE)
        pages = max(1, -(-total // PAGE))
        if not 0 <= page < pages:
            raise Refused(
                mine.n(
                    "The {game} leaderboard has {pages} page; there is no page {page}.",
                    "The {game} leaderboard has {pages} pages; there is no page {page}.",
                    pages,
                    game=game,
                    pages=pages,
                    page=page + 1,
                )
            )
        if not placings:
            return Outcome(
                reply=Message(
                    mine.t(
                        "No {game} game has been rated on this server yet: a game counts "
                        "once at least two people finish it without the automatic player.",
                        game=game,
                    )
                )
            )
        lines = [
            mine.t(
                "**{game} leaderboard** — page {page} of {pages} (rating = μ − 3σ, the cautious estimate)",
                game=game,
                page=page + 1,
                pages=pages,
            )
        ]
        for p in placings:
            mark = MEDALS.get(p.position, f"{p.position}.")
            row = mine.n(
                "{mark} {name} — **{rating}** (μ {mu} ± {sigma}, {games} game)",
                "{mark} {name} — **{rating}** (μ {mu} ± {sigma}, {games} games)",
                p.games,
                mark=mark,
                name=p.name,
                rating=mine.num(p.mu - 3 * p.sigma, 1),
                mu=mine.num(p.mu, 1),
                sigma=mine.num(p.sigma, 1),
                games=p.games,
            )
            lines.append(mine.t("__{row}__ ← you", row=row) if p.user_id == user_id else row)
        if all(p.user_id != user_id for p in placings):
            place = await self.db.history.position(guild_id, kind, user_id)
            lines.append(
                mine.t("You are number {place} of {total}.", place=place, total=total)
                if place
                else mine.t("You have no rating here yet.")
            )
        return Outcome(
            reply=Message("\n".join(lines), controls=Controls("leaderboard", 0, kind, page, total=pages - 1))
        )

    async def profile(self, guild_id: str, target_id: str, target_name: str) -> Outcome:
        kinds = await self.db.history.kinds_played(guild_id, target_id)
        mine = me()
        if not kinds:
            raise Refused(mine.t("{name} has not finished a game on this server yet.", name=target_name))
        lines = [mine.t("**{name}** on this server:", name=target_name)]
        finishes = await self.db.history.finishes(guild_id, target_id)
        if finishes.counted:
            lines.append(finish_rate(finishes, mine))
        trends: dict[str, list[float]] = {}
        for kind in kinds:
            record = await self.db.history.record_of(guild_id, target_id, kind)
            if record is None:
                continue
            lines.append(self.record_line(record, mine))
            if record.trend:
                trends[title(get_plugin(kind), mine)] = record.trend
            for g in record.recent:
                lines.append(f"  · {_line(g, mine)}{await self._link(guild_id, g, mine)}")
        files = []
        if self.options.images:
            from metrobot.render.png import encode_png
            from metrobot.render.sparkline import sparkline

            heading = mine.t("{name}: rating over time", name=target_name)
            image = await asyncio.to_thread(lambda: encode_png(sparkline(trends, heading, mine)))
            files.append(File(f"profile-{target_id}.png", image, pictures.chart_alt(heading, trends, mine)))
        return Outcome(reply=Message("\n".join(lines), files))

    async def profile_everywhere(self, user_id: str, name: str, servers: dict[str, str]) -> Outcome:
        """Outside a server (a DM, a group DM, a person's own install): the requester's own record
        on every server (`servers`: the names the front end knows), no one else's."""
        mine = me()
        guilds = await self.db.history.guilds_played(user_id)
        if not guilds:
            raise Refused(mine.t("You have not finished a game on any server yet."))
        lines = [mine.t("**{name}** on every server:", name=name)]
        for guild in guilds:
            lines.append(mine.t("__{server}__", server=servers.get(guild) or guild))
            finishes = await self.db.history.finishes(guild, user_id)
            if finishes.counted:
                lines.append(finish_rate(finishes, mine))
            for kind in await self.db.history.kinds_played(guild, user_id):
                record = await self.db.history.record_of(guild, user_id, kind, recent=0)
                if record is not None:
                    lines.append(self.record_line(record, mine))
        return Outcome(reply=Message("\n".join(lines)))

    @staticmethod
    def record_line(r: Record, language: Lang | None = None) -> str:
        """A game kind on a profile: "**Game**: played, won, average; rating, place, trend."
        (each clause a whole text; the clauses are a list)."""
        language = language or me()
        text = language.n(
            "**{game}**: {played} game, {won} won, average score {average}",
            "**{game}**: {played} games, {won} won, average score {average}",
            r.played,
            game=title(get_plugin(r.game), language),
            played=r.played,
            won=r.won,
            average=language.num(r.average, 1),
        )
        parts = [text]  # the clauses of one sentence (`Lang.clauses`)
        if r.rating:
            mu, sigma = r.rating
            clauses = [
                language.t(
                    "rating **{rating}** (μ {mu} ± {sigma})",
                    rating=language.num(mu - 3 * sigma, 1),
                    mu=language.num(mu, 1),
                    sigma=language.num(sigma, 1),
                )
            ]
            if r.position:
                clauses.append(language.t("number {place} here", place=r.position))
            if len(r.trend) >= 2:
                change = r.trend[-1] - r.trend[max(0, len(r.trend) - 6)]
                arrow = "↗" if change > 0.05 else "↘" if change < -0.05 else "→"
                over = min(5, len(r.trend) - 1)
                clauses.append(
                    language.n(
                        "trend {arrow} {change} over the last game",
                        "trend {arrow} {change} over the last {n} games",
                        over,
                        arrow=arrow,
                        change=language.num(change, 1, sign=True),
                        n=over,
                    )
                )
            parts.append(language.comma.join(clauses))
        if r.pace:
            parts.append(
                language.n(
                    "median time to move {time} (over {moves} move)",
                    "median time to move {time} (over {moves} moves)",
                    len(r.pace),
                    time=duration(statistics.median(r.pace), language),
                    moves=number(len(r.pace), language, 0),
                )
            )
        return language.ended(language.clauses(parts))

    async def _link(self, guild_id: str, g: Finished, language: Lang | None = None) -> str:
        language = language or me()
        message = await self.db.last_post(g.id)
        replay = language.t(
            "replay: {command} in {channel}",
            command=part.command(f"game replay game:{g.id}", language.code),
            channel=part.channel(g.channel_id),
        )
        if not message:
            return " · " + replay
        end = language.t("[the end]({link})", link=f"https://discord.com/channels/{guild_id}/{g.channel_id}/{message}")
        return f" — {end} · {replay}"

    async def rebuild_ratings(self) -> tuple[int, bool]:
        """Every rating recomputed from the stored finished games, in the order they were
        first rated; games that finished before results were kept get theirs (from their
        final state, or their log replayed). Returns (games, whether the ratings equal what
        was stored)."""
        before = await self.db.history.stored_ratings()
        games = []
        for game_id in await self.db.history.rating_order():
            row = await self.db.game(game_id)
            if row is None:
                continue
            plugin = self.games.plugin(row)
            if row.state is not None:
                state = self.games.state(plugin, row)
            else:  # no stored state: the log tells the end
                state = await self._replayed(plugin, row)
            if not plugin.game.is_over(state):
                continue
            games.append((row.id, game_result(plugin, state, row)))
        await self.db.history.rebuild_ratings(games, rate)
        return len(games), before == await self.db.history.stored_ratings()

    async def _replayed(self, plugin: GamePlugin, row: GameRow) -> Any:
        game = plugin.game
        start = game.new_game([s.user_id for s in row.seats], row.options, row.seed)
        return replay_log(game, start, await self.db.actions(row.id))  # (take-backs included)
