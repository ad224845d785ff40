"""The annotations are checked: pyright (pinned in requirements-dev.txt, settings in
pyproject.toml's `[tool.pyright]`) finds no error in metrobot/, metrobot/render/, tools/ and bench/, at
the standard level everywhere and at the strict level on the pure parts listed there
(`strict`). How to run it by hand, and which level applies where: docs/developers/testing.md."""

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYRIGHT = Path(sys.executable).with_name("pyright")
CHECKED = ("metrobot", "tools", "bench")


def _settings() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pyright"]


# About 30 s of CPU for the whole tree (45 s alone on the 2-core machine): under a full suite
# sharing both cores it takes longer than pytest's default guard against a hang.
@pytest.mark.timeout(900)
def test_pyright_finds_no_error():
    # The wrapper would ask PyPI for a newer version otherwise: the tests use no network.
    env = {**os.environ, "PYRIGHT_PYTHON_IGNORE_WARNINGS": "1"}
    done = subprocess.run([str(PYRIGHT), "--outputjson"], cwd=ROOT, capture_output=True, text=True, env=env)
    assert done.stdout.startswith("{"), done.stdout + done.stderr
    report = json.loads(done.stdout)
    errors = [d for d in report["generalDiagnostics"] if d["severity"] == "error"]
    assert not errors, f"pyright: {len(errors)} errors (run `.venv/bin/pyright`):\n" + "\n".join(
        f"{Path(d['file']).relative_to(ROOT)}:{d['range']['start']['line'] + 1}: {d['message']} ({d.get('rule', '')})"
        for d in errors
    )
    # Every module of the four trees was read (nothing excluded by mistake).
    modules = sum(1 for top in CHECKED for _ in (ROOT / top).rglob("*.py"))
    assert report["summary"]["filesAnalyzed"] >= modules, report["summary"]


def test_the_levels_are_the_projects():
    """The standard level everywhere, strict on the pure parts, and every strict path exists."""
    settings = _settings()
    assert settings["typeCheckingMode"] == "standard"
    assert sorted(settings["include"]) == sorted(CHECKED)
    assert "metrobot/games" in settings["strict"] and "metrobot/turns/menutree.py" in settings["strict"]
    missing = [p for p in settings["strict"] if not (ROOT / p).exists()]
    assert not missing, f"strict paths that do not exist: {missing}"
