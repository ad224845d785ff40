"""The reliability table (docs/developers/testing.md) is made from what the suites report (and says which did
not run)."""

from __future__ import annotations

from .figures import markdown, read_report, summary


def test_the_table_carries_every_figure_the_readme_shows():
    reported = {
        "test_crash_suite": {
            "kills": 100,
            "games": 6,
            "kinds": 3,
            "actions_acknowledged": 812,
            "actions_lost": 0,
            "corrupt_games": 0,
            "posts_owed": 900,
            "never_announced": 0,
            "announced_twice": 0,
            "tracebacks": 0,
        },
        "test_one_process": {"racing_clicks_tried": 500, "applied_more_than_once": 0},
        "test_two_processes_on_one_database": {
            "racing_clicks_tried": 500,
            "applied_more_than_once": 0,
            "tracebacks": 1,
        },
        "test_one_decision_per_round_in_flip_and_write": {"racing_clicks_tried": 100, "applied_more_than_once": 0},
        "test_bad_input_changes_nothing_and_is_answered_privately": {
            "interactions": 10000,
            "tracebacks": 2,
            "games_changed": 0,
            "refusals_without_reply": 0,
            "public_output": 0,
            "generic_error_replies": 0,
        },
        "test_no_secret_reaches_anyone_it_does_not_belong_to[metromania]": {
            "games": 1000,
            "secrets_leaked": 0,
            "cli_twins": 2000,
        },
        "test_no_secret_reaches_anyone_it_does_not_belong_to[flipwrite]": {
            "games": 1000,
            "secrets_leaked": 1,
            "cli_twins": 2000,
        },
        "test_secrets_stay_secret_through_discord[flipwrite]": {"games": 2, "secrets_leaked": 0},
        "test_postgres_restart_and_outage": {
            "moves_acknowledged": 15,
            "moves_stored": 15,
            "corrupt": 0,
            "slow_answers": 0,
            "wrong_answers": 0,
            "asked_while_away": 300,
            "tracebacks": 0,
        },
        "test_sqlite_disk_full": {
            "moves_acknowledged": 14,
            "moves_stored": 14,
            "corrupt": 0,
            "slow_answers": 0,
            "wrong_answers": 1,
            "asked_while_away": 14,
        },
    }
    rows = {what: (tried, result) for what, tried, result in summary(reported)}
    assert rows["Kills survived (SIGKILL at random moments, also right after a commit)"][0].startswith("100 kills")
    assert rows["Acknowledged actions lost"] == ("812 actions acknowledged", "0")
    assert rows["Corrupt games (stored state ≠ replay of its log)"][1] == "0"
    assert rows["Committed actions never announced"] == ("900 announcements owed", "0")
    assert rows["Announced twice (turn posts, lobby posts, hand DMs)"][1] == "0"
    assert rows["Racing clicks and commands applied more than once"] == ("1100 racing clicks", "0")
    assert rows["Fuzzed inputs that changed a game or were not answered privately"] == (
        "10000 fuzzed interactions",
        "0",
    )
    assert rows["Tracebacks in the logs"][1] == "3"
    tried, leaked = rows["Secrets leaked"]
    assert (
        leaked == "1" and "metromania 1000" in tried and "flipwrite 1000" in tried and "2 more through Discord" in tried
    )
    faults = next(tried for what, (tried, _) in rows.items() if what.startswith("Acknowledged moves lost or stored"))
    assert faults == "2 kinds of fault; 29 moves acknowledged"
    assert next(result for what, (_, result) in rows.items() if what.startswith("Requests while")) == "1"
    assert markdown(summary({})).count("not run") == 5


def test_the_table_is_made_from_the_lines_every_worker_appended(tmp_path):
    """`make reliability` runs in several processes: each appends its tests' lines to the report file,
    and the table is made from the file; the figures read back as the numbers the suites reported."""
    report = tmp_path / "reliability.txt"
    report.write_text(
        "test_one_process\tracing_clicks_tried=500, applied_more_than_once=0\n"
        "test_crash_suite\tkills=100, games=6, kinds=3, actions_acknowledged=309, actions_lost=0, corrupt_games=0, "
        "posts_owed=201, never_announced=0, announced_twice=0, tracebacks=0\n"
        "test_sqlite_disk_full\tmoves_acknowledged=46, moves_stored=46, corrupt=0, slow_answers=0, wrong_answers=0, "
        "asked_while_away=42, health_while_full=503 disk full, seconds=12.5\n",
        encoding="utf-8",
    )
    figures = read_report(report)
    assert figures["test_one_process"] == {"racing_clicks_tried": 500, "applied_more_than_once": 0}
    assert figures["test_sqlite_disk_full"]["health_while_full"] == "503 disk full"
    assert figures["test_sqlite_disk_full"]["seconds"] == 12.5
    rows = {what: (tried, result) for what, tried, result in summary(figures)}
    assert rows["Acknowledged actions lost"] == ("309 actions acknowledged", "0")
    assert rows["Racing clicks and commands applied more than once"] == ("500 racing clicks", "0")
