"""The end-to-end fixtures (``standin``, ``run_client``) live in ``fixtures.py`` so that other
suites (tests/reliability) can use them too.

Every test that runs the stand-in also checks, at its end, that every file our bot uploaded
carries alt text (Discord's attachment ``description``: what a screen reader reads instead of
"image"), at most Discord's 1,024 characters (issue 35). A module of tests of the stand-in
itself, with no bot of ours, sets ``CHECK_ALT_TEXT = False``.
"""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fixtures import ClientRunner, StandInTimeout, run_client, standin  # noqa: E402,F401

ALT_TEXT_LIMIT = 1024


def undescribed(server) -> list[str]:
    """The bot's uploads without alt text, or with too much."""
    out = []
    for a in server.uploads():
        text = (a.description or "").strip()
        if not text or len(a.description) > ALT_TEXT_LIMIT:
            out.append(f"{a.filename}: {len(a.description or '')} characters {(a.description or '')[:80]!r}")
    return out


@pytest.fixture(autouse=True)
def every_upload_has_alt_text(request):
    checked = "standin" in request.fixturenames and getattr(request.module, "CHECK_ALT_TEXT", True)
    server = request.getfixturevalue("standin") if checked else None
    yield
    if server is not None:
        missing = undescribed(server)
        if missing:
            pytest.fail(f"{len(missing)} of {len(server.uploads())} files the bot uploaded have no alt text or "
                        "more than 1,024 characters:\n" + "\n".join(missing[:20]), pytrace=False)
