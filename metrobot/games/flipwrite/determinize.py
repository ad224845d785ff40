"""Rebuild a whole flip-and-write state from one player's view (`Game.determinize`).

Automatic players think on states, but must only know what their seat shows (see
`games/autoplay.py`). A view shows everything except three things, and those are drawn
here with the caller's generator:

* the order of the face-down draw pile: the view gives its size and the face-up discard;
  the pile holds exactly the configured deck minus the discard and the face-up card (the
  pile never loses a card), and every shuffle is uniform, so any order of those cards is
  as likely as any other: a uniform shuffle of them is an exact posterior sample;
* the decisions other players have sealed this round ("decided" lists who, never what):
  each is replaced by a plausible decision, the greedy heuristic's choice on that player's
  visible sheet, with ties broken at random (a whole chain with the special-stations
  variant, so it is sealed just like the real one);
* the generator state of the pile (and the seed it came from): a fresh one from `rnd`.

Other players who still owe a decision may have started a chain of special-station extra
actions that nobody else sees; they are left with no steps at all, which looks the same
(they are "waiting" either way) and lets a search decide their whole chain itself.
The viewer's own pending chain is visible and is replayed exactly.

Nothing here imports engine.py: the state is built from the state module's parts, so the
engine can delegate to this module without a cycle.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..protocol import Action, BadInput, is_object
from . import autoplayer
from .decision import Pending, replay, take_step
from .deck import Pile, parse_card
from .mapdata import MetroMap, parse_map
from .sheet import Sheet
from .state import FlipState

# A decision rule for a hidden sealed decision: (state, player, sheet so far, rnd) -> action.
Decide = Callable[[FlipState, str, Sheet, random.Random], Action]

# Parsed maps by id, with the JSON they came from. A view carries the whole map as JSON
# (so custom maps work); parsing it costs more than everything else an automatic player
# does for a greedy move, so a map seen before is reused once its JSON compares equal.
_MAPS: dict[str, tuple[dict[str, Any], MetroMap]] = {}
_MAPS_KEPT = 16


def map_of(view: dict[str, Any]) -> MetroMap:
    raw = view["map_data"]
    hit = _MAPS.get(raw.get("id"))
    if hit is not None and hit[0] == raw:
        return hit[1]
    metro_map = parse_map(raw, strict=False)
    if len(_MAPS) >= _MAPS_KEPT:
        _MAPS.clear()
    _MAPS[metro_map.id] = (copy.deepcopy(raw), metro_map)  # a copy: the caller may change its view
    return metro_map


def sheet_from_view(metro_map: MetroMap, raw: dict[str, Any]) -> Sheet:
    """A sheet from its JSON as a view shows it (the engine wrote it, so no re-validation)."""
    marks = raw["marks"]
    return Sheet(
        {sid: marks[sid] for sid in metro_map.stations if sid in marks},
        {line.id: tuple(raw["windows"][line.id]) for line in metro_map.lines},
        {lid: (entry["round"], entry["points"]) for lid, entry in raw["completed"].items()},
    )


def current_sheet(metro_map: MetroMap, view: dict[str, Any], player: str) -> Sheet:
    """The sheet `player` decides on now: their tentative sheet while a chain is under way
    (only visible in their own view), else the sheet of the last resolved round."""
    if view.get("you") == player and "pending" in view:
        return sheet_from_view(metro_map, view["pending"]["sheet"])
    return sheet_from_view(metro_map, view["sheets"][player])


def claimed_lines(view: dict[str, Any]) -> set[str]:
    """Lines somebody completed in an earlier round: they only give their low value now."""
    return {lid for sheet in view["sheets"].values() for lid in sheet["completed"]}


def unseen_cards(view: dict[str, Any]) -> list[str]:
    """The face-down pile's cards (in deck order): the deck minus the discard and the face-up card."""
    left: Counter[str] = Counter(view["options"]["deck"])
    left.subtract(view["discard"])
    if view["card"] is not None:
        left[view["card"]] -= 1
    if any(n < 0 for n in left.values()) or sum(left.values()) != view["draw_pile"]:
        raise BadInput("the view's discard and draw pile do not add up to the deck")
    cards: list[str] = []
    for code in view["options"]["deck"]:
        if left[code] > 0:
            cards.append(code)
            left[code] -= 1
    return cards


def greedy_decide(state: FlipState, player: str, sheet: Sheet, rnd: random.Random) -> Action:
    claimed = {lid for p in state.players for lid in state.sheets[p].completed}
    return autoplayer.choose(state.map, sheet, state.card_in_play(), claimed, rnd, state.special, state.solo)


def sealed_decision(state: FlipState, player: str, rnd: random.Random, decide: Decide = greedy_decide) -> Pending:
    """A whole sealed decision for `player` this round (chained while extra actions are owed)."""
    pending: Pending | None = None
    while pending is None or not pending.sealed:
        sheet = pending.sheet if pending else state.sheets[player]
        action = decide(state, player, sheet, rnd)
        pending = take_step(state.map, state.card_in_play(), state.special, state.sheets[player], pending, action)
    return pending


def determinize(
    view: dict[str, Any], viewer: str | None, rnd: random.Random, decide: Decide = greedy_decide
) -> FlipState:
    """A FlipState with view(state, viewer) == view; hidden parts drawn with `rnd` (in a fixed
    order, so the same generator state gives the same state)."""
    if not is_object(view) or view.get("game") != "flipwrite":
        raise BadInput("not a flip-and-write view")
    if view.get("you") != viewer:
        raise BadInput(f"this view was made for {view.get('you')!r}, not {viewer!r}")
    metro_map = map_of(view)
    players = tuple(view["players"])
    options = view["options"]
    sheets = {p: sheet_from_view(metro_map, view["sheets"][p]) for p in players}
    draw = unseen_cards(view)
    rnd.shuffle(draw)
    pile = Pile(tuple(draw), tuple(view["discard"]), view["card"], rnd.getrandbits(64))
    # The real seed is hidden too (it fixes every future shuffle); 0 marks a rebuilt state.
    state = FlipState(
        metro_map,
        players,
        0,
        options["special_stations"],
        options["solo"],
        tuple(options["deck"]),
        view["phase"],
        view["rounds"],
        sheets,
        pile,
        {},
    )
    pending: dict[str, Pending] = {}
    if viewer is not None and "pending" in view:
        card = parse_card(view["card"])
        pending[viewer] = replay(metro_map, card, state.special, sheets[viewer], view["pending"]["steps"])
    for player in view["decided"]:
        if player != viewer:
            pending[player] = sealed_decision(state, player, rnd, decide)
    return FlipState(
        metro_map, players, 0, state.special, state.solo, state.deck, state.phase, state.rounds, sheets, pile, pending
    )
