"""Which games are not rated: tutorials, and games where hints are or were on (a hint plays
as well as the automatic player). A game's settings say it: "tutorial", "hints" (on now),
"hinted" (hints were on at some point: turning them off again does not make it rated)."""

from __future__ import annotations

from ..storage import GameRow


def unrated(row: GameRow) -> bool:
    return bool(row.settings.get("tutorial") or row.settings.get("hints") or row.settings.get("hinted"))


def hints_on(row: GameRow) -> bool:
    return bool(row.settings.get("tutorial") or row.settings.get("hints"))
