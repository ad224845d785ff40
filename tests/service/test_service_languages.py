"""The service speaks each reader's language: replies, refusals and menus in the requester's
(`me()`), posts and their images in the game's, a seat's DMs in that player's own; the
images it draws get the language they are meant for (in a worker, as a language code).

Run in the pseudo-language, every text the service composes is marked ⟦…⟧ (a piece of the
catalogue) or ⟪…⟫ (a value): a leftover word is a text that bypassed the catalogue.
"""

from __future__ import annotations

import random
import re

import pytest

from metrobot import games, i18n
from metrobot.i18n import PSEUDO, reading
from metrobot.service import Refused, fixed_seeds
from metrobot.tables import lobby as lobby_module
from metrobot.wiring import GameService
from tests.toygame import TARGET, RaceNotation, RaceTelling, race_plugin

PEOPLE = [("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat")]


class MarkedNotation(RaceNotation):
    """Race to 10's moves with every text of its own through `lang` (the service's are the test)."""

    def choices(self, state, seat, lang=PSEUDO):
        return [c.__class__(c.code, lang.t("add {n}", n=c.code), c.group) for c in super().choices(state, seat)]

    def describe(self, state, action, lang=PSEUDO):
        return lang.t("add {n}", n=action["n"])


class MarkedTelling(RaceTelling):
    """Race to 10's telling with every text of its own through `lang`."""

    def narrate(self, state, events, name, lang=PSEUDO):
        out = []
        for e in events:
            if e["type"] == "added":
                out.append(
                    lang.t(
                        "**{name}** added {n}: the counter is {count}.",
                        name=name(e["player"]),
                        n=e["n"],
                        count=e["count"],
                    )
                )
            elif e["type"] == "game_over":
                out.append(lang.t("🏁 Game over. **{name}** wins!", name=name(e["winners"][0])))
        return out

    def prompt(self, state, who, lang=PSEUDO):
        return lang.t("Counter {count}/{target}. Next: {who}.", count=state.count, target=TARGET, who=who)


def MarkedRace():  # noqa: N802 - reads as the plug-in it builds
    return race_plugin(notation=MarkedNotation, telling=MarkedTelling)


@pytest.fixture
def race():
    plugin = games.register(MarkedRace())
    yield plugin
    games.unregister(plugin.name)


class Drawn:
    """The painter's drawing calls (the language each image is drawn in, the argument before
    the palette); the automatic player's thinking runs as it would."""

    def __init__(self, svc: GameService):
        self.calls: list[tuple[str, str]] = []
        run = svc.painter.run
        svc.drawing.keep_drawn = 0  # (every request's own drawing is what is counted, not the boards kept)

        async def fake(fn, *args):
            if fn.__name__ in ("png_of_view", "finals_of_view", "animation_of_views"):
                self.calls.append((fn.__name__, args[-2]))
                return [("final.png", b"png")] if fn.__name__ == "finals_of_view" else b"png"
            return await run(fn, *args)

        svc.painter.run = fake

    def take(self) -> list[tuple[str, str]]:
        calls, self.calls = self.calls, []
        return calls


async def owed(svc, channel="c1"):
    row = await svc.db.open_game(channel)
    game = games.get_game(row.game)
    state = game.from_json(row.state)
    return sorted({game.owner(state, s) for s in game.to_move(state)})


async def test_images_are_drawn_in_the_language_they_are_for(db, race):
    svc = GameService(db, seeds=fixed_seeds(3), images=True)
    drawn = Drawn(svc)
    with reading("es"):
        await svc.lobby.new_game("c1", "g", *PEOPLE[0], "race", {}, 2, language="nl")
    with reading("ko"):
        await svc.lobby.join("c1", *PEOPLE[1])
    with reading("es"):
        await svc.lobby.start("c1", "u1")
    assert drawn.take() == [("png_of_view", "nl")]  # the channel's post: the game's language
    with reading("ko"):
        await svc.queries.board("c1", "u2")
        await svc.queries.status("c1", "u2")
    assert drawn.take() == [("png_of_view", "ko"), ("png_of_view", "ko")]  # private replies: the requester's
    posts = []
    while (row := await svc.db.open_game("c1")) is not None and row.status == "active":
        who = (await owed(svc))[0]
        with reading("ko" if who == "u2" else "es"):
            menu = await svc.turns.menu("c1", who, [], preview=True)
            assert drawn.take() == [("png_of_view", "ko" if who == "u2" else "es")]  # the composer's preview
            await svc.turns.play("c1", who, [menu.choices[-1].code])
        posts += drawn.take()
    assert posts and all(language == "nl" for _, language in posts)  # the posts of every turn, and the end
    assert ("finals_of_view", "nl") in posts
    with reading("es"):
        await svc.replays.replay("c1", animation=True)
    assert drawn.take() == [("png_of_view", "es"), ("animation_of_views", "es")]


# ---------------------------------------------------------------- every text through the catalogue
WORDS = re.compile(r"[^\W\d_]{2,}")


def unmarked(text: str) -> list[str]:
    """Words outside the marked pieces and values (values are names, numbers, mentions)."""
    rest, before = text, None
    while rest != before:  # innermost first: a value may hold a translated piece
        before, rest = rest, re.sub(r"⟦[^⟦⟧⟪⟫]*⟧|⟪[^⟦⟧⟪⟫]*⟫", " ", rest)
    return [w for w in WORDS.findall(rest) if w not in {"Ann", "Bob", "Cat", "qps"}]


class Said:
    def __init__(self):
        self.texts: list[str] = []

    def outcome(self, out):
        for message in [out.reply] + out.public + [m for _, m in out.dms]:
            if message is not None:
                self.texts.append(message.text)
                controls = message.controls
                if controls is not None and controls.kind == "lobby":
                    self.texts += list(controls.lobby)
                elif controls is not None and controls.kind == "play":
                    self.texts += [controls.play_label, controls.mine_label, controls.board_label]
        return out

    async def refused(self, call):
        with pytest.raises(Refused) as caught:
            await call
        self.texts.append(str(caught.value))


def _race_texts() -> set[tuple[None, str]]:
    """The test game's own texts, as if its package were in the catalogue (the service's
    texts are what this test is about)."""
    from pathlib import Path

    from tools import messages

    found = messages.Found()
    messages.scan_file(Path(__file__), found)
    plugin = MarkedRace()
    texts = {
        plugin.game.title,
        plugin.rules,
        plugin.labels.play,
        plugin.labels.mine,
        plugin.labels.composer,
        plugin.labels.groups,
    }
    return {(None, t) for t in texts} | set(found.messages)


async def test_every_text_the_service_composes_is_the_catalogues(db, race, monkeypatch):
    known = i18n._template_ids() | _race_texts()
    monkeypatch.setattr(i18n, "_template_ids", lambda: known)
    real = lobby_module.code_of
    monkeypatch.setattr(lobby_module, "code_of", lambda language: "qps" if language == "qps" else real(language))
    svc = GameService(db, seeds=fixed_seeds(4), images=False)
    said = Said()
    with reading(PSEUDO):
        said.outcome(await svc.lobby.new_game("c1", "g1", *PEOPLE[0], "race", {}, 3, language="qps"))
        await said.refused(svc.lobby.new_game("c1", "g1", *PEOPLE[1], "race"))
        await said.refused(svc.lobby.new_game("c2", "g1", *PEOPLE[1], "race", {}, 9))
        await said.refused(svc.lobby.new_game("c2", "g1", *PEOPLE[1], "race", level="clever"))
        await said.refused(svc.lobby.start("c1", "u1"))
        said.outcome(await svc.lobby.join("c1", *PEOPLE[1]))
        await said.refused(svc.lobby.join("c1", *PEOPLE[1]))
        said.outcome(await svc.queries.status("c1", "u1"))
        said.outcome(await svc.game_settings.configure("c1", "u1", manager=False, turn_clock=7200, level="greedy"))
        await said.refused(svc.game_settings.configure("c1", "u2", manager=False, turn_clock=7200))
        await said.refused(svc.game_settings.configure("c1", "u1", manager=False))
        said.outcome(await svc.lobby.join("c1", *PEOPLE[2]))
        said.outcome(await svc.lobby.start("c1", "u1"))
        who = (await owed(svc))[0]
        other = next(u for u, _ in PEOPLE if u != who)
        await said.refused(svc.turns.play("c1", other, ["1"]))
        await said.refused(svc.turns.play("c1", who, ["1", "9"]))
        await said.refused(svc.turns.play("c1", who, []))
        await said.refused(svc.turns.play("c1", who, ["1"], moves=99))
        menu = await svc.turns.menu("c1", who, ["1"])
        said.texts += [menu.summary, menu.heading] + [c.label for c in (await svc.turns.menu("c1", who, [])).choices]
        said.outcome(await svc.turns.play("c1", who, ["2"]))
        said.outcome(await svc.queries.status("c1", "u3"))
        said.outcome(await svc.queries.board("c1", "u3"))
        said.outcome(await svc.queries.hand("c1", "u3"))
        said.outcome(await svc.rules_pages.rules("c1"))
        said.outcome(await svc.lobby.leave("c1", "u3"))
        await said.refused(svc.lobby.leave("c1", "u3"))
        rnd = random.Random(2)
        while (row := await svc.db.open_game("c1")) is not None and row.status == "active":
            said.outcome(await svc.turns.play("c1", (await owed(svc))[0], [rnd.choice(["1", "2", "3"])]))
        said.outcome(await svc.replays.replay("c1"))
        said.outcome(await svc.replays.replay("c1", frame=0))
        said.outcome(await svc.replays.replay("c1", frame=1))
        await said.refused(svc.replays.replay("c1", frame=-1))
        await said.refused(svc.replays.replay("c1", 99))
        said.texts += [label for label, _ in await svc.replays.replay_choices("c1")]
        said.outcome(await svc.standings.history("c1"))
        await said.refused(svc.standings.history("c9"))
        said.outcome(await svc.standings.leaderboard("g1", "u1", "race"))
        await said.refused(svc.standings.leaderboard("g1", "u1", "race", 5))
        await said.refused(svc.standings.leaderboard("g1", "u1", "chess"))
        said.outcome(await svc.standings.profile("g1", "u1", "Ann"))
        await said.refused(svc.standings.profile("g1", "u9", "Cat"))
        said.outcome(await svc.lobby.new_game("c1", "g1", *PEOPLE[0], "race", {}, 2, language="qps"))
        said.outcome(await svc.lobby.leave("c1", "u1"))
    assert len(said.texts) > 40 and all(said.texts)
    leaks = {t: unmarked(t) for t in said.texts if unmarked(t)}
    assert not leaks, "\n".join(f"{t!r}: {w}" for t, w in leaks.items())
