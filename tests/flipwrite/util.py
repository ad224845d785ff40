"""Helpers shared by the flip-and-write tests: building states, forcing cards, and an
independent re-implementation of the scoring that reads nothing but the state JSON."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from metrobot.games.flipwrite import GAME
from metrobot.games.flipwrite.sheet import Sheet

from .smallmaps import small_map_option, tiny_data


def new(players=("ann", "bob"), *, special=False, deck=None, seed=1, map_data=None):
    options: dict[str, Any] = {"map": map_data or tiny_data(), "special_stations": special}
    if deck is not None:
        options["deck"] = deck
    return GAME.new_game(list(players), options, seed)


def new_on(name: str, players=("ann", "bob"), **kw):
    return new(players, map_data=small_map_option(name), **kw)


def set_card(state, code: str):
    """Force the face-up card (the pile's contents stay as they are)."""
    return replace(state, pile=replace(state.pile, card=code))


def set_sheet(state, player: str, marks: dict | None = None, windows: dict | None = None):
    old = state.sheets[player]
    full_windows = dict(old.windows)
    for lid, codes in (windows or {}).items():
        full_windows[lid] = tuple(codes)
    sheets = dict(state.sheets)
    sheets[player] = Sheet(dict(marks or {}), full_windows, dict(old.completed))
    return replace(state, sheets=sheets)


def play_round(state, decisions: dict[str, Any], card: str | None = None):
    """Apply each player's action (or list of chained actions); returns (state, all events)."""
    if card is not None:
        state = set_card(state, card)
    events = []
    for player, acts in decisions.items():
        for action in acts if isinstance(acts, list) else [acts]:
            state, evs = GAME.apply(state, player, action)
            events += evs
    return state, events


def ride(line, count, direction=None, **extra):
    action = {"type": "ride", "line": line, "count": count, **extra}
    if direction:
        action["dir"] = direction
    return action


def independent_scores(data: dict) -> dict[str, dict[str, int]]:
    """Score every sheet from the JSON alone, re-deriving which completion got high or low."""
    lines = {l["id"]: l for l in data["map_data"]["lines"]}
    stations = [s["id"] for s in data["map_data"]["stations"]]
    solo = len(data["players"]) == 1
    first_round = {}
    for p in data["players"]:
        for lid, done in data["sheets"][p]["completed"].items():
            first_round[lid] = min(first_round.get(lid, done["round"]), done["round"])
    out = {}
    for p in data["players"]:
        sheet = data["sheets"][p]
        marks = sheet["marks"]
        completion = 0
        for lid, line in lines.items():
            full = all(s in marks for s in line["stations"])
            assert full == (lid in sheet["completed"]), f"{p}: line {lid} full={full} but completed mismatch"
            if full:
                rnd = sheet["completed"][lid]["round"]
                expected = line["high"] if solo or rnd == first_round[lid] else line["low"]
                assert sheet["completed"][lid]["points"] == expected
                completion += expected
        transfers = 2 * sum(v for v in marks.values() if isinstance(v, int) and not isinstance(v, bool))
        empty = sum(1 for s in stations if s not in marks)
        penalty = empty if solo else empty // 2
        out[p] = {
            "completion": completion,
            "transfers": transfers,
            "empty_penalty": penalty,
            "total": completion + transfers - penalty,
            "empty": empty,
        }
    return out
