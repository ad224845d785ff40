"""Results of finished games and the players' ratings, one per game kind per server.

A game's results and the rating updates they cause are written in the same transaction
that finishes the game (see `Database.update(result=...)`), so a game is never finished
without its ratings or rated without being finished. `seq` numbers results in the order
they were recorded: replaying them in that order rebuilds the ratings exactly.

Who is rated (the project's rule): the people still playing their own seat at the end —
seats the automatic player took over (people who left, or never came back) are not; a
game rates only when at least two such people remain, and never when it was a tutorial or
played with hints; aborted games are never recorded.

Who finished (a person's finish rate, `HistoryQueries.finishes`): `finished` is 1 for the people
who played their own seat to the end without the automatic player ever moving for them, 0 for
the others, NULL where it is not known (results recorded before schema version 14) or not
counted (tutorials).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass

from .personal import GHOST_PREFIX
from .sql import Driver, Tx


@dataclass(frozen=True)
class PlayerResult:
    """One person's result in a finished game."""

    user_id: str
    name: str
    score: int
    won: bool
    human: bool  # still playing their own seat at the end (not the automatic player)
    place: int  # in the game's own final ranking, tie-breaks included (1: the winners)
    pace: tuple[float, ...] = ()  # seconds they took for each of their moves (turns/pace.py)
    # They played their own seat to the end and the automatic player never moved for them (no
    # turn clock ran out on them, they did not leave); None: not counted (a tutorial).
    finished: bool | None = None


@dataclass(frozen=True)
class GameResult:
    guild_id: str
    game: str
    players: tuple[PlayerResult, ...]
    unrated: bool = False  # a tutorial, or a game played with hints: kept in the history, not rated

    def rated(self) -> list[PlayerResult]:
        humans = [s for s in self.players if s.human]
        return humans if len(humans) >= 2 and not self.unrated else []


Rating = tuple[float, float]  # (mu, sigma)
# New ratings of the rated people, in order, from their results and current ratings (None: new).
RateFn = Callable[[list[PlayerResult], list[Rating | None]], list[Rating]]


def rank(result: PlayerResult, among: list[PlayerResult]) -> int:
    """1 + how many of `among` the game placed ahead (people it could not separate share
    a rank): the game's own order with its tie-breaks, not the scores alone."""
    return 1 + sum(other.place < result.place for other in among)


async def record(
    tx: Tx,
    driver: Driver,
    game_id: int,
    result: GameResult,
    rate: RateFn,
    seq: int | None = None,
    now: float | None = None,
) -> None:
    """Inside the caller's transaction: the game's results and the new ratings."""
    now = time.time() if now is None else now
    if seq is None:
        seq = await driver.next_results_seq(tx)
    rated = result.rated()
    current: list[Rating | None] = []
    for s in rated:
        row = await tx.fetchone(
            "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?",
            result.guild_id,
            result.game,
            s.user_id,
        )
        current.append((row[0], row[1]) if row else None)
    new = dict(zip((s.user_id for s in rated), rate(rated, current))) if rated else {}
    for s in result.players:
        mu, sigma = new.get(s.user_id, (None, None))
        await tx.execute(
            "INSERT INTO results (game_id, user_id, seq, guild_id, game, name, score, won, rank, human, rated, mu, "
            "sigma, finished_at, pace, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            game_id,
            s.user_id,
            seq,
            result.guild_id,
            result.game,
            s.name,
            s.score,
            int(s.won),
            s.place,
            int(s.human),
            int(s.user_id in new),
            mu,
            sigma,
            now,
            json.dumps([round(x, 1) for x in s.pace]) if s.pace else None,
            None if s.finished is None else int(s.finished),
        )
    for s in rated:
        mu, sigma = new[s.user_id]
        await tx.execute(
            "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, games, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
            "name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + 1, "
            "updated_at = excluded.updated_at",
            result.guild_id,
            result.game,
            s.user_id,
            s.name,
            mu,
            sigma,
            now,
        )


async def rebuild(tx: Tx, driver: Driver, games: list[tuple[int, GameResult]], rate: RateFn) -> None:
    """Inside the caller's transaction: every result and rating recorded again, game by game
    in the order given, numbered 1, 2, ... in that order (the order they were first
    recorded, see `HistoryQueries.rating_order`). A game that finished before results were
    kept (schema version 3) gets its results now, dated when it finished."""
    first = dict(await tx.fetch("SELECT game_id, MIN(finished_at) FROM results GROUP BY game_id"))
    paces = await tx.fetch("SELECT game_id, user_id, pace FROM results WHERE pace IS NOT NULL")
    # Who finished is kept as it was recorded: read again from the seats, a game recorded before
    # it was kept would count as known.
    finishes = await tx.fetch("SELECT game_id, user_id, finished FROM results WHERE finished IS NOT NULL")
    ended = dict(await tx.fetch("SELECT id, COALESCE(finished_at, updated_at) FROM games WHERE status = 'finished'"))
    await tx.execute("UPDATE games SET finished_at = updated_at WHERE status = 'finished' AND finished_at IS NULL")
    await tx.execute("DELETE FROM results")
    await tx.execute("DELETE FROM ratings")
    for seq, (game_id, result) in enumerate(games, 1):
        await record(tx, driver, game_id, result, rate, seq, first.get(game_id, ended.get(game_id)))
    # People who asked to be forgotten are rated along (so everyone else's ratings come out the
    # same) but kept on no leaderboard.
    await tx.execute("DELETE FROM ratings WHERE user_id LIKE ?", GHOST_PREFIX + "%")
    await tx.executemany(
        "UPDATE results SET pace = ? WHERE game_id = ? AND user_id = ?", [(p, g, u) for g, u, p in paces]
    )
    await tx.execute("UPDATE results SET finished = NULL")
    await tx.executemany(
        "UPDATE results SET finished = ? WHERE game_id = ? AND user_id = ?", [(f, g, u) for g, u, f in finishes]
    )
    await driver.results_renumbered(tx, len(games))
