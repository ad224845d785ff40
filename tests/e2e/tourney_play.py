"""Scripted people in a tournament, through the Discord stand-in: they sign up, start it,
and play their tables of the toy game (Race to 10) in the tables' threads with its own
command (`/add`). What a person would read off the channel (whose turn it is, which thread
is theirs) is read from the bot's database file, read-only."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time

from tests.dbfile import rows

query = rows  # (the bot's database file, read-only)


def write(db_path: str, sql: str, *args) -> None:
    conn = sqlite3.connect(db_path, timeout=10)
    try:
        conn.execute(sql, args)
        conn.commit()
    finally:
        conn.close()


def tables(db_path: str, round_number: int | None = None) -> list[dict]:
    """The tournament tables stored so far (of one round), with their thread and game."""
    rows = query(
        db_path, "SELECT round, number, seats, thread_id, game_id FROM tournament_tables ORDER BY round, number"
    )
    out = [{"round": r, "number": n, "seats": json.loads(s), "thread": t, "game": g} for r, n, s, t, g in rows]
    return [t for t in out if round_number is None or t["round"] == round_number]


def tournament(db_path: str) -> dict:
    [(tid, status, rnd)] = query(db_path, "SELECT id, status, round FROM tournaments ORDER BY id DESC LIMIT 1")
    return {"id": tid, "status": status, "round": rnd}


async def until(check, timeout: float = 60.0, what: str = "a condition"):
    """Poll `check()` (sync) until it returns something true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


async def round_ready(db_path: str, number: int, timeout: float = 90.0) -> list[dict]:
    """Round `number` is paired and every table's game runs in its thread."""

    def ready():
        found = tables(db_path, number)
        if not found or not all(t["game"] for t in found):
            return None
        statuses = dict(query(db_path, "SELECT id, status FROM games"))
        return found if all(statuses.get(t["game"]) in ("active", "finished") for t in found) else None

    return await until(ready, timeout, f"round {number}'s tables to start")


def game_of(db_path: str, game_id: int) -> dict:
    [(status, state, moves)] = query(db_path, "SELECT status, state, moves FROM games WHERE id = ?", game_id)
    return {"status": status, "state": json.loads(state) if state else None, "moves": moves}


async def play_table(
    standin, db_path: str, table: dict, *, absent: frozenset = frozenset(), timeout: float = 120.0
) -> None:
    """Play a table's game to its end with `/add` in its thread; an absent person never moves:
    their turn clock is made to run out (its deadline moved into the past, as if the hours
    had gone by), and the automatic player moves for them."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game = game_of(db_path, table["game"])
        if game["status"] != "active":
            return
        state = game["state"]
        person = state["players"][state["current"]]
        if person in absent:
            write(
                db_path,
                "UPDATE games SET deadline = ? WHERE id = ? AND moves = ?",
                time.time() - 1,
                table["game"],
                game["moves"],
            )
            await until(lambda: game_of(db_path, table["game"])["moves"] != game["moves"], 30, "the clock to run out")  # noqa: B023 - used within this iteration
            continue
        amount = str(min(3, 10 - state["count"]))
        h = await standin.slash(int(person), int(table["thread"]), "add", {"amount": amount})
        reply = await h.wait_message(timeout=30)
        if "Someone moved before you" in reply.content or "not your turn" in reply.content:
            continue
    raise AssertionError(f"table {table} did not end")
