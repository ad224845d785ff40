"""The four real-city sheets of the flip-and-write game: playable data and a drawable schematic.

Every map must load through the strict loader, respect the sheet-design bounds of the rules
(9-10 lines, 20-25 wagon windows, one ring line in Berlin and Madrid only), share plenty of
real interchanges, and have schematic coordinates a renderer can draw as a clean diagram:
no two stations on top of each other, no station sitting on a line that does not serve it,
no overlong segments, distinguishable line colours.
"""

from __future__ import annotations

import math
import re
import unicodedata
from itertools import combinations

import pytest

from metrobot.games.flipwrite.mapdata import COORD_MAX, load_map, map_names

CITIES = ["amsterdam", "berlin", "paris", "madrid"]
RING_CITIES = {"berlin", "madrid"}

MIN_STATION_GAP = 28.0  # any two stations at least this far apart
MIN_SEGMENT_CLEARANCE = 10.0  # a station keeps this distance from lines that do not serve it
MAX_SEGMENT = 160.0  # consecutive stations of a line at most this far apart
MIN_COLOUR_DISTANCE = 60.0  # Euclidean RGB distance between two line colours of one map


def _segments(line):
    pairs = list(zip(line.stations, line.stations[1:]))
    if line.ring:
        pairs.append((line.stations[-1], line.stations[0]))
    return pairs


def _point_segment_distance(p, a, b):
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def _rgb(colour):
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def _xy(m, sid):
    s = m.stations[sid]
    return (s.x, s.y)


@pytest.fixture(params=CITIES)
def city(request):
    return load_map(request.param)


def test_all_four_maps_are_installed():
    assert set(CITIES) <= set(map_names())


def test_map_identity(city):
    assert city.id in CITIES
    assert city.name and city.name[0].isupper()
    assert [l.id for l in city.lines] == list("ABCDEFGHIJ"[: len(city.lines)])


def test_sheet_bounds(city):
    assert 9 <= len(city.lines) <= 10
    total = sum(l.windows for l in city.lines)
    assert 20 <= total <= 25, f"{city.name}: {total} windows"
    for line in city.lines:
        assert 1 <= line.windows <= 4
        # about 10-16 stations; a few short real lines (Madrid L8, Amsterdam 52) and the rings a bit outside
        assert 8 <= len(line.stations) <= 17, f"{city.name} {line.name}: {len(line.stations)} stations"
        assert 1 <= line.low < line.high <= 8, f"{city.name} {line.name}: {line.high}/{line.low}"


def test_values_rise_with_difficulty(city):
    """Stations needed per wagon window drive the value: the hardest line is worth at least as
    much as the easiest one, and clearly more when it is much harder."""
    lines = sorted(city.lines, key=lambda l: len(l.stations) / l.windows)
    easiest, hardest = lines[0], lines[-1]
    assert hardest.high >= easiest.high
    if len(hardest.stations) / hardest.windows >= 1.5 * len(easiest.stations) / easiest.windows:
        assert hardest.high > easiest.high


def test_ring_lines(city):
    rings = [l for l in city.lines if l.ring]
    if city.id in RING_CITIES:
        assert len(rings) == 1, f"{city.name} needs exactly one ring line"
        assert len(rings[0].stations) >= 10
    else:
        assert rings == []


def test_station_names_and_ids(city):
    for sid, s in city.stations.items():
        assert re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)*", sid), sid
        # the id is the name transliterated to ascii snake_case
        plain = unicodedata.normalize("NFKD", s.name.replace("ß", "ss").replace("œ", "oe"))
        plain = "".join(c for c in plain if not unicodedata.combining(c)).lower()
        assert sid == re.sub(r"[^a-z0-9]+", "_", plain).strip("_"), (sid, s.name)
        assert 0 <= s.x <= COORD_MAX and 0 <= s.y <= COORD_MAX


def test_plenty_of_interchanges(city):
    counts = [len(city.lines_at(sid)) for sid in city.stations]
    assert sum(c >= 2 for c in counts) >= 12
    assert sum(c >= 3 for c in counts) >= 2
    for line in city.lines:
        shared = [sid for sid in line.stations if len(city.lines_at(sid)) >= 2]
        assert len(shared) >= 2, f"{city.name} {line.name} meets the other lines only {len(shared)} times"


def test_network_is_connected(city):
    reached = {city.lines[0].id}
    changed = True
    while changed:
        changed = False
        for line in city.lines:
            if line.id in reached:
                continue
            if any(set(city.lines_at(sid)) & reached for sid in line.stations):
                reached.add(line.id)
                changed = True
    assert reached == {l.id for l in city.lines}


def test_special_stations(city):
    special = [sid for sid, s in city.stations.items() if s.special]
    assert 5 <= len(special) <= 8
    lines_with_special = {lid for sid in special for lid in city.lines_at(sid)}
    assert len(lines_with_special) >= 5, "special stations should be spread over the lines"
    assert any(len(city.lines_at(sid)) == 1 for sid in special), "not only interchanges"


def test_stations_keep_apart(city):
    for a, b in combinations(city.stations, 2):
        d = math.dist(_xy(city, a), _xy(city, b))
        assert d >= MIN_STATION_GAP, f"{city.name}: {a} and {b} only {d:.1f} apart"


def test_segments_are_short_enough(city):
    for line in city.lines:
        for a, b in _segments(line):
            d = math.dist(_xy(city, a), _xy(city, b))
            assert d <= MAX_SEGMENT, f"{city.name} {line.name}: {a}-{b} is {d:.0f} long"


def test_no_station_on_a_foreign_line(city):
    for line in city.lines:
        serves = set(line.stations)
        for a, b in _segments(line):
            pa, pb = _xy(city, a), _xy(city, b)
            for sid in city.stations:
                if sid in serves:
                    continue
                d = _point_segment_distance(_xy(city, sid), pa, pb)
                assert d >= MIN_SEGMENT_CLEARANCE, (
                    f"{city.name}: {sid} lies on {line.name} between {a} and {b} ({d:.1f})"
                )


def test_schematic_is_mostly_octilinear(city):
    """A metro diagram: horizontal, vertical and 45-degree segments (a few exceptions allowed)."""
    total = bad = 0
    for line in city.lines:
        for a, b in _segments(line):
            (x0, y0), (x1, y1) = _xy(city, a), _xy(city, b)
            angle = math.degrees(math.atan2(y1 - y0, x1 - x0)) % 45
            total += 1
            bad += min(angle, 45 - angle) > 3
    assert bad <= total * 0.1, f"{city.name}: {bad} of {total} segments are not octilinear"


def test_drawing_uses_a_landscape_box(city):
    xs = [s.x for s in city.stations.values()]
    ys = [s.y for s in city.stations.values()]
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    assert width >= 800
    assert height >= 450
    assert width >= height


def test_line_colours_are_distinct(city):
    for l1, l2 in combinations(city.lines, 2):
        d = math.dist(_rgb(l1.colour), _rgb(l2.colour))
        assert d >= MIN_COLOUR_DISTANCE, f"{city.name}: {l1.name} {l1.colour} vs {l2.name} {l2.colour}"


def test_to_json_round_trips(city):
    from metrobot.games.flipwrite.mapdata import parse_map

    again = parse_map(city.to_json())
    assert again.to_json() == city.to_json()
