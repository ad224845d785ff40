"""A whole MetrOmania state rebuilt from one player's view (see `Game.determinize`).

What a view hides, and so what is drawn here:
- the seed and the generator state. The engine draws from the generator only while
  setting up (board and deal), so any fresh value serves; it is taken from `rnd`.
- in the hidden-hands mode, the letter and kind of every marker another person still
  holds: the view keeps the entry (its holder, no cell) with letter and kind blanked.
  The blanked markers are exactly the ones the view does not show anywhere, and they are
  dealt among the blanked entries uniformly at random over the deals the rules
  (`markers.py`) allow and the view does not contradict: each holder's whole hand, the
  markers already placed included, must be a hand the deal could have given. In the
  2-player, advanced and strict games the deal is fixed, so nothing is left to chance.
Open and strict hands show every marker; then only the generator is new.

Decision: the deal is drawn ignoring *where* a blanked entry stands in the view's list.
The engine lists markers in a fixed order, so positions would give hands away; a player
must not learn from that, so neither does this module. The rebuilt state lists markers
in the view's order (so its own view is the view it came from), with its own letters.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .canonical import from_json
from .markers import ALL_MARKERS, MARKER_SET, STRICT, TWO_PLAYER
from .state import State

Marker = tuple[str, str]  # (letter, kind)
# (deal rule, unseen markers, (holder, blanked count, markers known in hand) per holder)
DealKey = tuple[str, tuple[Marker, ...], tuple[tuple[str, int, tuple[Marker, ...]], ...]]


def determinize(view: dict[str, Any], viewer: str | None, rnd: random.Random) -> State:
    data = dict(view)
    data.pop("viewer", None)
    markers = [dict(m) for m in view["markers"]]
    blank = [i for i, m in enumerate(markers) if m.get("letter") is None]
    if blank:
        _deal_unseen(data, markers, blank, rnd)
    # The engine keeps markers in one fixed order (letter, then res/com/ent); a view sorts
    # hidden ones last, so put them back or the rebuilt state would differ from a real one.
    kinds = list(MARKER_SET)
    markers.sort(key=lambda m: (m["letter"], kinds.index(m["kind"])))
    data["markers"] = markers
    data["seed"] = rnd.getrandbits(32)
    data["rng"] = rnd.getrandbits(64)
    return from_json(data)


def _deal_unseen(data: dict[str, Any], markers: list[dict[str, Any]], blank: list[int], rnd: random.Random) -> None:
    seats = list(data["players"])
    options: Any = data.get("options") or {}
    shown = {(m["letter"], m["kind"]) for m in markers if m.get("letter") is not None}
    unseen = tuple(sorted(set(ALL_MARKERS) - shown))
    slots: dict[str, int] = {}
    for i in blank:
        slots[markers[i]["holder"]] = slots.get(markers[i]["holder"], 0) + 1
    known: dict[str, list[Marker]] = {seat: [] for seat in seats}
    for m in markers:
        if m.get("letter") is not None:
            known.setdefault(m["holder"], []).append((m["letter"], m["kind"]))
    rule = _rule(len(seats), strict=options.get("hands") == "strict", advanced=bool(options.get("advanced")))
    holders = tuple(sorted(slots))
    key: DealKey = (rule, unseen, tuple((h, slots[h], tuple(sorted(known.get(h, [])))) for h in holders))
    deals = _deals(key, tuple(seats))
    deal: Sequence[tuple[Marker, ...]]
    if deals:
        deal = deals[rnd.randrange(len(deals))]
    else:
        # A hand-made position no deal could give: any split with the right counts.
        pool = list(unseen)
        rnd.shuffle(pool)
        deal = []
        k = 0
        for h in holders:
            deal.append(tuple(pool[k : k + slots[h]]))
            k += slots[h]
    for h, hand in zip(holders, deal):
        hand_iter = iter(sorted(hand))
        for i in blank:
            if markers[i]["holder"] == h:
                letter, kind = next(hand_iter)
                markers[i]["letter"], markers[i]["kind"] = letter, kind


def _rule(n_seats: int, *, strict: bool, advanced: bool) -> str:
    if advanced:
        return "advanced"
    if n_seats == 2:
        return "two"
    if strict:
        return "strict"
    return f"random{n_seats}"


def _fixed_hands(rule: str, n_seats: int) -> list[list[Marker]] | None:
    if rule == "advanced":
        p1, p2 = TWO_PLAYER
        return [p1[:3], p2[:3], p1[3:], p2[3:]]
    if rule == "two":
        return [list(h) for h in TWO_PLAYER]
    if rule == "strict":
        return [list(h) for h in STRICT.get(n_seats, ())] or None
    return None


def _hand_ok(rule: str, hand: list[Marker], *, complete: bool) -> bool:
    """Could the random deal have given this hand (or, if incomplete, a superset of it)?"""
    letters = [letter for letter, _ in hand]
    if len(set(letters)) != len(letters):
        return False
    kinds = [kind for _, kind in hand]
    if rule == "random4":
        return len(set(kinds)) == len(kinds)
    if rule == "random3" and complete:
        return len(set(kinds)) == 3
    return True


@lru_cache(maxsize=256)
def _deals(key: DealKey, seats: tuple[str, ...]) -> tuple[tuple[tuple[Marker, ...], ...], ...]:
    """Every way to hand the unseen markers to the holders of blanked entries that the
    deal rule allows: one tuple of markers per holder (in `holders` order). Small: at
    most 216 deals with 4 players and 70 with 3, so they are listed, not sampled."""
    rule, unseen, per_holder = key
    fixed = _fixed_hands(rule, len(seats))
    if fixed is not None:
        deal: list[tuple[Marker, ...]] = []
        for h, count, _known in per_holder:
            if h not in seats:
                return ()
            rest = tuple(sorted(set(fixed[seats.index(h)]) & set(unseen)))
            if len(rest) != count:
                return ()
            deal.append(rest)
        return (tuple(deal),) if sorted(m for d in deal for m in d) == sorted(unseen) else ()

    out: list[tuple[tuple[Marker, ...], ...]] = []
    hands: list[list[Marker]] = [list(known) for _h, _count, known in per_holder]
    need = [count for _h, count, _known in per_holder]

    def place(k: int) -> None:
        if k == len(unseen):
            if all(n == 0 for n in need) and all(_hand_ok(rule, hand, complete=True) for hand in hands):
                out.append(tuple(tuple(sorted(set(hand) & set(unseen))) for hand in hands))
            return
        for j, hand in enumerate(hands):
            if need[j] and _hand_ok(rule, hand + [unseen[k]], complete=False):
                hand.append(unseen[k])
                need[j] -= 1
                place(k + 1)
                need[j] += 1
                hand.pop()

    place(0)
    return tuple(out)
