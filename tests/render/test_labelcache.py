"""Station names placed once and kept between runs (metrobot/render/labelcache.py): what is read back
is what the search finds; other inputs, other drawing code, a damaged file, an unwritable cache
and a caller that wants the search explained all search again."""

from __future__ import annotations

from typing import Any

import pytest

from metrobot.render import labelcache, labels

# A small map: three stations on a line, one badge in the way.
STATIONS = [
    ("a", "Alexanderplatz", (100.0, 100.0), 6.0),
    ("b", "Bank", (160.0, 100.0), 6.0),
    ("c", "Kings Cross St. Pancras", (220.0, 100.0), 6.0),
]
SEGMENTS = [((100.0, 100.0), (160.0, 100.0)), ((160.0, 100.0), (220.0, 100.0))]
ARGS = (STATIONS, SEGMENTS, 6.0, 4.0, 16, [(150.0, 110.0, 170.0, 130.0)], (0.0, 0.0, 400.0, 300.0))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "metrobot" / "labels"


def counted() -> tuple[list[int], Any]:
    """The bot's placement, kept between runs as the bot's is, counting its searches."""
    made: list[int] = []

    def search(*args, **kwargs):
        made.append(1)
        return labels.search_labels(*args, **kwargs)

    return made, labelcache.kept_between_runs(search)


def test_the_bots_placement_is_kept_and_read_as_it_was_found(cache):
    assert labels.place_labels(*ARGS) == labels.search_labels(*ARGS)
    assert len(list(cache.glob("*.json"))) == 1
    again = labels.place_labels(*ARGS)
    assert again == labels.search_labels(*ARGS)
    assert all(isinstance(x.rect, tuple) and isinstance(x.lines, tuple) for x in again)


def test_the_names_are_searched_once_then_read(cache):
    made, place = counted()
    first = place(*ARGS)
    assert made == [1] and place(*ARGS) == first and made == [1]


def test_other_inputs_or_other_code_are_searched_again(cache, monkeypatch):
    made, place = counted()
    place(*ARGS)
    moved = [(sid, name, (x, y + 40.0), r) for sid, name, (x, y), r in STATIONS]
    place(moved, *ARGS[1:])
    place(*ARGS, hints={"b": "n"})
    assert made == [1, 1, 1] and len(list(cache.glob("*.json"))) == 3
    monkeypatch.setattr(labelcache, "_made_of", lambda: b"other drawing code or fonts")
    place(*ARGS)
    assert made == [1, 1, 1, 1] and len(list(cache.glob("*.json"))) == 4


def test_a_damaged_file_is_searched_again_and_kept_again(cache):
    made, place = counted()
    first = place(*ARGS)
    (kept,) = cache.glob("*.json")
    kept.write_text('[{"sid": "a"}]')
    assert place(*ARGS) == first and made == [1, 1]
    assert place(*ARGS) == first and made == [1, 1]


def test_without_a_cache_the_names_are_searched_every_time(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))  # (a file: no directory can be made there)
    made, place = counted()
    assert place(*ARGS) == place(*ARGS) and made == [1, 1]
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(labelcache, "KEEP", False)
    place(*ARGS)
    assert made == [1, 1, 1] and not (tmp_path / "metrobot").exists()


def test_a_search_explained_is_made_and_not_kept(cache):
    made, place = counted()
    place(*ARGS)
    explain: dict = {}
    place(*ARGS, explain=explain)
    assert made == [1, 1] and explain and len(list(cache.glob("*.json"))) == 1


def test_arguments_that_are_not_plain_data_are_searched(cache):
    made, place = counted()
    odd = [(sid, name, xy, r) for sid, name, xy, r in STATIONS]
    place(odd, SEGMENTS, 6.0, 4.0, 16, {(150.0, 110.0, 170.0, 130.0)}, ARGS[6])  # (a set: not JSON)
    assert made == [1] and not cache.exists()
