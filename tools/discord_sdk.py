"""Vendor Discord's Embedded App SDK (`@discord/embedded-app-sdk`, MIT) for the Activity's page.

The page loads the SDK's built ES modules from our own server (Discord's frame allows no other
host, and there is no build step): this copies a pinned version's `output/*.mjs` and its licence
into `metrobot/web/vendor/embedded-app-sdk/`, with a checksum file that a test compares with the
files (`tests/web/test_activity_assets.py`). The page asks for them under an address holding the
version (`/activity/sdk/<version>/index.mjs`), so a new version is a new address and Discord's
proxy never serves a stale copy.

    python -m tools.discord_sdk refresh [--version 2.5.0]   # npm pack, check, copy (needs npm)
    python -m tools.discord_sdk check                        # the files match SHA256SUMS

`refresh` runs `npm pack` (the npm registry, through npm itself) into a temporary folder, checks
the tarball against the registry's `dist.integrity` (sha512), and replaces the vendored copy:
only the `.mjs` modules (the browser needs neither the CommonJS copies nor the type files) and
`LICENSE.md`, plus `VERSION` and `SHA256SUMS`. `make discord-sdk` runs it for the pinned version.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

PACKAGE = "@discord/embedded-app-sdk"
PINNED = "2.5.0"
ROOT = Path(__file__).resolve().parents[1]
VENDOR = ROOT / "metrobot" / "web" / "vendor" / "embedded-app-sdk"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def listing(folder: Path) -> dict[str, str]:
    """Every vendored file (but the checksum file itself) and its SHA-256, by relative path."""
    return {
        p.relative_to(folder).as_posix(): digest(p)
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "SHA256SUMS"
    }


def sums_text(files: dict[str, str]) -> str:
    return "".join(f"{h}  {name}\n" for name, h in files.items())


def check(folder: Path = VENDOR) -> list[str]:
    """What differs between the vendored files and SHA256SUMS (empty: they match)."""
    written = {}
    for line in (folder / "SHA256SUMS").read_text().splitlines():
        h, _, name = line.partition("  ")
        written[name] = h
    found = listing(folder)
    problems = [f"changed: {n}" for n in written if n in found and found[n] != written[n]]
    problems += [f"missing: {n}" for n in written if n not in found]
    problems += [f"not listed: {n}" for n in found if n not in written]
    return problems


def refresh(version: str = PINNED, folder: Path = VENDOR) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        meta = json.loads(
            subprocess.run(
                ["npm", "pack", f"{PACKAGE}@{version}", "--json", "--pack-destination", tmp],
                check=True,
                capture_output=True,
                text=True,
                cwd=tmp,
            ).stdout
        )[0]
        tarball = Path(tmp) / meta["filename"]
        algorithm, _, expected = meta["integrity"].partition("-")
        if (
            algorithm != "sha512"
            or base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode() != expected
        ):
            raise SystemExit(f"{tarball.name}: its sha512 is not the registry's integrity {meta['integrity']}")
        with tarfile.open(tarball) as tar:
            tar.extractall(tmp, filter="data")
        package = Path(tmp) / "package"
        if json.loads((package / "package.json").read_text())["version"] != version:
            raise SystemExit(f"npm packed another version than {version}")
        if folder.exists():
            shutil.rmtree(folder)
        (folder / "output").mkdir(parents=True)
        for module in sorted((package / "output").rglob("*.mjs")):
            target = folder / "output" / module.relative_to(package / "output")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(module, target)
        shutil.copyfile(package / "LICENSE.md", folder / "LICENSE.md")
        (folder / "VERSION").write_text(version + "\n")
        (folder / "SHA256SUMS").write_text(sums_text(listing(folder)))
    print(f"{PACKAGE} {version} ({meta['integrity'][:20]}…): {len(listing(folder)) - 2} files in {folder}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.discord_sdk", description=(__doc__ or "").split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    again = sub.add_parser("refresh", help="npm pack the SDK, check it and copy its modules here")
    again.add_argument("--version", default=PINNED)
    sub.add_parser("check", help="the vendored files match SHA256SUMS")
    args = parser.parse_args(argv)
    if args.what == "refresh":
        refresh(args.version)
        return 0
    problems = check()
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
