"""History, leaderboard pages and profiles, per server."""

from __future__ import annotations

import sqlite3
import time

import pytest

from metrobot.service import Refused

from .play import play_game

# its words as the channel reads them (tests/said.py)
pytestmark = pytest.mark.service(discord=True)

PEOPLE = [("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat")]


def add_ratings(db_path, guild, n, kind="race"):
    conn = sqlite3.connect(db_path)
    conn.executemany(
        "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, games, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(guild, kind, f"p{i:02}", f"Player {i:02}", 20 + i, 3.0, 5, time.time()) for i in range(n)],
    )
    conn.commit()
    conn.close()


async def test_leaderboard_pages_and_your_row(svc, db, toy):
    add_ratings(db.path, "g1", 23)
    add_ratings(db.path, "g2", 5)  # another server: never shown on g1's board
    first = (await svc.standings.leaderboard("g1", "p22", "race", 0)).reply
    lines = first.text.splitlines()
    assert "page 1 of 3" in lines[0] and len(lines) == 11
    assert lines[1].startswith("__🥇 Player 22") and lines[1].endswith("← you")
    assert first.controls.kind == "leaderboard" and first.controls.total == 2
    last = (await svc.standings.leaderboard("g1", "p22", "race", 2)).reply.text
    assert last.count("Player") == 3 and "You are number 1 of 23" in last
    with pytest.raises(Refused, match="has 3 pages; there is no page 4"):
        await svc.standings.leaderboard("g1", "p22", "race", 3)
    with pytest.raises(Refused, match="no page 0"):
        await svc.standings.leaderboard("g1", "p22", "race", -1)
    other = (await svc.standings.leaderboard("g2", "p01", "race", 0)).reply.text
    assert other.count("Player") == 5 and "page 1 of 1" in other
    assert "No Race to 10 game has been rated" in (await svc.standings.leaderboard("g3", "x", "race", 0)).reply.text


async def test_history_and_profile(svc, toy):
    for _i in range(3):
        await play_game(svc, "c1", "g1", PEOPLE)
    await play_game(svc, "c9", "g2", PEOPLE[:2])  # another server
    history = (await svc.standings.history("c1")).reply.text
    assert history.count("Race to 10") == 3 and "#1 " in history
    with pytest.raises(Refused, match="No game has finished in this channel"):
        await svc.standings.history("c5")
    profile = (await svc.standings.profile("g1", "u1", "Ann")).reply.text
    assert "**Race to 10**: 3 games" in profile and "rating" in profile
    assert profile.count("/game replay game:") == 3 and "#4" not in profile  # g2's game is not here
    with pytest.raises(Refused, match="not finished a game on this server"):
        await svc.standings.profile("g3", "u1", "Ann")


async def test_leaderboard_without_a_kind_shows_the_kind_played_here(svc, toy):
    # No game finished anywhere: the first kind, as before.
    assert "MetrOmania" in (await svc.standings.leaderboard("g1", "u1", channel_id="c1")).reply.text
    await play_game(svc, "c1", "g1", PEOPLE)
    # The kind last finished in the channel, not the registry's first kind...
    assert "Race to 10 leaderboard" in (await svc.standings.leaderboard("g1", "u1", channel_id="c1")).reply.text
    # ...and in a channel with no finished game, the server's most played kind.
    assert "Race to 10 leaderboard" in (await svc.standings.leaderboard("g1", "u1", channel_id="c7")).reply.text
    # Another server knows nothing of it.
    assert "MetrOmania" in (await svc.standings.leaderboard("g2", "u1", channel_id="c9")).reply.text
