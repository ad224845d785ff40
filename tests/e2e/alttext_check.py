"""Every file our bot uploads carries alt text (issue 35): Discord's attachment
``description``, what a screen reader reads instead of "image", at most 1,024 characters
(a data file too: `/me data`'s JSON says what it is).

``every_upload_has_alt_text`` is an autouse fixture of the e2e and reliability suites (their
conftest.py import it): at the end of each test that runs the stand-in, it reads what the
bot uploaded (``standin.uploads()``) and fails on a file without alt text or with too much.
A module of tests of the stand-in itself, with no bot of ours, sets ``CHECK_ALT_TEXT = False``.
"""

from __future__ import annotations

import pytest

ALT_TEXT_LIMIT = 1024


def undescribed(server) -> list[str]:
    """The uploads without alt text, or with too much."""
    out = []
    for a in server.uploads():
        if not (a.description or "").strip() or len(a.description) > ALT_TEXT_LIMIT:
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
            pytest.fail(
                f"{len(missing)} of {len(server.uploads())} files the bot uploaded have no alt text or "
                "more than 1,024 characters:\n" + "\n".join(missing[:20]),
                pytrace=False,
            )
