"""`python -m metrobot daily-verify` and `daily-key`: the daily challenge's deal, checked by
anyone after the day, and the installation's daily key, for its operator (daily/challenge.py).

`daily-verify --game G --day YYYY-MM-DD --seed HEX --commitment HEX` needs no bot and no
database: it checks that the SHA-256 of the seed is the commitment published while the day ran
(exit 1 if not), then deals the game from the seed as the bot did and prints what was dealt:
the map, who moves first, the hands and the order of the pile, seat "you" being the person's and
"bot-1" the automatic player's.

`daily-key [--set HEX | --new] [--db …]` shows the keys (a secret: whoever has it computes every
deal of the days it deals) and puts a shared or a new one in use from the next UTC day on.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import time
from datetime import date
from typing import Any

from . import privacycli
from .games import BadInput, all_plugins, get_plugin

# What of a dealt state shows the deal (the rest is the empty board): whichever the game has.
DEALT = ("map", "players", "start_player", "card", "deck", "markers", "colours", "connection_tiles", "passenger")
SEATS = ("you", "bot-1")  # the person's seat, then the automatic player's, as the bot seats them


def _hex(value: str, what: str, size: int) -> bytes:
    try:
        raw = bytes.fromhex(value.strip())
    except ValueError:
        raw = b""
    if len(raw) != size:
        raise BadInput(f"--{what} must be {size * 2} hexadecimal digits, got {value!r}")
    return raw


def _day(value: str) -> str:
    try:
        return date.fromisoformat(value.strip()).isoformat() if len(value.strip()) == 10 else ""
    except ValueError:
        pass
    raise BadInput(f"--day must be a date written year-month-day, e.g. 2026-11-27; got {value!r}")


def dealt(kind: str, day: str, seed: bytes) -> dict[str, Any]:
    """The deal the seed gives, as the bot dealt it: the parts of the first state that show it."""
    from .daily.challenge import deal

    plugin = get_plugin(kind)
    terms = deal(kind, day, seed)
    state = plugin.game.new_game(list(SEATS[: terms.seats]), plugin.options(None, terms.city), terms.seed)
    shown = plugin.game.to_json(state)
    return {"game": kind, "day": day, "game_seed": terms.seed} | {k: shown[k] for k in DEALT if k in shown}


def cmd_verify(args: argparse.Namespace) -> int:
    from .daily.challenge import commitment

    kind, day = args.game, _day(args.day)
    seed = _hex(args.seed, "seed", 32)
    promised = _hex(args.commitment, "commitment", 32).hex()
    if commitment(seed) != promised:
        print(
            f"MISMATCH: the SHA-256 of this seed is {commitment(seed)}, not the commitment {promised}: "
            "it is not the seed that was committed to"
        )
        return 1
    print(f"ok: the seed hashes to the commitment {promised}")
    print(f"the deal of {get_plugin(kind).title}, {day} (seat 'you' is the person's, 'bot-1' the automatic player's):")
    print(json.dumps(dealt(kind, day, seed), ensure_ascii=False, indent=1))
    return 0


def cmd_key(args: argparse.Namespace) -> int:
    from .daily.challenge import KEY_BYTES, day_of, next_day_starts
    from .settings import shown
    from .storage import Database

    path = privacycli.database(args.db_given)
    new = _hex(args.set, "set", KEY_BYTES) if args.set else secrets.token_bytes(KEY_BYTES) if args.new else None
    now = time.time()
    today, tomorrow = day_of(now), day_of(next_day_starts(now))

    async def work() -> list[tuple[str, bytes]]:
        db = await Database(path).open()
        try:
            if new is not None:
                await db.daily.add_key(tomorrow, new, first=today)
            return await db.daily.keys()
        finally:
            await db.close()

    keys = asyncio.run(work())
    if new is not None:
        since = next(day for day, key in keys if key == new)
        print(
            f"{shown(path)}: this key deals from {since} (UTC) on"
            + ("; today's deal stays as it is" if since > today else " (there was no key yet: nothing was dealt)")
        )
    if not keys:
        print(f"{shown(path)}: no daily key yet: the first daily deal makes one")
    for since, key in keys:
        when = "from" if since > today else "since"
        print(f"{when} {since}: {key.hex()}")
    return 0


def add_parsers(sub: argparse._SubParsersAction) -> None:  # pyright: ignore[reportPrivateUsage]
    p = sub.add_parser(
        "daily-verify",
        help="check a past day's daily seed against its commitment and print the deal it gives (no database)",
    )
    p.add_argument("--game", required=True, choices=[g.name for g in all_plugins()])
    p.add_argument("--day", required=True, help="the UTC date, year-month-day")
    p.add_argument(
        "--seed",
        required=True,
        help="the day's seed, as published once the day and its games were over (64 hex digits)",
    )
    p.add_argument("--commitment", required=True, help="the commitment published while the day ran (64 hex digits)")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser(
        "daily-key", help="show the daily challenge's key, or put a shared (--set) or new (--new) one in use tomorrow"
    )
    which = p.add_mutually_exclusive_group()
    which.add_argument("--set", metavar="HEX", help="a key of 64 hex digits (another installation's, to deal alike)")
    which.add_argument("--new", action="store_true", help="a new random key (the old one stays for its days)")
    p.add_argument(
        "--db",
        dest="db_given",
        metavar="DB",
        help="an SQLite file or a postgresql:// URL (default: the bot's database, "
        "METROBOT_DATABASE_URL or else METROBOT_DB)",
    )
    p.set_defaults(func=cmd_key)
