"""Alt text on every image the service attaches (issue 35): the turn posts, private boards,
sheets and previews, the final images, replays and their animation, rules pages and
profile charts; each made from the picture's own view, in the picture's language, never
empty and at most Discord's 1,024 characters, and drawn again the same after a crash.

The painter is a spy here (no pixels: an alt text never depends on them); it records the
language and the palette of every picture. The pictures themselves are tested in
tests/render; the e2e suite checks the descriptions at the Discord stand-in.
"""

from __future__ import annotations

import random
import re

import pytest

from metrobot.games.alttext import ALT_LIMIT
from metrobot.i18n import reading
from tests.service.drawn import KINDS, PEOPLE, play_turn, service, start, state_of

HANGUL = re.compile(r"[\uac00-\ud7a3]")


def described(files) -> list[str]:
    for f in files:
        assert f.description and f.description.strip(), f"{f.name} has no alt text"
        assert len(f.description) <= ALT_LIMIT, f"{f.name}: {len(f.description)} characters"
    return [f.description for f in files]


@pytest.mark.parametrize("kind, n, options", KINDS, ids=[k[0] for k in KINDS])
async def test_every_picture_of_a_game_says_what_it_shows(db, kind, n, options):
    svc, _spy = service(db)
    out = await start(svc, kind, n, options, language="ko")
    post = out.public[0]
    [alt] = described(post.files)
    assert HANGUL.search(alt), "a channel's picture speaks the game's language"
    row, plugin, state = await state_of(svc)
    scores = plugin.game.view(state, None).get("scores") or {}
    assert all(f"{name} {scores[seat]}" in alt for seat, name in PEOPLE[:n] if seat in scores), alt
    owed = plugin.game.owner(state, sorted(plugin.game.to_move(state))[0])
    assert row.names[owed] in alt, "whose turn"
    # the same picture drawn again from the outbox (a crash before delivery: the dead
    # process's claim has run out) says the same
    async with db.driver.transaction() as tx:
        await tx.execute("UPDATE outbox SET claim = ?", 0.0)
    drawn_again = [m async for _, m in service(db)[0].outbox.undelivered()]
    assert [f.description for m in drawn_again for f in m.files if f.name == post.files[0].name] == [alt]

    rnd = random.Random(3)
    with reading("en"):
        for _ in range(6):
            out = await play_turn(svc, rnd)
            for message in out.public:
                described(message.files)
        for user, _ in PEOPLE[:n]:
            for asked in (
                await svc.queries.board("c1", user),
                await svc.queries.status("c1", user),
                await svc.queries.hand("c1", user),
            ):
                described(asked.reply.files)
        row, plugin, state = await state_of(svc)
        owed = plugin.game.owner(state, sorted(plugin.game.to_move(state))[0])
        menu = await svc.turns.menu("c1", owed, [], preview=True)
        described([menu.preview])
        described((await svc.queries.board("c1", "u9")).reply.files)  # a spectator
        for page in range(len(plugin.rules_pages())):
            described((await svc.rules_pages.rules("c1", kind, page)).reply.files)


@pytest.mark.parametrize("kind, n, options", KINDS, ids=[k[0] for k in KINDS])
async def test_the_end_the_replay_and_the_animation_are_described(db, kind, n, options):
    svc, _spy = service(db)
    await start(svc, kind, n, options)
    rnd = random.Random(5)
    last = None
    while (await svc.db.open_game("c1")) is not None:
        last = await play_turn(svc, rnd)
    finals = [f for m in last.public for f in m.files]
    assert len(finals) >= 1 + (kind != "flipwrite")  # the board, and the game's end-of-game picture
    said = described(finals)
    assert len(set(said)) == len(said)  # the end-of-game picture is told as what it is, not as the board
    assert all(row_name in said[0] for row_name in ("Ann", "Bob"))
    replay = await svc.replays.replay("c1", frame=2, animation=True)
    board, gif = replay.reply.files
    described([board, gif])
    assert "2" in board.description.split(".")[0]  # "Replay — … turn 2 of …"
    assert gif.name.endswith(".gif") and "#1" in gif.description


async def test_flip_and_write_sheets_say_the_sealed_choice_to_its_owner_only(db):
    svc, _spy = service(db)
    await start(svc, "flipwrite", 3, {"city": "berlin"})
    _row, plugin, state = await state_of(svc)
    rnd = random.Random(2)
    action = plugin.auto_action(state, "u1", rnd, "random")
    await svc.turns.play("c1", "u1", [plugin.code(state, "u1", action)])
    mine = (await svc.queries.board("c1", "u1")).reply.files[0].description
    theirs = (await svc.queries.board("c1", "u2")).reply.files[0].description
    public = (await svc.queries.board("c1", "u9")).reply.files[0].description
    said = plugin.describe(state, action)
    assert "Your choice" in mine and said in mine
    assert said not in theirs and said not in public and "Ann: has chosen" in public


async def test_alt_texts_fit_discord_with_five_players_late_in_a_game(db):
    svc, _spy = service(db)
    await start(svc, "underground", 5, {})
    rnd = random.Random(9)
    longest = 0
    for _ in range(40):
        out = await play_turn(svc, rnd)
        longest = max([longest] + [len(d) for m in out.public for d in described(m.files)])
        if (await svc.db.open_game("c1")) is None:
            break
    assert 600 < longest <= ALT_LIMIT  # long enough to have been cut to fit, never over


async def test_a_profile_chart_is_described(db):
    svc, _spy = service(db)
    await start(svc, "flipwrite", 2, {"city": "berlin"})
    rnd = random.Random(4)
    while (await svc.db.open_game("c1")) is not None:
        await play_turn(svc, rnd)
    out = await svc.standings.profile("g", "u1", "Ann")
    [alt] = described(out.reply.files)
    assert alt.startswith("Ann: rating over time.") and "1 rated game" in alt
