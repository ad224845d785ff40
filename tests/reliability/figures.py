"""The reliability table (docs/developers/testing.md), from the figures the suites reported (test name ->
figures, see conftest's `report`). A suite that did not run shows as "not run"."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

CRASH = "test_crash_suite"
RACES = (
    "test_one_process",
    "test_two_processes_on_one_database",
    "test_one_decision_per_round_in_flip_and_write",
    "test_the_page_and_discord_at_once",
)
BAD_INPUT = "test_bad_input_changes_nothing_and_is_answered_privately"
SECRECY = "test_no_secret_reaches_anyone_it_does_not_belong_to["
THROUGH_DISCORD = "test_secrets_stay_secret_through_discord["
DB_FAULTS = (
    "test_postgres_restart_and_outage",
    "test_postgres_failover_to_a_synchronous_standby",
    "test_sqlite_disk_full",
    "test_sqlite_file_system_turns_read_only",
)


def _kinds(figures: dict[str, dict[str, Any]], prefix: str, key: str) -> dict[str, Any]:
    return {name[len(prefix) : -1]: f.get(key, 0) for name, f in sorted(figures.items()) if name.startswith(prefix)}


def summary(figures: dict[str, dict[str, Any]]) -> list[tuple[str, str, str]]:
    """(what is measured, what was tried, the result) rows; results are 0 where they must be."""
    rows: list[tuple[str, str, str]] = []
    crash = figures.get(CRASH)
    if crash:
        rows += [
            (
                "Kills survived (SIGKILL at random moments, also right after a commit)",
                f"{crash['kills']} kills; {crash['games']} games of {crash['kinds']} kinds",
                f"{crash['kills']} survived",
            ),
            (
                "Acknowledged actions lost",
                f"{crash['actions_acknowledged']} actions acknowledged",
                str(crash["actions_lost"]),
            ),
            (
                "Corrupt games (stored state ≠ replay of its log)",
                f"{crash['games']} games",
                str(crash["corrupt_games"]),
            ),
            (
                "Committed actions never announced",
                f"{crash['posts_owed']} announcements owed",
                str(crash["never_announced"]),
            ),
            (
                "Announced twice (turn posts, lobby posts, hand DMs)",
                f"{crash['posts_owed']} announcements owed",
                str(crash["announced_twice"]),
            ),
        ]
    else:
        rows.append(("Crash suite", "not run", "—"))
    races = [figures[name] for name in RACES if name in figures]
    if races:
        rows.append(
            (
                "Racing clicks and commands applied more than once",
                f"{sum(r['racing_clicks_tried'] for r in races)} racing clicks",
                str(sum(r["applied_more_than_once"] for r in races)),
            )
        )
    else:
        rows.append(("Race suite", "not run", "—"))
    bad = figures.get(BAD_INPUT)
    if bad:
        rows.append(
            (
                "Fuzzed inputs that changed a game or were not answered privately",
                f"{bad['interactions']} fuzzed interactions",
                str(
                    bad["games_changed"]
                    + bad["refusals_without_reply"]
                    + bad["public_output"]
                    + bad["generic_error_replies"]
                ),
            )
        )
    else:
        rows.append(("Bad-input suite", "not run", "—"))
    faults = [figures[name] for name in DB_FAULTS if name in figures]
    if faults:
        acked = sum(f["moves_acknowledged"] for f in faults)
        rows += [
            (
                "Acknowledged moves lost or stored twice when the database went away (PostgreSQL restarted, stopped "
                "15 s, failed over to a synchronous standby; SQLite disk full, file system read-only)",
                f"{len(faults)} kinds of fault; {acked} moves acknowledged",
                str(sum(abs(f["moves_stored"] - f["moves_acknowledged"]) + f["corrupt"] for f in faults)),
            ),
            (
                "Requests while the database was away not answered within 3 s, or not with the clear word",
                f"{sum(f['asked_while_away'] for f in faults)} requests",
                str(sum(f["slow_answers"] + f["wrong_answers"] for f in faults)),
            ),
        ]
    else:
        rows.append(("Database-fault suite", "not run", "—"))
    tracebacks = sum(f.get("tracebacks", 0) for f in figures.values())
    rows.append(("Tracebacks in the logs", "crash, race, bad-input and database-fault suites", str(tracebacks)))
    games = _kinds(figures, SECRECY, "games")
    if games:
        leaked = sum(_kinds(figures, SECRECY, "secrets_leaked").values()) + sum(
            _kinds(figures, THROUGH_DISCORD, "secrets_leaked").values()
        )
        images = _kinds(figures, SECRECY, "cli_twins")
        discord = _kinds(figures, THROUGH_DISCORD, "games")
        tried = ", ".join(f"{kind} {n}" for kind, n in games.items()) + " games (every check, images and "
        tried += "command line included" + (f"; {sum(discord.values())} more through Discord" if discord else "") + ")"
        if any(images.get(kind, 0) == 0 for kind in games):
            tried += "; no images for " + ", ".join(kind for kind in games if not images.get(kind))
        rows.append(("Secrets leaked", tried, str(leaked)))
    else:
        rows.append(("Secrecy suite", "not run", "—"))
    return rows


def markdown(rows: list[tuple[str, str, str]]) -> str:
    lines = ["| Promise measured | Tried | Result |", "|---|---|---|"]
    lines += [f"| {what} | {tried} | {result} |" for what, tried, result in rows]
    return "\n".join(lines)


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def read_report(path: Path) -> dict[str, dict[str, Any]]:
    """The figures in a report file (one `name<TAB>key=value, ...` line per test, as conftest's
    `report` writes them): `make reliability` runs its suites in several processes (pytest-xdist),
    each appending its tests' lines, and the table is made from the file once they are done."""
    figures: dict[str, dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        name, tab, rest = line.partition("\t")
        if not tab:
            continue
        pairs = (pair.partition("=") for pair in rest.split(", "))
        figures[name] = {key: _value(value) for key, _, value in pairs}
    return figures


if __name__ == "__main__":  # python -m tests.reliability.figures reliability.txt: append the table
    report = Path(sys.argv[1])
    table = markdown(summary(read_report(report)))
    with report.open("a", encoding="utf-8") as f:
        f.write(f"\n{table}\n")
    print(table)
