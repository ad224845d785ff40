"""The status message's "Latest board" link names the latest board, also after a crash: its
edit waits while an older board post of the game is still owed (`Status.edits`)."""

from __future__ import annotations

from metrobot.service import GameService, fixed_seeds
from metrobot.storage import Database


async def test_the_status_edit_waits_for_an_older_board_still_owed():
    # (A process that died with a turn post claimed leaves it owed while a live one commits
    # newer moves; the status edit made meanwhile linked to an older board for good: the
    # crash suite saw it once, in a shuffled run.)
    db = await Database(":memory:").open()
    svc = GameService(db, seeds=fixed_seeds(3), images=False)
    try:
        lobby = (await svc.new_game("c1", "g1", "u1", "Ann", "metromania", {}, 2)).public[0]
        await svc.join("c1", "u2", "Bob")
        started = await svc.start("c1", "u1")
        board = next(m for m in started.public if m.images)
        status = next(m for m in started.edits if m.edit == "status")
        await svc.delivered(lobby, "100")
        assert await svc.edits(status) is None  # the board it links to is not out yet
        await svc.delivered(board, "200")
        [(where, text)] = await svc.edits(status) or []
        assert where == "100" and text.endswith("https://discord.com/channels/g1/c1/200")
    finally:
        svc.painter.close()
        await db.close()
