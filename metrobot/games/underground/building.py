"""The building rules: which placements a colour may make and what kind each one is.

A placement puts one piece of a colour in a gap. Always: the gap has a free slot (fewer
colours than slots), the colour is not in it yet, the colour has pieces left. Its kind
follows from the position, never from the request:
  start   the colour has no piece anywhere yet: any gap will do;
  extend  the gap touches an END of the colour (a station where it has exactly one
          piece and which is not inside one of the colour's own loops: a spur built into
          a loop grows on by branching); closing a loop from an end back onto the line is
          an extension too;
  branch  the gap touches the colour's line only at stations that are not ends (loops
          have no ends; a join point has three pieces): costs 2 branch tokens.
A gap touching no station of a started colour is not a placement at all.
"""

from __future__ import annotations

from typing import Any

from ..protocol import RuleError, SaidList
from .scoring import COLUMN, enclosed, gains, record
from .state import State
from .words import colour_list, colour_term

PLACEMENTS_PER_TURN = 4
BRANCH_COST = 2


def line_ends(s: State, colour: str) -> set[str]:
    """The colour's ends: stations with exactly one of its pieces, not inside one of its
    own closed loops (the rules' definition)."""
    col = s.colours[colour]
    tips = {st for st, n in col.deg.items() if n == 1}
    # The track is one connected piece: it holds a loop only with as many gaps as stations.
    if tips and len(col.track) >= len(col.deg):
        tips -= enclosed(s.board, col.track)
    return tips


def kind_of(s: State, colour: str, gap: int, ends: set[str] | None = None) -> str | None:
    """start / extend / branch, or None when the gap does not touch the started line
    (`ends`: the colour's `line_ends`, when the caller has them already)."""
    col = s.colours[colour]
    if not col.track:
        return "start"
    a, b = s.board.ends[gap]
    if ends is None:
        ends = line_ends(s, colour)
    if a in ends or b in ends:
        return "extend"
    if a in col.deg or b in col.deg:
        return "branch"
    return None


def free(s: State, colour: str, gap: int) -> bool:
    held = s.occ.get(gap, ())
    return colour not in held and len(held) < s.board.slots[gap]


def placements(s: State, player: str) -> list[tuple[str, int, str]]:
    """Every legal (colour, gap, kind) for `player` now, colours in deal order, gaps by id."""
    # The automatic players' inner loop: `free` and `kind_of` written out here, on the
    # board's slot table, and what follows from a colour's track alone (`_reach`) looked up.
    out: list[tuple[str, int, str]] = []
    board = s.board
    occ = s.occ
    slots = board.slots
    can_branch = s.tokens[player] >= BRANCH_COST
    open_gaps: list[int] | None = None  # gaps with a free slot
    for colour in s.colours_of(player):
        if s.pieces_left(colour) <= 0:
            continue
        col = s.colours[colour]
        if not col.track:
            # A colour with no piece is in no gap: any gap with a free slot will do, the
            # same gaps for each such colour.
            if open_gaps is None:
                open_gaps = [g for g, n in slots.items() if len(occ.get(g, ())) < n]
            out += [(colour, g, "start") for g in open_gaps]
            continue
        # (a gap next to the line but not on it holds other colours only)
        for g, kind in _reach(s, colour):
            if len(occ.get(g, ())) < slots[g] and (can_branch or kind == "extend"):
                out.append((colour, g, kind))
    return out


def _reach(s: State, colour: str) -> tuple[tuple[int, str], ...]:
    """The gaps touching the colour's line and not on it, by id, each with its kind: an
    extension when one of its ends is an end of the line, else a branch (`kind_of`). A
    function of the track alone, which most moves leave as it was: remembered per track."""
    col = s.colours[colour]
    key = (s.board.digest, tuple(col.track))
    found = _REACH.get(key)
    if found is None:
        adj = s.board.adj
        ends = line_ends(s, colour)
        kinds: dict[int, str] = {}
        for st in col.deg:
            at_end = st in ends
            for g, other in adj[st]:
                if g not in kinds:
                    kinds[g] = "extend" if at_end or other in ends else "branch"
        own = set(col.track)
        found = tuple(sorted((g, k) for g, k in kinds.items() if g not in own))
        if len(_REACH) >= 4096:
            _REACH.clear()
        _REACH[key] = found
    return found


_REACH: dict[tuple[str, tuple[int, ...]], tuple[tuple[int, str], ...]] = {}


def check(s: State, player: str, colour: str, gap: int) -> str:
    """The kind of this placement, or RuleError naming the rule that forbids it (the
    message says what to do instead)."""
    board = s.board
    col = s.colours[colour]
    mine = s.colours_of(player)
    name = colour_term(colour)
    if col.owner != player:
        raise RuleError(
            "{colour} is another player's colour; you build only your own colours ({colours}).",
            "not_your_colour",
            colour=name,
            colours=colour_list(mine),
        )
    if s.pieces_left(colour) <= 0:
        others = [c for c in mine if c != colour and s.pieces_left(c) > 0]
        if others:
            raise RuleError(
                "{colour} has no pieces left; build with {colours} or forgo the placement (a forgone "
                "placement earns a branch token).",
                "no_pieces",
                colour=name,
                colours=colour_list(others),
            )
        raise RuleError(
            "{colour} has no pieces left; forgo the placement (a forgone placement earns a branch token).",
            "no_pieces",
            colour=name,
        )
    where = board.label(gap)
    held = s.occ.get(gap, [])
    if colour in held:
        raise RuleError(
            "{colour} already runs on {gap}: a block holds at most one piece of each colour.",
            "colour_in_gap",
            hint="Choose another gap.",
            colour=name,
            gap=where,
        )
    slots = board.gaps[gap].slots
    if len(held) >= slots:
        said = {"gap": where, "colours": colour_list(held), "slots": slots}
        if slots > 1:
            raise RuleError(
                "the block {gap} is full ({colours} in its {slots} slots).",
                "gap_full",
                hint="Choose another gap.",
                **said,
            )
        raise RuleError(
            "the block {gap} is full ({colours} in its {slots} slot).", "gap_full", hint="Choose another gap.", **said
        )
    tips = line_ends(s, colour)
    kind = kind_of(s, colour, gap, tips)
    ends = SaidList(sorted(tips))
    if kind is None:
        if ends.items:
            raise RuleError(
                "{colour} does not reach {gap}: once started, a line grows only from its own stations; "
                "its ends are {ends}.",
                "not_connected",
                colour=name,
                gap=where,
                ends=ends,
            )
        raise RuleError(
            "{colour} does not reach {gap}: once started, a line grows only from its own stations; it "
            "has no ends (a loop), so only a branch is possible.",
            "not_connected",
            colour=name,
            gap=where,
        )
    if kind == "branch" and s.tokens[player] < BRANCH_COST:
        said = {"colour": name, "gap": where, "ends": ends, "cost": BRANCH_COST, "tokens": s.tokens[player]}
        if ends.items:
            raise RuleError(
                "{gap} leaves {colour} away from its ends (its ends are {ends}): that is a branch and "
                "costs {cost} branch tokens; you have {tokens}.",
                "branch_tokens",
                hint="Extend from an end, or forgo placements to earn tokens.",
                **said,
            )
        raise RuleError(
            "{gap} leaves {colour} away from its ends (a loop has no ends): that is a branch and costs "
            "{cost} branch tokens; you have {tokens}.",
            "branch_tokens",
            hint="Extend from an end, or forgo placements to earn tokens.",
            **said,
        )
    return kind


def place(s: State, player: str, colour: str, gap: int, kind: str) -> list[dict[str, Any]]:
    """Put the piece (on a state the engine has copied), pay for a branch, score; returns
    the scored items."""
    col = s.colours[colour]
    a, b = s.board.ends[gap]
    closes = col.deg.get(a, 0) > 0 and col.deg.get(b, 0) > 0
    if kind == "branch":
        s.tokens[player] -= BRANCH_COST
    s.add_piece(colour, gap)
    col = s.colours[colour]  # (the state's own copy now)
    items = gains(s.board, s.tiles, s.scored[colour], col.deg, col.track, gap, closes)
    owner = col.owner
    for item in items:
        s.breakdown[owner][COLUMN[item["what"]]] += item["points"]
        s.tokens[owner] += item.get("tokens", 0)
        record(s, colour, item)
    return items


def preview(
    s: State, colour: str, gap: int, pairs: tuple[tuple[str, tuple[str, str]], ...] | None = None
) -> list[dict[str, Any]]:
    """What the placement would score, without changing `s` (for the automatic player;
    `pairs`: the deal's `symbol_pairs`, when the caller has them)."""
    col = s.colours[colour]
    a, b = s.board.ends[gap]
    deg = col.deg
    closes = deg.get(a, 0) > 0 and deg.get(b, 0) > 0
    # `gains` takes the counts from before the piece, and reads the track only when the
    # piece closes a loop: the longer track is made only then.
    track = col.track + [gap] if closes else col.track
    return gains(s.board, s.tiles, s.scored[colour], deg, track, gap, closes, pairs)
