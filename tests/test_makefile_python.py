"""`make run` and `make test` on a machine whose Python cannot make the venv (issue 58): Debian
and Ubuntu ship `venv` without ensurepip until `python3.X-venv` is installed, and the first
`make run` of a stranger ended in a traceback, leaving a half-made `.venv` that the next `make`
took for a good one. The Makefile now says the `apt install` line, removes what was half made,
and names a Python that is too old.

The real Makefile runs in a folder of its own with a stand-in `python3` (a shell script)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEBIAN_WITHOUT_VENV = f"""#!/bin/sh
# Python as Debian has it without python3.X-venv: `-m venv` makes the folder, then fails at ensurepip.
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
  mkdir -p "$3/bin" && ln -s {sys.executable} "$3/bin/python"
  echo "The virtual environment was not created successfully because ensurepip is not available." >&2
  exit 1
fi
exec {sys.executable} "$@"
"""
TOO_OLD = """#!/bin/sh
case "$1" in --version) echo "Python 3.9.2" ;; esac
exit 1
"""

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def make(folder: Path, python: str, target: str) -> subprocess.CompletedProcess:
    shutil.copy(ROOT / "Makefile", folder / "Makefile")
    for name in ("requirements.txt", "requirements-dev.txt", "requirements-docs.txt"):  # (never reached)
        (folder / name).touch()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    return subprocess.run(
        ["make", "-s", f"PYTHON={python}", target], cwd=folder, capture_output=True, text=True, timeout=60, env=env
    )


def stand_in(folder: Path, text: str) -> str:
    script = folder / "python3"
    script.write_text(text, encoding="utf-8")
    script.chmod(0o755)
    return str(script)


@pytest.mark.parametrize("target", [".venv/.run-installed", ".venv/.dev-installed"])  # (what run and test need first)
def test_a_venv_python_cannot_make_is_one_apt_line_and_leaves_nothing_behind(tmp_path, target):
    python = stand_in(tmp_path, DEBIAN_WITHOUT_VENV)
    for _ in range(2):  # (the second `make` must not take the half-made venv for a good one)
        done = make(tmp_path, python, target)
        version = f"python{sys.version_info[0]}.{sys.version_info[1]}-venv"
        assert done.returncode != 0
        assert f"could not create .venv: '{python} -m venv' failed" in done.stderr
        assert f"  sudo apt install {version}\n" in done.stderr
        assert "Traceback" not in done.stderr + done.stdout and "ensurepip" not in done.stderr
        assert not (tmp_path / ".venv").exists()


def test_a_python_too_old_is_named(tmp_path):
    done = make(tmp_path, stand_in(tmp_path, TOO_OLD), ".venv/.run-installed")
    assert done.returncode != 0
    assert "metrobot needs Python 3.11 or newer as" in done.stderr and "(found: Python 3.9.2)" in done.stderr
    assert not (tmp_path / ".venv").exists()


# The pins must install on the oldest Python the README names (issue 73: `soupsieve==4.1.3`
# needs 3.11.5, and Debian 12's own python3, 3.11.2, could not install `make test`'s
# requirements). uv, pinned in requirements-dev.txt, resolves them without installing.
UV = Path(sys.executable).with_name("uv")


def oldest_python_allowed() -> str:
    """The lowest version pyproject's requires-python allows, which README and install.md name."""
    found = re.search(r'^requires-python = ">=(\d+\.\d+)"$', (ROOT / "pyproject.toml").read_text("utf-8"), re.M)
    assert found, "pyproject.toml's requires-python is not a plain lower bound"
    return found.group(1) + ".0"


def resolved(done: subprocess.CompletedProcess) -> None:
    """A resolution that failed fails the test; a registry out of reach skips it, except under CI."""
    if done.returncode == 0:
        return
    said = done.stdout + done.stderr
    if "No solution found" in said or os.environ.get("CI") == "true":
        pytest.fail(said[-3000:])
    pytest.skip(f"the package registry could not be reached: {said[-300:]}")


def oldest_python_on_this_machine(series: str) -> str | None:
    """The oldest `series` (e.g. 3.11) interpreter among the usual names: Debian 12's /usr/bin/python3 is 3.11.2."""
    found = {}
    for name in ("/usr/bin/python3", f"/usr/bin/python{series}", "python3", f"python{series}"):
        path = shutil.which(name)
        if path is None:
            continue
        done = subprocess.run([path, "-c", "import sys; print(*sys.version_info[:3])"], capture_output=True, text=True)
        version = tuple(int(part) for part in done.stdout.split()) if done.returncode == 0 else ()
        if ".".join(map(str, version[:2])) == series:
            found.setdefault(version, path)
    return found[min(found)] if found else None


@pytest.mark.skipif(not UV.exists(), reason="uv is installed by `make test` (requirements-dev.txt)")
def test_the_pins_resolve_for_the_oldest_python_allowed():
    oldest = oldest_python_allowed()
    done = subprocess.run(
        [
            str(UV),
            "pip",
            "compile",
            "-q",
            "--system-certs",
            "--no-header",
            "--python-version",
            oldest,
            "requirements-dev.txt",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    resolved(done)


@pytest.mark.skipif(not UV.exists(), reason="uv is installed by `make test` (requirements-dev.txt)")
def test_the_pins_install_on_the_oldest_python_of_this_machine(tmp_path):
    """On Debian 12 this is the system's python3, 3.11.2: a venv of its own, installed as a dry run."""
    python = oldest_python_on_this_machine(oldest_python_allowed().rsplit(".", 1)[0])
    if python is None:
        pytest.skip("no Python of the oldest series allowed on this machine")
    made = subprocess.run(
        [python, "-m", "venv", "--without-pip", str(tmp_path / "venv")], capture_output=True, text=True
    )
    if made.returncode != 0:
        pytest.skip(f"{python} cannot make a venv: {made.stderr[-300:]}")
    done = subprocess.run(
        [
            str(UV),
            "pip",
            "install",
            "-q",
            "--system-certs",
            "--dry-run",
            "--python",
            str(tmp_path / "venv/bin/python"),
            "-r",
            "requirements-dev.txt",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    resolved(done)
