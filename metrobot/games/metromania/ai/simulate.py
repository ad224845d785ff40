"""Steps for the automatic players' look-ahead: the engine's rules, less of its work.

The greedy ranking applies every legal step of a seat to estimate where it leads, and the
strong player's rollouts do so at every step of every play-out: the engine's `apply` was most
of a decision. `step` gives the same position for a legal step (every field the rules, the
estimate and the scoring read: lines, stations, markers, scores, the turn, the phase, whose
move, the final result), for less:
- it shares what the step does not change with the position it starts from (the lines but the
  one dug or whose status changes, the markers but the one dropped; `State.copy` copies all);
- it writes no events and keeps no record of the turn (`Turn.record`, `last_turn`: what the
  narration and the pictures show);
- it checks nothing: the step must be one of `legal_actions`;
- after a step from a position whose lines' statuses it knows to be up to date (one it made
  itself), it re-checks whether a line is blocked only where the step can have changed that
  (`_after_step`). The engine re-checks every line after every step.
The turn flow (`steps.py`: lines blocked, the end trigger, the next seat, the scoring) is
followed line by line; `tests/metromania/test_ai_simulate.py` checks that both give the same
position for every legal step of seeded games, and the same greedy games.
A state made here is for looking ahead only: the engine's `apply` plays the real moves (their
events are the narration).
"""

from __future__ import annotations

from ...protocol import Action
from .. import rules, scoring
from ..board import ARROW_BY_APEX, ARROW_BY_CELL, CITY_CELL_SET, TOUCHING, Cell, Vertex
from ..state import Line, Marker, State, Turn
from ..steps import TUNNELS_PER_TURN, end_building

# For a line's tip: the city cells beside the edges it could dig next, the cells whose
# occupation `rules.can_extend` reads (besides the arrows').
_AROUND: dict[Vertex, frozenset[Cell]] = {
    tip: frozenset(c for _, cells, _ in steps for c in cells) for tip, steps in rules.STEPS_FROM.items()
}
# ... and the cells a marker dropped on changes which markers may go there (its twin may not
# go on a cell touching it).
_AROUND_TOUCHING: dict[Vertex, frozenset[Cell]] = {
    tip: frozenset(x for c in cells for x in TOUCHING[c]) for tip, cells in _AROUND.items()
}
# What a step changed, for `_after_step`: the line dug (or None), the tunnel's cell, the seat
# that dropped a marker on it (or None), the vertex of an intermediate or bonus station (or None).
Change = tuple[int | None, Cell | None, str | None, Vertex | None]


def _shared_copy(s: State) -> State:
    """A copy whose own containers are the small ones every step changes; the lines and
    markers are shared with `s` until a step changes one (`_own_line`, `_drop_marker`)."""
    t = s.turn
    return State(
        s.seed,
        s.rng,
        s.options,
        s.players,
        s.owners,
        s.layout,
        s.cells,
        list(s.lines),
        s.stations.copy(),
        list(s.markers),
        dict(s.scores),
        s.phase,
        s.current,
        Turn(t.tunnels, t.marker, t.started, t.bonus, t.ending, t.record),  # the record is never written here
        s.turns_taken.copy(),
        s.remaining.copy(),
        s.trigger,
        s.last_turn,
        s.result,
        dict(s.occupied),
        set(s.station_set),
        False,  # `_after_step` brings the statuses up to date
    )


def _own_line(s: State, li: int) -> Line:
    line = s.lines[li] = s.lines[li].copy()
    return line


def step(s: State, action: Action) -> State:
    """The position after the seat to move plays `action` (one of its legal steps)."""
    new = _shared_copy(s)
    kind = action["type"]
    if kind == "tunnel":
        _tunnel(new, action, s.statuses_known)
    elif kind == "station":
        v = (action["at"][0], action["at"][1])
        _place_station(new, v)
        _after_step(new, (None, None, None, v) if s.statuses_known else None)
        _end_turn(new)
    elif kind == "bonus":
        new.turn.bonus = None
        v = (action["at"][0], action["at"][1])
        _place_station(new, v)
        _after_step(new, (None, None, None, v) if s.statuses_known else None)
        if new.turn.ending or new.turn.tunnels >= TUNNELS_PER_TURN or not _can_dig(new):
            _end_turn(new)
    else:  # decline_bonus
        new.statuses_known = s.statuses_known  # no line changed: statuses as up to date as before
        new.turn.bonus = None
        if new.turn.ending or not _can_dig(new):
            _end_turn(new)
    return new


def _tunnel(s: State, action: Action, statuses_known: bool) -> None:
    c, t = action["cell"], action["to"]
    cell, to = (c[0], c[1], c[2]), (t[0], t[1])
    li = s.line_of(s.current, action["line"])
    marker = action.get("marker")
    if marker is None and cell in CITY_CELL_SET and s.cells[cell] in rules.SPOTS:
        letters = rules.usable_letters(s, s.lines[li].player, cell)
        if len(letters) == 1:
            marker = letters[0]  # as the engine does: the only marker that may go there
    player = s.players[s.current]
    s.turn.bonus = None
    line = _own_line(s, li)
    if not line.vertices:
        apex = ARROW_BY_CELL[cell].apex
        line.vertices.append(apex)
        line.index[apex] = 0
        line.status = "building"
        s.turn.started = True
    frm = line.vertices[-1]
    made = rules.stations_made(s, li, frm, to)
    line.index[to] = len(line.vertices)
    line.vertices.append(to)
    line.cells.append(cell)
    s.occupied[cell] = li
    s.turn.tunnels += 1
    if marker:
        kind = s.cells[cell]
        for i, m in enumerate(s.markers):
            if m.holder == player and m.cell is None and m.letter == marker and m.kind == kind:
                s.markers[i] = Marker(m.letter, m.kind, m.holder, cell)
                break
        s.turn.marker = True
    for v in made:
        _place_station(s, v)
    arrow = ARROW_BY_APEX.get(to)
    if arrow is not None and arrow.kind == "end":
        line.status = "finished"
        if rules.station_spots(s, li, bonus=True):
            s.turn.bonus = li
    local = statuses_known and cell not in ARROW_BY_CELL
    _after_step(s, (li, cell, player if marker else None, None) if local else None)
    if s.turn.ending or s.turn.tunnels >= TUNNELS_PER_TURN or not _can_dig(s):
        if s.turn.bonus is not None:
            s.turn.ending = True
        else:
            _end_turn(s)


def _place_station(s: State, v: Vertex) -> None:
    s.stations.append(v)
    s.station_set.add(v)
    s.scores[s.players[s.current]] += rules.station_points(s, v)


def _can_dig(s: State) -> bool:
    """`steps._can_dig`. With the statuses up to date, a blocked line cannot be dug (no tunnel
    is legal even without this turn's limits), and a building or unstarted one can when this
    turn sets no limit (no marker dropped yet, not the first turn after a line was started):
    only the others are asked of `rules.can_extend`."""
    t = s.turn
    limits = t.marker or (t.started and s.turns_taken[s.current] == 0)
    known = s.statuses_known
    for li in s.seat_lines(s.current):
        status = s.lines[li].status
        if status == "finished" or (known and status == "blocked"):
            continue
        if (known and not limits) or rules.can_extend(s, li, per_turn=True):
            return True
    return False


def _has_action(s: State) -> bool:
    return _can_dig(s) or any(
        rules.station_spots(s, li) for li in s.seat_lines(s.current) if s.lines[li].status != "finished"
    )


def _after_step(s: State, change: Change | None) -> None:
    """`steps._after_step`, re-checking only the lines whose status `change` can have changed
    (None: every line). `rules.can_extend` reads, for a line that has started, the occupation
    of the cells around its tip (`_AROUND`) and of the arrows, whether its tip has a station,
    which markers its seat holds and where their twins lie (a spot's marker), and, when fewer
    than two stations are left, the other lines; for a line not started, only the arrows. So a
    tunnel on a city cell can change the line dug and the lines with that cell around their
    tip; a marker dropped, also the dropping seat's lines and the lines with a cell touching it
    around their tip (a station the tunnel made is at a vertex of that cell, and so of every
    line's tip there); an intermediate or bonus station, only the lines whose tip it is on.
    A tunnel on an arrow, or fewer than two stations left: every line."""
    if change is not None and s.stations_left < 2:
        change = None
    dug, cell, dropper, station = change if change is not None else (None, None, None, None)
    for li, line in enumerate(s.lines):
        if line.status == "finished":
            continue
        if change is not None and li != dug:
            if not line.vertices:
                continue  # only the arrows matter to it, and no arrow changed
            tip = line.vertices[-1]
            if station is not None:
                if tip != station:
                    continue
            elif dropper is not None:
                around = _AROUND_TOUCHING.get(tip)
                if line.player != dropper and around is not None and cell not in around:
                    continue
            else:
                around = _AROUND.get(tip)
                if around is not None and cell not in around:
                    continue
        blocked = not rules.can_extend(s, li, per_turn=False)
        status = "blocked" if blocked else ("building" if line.vertices else "unstarted")
        if status != line.status:
            _own_line(s, li).status = status
    s.statuses_known = True  # every line's status is up to date
    end_building(s)


def _end_turn(s: State) -> None:
    s.turns_taken[s.current] += 1
    s.turn = Turn()
    for _ in range(s.n_seats + 1):
        if s.phase == "last_round":
            if not s.remaining:
                scoring.finish(s, scoring.LightTrips.of)  # the same result without networkx
                return
            s.current = s.remaining.pop(0)
        else:
            s.current = (s.current + 1) % s.n_seats
        if _has_action(s):
            return
        s.turns_taken[s.current] += 1
    raise RuntimeError("no seat can move but the building phase did not end")
