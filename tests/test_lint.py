"""Mistakes a reader should never have to find, and one format for everyone: `ruff check`
with the rules `pyproject.toml` selects (pyflakes, pycodestyle, bugbear, import order,
pyupgrade for 3.11, comprehensions, simplify, ruff's own; what is left off says why there)
and `ruff format --check`, over the whole tree."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUFF = Path(sys.executable).with_name("ruff")


def ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(RUFF), *args, "--no-cache", "."], cwd=ROOT, capture_output=True, text=True)


def test_ruff_check_finds_nothing():
    done = ruff("check")
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_file_is_in_the_one_format():
    done = ruff("format", "--check")
    assert done.returncode == 0, "run `ruff format .`:\n" + done.stdout + done.stderr


def test_the_rules_are_the_projects():
    """The settings are read from pyproject.toml (not ruff's defaults): a bugbear finding fails."""
    done = subprocess.run(
        [str(RUFF), "check", "--no-cache", "--stdin-filename", "probe.py", "-"],
        cwd=ROOT,
        input="def f(x=[]):\n    return x\n",
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1 and "B006" in done.stdout, done.stdout + done.stderr
