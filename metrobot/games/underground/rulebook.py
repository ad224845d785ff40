"""The illustrated rules of On the Underground (`metrobot.games.rulebook`): six pages, each a
short text and a London board the game's own renderer draws, then the summary.

Every position is a new game with a fixed seed and real actions applied through the
engine. One page cannot be reached that way: the rule book's passenger example needs the
passenger at Goldhawk Road, a chosen row of destinations and tracks laid over many turns
(the row is the deck's chance). That page starts from the engine's new game JSON, sets only
the passenger's station, the row and the colours' tracks (as the tests' `position` does),
and then plays the turn's end through `apply`, so the engine moves the passenger itself.
"""

from __future__ import annotations

import itertools
from typing import Any

from ...i18n import N_
from ..rulebook import Position, RulesPage
from .engine import GAME
from .passenger import options
from .plugin import PLUGIN  # which names this module for its pages, and imports it only then
from .state import State

MAP = "london"
PAIR = ["Ann", "Bob"]  # seat ids: the renderer draws them as the players' names
TRIO = ["Ann", "Bob", "Cat"]
SEED = 245  # Ann (first) has red and blue, Bob black; Victoria and Charing Cross carry the
#             same connection symbol; the passenger's trips keep away from the pages' tracks
PASSENGER_SEED = 15  # three players: red is Ann's, green Bob's, yellow Cat's
END_SEED = 14  # three players, the greedy level


def _new(players: list[str], seed: int) -> State:
    return GAME.new_game(list(players), {"map": MAP, "first_player": 0}, seed)


def _gap(state: State, a: str, b: str) -> int:
    gap = state.board.map.gap_between(a, b)
    if gap is None:
        raise ValueError(f"no gap {a}–{b} on the {MAP} map")
    return gap.id


def _place(state: State, colour: str, a: str, b: str) -> dict[str, Any]:
    return {"type": "place", "colour": colour, "gap": _gap(state, a, b)}


def _play(state: State, *steps: tuple[str, str, str] | dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    """Apply steps by whoever is to move: (colour, a, b) places a piece between two
    stations, a dict is an action as it is. Returns the state and every event."""
    events: list[dict[str, Any]] = []
    for step in steps:
        action = _place(state, *step) if isinstance(step, tuple) else step
        state, ev = GAME.apply(state, state.player, action)
        events += ev
    return state, events


def _placed(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "placed"]


def _items(events: list[dict[str, Any]], what: str) -> list[dict[str, Any]]:
    return [item for e in _placed(events) for item in e["scored"] if item["what"] == what]


# Bob's first turn in the pages of two players: the Piccadilly line's northern end.
BOB_TURN = (
    ("black", "Cockfosters", "Arnos Grove"),
    ("black", "Arnos Grove", "Wood Green"),
    ("black", "Wood Green", "Finsbury Park"),
    {"type": "forgo"},
)


# ---------------------------------------------------------------- 1. the board
def board() -> Position:
    s = _new(PAIR, SEED)
    return Position(s, params={"start": s.at, "stations": len(s.board.map.stations)})


# ---------------------------------------------------------------- 2. building
def build() -> Position:
    s = _new(PAIR, SEED)
    # Ann's first turn: start red at a terminus (its token), extend twice, forgo one.
    s, first = _play(
        s,
        ("red", "Brixton", "Stockwell"),
        ("red", "Stockwell", "Vauxhall"),
        ("red", "Vauxhall", "Pimlico"),
        {"type": "forgo"},
    )
    s, _ = _play(s, *BOB_TURN)
    tokens, red = s.tokens["Ann"], set(s.colours["red"].deg)
    # Ann's second turn, three placements so far (they glow): extend, branch, start.
    s, now = _play(
        s, ("red", "Pimlico", "Victoria"), ("red", "Stockwell", "Oval"), ("blue", "Green Park", "Bond Street")
    )
    extend, branch, start = _placed(now)

    def old_new(stations: list[str]) -> list[str]:  # the station already on red first
        return sorted(stations, key=lambda st: st not in red)

    (terminus,) = _items(first, "terminus")
    return Position(
        s,
        params={
            "start": terminus["station"],
            "tokens": tokens,
            "end": old_new(extend["stations"])[0],
            "to": old_new(extend["stations"])[1],
            "branch": old_new(branch["stations"])[0],
            "branch_to": old_new(branch["stations"])[1],
            "blue_a": start["stations"][0],
            "blue_b": start["stations"][1],
            "cost": tokens - s.tokens["Ann"],
            "left": s.tokens["Ann"],
        },
    )


# ---------------------------------------------------------------- 3. scoring while building
def scoring() -> Position:
    s = _new(PAIR, SEED)
    s, events = _play(
        s,
        ("blue", "Morden", "Tooting Broadway"),
        ("red", "Victoria", "Green Park"),
        ("red", "Green Park", "Piccadilly Circus"),
        ("red", "Piccadilly Circus", "Charing Cross"),
    )
    (terminus,) = _items(events, "terminus")
    rail = _items(events, "national_rail")
    (pair,) = _items(events, "connection")
    return Position(
        s,
        params={
            "terminus": terminus["station"],
            "terminus_points": terminus["points"],
            "terminus_tokens": terminus["tokens"],
            "rail_a": rail[0]["station"],
            "rail_b": rail[1]["station"],
            "rail_points": rail[0]["points"],
            "pair_a": pair["stations"][0],
            "pair_b": pair["stations"][1],
            "pair_points": pair["points"],
        },
    )


# ---------------------------------------------------------------- 4. loops
def loop() -> Position:
    s = _new(PAIR, SEED)
    s, _ = _play(
        s,
        ("red", "Kennington", "Waterloo"),
        ("red", "Waterloo", "Bank"),
        ("red", "Bank", "London Bridge"),
        ("red", "London Bridge", "Borough"),
    )
    s, _ = _play(s, *BOB_TURN)
    closing = "Kennington"  # where the line began: its other end
    s, events = _play(s, ("red", "Borough", "Elephant & Castle"), ("red", "Elephant & Castle", closing))
    inside = _items(events, "enclosed")
    return Position(
        s,
        params={
            "first": inside[0]["station"],
            "second": inside[1]["station"],
            "points": sum(i["points"] for i in inside),
            "closing": closing,
        },
    )


# ---------------------------------------------------------------- 5. the passenger
# The rule book's example on the real map: red rides the Central line from Shepherd's Bush
# to Tottenham Court Road, green the Northern line from Leicester Square to Euston and on
# to Great Portland Street, yellow from Bond Street by Baker Street to Great Portland Street.
RED = [
    "Shepherd's Bush",
    "Holland Park",
    "Notting Hill Gate",
    "Queensway",
    "Lancaster Gate",
    "Marble Arch",
    "Bond Street",
    "Oxford Circus",
    "Tottenham Court Road",
]
GREEN = [
    "Leicester Square",
    "Tottenham Court Road",
    "Goodge Street",
    "Warren Street",
    "Euston",
    "Great Portland Street",
]
YELLOW = ["Bond Street", "Baker Street", "Great Portland Street"]
ROW = ["Leicester Square", "Oxford Circus", "Turnham Green", "Great Portland Street"]
START = "Goldhawk Road"


def example_state(tracks: dict[str, list[str]] | None = None, row: list[str] | None = None) -> State:
    """The example's position before Ann's turn ends: the engine's new game with only the
    passenger, the row and the tracks set (chance and many turns would be needed to reach
    it by play); `row`/`tracks` may be changed to see what each destination alone costs."""
    s = _new(TRIO, PASSENGER_SEED)
    data = GAME.to_json(s)
    data["passenger"]["at"] = START
    row = list(ROW if row is None else row)
    cards = data["deck"]["draw"] + data["deck"]["row"] + data["deck"]["discard"]
    data["deck"] = {"draw": [c for c in cards if c not in row], "row": row, "discard": []}
    for colour, stations in (tracks or {"red": RED, "green": GREEN, "yellow": YELLOW}).items():
        data["colours"][colour]["track"] = [_gap(s, a, b) for a, b in itertools.pairwise(stations)]
    return GAME.from_json(data)


def passenger() -> Position:
    s = example_state()
    # Ann gives up all four placements: the turn ends and the passenger moves.
    s, events = _play(s, {"type": "forgo", "count": 4})
    (moved,) = [e for e in events if e["type"] == "passenger_moved"]
    (tie,) = [e for e in events if e["type"] == "route_choice_needed"]
    other, _, far = [c for c in ROW if s.board.kind[c] == "express"]
    (standard,) = [c for c in ROW if s.board.kind[c] == "standard"]
    # What the other express destinations would have cost, each alone in the row.
    (o,) = options(example_state(row=[other]), "express")
    (f,) = options(example_state(row=[far]), "express")
    return Position(
        s,
        params={
            "start": moved["from"],
            "best": moved["to"],
            "walks": moved["walks"],
            "lines": len(moved["colours"]),
            "points": moved["points"]["Ann"],
            "other": other,
            "other_walks": o["walks"],
            "other_lines": len(o["colours"]),
            "far": far,
            "far_walks": f["walks"],
            "far_lines": len(f["colours"]),
            "standard": standard,
            "routes": len(tie["options"]),
            "tie_lines": len(tie["options"][0]["colours"]),
        },
    )


# ---------------------------------------------------------------- 6. the end
def end() -> Position:
    # A whole game of the greedy automatic players (the fastest level: 0.2 s): Bob's turn
    # empties the deck, Cat still builds, and Ann and Cat tie.
    actions, s = PLUGIN.self_play(list(TRIO), {"map": MAP, "first_player": 0}, END_SEED, level="greedy")
    # Replay the logged actions for their events: whose turn emptied the deck, who built after.
    t = _new(TRIO, END_SEED)
    emptied = None
    after: list[str] = []
    for logged in actions:
        t, events = GAME.apply(t, logged["player"], logged["action"])
        if emptied is not None and logged["player"] not in after:
            after.append(logged["player"])
        emptied = next((e["player"] for e in events if e["type"] == "deck_empty"), emptied)
    scores = s.scores()
    first, second = s.winners
    (last,) = after
    (other,) = [p for p in s.players if p not in s.winners]
    return Position(
        s,
        params={
            "emptied": emptied,
            "start": s.start_player,
            "last": last,
            "first": first,
            "second": second,
            "points": scores[first],
            "other": other,
            "other_points": scores[other],
        },
    )


PAGES: list[RulesPage] = [
    RulesPage(
        "board",
        N_("The London board"),
        N_(
            "The board is London: {stations} stations joined by gaps. A gap holds 1 to 4 pieces side by side (its "
            "slots: the wider its pale band, the more), at most one of each colour. A square marks a **terminus**, the "
            "red sign a **National Rail** station. Eight **connection stations** carry four pairs of symbols (the panel lists the pairs). Yellow circles are "
            "**express** destinations, rings **standard** ones; four are face up in the panel. The passenger starts at "
            "{start}."
        ),
        board,
        covers=("colour_in_gap", "gap_full"),
    ),
    RulesPage(
        "build",
        N_("Building lines"),
        N_(
            "A turn is up to 4 placements, one piece each, in your own colours. Last turn Ann **started** red at "
            "{start} (a terminus, which earns a branch token), extended it twice and **forwent** one placement for a "
            "second token. This turn (glowing) she **extends** red from its end {end} to {to}, **branches** at {branch}, which is "
            "not an end, towards {branch_to} for {cost} tokens, and **starts** blue between {blue_a} and {blue_b}."
        ),
        build,
        covers=("not_your_colour", "colour_not_in_game", "no_pieces", "not_connected", "branch_tokens", "forgo_count"),
    ),
    RulesPage(
        "scoring",
        N_("Scoring while building"),
        N_(
            "Points come as the pieces are laid. Here blue reaches {terminus}, a **terminus**: +{terminus_points} and "
            "{terminus_tokens} branch token. Red reaches {rail_a} and {rail_b}, **National Rail** stations: "
            "+{rail_points} each. Red also joins {pair_a} and {pair_b}, two **connection stations** with the same "
            "symbol: +{pair_points}. Each colour scores a thing once; another colour may score it again."
        ),
        scoring,
    ),
    RulesPage(
        "loop",
        N_("Loops"),
        N_(
            "Ann's red line closes a **loop** at {closing}: joining an end back onto its own line is an ordinary "
            "extension. Each station strictly inside a loop of one colour scores 1: {first} and {second} give "
            "+{points}. Stations on the loop itself do not count, and a station scores once per colour."
        ),
        loop,
    ),
    RulesPage(
        "passenger",
        N_("The passenger"),
        N_(
            "The rule book's example. After Ann's turn the passenger leaves {start} for an express destination: the "
            "route with the **fewest walks** (gaps without track, crossed on foot), then the **fewest colours**. "
            "{best} costs {walks} walk and {lines} line (red): better than {other} ({other_walks} walk, "
            "{other_lines} lines) and than {far} ({far_walks} walks, {far_lines} lines). Each colour ridden scores 1 for "
            "its owner: red gives Ann {points}. On to {standard}: red and yellow or red and green, {tie_lines} lines "
            "each, tie; {routes} routes, and Ann chooses."
        ),
        passenger,
        covers=("route_pending", "no_route_choice"),
    ),
    RulesPage(
        "end",
        N_("The end"),
        N_(
            "When the row cannot be refilled, the deck is empty and the passenger leaves the board: here in "
            "{emptied}'s turn. Building goes on until the start player, {start}, would be next, so {last} still "
            "built; then the game ended. Most points wins and ties are shared: {first} and {second} both have "
            "{points} points and share the win ({other}: {other_points})."
        ),
        end,
    ),
    RulesPage("summary", N_("In short"), PLUGIN.rules),
]
