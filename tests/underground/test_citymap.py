"""The general map tool (tools/citymap.py): London rebuilt byte for byte, and every mistake
in a city's data refused with a message naming the stations at fault."""

from __future__ import annotations

import copy
import types

import pytest

from tools import citymap
from tools.cities import berlin
from tools.citymap import CityMapError


def city(**changes):
    """A copy of Berlin's data with some fields changed."""
    data = {f: copy.deepcopy(getattr(berlin, f)) for f in citymap.FIELDS}
    data.update(changes)
    return types.SimpleNamespace(**data)


def refused(message: str, c) -> str:
    with pytest.raises(CityMapError) as info:
        data = citymap.build(c, "test")
        citymap.check_labels(c, data)
    assert message in str(info.value), str(info.value)
    return str(info.value)


def test_the_cities_build():
    assert citymap.cities() == ["berlin", "london"]
    assert citymap.build(city(), "berlin")["start"] == "Alexanderplatz"
    assert citymap.main(["--all", "--check"]) == 0


def test_an_unknown_station_in_a_route():
    routes = copy.deepcopy(berlin.ROUTES)
    routes["U8"][0][13] = "Weinmeisterstrase"  # a typing mistake
    refused("line U8: station Weinmeisterstrase has no coordinates in POS and is not in LEFT_OUT", city(ROUTES=routes))


def test_a_kept_station_without_coordinates():
    pos = dict(berlin.POS)
    del pos["Hansaplatz"]
    refused("line U9: station Hansaplatz has no coordinates", city(POS=pos))


def test_a_station_kept_and_left_out_or_served_by_no_line():
    refused("kept (in POS) and left out at once: Hansaplatz", city(LEFT_OUT=berlin.LEFT_OUT | {"Hansaplatz"}))
    refused(
        "left out but served by no line: Französische Straße", city(LEFT_OUT=berlin.LEFT_OUT | {"Französische Straße"})
    )
    refused("kept but served by no line: Tegel", city(POS={**berlin.POS, "Tegel": (50.0, 1.0)}))


def test_same_needs_a_station_on_the_board():
    refused("SAME shows Zoo as Bahnhof Zoo, which has no coordinates", city(SAME={"Zoo": "Bahnhof Zoo"}))


def test_flags_on_left_out_or_unknown_stations():
    refused(
        "NATIONAL_RAIL names left-out station(s): Borsigwerke",
        city(NATIONAL_RAIL=berlin.NATIONAL_RAIL | {"Borsigwerke"}),
    )
    express = list(berlin.EXPRESS)
    express[0] = "Alexanderplatz Süd"
    refused("EXPRESS names station(s) not on the board: Alexanderplatz Süd", city(EXPRESS=express))
    refused("START names left-out station(s): Rohrdamm", city(START="Rohrdamm"))


def test_numbers_of_connections_and_destinations():
    refused("7 connection stations", city(CONNECTIONS=berlin.CONNECTIONS - {"Stadtmitte"}))
    refused("21 express destinations; the deck has 22", city(EXPRESS=berlin.EXPRESS[:-1]))
    refused("EXPRESS lists Tempelhof twice", city(EXPRESS=berlin.EXPRESS[:-1] + ["Tempelhof"]))
    refused("express and standard destination at once: Tempelhof", city(STANDARD=berlin.STANDARD[:-1] + ["Tempelhof"]))
    refused(
        "the start station Alexanderplatz may not be a destination",
        city(STANDARD=berlin.STANDARD[:-1] + ["Alexanderplatz"]),
    )


def test_termini_must_be_the_line_ends():
    message = refused("termini differ from TERMINI", city(TERMINI=berlin.TERMINI - {"Rudow"} | {"Britz-Süd"}))
    assert "not listed ['Rudow']" in message and "not line ends ['Britz-Süd']" in message


def test_crossing_gaps_name_their_four_stations():
    pos = dict(berlin.POS)
    x, y = pos["Rudow"]
    pos["Alt-Mariendorf"] = (x - 3, y - 3)  # the U6's last gap drawn east, across the U7 and U8
    message = refused(" cross", city(POS=pos))
    assert "Tempelhof–Alt-Mariendorf and gap #" in message and "Grenzallee–Britz-Süd cross" in message


def test_stations_too_close():
    pos = dict(berlin.POS)
    x, y = pos["Rudow"]
    pos["Britz-Süd"] = (x - 1.5, y)
    refused("stations Britz-Süd and Rudow are 1.50 apart", city(POS=pos))


def test_two_names_typed_the_same():
    pos = {**berlin.POS, "Moeckernbruecke": berlin.POS["Möckernbrücke"]}
    del pos["Möckernbrücke"]
    routes = {
        line: [[("Moeckernbruecke" if s == "Möckernbrücke" else s) for s in b] for b in bs]
        for line, bs in berlin.ROUTES.items()
    }
    routes["U7"][0][23] = "Möckernbrücke"
    refused(
        "stations Moeckernbruecke and Möckernbrücke would be typed the same",
        city(POS={**pos, "Möckernbrücke": (60.0, 99.0)}, ROUTES=routes),
    )


def test_names_drawn_over_each_other():
    refused("names drawn over each other: ", city(LABEL={"Museumsinsel": "e", "Rotes Rathaus": "w"}))
