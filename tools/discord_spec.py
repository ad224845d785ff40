"""Discord's published OpenAPI spec, which the end-to-end tests check every request of the bot
against (tests/e2e/apispec): install the pinned version, or move the pin to a newer one.

The spec is `specs/openapi.json` of github.com/discord/discord-api-spec (MIT, Copyright 2023
Discord; 1.2 MB). The repository does not ship it: `tests/e2e/apispec/pin.json` names the
commit, its date and the file's SHA-256, and this tool puts that exact file (with the
repository's LICENSE) in `$XDG_CACHE_HOME/metrobot/discord-api-spec/<commit>/` (`~/.cache` by
default), where the tests find it.

    python -m tools.discord_spec install           # the pinned version, from GitHub (make discord-spec)
    python -m tools.discord_spec refresh           # pin the newest commit, install it, say what changed
    python -m tools.discord_spec refresh --commit SHA
    python -m tools.discord_spec where             # the file the tests use, or why there is none

`--from-git DIR` reads a local clone (or bare mirror) of discord/discord-api-spec instead of
GitHub. After `refresh`: run the end-to-end tests (tests/e2e, tests/reliability); a request the
new spec rejects is either the bot's fault (fix it) or a case for tests/e2e/apispec/allowances.py
(a named exception citing Discord's docs); an allowance whose schema is gone fails loudly.
Commit pin.json with what the refresh needed. `openapi_preview.json` (unstable features) is not
used: the bot sends nothing that needs it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIN_FILE = ROOT / "tests" / "e2e" / "apispec" / "pin.json"
REPOSITORY = "discord/discord-api-spec"
SPEC, LICENSE = "specs/openapi.json", "LICENSE"
METHODS = ("get", "put", "post", "patch", "delete")


def pin() -> dict:
    return json.loads(PIN_FILE.read_text(encoding="utf-8"))


def cache_dir(commit: str) -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "metrobot" / "discord-api-spec" / commit


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ------------------------------------------------------------------------------ the two sources
class GitHub:
    def _get(self, url: str) -> bytes:
        request = urllib.request.Request(url, headers={"User-Agent": "metrobot tools/discord_spec.py"})
        with urllib.request.urlopen(request, timeout=60) as answer:  # (https URLs built here)
            return answer.read()

    def newest(self) -> tuple[str, str]:
        """The newest commit that changed the spec, and its date."""
        url = f"https://api.github.com/repos/{REPOSITORY}/commits?path={SPEC}&per_page=1"
        commit = json.loads(self._get(url))[0]
        return commit["sha"], commit["commit"]["committer"]["date"]

    def date(self, commit: str) -> str:
        answer = json.loads(self._get(f"https://api.github.com/repos/{REPOSITORY}/commits/{commit}"))
        return answer["commit"]["committer"]["date"]

    def read(self, commit: str, path: str) -> bytes:
        return self._get(f"https://raw.githubusercontent.com/{REPOSITORY}/{commit}/{path}")


class Git:
    def __init__(self, directory: str) -> None:
        self.directory = directory

    def _git(self, *args: str) -> bytes:
        return subprocess.run(["git", "-C", self.directory, *args], check=True, capture_output=True).stdout

    def newest(self) -> tuple[str, str]:
        line = self._git("log", "-1", "--format=%H %cI", "HEAD", "--", SPEC).decode().split()
        return line[0], line[1]

    def date(self, commit: str) -> str:
        return self._git("log", "-1", "--format=%cI", commit).decode().strip()

    def read(self, commit: str, path: str) -> bytes:
        return self._git("show", f"{commit}:{path}")


# ------------------------------------------------------------------------------ the commands
def install(source, wanted: dict, into: Path | None = None) -> Path:
    """The pinned spec and licence, checked against the pin, in the cache (or `into`)."""
    target = into or cache_dir(wanted["commit"])
    spec_path = target / "openapi.json"
    if spec_path.is_file() and sha256(spec_path.read_bytes()) == wanted["sha256"]:
        return spec_path
    data = source.read(wanted["commit"], SPEC)
    if sha256(data) != wanted["sha256"]:
        raise SystemExit(f"{SPEC} at {wanted['commit']} is not the pinned file (SHA-256 differs): not installed")
    licence = source.read(wanted["commit"], LICENSE)
    if wanted.get("licence_sha256") and sha256(licence) != wanted["licence_sha256"]:
        raise SystemExit(f"{LICENSE} at {wanted['commit']} is not the pinned licence: not installed")
    target.mkdir(parents=True, exist_ok=True)
    (target / "LICENSE").write_bytes(licence)
    partial = spec_path.with_suffix(".part")
    partial.write_bytes(data)
    partial.replace(spec_path)
    return spec_path


def operations(document: dict) -> dict[str, str]:
    """Each operation ("POST /channels/{channel_id}/messages") and its request body, as text."""
    out = {}
    for template, item in document["paths"].items():
        for method in METHODS:
            if method in item:
                out[f"{method.upper()} {template}"] = json.dumps(item[method].get("requestBody"), sort_keys=True)
    return out


def changes(old: dict, new: dict) -> list[str]:
    before, after = operations(old), operations(new)
    lines = [f"+ {op}" for op in sorted(set(after) - set(before))]
    lines += [f"- {op}" for op in sorted(set(before) - set(after))]
    schemas_before, schemas_after = old["components"]["schemas"], new["components"]["schemas"]
    changed = sorted(n for n in schemas_after if n in schemas_before and schemas_after[n] != schemas_before[n])
    lines += [f"~ schema {n}" for n in changed]
    lines += [f"+ schema {n}" for n in sorted(set(schemas_after) - set(schemas_before))]
    return lines


def refresh(source, commit: str | None = None) -> list[str]:
    old = pin()
    if commit is None:
        commit, date = source.newest()
    else:
        date = source.date(commit)
    data = source.read(commit, SPEC)
    new = dict(old, commit=commit, date=date, sha256=sha256(data), licence_sha256=sha256(source.read(commit, LICENSE)))
    PIN_FILE.write_text(json.dumps(new, indent=2) + "\n", encoding="utf-8")
    install(source, new)
    old_path = cache_dir(old["commit"]) / "openapi.json"
    if old_path.is_file() and old["commit"] != commit:
        return changes(json.loads(old_path.read_text(encoding="utf-8")), json.loads(data))
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.discord_spec", description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("command", choices=("install", "refresh", "where"))
    parser.add_argument("--from-git", metavar="DIR", help="a local clone of discord/discord-api-spec")
    parser.add_argument("--commit", help="refresh: pin this commit rather than the newest")
    parser.add_argument("--into", metavar="DIR", help="install: this folder rather than the cache")
    args = parser.parse_args(argv)
    source = Git(args.from_git) if args.from_git else GitHub()
    if args.command == "where":
        sys.path.insert(0, str(ROOT / "tests" / "e2e"))
        from apispec.source import SpecUnavailable, spec_file  # pyright: ignore[reportMissingImports]  (tests/e2e, put on the path above)

        try:
            print(spec_file())
        except SpecUnavailable as exc:
            print(exc)
            return 1
        return 0
    if args.command == "install":
        print(install(source, pin(), Path(args.into) if args.into else None))
        return 0
    lines = refresh(source, args.commit)
    wanted = pin()
    print(f"pinned {REPOSITORY} {wanted['commit']} ({wanted['date']}) in {PIN_FILE.relative_to(ROOT)}")
    print("\n".join(lines) or "(the previously pinned spec is not in the cache: no list of changes)")
    print("now run tests/e2e and tests/reliability, and commit pin.json with what they needed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
