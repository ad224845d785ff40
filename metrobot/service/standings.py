"""A server's standings: this channel's finished games, the leaderboard, a player's profile,
and rebuilding every rating from the stored finished games."""
from __future__ import annotations

import asyncio

from ..games import all_plugins, get_plugin
from ..storage import Finished, Record
from .core import ServiceCore
from .outcome import Controls, File, Message, Outcome, Refused
from .rating import game_result, rate

PAGE = 10
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def _when(at: float) -> str:
    return f"<t:{int(at)}:d>"


def _line(g: Finished) -> str:
    people = ", ".join(f"{'🏆 ' if won else ''}{name} {score}" for _, name, score, won in g.players)
    return f"#{g.id} {get_plugin(g.game).title} · {_when(g.finished_at)} · {people}"


class Standings(ServiceCore):
    async def history(self, channel_id: str) -> Outcome:
        games = await self.db.finished_in_channel(channel_id, 15)
        if not games:
            raise Refused("No game has finished in this channel yet.")
        lines = ["**Finished games in this channel** (newest first; `/game replay game:#` to watch one again):"]
        lines += [_line(g) for g in games]
        return Outcome(reply=Message("\n".join(lines)))

    def _kind(self, kind: str | None) -> str:
        if kind is None:
            return all_plugins()[0].name
        try:
            return get_plugin(kind).name
        except Exception:
            raise Refused(f"There is no game called {kind!r}.") from None

    async def leaderboard(self, guild_id: str, user_id: str, kind: str | None = None, page: int = 0) -> Outcome:
        kind = self._kind(kind)
        title = get_plugin(kind).title
        placings, total = await self.db.leaderboard(guild_id, kind, page * PAGE, PAGE)
        pages = max(1, -(-total // PAGE))
        if not 0 <= page < pages:
            raise Refused(f"The {title} leaderboard has {pages} page{'s' if pages != 1 else ''}; "
                          f"there is no page {page + 1}.")
        if not placings:
            return Outcome(reply=Message(f"No {title} game has been rated on this server yet: a game counts once "
                                         f"at least two people finish it without the automatic player."))
        lines = [f"**{title} leaderboard** — page {page + 1} of {pages} (rating = μ − 3σ, the cautious estimate)"]
        for p in placings:
            mark = MEDALS.get(p.position, f"{p.position}.")
            row = f"{mark} {p.name} — **{p.mu - 3 * p.sigma:.1f}** (μ {p.mu:.1f} ± {p.sigma:.1f}, {p.games} games)"
            lines.append(f"__{row}__ ← you" if p.user_id == user_id else row)
        if all(p.user_id != user_id for p in placings):
            mine = await self.db.position(guild_id, kind, user_id)
            lines.append(f"You are number {mine} of {total}." if mine else "You have no rating here yet.")
        return Outcome(reply=Message("\n".join(lines), controls=Controls("leaderboard", 0, kind, page,
                                                                          total=pages - 1)))

    async def profile(self, guild_id: str, target_id: str, target_name: str) -> Outcome:
        kinds = await self.db.kinds_played(guild_id, target_id)
        if not kinds:
            raise Refused(f"{target_name} has not finished a game on this server yet.")
        lines = [f"**{target_name}** on this server:"]
        trends: dict[str, list[float]] = {}
        for kind in kinds:
            record = await self.db.record_of(guild_id, target_id, kind)
            if record is None:
                continue
            lines.append(self._record_line(record))
            if record.trend:
                trends[get_plugin(kind).title] = record.trend
            for g in record.recent:
                lines.append(f"  · {_line(g)}{await self._link(guild_id, g)}")
        files = []
        if self.images:
            from render.sparkline import sparkline
            from render.style import encode_png

            image = await asyncio.to_thread(lambda: encode_png(sparkline(trends, f"{target_name}: rating over time")))
            files.append(File(f"profile-{target_id}.png", image))
        return Outcome(reply=Message("\n".join(lines), files))

    @staticmethod
    def _record_line(r: Record) -> str:
        title = get_plugin(r.game).title
        text = f"**{title}**: {r.played} game{'s' if r.played != 1 else ''}, {r.won} won, average score {r.average:.1f}"
        if r.rating:
            mu, sigma = r.rating
            text += f"; rating **{mu - 3 * sigma:.1f}** (μ {mu:.1f} ± {sigma:.1f})"
            if r.position:
                text += f", number {r.position} here"
            if len(r.trend) >= 2:
                change = r.trend[-1] - r.trend[max(0, len(r.trend) - 6)]
                arrow = "↗" if change > 0.05 else "↘" if change < -0.05 else "→"
                text += f", trend {arrow} {change:+.1f} over the last {min(5, len(r.trend) - 1)} games"
        return text + "."

    async def _link(self, guild_id: str, g: Finished) -> str:
        message = await self.db.last_post(g.id)
        where = f" — [the end](https://discord.com/channels/{guild_id}/{g.channel_id}/{message})" if message else ""
        return f"{where} · replay: `/game replay game:{g.id}` in <#{g.channel_id}>"

    async def rebuild_ratings(self) -> tuple[int, bool]:
        """Every rating recomputed from the stored finished games, in the order they were
        first rated; returns (games, whether the result equals what was stored)."""
        before = await self.db.stored_ratings()
        games = []
        for game_id in await self.db.results_order():
            row = await self.db.game(game_id)
            if row is None or row.state is None:
                continue
            plugin = self._plugin(row)
            games.append((row.id, game_result(plugin, self._state(plugin, row), row)))
        await self.db.rebuild_ratings(games, rate)
        return len(games), before == await self.db.stored_ratings()
