"""Words a native speaker would write (issue 74): the translations a native-level reading found
wrong, and the English sources built so that no language could say them well. Each test names
one class of defect and fails on the catalogues (or the code) that had it."""

from __future__ import annotations

import re

from metrobot.i18n import lang


def test_the_korean_clock_presets_say_what_they_are():
    # "a sitting" (15 minutes a bank) was 주말 게임, "a weekend game" 한자리에서: swapped
    ko = lang("ko")
    assert "주말" in ko.t("a weekend game") and "한자리" not in ko.t("a weekend game")
    assert "한자리" in ko.t("a sitting") and "주말" not in ko.t("a sitting")


def _translations(code: str, where: str) -> dict[str, str]:
    """A language's translations of the texts a file of the code (or a template) says."""
    from tools.translations import LOCALES, read

    found = {}
    for message in read(LOCALES / f"{code}.po", code):
        if message.id and any(path == where for path, _ in message.locations):
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            found[message.id if isinstance(message.id, str) else message.id[0]] = " ".join(strings)
    return found


def test_french_speaks_to_the_player_with_tu_in_the_daily_challenge_too():
    assert lang("fr").t("(you)") == "(toi)"
    daily = _translations("fr", "metrobot/service/daily.py")
    assert len(daily) > 10
    said = {english: text for english, text in daily.items() if re.search(r"(?i)\b(vous|votre|vos|vôtre)\b", text)}
    assert said == {}


def test_the_daily_replay_is_watched_not_played_again():
    # (the daily is played once: "wiederholen" / "repetirlo" said play it again)
    text = "Your {game} challenge of {day} is not over yet: it can be replayed once it is."
    assert "Replay" in lang("de").t(text) and "wiederhol" not in lang("de").t(text).lower()
    assert "ver la repetición" in lang("es").t(text)
