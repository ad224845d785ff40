"""Which games are not rated: tutorials, and games where hints are or were on (a hint plays
as well as the automatic player). A game's settings say it: "tutorial", "hints" (on now),
"hinted" (hints were on at some point: turning them off again does not make it rated), and a
day's challenge ("daily": unrated, and private)."""

from __future__ import annotations

from typing import Any

from ..storage import GameRow


def unrated(row: GameRow) -> bool:
    return bool(
        row.settings.get("tutorial")
        or row.settings.get("hints")
        or row.settings.get("hinted")
        or row.settings.get("daily")
    )


def is_daily(settings: dict[str, Any] | None) -> bool:
    """Whether the game is a day's challenge (daily/challenge.py), played on
    its player's own page, whose channel is no Discord channel."""
    return bool((settings or {}).get("daily"))


def hints_on(row: GameRow) -> bool:
    return bool(row.settings.get("tutorial") or row.settings.get("hints"))
