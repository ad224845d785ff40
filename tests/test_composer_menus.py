"""Every legal step can be reached with buttons alone: the composer's menus, walked as a
player walks them (every entry of every level, through each game's plug-in and the
adapter's own menu code), find every legal next step exactly once, with no menu over
Discord's 25 entries and no custom id over its 100 characters."""

from __future__ import annotations

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from metrobot.discord_app.composer import MAX_OPTIONS, BackButton, GroupSelect, StepSelect, composer
from metrobot.games.protocol import Choice
from metrobot.i18n import lang
from metrobot.service import Menu
from metrobot.turns import menutree
from tests.languages import checked
from tests.menus import GAMES, menu_at, parts, position


def walk(menu: Menu, language) -> list[str]:
    """Open every group of every level the way a player does and list the steps offered."""
    found: list[str] = []
    todo: list[list[int]] = [[]]
    levels = 0
    while todo:
        path = todo.pop()
        levels += 1
        children = parts(composer(menu, language, path)[1])
        for item in children:
            assert len(item.custom_id) <= 100, item.custom_id
        for item in children:
            if isinstance(item, discord.ui.Select):
                assert 1 <= len(item.options) <= 25, (path, len(item.options))
                assert all(len(o.label) <= 100 and len(o.value) <= 100 for o in item.options)
        groups = [i for i in children if isinstance(i, discord.ui.Select) and i.custom_id.startswith("mb:g:")]
        steps = [i for i in children if isinstance(i, discord.ui.Select) and i.custom_id.startswith("mb:s:")]
        buttons = [i for i in children if isinstance(i, discord.ui.Button) and i.custom_id.startswith("mb:b:")]
        backs = [i for i in children if isinstance(i, discord.ui.Button) and i.custom_id.startswith("mb:up:")]
        assert bool(backs) == bool(path)  # inside a group there is always a way back up
        for select in groups:
            todo += [path + [int(o.value)] for o in select.options]
        for select in steps:
            found += [o.value for o in select.options]
        for button in buttons:
            found.append(button.custom_id.split(":", 4)[4].split(";")[-1])  # the steps end with it
        assert levels < 10_000
    return found


@settings(max_examples=30)
@given(
    kind=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 400),
    steps=st.integers(0, 4),
    players=st.integers(0, 2),
    language=st.sampled_from(checked()),
)
def test_every_legal_step_is_reached_once_by_the_menus(kind, seed, moves, steps, players, language):
    plugin, state, seat, prefix = position(kind, GAMES[kind][1][players % len(GAMES[kind][1])], seed, moves, steps)
    reader = lang(language)
    menu = menu_at(plugin, state, seat, prefix, reader)
    legal = sorted(c.code for c in plugin.choices(state, seat, reader))
    assert sorted(walk(menu, reader)) == legal  # each exactly once
    # The ⌨ box's example, typed back as it reads in the person's language, is a legal step.
    action = plugin.parse(state, seat, menu.example)
    assert plugin.code(state, seat, action) in legal, menu.example


def test_the_first_turn_of_on_the_underground_is_reachable():
    """The position that started it: 818 first steps in 2-player On the Underground, every
    one of them (the fourth colour and forgoing too) reachable, through named groups."""
    plugin, state, seat, prefix = position("underground", 2, 7, 0, 0)
    reader = lang("en")
    menu = menu_at(plugin, state, seat, prefix, reader)
    assert len(menu.choices) > 800
    assert sorted(walk(menu, reader)) == sorted(c.code for c in menu.choices)
    _, view, _ = composer(menu, reader)
    top = next(i.item for i in view.children if isinstance(i, GroupSelect))
    assert [o.label for o in top.options] == [f"▸ {c} · start" for c in state.colours_of(seat)]  # all four
    forgo = next(i.item for i in view.children if isinstance(i, StepSelect))
    assert [o.value for o in forgo.options] == ["fg", "fg:4"]  # forgoing stays at the top
    _, inner, _ = composer(menu, reader, [3])
    areas = next(i.item for i in inner.children if isinstance(i, GroupSelect))
    assert [o.label for o in areas.options][:3] == ["▸ north-west", "▸ north", "▸ north-east"]
    assert any(isinstance(i, BackButton) for i in inner.children)


def test_long_lists_are_split_into_named_ranges_never_cut():
    choices = [Choice(f"c{i}", f"Station {chr(65 + i // 40)}{i:04}", "") for i in range(2000)]
    root = menutree.build(choices, [()] * len(choices), MAX_OPTIONS)
    seen = []
    for _, node in menutree.walk(root):
        assert len(node.groups) <= MAX_OPTIONS and len(node.leaves) <= MAX_OPTIONS
        seen += [c.code for c in node.leaves]
        for group in node.groups:
            assert "–" in group.own_name(node) and "(" not in group.name  # "A0000–A0079", never "(7)"
    assert sorted(seen) == sorted(c.code for c in choices)
    assert root.groups[0].own_name(root).startswith("A0")  # the words all labels share are left out


def test_a_short_list_shows_at_once_whatever_its_groups():
    choices = [Choice(f"c{i}", f"step {i}", f"group {i % 3}") for i in range(25)]
    root = menutree.build(choices, [(c.group,) for c in choices], MAX_OPTIONS)
    assert not root.groups and [c.code for c in root.leaves] == [c.code for c in choices]
    more = choices + [Choice("c25", "step 25", "group 0")]
    root = menutree.build(more, [(c.group,) for c in more], MAX_OPTIONS)
    assert [g.name for g in root.groups] == ["group 0", "group 1", "group 2"] and not root.leaves
