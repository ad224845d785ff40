"""A person's data as one JSON document (`/me data`, `python -m metrobot export --user ID`).

The format is a contract, versioned (`VERSION`; PRIVACY.md describes it):

  {"format": "metrobot-personal-data", "version": 1, "exported_at": ISO time, "user_id": str,
   "settings": {...} (as stored: turn_dms, quiet {start, end, tz} in minutes, tz, language,
               away_since, away_note, away_log [[from, to]...] as Unix times, and any setting added later),
   "away_until": ISO time | null,
   "games": [{"id", "game", "server", "channel", "status", "created_at", "finished_at", "name" (your
              display name at that table), "language" (of your DMs there), "host", "left" (the
              automatic player took your seat), "clock_ran_out" (the automatic player moved for you
              at least once when your turn clock ran out), "bank_seconds" (only in a game with a bank
              clock: the seconds your bank held when the game last accounted it), "seats" (your seat
              ids), "moves" [{"number", "at",
              "seat", "action" (as logged), "by": "you" | "automatic player"}], "hand" (finished
              games with secret hands: what you held at the end, as the bot words it)}],
   "results": [{"game_id", "server", "game", "name", "score", "won", "place",
                "played_to_the_end", "rated", "rating_after" {"mu", "sigma"} | null, "finished_at",
                "seconds_per_move" [seconds you took for each move, quiet hours and away not counted],
                "finished_themselves" (your own seat to the end, the automatic player never moving for
                you; null: not known, or a tutorial)}],
   "ratings": [{"server", "game", "name", "mu", "sigma", "games", "updated_at"}],
   "tournaments": [],
   "reminders": {"every_hours", "last_sent_at", "held_until"} | null,
   "follows": [{"game_id", "server", "channel", "since", "last_sent_at"}],
   "daily": [{"day", "game", "server", "name", "game_id", "started_at", "score", "finished_at"}],
   "queue": [{"server", "game", "players" [fewest, most], "pace", "channel", "shown", "name", "since"}],
   "avoids": [{"user_id", "since"}] (whom you avoid: your own list),
   "found_tables": [{"id", "server", "game", "thread", "game_id", "confirm_by"}],
   "reviews": [{"game_id", "made_at", "review" (the strong player's review of your turns, as kept:
               each turn's position in the log, your move, its suggestion, what both were worth by
               its estimate)}]}

Nothing of anyone else: no other player's name, seat, move or hand, no seed or deck order. In
a game still running, only the moves you made yourself are listed and no hand (what you hold is
`/hand`'s; a file you keep or pass on must not tell what a running game hides); once a game is
over its secrets are everyone's, and your own hand is in the file.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from ..games import get_plugin
from ..i18n import me

if TYPE_CHECKING:
    from ..service.core import ServiceOptions
    from ..storage import Database

FORMAT = "metrobot-personal-data"
VERSION = 1
ENDED = ("finished", "aborted")


def when(at: float | None) -> str | None:
    """A stored time as ISO 8601 in UTC."""
    if at is None:
        return None
    return dt.datetime.fromtimestamp(at, dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class Export:
    """`/me data`: everything stored of a person."""

    def __init__(self, db: Database, options: ServiceOptions):
        self.db = db
        self.options = options

    async def export(self, user_id: str) -> dict[str, Any]:
        """Everything stored of a person (see the module's description)."""
        rows = await self.db.privacy.export_rows(user_id)
        person = rows["people"] or {}
        moves: dict[int, list[dict[str, Any]]] = {}
        for action in rows["actions"]:
            moves.setdefault(action["game_id"], []).append(action)
        games = [await self._game(user_id, g, moves.get(g["id"], [])) for g in rows["games"]]
        return {
            "format": FORMAT,
            "version": VERSION,
            "exported_at": when(self.options.clock()),
            "user_id": user_id,
            "settings": person.get("settings", {}),
            "away_until": when(person.get("away_until")),
            "games": games,
            "results": [
                {
                    "game_id": r["game_id"],
                    "server": r["guild_id"],
                    "game": r["game"],
                    "name": r["name"],
                    "score": r["score"],
                    "won": r["won"],
                    "place": r["place"],
                    "played_to_the_end": r["played_to_the_end"],
                    "rated": r["rated"],
                    "rating_after": r["rating_after"],
                    "finished_at": when(r["finished_at"]),
                    "seconds_per_move": r["seconds_per_move"],
                    "finished_themselves": r["finished_themselves"],
                }
                for r in rows["results"]
            ],
            "ratings": [
                {
                    "server": r["guild_id"],
                    "game": r["game"],
                    "name": r["name"],
                    "mu": r["mu"],
                    "sigma": r["sigma"],
                    "games": r["games"],
                    "updated_at": when(r["updated_at"]),
                }
                for r in rows["ratings"]
            ],
            "tournaments": [
                {
                    "id": t["id"],
                    "server": t["guild_id"],
                    "name": t["name"],
                    "game": t["game"],
                    "status": t["status"],
                    "host": t["host"],
                    "entry": _entry(t["entry"]),
                }
                for t in rows["tournaments"]
            ],
            "reminders": _reminders(rows["reminders"]),
            "follows": [
                {
                    "game_id": f["game_id"],
                    "server": f["guild_id"],
                    "channel": f["channel_id"],
                    "since": when(f["since"]),
                    "last_sent_at": when(f["last_sent_at"]),
                }
                for f in rows["follows"]
            ],
            "daily": [
                {
                    "day": d["day"],
                    "game": d["kind"],
                    "server": d["guild_id"],
                    "name": d["name"],
                    "game_id": d["game_id"],
                    "started_at": when(d["started_at"]),
                    "score": d["score"],
                    "finished_at": when(d["finished_at"]),
                }
                for d in rows["daily_plays"]
            ],
            "queue": [
                {
                    "server": q["guild_id"],
                    "game": q["game"],
                    "players": q["players"],
                    "pace": q["pace"],
                    "channel": q["channel_id"],
                    "shown": q["shown_to_others"],
                    "name": q["name"],
                    "since": when(q["since"]),
                }
                for q in rows["queue"]
            ],
            "avoids": [{"user_id": a["avoided_id"], "since": when(a["since"])} for a in rows["avoids"]],
            "found_tables": [
                {
                    "id": t["id"],
                    "server": t["guild_id"],
                    "game": t["game"],
                    "thread": t["thread_id"],
                    "game_id": t["game_id"],
                    "confirm_by": when(t["confirm_by"]),
                }
                for t in rows["found_tables"]
            ],
            "reviews": [
                {"game_id": r["game_id"], "made_at": when(r["made_at"]), "review": r["review"]} for r in rows["reviews"]
            ],
        }

    async def _game(self, user_id: str, g: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        seat = g["seat"] or {}
        entry: dict[str, Any] = {
            "id": g["id"],
            "game": g["game"],
            "server": g["guild_id"],
            "channel": g["channel_id"],
            "status": g["status"],
            "created_at": when(g["created_at"]),
            "finished_at": when(g["finished_at"]),
            "name": seat.get("name"),
            "language": seat.get("locale"),
            "host": g["host"],
            "left": bool(seat.get("auto")),
            "clock_ran_out": bool(seat.get("lapsed")),
            "seats": [],
            "moves": [],
        }
        row = await self.db.game(g["id"])
        plugin = _plugin(g["game"])
        state = None
        if row is not None and row.state is not None and plugin is not None:
            state = plugin.game.from_json(row.state)
            entry["seats"] = plugin.game.seats_of(state, user_id)
        elif seat:
            entry["seats"] = [user_id]
        if row is not None and row.settings.get("bank"):  # a bank clock: your bank as last accounted
            left = (row.settings.get("banks") or {}).get("left") or {}
            entry["bank_seconds"] = left.get(user_id)
        over = g["status"] in ENDED
        entry["moves"] = [
            {"number": a["seq"], "at": when(a["at"]), "seat": a["seat"], "action": a["action"], "by": a["by"]}
            for a in actions
            if over or a["by"] == "you"
        ]
        if (
            g["status"] == "finished"
            and state is not None
            and plugin is not None
            and plugin.secret_hands
            and entry["seats"]
        ):
            entry["hand"] = plugin.hand_text(plugin.game.view(state, user_id), entry["seats"], me())
        return entry


def _plugin(kind: str):
    try:
        return get_plugin(kind)
    except Exception:  # a game kind no longer installed: its rows are still theirs
        return None


def _reminders(row: dict[str, Any] | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {
        "every_hours": row["every_seconds"] / 3600,
        "last_sent_at": when(row["last_sent_at"]),
        "held_until": when(row["held_until"]),
    }


def _entry(entry: dict[str, Any] | None) -> dict[str, Any] | None:
    """A person's entry in a tournament, its times as the file writes them."""
    if entry is None:
        return None
    return {**entry, "signed_up_at": when(entry["signed_up_at"])}
