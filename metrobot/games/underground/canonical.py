"""The canonical JSON of an On the Underground state (the contract is in engine.py):
`to_json` writes it, `from_json` reads it back and checks that it is consistent, on the
map it names (a state whose map digest differs from the map's is refused).

Kept apart from the state's classes (`state.py`): the checks of JSON from storage or the
CLI are most of it, and the rules never need them.
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

from ..protocol import BadInput, is_list, is_object
from .board import Board, board_named
from .state import (
    BREAKDOWN_KEYS,
    COLOURS,
    LEGS,
    PHASES,
    SCORED_KEYS,
    SUPPLY,
    SYMBOLS,
    Colour,
    State,
    Turn,
    copy_pending,
)


def to_json(s: State) -> dict[str, Any]:
    out: dict[str, Any] = {
        "game": "underground",
        "map": s.board.name,
        "map_digest": s.board.digest,
        "seed": s.seed,
        "players": list(s.players),
        "options": dict(s.options),
        "start_player": s.start_player,
        "colours": {
            c: {"owner": col.owner, "pieces_left": s.pieces_left(c), "track": list(col.track)}
            for c, col in s.colours.items()
        },
        "tokens": dict(s.tokens),
        "scores": s.scores(),
        "breakdown": {p: {**s.breakdown[p], "total": s.score(p)} for p in s.players},
        "scored": {c: {k: list(v) for k, v in sc.items()} for c, sc in s.scored.items()},
        "connection_tiles": dict(s.tiles),
        "deck": {"draw": list(s.draw), "row": list(s.row), "discard": list(s.discard)},
        "passenger": {"at": s.at, "trips": [_copy_trip(t) for t in s.trips], "gone": s.gone},
        "turn": s.turn.to_json(s.player),
        "last_turn": None
        if s.last_turn is None
        else {
            "player": s.last_turn["player"],
            "placements": [dict(p) for p in s.last_turn["placements"]],
            "forgone": s.last_turn["forgone"],
        },
        "turn_count": s.turn_count,
        "phase": s.phase,
        "rng": s.rng,
    }
    if s.winners is not None:
        out["winners"] = list(s.winners)
    return out


def _copy_trip(t: dict[str, Any]) -> dict[str, Any]:
    return dict(t, path=list(t["path"]), colours=list(t["colours"]), points=dict(t["points"]))


def _req(cond: bool, msg: str) -> None:
    if not cond:
        raise BadInput(msg)


def _int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _strs(x: Any) -> bool:
    return is_list(x) and all(map(isinstance, x, repeat(str)))  # (the loop in C: decks are long)


def from_json(data: Any) -> State:
    """Rebuild a state from canonical JSON, checking that it is consistent; BadInput gives a
    one-line reason. A state whose map digest differs from the map's is refused."""
    _req(is_object(data), "an On the Underground state must be a JSON object")
    if data.get("game") != "underground":  # (messages with values are made only when needed)
        raise BadInput(f"not an On the Underground state (game = {data.get('game')!r})")
    name = data.get("map")
    _req(isinstance(name, str), "map must be a map name")
    board = board_named(name, data.get("map_digest"))
    players = data.get("players")
    _req(
        is_list(players)
        and 2 <= len(players) <= 5
        and all(isinstance(p, str) and p for p in players)
        and len(set(players)) == len(players),
        "players must be 2-5 distinct non-empty ids",
    )
    start = data.get("start_player")
    _req(start in players, "start_player must be one of the players")
    seed, rng = data.get("seed", 0), data.get("rng", 0)
    _req(_int(seed) and _int(rng), "seed and rng must be integers")
    phase = data.get("phase", "playing")
    if phase not in PHASES:
        raise BadInput(f"phase must be one of {', '.join(PHASES)}")

    colours: dict[str, Colour] = {}
    occ: dict[int, list[str]] = {}
    gaps, ends = board.gaps, board.ends
    raw_colours = data.get("colours")
    _req(is_object(raw_colours), "colours must be an object")
    for c in COLOURS:  # canonical order, whatever order the JSON had
        if c not in raw_colours:
            continue
        rc = raw_colours[c]
        if not (is_object(rc) and rc.get("owner") in players):
            raise BadInput(f"colour {c} needs an owner among the players")
        track = rc.get("track", [])
        # (the usual case, plain ints that are all gaps, checked in C; else item by item)
        plain = is_list(track) and set(map(type, track)) <= {int} and gaps.keys() >= set(track)
        if not (plain or (is_list(track) and all(_int(g) and g in gaps for g in track))):
            raise BadInput(f"colour {c}: track must list gap ids of the map")
        if len(set(track)) != len(track):
            raise BadInput(f"colour {c} has two pieces in one gap")
        if len(track) > SUPPLY[c]:
            raise BadInput(f"colour {c} has only {SUPPLY[c]} pieces")
        col = Colour(rc["owner"], list(track))
        deg = col.deg
        grown = True  # each gap touches the stations of those before it: connected
        for g in track:
            a, b = ends[g]
            if deg and a not in deg and b not in deg:
                grown = False
            deg[a] = deg.get(a, 0) + 1
            deg[b] = deg.get(b, 0) + 1
            held = occ.get(g)
            if held is None:
                occ[g] = [c]
            else:
                held.append(c)
        # (the engine's tracks are in the order they grew, so the search is seldom needed)
        if not grown and not _connected(board, track):
            raise BadInput(f"colour {c}: its track must be one connected line")
        colours[c] = col
    unknown = set(raw_colours) - set(COLOURS)
    _req(not unknown, f"unknown colour(s): {', '.join(sorted(unknown))}")
    slots = board.slots
    for g, cs in occ.items():
        if len(cs) > slots[g]:
            raise BadInput(f"gap {g} holds {len(cs)} colours but has {slots[g]} slots")

    tokens: Any = data.get("tokens") or {}
    _req(
        is_object(tokens) and all(_int(tokens.get(p, 0)) and tokens.get(p, 0) >= 0 for p in players),
        "tokens must map players to non-negative integers",
    )
    raw_bd: Any = data.get("breakdown") or {}
    _req(is_object(raw_bd), "breakdown must be an object")
    breakdown: dict[str, dict[str, int]] = {}
    for p in players:
        b: Any = raw_bd.get(p) or {}
        if not (is_object(b) and all(_int(b.get(k, 0)) for k in BREAKDOWN_KEYS)):
            raise BadInput(f"breakdown of {p} must hold integers")
        breakdown[p] = {k: b.get(k, 0) for k in BREAKDOWN_KEYS}
    raw_scored: Any = data.get("scored") or {}
    _req(is_object(raw_scored), "scored must be an object")
    scored: dict[str, dict[str, list[str]]] = {}
    for c in colours:
        sc: Any = raw_scored.get(c) or {}
        if not (is_object(sc) and all(_strs(sc.get(k, [])) for k in SCORED_KEYS)):
            raise BadInput(f"scored.{c} must hold lists of names")
        scored[c] = {k: list(sc.get(k, [])) for k in SCORED_KEYS}

    tiles: Any = data.get("connection_tiles") or {}
    _req(
        is_object(tiles) and set(tiles) == set(board.connections) and all(v in SYMBOLS for v in tiles.values()),
        f"connection_tiles must give each connection station one of {', '.join(SYMBOLS)}",
    )

    deck: Any = data.get("deck") or {}
    _req(
        is_object(deck) and all(_strs(deck.get(k, [])) for k in ("draw", "row", "discard")),
        "deck must hold draw, row and discard lists",
    )
    draw, row, discard = list(deck.get("draw", [])), list(deck["row"]), list(deck.get("discard", []))
    cards = draw + row + discard
    _req(
        sorted(cards) == list(board.destinations),
        "the deck (draw + row + discard) must hold each destination card exactly once",
    )
    _req(len(row) <= 4, "at most 4 destination cards lie face up")

    passenger: Any = data.get("passenger") or {}
    at = passenger.get("at", board.start)
    if at not in board.xy:
        raise BadInput(f"the passenger stands on unknown station {at!r}")
    trips = passenger.get("trips", [])
    _req(is_list(trips) and all(map(is_object, trips)), "passenger.trips must be a list")

    raw_turn: Any = data.get("turn") or {}
    _req(is_object(raw_turn), "turn must be an object")
    player = raw_turn.get("player", start)
    _req(player in players, "turn.player must be a player")
    step = raw_turn.get("step", 0)
    _req(_int(step) and 0 <= step <= 4, "turn.step must be 0-4")
    pending = raw_turn.get("pending_route")
    _req(
        pending is None
        or (
            is_object(pending)
            and pending.get("kind") in LEGS
            and is_list(pending.get("options"))
            and len(pending["options"]) >= 2
            and all(
                is_object(o)
                and o.get("to") in board.kind
                and _strs(o.get("colours"))
                and set(o["colours"]) <= set(colours)
                and _int(o.get("walks"))
                and _strs(o.get("path"))
                for o in pending["options"]
            )
        ),
        "turn.pending_route must be null or {kind, options: two or more {to, colours, walks, path}}",
    )
    turn = Turn(
        step,
        [dict(p) for p in raw_turn.get("placements") or ()],
        raw_turn.get("forgone", 0),
        bool(raw_turn.get("build_done", False)),
        copy_pending(pending),
    )
    last_turn = data.get("last_turn")
    _req(
        last_turn is None
        or (
            is_object(last_turn)
            and last_turn.get("player") in players
            and is_list(last_turn.get("placements"))
            and _int(last_turn.get("forgone"))
        ),
        "last_turn must be null or {player, placements, forgone}",
    )
    if last_turn is not None:
        last_turn = {
            "player": last_turn["player"],
            "placements": [dict(p) for p in last_turn["placements"]],
            "forgone": last_turn["forgone"],
        }
    turn_count = data.get("turn_count", 0)
    _req(_int(turn_count) and turn_count >= 0, "turn_count must be a non-negative integer")
    winners = data.get("winners")
    _req(winners is None or (_strs(winners) and set(winners) <= set(players)), "winners must list players")
    _req((phase == "finished") == (winners is not None), "winners are given exactly when the game is finished")

    return State(
        board=board,
        seed=seed,
        rng=rng,
        players=list(players),
        options=dict(data.get("options") or {}),
        start_player=start,
        colours=colours,
        tokens={p: tokens.get(p, 0) for p in players},
        breakdown=breakdown,
        scored=scored,
        tiles=dict(tiles),
        draw=draw,
        row=row,
        discard=discard,
        at=at,
        trips=[_copy_trip(t) for t in trips],
        gone=bool(passenger.get("gone", False)),
        current=players.index(player),
        turn=turn,
        turn_count=turn_count,
        phase=phase,
        last_turn=last_turn,
        winners=None if winners is None else list(winners),
        occ=occ,
    )


def _connected(board: Board, track: list[int]) -> bool:
    """Every colour's track is one piece: a line starts once and then grows from itself."""
    if not track:
        return True
    nbrs: dict[str, list[str]] = {}
    for g in track:
        a, b = board.ends[g]
        nbrs.setdefault(a, []).append(b)
        nbrs.setdefault(b, []).append(a)
    first = board.ends[track[0]][0]
    seen, todo = {first}, [first]
    while todo:
        for o in nbrs[todo.pop()]:
            if o not in seen:
                seen.add(o)
                todo.append(o)
    return len(seen) == len(nbrs)
