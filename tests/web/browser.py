"""A real headless Chromium for the web pages' tests: Debian's `chromium-headless-shell`, driven
by Playwright (see docs/developers/testing.md, "The web pages"), and axe-core for accessibility.

The browser is found at CHROMIUM_PATH, then Debian's places, then on PATH. Without one the
tests skip, saying how to install it — except under CI (CI=true), where they fail: a browser
test that silently never runs proves nothing. `.ci/run` and `make test` install it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

INSTALL = "apt-get update && apt-get install -y --no-install-recommends chromium-headless-shell (or set CHROMIUM_PATH)"
PLACES = ("/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/chromium")
SERIOUS = ("serious", "critical")


def chromium_path() -> str | None:
    for candidate in (os.environ.get("CHROMIUM_PATH"), *PLACES):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    for name in ("chromium-headless-shell", "chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def need_chromium() -> str:
    path = chromium_path()
    if path is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"no Chromium for the browser tests under CI: {INSTALL}", pytrace=False)
        pytest.skip(f"no Chromium for the browser tests: {INSTALL}")
    return path


async def launch(playwright: Any) -> Any:
    return await playwright.chromium.launch(executable_path=need_chromium(), headless=True)


class Watched:
    """A page whose console errors and uncaught exceptions are kept (none may happen)."""

    def __init__(self, page: Any):
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))


async def axe_problems(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    from axe_playwright_python.async_playwright import Axe

    results = await Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v.get("impact") in SERIOUS
    ]
