"""`python -m metrobot tournament simulate` is a contract: its JSON keys
(docs/developers/contracts.md), the same output for the same arguments, and `error: ...` with exit 2
on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from metrobot.cli import main
from metrobot.tournaments.model import Round, Rules
from metrobot.tournaments.scoring import TIEBREAKS

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "metrobot", "tournament", "simulate", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


SWISS = (
    "--kind",
    "underground",
    "--format",
    "swiss",
    "--players",
    "9",
    "--table-size",
    "3",
    "--rounds",
    "3",
    "--seed",
    "4",
)


@pytest.fixture(scope="module")
def swiss():
    done = run(*SWISS, "--results", "rating")
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_json_has_the_documented_keys(swiss):
    data = json.loads(swiss)
    assert set(data) == {"kind", "rules", "seed", "results_mode", "entrants", "rounds", "standings", "summary"}
    assert data["kind"] == "underground" and data["seed"] == 4 and data["results_mode"] == "rating"
    rules = Rules.from_json(data["rules"])
    assert (rules.format, rules.table_size, rules.rounds, rules.min_seats, rules.max_seats) == ("swiss", 3, 3, 2, 5)
    assert len(data["entrants"]) == 9 and set(data["entrants"][0]) == {"id", "rating", "joined", "dropped"}
    assert [r["number"] for r in data["rounds"]] == [1, 2, 3]
    for rnd in data["rounds"]:
        assert set(rnd) == {"number", "tables", "byes", "results"}
        Round.from_json(rnd)
        assert {res["table"] for res in rnd["results"]} == {t["number"] for t in rnd["tables"]}
        for res in rnd["results"]:
            seats = next(t["seats"] for t in rnd["tables"] if t["number"] == res["table"])
            assert set(res["places"]) == set(res["scores"]) == set(seats)
    row = data["standings"][0]
    assert set(row) == {"rank", "person", "points", "tiebreaks", "played", "byes", "skipped", "dropped", "extra"}
    assert list(row["tiebreaks"]) == list(TIEBREAKS)
    assert [s["rank"] for s in data["standings"]] == list(range(1, 10))
    assert set(data["summary"]) == {"repeat_meetings", "most_meetings", "max_same_seat", "first_seat_spread"}
    assert data["summary"]["repeat_meetings"] == 0


def test_the_same_arguments_print_the_same_json(swiss):
    assert run(*SWISS, "--results", "rating").stdout == swiss
    other = run(*SWISS[:-1], "5", "--results", "rating").stdout
    assert other != swiss


def test_every_format_runs(capsys):
    for fmt in ("round_robin", "knockout", "league"):
        assert (
            main(
                [
                    "tournament",
                    "simulate",
                    "--kind",
                    "metromania",
                    "--format",
                    fmt,
                    "--players",
                    "8",
                    "--table-size",
                    "2",
                    "--rounds",
                    "3",
                    "--advance",
                    "1",
                    "--best-of",
                    "2",
                    "--duplicate",
                ]
            )
            == 0
        )
        data = json.loads(capsys.readouterr().out)
        assert data["rounds"] and data["rules"]["format"] == fmt and data["rules"]["duplicate"]


@pytest.mark.parametrize(
    "args, says",
    [
        (("--kind", "chess", "--format", "swiss", "--players", "8", "--rounds", "3"), "unknown game"),
        (
            ("--kind", "metromania", "--format", "swiss", "--players", "8", "--table-size", "5", "--rounds", "3"),
            "outside",
        ),
        (("--kind", "metromania", "--format", "swiss", "--players", "8"), "needs --rounds"),
        (("--kind", "metromania", "--format", "swiss", "--players", "0", "--rounds", "2"), "--players"),
        (("--kind", "metromania", "--format", "swiss", "--players", "8", "--rounds", "0"), "--rounds"),
        (
            ("--kind", "metromania", "--format", "knockout", "--players", "8", "--table-size", "2", "--advance", "2"),
            "cannot send",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, says, capsys):
    assert main(["tournament", "simulate", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and says in err and err.count("\n") == 1


def test_bad_input_exits_2_from_the_command_line():
    done = run("--kind", "chess", "--format", "swiss", "--players", "8", "--rounds", "3")
    assert done.returncode == 2 and done.stdout == "" and done.stderr.startswith("error: unknown game")
