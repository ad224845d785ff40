"""The illustrated rules of the flip-and-write (`metrobot.games.rulebook`): six pages, each a
short text and Ann's sheet as the game's own renderer draws it, then the summary.

Every position comes from one game on the default map, played through the engine from a
fixed seed by two greedy automatic players (Ann and Bob: the seat ids are the names drawn)
and replayed decision by decision, so each page stops where its rule shows: a number
card, a transfer, lines completed first and later, a round half decided, the end. The
texts' numbers and station names come from the engine's events.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...i18n import N_
from ..rulebook import Position, RulesPage
from .plugin import PLUGIN  # which names this module for its pages, and imports it only then

PLAYERS = ["Ann", "Bob"]
ANN, BOB = PLAYERS
SEED = 7  # a number card crossing fewer than it could, a transfer, lines completed first together and later alone
LEVEL = "greedy"

Step = tuple[Any, str, dict[str, Any], list[dict[str, Any]]]


@lru_cache(maxsize=1)
def _game() -> tuple[list[Step], Any]:
    """Every decision of the game: (state after it, who decided, the action, its events),
    and the start."""
    actions, _ = PLUGIN.self_play(PLAYERS, {}, SEED, level=LEVEL)
    state = start = PLUGIN.new_game(PLAYERS, {}, SEED)
    steps: list[Step] = []
    for logged in actions:
        state, events = PLUGIN.game.apply(state, logged["player"], logged["action"])
        steps.append((state, logged["player"], logged["action"], events))
    return steps, start


def _resolved(kind: str) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """The first round whose card Ann played as `kind` (ride, transfer): the state after it,
    Ann's action and the round's events by type."""
    steps, _ = _game()
    for state, _, _, events in steps:
        done = next((e for e in events if e["type"] == "round_resolved"), None)
        if done and done["decisions"][ANN][0]["type"] == kind and done["card"][0].isdigit() == (kind == "ride"):
            return state, done["decisions"][ANN][0], done
    raise AssertionError(f"Ann never plays a {kind} card")


def _station(state: Any, sid: str) -> str:
    return state.map.stations[sid].name


def sheet() -> Position:
    _, start = _game()
    return Position(start, viewer=ANN)


def card() -> Position:
    state, action, done = _resolved("ride")
    crossed = done["marked"][ANN]
    return Position(
        state,
        viewer=ANN,
        params={
            "card": done["card"],
            "line": action["line"],
            "count": len(crossed),
            "first": _station(state, crossed[0]),
            "last": _station(state, crossed[-1]),
        },
    )


def transfers() -> Position:
    state, action, done = _resolved("transfer")
    (sid,) = done["marked"][ANN]
    number = state.sheets[ANN].marks[sid]
    return Position(
        state,
        viewer=ANN,
        params={
            "line": action["line"],
            "station": _station(state, sid),
            "number": int(number),
            "points": 2 * int(number),
        },
    )


def complete() -> Position:
    steps, _ = _game()
    together = later = None
    for i, (_, _, _, events) in enumerate(steps):
        done = [e for e in events if e["type"] == "line_completed"]
        if together is None and {e["player"] for e in done} == set(PLAYERS):
            together = done[0]
        first = {e["line"]: e for e in done if e["first"] and e["player"] == ANN}
        for line, e in first.items():
            followed = next(
                (
                    (j, f)
                    for j, (_, _, _, evs) in enumerate(steps[i + 1 :], i + 1)
                    for f in evs
                    if f["type"] == "line_completed" and f["line"] == line and f["player"] == BOB
                ),
                None,
            )
            if later is None and followed is not None:
                later = (e, followed[1], followed[0])
    assert together and later, "the rules' game completes lines together and one after the other"
    ann, bob, at = later  # shown once Bob has completed it too
    return Position(
        steps[at][0],
        viewer=ANN,
        params={
            "both": together["line"],
            "high": together["points"],
            "line": ann["line"],
            "first": ann["points"],
            "low": bob["points"],
        },
    )


def round_() -> Position:
    steps, _ = _game()
    for state, who, _, events in steps:
        resolved = any(e["type"] == "round_resolved" for e in events)
        if who == ANN and not resolved and BOB in PLUGIN.game.to_move(state):  # Ann has decided, Bob not yet
            return Position(state, viewer=ANN, params={"round": PLUGIN.game.view(state, None)["round"]})
    raise AssertionError("no round half decided")


def scoring() -> Position:
    steps, _ = _game()
    final = steps[-1][0]
    view = PLUGIN.game.view(final, None)
    parts = view["breakdown"][ANN]
    return Position(
        final,
        viewer=ANN,
        params={
            "completion": parts["completion"],
            "transfers": parts["transfers"],
            "empty": parts["empty"],
            "penalty": parts["empty_penalty"],
            "total": parts["total"],
            "winner": view["winners"][0],
        },
    )


PAGES: list[RulesPage] = [
    RulesPage(
        "sheet",
        N_("Your sheet"),
        N_(
            "Everyone has their own copy of the same metro map. Each line (A, B, …) starts at its wagon, the lettered "
            "square, and has 1 to 4 empty **windows** (below the map) and two values: the high one for whoever "
            "completes it first, the low one for the others. Lines share the stations where they cross. A ring line "
            "has no end: you ride it one way or the other. The card at the top is this round's."
        ),
        sheet,
        covers=("not_ring", "ring_direction"),
    ),
    RulesPage(
        "card",
        N_("A card"),
        N_(
            "A number card says how many stations you may cross. Choose a line with an empty window and write the "
            "card in it; from the wagon, go to the first empty station and cross up to that many in a row, fewer if "
            "you like. You stop at a station already crossed and at the line's end. Here the card was {card}: Ann "
            "wrote it on line {line} and crossed {count}, {first} to {last}. An express card (E) may also hop over "
            "stations already crossed, never over empty ones."
        ),
        card,
        covers=("count", "line_full", "not_express", "wrong_card"),
    ),
    RulesPage(
        "transfers",
        N_("Transfers and free rides"),
        N_(
            "The **transfer** card (+) goes in a window too, but marks just the line's first empty station: write "
            "there how many lines serve it and box the number. Ann played it on line {line}: {station}, {number}, "
            "worth 2 × {number} = {points} at the end. The **free ride** fills no window: cross any one empty station "
            "anywhere. With the special-stations variant, crossing a special station gives another action with the "
            "same card."
        ),
        transfers,
        covers=("station_marked",),
    ),
    RulesPage(
        "complete",
        N_("Completing a line"),
        N_(
            "A line is complete when all its stations are marked. Whoever completes it first takes its high value; "
            "players who complete it in the same round all do. Ann and Bob both completed line {both} in one round: "
            "{high} points each. Ann completed line {line} first ({first} points); Bob, later, takes only the low "
            "value: {low}."
        ),
        complete,
    ),
    RulesPage(
        "round",
        N_("A round"),
        N_(
            "A card is flipped for everyone, and everyone plays it at once, on their own sheet. Nobody sees another's "
            "choice until all have chosen; then the round resolves and the next card is flipped. This is round "
            "{round}: Ann has chosen, Bob has not yet. When the 6 has been played, all the cards are shuffled back "
            "into the pile. The game ends when every window is filled."
        ),
        round_,
        covers=("already_decided", "sitting_out"),
    ),
    RulesPage(
        "scoring",
        N_("Scoring"),
        N_(
            "Score = completed lines + 2 × the boxed transfer numbers − half the empty stations (rounded down). Ann: "
            "{completion} for her lines, {transfers} for transfers, {empty} empty stations cost {penalty}: {total} "
            "in all. Most points wins ({winner}); a tie goes to fewer empty stations, then is shared."
        ),
        scoring,
    ),
    RulesPage("summary", N_("In short"), PLUGIN.rules),
]
