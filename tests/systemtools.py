"""System programs some tests run (`runuser` to start PostgreSQL as root, `mkfs.ext4` for a
file system that turns read-only): without one on the PATH a test skips with the line to type,
as CONTRIBUTING promises, and fails under CI (CI=true), as the browser tests do — a test that
silently never runs proves nothing. Debian keeps both in /usr/sbin, which is off the PATH of
`su` without `-` and of `env -i PATH=/usr/bin:/bin`: 61 tests errored there (issue 73)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

# The Debian package each program comes from.
PACKAGES = {
    "runuser": "util-linux",
    "mkfs.ext4": "e2fsprogs",
    "mount": "mount",
    "umount": "mount",
    "findmnt": "util-linux",
}
SYSTEM_DIRS = ("/usr/sbin", "/sbin")


def hint(tool: str) -> str:
    """The line to type for a program that is not on the PATH."""
    for folder in SYSTEM_DIRS:
        if os.access(Path(folder) / tool, os.X_OK):
            return f"`{tool}` is in {folder}, which is not on the PATH: export PATH=$PATH:/usr/sbin:/sbin"
    return f"`{tool}` is not installed: apt-get install {PACKAGES.get(tool, tool)}"


def need(*tools: str) -> None:
    """Skip the test (fail it under CI) when one of `tools` is not on the PATH, saying what to type."""
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if not missing:
        return
    said = "; ".join(hint(tool) for tool in missing)
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"a system program this test needs is missing under CI: {said}", pytrace=False)
    pytest.skip(f"needs {', '.join(missing)}: {said}")


def need_postgres_user_switch() -> None:
    """PostgreSQL refuses to run as root: the test servers are started as `postgres` by runuser."""
    if os.geteuid() == 0:
        need("runuser")
