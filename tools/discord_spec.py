"""Discord's published OpenAPI spec, which the end-to-end tests check every request of the bot
against (tests/e2e/apispec): where the pinned copy is, and moving the pin to a newer version.

The spec is `specs/openapi.json` of github.com/discord/discord-api-spec (MIT, Copyright 2023
Discord; 1.2 MB). It is kept in this repository, with that repository's LICENSE, in
`tests/e2e/apispec/pinned/`, so that `make test` needs nothing but the package registries;
`tests/e2e/apispec/pin.json` names the commit, its date and both files' SHA-256.

    python -m tools.discord_spec refresh           # pin the newest commit, replace the files, say what changed
    python -m tools.discord_spec refresh --commit SHA
    python -m tools.discord_spec where             # the file the tests use, or what is wrong with it

`refresh` is the one command that reaches outside (GitHub); `--from-git DIR` reads a local clone
(or bare mirror) of discord/discord-api-spec instead. After it: run the end-to-end tests
(tests/e2e, tests/reliability); a request the new spec rejects is either the bot's fault (fix it)
or a case for tests/e2e/apispec/allowances.py (a named exception citing Discord's docs); an
allowance whose schema is gone fails loudly. Commit pin.json and pinned/ with what the refresh
needed. `openapi_preview.json` (unstable features) is not used: the bot sends nothing that needs it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIN_FILE = ROOT / "tests" / "e2e" / "apispec" / "pin.json"
PINNED = ROOT / "tests" / "e2e" / "apispec" / "pinned"
SPEC_FILE, LICENSE_FILE = PINNED / "openapi.json", PINNED / "LICENSE"
REPOSITORY = "discord/discord-api-spec"
SPEC, LICENSE = "specs/openapi.json", "LICENSE"
METHODS = ("get", "put", "post", "patch", "delete")


def pin() -> dict:
    return json.loads(PIN_FILE.read_text(encoding="utf-8"))


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
def write(data: bytes, path: Path) -> None:
    """Replace a file whole (a refresh broken off leaves the old file, not half a new one)."""
    partial = path.with_suffix(".part")
    partial.write_bytes(data)
    partial.replace(path)


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
    """Pin `commit` (the newest that changed the spec by default): the spec, its licence and the
    pin replaced together; what changed from the file pinned before, a line an operation or schema."""
    if commit is None:
        commit, date = source.newest()
    else:
        date = source.date(commit)
    data, licence = source.read(commit, SPEC), source.read(commit, LICENSE)
    old = json.loads(SPEC_FILE.read_bytes()) if SPEC_FILE.is_file() else None
    PINNED.mkdir(parents=True, exist_ok=True)
    write(data, SPEC_FILE)
    write(licence, LICENSE_FILE)
    new = dict(pin(), commit=commit, date=date, sha256=sha256(data), licence_sha256=sha256(licence))
    PIN_FILE.write_text(json.dumps(new, indent=2) + "\n", encoding="utf-8")
    return changes(old, json.loads(data)) if old is not None else []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.discord_spec", description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("command", choices=("refresh", "where"))
    parser.add_argument("--from-git", metavar="DIR", help="a local clone of discord/discord-api-spec")
    parser.add_argument("--commit", help="refresh: pin this commit rather than the newest")
    args = parser.parse_args(argv)
    source = Git(args.from_git) if args.from_git else GitHub()
    if args.command == "where":
        from tests.e2e.apispec.source import SpecUnavailable, spec_file  # (the test side's check of the pin)

        try:
            print(spec_file())
        except SpecUnavailable as exc:
            print(exc)
            return 1
        return 0
    lines = refresh(source, args.commit)
    wanted = pin()
    print(f"pinned {REPOSITORY} {wanted['commit']} ({wanted['date']}) in {PIN_FILE.relative_to(ROOT)}")
    print("\n".join(lines) or "(no operation or schema changed)")
    print(
        f"now run tests/e2e and tests/reliability, and commit pin.json and {PINNED.relative_to(ROOT)}/ with what they needed"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
