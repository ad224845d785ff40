"""Hints through the service: refused in rated games, turned on by the host (announced in the
lobby; the game is then not rated, for good), a suggestion that is a legal move of the requester,
and the tutorial's game with its coach."""

import pytest

from metrobot.games import get_game
from metrobot.service import Refused

pytestmark = pytest.mark.service(turn_clock=3600)


async def owed_player(svc, channel="c1"):
    row = await svc.db.open_game(channel)
    game = get_game(row.game)
    state = game.from_json(row.state)
    return sorted({game.owner(state, s) for s in game.to_move(state)})[0]


@pytest.mark.parametrize("kind", ["metromania", "flipwrite", "underground"])
async def test_hints_are_refused_in_rated_games_and_on_once_the_host_says_so(svc, kind):
    await svc.lobby.new_game("c1", "g", "u1", "Ann", kind, {}, 2)
    await svc.lobby.join("c1", "u2", "Bob")
    with pytest.raises(Refused, match="Only the host"):
        await svc.game_settings.configure("c1", "u2", manager=False, hints=True)
    on = await svc.game_settings.configure("c1", "u1", manager=False, hints=True)
    assert any("Hints are on" in m.text for m in on.public), "the lobby announces it"
    await svc.lobby.start("c1", "u1")
    who = await owed_player(svc)
    said = await svc.hints.hint("c1", who)
    assert said.reply.text.startswith("💡 Suggested:")
    menu = await svc.hints.hint_menu("c1", who, [])
    assert menu.prefix, "💡 fills the composer"
    outcome = await svc.turns.play("c1", who, menu.prefix)  # the suggestion is a legal move of the requester
    assert outcome.reply is not None
    off = await svc.game_settings.configure("c1", "u1", manager=False, hints=False)
    assert "stays unrated" in off.reply.text
    row = await svc.db.open_game("c1")
    assert row.settings["hinted"] and not row.settings["hints"]
    with pytest.raises(Refused, match="unrated"):
        await svc.hints.hint("c1", await owed_player(svc))


async def test_a_rated_game_refuses_hints_privately(svc):
    await svc.lobby.new_game("c1", "g", "u1", "Ann", "underground", {}, 2)
    await svc.lobby.join("c1", "u2", "Bob")
    await svc.lobby.start("c1", "u1")
    with pytest.raises(Refused, match="hints:True"):
        await svc.hints.hint("c1", await owed_player(svc))
    with pytest.raises(Refused, match="hints:True"):
        await svc.hints.hint_menu("c1", await owed_player(svc), [])


async def test_the_tutorial_is_a_coached_solo_game_with_hints(svc):
    outcome = await svc.tutorial.tutorial("t1", "g", "u1", "Ann", "metromania")
    intro, first = outcome.public[0].text, outcome.public[1].text
    assert "tutorial for Ann" in intro
    assert "How to play a turn here" in first and "possible first step" in first
    assert outcome.public[1].controls.hint_label == "💡 Hint"
    row = await svc.db.open_game("t1")
    assert row.settings == {"tutorial": True} and [s.auto for s in row.seats] == [False, True]
    with pytest.raises(Refused, match="always has hints"):
        await svc.game_settings.configure("t1", "u1", manager=False, hints=False)
