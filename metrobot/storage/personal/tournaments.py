"""Where tournaments hold a person (`__init__.py` lists these holders with the others).

A person is in a tournament as its host (`tournaments.host_id`), as an entrant (their id,
display name, rating and language), inside the stored pairings and results (JSON naming
people by id: `tournament_rounds.pairing`, `tournament_tables.seats`,
`tournament_results.result`) and in what the tournament owes Discord (texts with their name,
`<@id>` mentions). Erasure renames them everywhere to the ghost id of the tournament's server
(the same one their tables' games got, so a result written by a table game that was renamed
first still matches its entrant), so standings keep everyone else's points and tie-breaks;
an entrant of a tournament still open is dropped from the next round (nobody is left to
play), and one only signed up leaves it.
"""

from __future__ import annotations

import json
from typing import Any

from ..sql import Tx
from .base import GHOST_NAME, Erasure, Holder, Purger, in_guild, new_ghost, scrub_texts

OPEN = "('signup', 'running', 'paused')"


def swapped(value: Any, old: str, new: str) -> Any:
    """JSON data with every string equal to `old` (as a value or a key) replaced by `new`."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [swapped(v, old, new) for v in value]
    if isinstance(value, dict):
        return {(new if k == old else k): swapped(v, old, new) for k, v in value.items()}
    return value


async def export(tx: Tx, user_id: str) -> list[dict[str, Any]]:
    """The tournaments a person hosts or entered, their entry and the tables they sat at."""
    rows = await tx.fetch(
        "SELECT t.id, t.guild_id, t.name, t.game, t.status, t.host_id, e.name, e.rating, e.joined, e.dropped, "
        "e.locale, e.created_at FROM tournaments t LEFT JOIN tournament_entrants e ON e.tournament_id = t.id "
        "AND e.user_id = ? WHERE t.host_id = ? OR e.user_id = ? ORDER BY t.id",
        user_id,
        user_id,
        user_id,
    )
    out = []
    for tid, guild, name, game, status, host, entry_name, rating, joined, dropped, locale, at in rows:
        tables = [
            {"round": rnd, "table": number, "game_id": game_id}
            for rnd, number, seats, game_id in await tx.fetch(
                "SELECT round, number, seats, game_id FROM tournament_tables WHERE tournament_id = ? "
                "ORDER BY round, number",
                tid,
            )
            if user_id in json.loads(seats)
        ]
        entry = (
            None
            if entry_name is None
            else {
                "name": entry_name,
                "rating_when_seeded": rating,
                "joined_round": joined,
                "dropped_from_round": dropped,
                "language": locale,
                "signed_up_at": at,
                "tables": tables,
            }
        )
        out.append(
            {
                "id": tid,
                "guild_id": guild,
                "name": name,
                "game": game,
                "status": status,
                "host": host == user_id,
                "entry": entry,
            }
        )
    return out


async def erase(tx: Tx, user_id: str, job: Erasure) -> None:
    """The person leaves every tournament's rows: renamed to their server's ghost, dropped from
    open ones (or taken off a sign-up list), their name gone from what is owed or said."""
    touched = await tx.fetch(
        "SELECT DISTINCT t.id, t.guild_id, t.status, t.round FROM tournaments t LEFT JOIN tournament_entrants e "
        "ON e.tournament_id = t.id AND e.user_id = ? WHERE t.host_id = ? OR e.user_id = ? ORDER BY t.id",
        user_id,
        user_id,
        user_id,
    )
    names = set(job.names) | {
        n for (n,) in await tx.fetch("SELECT name FROM tournament_entrants WHERE user_id = ?", user_id) if n
    }
    ghosts = dict(job.ghosts)  # (one ghost per server, as for games: the one they got, else a new one)
    for tid, guild, status, rnd in touched:
        ghost = ghosts.setdefault(guild or "", new_ghost())
        if status == "signup":
            await tx.execute("DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?", tid, user_id)
        else:
            dropped = "COALESCE(dropped, ?)" if status in ("running", "paused") else "dropped"
            await tx.execute(
                f"UPDATE tournament_entrants SET user_id = ?, name = ?, locale = NULL, dropped = {dropped} "
                f"WHERE tournament_id = ? AND user_id = ?",
                *([ghost, GHOST_NAME, rnd + 1] if status in ("running", "paused") else [ghost, GHOST_NAME]),
                tid,
                user_id,
            )
        await tx.execute(
            "UPDATE tournaments SET host_id = CASE WHEN host_id = ? THEN ? ELSE host_id END, "
            "version = version + 1 WHERE id = ?",
            user_id,
            ghost,
            tid,
        )
        for table, keys, column in (
            ("tournament_rounds", ("number",), "pairing"),
            ("tournament_tables", ("round", "number"), "seats"),
            ("tournament_results", ("round", "number"), "result"),
        ):
            for row in await tx.fetch(f"SELECT {', '.join(keys)}, {column} FROM {table} WHERE tournament_id = ?", tid):
                *key, text = row
                renamed = json.dumps(swapped(json.loads(text), user_id, ghost), ensure_ascii=False)
                if renamed != text:
                    where = " AND ".join(f"{k} = ?" for k in keys)
                    await tx.execute(
                        f"UPDATE {table} SET {column} = ? WHERE tournament_id = ? AND {where}", renamed, tid, *key
                    )
        await scrub_texts(tx, "tournament_outbox", "tournament_id = ?", [tid], user_id, names, GHOST_NAME)
        for oid, payload in await tx.fetch(
            "SELECT id, payload FROM tournament_outbox WHERE tournament_id = ? AND payload LIKE ?", tid, f"%{user_id}%"
        ):
            # (ids outside texts: the people to add to a duplicate round's private thread)
            await tx.execute(
                "UPDATE tournament_outbox SET payload = ? WHERE id = ?",
                json.dumps(swapped(json.loads(payload), user_id, ghost), ensure_ascii=False),
                oid,
            )


def _children(table: str) -> Purger:
    async def purge(tx: Tx, guild_id: str) -> None:
        await tx.execute(
            f"DELETE FROM {table} WHERE tournament_id IN (SELECT id FROM tournaments WHERE {in_guild()})", guild_id
        )

    return purge


async def _purge_tournaments(tx: Tx, guild_id: str) -> None:
    await tx.execute(f"DELETE FROM tournaments WHERE {in_guild()}", guild_id)


# Children first: a server's rows are purged in this order, and tables reference its games.
HOLDERS: tuple[Holder, ...] = (
    Holder(
        "tournament_outbox",
        "what a tournament owes Discord: texts with names and mentions",
        purge=_children("tournament_outbox"),
    ),
    Holder(
        "tournament_results",
        "each table's places and scores by person id; renamed with the tournament",
        purge=_children("tournament_results"),
    ),
    Holder(
        "tournament_tables",
        "who sits at each table of each round (person ids); renamed with the tournament",
        purge=_children("tournament_tables"),
    ),
    Holder(
        "tournament_rounds",
        "each round's pairing and byes (person ids); renamed with the tournament",
        purge=_children("tournament_rounds"),
    ),
    Holder(
        "tournament_entrants",
        "who signed up: id, display name, rating when seeded, language, when they joined and dropped",
        purge=_children("tournament_entrants"),
    ),
    Holder(
        "tournaments",
        "a tournament's host (a person id), hall channel, rules and settings; everything above "
        "renamed to a ghost in one step",
        export=export,
        erase=erase,
        purge=_purge_tournaments,
    ),
)
