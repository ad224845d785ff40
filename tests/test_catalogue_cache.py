"""The compiled catalogues kept in the user's cache (metrobot/i18n: `_catalogue`): the same
texts as a catalogue compiled anew, an edited .po compiled again, and a cache that is broken
or cannot be written changes nothing but the time a start takes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from metrobot import i18n

TEXT = "Only the host starts the game."


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "metrobot" / "catalogues"


def test_a_catalogue_is_compiled_once_then_read_from_the_cache(cache):
    first = i18n._catalogue("nl").gettext(TEXT)
    assert first != TEXT  # (translated)
    (kept,) = cache.glob("nl-*.mo")
    os.utime(kept, (1, 1))
    assert i18n._catalogue("nl").gettext(TEXT) == first
    assert list(cache.glob("nl-*.mo")) == [kept] and kept.stat().st_mtime == 1  # read, not written again


def test_an_edited_po_is_compiled_again(cache, tmp_path, monkeypatch):
    locales = tmp_path / "locales"
    locales.mkdir()
    source = (i18n.LOCALES / "nl.po").read_text(encoding="utf-8")
    translated = i18n._catalogue("nl").gettext(TEXT)
    monkeypatch.setattr(i18n, "LOCALES", locales)
    (locales / "nl.po").write_text(source.replace(f'"{translated}"', '"Alleen de gastvrouw start."'), encoding="utf-8")
    assert i18n._catalogue("nl").gettext(TEXT) == "Alleen de gastvrouw start."
    assert len(list(cache.glob("nl-*.mo"))) == 2


def test_a_broken_or_unwritable_cache_changes_nothing(cache):
    expected = i18n._catalogue("ko").gettext(TEXT)
    (kept,) = cache.glob("ko-*.mo")
    kept.write_bytes(b"not a catalogue")
    assert i18n._catalogue("ko").gettext(TEXT) == expected
    for f in cache.iterdir():
        f.unlink()
    cache.rmdir()
    cache.write_text("a file where the folder should be")  # nothing can be kept
    assert i18n._catalogue("ko").gettext(TEXT) == expected


def test_a_kind_keeps_at_most_its_limit_of_files_the_oldest_go(tmp_path, monkeypatch):
    import os

    from metrobot import cachefiles

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(cachefiles, "LIMIT", 3)
    for i in range(5):
        cachefiles.keep("things", f"{i}.bin", bytes([i]))
        os.utime(tmp_path / "metrobot" / "things" / f"{i}.bin", (1_000_000 + i, 1_000_000 + i))
    assert sorted(p.name for p in (tmp_path / "metrobot" / "things").iterdir()) == ["2.bin", "3.bin", "4.bin"]
    assert cachefiles.kept("things", "4.bin") == b"\x04" and cachefiles.kept("things", "0.bin") is None
