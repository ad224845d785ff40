"""Forgetting a person (`/me forget`, `python -m metrobot forget --user ID`), as game sites do
with a closed account (Lichess's ghosts, OGS): other people's games stay whole, without them.

A job in three steps, each safe to run again, recorded in the database before it starts
(`erasures`), so that a kill half-way is completed at the next start (`resume_erasures`):

1. in every lobby and running game where they still play their own seat, they leave as with
   `/game resign` (the same code): the automatic player takes the seat and moves at once if
   it is owed; the channel is told;
2. every game that names them is renamed as a whole, one version-checked transaction each:
   their id becomes a random "ghost" id (one per server, kept with the job until it ends) in
   the state, the options, the log, the seats, the results and the messages; their display
   name becomes "Deleted player"; a finished game still replays to its stored state and
   everyone's results and ratings stand;
3. one transaction deletes the rest (settings, away periods and notes, their own rating rows,
   DMs owed to them, names in texts already sent) and ends the job, which drops the ghost ids:
   no link between them and the ghosts is left.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from ..games import get_plugin
from ..i18n import Lang, lang, me
from ..ids import snowflake
from ..service import Message, Outcome, Refused
from ..service.core import GHOST
from ..storage import Conflict, GameRow, Seat
from ..storage.personal import GHOST_NAME
from ..tables.lobby import found_table, invitation

if TYPE_CHECKING:
    from ..service.core import Games
    from ..storage import Database
    from ..tables.lobby import Lobby
    from .departures import Departures

log = logging.getLogger("metrobot.privacy")
ATTEMPTS = 5  # a game that keeps changing under the renaming is tried again (then the next pass)


def valid_user(user_id: Any) -> bool:
    """A Discord user id (a snowflake): what the command line and the controls accept."""
    return snowflake(user_id)


# The lists of a lobby opened to play a game again (tables/lobby.py `invitation`) that hold ids.
INVITATION_LISTS = ("invited", "declined", "winners")


def _invited(row: GameRow, user_id: str) -> bool:
    """Named in a lobby to play again's lists, or among a found table's people (tables/find.py)."""
    again = invitation(row)
    return any(user_id in again.get(key, []) for key in INVITATION_LISTS) or user_id in found_table(row).get(
        "invited", []
    )


def _names(row: GameRow, user_id: str) -> bool:
    """Whether a game row still names the person."""
    return row.host_id == user_id or row.seat(user_id) is not None or user_id in row.waiting or _invited(row, user_id)


def done(language: Lang) -> str:
    """What a person is told once they are forgotten (the answer, or a DM after a restart)."""
    return language.t(
        "Done: I have forgotten you. Your settings, time away, notes and ratings are deleted; in games "
        "others played with you, your name and id are replaced by “Deleted player”, and the automatic "
        "player has taken over your seats in running games. Messages already posted in channels stay "
        "there (Discord keeps them, not me)."
    )


def _rename(kind: str, data: Any, old: str, new: str) -> Any:
    return get_plugin(kind).rename_player(data, old, new)


class Forget:
    """`/me forget`: a person erased, as a job a crash cannot leave half done."""

    def __init__(self, db: Database, games: Games, lobby: Lobby, departures: Departures):
        self.db = db
        self.games = games
        self.lobby = lobby
        self.departures = departures  # (a game of a server that left keeps its clock stopped)
        self._erasing: set[str] = set()  # erasures this process is carrying out now

    async def games_holding(self, user_id: str) -> list[int]:
        """The games whose row names the person (as host, at a seat, among those it waits for):
        the games forgetting them renames."""
        return await self.db.privacy.games_holding(user_id)

    async def forget(self, user_id: str, *, tell: bool = False) -> Outcome:
        """Erase a person; the reply says what was done and what stays (posts in channels).
        `tell`: they asked through Discord — if this process cannot finish (it dies, a game
        keeps changing), the one that does tells them by DM, in the language they asked in."""
        if not valid_user(user_id):
            raise Refused(me().t("That is not a Discord user ID."))
        await self.db.privacy.begin_erasure(user_id, me().code if tell else None)
        elsewhere = await self.complete_erasure(user_id)
        return Outcome(reply=Message(done(me())), elsewhere=elsewhere)

    async def resume_erasures(self) -> list[tuple[str, Outcome]]:
        """Erasures a crash (or a conflict) left unfinished, completed now; the person is owed
        "Done" by DM (their answer belonged to the process that began it)."""
        out: list[tuple[str, Outcome]] = []
        for user_id in await self.db.privacy.erasures():
            if user_id in self._erasing:
                continue
            try:
                out += await self.complete_erasure(user_id, farewell=True)
                log.info("completed an interrupted erasure")
            except Exception:  # the next tick tries again; the others go on
                log.exception("could not complete an interrupted erasure")
        return out

    async def farewells(self) -> list[tuple[int, str, str, float]]:
        """The "Done" DMs owed — (id, user, text, when made) — claimed for this process."""
        return await self.db.erasure_dms.farewells_owed()

    async def farewell_said(self, farewell_id: int) -> None:
        await self.db.erasure_dms.farewell_said(farewell_id)

    async def complete_erasure(self, user_id: str, *, farewell: bool = False) -> list[tuple[str, Outcome]]:
        tell = await self.db.privacy.erasure_tell(user_id) if farewell else None
        self._erasing.add(user_id)
        try:
            elsewhere = await self._leave_all(user_id)
            left: list[int] = []
            for _ in range(ATTEMPTS):
                left = await self.db.privacy.games_holding(user_id)
                if not left:
                    break
                names = await self.db.privacy.names_of(user_id)
                for game_id in left:
                    elsewhere += await self._rename_game(user_id, game_id, names)
            else:
                raise RuntimeError(f"games {left} kept changing; the erasure is completed later")
            await self.db.privacy.finish_erasure(user_id, done(lang(tell)) if tell else None)
            return elsewhere
        finally:
            self._erasing.discard(user_id)

    async def _leave_all(self, user_id: str) -> list[tuple[str, Outcome]]:
        out = []
        for row in await self.db.people.games_of(user_id):
            out += await self._leave(row, user_id)
        return out

    async def _leave(self, row: GameRow, user_id: str) -> list[tuple[str, Outcome]]:
        """Step 1 for one game: leave it as `/game resign` does (a lobby: the seat is freed)."""
        seat = row.seat(user_id)
        if row.status not in ("lobby", "active") or seat is None or (seat.auto and row.status == "active"):
            return []
        try:
            outcome = await self.lobby.leave(row.channel_id, user_id, game_id=row.id)
        except Refused as exc:  # (it changed meanwhile: the next pass looks again)
            log.info("game %s: leaving for an erasure was refused: %s", row.id, exc)
            return []
        outcome.reply = None
        await self.departures.still_away(row)  # (a game of a server the bot left stays stopped)
        return [(row.channel_id, outcome)]

    async def _rename_game(self, user_id: str, game_id: int, names: set[str]) -> list[tuple[str, Outcome]]:
        """Step 2 for one game (step 1 first if they still play in it)."""
        row = await self.db.game(game_id)
        if row is None:
            return []
        seat = row.seat(user_id)
        if row.status in ("lobby", "active") and seat is not None and not (seat.auto and row.status == "active"):
            return await self._leave(row, user_id)  # (renamed at the next pass)
        ghost = await self.db.privacy.ghost_of(user_id, row.guild_id)
        async with self.games.channel_lock(row.channel_id):
            for _ in range(ATTEMPTS):
                row = await self.db.game(game_id)
                if row is None or not _names(row, user_id):
                    return []  # (gone, or renamed meanwhile by another erasure of the same person)
                columns = self._renamed(row, user_id, ghost)
                named = names | ({seat.name} if seat is not None and seat.name else set())
                if await self.db.privacy.rename_game(
                    row, columns, user_id, ghost, _rename, named, lang(row.language).t(GHOST)
                ):
                    return []
        raise Conflict(f"game {game_id} kept changing")

    @staticmethod
    def _renamed(row: GameRow, user_id: str, ghost: str) -> dict[str, Any]:
        """The game row's columns with the person replaced by the ghost (as stored: JSON text)."""
        plugin = get_plugin(row.game)
        seats = [
            Seat(ghost, GHOST_NAME, auto=s.auto, lapsed=s.lapsed) if s.user_id == user_id else s for s in row.seats
        ]
        host = row.host_id
        if host == user_id:  # an open game passes to someone still playing; an ended one keeps a ghost
            playing = [s.user_id for s in seats if not s.auto] if row.status in ("lobby", "active") else []
            host = playing[0] if playing else ghost
        state = None
        if row.state is not None:
            renamed = plugin.rename_player(row.state, user_id, ghost)
            state = plugin.game.to_json(plugin.game.from_json(renamed))  # canonical, as the engine writes it
        compact: dict[str, Any] = {"separators": (",", ":")}
        return {
            "host_id": host,
            "seats": json.dumps([s.to_json() for s in seats]),
            "options": json.dumps(plugin.rename_player(row.options, user_id, ghost), **compact),
            "state": None if state is None else json.dumps(state, **compact),
            "waiting": json.dumps([ghost if u == user_id else u for u in row.waiting], **compact),
            **(
                {
                    "settings": json.dumps(
                        _unbanked(_uninvited(row, user_id) if _invited(row, user_id) else row.settings, user_id, ghost),
                        **compact,
                    )
                }
                if _invited(row, user_id) or _banked(row.settings, user_id)
                else {}
            ),
            **(
                {"takeback": json.dumps(_unbanked(row.takeback, user_id, ghost), **compact)}
                if row.takeback is not None and _banked(row.takeback, user_id)
                else {}
            ),
        }


def _banked(record: dict[str, Any], user_id: str) -> bool:
    """Whether a bank clock's accounts (a game's settings, a move's take-back record) name the person."""
    return user_id in ((record.get("banks") or {}).get("left") or {})


def _unbanked(record: dict[str, Any], user_id: str, ghost: str) -> dict[str, Any]:
    """The record with the person's bank under the ghost's id (service/turnclock.py)."""
    if not _banked(record, user_id):
        return record
    banks = record["banks"]
    left = {(ghost if u == user_id else u): v for u, v in banks["left"].items()}
    return {**record, "banks": {**banks, "left": left}}


def _uninvited(row: GameRow, user_id: str) -> dict[str, Any]:
    """A lobby to play again's settings without the person in its lists: they are not coming (so
    it may still start by itself once the others have joined), and no id of theirs stays."""
    again = invitation(row)
    lists = {key: [u for u in again.get(key, []) if u != user_id] for key in INVITATION_LISTS if key in again}
    settings = {**row.settings, "again": {**again, **lists}} if again else dict(row.settings)
    found = found_table(row)
    if found:  # (a found table's lobby: they will not confirm; its time runs out for the others)
        settings["found"] = {**found, "invited": [u for u in found.get("invited", []) if u != user_id]}
    return settings
