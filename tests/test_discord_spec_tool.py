"""tools/discord_spec.py: installs exactly the pinned spec (a changed file is refused), and a
refresh moves the pin to the newest commit and lists what changed — from a local clone here
(no network in tests)."""

from __future__ import annotations

import json
import subprocess

import pytest

from tools import discord_spec

SPEC_V1 = {"paths": {"/users/@me": {"get": {}}}, "components": {"schemas": {"A": {"type": "string"}}}}
SPEC_V2 = {
    "paths": {"/users/@me": {"get": {}}, "/oauth2/@me": {"get": {}}},
    "components": {"schemas": {"A": {"type": "integer"}, "B": {}}},
}


def git(repo, *args) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True)
    return done.stdout.strip()


def commit(repo, spec: dict) -> str:
    (repo / "specs").mkdir(exist_ok=True)
    (repo / "specs" / "openapi.json").write_text(json.dumps(spec))
    (repo / "LICENSE").write_text("MIT License\n")
    git(repo, "add", ".")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "spec")
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def world(tmp_path, monkeypatch):
    repo = tmp_path / "discord-api-spec"
    repo.mkdir()
    git(repo, "init", "-q")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    pin = tmp_path / "pin.json"
    monkeypatch.setattr(discord_spec, "PIN_FILE", pin)
    return repo, pin


def test_install_puts_the_pinned_file_in_the_cache_and_refuses_another(world):
    repo, pin = world
    first = commit(repo, SPEC_V1)
    data = (repo / "specs" / "openapi.json").read_bytes()
    pin.write_text(json.dumps({"commit": first, "date": "d", "sha256": discord_spec.sha256(data)}))
    path = discord_spec.install(discord_spec.Git(str(repo)), discord_spec.pin())
    assert path == discord_spec.cache_dir(first) / "openapi.json" and path.read_bytes() == data
    assert (path.parent / "LICENSE").read_text() == "MIT License\n"
    path.unlink()
    pin.write_text(json.dumps({"commit": first, "date": "d", "sha256": "0" * 64}))
    with pytest.raises(SystemExit, match="not the pinned file"):
        discord_spec.install(discord_spec.Git(str(repo)), discord_spec.pin())
    assert not path.exists()


def test_refresh_pins_the_newest_commit_and_lists_the_changes(world):
    repo, pin = world
    first = commit(repo, SPEC_V1)
    data = (repo / "specs" / "openapi.json").read_bytes()
    pin.write_text(json.dumps({"repository": "discord/discord-api-spec", "commit": first, "sha256": "x"}))
    assert discord_spec.refresh(discord_spec.Git(str(repo))) == []  # nothing older in the cache
    assert discord_spec.pin()["sha256"] == discord_spec.sha256(data)
    second = commit(repo, SPEC_V2)
    changes = discord_spec.refresh(discord_spec.Git(str(repo)))
    assert changes == ["+ GET /oauth2/@me", "~ schema A", "+ schema B"]
    pinned = discord_spec.pin()
    assert pinned["commit"] == second and pinned["repository"] == "discord/discord-api-spec"
    assert pinned["date"] == git(repo, "log", "-1", "--format=%cI")
    assert (discord_spec.cache_dir(second) / "openapi.json").is_file()
