"""The illustrated rules of MetrOmania (`metrobot.games.rulebook`): six pages, each a short
text and a picture the game's own renderer draws, then the summary.

Every position comes from one game, played through the engine from a fixed seed by three
greedy automatic players (Ann, Bob, Cat: the seat ids are the names drawn), replayed move
by move so that each page can stop where its rule shows: Ann's first dig, the first
station made where lines meet, Ann's second destination marker, and the end with its test
trips. The texts' numbers and coordinates come from the engine's events, so they stay true
if the engine or the players change.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...i18n import EN, N_
from ..rulebook import Position, RulesPage
from .board import vertex_name
from .engine import GAME
from .plugin import PLUGIN  # which names this module for its pages, and imports it only then

PLAYERS = ["Ann", "Bob", "Cat"]
SEED = 7  # a full game: stations made by meeting lines, markers, test trips scoring and one impossible
LEVEL = "greedy"
Step = tuple[Any, str, dict[str, Any], list[dict[str, Any]]]  # (state after, who, action, events)


@lru_cache(maxsize=1)
def _game() -> tuple[list[Step], Any]:
    """Every step of the game: (state after it, who played, the action, its events), and
    the start."""
    actions, _ = PLUGIN.self_play(PLAYERS, {}, SEED, level=LEVEL)
    state = start = PLUGIN.new_game(PLAYERS, {}, SEED)
    steps: list[Step] = []
    for logged in actions:
        state, events = GAME.apply(state, logged["player"], logged["action"])
        steps.append((state, logged["player"], logged["action"], events))
    return steps, start


def _typed(state: Any, action: dict[str, Any]) -> str:
    from .notation import typed

    return typed(state, action, EN)  # coordinates read the same in every language


def grid() -> Position:
    _, start = _game()
    return Position(start)


def dig() -> Position:
    steps, start = _game()
    before = start
    moves: list[str] = []
    for state, who, action, _ in steps[:3]:  # Ann's first turn: three tunnels
        assert who == PLAYERS[0]
        moves.append(_typed(before, action))
        before = state
    return Position(before, viewer=PLAYERS[0], params={"first": moves[0], "second": moves[1], "third": moves[2]})


def stations() -> Position:
    steps, _ = _game()
    for state, who, _, events in steps:
        made = [e for e in events if e["type"] == "station"]
        if made:
            return Position(
                state, params={"who": who, "at": vertex_name(tuple(made[0]["at"])), "points": made[0]["points"]}
            )
    raise AssertionError("the rules' game makes no station")


def markers() -> Position:
    steps, _ = _game()
    letters: list[str] = []
    for state, who, action, _ in steps:
        if who == PLAYERS[0] and action.get("marker"):
            letters.append(action["marker"])
            if len(letters) == 2:
                return Position(state, viewer=PLAYERS[0], params={"first": letters[0], "second": letters[1]})
    raise AssertionError("Ann drops fewer than two markers")


def _final() -> Any:
    steps, _ = _game()
    return steps[-1][0]


def trip() -> Position:
    view = GAME.view(_final(), None)
    shown = next(t for t in view["trips"] if sorted(t["points"].values()) == [3, 6])
    (full, six), (half, three) = sorted(shown["points"].items(), key=lambda kv: -kv[1])
    failed = next(t for t in view["trips"] if t["impossible"] and t["points"])
    ((blamed, lost),) = failed["points"].items()
    return Position(
        _final(),
        picture="final:0",
        params={
            "trip": shown["name"],
            "minutes": shown["minutes"],
            "full": full,
            "six": six,
            "half": half,
            "three": three,
            "failed": failed["name"],
            "blamed": blamed,
            "lost": -lost,
        },
    )


def end() -> Position:
    steps, _ = _game()
    ender = next(e["player"] for _, _, _, events in steps for e in events if e["type"] == "building_ends")
    view = GAME.view(_final(), None)
    parts = view["breakdown"]
    cat = parts[PLAYERS[2]]
    finished = [line for line in _final().lines if line.player == PLAYERS[2] and line.status == "finished"]
    assert len(finished) == 1, "the text says Cat finished one line"
    winner = view["winners"][0]
    return Position(
        _final(),
        params={
            "ender": ender,
            "before": cat["stations"],
            "after": cat["after_lines"],
            "winner": winner,
            "total": parts[winner]["total"],
        },
    )


PAGES: list[RulesPage] = [
    RulesPage(
        "grid",
        N_("The city and its coordinates"),
        N_(
            "The city is a grid of triangles. A **vertex** is named by its row letter A–M (top to bottom) and column "
            "1–25, as printed on the margins: `G13` is the centre. Lines run along the triangles' edges; each edge has a "
            "**cell** on either side, `L` or `R` (left or right as you travel). White arrows `S1`–`S12` start lines, "
            "black arrows `T1`–`T12` finish them. Lakes and parks take no tunnel; houses, offices and stars are the "
            "spots where destination markers go."
        ),
        grid,
        covers=("outside", "arrow_cell", "lake_park", "start_cell"),
    ),
    RulesPage(
        "dig",
        N_("Digging three tunnels"),
        N_(
            "Each company has two lines, solid and dashed. A turn is **three tunnels**, shared between your lines as "
            "you like (or an intermediate station instead). Ann's first turn: `{first}`, `{second}`, `{third}`: she "
            "started her solid line on a white arrow and extended it from its end. Each tunnel lies in a free cell "
            "beside the edge it follows, one tunnel per cell. A line never touches or crosses itself, and turns sharply "
            "(60°) only at a station."
        ),
        dig,
        covers=(
            "must_start",
            "start_edge",
            "first_turn_one_line",
            "start_side",
            "no_tunnels",
            "cell_taken",
            "self_touch",
            "not_adjacent",
            "cell_not_flank",
            "acute_turn",
            "turn_over",
        ),
    ),
    RulesPage(
        "stations",
        N_("Stations"),
        N_(
            "A **station** appears by itself where lines meet or part (running side by side makes none). Here {who}'s "
            "line met another at {at}: a station, worth 1 point per spot it touches, {points} here. Instead of "
            "digging, a turn may place one **intermediate station** on your own line between two of its stations (its "
            "start counts as one). Finishing a line on a black arrow earns a **bonus station** on it."
        ),
        stations,
        covers=("intermediate_station", "station_supply", "station_turn", "bonus_place", "bonus_timing"),
    ),
    RulesPage(
        "markers",
        N_("Destination markers"),
        N_(
            "Digging onto a spot (a house, an office, a star) means dropping one of your secret **destination "
            "markers** of that kind there: at most one per turn, and never touching its twin, the other marker with the "
            "same letter. Only you see your letters: this is Ann's own view, with her markers {first} and {second} on "
            "the board. At the end a test trip runs between each pair of twins."
        ),
        markers,
        covers=("one_marker_per_turn", "marker_needed", "marker_choice", "marker_not_spot"),
    ),
    RulesPage(
        "trip",
        N_("Test trips"),
        N_(
            "At the end, six test trips run between the twin markers A–A … F–F, by the fastest route: 1 minute per ride "
            "between two stations, 3 minutes per change of line. Trip {trip} takes {minutes} minutes. Every company "
            "with a line on the fastest route scores: {full} placed the trip's markers, {six} points; {half} gets "
            "{three}. A trip with no route costs whoever placed its markers 6 points: trip {failed} costs {blamed} "
            "{lost}."
        ),
        trip,
    ),
    RulesPage(
        "end",
        N_("The end"),
        N_(
            "Building ends when a company finishes both its lines, the 30th station is placed, or enough lines are "
            "finished or blocked; then everyone else has one more turn. Here {ender} finished both lines. Points from "
            "stations are kept whole with both lines finished, halved with one, lost with none: Cat finished one and "
            "kept {after} of {before}. Then the test trips: {winner} wins with {total} points."
        ),
        end,
        covers=("line_finished", "end_side"),
    ),
    RulesPage("summary", N_("In short"), PLUGIN.rules),
]
