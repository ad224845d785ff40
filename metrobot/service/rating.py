"""Rating finished games with openskill (Plackett–Luce: many players, ties shared).

One rating per game kind per server. A person's result is their total score over the
seats they ran (one seat, except in variants where a person runs several); ranks follow
the scores, equal scores share a rank. Leaderboards sort by the conservative estimate
mu − 3σ (openskill's "ordinal"), so a newcomer starts at 0 and rises as games confirm them.
"""
from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce

from ..games.plugin import GamePlugin
from ..storage import GameResult, GameRow, Standing
from ..storage.ratings import Rating, rank

MODEL = PlackettLuce()


def rate(standings: list[Standing], current: list[Rating | None]) -> list[Rating]:
    teams = [[MODEL.rating() if c is None else MODEL.rating(mu=c[0], sigma=c[1])] for c in current]
    ranks = [rank(s, standings) for s in standings]
    new = MODEL.rate(teams, ranks=ranks)
    return [(team[0].mu, team[0].sigma) for team in new]


def game_result(plugin: GamePlugin, state: Any, row: GameRow) -> GameResult:
    """Who scored what in a finished game, person by person."""
    game = plugin.game
    data = game.view(state, None)
    scores, winners = data.get("scores", {}), set(data.get("winners", []))
    standings = []
    for seat in row.seats:
        seats = game.seats_of(state, seat.user_id)
        standings.append(Standing(seat.user_id, seat.name, int(sum(scores.get(s, 0) for s in seats)),
                                  any(s in winners for s in seats), not seat.auto))
    return GameResult(row.guild_id or "", row.game, tuple(standings))
