"""The documentation stays true: the site builds with no warning and no broken reference (the
same strict build as `make docs`), the generated reference pages are what the code makes today,
the architecture page names every module, every game's page shows all its rules pages, and the README
stays short (the version the code says and the changelog: tests/test_versions.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tools import docgen

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def sphinx_options() -> list[str]:
    """The options `make docs` builds with (read from the Makefile, so the two never differ)."""
    line = next(x for x in (ROOT / "Makefile").read_text().splitlines() if x.startswith("SPHINXOPTS :="))
    return line.split(":=", 1)[1].split()


def test_the_site_builds_without_a_warning(tmp_path):
    options = sphinx_options()
    assert "-W" in options and "-n" in options, "make docs must fail on warnings and on broken references"
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", *options, str(DOCS), str(tmp_path / "html")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "html" / "index.html").exists()


def test_a_broken_reference_fails_the_build(tmp_path):
    """What CI relies on: a link to a page or a heading that does not exist is an error."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "conf.py").write_text((DOCS / "conf.py").read_text())
    (site / "index.md").write_text("# Home\n\n[gone](nowhere.md) and [no heading](#not-here)\n")
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", *sphinx_options(), str(site), str(tmp_path / "html")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode != 0 and "nowhere.md" in done.stderr, done.stderr


def test_the_generated_reference_pages_are_current():
    stale = [str(p.relative_to(ROOT)) for p in docgen.stale()]
    assert not stale, f"{', '.join(stale)} out of date: python -m tools.docgen"


def test_a_page_out_of_date_is_caught(tmp_path, monkeypatch):
    old = tmp_path / "commands.md"
    old.write_text("# Commands\n\nwhat the tree said last year\n")
    monkeypatch.setattr(docgen, "COMMANDS", old)
    assert docgen.stale() == [old]
    assert docgen.main(["--check"]) == 1


def test_a_setting_env_example_does_not_explain_is_refused(tmp_path, monkeypatch):
    example = tmp_path / ".env.example"
    lines = (ROOT / ".env.example").read_text().splitlines()
    example.write_text("\n".join(x for x in lines if not x.startswith("METROBOT_RETENTION_DAYS")) + "\n")
    monkeypatch.setattr(docgen, "ENV_EXAMPLE", example)
    with pytest.raises(SystemExit, match="METROBOT_RETENTION_DAYS"):
        docgen.settings_page()


# Packages whose modules the architecture page names one by one (the games' own packages are
# summed up in a line each, and tests/ and bench/ by what they hold).
@pytest.mark.parametrize("game", sorted(p.name for p in (DOCS / "rules").iterdir() if p.is_dir()))
def test_every_game_page_shows_all_its_rules_pages(game):
    page = (DOCS / "players" / "games" / f"{game}.md").read_text(encoding="utf-8")
    pages = json.loads((DOCS / "rules" / game / "pages.json").read_text(encoding="utf-8"))["pages"]
    for p in pages:
        stem = f"{p['number']:02d}-{p['key']}"
        assert f"../../rules/{game}/{stem}.md" in page, f"{game}'s page does not include its rules page {stem}"
        if p["image"]:
            assert f"../../rules/{game}/{p['image']})" in page, f"{game}'s page does not show {p['image']}"


def test_the_readme_stays_short_and_sends_readers_to_the_guides():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    for guide in ("players", "admins", "operators", "developers"):
        assert f"docs/{guide}/index.md" in readme
    assert "/game tutorial" in readme and "make run" in readme and "self-hosted" in readme
