"""A person with a history, for the privacy tests (end to end, and the crash suite): two
finished MetrOmania games (rated), a running flip-and-write game, settings and time away; and
what a test reads straight from the database file to compare with what the bot says."""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
from typing import Any

from tests.e2e.players import Table

NAME = "Zoë Ghostwood"  # the person who asks: a display name found nowhere else
OTHERS = ("Bob", "Cat")


async def history(standin, db_path: str, subject: int, bob: int, cat: int) -> dict[str, Table]:
    """The games and settings of the person (`subject`): returns the tables by name."""
    tables = {}
    for name, guest in (("first", bob), ("second", cat)):
        table = Table(standin, standin.create_channel(f"finished-{name}"), db_path, seed=len(name))
        await table.open(subject, "metromania", [guest], players=2)
        await table.play_until_over()
        assert (await table.row()).status == "finished"
        tables[name] = table
    running = Table(standin, standin.create_channel("running"), db_path, seed=5)
    await running.open(bob, "flipwrite", [subject, cat], players=3, city="berlin")
    for user in await running.owed():  # one round: everyone's decision
        await running.play_by_command(user)
    assert (await running.row()).status == "active"
    tables["running"] = running
    where = running.channel
    for options in (
        {"quiet_hours": "22:00-07:00", "time_zone": "Europe/Amsterdam", "turn_dms": True},
        {"language": "nl"},
    ):
        reply = await (await standin.slash(subject, where, "me settings", options)).wait_message()
        assert reply.ephemeral
    reply = await (await standin.slash(subject, where, "me away", {"days": 2, "note": "on a boat"})).wait_message()
    assert reply.ephemeral
    return tables


def rows(db_path: str) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table, straight from the file."""
    con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=10)
    con.row_factory = sqlite3.Row
    try:
        tables = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: [dict(r) for r in con.execute(f"SELECT * FROM {t}")] for t in tables}
    finally:
        con.close()


def holding(db_path: str, *needles: str) -> list[str]:
    """Rows (as "table: row") in which any of `needles` appears, anywhere."""
    found = []
    for table, entries in rows(db_path).items():
        for row in entries:
            text = json.dumps(row, ensure_ascii=False, default=str)
            if any(n in text for n in needles):
                found.append(f"{table}: {text[:300]}")
    return found


def ratings(db_path: str) -> dict[tuple[str, str, str], tuple[float, float, int]]:
    return {
        (r["guild_id"], r["game"], r["user_id"]): (r["mu"], r["sigma"], r["games"]) for r in rows(db_path)["ratings"]
    }


def expected_export(db_path: str, user: str) -> dict[str, Any]:
    """What `/me data` must hold, read from the database by the test's own means."""
    everything = rows(db_path)
    person = next((p for p in everything["people"] if p["user_id"] == user), None)
    games = {}
    for g in everything["games"]:
        seat = next((s for s in json.loads(g["seats"]) if s["user_id"] == user), None)
        if seat is not None:
            games[g["id"]] = (g, seat)
    moves = {}
    for a in everything["actions"]:
        if a["game_id"] in games and (a["seat"] == user or a["seat"].startswith(user + "#")):
            over = games[a["game_id"]][0]["status"] in ("finished", "aborted")
            if over or a["actor"] == user:
                moves.setdefault(a["game_id"], []).append((a["seq"], a["seat"], json.loads(a["action"])))
    return {
        "settings": json.loads(person["settings"]) if person else {},
        "away": _iso(person["away_until"]) if person and person["away_until"] else None,
        "games": {
            gid: (g["game"], g["status"], seat["name"], seat["auto"], sorted(moves.get(gid, [])))
            for gid, (g, seat) in games.items()
        },
        "results": sorted(
            (r["game_id"], r["score"], r["rank"], bool(r["won"]), bool(r["rated"]), r["mu"], r["sigma"])
            for r in everything["results"]
            if r["user_id"] == user
        ),
        "ratings": sorted(
            (r["guild_id"], r["game"], r["mu"], r["sigma"], r["games"])
            for r in everything["ratings"]
            if r["user_id"] == user
        ),
    }


def _iso(at: float) -> str:
    return dt.datetime.fromtimestamp(at, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def exported(document: dict[str, Any]) -> dict[str, Any]:
    """The same shape, from the file the bot sent."""
    return {
        "settings": document["settings"],
        "away": document["away_until"],
        "games": {
            g["id"]: (
                g["game"],
                g["status"],
                g["name"],
                g["left"],
                sorted((m["number"], m["seat"], m["action"]) for m in g["moves"]),
            )
            for g in document["games"]
        },
        "results": sorted(
            (
                r["game_id"],
                r["score"],
                r["place"],
                r["won"],
                r["rated"],
                (r["rating_after"] or {}).get("mu"),
                (r["rating_after"] or {}).get("sigma"),
            )
            for r in document["results"]
        ),
        "ratings": sorted((r["server"], r["game"], r["mu"], r["sigma"], r["games"]) for r in document["ratings"]),
    }


CODE = re.compile(r"\*\*([A-Z2-7]{6})\*\*")


async def forget_by_discord(standin, user: int, channel: int, *, code: str | None = None):
    """`/me forget`, the button, the code typed in the box: the bot's last answer."""
    reply = await (await standin.slash(user, channel, "me forget")).wait_message()
    assert reply.ephemeral
    shown = CODE.search(reply.content).group(1)
    button = next(c for c in reply.custom_ids() if c.startswith("mb:fg:"))
    clicked = await standin.click(user, reply, custom_id=button)
    box = await clicked.wait_response()
    assert box.type == 9, box  # the box for the code
    sent = await clicked.submit_modal({"code": code if code is not None else shown.lower()})
    return await sent.wait_message()
