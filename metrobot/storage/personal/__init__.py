"""Where a person is in the database — the one place that knows it.

`HOLDERS` lists every table that holds something of a person or of a server, each able to
read out a person's rows (`/me data`), to erase them (`/me forget`: delete what is theirs
alone, replace their id where other people's history needs the row) and to delete a
server's rows (the bot removed from it). A capability that adds a table that names people
(tournaments: `personal/tournaments.py`) adds its `Holder`s here, built on `personal/base.py`.

A person's id sits in a game in several places: the game row (`host_id`, the `seats` JSON with
their display name, `waiting`, a lobby to play again's lists in `settings`, the engine `state` and `options`, whose player ids *are* user
ids — a seat is the person's id, or `id#n` in variants where one person runs several),
its action log (`seat`, `actor`, the action's JSON), the `seats` index, its `results`, and its
owed messages (`<@id>` mentions, `dm:id` targets, names in texts). A game is renamed as a
whole, in one version-checked transaction (`rename_game`): after it, the game holds a random
"ghost" id where the person's was, consistently in the state, the log and the results, so the
log replays to the stored state and everyone else's ratings stand. Ghost ids are one per
server (ratings are per server), so `ratings rebuild` gives everyone else the same ratings;
they begin with `GHOST_PREFIX`, and ratings are never kept for them.

Everything else of a person (their settings, away periods and notes, their own rating rows,
DMs owed to them, names in texts already delivered) goes in the erasure's last transaction
(`erase_rest`), which also ends the erasure job.
"""

from __future__ import annotations

import json
from typing import Any

from ..sql import Tx
from . import daily, erasure_dms, queue, reminders, tournaments
from .base import (
    GHOST_NAME,
    GHOST_PREFIX,
    Erasure,
    Ghosts,
    Holder,
    Purger,
    Rename,
    in_guild,
    is_ghost,
    like,
    new_ghost,
    scrub_texts,
)


# ---------------------------------------------------------------- reading a person out
async def _person(tx: Tx, user_id: str) -> dict[str, Any] | None:
    row = await tx.fetchone("SELECT settings, away_until, updated_at FROM people WHERE user_id = ?", user_id)
    if row is None:
        return None
    return {"settings": json.loads(row[0]), "away_until": row[1], "updated_at": row[2]}


async def _games(tx: Tx, user_id: str) -> list[dict[str, Any]]:
    """The games the person sits (or sat) at, their own seat entry, and whether they host."""
    rows = await tx.fetch(
        "SELECT id, game, guild_id, channel_id, status, host_id, seats, created_at, finished_at "
        "FROM games WHERE host_id = ? OR seats LIKE ? ORDER BY id",
        user_id,
        like(user_id),
    )
    out = []
    for gid, game, guild, channel, status, host, seats, created, finished in rows:
        seat = next((s for s in json.loads(seats) if s.get("user_id") == user_id), None)
        if seat is None and host != user_id:
            continue  # (the pattern matched something else)
        out.append(
            {
                "id": gid,
                "game": game,
                "guild_id": guild,
                "channel_id": channel,
                "status": status,
                "host": host == user_id,
                "seat": seat,
                "created_at": created,
                "finished_at": finished,
            }
        )
    return out


async def _actions(tx: Tx, user_id: str) -> list[dict[str, Any]]:
    """The actions of the person's own seats (theirs, or the automatic player's for them)."""
    rows = await tx.fetch(
        "SELECT game_id, seq, seat, action, actor, created_at FROM actions "
        "WHERE seat = ? OR seat LIKE ? ORDER BY game_id, seq",
        user_id,
        f"{user_id}#%",
    )
    return [
        {
            "game_id": g,
            "seq": seq,
            "seat": seat,
            "action": json.loads(a),
            "by": "you" if actor == user_id else "automatic player" if actor == "auto" else "someone else",
            "at": at,
        }
        for g, seq, seat, a, actor, at in rows
    ]


async def _results(tx: Tx, user_id: str) -> list[dict[str, Any]]:
    rows = await tx.fetch(
        "SELECT game_id, guild_id, game, name, score, won, rank, human, rated, mu, sigma, "
        "finished_at, pace, finished FROM results WHERE user_id = ? ORDER BY seq",
        user_id,
    )
    return [
        {
            "game_id": g,
            "guild_id": guild,
            "game": game,
            "name": name,
            "score": score,
            "won": bool(won),
            "place": rank,
            "played_to_the_end": bool(human),
            "rated": bool(rated),
            "rating_after": {"mu": mu, "sigma": sigma} if rated else None,
            "finished_at": at,
            "seconds_per_move": json.loads(pace) if pace else [],
            # without the automatic player ever moving for them (None: not known, or a tutorial)
            "finished_themselves": None if finished is None else bool(finished),
        }
        for g, guild, game, name, score, won, rank, human, rated, mu, sigma, at, pace, finished in rows
    ]


async def _ratings(tx: Tx, user_id: str) -> list[dict[str, Any]]:
    rows = await tx.fetch(
        "SELECT guild_id, game, name, mu, sigma, games, updated_at FROM ratings WHERE user_id = ? "
        "ORDER BY guild_id, game",
        user_id,
    )
    return [
        {"guild_id": guild, "game": game, "name": name, "mu": mu, "sigma": sigma, "games": games, "updated_at": at}
        for guild, game, name, mu, sigma, games, at in rows
    ]


# ---------------------------------------------------------------- erasing the rest
async def _erase_person(tx: Tx, user_id: str, job: Erasure) -> None:
    await tx.execute("DELETE FROM people WHERE user_id = ?", user_id)


async def _erase_seats(tx: Tx, user_id: str, job: Erasure) -> None:
    await tx.execute("DELETE FROM seats WHERE user_id = ?", user_id)


async def _erase_results(tx: Tx, user_id: str, job: Erasure) -> None:
    """Results left over from games no longer stored whole (renamed per server)."""
    for (guild,) in await tx.fetch("SELECT DISTINCT guild_id FROM results WHERE user_id = ?", user_id):
        await tx.execute(
            "UPDATE results SET user_id = ?, name = ? WHERE user_id = ? AND guild_id = ?",
            job.ghosts.get(guild) or new_ghost(),
            GHOST_NAME,
            user_id,
            guild,
        )


async def _erase_ratings(tx: Tx, user_id: str, job: Erasure) -> None:
    await tx.execute("DELETE FROM ratings WHERE user_id = ?", user_id)


async def _erase_outbox(tx: Tx, user_id: str, job: Erasure) -> None:
    """DMs to the person go; other messages that name them (delivered: the text is no longer
    needed; owed: it still has to be said) lose them — their parts, by id (a row written
    before the parts: their mentions and names) —: any message that mentions them, and those
    of the games they were in when the erasure began (a lobby they left)."""
    names = set(job.names) | {
        n
        for (n,) in await tx.fetch(
            "SELECT name FROM results WHERE user_id = ? UNION SELECT name FROM ratings WHERE user_id = ?",
            user_id,
            user_id,
        )
        if n
    }
    await tx.execute("DELETE FROM outbox WHERE target = ?", f"dm:{user_id}")
    await scrub_messages(tx, "payload LIKE ?", [f"%{user_id}%"], user_id, names, GHOST_NAME)
    for game_id in job.games:
        await scrub_messages(tx, "game_id = ?", [game_id], user_id, names, GHOST_NAME)


async def _erase_job(tx: Tx, user_id: str, job: Erasure) -> None:
    await tx.execute("DELETE FROM erasures WHERE user_id = ?", user_id)


# ---------------------------------------------------------------- a server's rows
def _purge_children(table: str) -> Purger:
    async def purge(tx: Tx, guild_id: str) -> None:
        await tx.execute(f"DELETE FROM {table} WHERE game_id IN (SELECT id FROM games WHERE {in_guild()})", guild_id)

    return purge


def _purge_by_guild(table: str) -> Purger:
    async def purge(tx: Tx, guild_id: str) -> None:
        await tx.execute(f"DELETE FROM {table} WHERE {in_guild()}", guild_id)

    return purge


HOLDERS: tuple[Holder, ...] = (
    Holder(
        "people",
        "settings (turn DMs, quiet hours, time zone, language), time away and its note",
        export=_person,
        erase=_erase_person,
    ),
    Holder(
        "seats",
        "which open games a person sits at (an index for /games)",
        erase=_erase_seats,
        purge=_purge_children("seats"),
    ),
    Holder(
        "actions",
        "every move, with the seat (a user id) and who made it; renamed with the game",
        export=_actions,
        purge=_purge_children("actions"),
    ),
    Holder(
        "outbox",
        "messages owed and sent: texts with names and mentions, DM targets",
        erase=_erase_outbox,
        purge=_purge_children("outbox"),
    ),
    Holder(
        "results",
        "each player's result of a finished game, with their display name; renamed with the game",
        export=_results,
        erase=_erase_results,
        purge=_purge_by_guild("results"),
    ),
    Holder(
        "ratings",
        "a person's rating per game kind per server, with their display name",
        export=_ratings,
        erase=_erase_ratings,
        purge=_purge_by_guild("ratings"),
    ),
    # (tournaments, follows before the games their tables reference)
    *tournaments.HOLDERS,
    *reminders.HOLDERS,
    *erasure_dms.HOLDERS,
    *daily.HOLDERS,
    *queue.HOLDERS,
    Holder(
        "games",
        "host, seats (user ids, display names, languages), state and options (user ids as "
        "player ids); renamed as a whole",
        export=_games,
        purge=_purge_by_guild("games"),
    ),
    Holder("servers", "a server's settings (roles and channels, no people)", purge=_purge_by_guild("servers")),
    Holder("departures", "when the bot was removed from a server", purge=_purge_by_guild("departures")),
    Holder(
        "erasures",
        "a forget in progress: the person's id, names, games and ghost ids, until it is done",
        erase=_erase_job,
    ),
)


async def export_rows(tx: Tx, user_id: str) -> dict[str, Any]:
    return {h.table: await h.export(tx, user_id) for h in HOLDERS if h.export is not None}


async def erase_rest(tx: Tx, user_id: str, job: Erasure) -> None:
    for holder in HOLDERS:
        if holder.erase is not None:
            await holder.erase(tx, user_id, job)


async def purge_guild(tx: Tx, guild_id: str) -> None:
    for holder in HOLDERS:
        if holder.purge is not None:
            await holder.purge(tx, guild_id)


# ---------------------------------------------------------------- texts that name a person
async def scrub_messages(tx: Tx, where: str, args: list[Any], user_id: str, names: set[str], ghost: str) -> None:
    await scrub_texts(tx, "outbox", where, args, user_id, names, ghost)


# ---------------------------------------------------------------- a whole game, renamed
async def games_holding(tx: Tx, user_id: str) -> list[int]:
    """Every game whose row names the person (as host, at a seat, among those it waits for, among
    those a lobby to play again invited: its settings)."""
    return [
        r[0]
        for r in await tx.fetch(
            "SELECT id FROM games WHERE host_id = ? OR seats LIKE ? OR waiting LIKE ? OR settings LIKE ? ORDER BY id",
            user_id,
            like(user_id),
            like(user_id),
            like(user_id),
        )
    ]


async def rename_game(
    tx: Tx,
    game_id: int,
    version: int,
    columns: dict[str, Any],
    user_id: str,
    ghost: str,
    rename: Rename,
    kind: str,
    names: set[str],
    ghost_name: str,
) -> bool:
    """Inside the caller's transaction: the game row gets `columns` (already renamed, JSON
    texts) if its version is still `version`, and its log, seats index, results and messages
    have the person's id replaced by `ghost` (the log's actions through the game's own
    `rename`). False (nothing changed) if the game moved on meanwhile."""
    sets = ", ".join(f"{k} = ?" for k in columns)
    changed = await tx.execute(
        f"UPDATE games SET {sets}, version = version + 1, clock_claim = NULL WHERE id = ? AND version = ?",
        *columns.values(),
        game_id,
        version,
    )
    if changed != 1:
        return False
    for seq, seat, action, actor in await tx.fetch(
        "SELECT seq, seat, action, actor FROM actions WHERE game_id = ? ORDER BY seq", game_id
    ):
        new_seat = rename(kind, seat, user_id, ghost)
        new_action = json.dumps(rename(kind, json.loads(action), user_id, ghost))
        new_actor = ghost if actor == user_id else actor
        if (new_seat, new_action, new_actor) != (seat, action, actor):
            await tx.execute(
                "UPDATE actions SET seat = ?, action = ?, actor = ? WHERE game_id = ? AND seq = ?",
                new_seat,
                new_action,
                new_actor,
                game_id,
                seq,
            )
    await tx.execute("UPDATE seats SET user_id = ? WHERE user_id = ? AND game_id = ?", ghost, user_id, game_id)
    await tx.execute(
        "UPDATE results SET user_id = ?, name = ? WHERE user_id = ? AND game_id = ?",
        ghost,
        GHOST_NAME,
        user_id,
        game_id,
    )
    await tx.execute("DELETE FROM outbox WHERE game_id = ? AND target = ?", game_id, f"dm:{user_id}")
    await scrub_messages(tx, "game_id = ?", [game_id], user_id, names, ghost_name)
    return True


__all__ = [
    "GHOST_NAME",
    "GHOST_PREFIX",
    "HOLDERS",
    "Erasure",
    "Ghosts",
    "Holder",
    "Rename",
    "erase_rest",
    "export_rows",
    "games_holding",
    "is_ghost",
    "like",
    "new_ghost",
    "purge_guild",
    "rename_game",
    "scrub_messages",
]
