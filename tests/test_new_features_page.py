"""The operators' page "Turning on the new features" (issue 73) says what the code does: the
daily challenge refuses without the web pages, which `.env.example` leaves off; the settings it
names exist; and the limits it gives are the code's."""

from __future__ import annotations

import re
from pathlib import Path

from metrobot.daily import challenge as daily
from metrobot.service import server
from metrobot.tables import find as queue

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs/operators/new-features.md").read_text(encoding="utf-8")


def test_it_is_in_the_operators_index():
    index = (ROOT / "docs/operators/index.md").read_text(encoding="utf-8")
    assert "\nnew-features\n" in index and "(new-features.md)" in index


def test_the_web_pages_it_asks_for_are_off_in_the_example_and_the_daily_challenge_refuses_without_them():
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert re.search(r"^METROBOT_WEB_PORT=$", example, re.M)  # (why the page is needed at all)
    source = (ROOT / "metrobot/daily/challenge.py").read_text(encoding="utf-8")
    assert "if self.options.web_base is None:\n            raise Refused(" in source
    assert "`METROBOT_WEB_PORT=` empty" in PAGE and "this bot has no web pages" in PAGE


def test_the_settings_it_names_exist():
    settings = (ROOT / "metrobot/settings.py").read_text(encoding="utf-8")
    for name in set(re.findall(r"METROBOT_[A-Z_]+", PAGE)):
        assert f'"{name}"' in settings, name
    people = (ROOT / "metrobot/discord_app/people.py").read_text(encoding="utf-8")
    named = set(re.findall(r"`/server settings (\w+):", PAGE))
    assert named == {"daily_channel", "find_channel"}
    for name in named | {"max_hosted"}:  # (the options of /server settings)
        assert re.search(rf"^        {name}: ", people, re.M), name


def test_the_limits_it_gives_are_the_codes():
    assert f"the best\n  {daily.TABLE_LINES} of each game" in PAGE
    assert daily.CLOCK == 7 * 24 * 3600 and "turn clock is a week" in PAGE
    hours = {pace: seconds / 3600 for pace, seconds in queue.CONFIRM.items()}
    assert hours == {"sitting": 0.25, "few": 4, "day": 12}
    assert "within 15 minutes (in one sitting), 4 hours (a few moves a day) or\n  12 hours (a move a day)" in PAGE
    assert f"at most {queue.SHOWN} people who chose to be shown" in PAGE
    assert f"at most {server.MAX_LOBBIES} open lobbies" in PAGE and f"at most {server.MAX_HOSTED} open games" in PAGE


def test_the_lobby_cap_is_said_to_be_the_codes_not_a_setting():
    """Audit item 10: server-settings.md called it "the operator's limit"; no setting changes it."""
    page = " ".join((ROOT / "docs/admins/server-settings.md").read_text(encoding="utf-8").split())
    assert (
        f"at most {server.MAX_LOBBIES} lobbies waiting for players at once: a limit written in metrobot's code" in page
    )
    assert "operator's limit" not in page
    settings = (ROOT / "metrobot/settings.py").read_text(encoding="utf-8")
    assert "LOBBIES" not in settings  # (were there one, the docs would name it)


def test_the_admins_are_told_the_daily_challenge_needs_the_web_pages():
    """Audit item 7: the operators' and the admins' pages never said so."""
    page = " ".join((ROOT / "docs/admins/web.md").read_text(encoding="utf-8").split())
    assert (
        "The [daily challenge](../players/daily.md) is played on these pages, so it works only where they are on"
        in page
    )
    assert "(../operators/new-features.md)" in page
