"""Ratings follow each game's own final ranking (`GamePlugin.final_ranking`), tie-breaks
included: a tie-break winner is rated ahead of the person they tied with on points, not as
a draw — in MetrOmania (finished lines, then tunnels) and in flip-and-write (fewer empty
stations) — and a rebuild gives the same numbers.

The games are self-play games from fixed seeds whose leaders tie on points; each test
first checks that the tie is there (if an engine change removes it, pick another seed).
"""

from __future__ import annotations

import sqlite3
from types import SimpleNamespace

import pytest

from metrobot.gamelog import self_play
from metrobot.games import get_plugin
from metrobot.service.rating import game_result, rate
from metrobot.storage import Seat
from metrobot.wiring import GameService

TIED = [("metromania", {}, 2, 186), ("flipwrite", {"map": "madrid"}, 3, 145)]


def person_scores(plugin, state):
    scores = plugin.game.view(state, None)["scores"]
    people = dict.fromkeys(plugin.game.owner(state, s) for s in plugin.game.seats(state))
    return {p: sum(scores[s] for s in plugin.game.seats_of(state, p)) for p in people}


async def store_finished(db, kind, options, seed, people, log, state):
    """The game stored and finished the way the service finishes one (results and ratings
    in the transaction that ends it)."""
    plugin = get_plugin(kind)
    seats = [Seat(p, p.upper()) for p in people]
    row = await db.create_game(
        channel_id="c1",
        guild_id="g1",
        game=kind,
        host=seats[0],
        options=options,
        seed=seed,
        max_seats=len(people),
        turn_clock=3600,
        seats=seats,
    )
    start = plugin.game.new_game(people, options, seed)
    row = await db.update(row, status="active", state=plugin.game.to_json(start))
    actions = [(a["player"], a["action"], plugin.game.owner(start, a["player"])) for a in log.actions]
    return await db.update(
        row,
        status="finished",
        state=plugin.game.to_json(state),
        actions=actions,
        result=game_result(plugin, state, row),
        rate=rate,
    )


@pytest.mark.parametrize("kind, options, players, seed", TIED)
async def test_a_tie_break_winner_is_rated_ahead_not_as_a_draw(db, kind, options, players, seed):
    plugin = get_plugin(kind)
    people = [f"p{i}" for i in range(players)]
    log, state = self_play(plugin.game, people, options, seed)
    scores, places = person_scores(plugin, state), plugin.final_ranking(state)
    top = max(scores.values())
    leaders = sorted((p for p in people if scores[p] == top), key=places.get)
    assert len(leaders) >= 2 and places[leaders[0]] < places[leaders[1]], "no tie on points broken here"
    assert {p for p in people if places[p] == 1} == set(plugin.game.view(state, None)["winners"])

    await store_finished(db, kind, options, seed, people, log, state)
    conn = sqlite3.connect(db.path)
    try:
        results = {
            u: (score, won, rank)
            for u, score, won, rank in conn.execute("SELECT user_id, score, won, rank FROM results")
        }
        mu = dict(conn.execute("SELECT user_id, mu FROM ratings"))
    finally:
        conn.close()
    winner, runner_up = leaders[0], leaders[1]
    assert results[winner][0] == results[runner_up][0]  # the same points...
    assert results[winner][1:] == (1, 1) and results[runner_up][1:] == (0, places[runner_up])  # ...not the same place
    assert mu[winner] > mu[runner_up]  # a draw would have left them level
    history = (await db.history.finished_in_channel("c1"))[0].players
    assert history[0][0] == winner and history[0][3]

    games, identical = await GameService(db, images=False).standings.rebuild_ratings()
    assert (games, identical) == (1, True)


def test_the_advanced_variant_ranks_people_not_companies():
    """Two people running two companies each: a person's place, score and win come from
    both their companies together (the winners the engine names are people)."""
    plugin = get_plugin("metromania")
    _log, state = self_play(plugin.game, ["u1", "u2"], {"advanced": True}, 3)
    places = plugin.final_ranking(state)
    assert set(places) == {"u1", "u2"}
    assert {p for p, v in places.items() if v == 1} == set(plugin.game.view(state, None)["winners"])

    row = SimpleNamespace(guild_id="g1", game="metromania", seats=[Seat("u1", "Ann"), Seat("u2", "Bob")], settings={})
    result = game_result(plugin, state, row)
    scores = person_scores(plugin, state)
    assert [(s.user_id, s.score, s.won, s.place) for s in result.players] == [
        (p, scores[p], places[p] == 1, places[p]) for p in ("u1", "u2")
    ]


def test_by_default_people_are_ranked_by_their_scores(toy):
    state = toy.game.new_game(["a", "b", "c"], {}, 1)
    for n in (3, 3, 3, 1):
        state, _ = toy.game.apply(state, next(iter(toy.game.to_move(state))), {"type": "add", "n": n})
    winner = toy.game.view(state, None)["winner"]
    assert toy.final_ranking(state) == {p: 1 if p == winner else 2 for p in ("a", "b", "c")}
