"""The facts the London board of On the Underground is made from, kept by hand (see
`tools/citymap.py`, which builds the board from them: `python -m tools.citymap london`):
every Tube line's real station sequences, the interchanges shown as one station, the
stations left out, the stations kept with their schematic coordinates, and the flags of the
rules (termini, National Rail, connections, destinations)."""

from __future__ import annotations

TITLE = "London Underground"
START = "Euston"

# --- the real network -------------------------------------------------------------------

# Hand-laid tables (stations in route order, a few a line, as on the map): not for the formatter.
# fmt: off
ROUTES: dict[str, list[list[str]]] = {
    "Bakerloo": [[
        "Harrow & Wealdstone", "Kenton", "South Kenton", "North Wembley", "Wembley Central",
        "Stonebridge Park", "Harlesden", "Willesden Junction", "Kensal Green", "Queen's Park",
        "Kilburn Park", "Maida Vale", "Warwick Avenue", "Paddington", "Edgware Road (Bakerloo)",
        "Marylebone", "Baker Street", "Regent's Park", "Oxford Circus", "Piccadilly Circus",
        "Charing Cross", "Embankment", "Waterloo", "Lambeth North", "Elephant & Castle",
    ]],
    "Central": [
        ["West Ruislip", "Ruislip Gardens", "South Ruislip", "Northolt", "Greenford", "Perivale",
         "Hanger Lane", "North Acton", "East Acton", "White City", "Shepherd's Bush", "Holland Park",
         "Notting Hill Gate", "Queensway", "Lancaster Gate", "Marble Arch", "Bond Street",
         "Oxford Circus", "Tottenham Court Road", "Holborn", "Chancery Lane", "St. Paul's", "Bank",
         "Liverpool Street", "Bethnal Green", "Mile End", "Stratford", "Leyton", "Leytonstone",
         "Snaresbrook", "South Woodford", "Woodford", "Buckhurst Hill", "Loughton", "Debden",
         "Theydon Bois", "Epping"],
        ["Ealing Broadway", "West Acton", "North Acton"],
        ["Leytonstone", "Wanstead", "Redbridge", "Gants Hill", "Newbury Park", "Barkingside",
         "Fairlop", "Hainault", "Grange Hill", "Chigwell", "Roding Valley", "Woodford"],
    ],
    # Since December 2009: Hammersmith - Edgware Road - round the loop - Edgware Road.
    "Circle": [[
        "Hammersmith (H&C)", "Goldhawk Road", "Shepherd's Bush Market", "Wood Lane", "Latimer Road",
        "Ladbroke Grove", "Westbourne Park", "Royal Oak", "Paddington (H&C)", "Edgware Road",
        "Baker Street", "Great Portland Street", "Euston Square", "King's Cross St. Pancras",
        "Farringdon", "Barbican", "Moorgate", "Liverpool Street", "Aldgate", "Tower Hill", "Monument",
        "Cannon Street", "Mansion House", "Blackfriars", "Temple", "Embankment", "Westminster",
        "St. James's Park", "Victoria", "Sloane Square", "South Kensington", "Gloucester Road",
        "High Street Kensington", "Notting Hill Gate", "Bayswater", "Paddington", "Edgware Road",
    ]],
    "District": [
        ["Upminster", "Upminster Bridge", "Hornchurch", "Elm Park", "Dagenham East", "Dagenham Heathway",
         "Becontree", "Upney", "Barking", "East Ham", "Upton Park", "Plaistow", "West Ham",
         "Bromley-by-Bow", "Bow Road", "Mile End", "Stepney Green", "Whitechapel", "Aldgate East",
         "Tower Hill", "Monument", "Cannon Street", "Mansion House", "Blackfriars", "Temple",
         "Embankment", "Westminster", "St. James's Park", "Victoria", "Sloane Square",
         "South Kensington", "Gloucester Road", "Earl's Court", "West Kensington", "Barons Court",
         "Hammersmith", "Ravenscourt Park", "Stamford Brook", "Turnham Green", "Gunnersbury",
         "Kew Gardens", "Richmond"],
        ["Turnham Green", "Chiswick Park", "Acton Town", "Ealing Common", "Ealing Broadway"],
        ["Earl's Court", "West Brompton", "Fulham Broadway", "Parsons Green", "Putney Bridge",
         "East Putney", "Southfields", "Wimbledon Park", "Wimbledon"],
        ["Earl's Court", "High Street Kensington", "Notting Hill Gate", "Bayswater", "Paddington",
         "Edgware Road"],
        ["Earl's Court", "Kensington (Olympia)"],
    ],
    "Hammersmith & City": [[
        "Hammersmith (H&C)", "Goldhawk Road", "Shepherd's Bush Market", "Wood Lane", "Latimer Road",
        "Ladbroke Grove", "Westbourne Park", "Royal Oak", "Paddington (H&C)", "Edgware Road",
        "Baker Street", "Great Portland Street", "Euston Square", "King's Cross St. Pancras",
        "Farringdon", "Barbican", "Moorgate", "Liverpool Street", "Aldgate East", "Whitechapel",
        "Stepney Green", "Mile End", "Bow Road", "Bromley-by-Bow", "West Ham", "Plaistow",
        "Upton Park", "East Ham", "Barking",
    ]],
    "Jubilee": [[
        "Stanmore", "Canons Park", "Queensbury", "Kingsbury", "Wembley Park", "Neasden", "Dollis Hill",
        "Willesden Green", "Kilburn", "West Hampstead", "Finchley Road", "Swiss Cottage",
        "St. John's Wood", "Baker Street", "Bond Street", "Green Park", "Westminster", "Waterloo",
        "Southwark", "London Bridge", "Bermondsey", "Canada Water", "Canary Wharf", "North Greenwich",
        "Canning Town", "West Ham", "Stratford",
    ]],
    "Metropolitan": [
        ["Aldgate", "Liverpool Street", "Moorgate", "Barbican", "Farringdon", "King's Cross St. Pancras",
         "Euston Square", "Great Portland Street", "Baker Street", "Finchley Road", "Wembley Park",
         "Preston Road", "Northwick Park", "Harrow-on-the-Hill", "North Harrow", "Pinner",
         "Northwood Hills", "Northwood", "Moor Park", "Rickmansworth", "Chorleywood",
         "Chalfont & Latimer", "Amersham"],
        ["Chalfont & Latimer", "Chesham"],
        ["Moor Park", "Croxley", "Watford"],
        ["Harrow-on-the-Hill", "West Harrow", "Rayners Lane", "Eastcote", "Ruislip Manor", "Ruislip",
         "Ickenham", "Hillingdon", "Uxbridge"],
    ],
    "Northern": [
        ["Edgware", "Burnt Oak", "Colindale", "Hendon Central", "Brent Cross", "Golders Green",
         "Hampstead", "Belsize Park", "Chalk Farm", "Camden Town", "Mornington Crescent", "Euston",
         "Warren Street", "Goodge Street", "Tottenham Court Road", "Leicester Square", "Charing Cross",
         "Embankment", "Waterloo", "Kennington", "Oval", "Stockwell", "Clapham North",
         "Clapham Common", "Clapham South", "Balham", "Tooting Bec", "Tooting Broadway",
         "Colliers Wood", "South Wimbledon", "Morden"],
        ["High Barnet", "Totteridge & Whetstone", "Woodside Park", "West Finchley", "Finchley Central",
         "East Finchley", "Highgate", "Archway", "Tufnell Park", "Kentish Town", "Camden Town",
         "Euston", "King's Cross St. Pancras", "Angel", "Old Street", "Moorgate", "Bank",
         "London Bridge", "Borough", "Elephant & Castle", "Kennington"],
        ["Finchley Central", "Mill Hill East"],
        ["Kennington", "Nine Elms", "Battersea Power Station"],
    ],
    "Piccadilly": [
        ["Cockfosters", "Oakwood", "Southgate", "Arnos Grove", "Bounds Green", "Wood Green",
         "Turnpike Lane", "Manor House", "Finsbury Park", "Arsenal", "Holloway Road", "Caledonian Road",
         "King's Cross St. Pancras", "Russell Square", "Holborn", "Covent Garden", "Leicester Square",
         "Piccadilly Circus", "Green Park", "Hyde Park Corner", "Knightsbridge", "South Kensington",
         "Gloucester Road", "Earl's Court", "Barons Court", "Hammersmith", "Turnham Green",
         "Acton Town", "South Ealing", "Northfields", "Boston Manor", "Osterley", "Hounslow East",
         "Hounslow Central", "Hounslow West", "Hatton Cross", "Heathrow Terminal 4",
         "Heathrow Terminals 2 & 3", "Heathrow Terminal 5"],
        ["Hatton Cross", "Heathrow Terminals 2 & 3"],
        ["Acton Town", "Ealing Common", "North Ealing", "Park Royal", "Alperton", "Sudbury Town",
         "Sudbury Hill", "South Harrow", "Rayners Lane", "Eastcote", "Ruislip Manor", "Ruislip",
         "Ickenham", "Hillingdon", "Uxbridge"],
    ],
    "Victoria": [[
        "Brixton", "Stockwell", "Vauxhall", "Pimlico", "Victoria", "Green Park", "Oxford Circus",
        "Warren Street", "Euston", "King's Cross St. Pancras", "Highbury & Islington", "Finsbury Park",
        "Seven Sisters", "Tottenham Hale", "Blackhorse Road", "Walthamstow Central",
    ]],
    "Waterloo & City": [["Waterloo", "Bank"]],
}

# Stations the board shows as one: interchanges with two names or two buildings.
SAME = {
    "Edgware Road (Bakerloo)": "Edgware Road",
    "Paddington (H&C)": "Paddington",
    "Hammersmith (H&C)": "Hammersmith",
    "Shepherd's Bush Market": "Shepherd's Bush",
    # Planarity: the Victoria and Northern lines cross the Circle between Warren Street and
    # Euston, and the Northern and Waterloo & City lines cross it south of Bank; with one
    # station each where they meet the Circle, the drawing needs no crossing.
    "Euston Square": "Euston",
    "Monument": "Bank",
    "Heathrow Terminal 4": "Heathrow",
    "Heathrow Terminals 2 & 3": "Heathrow",
    "Heathrow Terminal 5": "Heathrow",
}

# Stations of ROUTES not on the board: intermediate stations of outer stretches, and the
# Kensington (Olympia) shuttle (weekends and exhibitions only).
LEFT_OUT = {
    "Alperton", "Arsenal", "Barkingside", "Becontree", "Belsize Park", "Boston Manor",
    "Bounds Green", "Brent Cross", "Bromley-by-Bow", "Buckhurst Hill", "Burnt Oak", "Canons Park",
    "Chigwell", "Chiswick Park", "Chorleywood", "Clapham North", "Clapham South", "Colindale",
    "Colliers Wood", "Croxley", "Dagenham Heathway", "Debden", "Dollis Hill", "East Acton",
    "East Putney", "Eastcote", "Elm Park", "Fairlop", "Grange Hill", "Harlesden", "Hatton Cross",
    "Hillingdon", "Holloway Road", "Hornchurch", "Hounslow Central", "Hounslow East", "Ickenham",
    "Kensal Green", "Kensington (Olympia)", "Kenton", "Kilburn", "Kilburn Park", "Kingsbury",
    "Leyton", "Manor House", "Neasden", "Nine Elms", "North Ealing", "North Harrow",
    "North Wembley", "Northolt", "Northwick Park", "Northwood", "Northwood Hills", "Oakwood",
    "Osterley", "Park Royal", "Parsons Green", "Perivale", "Pinner", "Plaistow", "Preston Road",
    "Queensbury", "Ravenscourt Park", "Redbridge", "Rickmansworth", "Roding Valley", "Royal Oak",
    "Ruislip Gardens", "Ruislip Manor", "Snaresbrook", "South Ealing", "South Kenton",
    "South Ruislip", "South Wimbledon", "South Woodford", "Southfields", "Southgate",
    "Stamford Brook", "Stepney Green", "Stonebridge Park", "Sudbury Hill", "Sudbury Town",
    "Theydon Bois", "Tooting Bec", "Totteridge & Whetstone", "Tufnell Park", "Turnpike Lane",
    "Upminster Bridge", "Upney", "Upton Park", "Wanstead", "West Acton", "West Finchley",
    "West Harrow", "West Kensington", "Wimbledon Park", "Wood Lane", "Woodside Park",
}

# --- the board: kept stations and where they are drawn (x right, y down) ---------------

POS: dict[str, tuple[float, float]] = {
    # Circle line, clockwise from Paddington
    "Paddington": (44.5, 42), "Edgware Road": (49.5, 37), "Baker Street": (57, 34.5),
    "Great Portland Street": (64.5, 34.5), "Euston": (73, 33), "King's Cross St. Pancras": (86, 32),
    "Farringdon": (94.5, 35.5), "Barbican": (102, 38.5), "Moorgate": (109.5, 39.5), "Liverpool Street": (118.5, 43.5),
    "Aldgate": (121, 54), "Tower Hill": (118.5, 65.5), "Bank": (111, 63), "Cannon Street": (104.5, 63),
    "Mansion House": (98.5, 63), "Blackfriars": (92, 64.5), "Temple": (86, 65.5), "Embankment": (79.5, 68),
    "Westminster": (73, 71), "St. James's Park": (67, 72), "Victoria": (60.5, 72),
    "Sloane Square": (53, 72), "South Kensington": (46.5, 68), "Gloucester Road": (42, 64.5),
    "High Street Kensington": (38, 59), "Notting Hill Gate": (38, 52.5), "Bayswater": (40.5, 47.5),
    # inside the Circle
    "Queensway": (44.5, 52.5), "Lancaster Gate": (50.5, 51.5), "Marble Arch": (57, 51.5), "Bond Street": (63, 51.5),
    "Oxford Circus": (71, 51.5), "Tottenham Court Road": (79.5, 51.5), "Holborn": (87, 51.5),
    "Chancery Lane": (93.5, 52.5), "St. Paul's": (100, 54), "Regent's Park": (65.5, 42),
    "Warren Street": (73, 42), "Goodge Street": (77.5, 47), "Russell Square": (86, 42),
    "Covent Garden": (84.5, 56.5), "Leicester Square": (79.5, 59), "Charing Cross": (77, 64.5),
    "Piccadilly Circus": (72, 60.5), "Green Park": (64.5, 61.5), "Hyde Park Corner": (57, 61.5),
    "Knightsbridge": (50.5, 63),
    # south of the river
    "Waterloo": (83.5, 78.5), "Southwark": (96, 78.5), "London Bridge": (109.5, 76), "Lambeth North": (89.5, 81.5),
    "Borough": (104.5, 81), "Elephant & Castle": (98.5, 84), "Kennington": (88, 87), "Oval": (84.5, 90.5),
    "Stockwell": (77, 92), "Brixton": (84.5, 97), "Vauxhall": (69.5, 85), "Pimlico": (64.5, 79),
    "Battersea Power Station": (78, 87), "Clapham Common": (69.5, 94.5), "Balham": (62, 96),
    "Tooting Broadway": (54.5, 97.5), "Morden": (45.5, 99),
    # west
    "Earl's Court": (34.5, 68), "Barons Court": (29.5, 68), "Hammersmith": (25.5, 65.5),
    "Goldhawk Road": (27.5, 59), "Shepherd's Bush": (28, 52.5), "Holland Park": (32.5, 52.5),
    "Latimer Road": (29, 46), "Ladbroke Grove": (31.5, 43.5), "Westbourne Park": (35, 42),
    "White City": (24.5, 47.5), "North Acton": (19, 45), "Hanger Lane": (16, 39.5), "Greenford": (12.5, 34.5),
    "West Ruislip": (10.5, 26.5), "Ealing Broadway": (10.5, 51.5), "Ealing Common": (12.5, 61),
    "Acton Town": (16, 67), "Turnham Green": (21, 70.5), "Gunnersbury": (18, 76.5), "Kew Gardens": (14.5, 81.5),
    "Richmond": (11, 86.5), "Northfields": (10.5, 71), "Hounslow West": (6.5, 76), "Heathrow": (2, 81),
    "South Harrow": (2.5, 39.5), "Rayners Lane": (10.5, 17.5), "Ruislip": (6, 16), "Uxbridge": (2, 15),
    "West Brompton": (33, 74.5), "Fulham Broadway": (32.5, 79), "Putney Bridge": (31, 84),
    "Wimbledon": (29.5, 95),
    # north-west
    "Marylebone": (50.5, 29), "Warwick Avenue": (40.5, 35.5), "Maida Vale": (37, 30.5), "Queen's Park": (32.5, 25.5),
    "Willesden Junction": (27.5, 28), "Wembley Central": (22, 22.5), "Harrow & Wealdstone": (18.5, 18.5),
    "St. John's Wood": (57, 26.5), "Swiss Cottage": (54.5, 21.5), "Finchley Road": (48, 18.5),
    "West Hampstead": (40.5, 21), "Willesden Green": (32.5, 20), "Wembley Park": (27.5, 15), "Stanmore": (24.5, 5),
    "Harrow-on-the-Hill": (19, 13), "Moor Park": (12.5, 8), "Watford": (14, 2.5), "Chalfont & Latimer": (6, 6.5),
    "Chesham": (4, 2.5), "Amersham": (0.5, 9),
    # north
    "Mornington Crescent": (67, 26.5), "Camden Town": (69.5, 21), "Chalk Farm": (64.5, 17.5), "Hampstead": (59, 14.5),
    "Golders Green": (54.5, 10.5), "Hendon Central": (50.5, 6.5), "Edgware": (48, 1.5), "Kentish Town": (74.5, 16),
    "Archway": (78, 12), "Highgate": (79.5, 9), "East Finchley": (77, 5.5), "Finchley Central": (72, 4),
    "Mill Hill East": (64.5, 4), "High Barnet": (68.5, 1), "Angel": (97, 26.5), "Old Street": (104.5, 30.5),
    "Highbury & Islington": (93.5, 21.5), "Caledonian Road": (87, 22.5), "Finsbury Park": (96, 16),
    "Seven Sisters": (103, 11), "Tottenham Hale": (113.5, 9.5), "Blackhorse Road": (123.5, 9.5),
    "Walthamstow Central": (129.5, 9.5), "Wood Green": (93.5, 9.5), "Arnos Grove": (90.5, 5), "Cockfosters": (93.5, 1),
    # east
    "Aldgate East": (126, 55), "Whitechapel": (131, 55), "Bethnal Green": (127, 43.5), "Mile End": (134.5, 47.5),
    "Bow Road": (138.5, 52.5), "West Ham": (143.5, 58), "East Ham": (147.5, 60.5), "Barking": (152, 63),
    "Dagenham East": (156, 65.5), "Upminster": (158.5, 68), "Stratford": (141, 39.5), "Leytonstone": (145, 32),
    "Woodford": (148.5, 21), "Loughton": (151, 13.5), "Epping": (154, 6.5), "Gants Hill": (151, 34.5),
    "Newbury Park": (156, 29), "Hainault": (156.5, 21), "Bermondsey": (119.5, 77), "Canada Water": (126, 77.5),
    "Canary Wharf": (133, 77.5), "North Greenwich": (139.5, 77.5), "Canning Town": (144, 71),
}

TERMINI = {
    "Harrow & Wealdstone", "West Ruislip", "Ealing Broadway", "Epping", "Upminster", "Richmond",
    "Wimbledon", "Stanmore", "Amersham", "Chesham", "Watford", "Uxbridge", "Edgware",
    "Morden", "High Barnet", "Mill Hill East", "Battersea Power Station", "Cockfosters", "Heathrow",
    "Brixton", "Walthamstow Central",
}

# Stations with National Rail trains (not counting London Overground, the Elizabeth line or DLR).
NATIONAL_RAIL = {
    "Euston", "King's Cross St. Pancras", "Paddington", "Marylebone", "Liverpool Street", "Waterloo",
    "Victoria", "London Bridge", "Charing Cross", "Cannon Street", "Blackfriars", "Moorgate",
    "Farringdon", "Old Street", "Elephant & Castle", "Vauxhall", "Stratford", "West Ham", "Barking",
    "Upminster", "Ealing Broadway", "Richmond", "Wimbledon", "Harrow & Wealdstone", "Wembley Central",
    "Harrow-on-the-Hill", "Amersham", "Chalfont & Latimer", "West Ruislip", "Greenford",
    "Highbury & Islington", "Finsbury Park", "Tottenham Hale", "Balham", "Brixton", "West Brompton",
    "Shepherd's Bush", "Kentish Town",
}

CONNECTIONS = {
    "Aldgate", "Baker Street", "Charing Cross", "Elephant & Castle", "Hammersmith",
    "King's Cross St. Pancras", "Notting Hill Gate", "Victoria",
}

EXPRESS = [
    "Oxford Circus", "Leicester Square", "Turnham Green", "Piccadilly Circus", "Bond Street",
    "Tottenham Court Road", "Green Park", "Westminster", "Waterloo", "London Bridge", "Bank",
    "Liverpool Street", "King's Cross St. Pancras", "Paddington", "Victoria", "Covent Garden",
    "South Kensington", "Knightsbridge", "Tower Hill", "Camden Town", "Canary Wharf", "Stratford",
]
STANDARD = [
    "Great Portland Street", "Goldhawk Road", "Marylebone", "Holborn", "St. Paul's", "Angel",
    "Old Street", "Farringdon", "Embankment", "Blackfriars", "Elephant & Castle", "Brixton",
    "Clapham Common", "Wimbledon", "Richmond", "Hammersmith", "Earl's Court", "Notting Hill Gate",
    "Shepherd's Bush", "Ealing Broadway", "Wembley Park", "Finchley Road", "Hampstead",
    "Highbury & Islington", "Finsbury Park", "Whitechapel", "Mile End", "West Ham", "North Greenwich",
    "Heathrow", "Marble Arch", "Russell Square", "Vauxhall",
]

# Where a name is drawn, when the automatic choice (see place_labels) is poor.
LABEL: dict[str, str] = {}
# fmt: on
