"""The board as text (`/board format:text`, issue 35): the position in words for a screen
reader, from the requester's view, privately, in pages that each fit one Discord message, and
whole as a .txt file; On the Underground's tracks as station sequences with branches and
loops, MetrOmania's lines as coordinates, flip-and-write's sheet line by line.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest

from metrobot.games import get_plugin
from metrobot.games.alttext import pages
from metrobot.games.underground.board import board_named
from metrobot.games.underground.textboard import runs
from metrobot.i18n import reading
from metrobot.service import Refused

from .drawn import KINDS, PEOPLE, play_turn, service, start, state_of

HANGUL = re.compile(r"[\uac00-\ud7a3]")


def whole(reply) -> str:
    [attached] = [f for f in reply.files if f.name.endswith(".txt")]
    assert attached.description and len(attached.description) <= 1024
    return attached.data.decode()


async def every_page(svc, user, channel="c1") -> tuple[list[str], str]:
    first = (await svc.queries.board_text(channel, user)).reply
    total = first.controls.total + 1 if first.controls else 1
    texts = [first.text] + [(await svc.queries.board_text(channel, user, k)).reply.text for k in range(1, total)]
    for text in texts:
        assert len(text) <= 2000
    return texts, whole(first)


@pytest.mark.parametrize("kind, n, options", KINDS, ids=[k[0] for k in KINDS])
async def test_the_text_board_tells_the_position_in_pages(db, kind, n, options):
    svc, _ = service(db)
    await start(svc, kind, n, options)
    rnd = random.Random(8)
    for _ in range(12):
        await play_turn(svc, rnd)
    for user in ("u1", "u9"):
        texts, text = await every_page(svc, user)
        body = [line for page in texts for line in page.split("\n")[1:]]  # each page after its heading
        assert [line for line in body if line] == [line for line in text.split("\n") if line]  # all of it, once
        assert all(name in text for _, name in PEOPLE[:n])
    _row, _plugin, _state = await state_of(svc)
    mine, spectator = (
        whole((await svc.queries.board_text("c1", "u1")).reply),
        whole((await svc.queries.board_text("c1", "u9")).reply),
    )
    if kind == "underground":
        assert mine == spectator  # nothing is secret: everyone hears the same board
        assert " – " in mine and "branch tokens" in mine and "Face-up destinations" in mine
    elif kind == "metromania":
        assert re.search(r"S\d+ → [A-M]\d+", mine) and "hidden marker" in spectator
    else:
        assert "Line A (U1)" in mine and "Kurfürstendamm" in mine and "every sheet" in spectator


async def test_a_long_text_board_turns_its_pages_and_a_stale_one_is_refused(db):
    svc, _ = service(db)
    await start(svc, "flipwrite", 2, {"city": "berlin"})
    first = (await svc.queries.board_text("c1", "u1")).reply
    assert first.controls.kind == "text" and first.controls.total >= 1 and "(page 1 of" in first.text
    last = (await svc.queries.board_text("c1", "u1", 99)).reply  # past the end: the last page
    assert last.controls.moves == last.controls.total
    with pytest.raises(Refused, match="earlier game"):
        await svc.queries.board_text("c1", "u1", game_id=first.controls.game_id + 1)
    with pytest.raises(Refused, match="No game"):
        await svc.queries.board_text("c2", "u1")


async def test_a_private_board_offers_the_text_and_speaks_the_askers_language(db):
    svc, _ = service(db)
    await start(svc, "metromania", 2, {})
    with reading("ko"):
        board = (await svc.queries.board("c1", "u2")).reply
        assert board.controls.kind == "astext" and board.controls.board_label == "📄 텍스트로"
        assert HANGUL.search(whole((await svc.queries.board_text("c1", "u2")).reply))


def test_pages_never_split_a_line_and_prefer_the_end_of_a_section():
    lines = [f"line {i:02} " + "x" * 52 for i in range(60)]
    lines[20] = ""
    found = pages(lines, 1900)
    assert all(len(p) <= 1900 for p in found) and found[0].endswith("x" * 52)
    assert found[0].split("\n")[-1].startswith("line 19")  # ended at the blank line, over half full
    assert sum(len([x for x in p.split("\n") if x]) for p in found) == 59


def test_every_gap_of_a_colour_is_told_once_with_its_branches_and_loops():
    board = board_named("london")
    gap = lambda a, b: board.map.gap_between(a, b).id  # noqa: E731
    track = [
        gap("Warren Street", "Oxford Circus"),
        gap("Oxford Circus", "Bond Street"),
        gap("Bond Street", "Green Park"),
        gap("Green Park", "Oxford Circus"),
        gap("Bond Street", "Baker Street"),
        gap("Baker Street", "Marylebone"),
        gap("Green Park", "Victoria"),
    ]
    found = runs(board, track)
    told = [frozenset(p) for run in found for p in itertools.pairwise(run)]
    assert sorted(map(sorted, told)) == sorted(sorted(board.ends[g]) for g in track)  # each gap once
    seen = set(found[0])
    for run in found[1:]:
        assert run[0] in seen  # a branch or loop starts from a station already told
        seen |= set(run)
    # and on real tracks: every colour of a few whole games
    plugin = get_plugin("underground")
    for seed in (1, 2):
        _, state = plugin.self_play(["a", "b", "c"], None, seed, level="random")
        for colour in state.colours.values():
            told = [frozenset(p) for run in runs(state.board, colour.track) for p in itertools.pairwise(run)]
            assert sorted(map(sorted, told)) == sorted(sorted(state.board.ends[g]) for g in colour.track)
