"""The architecture contract (`.importlinter`) holds, and the check catches a break.

Engines import nothing above them and never discord; images never import the adapter;
the adapter sits on the service and the service on storage; shared code reaches games
only through the registry and the plug-in interface; no import cycles. Plus two rules
import-linter cannot express: no shared module names a game, no module over 400 lines.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).with_name("lint-imports")
SHARED = ["metrobot/service", "metrobot/discord_app", "metrobot/storage", "metrobot/cli.py",
          "metrobot/gamelog.py", "metrobot/settings.py", "render/__init__.py", "render/style.py",
          "render/labels.py", "render/rects.py", "bot.py"]


def lint(where: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT), "--config", str(where / ".importlinter"), "--no-cache"], cwd=where,
                          capture_output=True, text=True, timeout=120, env={"PYTHONPATH": str(where), "PATH": ""})


def test_the_contract_is_kept():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("arch")
    for name in ("metrobot", "render"):
        shutil.copytree(ROOT / name, where / name, ignore=shutil.ignore_patterns("__pycache__", "*.json", "fonts"))
    shutil.copy(ROOT / ".importlinter", where)
    return where


@pytest.mark.parametrize("path, line, contract", [
    ("metrobot/games/protocol.py", "import discord", "Engines import nothing above them"),
    ("metrobot/games/metromania/rules.py", "from metrobot.service import outcome", "Engines import nothing above them"),
    ("render/style.py", "from metrobot.discord_app import messages", "Images never import"),
    ("metrobot/service/core.py", "from metrobot.games.metromania import board", "Shared code reaches a game only"),
    ("metrobot/storage/db.py", "from metrobot.service import outcome", "The adapter sits on the service"),
    ("metrobot/games/metromania/board.py", "from metrobot.games.metromania import engine", "No import cycles"),
])
def test_a_forbidden_import_breaks_the_contract(copy, path, line, contract):
    target = copy / path
    original = target.read_text()
    target.write_text(original + f"\n{line}  # injected by the test\n")
    try:
        result = lint(copy)
    finally:
        target.write_text(original)
    assert result.returncode != 0, result.stdout
    broken = [l for l in result.stdout.splitlines() if l.endswith("BROKEN")]
    assert any(l.startswith(contract) for l in broken), result.stdout


def _shared_sources():
    for entry in SHARED:
        path = ROOT / entry
        yield from (sorted(path.rglob("*.py")) if path.is_dir() else [path])


def test_no_shared_module_names_a_game():
    from metrobot.games import all_plugins

    names = [p.name for p in all_plugins()]
    pattern = re.compile("|".join(names))
    offenders = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}" for path in _shared_sources()
                 for n, line in enumerate(path.read_text().splitlines(), 1) if pattern.search(line)]
    assert not offenders, "\n".join(offenders)


def test_no_module_over_400_lines():
    sources = [p for d in ("metrobot", "render", "bench", "tools") for p in (ROOT / d).rglob("*.py")] + [ROOT / "bot.py"]
    long = {str(p.relative_to(ROOT)): n for p in sources if (n := len(p.read_text().splitlines())) > 400}
    assert not long, long
