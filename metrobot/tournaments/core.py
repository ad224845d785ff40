"""What every part of the director shares: a tournament loaded and turned into the pure
model, its lock, who may run it, whether a button is out of date, its language, the seeds
of its tables, and pairing in the worker processes.

Requests follow the game service's path: lock the tournament, load it, check who asks,
work out the change with the pure pairing and scoring, save it in one version-checked
transaction together with what it owes Discord (the tournament outbox), and say what to
answer privately. Everything public goes out from the outbox after the commit.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from ..games import get_plugin
from ..games.plugin import GamePlugin
from ..i18n import Lang, lang, me
from ..i18n import words as part
from ..service import Refused
from ..service.core import Games, ServiceOptions
from ..storage import Conflict, Database, Snapshot, TournamentRow
from .model import Entrant, PairingError, Round, Rules, TableResult
from .pairing import open_tables, pair

PERMISSIONS = ("create_public_threads", "send_messages_in_threads", "manage_threads")
PRIVATE = "create_private_threads"  # duplicate rounds: each table in a private thread


def derived_seed(*parts: Any) -> int:
    """A 48-bit seed that follows from the tournament's seed and a position in it."""
    return int.from_bytes(hashlib.blake2b(":".join(map(str, parts)).encode(), digest_size=6).digest(), "big")


def retried(method):
    """A request that met a concurrent change of its tournament (a table's result recorded
    meanwhile, another process): done again from what is stored now, then refused."""

    @functools.wraps(method)
    async def run(self, *args: Any, **kwargs: Any) -> Any:
        for _ in range(3):
            try:
                return await method(self, *args, **kwargs)
            except Conflict:
                continue
        raise Refused(me().t("The tournament changed at the same moment; nothing was done. Try again."))

    return run


def model(snap: Snapshot) -> tuple[Rules, list[Entrant], list[Round], list[TableResult]]:
    """A stored tournament as the pure model's values."""
    rules = Rules.from_json(snap.row.rules)
    entrants = [Entrant(e.user_id, e.rating, e.joined, e.dropped) for e in snap.entrants]
    rounds = [Round.from_json(r.pairing) for r in snap.rounds]
    results = [TableResult.from_json(r) for r in snap.results]
    return rules, entrants, rounds, results


def pair_in_worker(
    rules: dict, entrants: list[dict], rounds: list[dict], results: list[dict], seed: int, busy: list[str] | None
) -> dict | list[dict]:
    """The next round (or, with `busy`, a league's tables to open now) from plain values:
    run in a worker process, so a big field never holds up other channels."""
    args = (
        Rules.from_json(rules),
        [Entrant.from_json(e) for e in entrants],
        [Round.from_json(r) for r in rounds],
        [TableResult.from_json(r) for r in results],
    )
    if busy is not None:
        return [t.to_json() for t in open_tables(*args, set(busy), seed)]
    return pair(*args, seed).to_json()


class TournamentCore:
    """What the tournaments' parts (tablegames.TableGames, director.Director, webpage.TournamentPages)
    share: a plain base, handed the database, the service's options and its games (whose locks
    the tournaments' share) where the application is wired (metrobot/app.py)."""

    def __init__(self, db: Database, options: ServiceOptions, games: Games) -> None:
        self.db = db  # (its own tables, `db.tournaments`; the games' through the service's parts)
        self.options = options  # the clock, the default turn clock, the seeds, images, the web's base
        self.games = games  # the locks; a table's game: its state, saving it

    def _t_lock(self, tournament_id: int):
        return self.games.lock(f"tournament:{tournament_id}")

    async def _snap(self, tournament_id: int) -> Snapshot:
        snap = await self.db.tournaments.snapshot(tournament_id)
        if snap is None:
            raise Refused(me().t("There is no such tournament."))
        return snap

    async def _find(
        self, hall_id: str, guild_id: str | None, tournament_id: int | None = None, *, any_status: bool = False
    ) -> TournamentRow:
        """The tournament a request is about: the one a button names (which must belong to
        this server and this channel), else the open one of this channel — or, asked in a
        table's thread, that table's tournament."""
        if tournament_id is not None:
            row = await self.db.tournaments.tournament(tournament_id)
            if row is None:
                raise Refused(me().t("There is no such tournament."))
            if row.guild_id != str(guild_id):
                raise Refused(me().t("This tournament belongs to another server."))
            if row.hall_id != str(hall_id):
                raise Refused(me().t("These buttons belong to a tournament of another channel."))
            return row
        row = await self.db.tournaments.open_tournament(hall_id)
        if row is None:
            table = await self.db.tournaments.table_of_thread(hall_id)
            if table is not None:
                row = await self.db.tournaments.tournament(table[0])
            elif any_status:
                row = await self.db.tournaments.last_tournament(hall_id)
        if row is None or row.guild_id != str(guild_id):
            raise Refused(
                me().t(
                    "No tournament here. Create one with {command}, or see the server's tournaments with {command2}.",
                    command=part.command("tournament new", me().code),
                    command2=part.command("tournament list", me().code),
                )
            )
        return row

    async def _may_run(
        self, row: TournamentRow | None, guild_id: str | None, user_id: str, manager: bool, roles: list[str]
    ) -> bool:
        """The host, people with Manage Server, and those with the server's tournament role."""
        if row is not None and user_id == row.host_id:
            return True
        if manager:
            return True
        role = (await self.db.people.server(guild_id)).get("tournament_role")
        return bool(role) and str(role) in {str(r) for r in roles}

    @staticmethod
    def _tlang(row: TournamentRow) -> Lang:
        """What the tournament posts in (the hall's posts and its tables' games)."""
        return lang(row.settings.get("language", "en"))

    @staticmethod
    def _tplugin(row: TournamentRow) -> GamePlugin:
        return get_plugin(row.game)

    @staticmethod
    def _names(snap: Snapshot) -> dict[str, str]:
        return {e.user_id: e.name for e in snap.entrants}

    @staticmethod
    def _stage(row, stage: int | None) -> None:
        if stage is not None and stage != row.stage:
            raise Refused(
                me().t(
                    "These buttons are out of date: the tournament has moved on. Use the newest message, or {command}.",
                    command=part.command("tournament standings", me().code),
                )
            )

    @staticmethod
    def _missing(missing: list[str] | None) -> None:
        """Refuse, naming them, if the bot lacks what a round's threads need in the hall."""
        if missing:
            words = {
                "create_public_threads": me().t("Create Public Threads"),
                "create_private_threads": me().t("Create Private Threads"),
                "send_messages_in_threads": me().t("Send Messages in Threads"),
                "manage_threads": me().t("Manage Threads"),
                "send_messages": me().t("Send Messages"),
            }
            raise Refused(
                me().t(
                    "I can't run a round here: I need these permissions in this channel: {missing}. "
                    "Nothing was paired; give me them and try again.",
                    missing=me().enumerated(words.get(m, m) for m in missing),
                )
            )


__all__ = ["PERMISSIONS", "PairingError", "TournamentCore", "derived_seed", "model", "pair_in_worker", "retried"]
