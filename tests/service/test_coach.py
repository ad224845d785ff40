"""The tutorial coach's words, read from the game as it is: its word on the board names what
the public view shows (the passenger and the face-up cards, where the newcomer's lines end,
which lines of the sheet still take a card), and its word on the choices counts every legal
first step in the groups it names."""

from __future__ import annotations

import random
import re

import pytest

from metrobot.discord_app.messages import LIMIT
from metrobot.games import get_plugin
from metrobot.games.metromania.board import ARROW_BY_APEX, vertex_name
from metrobot.i18n import EN, lang
from metrobot.i18n import words as part
from metrobot.turns.coach import FEW_GROUPS, choices_line

OPTIONS = {"underground": {}, "metromania": {}, "flipwrite": {"map": "paris"}}


def new(kind: str, seed: int = 3):
    plugin = get_plugin(kind)
    return plugin, plugin.game.new_game(["Ann", "Bob"], OPTIONS[kind], seed)


def play_turn(plugin, state, seed: int = 0):
    """The first seat owed a decision plays its whole turn (the random automatic player,
    seeded: the same steps every run)."""
    rnd = random.Random(seed)
    seat = sorted(plugin.game.to_move(state))[0]
    while seat in plugin.game.to_move(state) and not plugin.game.is_over(state):
        state, _ = plugin.game.apply(state, seat, plugin.auto_action(state, seat, rnd, "random"))
    return state, seat


def test_underground_names_the_passenger_the_row_and_the_colours():
    plugin, state = new("underground")
    view = plugin.game.view(state, None)
    for seat in ("Ann", "Bob"):
        said = plugin.board_brief(state, seat, EN)
        assert f"**{view['passenger']['at']}**" in said
        assert all(station in said for station in view["deck"]["row"])
        mine = [c for c, v in view["colours"].items() if v["owner"] == seat]
        theirs = [c for c, v in view["colours"].items() if v["owner"] != seat]
        assert all(f"{c} (" in said for c in mine) and not any(f"{c} (" in said for c in theirs)
        assert re.search(r"\((express|standard)\)", said)


def test_metromania_says_where_a_started_line_ends():
    plugin, state = new("metromania")
    assert plugin.board_brief(state, "Ann", EN).count("not started") == 2
    state, seat = play_turn(plugin, state)
    line = next(l for l in plugin.game.view(state, None)["lines"] if l["player"] == seat and l["vertices"])
    said = plugin.board_brief(state, seat, EN)
    end = tuple(line["vertices"][-1])
    named = ARROW_BY_APEX[end].name if end in ARROW_BY_APEX else vertex_name(end)
    assert f"ends at {named} (" in said, said
    assert "Stations left: " in said


def test_flipwrite_lists_the_lines_that_still_take_a_card():
    plugin, state = new("flipwrite")
    view = plugin.game.view(state, None)
    said = plugin.board_brief(state, "Ann", EN)
    assert ", ".join(view["sheets"]["Ann"]["windows"]) in said
    assert f"{len(view['map_data']['stations'])} stations still empty" in said


@pytest.mark.parametrize("kind", sorted(OPTIONS))
def test_the_groups_named_add_up_to_every_first_step(kind):
    plugin, state = new(kind)
    for _ in range(4):
        if plugin.game.is_over(state):
            break
        seat = sorted(plugin.game.to_move(state))[0]
        said = choices_line(plugin, state, seat, EN)
        total = int(re.search(r"You have (\d+) possible", said)[1])
        assert total == len(plugin.choices(state, seat))
        counts = [int(n) for n in re.findall(r"\((\d+)\)", said)]
        assert counts and len(counts) <= FEW_GROUPS
        if len(counts) < FEW_GROUPS:  # none left out: every step is in a group named
            assert sum(counts) == total, said
        state, _ = play_turn(plugin, state)


@pytest.mark.parametrize("kind", sorted(OPTIONS))
def test_the_word_on_the_board_is_in_the_readers_language(kind):
    plugin, state = new(kind)
    english, korean = plugin.board_brief(state, "Ann", EN), plugin.board_brief(state, "Ann", lang("ko"))
    assert english != korean and any("\uac00" <= ch <= "\ud7a3" for ch in korean)


def test_a_long_post_keeps_its_own_lines_and_the_coach_gives_way_from_its_end():
    """The coach's lines are the post's aside lines: a front end with a length limit (Discord's
    2,000 characters) leaves them out from the last one up, an … for them; the post's own stay."""
    coached = [part.aside(line) for line in ("🎓 score", "🗺 board", "🎓 choices")]
    short = "\n".join(["x" * 100, *coached])
    assert part.fit(short, LIMIT) == "x" * 100 + "\n🎓 score\n🗺 board\n🎓 choices"
    post = "x" * (LIMIT - len("\n🎓 score\n🗺 board\n…"))  # room for exactly the first two and the …
    assert part.fit("\n".join([post, *coached]), LIMIT) == post + "\n🎓 score\n🗺 board\n…"
    assert part.fit("\n".join(["x" * LIMIT, *coached]), LIMIT) == "x" * LIMIT + "\n…"  # (then the adapter cuts)
