"""tools/discord_spec.py: the copy in the repository is the pinned file, and a refresh replaces
the spec, its licence and the pin together and lists what changed — from a local clone here (no
network in tests)."""

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
    pin, pinned = tmp_path / "pin.json", tmp_path / "pinned"
    monkeypatch.setattr(discord_spec, "PIN_FILE", pin)
    monkeypatch.setattr(discord_spec, "PINNED", pinned)
    monkeypatch.setattr(discord_spec, "SPEC_FILE", pinned / "openapi.json")
    monkeypatch.setattr(discord_spec, "LICENSE_FILE", pinned / "LICENSE")
    return repo, pin


def test_the_repository_holds_the_pinned_spec_and_its_licence():
    wanted = discord_spec.pin()
    assert discord_spec.sha256(discord_spec.SPEC_FILE.read_bytes()) == wanted["sha256"]
    assert discord_spec.sha256(discord_spec.LICENSE_FILE.read_bytes()) == wanted["licence_sha256"]
    assert "MIT License" in discord_spec.LICENSE_FILE.read_text(encoding="utf-8")


def test_refresh_pins_the_newest_commit_replaces_the_files_and_lists_the_changes(world):
    repo, pin = world
    first = commit(repo, SPEC_V1)
    data = (repo / "specs" / "openapi.json").read_bytes()
    pin.write_text(json.dumps({"repository": "discord/discord-api-spec", "commit": "0" * 40, "sha256": "x"}))
    assert discord_spec.refresh(discord_spec.Git(str(repo))) == []  # no file pinned before: nothing to compare
    assert discord_spec.pin()["sha256"] == discord_spec.sha256(data) and discord_spec.pin()["commit"] == first
    assert discord_spec.SPEC_FILE.read_bytes() == data
    assert discord_spec.LICENSE_FILE.read_text() == "MIT License\n"
    second = commit(repo, SPEC_V2)
    changes = discord_spec.refresh(discord_spec.Git(str(repo)))
    assert changes == ["+ GET /oauth2/@me", "~ schema A", "+ schema B"]
    pinned = discord_spec.pin()
    assert pinned["commit"] == second and pinned["repository"] == "discord/discord-api-spec"
    assert pinned["date"] == git(repo, "log", "-1", "--format=%cI")
    assert discord_spec.sha256(discord_spec.SPEC_FILE.read_bytes()) == pinned["sha256"]
    assert not list(discord_spec.PINNED.glob("*.part"))
