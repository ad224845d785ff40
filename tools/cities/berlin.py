"""The facts the Berlin board of On the Underground is made from, kept by hand (built by
`python -m tools.citymap berlin`): the U-Bahn lines U1-U9 as run today, the stations left
out, the stations kept with our own schematic coordinates, and the flags of the rules.

Sources: the station sequences are those of BVG's network map and the German Wikipedia
articles on each line (U-Bahn-Linie U1 ... U9), cross-checked against a public data set of
Berlin stations with their lines and positions (used only to place our first rough
drawing). As run in 2026: U3 to Warschauer Straße (since 2018), U5 from Hauptbahnhof via
Unter den Linden and Museumsinsel (2020/2021), U6 without Französische Straße (closed
2020), U2's Mohrenstraße renamed Anton-Wilhelm-Amo-Straße (August 2025). U3's extension to
Mexikoplatz is not open yet.
"""

from __future__ import annotations

TITLE = "Berlin U-Bahn"
START = "Alexanderplatz"

# --- the real network -------------------------------------------------------------------

# Hand-laid tables (stations in route order, a few a line, as on the map): not for the formatter.
# fmt: off
ROUTES: dict[str, list[list[str]]] = {
    "U1": [[
        "Uhlandstraße", "Kurfürstendamm", "Wittenbergplatz", "Nollendorfplatz", "Kurfürstenstraße",
        "Gleisdreieck", "Möckernbrücke", "Hallesches Tor", "Prinzenstraße", "Kottbusser Tor",
        "Görlitzer Bahnhof", "Schlesisches Tor", "Warschauer Straße",
    ]],
    "U2": [[
        "Pankow", "Vinetastraße", "Schönhauser Allee", "Eberswalder Straße", "Senefelderplatz",
        "Rosa-Luxemburg-Platz", "Alexanderplatz", "Klosterstraße", "Märkisches Museum", "Spittelmarkt",
        "Hausvogteiplatz", "Stadtmitte", "Anton-Wilhelm-Amo-Straße", "Potsdamer Platz",
        "Mendelssohn-Bartholdy-Park", "Gleisdreieck", "Bülowstraße", "Nollendorfplatz", "Wittenbergplatz",
        "Zoologischer Garten", "Ernst-Reuter-Platz", "Deutsche Oper", "Bismarckstraße",
        "Sophie-Charlotte-Platz", "Kaiserdamm", "Theodor-Heuss-Platz", "Neu-Westend", "Olympia-Stadion",
        "Ruhleben",
    ]],
    "U3": [[
        "Krumme Lanke", "Onkel Toms Hütte", "Oskar-Helene-Heim", "Freie Universität (Thielplatz)",
        "Dahlem-Dorf", "Podbielskiallee", "Breitenbachplatz", "Rüdesheimer Platz", "Heidelberger Platz",
        "Fehrbelliner Platz", "Hohenzollernplatz", "Spichernstraße", "Augsburger Straße", "Wittenbergplatz",
        "Nollendorfplatz", "Kurfürstenstraße", "Gleisdreieck", "Möckernbrücke", "Hallesches Tor",
        "Prinzenstraße", "Kottbusser Tor", "Görlitzer Bahnhof", "Schlesisches Tor", "Warschauer Straße",
    ]],
    "U4": [[
        "Nollendorfplatz", "Viktoria-Luise-Platz", "Bayerischer Platz", "Rathaus Schöneberg",
        "Innsbrucker Platz",
    ]],
    "U5": [[
        "Hauptbahnhof", "Bundestag", "Brandenburger Tor", "Unter den Linden", "Museumsinsel",
        "Rotes Rathaus", "Alexanderplatz", "Schillingstraße", "Strausberger Platz", "Weberwiese",
        "Frankfurter Tor", "Samariterstraße", "Frankfurter Allee", "Magdalenenstraße", "Lichtenberg",
        "Friedrichsfelde", "Tierpark", "Biesdorf-Süd", "Elsterwerdaer Platz", "Wuhletal", "Kaulsdorf-Nord",
        "Kienberg (Gärten der Welt)", "Cottbusser Platz", "Hellersdorf", "Louis-Lewin-Straße", "Hönow",
    ]],
    "U6": [[
        "Alt-Tegel", "Borsigwerke", "Holzhauser Straße", "Otisstraße", "Scharnweberstraße",
        "Kurt-Schumacher-Platz", "Afrikanische Straße", "Rehberge", "Seestraße", "Leopoldplatz", "Wedding",
        "Reinickendorfer Straße", "Schwartzkopffstraße", "Naturkundemuseum", "Oranienburger Tor",
        "Friedrichstraße", "Unter den Linden", "Stadtmitte", "Kochstraße/Checkpoint Charlie",
        "Hallesches Tor", "Mehringdamm", "Platz der Luftbrücke", "Paradestraße", "Tempelhof",
        "Alt-Tempelhof", "Kaiserin-Augusta-Straße", "Ullsteinstraße", "Westphalweg", "Alt-Mariendorf",
    ]],
    "U7": [[
        "Rathaus Spandau", "Altstadt Spandau", "Zitadelle", "Haselhorst", "Paulsternstraße", "Rohrdamm",
        "Siemensdamm", "Halemweg", "Jakob-Kaiser-Platz", "Jungfernheide", "Mierendorffplatz",
        "Richard-Wagner-Platz", "Bismarckstraße", "Wilmersdorfer Straße", "Adenauerplatz",
        "Konstanzer Straße", "Fehrbelliner Platz", "Blissestraße", "Berliner Straße", "Bayerischer Platz",
        "Eisenacher Straße", "Kleistpark", "Yorckstraße", "Möckernbrücke", "Mehringdamm",
        "Gneisenaustraße", "Südstern", "Hermannplatz", "Rathaus Neukölln", "Karl-Marx-Straße", "Neukölln",
        "Grenzallee", "Blaschkoallee", "Parchimer Allee", "Britz-Süd", "Johannisthaler Chaussee",
        "Lipschitzallee", "Wutzkyallee", "Zwickauer Damm", "Rudow",
    ]],
    "U8": [[
        "Wittenau", "Rathaus Reinickendorf", "Karl-Bonhoeffer-Nervenklinik", "Lindauer Allee",
        "Paracelsus-Bad", "Residenzstraße", "Franz-Neumann-Platz", "Osloer Straße", "Pankstraße",
        "Gesundbrunnen", "Voltastraße", "Bernauer Straße", "Rosenthaler Platz", "Weinmeisterstraße",
        "Alexanderplatz", "Jannowitzbrücke", "Heinrich-Heine-Straße", "Moritzplatz", "Kottbusser Tor",
        "Schönleinstraße", "Hermannplatz", "Boddinstraße", "Leinestraße", "Hermannstraße",
    ]],
    "U9": [[
        "Osloer Straße", "Nauener Platz", "Leopoldplatz", "Amrumer Straße", "Westhafen", "Birkenstraße",
        "Turmstraße", "Hansaplatz", "Zoologischer Garten", "Kurfürstendamm", "Spichernstraße",
        "Güntzelstraße", "Berliner Straße", "Bundesplatz", "Friedrich-Wilhelm-Platz",
        "Walther-Schreiber-Platz", "Schloßstraße", "Rathaus Steglitz",
    ]],
}

# Every station has one name in Berlin: nothing is shown as one.
SAME: dict[str, str] = {}

# Intermediate stations of the outer stretches, as London left out its suburbs: every
# interchange, the centre and every real line end stay.
LEFT_OUT = {
    "Neu-Westend", "Vinetastraße", "Onkel Toms Hütte", "Oskar-Helene-Heim", "Podbielskiallee",
    "Magdalenenstraße", "Biesdorf-Süd", "Elsterwerdaer Platz", "Kaulsdorf-Nord", "Kienberg (Gärten der Welt)",
    "Cottbusser Platz", "Louis-Lewin-Straße", "Borsigwerke", "Holzhauser Straße", "Otisstraße",
    "Scharnweberstraße", "Afrikanische Straße", "Rehberge", "Paradestraße", "Alt-Tempelhof",
    "Kaiserin-Augusta-Straße", "Ullsteinstraße", "Westphalweg", "Altstadt Spandau", "Haselhorst",
    "Paulsternstraße", "Rohrdamm", "Halemweg", "Blaschkoallee", "Parchimer Allee", "Johannisthaler Chaussee",
    "Lipschitzallee", "Wutzkyallee", "Zwickauer Damm", "Rathaus Reinickendorf", "Lindauer Allee",
    "Residenzstraße", "Friedrich-Wilhelm-Platz",
}

# --- the board: kept stations and where they are drawn (x right, y down) ---------------

POS: dict[str, tuple[float, float]] = {
    "Uhlandstraße": (29, 58), "Kurfürstendamm": (32.5, 56), "Wittenbergplatz": (39, 60),
    "Nollendorfplatz": (48, 65), "Kurfürstenstraße": (59.5, 65.5), "Gleisdreieck": (77.5, 67.5),
    "Möckernbrücke": (89, 67.5), "Hallesches Tor": (96, 67.5), "Prinzenstraße": (107.5, 64),
    "Kottbusser Tor": (116, 63), "Görlitzer Bahnhof": (122, 61.5), "Schlesisches Tor": (127.5, 59),
    "Warschauer Straße": (131, 54.5), "Pankow": (105, 6.5), "Schönhauser Allee": (107, 12.5),
    "Eberswalder Straße": (108.5, 17.5), "Senefelderplatz": (110, 23), "Rosa-Luxemburg-Platz": (111, 29),
    "Alexanderplatz": (112, 35), "Klosterstraße": (112, 41), "Märkisches Museum": (107.5, 45.5),
    "Spittelmarkt": (102, 46), "Hausvogteiplatz": (97, 45.5), "Stadtmitte": (91.5, 45),
    "Anton-Wilhelm-Amo-Straße": (86.5, 46), "Potsdamer Platz": (82, 50),
    "Mendelssohn-Bartholdy-Park": (79.5, 60), "Bülowstraße": (63, 69),
    "Zoologischer Garten": (32.5, 52.5), "Ernst-Reuter-Platz": (28.5, 47), "Deutsche Oper": (25, 47.5),
    "Bismarckstraße": (22, 48), "Sophie-Charlotte-Platz": (19, 49), "Kaiserdamm": (15.5, 50),
    "Theodor-Heuss-Platz": (12.5, 50), "Olympia-Stadion": (10, 46), "Ruhleben": (9.5, 41),
    "Krumme Lanke": (16, 86.5), "Freie Universität (Thielplatz)": (24.5, 87.5), "Dahlem-Dorf": (27, 85),
    "Breitenbachplatz": (31, 84), "Rüdesheimer Platz": (31.5, 81), "Heidelberger Platz": (29, 77),
    "Fehrbelliner Platz": (27.5, 69.5), "Hohenzollernplatz": (30, 67.5), "Spichernstraße": (33.5, 65.5),
    "Augsburger Straße": (35, 61.5), "Viktoria-Luise-Platz": (40.5, 67.5), "Bayerischer Platz": (41, 74.5),
    "Rathaus Schöneberg": (44, 79), "Innsbrucker Platz": (47, 81.5), "Hauptbahnhof": (70, 30),
    "Bundestag": (76, 34), "Brandenburger Tor": (83, 38), "Unter den Linden": (91, 38),
    "Museumsinsel": (98, 38), "Rotes Rathaus": (105, 38), "Schillingstraße": (119, 35),
    "Strausberger Platz": (125, 38), "Weberwiese": (130, 41), "Frankfurter Tor": (134, 43),
    "Samariterstraße": (137.5, 45.5), "Frankfurter Allee": (141, 47.5), "Lichtenberg": (144.5, 50),
    "Friedrichsfelde": (147, 54.5), "Tierpark": (150.5, 60.5), "Wuhletal": (155, 51),
    "Hellersdorf": (152.5, 43.5), "Hönow": (156, 37.5), "Alt-Tegel": (31.5, 9.5),
    "Kurt-Schumacher-Platz": (44, 13.5), "Seestraße": (60.5, 16.5), "Leopoldplatz": (65, 17.5),
    "Wedding": (69, 18.5), "Reinickendorfer Straße": (73, 20), "Schwartzkopffstraße": (79, 22.5),
    "Naturkundemuseum": (84, 25), "Oranienburger Tor": (90, 28), "Friedrichstraße": (90.5, 33),
    "Kochstraße/Checkpoint Charlie": (93, 54), "Mehringdamm": (93, 72),
    "Platz der Luftbrücke": (88, 79), "Tempelhof": (84.5, 87.5), "Alt-Mariendorf": (83, 96.5),
    "Rathaus Spandau": (4, 38.5), "Zitadelle": (7, 36.5), "Siemensdamm": (17, 32.5),
    "Jakob-Kaiser-Platz": (22.5, 30), "Jungfernheide": (23.5, 33.5), "Mierendorffplatz": (24, 37),
    "Richard-Wagner-Platz": (23, 43), "Wilmersdorfer Straße": (22.5, 52.5), "Adenauerplatz": (23, 60),
    "Konstanzer Straße": (24, 65), "Blissestraße": (30.5, 73.5), "Berliner Straße": (35.5, 74),
    "Eisenacher Straße": (49, 75), "Kleistpark": (62, 76), "Yorckstraße": (73, 74.5),
    "Gneisenaustraße": (98, 73.5), "Südstern": (106, 73.5), "Hermannplatz": (114, 73),
    "Rathaus Neukölln": (117, 75), "Karl-Marx-Straße": (117.5, 78.5), "Neukölln": (116.5, 81.5),
    "Grenzallee": (116, 85), "Britz-Süd": (111, 93), "Rudow": (121.5, 94.5), "Wittenau": (54.5, 4),
    "Karl-Bonhoeffer-Nervenklinik": (51, 8), "Paracelsus-Bad": (62, 8.5), "Franz-Neumann-Platz": (69.5, 11),
    "Osloer Straße": (75.5, 13), "Pankstraße": (81, 15), "Gesundbrunnen": (86, 16.5),
    "Voltastraße": (90.5, 20), "Bernauer Straße": (94, 23), "Rosenthaler Platz": (100, 26),
    "Weinmeisterstraße": (105, 30), "Jannowitzbrücke": (118, 41),
    "Heinrich-Heine-Straße": (117.5, 48), "Moritzplatz": (114, 55), "Schönleinstraße": (114.5, 68),
    "Boddinstraße": (112.5, 77.5), "Leinestraße": (111.5, 81), "Hermannstraße": (111.5, 84.5),
    "Nauener Platz": (71, 15), "Amrumer Straße": (55, 20), "Westhafen": (47, 24),
    "Birkenstraße": (44, 27), "Turmstraße": (42, 31.5), "Hansaplatz": (39.5, 39),
    "Güntzelstraße": (34, 70), "Bundesplatz": (37.5, 80.5), "Walther-Schreiber-Platz": (42, 85),
    "Schloßstraße": (40.5, 88), "Rathaus Steglitz": (38, 90.5),
}

TERMINI = {
    "Uhlandstraße", "Warschauer Straße", "Pankow", "Ruhleben", "Krumme Lanke", "Innsbrucker Platz",
    "Hauptbahnhof", "Hönow", "Alt-Tegel", "Alt-Mariendorf", "Rathaus Spandau", "Rudow", "Wittenau",
    "Hermannstraße", "Rathaus Steglitz",
}

# Stations where S-Bahn or main-line trains call at the same station (see
# docs/notes/underground.md): Berlin's S-Bahn is part of the national railway, as the board would mark it.
NATIONAL_RAIL = {
    "Alexanderplatz", "Friedrichstraße", "Hauptbahnhof", "Zoologischer Garten", "Potsdamer Platz",
    "Brandenburger Tor", "Gesundbrunnen", "Lichtenberg", "Jungfernheide", "Rathaus Spandau", "Jannowitzbrücke",
    "Warschauer Straße", "Yorckstraße", "Frankfurter Allee", "Schönhauser Allee", "Pankow", "Wedding",
    "Westhafen", "Wittenau", "Karl-Bonhoeffer-Nervenklinik", "Innsbrucker Platz", "Bundesplatz",
    "Heidelberger Platz", "Tempelhof", "Hermannstraße", "Neukölln", "Rathaus Steglitz", "Wuhletal",
}

CONNECTIONS = {
    "Bismarckstraße", "Fehrbelliner Platz", "Leopoldplatz", "Stadtmitte", "Nollendorfplatz",
    "Hallesches Tor", "Kottbusser Tor", "Hermannplatz",
}

EXPRESS = [
    "Zoologischer Garten", "Kurfürstendamm", "Wittenbergplatz", "Potsdamer Platz", "Brandenburger Tor",
    "Hauptbahnhof", "Friedrichstraße", "Museumsinsel", "Kochstraße/Checkpoint Charlie", "Kottbusser Tor",
    "Warschauer Straße", "Hermannplatz", "Gesundbrunnen", "Eberswalder Straße", "Olympia-Stadion",
    "Tempelhof", "Rathaus Spandau", "Frankfurter Tor", "Nollendorfplatz", "Rotes Rathaus", "Stadtmitte",
    "Mehringdamm",
]
STANDARD = [
    "Bundestag", "Unter den Linden", "Oranienburger Tor", "Naturkundemuseum", "Rosenthaler Platz", "Pankow",
    "Osloer Straße", "Leopoldplatz", "Seestraße", "Turmstraße", "Hansaplatz", "Ernst-Reuter-Platz",
    "Jungfernheide", "Adenauerplatz", "Fehrbelliner Platz", "Spichernstraße", "Rathaus Steglitz",
    "Dahlem-Dorf", "Krumme Lanke", "Innsbrucker Platz", "Rathaus Schöneberg", "Yorckstraße", "Gleisdreieck",
    "Platz der Luftbrücke", "Südstern", "Rathaus Neukölln", "Hermannstraße", "Görlitzer Bahnhof",
    "Schlesisches Tor", "Jannowitzbrücke", "Frankfurter Allee", "Lichtenberg", "Tierpark",
]

# Where a name is drawn, when the automatic choice is poor.
LABEL: dict[str, str] = {"Museumsinsel": "sw"}
# fmt: on
