"""Helpers shared by the flip-and-write tests: building states, forcing cards, and an
independent re-implementation of the scoring that reads nothing but the state JSON."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from metrobot.games.flipwrite import GAME
from metrobot.games.flipwrite.actions import legal
from metrobot.games.flipwrite.determinize import sealed_decision
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


def position(map_name, n, special, seed, steps):
    """A seeded position `steps` single decisions into a game (often mid-round, so some
    players have sealed and, with the variant, some are in the middle of a chain)."""
    rnd = random.Random(seed)
    players = [f"p{i}" for i in range(n)]
    option = small_map_option(map_name) if map_name == "tiny" else map_name
    state = GAME.new_game(players, {"map": option, "special_stations": special}, seed)
    for _ in range(steps):
        if GAME.is_over(state):
            break
        player = rnd.choice(sorted(GAME.to_move(state)))
        legal = GAME.legal_actions(state, player)
        action = GAME.auto_action(state, player, rnd) if rnd.random() < 0.6 else rnd.choice(legal)
        state, _ = GAME.apply(state, player, action)
    return state


def other_than(first):
    """A decision rule picking any legal move but `first` (a sealed choice that differs)."""

    def pick(state, player, sheet, rnd):
        return rnd.choice([a for a in legal(state.map, sheet, state.card) if a != first] or [first])

    return pick


def mid_round(map_name, n, special, seed, rounds):
    """`rounds` whole rounds into a seeded game, then every seat but the last has sealed."""
    rnd = random.Random(seed)
    state = GAME.new_game([f"p{i}" for i in range(n)], {"map": map_name, "special_stations": special}, seed)
    while state.rounds < rounds or len(GAME.to_move(state)) > 1:
        player = min(GAME.to_move(state))
        action = (
            GAME.auto_action(state, player, rnd)
            if rnd.random() < 0.6
            else rnd.choice(GAME.legal_actions(state, player))
        )
        state, _ = GAME.apply(state, player, action)
    return state


def hidden_variants(state, viewer, rnd):
    """States that differ from `state` only in what `viewer` cannot see, one for each
    hidden thing: the order of the draw pile (and the pile's generator), and each other
    seat's sealed choice."""
    pile = state.pile
    out = [replace(state, pile=replace(pile, draw=pile.draw[::-1], rng=rnd.getrandbits(64)))]
    for other, decision in state.pending.items():
        if other != viewer and decision.sealed:
            changed = dict(state.pending)
            changed[other] = sealed_decision(replace(state, pending={}), other, rnd, other_than(decision.steps[0]))
            out.append(replace(state, pending=changed))
    return [v for v in out if v != state]
