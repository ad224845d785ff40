"""The take-back window (issue 46): how long a move may be taken back, whether a move just made
may be, and what waits for the window to close.

A person's own move may be taken back for a short while (`/game settings takeback_minutes`;
two minutes unless the game says otherwise, never in a tournament's games) when the game's
plug-in says the move showed its mover nothing to learn from (`GamePlugin.can_take_back`) and
nobody — no automatic player either — acted after it. Such a move is recorded on the game row
(`takeback`: the log positions around it, when the window closes, the turn clock before it)
in the move's own transaction. The window never holds anyone back: the next person may move at
once (which closes it); only the next person's ping and turn DM wait for it to close, through
the outbox's `not_before`, so that nobody is called for a move that is then taken back.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..games.plugin import GamePlugin
from ..i18n import Lang
from ..i18n import words as part
from ..service.outcome import Controls, Message, Outcome
from ..storage import GameRow

DEFAULT_WINDOW = 120  # seconds, unless the game's settings say otherwise
MAX_WINDOW = 10 * 60


def window(row: GameRow) -> int:
    """The game's take-back window in seconds (0: off). A tournament's tables have none: their
    settings are the tournament's, and a take-back is not part of them."""
    if row.settings.get("tournament"):
        return 0
    seconds = row.settings.get("takeback", DEFAULT_WINDOW)
    return max(0, min(MAX_WINDOW, int(seconds))) if isinstance(seconds, (int, float)) else DEFAULT_WINDOW


def offer(
    row: GameRow, plugin: GamePlugin, before: Any, after: Any, logged: list, automatic: list, now: float
) -> dict[str, Any] | None:
    """The record of a person's move that may be taken back (saved with the move), or None:
    the window is off, the move was not one person's own, the automatic player moved after it,
    or the game's rule keeps it (the game is over, a card was drawn…)."""
    seconds = window(row)
    if seconds <= 0 or automatic or not logged or plugin.game.is_over(after):
        return None
    seats, actors = {seat for seat, _, _ in logged}, {actor for _, _, actor in logged}
    if len(seats) != 1 or len(actors) != 1:
        return None
    (seat,) = seats
    if not plugin.can_take_back(before, seat, [action for _, action, _ in logged], after):
        return None
    return {
        "from": row.moves,
        "to": row.moves + len(logged),
        "until": now + seconds,
        "deadline": row.deadline,
        "paused": row.paused,
        "reminded": row.reminded,
        **({"banks": row.settings.get("banks")} if row.settings.get("bank") else {}),
    }


def clock_back(record: dict[str, Any], away: bool, now: float) -> dict[str, Any]:
    """The turn clock as it was before the move taken back: the same deadline (the time the
    window took was the mover's, as if they had thought longer), or stopped with what was
    left while someone it waits for is away."""
    deadline, paused = record.get("deadline"), record.get("paused")
    left = paused if paused is not None else (None if deadline is None else max(0.0, deadline - now))
    if left is None:
        return {"deadline": None, "paused": None, "reminded": bool(record.get("reminded"))}
    if away:
        return {"deadline": None, "paused": left, "reminded": bool(record.get("reminded"))}
    return {
        "deadline": deadline if paused is None else now + paused,
        "paused": None,
        "reminded": bool(record.get("reminded")),
    }


def hold_calls(out: Outcome, until: float, language: Lang) -> None:
    """Hold what calls the next people to play until the window closes: the turn post goes
    out at once (it names them, pinging nobody), followed by a short ping held until then, and
    their turn DMs wait as long (or to the end of their quiet hours, whichever is later)."""
    for message in list(out.public):
        if message.mentions and message.controls is not None and message.controls.kind == "play":
            who = part.people(message.mentions, separator=language.enumeration_comma)
            out.public.append(
                Message(
                    language.t("🔔 {who}: it is your turn.", who=who),
                    mentions=list(message.mentions),
                    hold_until=until,
                    topic="ping",
                )
            )
            message.mentions = []
    out.dms = [
        (user, replace(m, hold_until=max(m.hold_until or 0.0, until)) if m.topic == "turn" else m)
        for user, m in out.dms
    ]


def button(row: GameRow, position: int, label: str) -> Controls:
    """The ↶ Take back button under the mover's private confirmation (`position`: the game's
    after the move, so that it is refused once anything else happens)."""
    return Controls("takeback", row.id, row.game, position, play_label=label)
