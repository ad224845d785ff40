"""Each person's pace (issue 46): the time between a game beginning to wait for them and their
move, from the log's timestamps, their quiet hours and time away not counted; stored with
their result at the end, said in the game's last post, shown on `/profile` (median, in words,
in the reader's language)."""

from __future__ import annotations

import json

import pytest

from metrobot.discord_app.words import discord_text
from metrobot.i18n import lang, reading
from metrobot.storage import Person
from metrobot.turns.pace import move_times, off_seconds
from tests.clock import at
from tests.history.play import play_game

pytestmark = [pytest.mark.timeout(120), pytest.mark.service(seed=34, turn_clock=3600, toy=True)]
ANN, BOB = ("720000000000000001", "Ann"), ("720000000000000002", "Bob")
HOUR = 3600.0


def test_quiet_hours_and_time_away_are_not_counted_and_never_twice():
    quiet = Person("1", {"quiet": {"start": 22 * 60, "end": 7 * 60, "tz": "UTC"}})
    assert off_seconds(quiet, at(2031, 1, 1, 21), at(2031, 1, 2, 8)) == 9 * HOUR  # 22:00-07:00
    assert off_seconds(quiet, at(2031, 1, 1, 12), at(2031, 1, 1, 20)) == 0
    assert off_seconds(quiet, at(2031, 1, 1, 23), at(2031, 1, 3, 23)) == 2 * 9 * HOUR
    seoul = Person("2", {"quiet": {"start": 22 * 60, "end": 7 * 60, "tz": "Asia/Seoul"}})  # UTC+9
    assert off_seconds(seoul, at(2031, 1, 1, 12), at(2031, 1, 1, 23)) == 9 * HOUR  # 13:00-22:00 UTC
    both = Person("3", {"quiet": quiet.settings["quiet"], "away_log": [[at(2031, 1, 2, 5), at(2031, 1, 2, 10)]]})
    assert off_seconds(both, at(2031, 1, 1, 21), at(2031, 1, 2, 12)) == 12 * HOUR  # 22:00 to 10:00, once
    assert off_seconds(None, 0, 100) == 0


async def test_each_move_is_timed_from_when_the_game_began_to_wait_for_its_player(svc):
    row = await play_game(svc, "c1", "g1", [ANN, BOB], kind="race")
    actions = await svc.db.actions(row.id)
    # The log as if each action came an hour after the one before it, Ann's two hours after.
    t, timed = 0.0, []
    for entry in actions:
        t += 2 * HOUR if entry["actor"] == ANN[0] else HOUR
        timed.append(dict(entry, at=t))
    paces = move_times(svc.games.plugin(row), row, timed, {})
    first = actions[0]["actor"]  # (owed from the start: when it began to wait is not logged)
    mine = [a for a in actions if a["actor"] == ANN[0]]
    assert paces[ANN[0]] == [2 * HOUR] * (len(mine) - (first == ANN[0]))
    assert set(paces[BOB[0]]) == {HOUR}
    quiet = {ANN[0]: Person(ANN[0], {"quiet": {"start": 60, "end": 23 * 60, "tz": "UTC"}})}  # 01:00-23:00
    slower = move_times(svc.games.plugin(row), row, timed, quiet)
    assert sum(slower[ANN[0]]) < sum(paces[ANN[0]])  # (some of her hours fell in it)


async def test_a_finished_game_says_each_players_pace_and_the_profile_shows_the_median(svc):
    row = await play_game(svc, "c2", "g1", [ANN, BOB], kind="race")
    async with svc.db.driver.read() as q:
        stored = dict(await q.fetch("SELECT user_id, pace FROM results WHERE game_id = ?", row.id))
        last = await q.fetchone(
            "SELECT payload FROM outbox WHERE game_id = ? AND target = 'channel' AND kind = 'post' ORDER BY id DESC",
            row.id,
        )
    assert all(isinstance(json.loads(stored[u]), list) for u in (ANN[0], BOB[0]))
    assert "⏱ Time to move (median): Ann" in discord_text(json.loads(last[0])["text"])  # (as the channel reads it)
    with reading(lang("de")):
        profile = (await svc.standings.profile("g1", ANN[0], "Ann")).reply.text
    assert "Zugzeit" in profile or "Minute" in profile or "Sekunde" in profile, profile


async def test_the_replay_runs_in_a_drawing_worker_beside_the_final_images(svc):
    """Issue 46: the log's replay (tens of ms for a long game: `python -m bench pace`) is handed
    to the painter's workers with the final images, not run on the event loop's thread."""
    handed = []
    original = svc.painter.run

    async def run(fn, *args):
        handed.append(fn.__name__)
        return await original(fn, *args)

    svc.painter.run = run
    row = await play_game(svc, "c3", "g1", [ANN, BOB], kind="race")
    assert "replayed_times" in handed
    async with svc.db.driver.read() as q:
        stored = await q.fetch("SELECT pace FROM results WHERE game_id = ?", row.id)
    assert stored and all(json.loads(p) for (p,) in stored)


async def test_a_pace_that_cannot_be_read_does_not_stop_the_game_from_ending(svc, caplog):
    async def broken(fn, *args):
        if fn.__name__ == "replayed_times":
            raise ValueError("a log that does not replay")
        return fn(*args)

    svc.painter.run = broken
    row = await play_game(svc, "c4", "g1", [ANN, BOB], kind="race")
    assert (await svc.db.game(row.id)).status == "finished"
    async with svc.db.driver.read() as q:
        stored = await q.fetch("SELECT pace FROM results WHERE game_id = ?", row.id)
    assert len(stored) == 2 and all(p is None for (p,) in stored)
    assert "could not read its players' pace" in caplog.text
