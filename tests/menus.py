"""The composer's menus at a position of each game (the composer's tests and the Discord limits' tests)."""

from __future__ import annotations

import random

import discord

from metrobot.games import get_plugin
from metrobot.service import Menu

GAMES = {"underground": ({}, (2, 3, 5)), "metromania": ({}, (2, 4)), "flipwrite": ({"map": "paris"}, (1, 2, 8))}


def position(kind: str, players: int, seed: int, moves: int, steps: int):
    """A position of a seeded game after `moves` random legal actions (or its last), the seat owed, and up
    to `steps` of that seat's next steps already chosen in the composer."""
    plugin = get_plugin(kind)
    options, _ = GAMES[kind]
    game = plugin.game
    state = plugin.new_game([f"p{i}" for i in range(1, players + 1)], options, seed)
    rnd = random.Random(seed)
    for _ in range(moves):  # (a game that ends sooner is looked at just before its end)
        seat = sorted(game.to_move(state))[0]
        later, _ = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))
        if game.is_over(later):
            break
        state = later
    seat = sorted(game.to_move(state))[0]
    prefix, after = [], state
    while len(prefix) < steps:
        choices = plugin.choices(after, seat)
        if not choices:
            break
        code = rnd.choice(choices).code
        nxt, _ = game.apply(after, seat, plugin.parse(after, seat, code))
        if seat not in game.to_move(nxt) or game.turn_number(nxt) != game.turn_number(state):
            break  # that step would end the turn: the composer then offers nothing more
        prefix.append(code)
        after = nxt
    return plugin, after, seat, prefix


def menu_at(plugin, state, seat: str, prefix: list[str], language) -> Menu:
    """The menu as the service builds it (`Turns.menu`): the plug-in's choices, in its menus."""
    entries = plugin.menu(state, seat, plugin.choices(state, seat, language), language)
    return Menu(
        plugin.name,
        123456789012,
        4321,
        prefix,
        [c for _, c in entries],
        "…",
        complete=False,
        can_submit=bool(prefix),
        paths=[p for p, _ in entries],
        example=plugin.typing_example(state, seat, language),
    )


def parts(view: discord.ui.View) -> list[discord.ui.Item]:
    """A view's buttons and menus (ours are DynamicItems wrapping them)."""
    return [getattr(i, "item", i) for i in view.children]
