"""Bad settings stop `python bot.py` and `python -m metrobot web` at once (issue 42): one line
naming the setting, what it must be and what was given, exit status 2 (a service manager and
`make run` do not start it again), no traceback — before anything is connected to. The bot
is pointed at a Discord where nothing listens: a value that got through would try to
connect instead of exiting."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from metrobot.settings import LIMITS

ROOT = Path(__file__).resolve().parents[2]
ISSUE = [  # the cases the issue names
    ("METROBOT_TICK_SECONDS", "-1"),
    ("METROBOT_TICK_SECONDS", "0"),
    ("METROBOT_TURN_CLOCK_HOURS", "nan"),
    ("METROBOT_TURN_CLOCK_HOURS", "abc"),
    ("METROBOT_AI_SECONDS", "-5"),
    ("METROBOT_RATE_BURST", "0"),
]
# Every other numeric setting: one value outside its range, one that is not finite.
EVERY = [(name, str(limit.low - 1)) for name, limit in LIMITS.items()] + [(name, "inf") for name in LIMITS]


def _env(tmp_path: Path, name: str, raw: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("METROBOT_", "DISCORD_"))}
    env.update(
        {
            "DISCORD_TOKEN": "a-token",
            "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",  # (the discard port: nothing answers)
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/",
            "METROBOT_DB": str(tmp_path / "bad.sqlite3"),
            "METROBOT_SHARD_COUNT": "2" if name == "METROBOT_SHARD_IDS" else "",
            name: raw,
        }
    )
    return env


def _refused(proc: subprocess.CompletedProcess, name: str, raw: str) -> None:
    said = proc.stderr.strip()
    assert proc.returncode == 2, said
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "\n" not in said, said  # one line
    assert said.removeprefix("error: ").startswith(f"{name} must be ") and said.endswith(f"got {raw!r}"), said


@pytest.mark.parametrize(("name", "raw"), ISSUE + EVERY)
def test_the_bot_stops_with_one_line_and_status_2(tmp_path, name, raw):
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=ROOT,
        env=_env(tmp_path, name, raw),
        capture_output=True,
        text=True,
        timeout=120,
    )
    _refused(proc, name, raw)
    assert not (tmp_path / "bad.sqlite3").exists()  # nothing was opened, let alone connected to


@pytest.mark.parametrize(
    ("name", "raw"), [("METROBOT_TICK_SECONDS", "0"), ("METROBOT_WEB_PORT", "-1"), ("METROBOT_RETENTION_DAYS", "nan")]
)
def test_the_web_process_stops_with_one_line_and_status_2(tmp_path, name, raw):
    proc = subprocess.run(
        [sys.executable, "-m", "metrobot", "web"],
        cwd=ROOT,
        env=_env(tmp_path, name, raw),
        capture_output=True,
        text=True,
        timeout=120,
    )
    _refused(proc, name, raw)
    assert not (tmp_path / "bad.sqlite3").exists()
