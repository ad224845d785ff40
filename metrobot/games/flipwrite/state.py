"""The game state and its canonical JSON (a contract: keys stay stable).

The state carries its own copy of the map (`map_data`), so a saved game stays playable
even if the packaged map file changes later, and test maps need no file at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..protocol import BadInput, RuleError, is_list, is_object
from . import scoring
from .decision import Pending, replay
from .deck import Card, Pile, parse_card, validate_deck
from .mapdata import MetroMap, map_of_view, parse_map
from .sheet import CROSS, Sheet

PLAYING, FINISHED = "playing", "finished"


@dataclass(frozen=True)
class FlipState:
    map: MetroMap
    players: tuple[str, ...]
    seed: Any
    special: bool  # special-stations variant
    solo: bool
    deck: tuple[str, ...]  # the configured deck, for reference
    phase: str
    rounds: int  # rounds resolved so far
    sheets: dict[str, Sheet]  # as of the last resolved round
    pile: Pile
    pending: dict[str, Pending]  # this round's decisions so far (hidden until resolution)

    __hash__ = None  # type: ignore[assignment]

    @property
    def card(self) -> Card | None:
        return parse_card(self.pile.card) if self.pile.card is not None else None

    def card_in_play(self) -> Card:
        """The face-up card: there is one while anybody plays (None only once the game is over)."""
        card = self.card
        if card is None:
            raise RuleError("the game is over.", "game_over")
        return card

    def active(self, player: str) -> bool:
        """Still playing: has an empty window (the game ends for a player with the last one)."""
        return self.phase == PLAYING and self.sheets[player].has_free_window()

    def owes(self, player: str) -> bool:
        pending = self.pending.get(player)
        return self.active(player) and (pending is None or not pending.sealed)

    def current_sheet(self, player: str) -> Sheet:
        pending = self.pending.get(player)
        return pending.sheet if pending else self.sheets[player]

    def breakdowns(self) -> dict[str, dict[str, int]]:
        return {p: scoring.breakdown(self.map, self.sheets[p], self.solo) for p in self.players}


def to_json(state: FlipState) -> dict[str, Any]:
    scores = state.breakdowns()
    data: dict[str, Any] = {
        "game": "flipwrite",
        "map": state.map.id,
        "seed": state.seed,
        "players": list(state.players),
        "phase": state.phase,
        "options": {"special_stations": state.special, "solo": state.solo, "deck": list(state.deck)},
        "map_data": state.map.to_json(),
        "sheets": {p: state.sheets[p].to_json(state.map) for p in state.players},
        "rounds": state.rounds,
        "card": state.pile.card,
        "deck": {"draw": list(state.pile.draw), "discard": list(state.pile.discard)},
        "rng": state.pile.rng,
        "pending": {
            p: {"steps": [dict(a) for a in state.pending[p].steps], "owed": state.pending[p].owed}
            for p in state.players
            if p in state.pending
        },
        "scores": {p: scores[p]["total"] for p in state.players},
    }
    if state.phase == FINISHED:
        data["breakdown"] = scores
        data["winners"] = scoring.winners(state.players, scores)
        if state.solo:
            data["rating"] = scoring.solo_rating(scores[state.players[0]]["total"])
    return data


def _need(cond: object, message: str) -> None:
    if not cond:
        raise BadInput(f"malformed flipwrite state: {message}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _sheet_from_json(metro_map: MetroMap, player: str, raw: Any) -> Sheet:
    _need(is_object(raw), f"sheet of {player} must be an object")
    marks, windows, completed = raw.get("marks"), raw.get("windows"), raw.get("completed")
    _need(is_object(marks), f"sheet of {player}: 'marks' must be an object")
    for sid, mark in marks.items():
        _need(sid in metro_map.stations, f"sheet of {player} marks unknown station {sid!r}")
        _need(
            mark == CROSS or (_is_int(mark) and mark >= 1), f"sheet of {player}: mark of {sid} must be 'x' or a number"
        )
    _need(
        is_object(windows) and set(windows) == {l.id for l in metro_map.lines},
        f"sheet of {player}: 'windows' must list every line",
    )
    clean_windows: dict[str, tuple[str | None, ...]] = {}
    for line in metro_map.lines:
        slots = windows[line.id]
        _need(
            is_list(slots) and len(slots) == line.windows,
            f"sheet of {player}: line {line.id} has {line.windows} windows",
        )
        for code in slots:
            if code is not None:
                try:
                    card = parse_card(code)
                except BadInput:
                    card = None
                _need(card is not None and card.fills_window, f"sheet of {player}: bad window entry {code!r}")
        clean_windows[line.id] = tuple(slots)
    _need(is_object(completed), f"sheet of {player}: 'completed' must be an object")
    clean_completed: dict[str, tuple[int, int]] = {}
    for lid, entry in completed.items():
        line = next((l for l in metro_map.lines if l.id == lid), None)
        if line is None:
            raise BadInput(f"malformed flipwrite state: sheet of {player} completes unknown line {lid!r}")
        _need(
            is_object(entry) and _is_int(entry.get("round")) and _is_int(entry.get("points")),
            f"sheet of {player}: completed line {lid} needs 'round' and 'points'",
        )
        _need(
            all(s in marks for s in line.stations), f"sheet of {player}: line {lid} is completed but not fully marked"
        )
        clean_completed[lid] = (entry["round"], entry["points"])
    ordered = {sid: marks[sid] for sid in metro_map.stations if sid in marks}
    return Sheet(ordered, clean_windows, clean_completed)


def from_json(data: Any) -> FlipState:
    _need(is_object(data), "expected a JSON object")
    _need(data.get("game") == "flipwrite", f"'game' must be 'flipwrite', not {data.get('game')!r}")
    for key in (
        "map",
        "seed",
        "players",
        "phase",
        "options",
        "map_data",
        "sheets",
        "rounds",
        "card",
        "deck",
        "rng",
        "pending",
    ):
        _need(key in data, f"missing key {key!r}")
    try:
        raw_map = data["map_data"]
        metro_map = map_of_view(raw_map) if is_object(raw_map) else parse_map(raw_map, strict=False)
    except BadInput as exc:
        raise BadInput(f"malformed flipwrite state: map_data: {exc}") from None
    _need(metro_map.id == data["map"], "'map' differs from map_data's id")
    _need(
        isinstance(data["seed"], (int, str)) and not isinstance(data["seed"], bool), "'seed' must be a number or text"
    )
    players = data["players"]
    _need(
        is_list(players) and players and all(isinstance(p, str) for p in players) and len(set(players)) == len(players),
        "'players' must be a list of distinct ids",
    )
    _need(data["phase"] in (PLAYING, FINISHED), "'phase' must be 'playing' or 'finished'")
    options = data["options"]
    _need(
        is_object(options)
        and isinstance(options.get("special_stations"), bool)
        and isinstance(options.get("solo"), bool),
        "'options' needs special_stations and solo",
    )
    _need(options["solo"] == (len(players) == 1), "'solo' is true exactly when there is one player")
    try:
        deck = validate_deck(options.get("deck"))
    except BadInput as exc:
        raise BadInput(f"malformed flipwrite state: {exc}") from None
    _need(_is_int(data["rounds"]) and data["rounds"] >= 0, "'rounds' must be a whole number")
    sheets_raw = data["sheets"]
    _need(is_object(sheets_raw) and set(sheets_raw) == set(players), "'sheets' must have one sheet per player")
    sheets = {p: _sheet_from_json(metro_map, p, sheets_raw[p]) for p in players}

    deck_raw, card = data["deck"], data["card"]
    _need(
        is_object(deck_raw) and is_list(deck_raw.get("draw")) and is_list(deck_raw.get("discard")),
        "'deck' needs 'draw' and 'discard' lists",
    )
    try:
        for code in deck_raw["draw"] + deck_raw["discard"] + ([card] if card is not None else []):
            parse_card(code)
    except BadInput as exc:
        raise BadInput(f"malformed flipwrite state: {exc}") from None
    _need(_is_int(data["rng"]) and 0 <= data["rng"] < 1 << 64, "'rng' must be a 64-bit whole number")
    _need((card is None) == (data["phase"] == FINISHED), "'card' is null exactly when the game is finished")
    pile = Pile(tuple(deck_raw["draw"]), tuple(deck_raw["discard"]), card, data["rng"])

    state = FlipState(
        metro_map,
        tuple(players),
        data["seed"],
        options["special_stations"],
        options["solo"],
        deck,
        data["phase"],
        data["rounds"],
        sheets,
        pile,
        {},
    )
    pending_raw = data["pending"]
    _need(is_object(pending_raw) and set(pending_raw) <= set(players), "'pending' is keyed by player")
    pending: dict[str, Pending] = {}
    for p in players:
        if p not in pending_raw:
            continue
        raw = pending_raw[p]
        _need(state.active(p), f"{p} has a pending decision but is not playing")
        _need(
            is_object(raw) and is_list(raw.get("steps")) and raw["steps"],
            f"pending decision of {p} needs a list of steps",
        )
        try:
            decision = replay(metro_map, state.card_in_play(), state.special, sheets[p], raw["steps"])
        except (BadInput, RuleError) as exc:
            raise BadInput(f"malformed flipwrite state: pending decision of {p} is not legal: {exc}") from None
        _need(raw.get("owed") == decision.owed, f"pending decision of {p}: 'owed' should be {decision.owed}")
        pending[p] = decision
    state = FlipState(
        metro_map,
        tuple(players),
        data["seed"],
        options["special_stations"],
        options["solo"],
        deck,
        data["phase"],
        data["rounds"],
        sheets,
        pile,
        pending,
    )
    _need(not pending or any(state.owes(p) for p in players), "every player has decided but the round is unresolved")
    _need(state.phase == FINISHED or any(state.active(p) for p in players), "playing, but nobody has an empty window")
    return state
