"""A fresh machine reaches only the package registries: the suite needs no file in the user's
home or cache, no network, and no path of the machines the project happens to be developed on.

Issue 58 found `make test` failing with 197 errors on a machine that could not reach GitHub: the
pinned Discord spec was downloaded at test time, and its fallback named a folder of one machine.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Absolute paths that belong to one machine or one person: a user's home (Linux, macOS,
# Windows), root's home, and the folder the project's own development machines keep work in.
# (Spelled in pieces so that this file does not match itself.)
MACHINE_PATH = re.compile(
    r"(?<![\w.~-])(?:/"
    + "home/[a-z_][\\w-]*/"
    + r"|/"
    + "Users/\\w+"
    + r"|/"
    + "root/"
    + r"|/"
    + "work/"
    + r"|[A-Z]:\\Users\\)"
)


def tracked_files() -> list[Path]:
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    return [ROOT / name for name in listed.decode().split("\0") if name]


def test_no_file_names_a_path_of_a_particular_machine():
    found = []
    for path in tracked_files():
        if not path.is_file() or path.suffix in {".png", ".jpg", ".gif", ".woff2", ".ttf", ".otf", ".ico"}:
            continue
        text = path.read_bytes().decode("utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if MACHINE_PATH.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:160]}")
    assert not found, "paths of a particular machine (a stranger's clone has none of them):\n" + "\n".join(found)


def test_the_pattern_sees_such_paths():
    for line in (
        'spec = "/' + 'work/shared/x.json"',
        "cd /" + "home/ann/metrobot",
        "/" + "root/.cache/x",
        "C:" + "\\Users\\ann",
    ):
        assert MACHINE_PATH.search(line), line
    for line in ("/opt/metrobot/.env", "https://example.org/" + "work/x", "~/.cache/metrobot", "./" + "work/x"):
        assert not MACHINE_PATH.search(line), line


def test_the_discord_checks_run_with_an_empty_home_and_cache_and_no_network(tmp_path):
    """Two stand-in tests in a process of their own, as on a fresh machine: an empty home and
    cache, every proxy pointing at a closed port, CI=true (where a spec that cannot be found
    fails the test rather than skipping the check)."""
    home, cache = tmp_path / "home", tmp_path / "cache"
    home.mkdir()
    cache.mkdir()
    nowhere = "http://127.0.0.1:9"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env |= {"HOME": str(home), "XDG_CACHE_HOME": str(cache), "CI": "true", "PYTHONDONTWRITEBYTECODE": "1"}
    env |= dict.fromkeys(("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"), nowhere)
    env |= {"no_proxy": "", "NO_PROXY": ""}
    tests = [
        "tests/e2e/test_standin.py::test_login_and_command_sync",
        "tests/e2e/test_standin.py::test_slash_defer_followup_with_png_and_buttons",
    ]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "-rA", *tests],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    passed = [test for test in tests if f"PASSED {test}" in done.stdout]
    assert done.returncode == 0 and passed == tests, done.stdout[-3000:] + done.stderr[-3000:]
