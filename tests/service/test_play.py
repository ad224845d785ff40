"""Playing on the board through the service (issue 44, `metrobot/play`): the same legal steps, in
the same order and words, as the composer; a target or a button beside the board for every one;
the same refusals; the version check; a changed decision in flip-and-write; who may play."""

from __future__ import annotations

import random

import pytest

from metrobot import games
from metrobot.discord_app.words import discord_text
from metrobot.games import all_plugins, get_plugin
from metrobot.i18n import lang
from metrobot.play import Pass, Play, Stale, access, play_link
from metrobot.service import Refused, fixed_seeds
from metrobot.storage import Database
from metrobot.wiring import GameService
from tests.toygame import PLUGIN as TOY

GUILD = "750000000000000001"
ANN, BOB = "850000000000000001", "850000000000000002"
KINDS = [p.name for p in all_plugins()]


@pytest.fixture
async def service():
    db = await Database(":memory:").open()
    svc = GameService(db, seeds=fixed_seeds(8))
    svc.web_base = "http://127.0.0.1"
    yield svc
    svc.painter.close()
    await db.close()


async def new_game(svc, channel: str, kind: str, options: dict | None = None):
    await svc.lobby.new_game(channel, GUILD, ANN, "Ann", kind, options or {}, 2)
    await svc.lobby.join(channel, BOB, "Bob")
    await svc.lobby.start(channel, ANN)
    return await svc.db.open_game(channel)


def contains(box, point) -> bool:
    x, y, w, h = box
    return x <= point[0] < x + w and y <= point[1] < y + h


@pytest.mark.parametrize("kind", KINDS)
async def test_every_step_is_a_target_or_a_button_and_its_centre_is_that_step(service, kind):
    """Over seeded games of every kind: the page's steps are the composer's (codes, order,
    words); a box's centre lies in that box and in no other spot's; the board's size is the
    picture's."""
    from io import BytesIO

    from PIL import Image

    play = Play(service)
    row = await new_game(service, "950000000000000001", kind)
    rnd = random.Random(kind)
    en = lang("en")
    checked = 0
    for _ in range(6):
        row = await service.db.game(row.id)
        if row.status != "active":
            break
        user = row.waiting[0]
        steps: list[str] = []
        while True:
            board = await play.compose(Pass(row.id, user), row, en, moves=row.moves, steps=steps)
            menu = await service.turns.menu(row.channel_id, user, steps)
            assert [(t.code, t.label) for t in board.targets] == [(c.code, c.label) for c in menu.choices]
            assert board.summary == menu.summary and board.complete == menu.complete
            picture = await play.picture(Pass(row.id, user), row, board.picture.removeprefix("picture/"), en)
            assert Image.open(BytesIO(picture)).size == tuple(board.size)
            spots = {t.box for t in board.targets if t.box}
            for target in board.targets:
                if target.box is None:
                    continue
                x, y, w, h = target.box
                centre = (x + w / 2, y + h / 2)
                assert contains(target.box, centre)
                assert [b for b in spots if contains(b, centre)] == [target.box], (kind, target)
                checked += 1
            if not board.targets:
                break
            steps.append(rnd.choice(board.targets).code)
        await service.turns.play(row.channel_id, user, steps)
    assert checked > 0


async def test_a_game_without_geometry_has_every_step_beside_the_board(service):
    games.register(TOY)
    try:
        row = await new_game(service, "950000000000000002", TOY.name)
        board = await Play(service).compose(Pass(row.id, row.waiting[0]), row, lang("en"))
        assert board.targets and all(t.box is None for t in board.targets)
    finally:
        games.unregister(TOY.name)


async def test_refusals_are_the_composers_and_a_stale_position_is_told(service):
    play = Play(service)
    row = await new_game(service, "950000000000000003", "underground")
    user = row.waiting[0]
    other = BOB if user == ANN else ANN
    ko = lang("ko")
    with pytest.raises(Refused) as page:
        await play.compose(Pass(row.id, user), row, ko, moves=row.moves, steps=["no such gap"])
    from metrobot.i18n import reading

    with reading(ko), pytest.raises(Refused) as composer:
        await service.turns.menu(row.channel_id, user, ["no such gap"])
    assert str(page.value) == str(composer.value)
    with pytest.raises(Refused, match="Waiting for: "):
        await play.compose(Pass(row.id, other), row, lang("en"), moves=row.moves, steps=["p:red:1"])
    with pytest.raises(Stale):
        await play.compose(Pass(row.id, user), row, lang("en"), moves=row.moves + 1)
    board = await play.compose(Pass(row.id, user), row, lang("en"))
    said = await play.play(Pass(row.id, user), row, lang("en"), moves=row.moves, steps=[board.targets[0].code])
    assert said.startswith("Saved")
    with pytest.raises(Stale):  # (the same page again: the game has moved on)
        await play.play(Pass(row.id, user), row, lang("en"), moves=row.moves, steps=[board.targets[1].code])


async def test_a_sealed_decision_is_changed_until_the_round_resolves(service):
    play = Play(service)
    row = await new_game(service, "950000000000000004", "flipwrite", {"map": "berlin"})
    first = await play.compose(Pass(row.id, ANN), row, lang("en"))
    await play.play(Pass(row.id, ANN), row, lang("en"), moves=row.moves, steps=[first.targets[0].code])
    row = await service.db.game(row.id)
    sealed = await play.compose(Pass(row.id, ANN), row, lang("en"))
    assert not sealed.my_turn and sealed.can_change
    again = await play.compose(Pass(row.id, ANN), row, lang("en"), replacing=True)
    assert again.my_turn and again.replacing and again.targets
    code = again.targets[-1].code
    await play.play(Pass(row.id, ANN), row, lang("en"), moves=row.moves, steps=[code], replacing=True)
    actions = [a["action"] for a in await service.db.actions(row.id)]
    assert len(actions) == 3 and actions[1] == {"type": "withdraw"}
    row = await service.db.game(row.id)
    await service.turns.play(row.channel_id, BOB, [(await service.turns.menu(row.channel_id, BOB, [])).choices[0].code])
    row = await service.db.game(row.id)
    assert not (await play.compose(Pass(row.id, ANN), row, lang("en"))).can_change  # (resolved: a new round)
    with pytest.raises(Refused):
        await service.turns.menu(row.channel_id, BOB, [], replacing=True)  # (Bob has not decided this round)
    state = service.games.state(get_plugin("flipwrite"), row)
    assert state.rounds == 1  # the round resolved with Ann's second decision
    from metrobot.gamelog import GameLog

    log = GameLog(row.game, row.seed, [s.user_id for s in row.seats], row.options, await service.db.actions(row.id))
    assert get_plugin("flipwrite").game.to_json(log.replay()) == row.state  # (the log replays to the game)


async def test_who_may_play(service):
    row = await new_game(service, "950000000000000005", "metromania")
    path = await access.path(service, row, ANN)
    sig = path.strip("/").rsplit("/", 1)[1]
    assert (await access.opened(service, row.id, ANN, sig))[0] == Pass(row.id, ANN)
    # (the key is random: a signature ends with "x" one time in 64, so the altered one changes
    # its last character to one it is not — test-repeat's first run found it ending with "x")
    altered = sig[:-1] + ("x" if sig[-1] != "x" else "y")
    for args in ((row.id, BOB, sig), (row.id, ANN, altered), (row.id + 1, ANN, sig)):
        with pytest.raises(access.Refusal):
            await access.opened(service, *args)
    label, url = await play_link(service, row.id, ANN, lang("ko"))
    assert url.endswith(path) and label == lang("ko").p("button", "🖐 Play on the board")
    assert await play_link(service, row.id, "someone else") is None
    await service.lobby.leave(row.channel_id, BOB)  # (the automatic player takes Bob's seat)
    assert await play_link(service, row.id, BOB) is None
    bob_path = await access.path(service, row, BOB)
    with pytest.raises(access.Refusal):
        await access.opened(service, row.id, BOB, bob_path.strip("/").rsplit("/", 1)[1])
    await service.lobby.abort(row.channel_id, ANN, manager=True)
    with pytest.raises(access.Refusal):
        await access.opened(service, row.id, ANN, sig)
    service.web_base = None
    assert await play_link(service, row.id, ANN) is None


def test_the_parts_of_a_text_become_pieces_a_page_shows():
    """Issues 60 and 62: a text of the service reaches a page as text and times, people by name,
    no channel or role, no Discord markup."""
    from metrobot.i18n import words as part
    from metrobot.play.board import page_text

    names = {ANN: "Ann"}
    assert page_text("Done. You may take it back until " + part.time(1795737003, "T") + ".", names) == [
        {"text": "Done. You may take it back until "},
        {"time": 1795737003},
        {"text": "."},
    ]
    assert page_text(f"Waiting for: {part.person(ANN)}, {part.person(BOB)}.", names) == [
        {"text": "Waiting for: "},
        {"text": "Ann"},
        {"text": ", "},
        {"text": "?"},
        {"text": "."},
    ]
    assert page_text(f"**Bold** `code` in {part.channel(123)} for {part.role(456)}", {}) == [
        {"text": "Bold code in "},
        {"text": " for "},
    ]
    assert page_text("", names) == []


async def test_what_became_of_a_position_and_a_page_move_taken_back(service):
    """Issue 60: `moved` says whose action came first after a position; a page's move is taken
    back on the page through the service's take-back, offered until its window closes."""
    play = Play(service)
    row = await new_game(service, "950000000000000009", "metromania")
    user = row.waiting[0]
    other = BOB if user == ANN else ANN
    since = row.moves
    assert await play.moved(Pass(row.id, user), row, since) == "none"
    board = await play.compose(Pass(row.id, user), row, lang("en"))
    steps: list[str] = []
    while not board.complete:
        steps.append(board.targets[0].code)
        board = await play.compose(Pass(row.id, user), row, lang("en"), moves=row.moves, steps=steps)
    said = await play.play(Pass(row.id, user), row, lang("en"), moves=row.moves, steps=steps)
    assert "<t:" in discord_text(said)  # (a time, which Discord shows in its reader's zone; a page gets a piece)
    row = await service.db.game(row.id)
    assert await play.moved(Pass(row.id, user), row, since) == "yours"
    assert await play.moved(Pass(row.id, other), row, since) == "other"
    mine = await play.compose(Pass(row.id, user), row, lang("en"))
    theirs = await play.compose(Pass(row.id, other), row, lang("en"))
    assert mine.takeback_until == row.takeback["until"] and theirs.takeback_until is None
    assert mine.heading == f"Waiting for: {row.names[other]}." and theirs.heading == "Your turn"
    with pytest.raises(Refused):
        await play.take_back(Pass(row.id, other), row, lang("en"), moves=row.moves)
    said = await play.take_back(Pass(row.id, user), row, lang("en"), moves=row.moves)
    assert said.startswith("↶ Taken back")
    row = await service.db.game(row.id)
    assert user in row.waiting and row.takeback is None
    assert (await play.compose(Pass(row.id, user), row, lang("en"))).takeback_until is None
