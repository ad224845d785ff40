"""Discord's limits in every language, checked on the components the adapter builds, not by eye:
button labels at most 80 characters, select options 100 (label and description), menu
placeholders 150, a modal's title 45 and its field's label 45 (placeholder 100), a message
2,000; slash command names at most 32, descriptions and choices 100, and no two siblings
with the same name in one language.

Each component is made by the code that makes it for Discord (the composer at seeded positions
of every game with every level of its menus opened, the ⌨ box, the lobby's and the turn post's
buttons from the service's own labels, every rules page's message), in each language. The
adapter shortens a text that would not fit with "…" (`composer_ids.cut`): a translation must
never need it, so every shortening is recorded and must not happen.
"""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest
from discord import app_commands

from metrobot.discord_app import composer as composer_module
from metrobot.discord_app import composer_box, composer_ids
from metrobot.discord_app.client import slash_commands
from metrobot.discord_app.composer import composer
from metrobot.discord_app.composer_box import type_box
from metrobot.discord_app.controls import controls_view
from metrobot.discord_app.languages import MAX_NAME, NAME_CONTEXT, command_text
from metrobot.games import all_plugins, get_plugin
from metrobot.i18n import lang
from metrobot.rules.pages import page_message
from metrobot.service.core import Games
from metrobot.storage.rows import GameRow, Seat
from metrobot.tables.lobby import Lobby
from tests.languages import checked

from .menus import menu_at, parts, position

BUTTON, OPTION, PLACEHOLDER, TITLE, FIELD, MESSAGE = 80, 100, 150, 45, 45, 2000
# Seeded positions of each game: early, middle, late; with steps already chosen, hints on.
POSITIONS = {
    "underground": [(3, 1, 0, 0), (3, 2, 60, 2), (5, 3, 200, 3)],
    "metromania": [(2, 1, 0, 0), (4, 2, 30, 2), (2, 3, 120, 1)],
    "flipwrite": [(2, 1, 0, 0), (8, 2, 20, 1), (1, 3, 60, 0)],
}
LONG_NAME = "Wolfgang Amadeus Mozartstraße 🚇"[:32]  # Discord display names are at most 32 characters
CODES = checked()  # (one language in progress in make test: tests/languages.py)


@pytest.fixture
def shortened(monkeypatch) -> list[tuple[str, int]]:
    """Every text the adapter had to shorten to fit a limit (there should be none)."""
    cut: list[tuple[str, int]] = []
    real = composer_ids.cut

    def spy(text: str, limit: int) -> str:
        if len(text) > limit:
            cut.append((text, limit))
        return real(text, limit)

    for module in (composer_module, composer_box):  # every module that shortens a text
        monkeypatch.setattr(module, "cut", spy)
    return cut


def check_view(view: discord.ui.View) -> None:
    for item in parts(view):
        if isinstance(item, discord.ui.Button):
            assert item.label and len(item.label) <= BUTTON, item.label
        if isinstance(item, discord.ui.Select):
            assert not item.placeholder or len(item.placeholder) <= PLACEHOLDER, item.placeholder
            for option in item.options:
                assert len(option.label) <= OPTION and len(option.description or "") <= OPTION, option


def walk(menu, language) -> int:
    """Every level of the composer's menus, opened as a player opens them; how many were seen."""
    todo, seen = [[]], 0
    while todo and seen < 400:
        path = todo.pop()
        content, view, _ = composer(menu, language, path)
        assert len(content) <= MESSAGE
        check_view(view)
        seen += 1
        for item in parts(view):
            if isinstance(item, discord.ui.Select) and item.custom_id.startswith("mb:g:"):
                todo += [path + [int(o.value)] for o in item.options]
    return seen


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("kind", sorted(POSITIONS))
def test_the_composer_and_the_typing_box_fit(shortened, kind, code):
    language = lang(code)
    for players, seed, moves, steps in POSITIONS[kind]:
        plugin, state, seat, prefix = position(kind, players, seed, moves, steps)
        menu = menu_at(plugin, state, seat, prefix, language)
        labels = plugin.game_labels(language)
        menu.heading, menu.group_hint, menu.hints = labels.composer, labels.groups, True
        before = position(kind, players, seed, moves, 0)[1]  # (the same game, before the steps chosen)
        menu.summary = plugin.summarise(before, seat, prefix, language) if prefix else ""
        assert walk(menu, language) >= 1
        box = type_box(123456789012, 4321, prefix, menu.example or "G13", language)
        assert len(box.title) <= TITLE
        for field in (item.to_component_dict() for item in box.children):  # as Discord is sent them
            assert len(field.get("label") or "") <= FIELD and len(field.get("placeholder") or "") <= OPTION
    assert not shortened, f"{code}: texts cut to fit Discord: {shortened}"


def _row(kind: str, code: str, seats: int, hints: bool) -> GameRow:
    plugin = get_plugin(kind)
    people = [Seat(f"u{i}", LONG_NAME, auto=i == seats - 1) for i in range(seats)]
    return GameRow(
        id=123456789012,
        channel_id="1",
        guild_id="2",
        game=kind,
        status="lobby",
        host_id="u0",
        options={},
        seed=1,
        seats=people,
        max_seats=plugin.game.max_players,
        state_stored=None,
        version=1,
        moves=4321,
        turn_clock=86400,
        deadline=None,
        reminded=False,
        lobby_message_id=None,
        created_at=0.0,
        updated_at=0.0,
        language=code,
        settings={"hints": hints},
    )


@pytest.mark.parametrize("code", CODES)
def test_the_lobby_and_the_turn_posts_fit(shortened, code):
    for plugin in all_plugins():
        for hints in (False, True):
            row = _row(plugin.name, code, plugin.game.max_players, hints)
            lobby = Lobby.lobby_message(SimpleNamespace(), plugin, row, lang(code), role="3")
            assert len(lobby.text) <= MESSAGE and lobby.controls is not None
            check_view(controls_view(lobby.controls))
            for tap in (False, True):  # (with "▶ Play on the board", where board play is on)
                check_view(
                    controls_view(
                        Games.play_controls(SimpleNamespace(options=SimpleNamespace(board_play=tap)), plugin, row)
                    )
                )
    assert not shortened


@pytest.mark.parametrize("code", CODES)
def test_every_rules_page_is_one_message(code):
    for plugin in all_plugins():
        for index in range(len(plugin.rules_pages())):
            text = page_message(plugin, index, lang(code))
            assert len(text) <= MESSAGE, f"{plugin.name} page {index + 1} in {code}: {len(text)} characters"


def test_every_catalogue_text_fits_a_message():
    for code in CODES:
        language = lang(code)
        for text in [language.t(m) for m in _catalogue_ids()]:
            assert len(text) <= MESSAGE


def _catalogue_ids() -> list[str]:
    from babel.messages.pofile import read_po

    from tools import messages

    with messages.TEMPLATE.open("rb") as f:
        return [m.id for m in read_po(f) if m.id and isinstance(m.id, str) and not m.context]


@pytest.mark.parametrize("code", CODES)
def test_slash_commands_fit_and_siblings_differ(code):
    language = lang(code)

    def name(text: str) -> str:
        return command_text(language, text, True) or text

    def check(siblings: list) -> None:
        names = [name(s.display_name if hasattr(s, "display_name") else s.name) for s in siblings]
        assert len(set(names)) == len(names), f"{code}: two siblings named alike: {names}"
        assert all(len(n) <= MAX_NAME for n in names)
        for s in siblings:
            description = command_text(language, s.description, False) if s.description != "…" else None
            assert description is None or len(description) <= OPTION
            if isinstance(s, app_commands.Group):
                check(list(s.commands))
            elif isinstance(s, app_commands.Command):
                check(list(s.parameters))
                for p in s.parameters:
                    assert all(len(command_text(language, c.name, False) or c.name) <= OPTION for c in p.choices)

    check(slash_commands(None))
    assert NAME_CONTEXT == "command name"
