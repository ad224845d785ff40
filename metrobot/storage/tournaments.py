"""Storage of tournaments: one open tournament per hall, its entrants, rounds, tables and
results, every change one transaction that checks the tournament's `version` (two hosts
pressing Start, two processes closing the same round: one wins, the other gets Conflict).

A round's pairing, its tables and what it owes Discord (threads to create, the pairings
post, the standings) are written in the transaction that closes the round before; a
table's result is written by `record_table` inside the transaction that finishes its game
(the tournaments subscribe to the service's GameEnded, published in that transaction: see
`Database.update(within=…)`), so a game never ends without its table's result.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from .rows import Conflict
from .sql import BIGINT, Tx, one_row
from .store import Store
from .tourney_outbox import TournamentOutbox, insert_owed
from .tourney_rows import (
    E_COLUMNS,
    T_COLUMNS,
    T_JSON,
    TABLE_COLUMNS,
    EntrantRow,
    RoundRow,
    Snapshot,
    TableRow,
    TournamentOwed,
    TournamentRow,
    table_row,
    tournament_row,
)

OPEN = "('signup', 'running', 'paused')"
DUE_LEASE = 60.0  # seconds a process has to act on a tournament it claimed


def _encode(changes: dict[str, Any]) -> dict[str, Any]:
    return {k: json.dumps(v) if k in T_JSON else v for k, v in changes.items()}


class TournamentQueries(TournamentOutbox):
    """A part of `Database` (`db.tournaments`), handed the store (store.py)."""

    def __init__(self, store: Store) -> None:
        self.driver = store.driver
        self.store = store

    # ------------------------------------------------------------ reads
    async def _tournament(self, sql: str, *args: Any) -> TournamentRow | None:
        async with self.driver.read() as q:
            r = await q.fetchone(f"SELECT {T_COLUMNS} FROM tournaments WHERE {sql}", *args)
        return tournament_row(r) if r else None

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        if not isinstance(tournament_id, int) or not -BIGINT <= tournament_id < BIGINT:
            return None  # (a forged button's id no tournament can have)
        return await self._tournament("id = ?", tournament_id)

    async def open_tournament(self, hall_id: str) -> TournamentRow | None:
        return await self._tournament(f"hall_id = ? AND status IN {OPEN}", hall_id)

    async def last_tournament(self, hall_id: str) -> TournamentRow | None:
        return await self._tournament("hall_id = ? ORDER BY id DESC LIMIT 1", hall_id)

    async def tournaments_in(self, guild_id: str, limit: int = 25) -> list[TournamentRow]:
        """A server's tournaments: the open ones first, then the latest that ended."""
        async with self.driver.read() as q:
            rows = await q.fetch(
                f"SELECT {T_COLUMNS} FROM tournaments WHERE guild_id = ? ORDER BY "
                f"CASE WHEN status IN {OPEN} THEN 0 ELSE 1 END, id DESC LIMIT ?",
                guild_id,
                limit,
            )
        return [tournament_row(r) for r in rows]

    async def tournaments_of(self, user_id: str, guild_id: str | None = None) -> list[TournamentRow]:
        """The open tournaments a person is in (not dropped), on one server or on every one."""
        where = "" if guild_id is None else " AND t.guild_id = ?"
        cols = ", ".join(f"t.{c.strip()}" for c in T_COLUMNS.split(","))
        async with self.driver.read() as q:
            rows = await q.fetch(
                f"SELECT {cols} FROM tournament_entrants e JOIN tournaments t ON t.id = "
                f"e.tournament_id WHERE e.user_id = ? AND e.dropped IS NULL AND t.status IN {OPEN}"
                f"{where} ORDER BY t.id DESC",
                user_id,
                *([] if guild_id is None else [guild_id]),
            )
        return [tournament_row(r) for r in rows]

    async def snapshot(self, tournament_id: int) -> Snapshot | None:
        async with self.driver.read() as q:
            r = await q.fetchone(f"SELECT {T_COLUMNS} FROM tournaments WHERE id = ?", tournament_id)
            if r is None:
                return None
            entrants = [
                EntrantRow(*e)
                for e in await q.fetch(
                    f"SELECT {E_COLUMNS} FROM tournament_entrants WHERE tournament_id = ? ORDER BY created_at, user_id",
                    tournament_id,
                )
            ]
            rounds = [
                RoundRow(n, json.loads(p), c)
                for n, p, c in await q.fetch(
                    "SELECT number, pairing, closed_at FROM tournament_rounds WHERE tournament_id = ? ORDER BY number",
                    tournament_id,
                )
            ]
            tables = [
                table_row(t)
                for t in await q.fetch(
                    f"SELECT {TABLE_COLUMNS} FROM tournament_tables WHERE tournament_id = ? ORDER BY round, number",
                    tournament_id,
                )
            ]
            results = [
                json.loads(res)
                for (res,) in await q.fetch(
                    "SELECT result FROM tournament_results WHERE tournament_id = ? ORDER BY round, number",
                    tournament_id,
                )
            ]
        return Snapshot(tournament_row(r), entrants, rounds, tables, results)

    async def table_of_thread(self, thread_id: str) -> tuple[int, TableRow] | None:
        """The tournament table played in a thread (its tournament's id and the table)."""
        async with self.driver.read() as q:
            r = await q.fetchone(
                f"SELECT tournament_id, {TABLE_COLUMNS} FROM tournament_tables WHERE thread_id = ?", thread_id
            )
        return (r[0], table_row(r[1:])) if r else None

    async def ratings_for(self, guild_id: str, game: str, user_ids: list[str]) -> dict[str, float]:
        """People's conservative ratings (mu - 3 sigma) in a game on a server (0 for the unrated)."""
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        async with self.driver.read() as q:
            rows = await q.fetch(
                f"SELECT user_id, mu - 3 * sigma FROM ratings WHERE guild_id = ? AND game = ? AND user_id IN ({marks})",
                guild_id,
                game,
                *user_ids,
            )
        return {u: float(r) for u, r in rows}

    # ------------------------------------------------------------ writes
    async def create_tournament(
        self,
        *,
        guild_id: str,
        hall_id: str,
        host_id: str,
        name: str,
        game: str,
        rules: dict[str, Any],
        settings: dict[str, Any],
        seed: int,
        announce: Any = lambda row: [],
    ) -> TournamentRow:
        """A tournament open for sign-up and what it owes the hall (`announce` sees the new
        row), in one transaction. Raises Duplicate if the hall has an open tournament."""
        now = time.time()
        async with self.driver.transaction() as tx:
            row = tournament_row(
                await one_row(
                    tx,
                    "INSERT INTO tournaments (guild_id, hall_id, host_id, name, game, rules, settings, seed, status, "
                    f"created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'signup', ?, ?) RETURNING {T_COLUMNS}",
                    guild_id,
                    hall_id,
                    host_id,
                    name,
                    game,
                    json.dumps(rules),
                    json.dumps(settings),
                    seed,
                    now,
                    now,
                )
            )
            await insert_owed(tx, row.id, row.hall_id, announce(row))
        return row

    async def save_tournament(
        self,
        row: TournamentRow,
        *,
        entrants: Sequence[EntrantRow] = (),
        removed: Sequence[str] = (),
        rounds: Sequence[RoundRow] = (),
        closed: Sequence[int] = (),
        tables: Sequence[TableRow] = (),
        owed: Sequence[TournamentOwed] = (),
        **changes: Any,
    ) -> TournamentRow:
        """Save changes to a tournament if nobody changed it meanwhile (else Conflict), with
        its entrants (added or changed), rounds paired and closed, tables and what it owes,
        in one transaction; the stored `owed` items get their ids. Any change ends a claim."""
        now = time.time()
        encoded = _encode(changes)
        encoded["updated_at"] = now
        sets = ", ".join(f"{k} = ?" for k in encoded)
        async with self.driver.transaction() as tx:
            changed = await tx.execute(
                f"UPDATE tournaments SET {sets}, version = version + 1, claim = NULL WHERE id = ? AND version = ?",
                *encoded.values(),
                row.id,
                row.version,
            )
            if changed != 1:
                raise Conflict(f"tournament {row.id} changed since version {row.version}")
            for e in entrants:
                await tx.execute(
                    "INSERT INTO tournament_entrants (tournament_id, user_id, name, rating, joined, dropped, locale, "
                    "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id, user_id) DO UPDATE SET "
                    "name = excluded.name, rating = excluded.rating, joined = excluded.joined, "
                    "dropped = excluded.dropped, locale = excluded.locale",
                    row.id,
                    e.user_id,
                    e.name,
                    float(e.rating),
                    e.joined,
                    e.dropped,
                    e.locale,
                    now,
                )
            for user_id in removed:
                await tx.execute(
                    "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?", row.id, user_id
                )
            for number in closed:
                await tx.execute(
                    "UPDATE tournament_rounds SET closed_at = ? WHERE tournament_id = ? AND number = ? "
                    "AND closed_at IS NULL",
                    now,
                    row.id,
                    number,
                )
            for rnd in rounds:
                await tx.execute(
                    "INSERT INTO tournament_rounds (tournament_id, number, pairing, created_at) VALUES (?, ?, ?, ?)",
                    row.id,
                    rnd.number,
                    json.dumps(rnd.pairing),
                    now,
                )
            for t in tables:
                await tx.execute(
                    "INSERT INTO tournament_tables (tournament_id, round, number, seats, thread_name) "
                    "VALUES (?, ?, ?, ?, ?)",
                    row.id,
                    t.round,
                    t.number,
                    json.dumps(t.seats),
                    t.thread_name,
                )
            await insert_owed(tx, row.id, row.hall_id, list(owed))
        values = {**row.__dict__, **changes, "version": row.version + 1, "updated_at": now}
        return TournamentRow(**values)

    async def claim_due_tournaments(self, now: float) -> list[TournamentRow]:
        """Tournaments whose director has work due (a table finished, a deadline came),
        claimed for this process for a while so that, of several processes, one acts."""
        async with self.driver.read() as q:  # (mostly none: then no write transaction at all)
            if (
                await q.fetchone(
                    "SELECT 1 FROM tournaments WHERE due IS NOT NULL AND due <= ? AND "
                    "(claim IS NULL OR claim < ?) LIMIT 1",
                    now,
                    now,
                )
                is None
            ):
                return []
        async with self.driver.transaction() as tx:
            rows = [
                tournament_row(r)
                for r in await tx.fetch(
                    f"SELECT {T_COLUMNS} FROM tournaments WHERE due IS NOT NULL AND due <= ? AND "
                    f"(claim IS NULL OR claim < ?) ORDER BY due{self.store.skip_locked}",
                    now,
                    now,
                )
            ]
            if rows:
                marks = ",".join("?" * len(rows))
                await tx.execute(
                    f"UPDATE tournaments SET claim = ? WHERE id IN ({marks})", now + DUE_LEASE, *(r.id for r in rows)
                )
        return rows

    async def link_table_game(self, tx: Tx, tournament_id: int, round_number: int, number: int, game_id: int) -> None:
        """Inside the transaction that creates a table's game: the table gets it, once (a
        second game for the same table rolls its creation back)."""
        changed = await tx.execute(
            "UPDATE tournament_tables SET game_id = ? WHERE tournament_id = ? AND round = ? "
            "AND number = ? AND game_id IS NULL",
            game_id,
            tournament_id,
            round_number,
            number,
        )
        if changed != 1:
            raise Conflict(f"table {tournament_id}/{round_number}/{number} already has its game")

    async def record_table(self, tx: Tx, game_id: int, result: Any) -> None:
        """Run in the transaction `tx` that finishes a game (by the tournaments' GameEnded
        handler): if the game is a tournament's table, its result — each person's place by the
        game's own ranking, their score, and the seats the automatic player played all game
        ("skipped") — is written in that transaction, the tournament is due for its director,
        and the thread owes archiving."""
        found = await tx.fetchone(
            "SELECT tournament_id, round, number, thread_id FROM tournament_tables WHERE game_id = ?", game_id
        )
        if found is None:
            return
        tid, rnd, number, thread = found
        acted = {
            seat.split("#")[0]
            for seat, actor in await tx.fetch("SELECT seat, actor FROM actions WHERE game_id = ?", game_id)
            if actor != "auto"
        }
        places = {s.user_id: int(s.place) for s in result.players}
        data = {
            "round": rnd,
            "table": number,
            "places": places,
            "skipped": sorted(p for p in places if p not in acted),
            "scores": {s.user_id: float(s.score) for s in result.players},
        }
        now = time.time()
        await tx.execute(
            "INSERT INTO tournament_results (tournament_id, round, number, game_id, result, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id, round, number) DO NOTHING",
            tid,
            rnd,
            number,
            game_id,
            json.dumps(data),
            now,
        )
        # Due at once, whatever the service's clock says (0: before any time it can read); a
        # new version, so that a director working from what it read before this result
        # cannot save over it (it gets Conflict, and the tournament stays due).
        await tx.execute("UPDATE tournaments SET due = 0, version = version + 1 WHERE id = ?", tid)
        if thread:
            await insert_owed(tx, tid, thread, [TournamentOwed("archive", "table", {"game_id": game_id}, thread)])
        self.tournament_news = True  # (the adapter looks at once rather than at its next tick)
