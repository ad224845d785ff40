"""Tests needing a system program that is not on the PATH skip with the line to type, or fail
under CI (issue 73: with /usr/sbin off the PATH, `runuser` and `mkfs.ext4` were not found and
61 tests errored). Run in a process of its own with that PATH, as `env -i PATH=/usr/bin:/bin` does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import systemtools

ROOT = Path(__file__).resolve().parents[1]
# One test of each kind: the session's PostgreSQL (runuser, as root), the file system turning read-only (mkfs.ext4).
TESTS = [
    "tests/storage/test_contract.py::test_a_failed_transaction_leaves_nothing[postgres]",
    "tests/reliability/test_database_faults.py::test_sqlite_file_system_turns_read_only",
]


def run_without_sbin(ci: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_") and k != "CI"}
    env |= {"PATH": "/usr/bin:/bin"} | ({"CI": "true"} if ci else {})
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "-rsfE",
            *TESTS,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.skipif(os.geteuid() != 0, reason="as another user neither test needs a program of /usr/sbin")
@pytest.mark.skipif(not os.access("/usr/sbin/runuser", os.X_OK), reason="Debian's runuser is in /usr/sbin")
def test_with_usr_sbin_off_the_path_they_skip_with_the_line_to_type_and_fail_under_ci():
    done = run_without_sbin(ci=False)
    said = done.stdout + done.stderr
    assert done.returncode == 0 and "error" not in said.splitlines()[-1], said[-3000:]
    assert said.count("/usr/sbin, which is not on the PATH: export PATH=$PATH:/usr/sbin:/sbin") == 2, said[-3000:]
    done = run_without_sbin(ci=True)
    said = done.stdout + done.stderr
    assert done.returncode != 0 and said.count("FAILED tests/") + said.count("ERROR tests/") == 2, said[-3000:]
    assert said.count("a system program this test needs is missing under CI") >= 2, said[-3000:]


def test_the_hint_names_the_package_of_a_program_that_is_nowhere():
    assert systemtools.hint("runuser-that-is-not-there") == (
        "`runuser-that-is-not-there` is not installed: apt-get install runuser-that-is-not-there"
    )
    assert systemtools.PACKAGES["mkfs.ext4"] == "e2fsprogs"
