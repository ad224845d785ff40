"""Rating finished games with openskill (Plackett–Luce: many players, ties shared).

One rating per game kind per server. A person's result is their total score over the
seats they ran (one seat, except in variants where a person runs several) and their place
in the game's own final ranking (`GamePlugin.final_ranking`: tie-breaks included, so a
tie-break winner is rated ahead of the loser, not as a draw); people the game cannot
separate share a rank. Leaderboards sort by the conservative estimate
mu − 3σ (openskill's "ordinal"), so a newcomer starts at 0 and rises as games confirm them.
"""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce

from ..games.plugin import GamePlugin
from ..storage import GameResult, GameRow, PlayerResult
from ..storage.ratings import Rating, rank
from .unrated import unrated

MODEL = PlackettLuce()


def rate(results: list[PlayerResult], current: list[Rating | None]) -> list[Rating]:
    teams = [[MODEL.rating() if c is None else MODEL.rating(mu=c[0], sigma=c[1])] for c in current]
    ranks: list[float] = [rank(s, results) for s in results]
    new = MODEL.rate(teams, ranks=ranks)
    return [(team[0].mu, team[0].sigma) for team in new]


def game_result(
    plugin: GamePlugin, state: Any, row: GameRow, paces: dict[str, list[float]] | None = None
) -> GameResult:
    """Who scored what in a finished game, person by person (with the seconds of each of their
    moves, when known: see pace.py), and whether they finished it themselves (not in a tutorial)."""
    game = plugin.game
    scores = game.view(state, None).get("scores", {})
    places = plugin.final_ranking(state)
    results: list[PlayerResult] = []
    for seat in row.seats:
        seats = game.seats_of(state, seat.user_id)
        place = places[seat.user_id]
        results.append(
            PlayerResult(
                seat.user_id,
                seat.name,
                int(sum(scores.get(s, 0) for s in seats)),
                place == 1,
                not seat.auto,
                place,
                tuple((paces or {}).get(seat.user_id, ())),
                None if row.settings.get("tutorial") else not (seat.auto or seat.lapsed),
            )
        )
    return GameResult(row.guild_id or "", row.game, tuple(results), unrated=unrated(row))
