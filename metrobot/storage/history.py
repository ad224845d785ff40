"""Reading finished games, results and ratings (history, replays, leaderboards, profiles).

A part of `Database` (`db.history`), handed the driver. Every query names the server it is
about, so one server's games and players never show up in another's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from . import ratings
from .ratings import GameResult, RateFn
from .sql import BIGINT, Driver

ORDINAL = "(mu - 3 * sigma)"  # the conservative estimate leaderboards sort by


@dataclass(frozen=True)
class Finished:
    """A finished game as lists show it."""

    id: int
    game: str
    channel_id: str
    guild_id: str | None
    finished_at: float
    players: list[tuple[str, str, int, bool]]  # (user id, name, score, won), best first


@dataclass(frozen=True)
class Placing:
    position: int
    user_id: str
    name: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class Record:
    """One person's record in one game kind on one server."""

    game: str
    played: int
    won: int
    average: float
    rating: tuple[float, float] | None  # (mu, sigma) if rated
    position: int | None
    trend: list[float]  # the conservative rating after each rated game, oldest first
    recent: list[Finished]
    pace: list[float] = field(default_factory=list)  # seconds per move, their last PACE_GAMES games


PACE_GAMES = 50


@dataclass(frozen=True)
class Finishes:
    """Who finishes, one person on one server (see `HistoryQueries.finishes`)."""

    finished: int  # games they finished themselves
    counted: int  # the games their finish rate counts (those among them)
    held: int  # lobbies and running games where they hold their own seat

    @property
    def share(self) -> float:
        """Of the counted games, the share they finished (0 to 1; 0 with none counted)."""
        return self.finished / self.counted if self.counted else 0.0


def _own_seat(seats: str, user_id: str) -> dict[str, Any] | None:
    return next((s for s in json.loads(seats) if s.get("user_id") == user_id), None)


class HistoryQueries:
    def __init__(self, driver: Driver) -> None:
        self.driver = driver

    async def _all(self, sql: str, args: tuple = ()) -> list[tuple[Any, ...]]:
        async with self.driver.read() as q:
            return await q.fetch(sql, *args)

    async def finished(self, where: str, args: tuple, limit: int) -> list[Finished]:
        """Finished games that match `where` (SQL on `games`, with `args`), newest first."""
        games = await self._all(
            f"SELECT id, game, channel_id, guild_id, finished_at FROM games WHERE status = "
            f"'finished' AND {where} ORDER BY finished_at DESC, id DESC LIMIT ?",
            (*args, limit),
        )
        if not games:
            return []
        ids = [g[0] for g in games]
        marks = ",".join("?" * len(ids))
        people: dict[int, list[tuple[str, str, int, bool]]] = {i: [] for i in ids}
        for gid, user, name, score, won in await self._all(
            f"SELECT game_id, user_id, name, score, won FROM results WHERE game_id IN ({marks}) "
            f"ORDER BY game_id, rank, score DESC, name",
            tuple(ids),
        ):
            people[gid].append((user, name, score, bool(won)))
        return [Finished(gid, game, channel, guild, at or 0.0, people[gid]) for gid, game, channel, guild, at in games]

    async def finished_in_channel(self, channel_id: str, limit: int = 25) -> list[Finished]:
        """This channel's finished games, newest first."""
        return await self.finished("channel_id = ?", (channel_id,), limit)

    async def played_again(self, channel_id: str, game_id: int) -> bool:
        """Whether a lobby to play game `game_id` again was ever opened in its channel (open,
        started or aborted since): ↻ Play again pings the others once a finished game."""
        rows = await self._all("SELECT settings FROM games WHERE channel_id = ? AND id > ?", (channel_id, game_id))
        for (settings,) in rows:
            again = json.loads(settings or "{}").get("again")
            if isinstance(again, dict) and again.get("from") == game_id:
                return True
        return False

    async def usual_kind(self, guild_id: str, channel_id: str | None) -> str | None:
        """The game kind a question about "the" leaderboard most likely means: the kind last
        finished in this channel, else the one most finished on this server (None: none yet)."""
        if channel_id is not None:
            last = await self._all(
                "SELECT game FROM games WHERE status = 'finished' AND channel_id = ? "
                "ORDER BY finished_at DESC, id DESC LIMIT 1",
                (channel_id,),
            )
            if last:
                return last[0][0]
        most = await self._all(
            "SELECT game FROM games WHERE status = 'finished' AND guild_id = ? GROUP BY game "
            "ORDER BY COUNT(*) DESC, MAX(finished_at) DESC LIMIT 1",
            (guild_id,),
        )
        return most[0][0] if most else None

    async def leaderboard(self, guild_id: str, game: str, offset: int, limit: int) -> tuple[list[Placing], int]:
        offset = max(0, min(offset, BIGINT - 1))  # past any board (a forged page number): no rows
        rows = await self._all(
            f"SELECT user_id, name, mu, sigma, games FROM ratings WHERE guild_id = ? AND game = ? "
            f"ORDER BY {ORDINAL} DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, game, limit, offset),
        )
        ((total,),) = await self._all("SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game))
        return [Placing(offset + i + 1, *r) for i, r in enumerate(rows)], total

    async def position(self, guild_id: str, game: str, user_id: str) -> int | None:
        """1-based place on the leaderboard (ties broken by user id, as the board is sorted)."""
        mine = await self._all(
            f"SELECT {ORDINAL} FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?", (guild_id, game, user_id)
        )
        if not mine:
            return None
        ((ahead,),) = await self._all(
            f"SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND ({ORDINAL} > ? OR "
            f"({ORDINAL} = ? AND user_id < ?))",
            (guild_id, game, mine[0][0], mine[0][0], user_id),
        )
        return ahead + 1

    async def record_of(self, guild_id: str, user_id: str, game: str, recent: int = 5) -> Record | None:
        ((played, won, average),) = await self._all(
            "SELECT COUNT(*), COALESCE(SUM(won), 0), COALESCE(AVG(score), 0) FROM results "
            "WHERE guild_id = ? AND game = ? AND user_id = ?",
            (guild_id, game, user_id),
        )
        if not played:
            return None
        rating = await self._all(
            "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?", (guild_id, game, user_id)
        )
        trend = [
            r[0]
            for r in await self._all(
                f"SELECT {ORDINAL} FROM results WHERE guild_id = ? AND game = ? AND user_id = ? AND rated = 1 "
                f"ORDER BY seq",
                (guild_id, game, user_id),
            )
        ]
        last = await self.finished(
            "id IN (SELECT game_id FROM results WHERE guild_id = ? AND game = ? AND user_id = ?)",
            (guild_id, game, user_id),
            recent,
        )
        paces = await self._all(
            "SELECT pace FROM results WHERE guild_id = ? AND game = ? AND user_id = ? AND pace IS NOT NULL "
            f"ORDER BY seq DESC LIMIT {PACE_GAMES}",
            (guild_id, game, user_id),
        )
        return Record(
            game,
            played,
            won,
            average,
            rating[0] if rating else None,
            await self.position(guild_id, game, user_id),
            trend,
            last,
            [x for (text,) in paces for x in json.loads(text)],
        )

    async def finishes(self, guild_id: str, user_id: str) -> Finishes:
        """A person's finish rate on a server. Counted: the games that ended (finished, not
        aborted, not tutorials) with their result known — finished if they played their own
        seat to the end and the automatic player never moved for them — and, as not finished,
        the running games they left or whose turn clock ran out on them. Results recorded
        before this was kept (schema version 14) are not counted. Also how many games they
        hold now: the lobbies and running games (not tutorials) where they sit in their own seat."""
        ((counted, finished),) = await self._all(
            "SELECT COUNT(*), COALESCE(SUM(finished), 0) FROM results "
            "WHERE guild_id = ? AND user_id = ? AND finished IS NOT NULL",
            (guild_id, user_id),
        )
        held = 0
        for status, seats, settings in await self._all(
            "SELECT status, seats, settings FROM games WHERE guild_id = ? AND status IN ('lobby', 'active') "
            "AND seats LIKE ?",
            (guild_id, f'%"{user_id}%'),
        ):
            seat = _own_seat(seats, user_id)
            if seat is None or json.loads(settings).get("tutorial"):
                continue
            if status == "active" and (seat.get("auto") or seat.get("lapsed")):
                counted += 1
            if not seat.get("auto"):
                held += 1
        return Finishes(finished, counted, held)

    async def guilds_played(self, user_id: str) -> list[str]:
        """The servers a person finished games on, the latest first."""
        rows = await self._all(
            "SELECT guild_id FROM results WHERE user_id = ? GROUP BY guild_id ORDER BY MAX(seq) DESC", (user_id,)
        )
        return [r[0] for r in rows]

    async def kinds_played(self, guild_id: str, user_id: str) -> list[str]:
        return [
            r[0]
            for r in await self._all(
                "SELECT game FROM results WHERE guild_id = ? AND user_id = ? GROUP BY game ORDER BY MAX(seq) DESC",
                (guild_id, user_id),
            )
        ]

    async def results_order(self) -> list[int]:
        """Finished games in the order their results were recorded."""
        return [r[0] for r in await self._all("SELECT game_id FROM results GROUP BY game_id ORDER BY MIN(seq)")]

    async def rating_order(self) -> list[int]:
        """Every finished game, in the order ratings take them: games that finished before
        results were kept (they have none) first, by when they finished; then the others in
        the order their results were recorded."""
        return [
            r[0]
            for r in await self._all(
                "SELECT g.id FROM games g LEFT JOIN (SELECT game_id, MIN(seq) AS first FROM results GROUP BY game_id) r "
                "ON r.game_id = g.id WHERE g.status = 'finished' ORDER BY CASE WHEN r.first IS NULL THEN 0 ELSE 1 END, "
                "r.first, COALESCE(g.finished_at, g.updated_at), g.id"
            )
        ]

    async def stored_ratings(self) -> list[tuple[Any, ...]]:
        return await self._all(
            "SELECT guild_id, game, user_id, mu, sigma, games FROM ratings ORDER BY guild_id, game, user_id"
        )

    async def rebuild_ratings(self, games: list[tuple[int, GameResult]], rate: RateFn) -> None:
        async with self.driver.transaction() as tx:
            await ratings.rebuild(tx, self.driver, games, rate)
