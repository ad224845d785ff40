"""The log of a stored game, as the tests that replay it rebuild it (the product's own replays:
metrobot/backup.py, metrobot/service/outbox.py)."""

from __future__ import annotations

from typing import Any

from metrobot.gamelog import GameLog
from metrobot.storage import GameRow


def stored_log(row: GameRow, actions: list[dict[str, Any]]) -> GameLog:
    """The game's log from its row and its logged actions (`db.actions(row.id)`)."""
    return GameLog(
        row.game,
        row.seed,
        [s.user_id for s in row.seats],
        row.options,
        [{"player": a["player"], "action": a["action"]} for a in actions],
    )
