"""Versions that exist (issue 73): the repository has no tags a copy can rely on, so a release is
the commit on `main` whose message begins `Release X.Y.Z:`. The changelog, the code's version,
Upgrading's schema table and the migrations folder say the same thing; every release the table
names is a commit that says its version and makes its schema; no document names a tag that is not
there; and a database of 1.0.0, made by 1.0.0's own scripts, upgrades to today's schema."""

from __future__ import annotations

import re
import sqlite3
import subprocess
from pathlib import Path

import pytest

from metrobot import __version__
from metrobot.storage import Database
from metrobot.storage.schema import SQLITE, statements

ROOT = Path(__file__).resolve().parents[1]
MIGRATIONS = ROOT / "metrobot/storage/migrations"
RELEASED = re.compile(r"^## \[?(\d+\.\d+\.\d+)\]? - \d{4}-\d\d-\d\d$", re.M)
ROW = re.compile(r"^\| (\S+) \((.*?)\) \| (.*?) \| (\d+) \| (.*) \|$", re.M)


def as_tuple(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def newest_migration() -> int:
    return max(int(path.name[1:].split("_")[0]) for path in MIGRATIONS.glob("m[0-9]*_*.py"))


def schema_table() -> list[re.Match[str]]:
    page = (ROOT / "docs/operators/upgrading.md").read_text(encoding="utf-8")
    return list(ROW.finditer(page.split("## Schema versions", 1)[1]))


def named_migrations(cell: str) -> list[int]:
    """`1–9` or `10 reminders and follows, 11 the sequences' owner` -> the numbers."""
    ranges = re.fullmatch(r"(\d+)–(\d+)", cell)
    if ranges:
        return list(range(int(ranges.group(1)), int(ranges.group(2)) + 1))
    return [int(item.split()[0]) for item in re.split(r", (?=\d+ )", cell)]


def git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)


def test_a_release_has_its_changelog_section_and_main_is_the_next_release_dev0():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = RELEASED.findall(changelog)
    if re.fullmatch(r"\d+\.\d+\.\d+", __version__):
        assert __version__ in released, f"CHANGELOG.md has no section for {__version__}"
        return
    # Between releases: the next release with .dev0, above every release made, and its news under Unreleased.
    development = re.fullmatch(r"(\d+\.\d+\.\d+)\.dev0", __version__)
    assert development, f"{__version__} is neither X.Y.Z nor X.Y.Z.dev0"
    assert all(as_tuple(development.group(1)) > as_tuple(made) for made in released), (__version__, released)
    assert "\n## Unreleased\n" in changelog


def test_the_schema_table_reaches_the_newest_migration_and_names_each_once():
    rows = schema_table()
    assert rows, "docs/operators/upgrading.md has no schema table"
    named = [number for row in rows for number in named_migrations(row.group(5))]
    assert named == list(range(1, newest_migration() + 1)), named
    for row in rows:  # each row's schema is its last migration
        assert int(row.group(4)) == named_migrations(row.group(5))[-1], row.group(0)
    assert int(rows[-1].group(4)) == newest_migration() == len(SQLITE)
    assert rows[-1].group(1) == __version__, "the table's last row is the version the code says"


def test_every_release_in_the_table_is_a_commit_that_says_its_version_and_makes_its_schema():
    if git("rev-parse", "--is-shallow-repository").stdout.strip() != "false":
        pytest.skip("needs the repository's history (not a shallow clone)")
    released = RELEASED.findall((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))
    rows = {row.group(1): row for row in schema_table()}
    assert set(released) <= set(rows), "every release in the changelog has its row"
    for version in released:
        if version == __version__:
            continue  # (the release commit itself, which cannot name its own hash)
        found = re.fullmatch(r"`([0-9a-f]{7,40})` \(`(\w+ [\d.]+):`\)", rows[version].group(3))
        assert found, f"{version}'s row names no commit: {rows[version].group(3)}"
        commit, begins = found.groups()
        assert begins in (f"Release {version}", f"Version {version}")  # (1.0.0's reads "Version 1.0.0:")
        assert git("log", "-1", "--format=%s", commit).stdout.startswith(f"{begins}:")
        if begins.startswith("Release"):  # what upgrading.md's `git log --grep` finds is that commit
            listed = git("log", "--format=%H", f"--grep=^Release {version}:", "HEAD").stdout.split()
            assert [full[: len(commit)] for full in listed] == [commit]
        code = git("show", f"{commit}:metrobot/__init__.py").stdout
        assert f'__version__ = "{version}"' in code
        files = git("ls-tree", "--name-only", f"{commit}:metrobot/storage/migrations").stdout.split()
        numbers = [int(name[1:].split("_")[0]) for name in files if re.fullmatch(r"m\d+_\w+\.py", name)]
        assert max(numbers) == int(rows[version].group(4)), f"{version} makes schema {max(numbers)}"


def test_no_document_names_a_tag_that_is_not_there():
    tags = set(git("tag", "--list").stdout.split())
    found = git("grep", "-n", "-E", r"\bv[0-9]+\.[0-9]+\.[0-9]+\b", "--", "*.md", "Makefile").stdout
    missing = [line for line in found.splitlines() if not set(re.findall(r"\bv\d+\.\d+\.\d+\b", line)) <= tags]
    assert not missing, "names of tags the repository does not have:\n" + "\n".join(missing)


def scripts_of_1_0_0() -> list[str]:
    """The SQLite migrations as 1.0.0 (commit 745c7da) had them: its schema.py and its m08, m09."""
    if git("cat-file", "-e", "745c7da").returncode != 0:
        pytest.skip("needs the repository's history (1.0.0's commit)")
    later = []
    for name in git("ls-tree", "--name-only", "745c7da:metrobot/storage/migrations").stdout.split():
        if re.fullmatch(r"m\d+_\w+\.py", name):
            module: dict[str, object] = {}
            exec(git("show", f"745c7da:metrobot/storage/migrations/{name}").stdout, module)
            later.append((int(name[1:3]), module["SQLITE"], module["POSTGRES"]))
    schema = git("show", "745c7da:metrobot/storage/schema.py").stdout.replace("from .migrations import later", "")
    namespace: dict[str, object] = {"later": lambda first: sorted(later)}
    exec(schema, namespace)
    scripts = namespace["SQLITE"]
    assert isinstance(scripts, list) and len(scripts) == 9
    return scripts


def tables_and_columns(path: Path) -> dict[str, list[tuple]]:
    conn = sqlite3.connect(path)
    try:
        names = [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {name: conn.execute(f"PRAGMA table_info({name})").fetchall() for name in names}
    finally:
        conn.close()


async def test_a_database_of_1_0_0_upgrades_to_todays_schema_keeping_its_games(tmp_path):
    old = tmp_path / "1.0.0.sqlite3"
    conn = sqlite3.connect(old)
    for script in scripts_of_1_0_0():
        for statement in statements(script):
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 9")
    conn.execute(
        "INSERT INTO games (channel_id, game, status, host_id, seed, max_seats, turn_clock, created_at, updated_at)"
        " VALUES ('c1', 'metromania', 'lobby', 'u1', 7, 4, 86400, 1.0, 1.0)"
    )
    conn.commit()
    conn.close()
    upgraded = await Database(old).open()
    try:
        assert (await upgraded.open_game("c1")) is not None  # the 1.0.0 lobby is still there
    finally:
        await upgraded.close()
    fresh = await Database(tmp_path / "new.sqlite3").open()
    await fresh.close()
    conn = sqlite3.connect(old)
    assert conn.execute("PRAGMA user_version").fetchone() == (len(SQLITE),)
    conn.close()
    assert tables_and_columns(old) == tables_and_columns(tmp_path / "new.sqlite3")
