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
- after a step from a position it made itself (whose lines' statuses are up to date), it
  re-checks whether a line is blocked only where the step can have changed that: every line
  after a station or a marker went down, when fewer than two stations are left, or after a
  tunnel on an arrow; else the line dug and the lines whose tip the new tunnel's cell lies
  beside (`_AROUND`: the only cells `rules.can_extend` reads the occupation of for a line that
  has started, but the arrows). The engine re-checks every line after every step.
The turn flow (`steps.py`: lines blocked, the end trigger, the next seat, the scoring) is
followed line by line; `tests/metromania/test_ai_simulate.py` checks that both give the same
position for every legal step of seeded games, and the same greedy games.
A state made here is for looking ahead only: the engine's `apply` plays the real moves (their
events are the narration).
"""

from __future__ import annotations

from ...protocol import Action
from .. import rules, scoring
from ..board import ARROW_BY_APEX, ARROW_BY_CELL, CITY_CELL_SET, Cell, Vertex
from ..state import Line, Marker, State, Turn
from ..steps import TUNNELS_PER_TURN, end_threshold

# For a line's tip: the city cells beside the edges it could dig next, the cells whose
# occupation `rules.can_extend` reads (besides the arrows').
_AROUND: dict[Vertex, frozenset[Cell]] = {
    tip: frozenset(c for _, cells, _ in steps for c in cells) for tip, steps in rules.STEPS_FROM.items()
}

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
        _place_station(new, (action["at"][0], action["at"][1]))
        _after_step(new, None)
        _end_turn(new)
    elif kind == "bonus":
        new.turn.bonus = None
        _place_station(new, (action["at"][0], action["at"][1]))
        _after_step(new, None)
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
    local = statuses_known and not marker and not made and cell not in ARROW_BY_CELL
    _after_step(s, (li, cell) if local else None)
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


def _after_step(s: State, dug: tuple[int, Cell] | None) -> None:
    """`dug`: the line dug and the tunnel's cell when only the lines beside it may need a
    re-check (see the module's comment); None: every line."""
    if dug is not None and s.stations_left < 2:
        dug = None  # the supply may refuse a tunnel: every line's options changed
    for li, line in enumerate(s.lines):
        if line.status == "finished":
            continue
        if dug is not None and li != dug[0]:
            around = _AROUND.get(line.vertices[-1]) if line.vertices else frozenset()
            if around is not None and dug[1] not in around:
                continue  # nothing it could dig next changed
        blocked = not rules.can_extend(s, li, per_turn=False)
        status = "blocked" if blocked else ("building" if line.vertices else "unstarted")
        if status != line.status:
            _own_line(s, li).status = status
    s.statuses_known = True  # every line's status is up to date
    if s.phase != "building":
        return
    reason = None
    statuses = [line.status for line in s.lines]
    if any(statuses[li] == "finished" == statuses[li + 1] for li in range(0, len(statuses), 2)):
        reason = "two_lines_finished"
    elif s.stations_left <= 0:
        reason = "last_station"
    elif statuses.count("finished") + statuses.count("blocked") >= end_threshold(s):
        reason = "lines_done"
    if reason:
        s.phase = "last_round"
        s.trigger = reason
        s.remaining = [(s.current + k) % s.n_seats for k in range(1, s.n_seats)]
        s.turn.ending = True


def _end_turn(s: State) -> None:
    s.turns_taken[s.current] += 1
    s.turn = Turn()
    for _ in range(s.n_seats + 1):
        if s.phase == "last_round":
            if not s.remaining:
                scoring.finish(s, scoring.LightTrips)  # the same result without networkx
                return
            s.current = s.remaining.pop(0)
        else:
            s.current = (s.current + 1) % s.n_seats
        if _has_action(s):
            return
        s.turns_taken[s.current] += 1
    raise RuntimeError("no seat can move but the building phase did not end")
