"""Words a native speaker would write (issue 74): the translations a native-level reading found
wrong, and the English sources built so that no language could say them well. Each test names
one class of defect and fails on the catalogues (or the code) that had it."""

from __future__ import annotations

from metrobot.i18n import lang


def test_the_korean_clock_presets_say_what_they_are():
    # "a sitting" (15 minutes a bank) was 주말 게임, "a weekend game" 한자리에서: swapped
    ko = lang("ko")
    assert "주말" in ko.t("a weekend game") and "한자리" not in ko.t("a weekend game")
    assert "한자리" in ko.t("a sitting") and "주말" not in ko.t("a sitting")
