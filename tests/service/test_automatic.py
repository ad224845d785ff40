"""Automatic players at the table: bots seated at creation, the level chosen for a game,
their moves announced like anyone's; they are never pinged, DMed or rated."""

from __future__ import annotations

import random
import re

import pytest

from metrobot.games import get_game
from metrobot.service import Refused

pytestmark = pytest.mark.service(seed=6, ai_seconds=0.2)


async def test_bots_take_seats_and_play_their_turns(svc):
    out = await svc.lobby.new_game("c1", "g1", "u1", "Ann", "metromania", {}, 3, bots=2)
    lobby = out.public[0].text
    assert "Players (3/3)" in lobby and lobby.count("automatic player (greedy)") == 2
    with pytest.raises(Refused, match="table is full"):
        await svc.lobby.join("c1", "u2", "Bob")
    started = await svc.lobby.start("c1", "u1")
    assert [u for u, _ in started.dms] == ["u1"]  # no DM for a bot
    rnd, turns = random.Random(1), 0
    while (row := await svc.db.open_game("c1")) is not None:
        game = get_game("metromania")
        state = game.from_json(row.state)
        assert {game.owner(state, s) for s in game.to_move(state)} == {"u1"}  # bots never keep a person waiting
        prefix = []
        menu = await svc.turns.menu("c1", "u1", prefix)
        while not menu.complete:
            prefix.append(rnd.choice(menu.choices).code)
            menu = await svc.turns.menu("c1", "u1", prefix)
        out = await svc.turns.play("c1", "u1", prefix)
        turns += 1
        for message in out.public:
            assert not [m for m in message.mentions if m.startswith("bot-")]
    assert turns >= 1
    actions = await svc.db.actions(row.id if row else (await svc.db.last_game("c1")).id)
    assert any(a["actor"] == "auto" for a in actions) and any(a["actor"] == "u1" for a in actions)
    finished = await svc.db.last_game("c1")
    assert finished.status == "finished"
    assert await svc.db.history.stored_ratings() == []  # one person against bots: nobody is rated


async def test_levels_are_checked_and_can_be_changed(svc):
    with pytest.raises(Refused, match="plays at these levels"):
        await svc.lobby.new_game("c1", "g1", "u1", "Ann", "flipwrite", {"map": "paris"}, 2, level="genius")
    with pytest.raises(Refused, match="from 0 to 1"):
        await svc.lobby.new_game("c1", "g1", "u1", "Ann", "flipwrite", {"map": "paris"}, 2, bots=2)
    await svc.lobby.new_game("c1", "g1", "u1", "Ann", "flipwrite", {"map": "paris"}, 2, bots=1, level="strong")
    assert (await svc.db.open_game("c1")).bot_level == "strong"
    out = await svc.game_settings.configure("c1", "u1", manager=False, level="random")
    assert "random level" in out.public[0].text and (await svc.db.open_game("c1")).bot_level == "random"
    await svc.game_settings.configure("c1", "u1", manager=False, level="strong")
    await svc.lobby.start("c1", "u1")
    out = await svc.turns.play("c1", "u1", [(await svc.turns.menu("c1", "u1", [])).choices[0].code])
    assert "Round 1" in out.public[0].text  # the strong bot decided at once: the round resolved


def test_the_bot_decides_a_whole_turn_at_once_and_the_same_each_time(monkeypatch):
    """The worker the service runs: one search for the strong player's whole turn, its
    steps all played, and — the search bounded by work, far from its cap — the same moves
    for the same game and position."""
    from metrobot.games.metromania.ai.strong import StrongPlayer
    from metrobot.turns.automatic import play_automatic

    monkeypatch.setattr(StrongPlayer, "work_rate", 2)  # 2 simulated steps a second: 120 in the 60 s cap
    searches = []
    plan = StrongPlayer.plan

    def counted(self, *args, **kwargs):
        steps = plan(self, *args, **kwargs)
        searches.append(self.last.candidates)
        return steps

    monkeypatch.setattr(StrongPlayer, "plan", counted)
    game = get_game("metromania")
    state = game.to_json(game.new_game(["u1", "bot-1"], {"first_player": "bot-1"}, 3))
    first = play_automatic("metromania", state, ["bot-1"], [], "7:0", "strong", 60)
    assert searches == [searches[0]] and searches[0] > 1  # one decision, among several turns
    assert len(first[1]) > 1 and {seat for seat, _, _ in first[1]} == {"bot-1"}
    after = game.from_json(first[0])
    assert game.to_move(after) == {"u1"}
    assert play_automatic("metromania", state, ["bot-1"], [], "7:0", "strong", 60) == first


@pytest.mark.parametrize(
    "name,options",
    [
        ("metromania", {"first_player": "p2"}),
        ("flipwrite", {"map": "paris"}),
        ("underground", {"map": "london", "first_player": "p2"}),
    ],
)
@pytest.mark.parametrize("level", ["random", "greedy", "strong"])
def test_the_bots_players_get_only_their_seats_view(monkeypatch, name, options, level):
    """Whatever the level, a player is handed a view the engine made for the person of the
    seat it plays, never the state, and plays only legal steps."""
    from metrobot.games import get_plugin
    from metrobot.games.autoplay import AutoPlayer
    from metrobot.turns.automatic import play_automatic

    plugin = get_plugin(name)
    game = plugin.game
    auto = plugin.player(level)
    monkeypatch.setattr(type(auto), "work_rate", 1 if auto.work_rate else None)  # tiny searches
    made: dict[int, str | None] = {}  # id of each view the engine made -> its viewer
    real_view = type(game).view

    def view(self, state, viewer):
        out = real_view(self, state, viewer)
        made[id(out)] = viewer
        return out

    handed = []
    real_plan = type(auto).plan if "plan" in vars(type(auto)) else AutoPlayer.plan

    def plan(self, game_, view_, viewer, seat, rnd, budget):
        handed.append((made.get(id(view_), "not a view"), viewer, seat))
        return real_plan(self, game_, view_, viewer, seat, rnd, budget)

    monkeypatch.setattr(type(game), "view", view)
    monkeypatch.setattr(type(auto), "plan", plan)
    state = game.new_game(["p1", "p2", "p3"], dict(options), 5)
    state_json, actions, _ = play_automatic(name, game.to_json(state), ["p2", "p3"], [], "5:0", level, 30)
    assert handed and all(made_for == viewer == game.owner(state, seat) for made_for, viewer, seat in handed)
    for seat, action, _ in actions:  # every step legal where it was played
        assert action in game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, action)
    assert game.to_json(state) == state_json


async def test_the_final_post_of_a_resigned_game_keeps_its_end(svc):
    """The last person resigns and the automatic player plays the 26 rounds out: Discord's post
    (2,000 characters) tells the first rounds, says how many more the automatic player played,
    and ends with the last round and the result; a page, without the limit, tells every round."""
    from metrobot.discord_app.messages import LIMIT, clip
    from metrobot.i18n import words as part
    from metrobot.play.board import plain

    await svc.lobby.new_game("c1", "g1", "u1", "Ann", "flipwrite", {"map": "paris"}, 2, bots=1, level="greedy")
    await svc.lobby.start("c1", "u1")
    final = (await svc.lobby.leave("c1", "u1")).public[0].text
    assert (await svc.db.last_game("c1")).status == "finished"
    page = plain(final)
    assert "Round 26" in page and "Round 14" in page and "more rounds" not in page  # (every round)
    sent = clip(final)
    assert len(sent) <= LIMIT and not sent.endswith("…")
    assert sent.startswith("Ann left the game") and "**Round 1**" in sent
    assert re.search(r"\n⏩ …and \d+ more rounds, played by the automatic player \(`/game replay game:\d+`", sent)
    assert re.search(r"\*\*Round 26\*\* .*\n• Ann: .*\n• 🤖 1: .*\n🏁 Game over\. \*\*.+\*\* wins?!$", sent)
    assert part.INSTEAD not in sent and part.ASIDE not in sent
