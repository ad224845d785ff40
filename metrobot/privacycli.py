"""Operators' privacy tools, the same code as the bot's commands:

  python -m metrobot export --user ID [--out FILE] [--db FILE|URL]   what `/me data` sends
  python -m metrobot forget --user ID [--db FILE|URL]                what `/me forget` does
  python -m metrobot purge --guild ID [--db FILE|URL]                a server's data, now

For a deletion request that reaches the operator (e-mail, Discord's notice of a deleted
account) rather than the bot. They may run while the bot runs: a forget's posts (the automatic
player taking over a seat) are left owed, and the bot delivers them within seconds (or at its
next start). Malformed input: `error: ...` and exit status 2, as the other tools.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from .games import BadInput
from .ids import snowflake
from .settings import shown

if TYPE_CHECKING:
    from .privacy import Privacy


def database(given: str | None) -> str:
    """The database a tool works on (`--db`, else the bot's: see `settings.database_choice`); an
    SQLite file that is not there is refused with the path tried and what chose it."""
    from .settings import database_choice

    path, chosen = database_choice(given)
    if not path.startswith(("postgresql://", "postgres://")) and not Path(path).exists():
        raise BadInput(f"{path}: no such database (chosen by {chosen}; --db names another)")
    return path


def _id(value: str, what: str) -> str:
    if not snowflake(value):
        raise BadInput(f"--{what} must be a Discord id (a number of up to 20 digits), got {value!r}")
    return value


def _with_privacy(args: argparse.Namespace, work: Callable[[Privacy], Awaitable[int]]) -> int:
    from .app import build
    from .settings import load_settings
    from .storage import Database

    path = args.database = database(args.db_given)

    async def run() -> int:
        db = await Database(path).open()
        try:
            settings = load_settings()
            return await work(
                build(
                    db,
                    images=False,
                    retention_days=settings.retention_days,
                    contact=settings.operator_contact,
                    policy_url=settings.privacy_url,
                ).privacy
            )
        finally:
            await db.close()

    return asyncio.run(run())


def cmd_export(args: argparse.Namespace) -> int:
    user = _id(args.user, "user")

    async def work(privacy: Privacy) -> int:
        text = json.dumps(await privacy.export(user), ensure_ascii=False, indent=1) + "\n"
        if args.out:
            Path(args.out).parent.mkdir(parents=True, exist_ok=True)
            Path(args.out).write_text(text, encoding="utf-8")
            print(f"wrote the data of user {user} in {shown(args.database)} to {args.out}")
        else:
            print(text, end="")
        return 0

    return _with_privacy(args, work)


def cmd_forget(args: argparse.Namespace) -> int:
    user = _id(args.user, "user")

    async def work(privacy: Privacy) -> int:
        held = len(await privacy.games_holding(user))
        outcome = await privacy.forget(user)
        print(
            f"forgot user {user} in {shown(args.database)}: {held} game{'s' if held != 1 else ''} renamed, "
            f"{len(outcome.elsewhere)} seat{'s' if len(outcome.elsewhere) != 1 else ''} handed to the automatic "
            "player (the bot posts that in their channels), settings and ratings deleted"
        )
        return 0

    return _with_privacy(args, work)


def cmd_purge(args: argparse.Namespace) -> int:
    guild = _id(args.guild, "guild")

    async def work(privacy: Privacy) -> int:
        games = await privacy.server_games(guild)
        await privacy.purge(guild)
        print(
            f"deleted everything of server {guild} in {shown(args.database)}: {games} game{'s' if games != 1 else ''} with their logs and "
            "messages, its results, ratings and settings"
        )
        return 0

    return _with_privacy(args, work)


def add_parsers(sub: argparse._SubParsersAction) -> None:
    where = (
        "an SQLite file or a postgresql:// URL (default: the bot's database, METROBOT_DATABASE_URL or else METROBOT_DB)"
    )
    p = sub.add_parser("export", help="a person's data as JSON, as /me data sends it")
    p.add_argument("--user", required=True, help="the person's Discord user id")
    p.add_argument("--out", help="the file to write (default: standard output)")
    p.add_argument("--db", dest="db_given", metavar="DB", help=where)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser(
        "forget",
        help="erase a person, as /me forget does (their seats to the automatic player, "
        "their id and name replaced in others' games, the rest deleted)",
    )
    p.add_argument("--user", required=True, help="the person's Discord user id")
    p.add_argument("--db", dest="db_given", metavar="DB", help=where)
    p.set_defaults(func=cmd_forget)

    p = sub.add_parser(
        "purge", help="delete everything of a server now: games, logs, messages, results, ratings, settings"
    )
    p.add_argument("--guild", required=True, help="the server's (guild's) id")
    p.add_argument("--db", dest="db_given", metavar="DB", help=where)
    p.set_defaults(func=cmd_purge)
