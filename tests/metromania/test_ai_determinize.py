"""determinize: a whole state rebuilt from a view, which the viewer cannot tell from the real one."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrobot.games.metromania import GAME
from metrobot.games.metromania.determinize import determinize
from metrobot.games.metromania.markers import ALL_MARKERS

from .ai_helpers import VARIANTS, position


def hands(s):
    out = {}
    for m in s.markers:
        out.setdefault(m.holder, set()).add((m.letter, m.kind))
    return out


def deal_ok(s, hand):
    letters = {letter for letter, _ in hand}
    kinds = [kind for _, kind in hand]
    if len(letters) != len(hand):
        return False
    return len(set(kinds)) == 3 and (len(s.players) != 4 or len(kinds) == 3)


@pytest.mark.parametrize("n,options", VARIANTS, ids=[f"{n}p-{'-'.join(map(str, o.values()))}" for n, o in VARIANTS])
@settings(max_examples=8)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 120), draw=st.integers(0, 2**31))
def test_the_view_of_a_determinized_state_is_the_view(n, options, seed, steps, draw):
    s = position(n, options, seed, steps)
    for person in [*dict.fromkeys(s.owners.values()), None]:
        view = GAME.view(s, person)
        d = GAME.determinize(view, person, random.Random(draw))
        assert GAME.view(d, person) == view
        if person is not None and not GAME.is_over(s) and GAME.owner(s, s.players[s.current]) == person:
            seat = s.players[s.current]
            assert GAME.legal_actions(d, seat) == GAME.legal_actions(s, seat)
        # every hand drawn is one the deal could have given
        if n > 2 and options["hands"] == "hidden":
            assert all(deal_ok(d, hand) for hand in hands(d).values())
        else:
            assert hands(d) == hands(s)  # fixed deals and open hands leave nothing to chance


def test_unseen_markers_are_drawn_among_every_deal_the_view_allows():
    s = GAME.new_game(["a", "b", "c", "d"], {}, 3)
    view = GAME.view(s, "a")
    mine = {(m["letter"], m["kind"]) for m in view["markers"] if m["letter"]}
    unseen = sorted(set(ALL_MARKERS) - mine)
    others = ["b", "c", "d"]
    expected = set()
    for perm in itertools.permutations(unseen):
        split = tuple(frozenset(perm[3 * i : 3 * i + 3]) for i in range(3))
        if all(deal_ok(s, hand) for hand in split):
            expected.add(split)
    seen = set()
    rnd = random.Random(0)
    for _ in range(3000):
        d = determinize(view, "a", rnd)
        h = hands(d)
        seen.add(tuple(frozenset(h[p]) for p in others))
        assert hands(d)["a"] == hands(s)["a"]
    assert seen == expected  # 3000 draws over a few hundred deals: each one comes up


def test_a_fixed_deal_is_rebuilt_exactly():
    s = position(2, {}, 5, 30)
    d = GAME.determinize(GAME.view(s, "p1"), "p1", random.Random(1))
    assert hands(d) == hands(s) and GAME.to_json(d)["markers"] == GAME.to_json(s)["markers"]


def test_nothing_hidden_is_copied_from_the_real_state():
    s = GAME.new_game(["a", "b", "c", "d"], {}, 8)
    view = GAME.view(s, "a")
    seeds = {GAME.determinize(view, "a", random.Random(k)).seed for k in range(5)}
    assert len(seeds) == 5
