"""Everything a whole game says, in the pseudo-language: a game of each kind played through
the service to its end, everyone reading and the game posting in the pseudo-language, which
marks each piece of catalogue text ⟦…⟧ and each value filled in ⟪…⟫.

Covered: the lobby, `/game settings`, the start, every turn's post and DMs, menus, status,
board, hand, rules, refusals of bad and mistyped moves, the turn clock (the reminder and
the automatic player at expiry, through `tick()` with a fake clock), leaving and resigning,
the last turn's narration and the final images, replays, history, leaderboard, profile, and
an aborted game. Every word of every text — messages, buttons, menus, and every string
drawn in every image — must be a marked piece of the catalogue, or data: people's names,
the maps' station, line and city names, coordinates and codes, and what the player typed.
"""

from __future__ import annotations

import random
import re

import pytest
from PIL import ImageDraw

from metrobot import games
from metrobot.discord_app.words import discord_text
from metrobot.i18n import LANGUAGES, PSEUDO, reading
from metrobot.service import Refused, fixed_seeds
from metrobot.wiring import GameService
from tests.clock import Clock
from tests.render.image_words import data_words as image_data_words

PEOPLE = [("u1", "Ann"), ("u2", "Bob"), ("u3", "Cat")]
GAMES = [("metromania", 2, {}), ("flipwrite", 2, {"city": "berlin"}), ("underground", 3, {})]
# Typed moves that mean nothing or break a rule, in every game (echoed back as values).
BAD_MOVES = [
    "",
    "fly away",
    "Q99",
    "solid Q99",
    "halte Q99",
    "dashed G9",
    "nb",
    "p:red:999",
    "p:black:0",
    "fg:9",
    "r:9",
    "ride Z 3",
    "r:C:99",
    "transfer",
    "free Nowhere",
    "rood Atlantis - Euston",
    "🚇" * 5,
    "x" * 120,
]
PIECE = re.compile(r"⟦[^⟦⟧⟪⟫]*⟧")
VALUE = re.compile(r"⟪([^⟦⟧⟪⟫]*)⟫")
WORD = re.compile(r"[^\W\d_]{2,}")
CODE = re.compile(r"\b[A-Za-z]{1,3}\d+\b|\b[a-z]{1,2}(?::[\w-]+)+")  # G13, S4, T12; s:G9:L, p:red:17, f:-


def leftover(text: str, data: set[str]) -> list[str]:
    """Words of a message outside the catalogue: pieces removed, values opened up (a value
    composed of English words in code is caught too), then data and codes removed."""

    def opened(value: re.Match) -> str:  # a JSON example or a quoted code is notation
        inner = value.group(1)
        return " " if inner[:1] in ("{", '"', "'") else f" {inner} "

    before = None
    while before != text:
        before, text = text, VALUE.sub(opened, PIECE.sub(" ", text))
    assert not re.search("[⟦⟧⟪⟫]", text), f"unbalanced marks: {text!r}"
    text = CODE.sub(" ", re.sub(r"<[@#!&]*[\w-]+>|<t:\d+(:\w)?>", " ", text))  # mentions, Discord timestamps
    return [w for w in WORD.findall(text) if w not in data]


class Heard:
    """Every text the service gave out, and every string drawn in an image."""

    def __init__(self, monkeypatch):
        self.texts: list[str] = []
        self.drawn: list[str] = []
        self.typed: set[str] = set()
        self.clock = 0  # turn clocks run out
        self.painted: list[str] = []  # what the painter drew: boards, final images, animations
        original = ImageDraw.ImageDraw.text

        def text(draw, xy, text, *args, **kwargs):
            self.drawn.append(text)
            return original(draw, xy, text, *args, **kwargs)

        monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)

    def outcome(self, out):
        for message in [out.reply] + out.public + [m for _, m in out.dms]:
            if message is not None:
                self.texts.append(message.text)
                self.texts += [f.description for f in message.files]  # the alt texts, and a text board's file
                self.texts += [f.data.decode() for f in message.files if f.name.endswith(".txt")]
                controls = message.controls
                if controls is not None and controls.kind == "lobby":
                    self.texts += list(controls.lobby)
                elif controls is not None and controls.kind == "play":  # (replays and pages: the adapter's)
                    self.texts += [controls.play_label, controls.mine_label, controls.board_label]
                elif controls is not None and controls.kind == "astext":  # 📄 under a private board
                    self.texts.append(controls.board_label)
        return out

    def menu(self, menu):
        self.texts += [menu.summary, menu.heading, menu.group_hint] + [c.label for c in menu.choices]
        self.texts += [menu.preview.description] if menu.preview else []
        self.texts += [c.group for c in menu.choices]

    async def refused(self, call, typed: str = ""):
        with pytest.raises(Refused) as caught:
            await call
        self.texts.append(str(caught.value))
        self.typed |= {w for word in WORD.findall(typed) for w in (word, word.upper())}


async def _state(svc, channel):
    row = await svc.db.open_game(channel)
    if row is None or row.status != "active":
        return row, None, None
    plugin = games.get_plugin(row.game)
    return row, plugin, plugin.game.from_json(row.state)


async def _play_to_the_end(svc, heard: Heard, channel: str, kind: str, clock: Clock) -> list:
    """Each owed person plays what the automatic player would, a step at a time, with the
    odd detour; returns the states seen."""
    rnd = random.Random(11)
    states, turn, left = [], 0, False
    while True:
        row, plugin, state = await _state(svc, channel)
        if state is None:
            return states
        states.append(state)
        game = plugin.game
        seat = sorted(game.to_move(state), key=game.seats(state).index)[0]
        person = game.owner(state, seat)
        others = [u for u, _ in PEOPLE[: len(row.seats)] if u != person]
        turn += 1
        if turn == 2:  # mistakes, refused in the reader's language
            for typed in BAD_MOVES:
                try:
                    heard.outcome(await svc.turns.play(channel, person, [typed]))  # (one may be legal by chance)
                except Refused as refusal:
                    heard.texts.append(str(refusal))
                    heard.typed |= {w for word in WORD.findall(typed) for w in (word, word.upper())}
            if others and not plugin.game.to_move(state) >= set(game.seats(state)):
                await heard.refused(svc.turns.play(channel, others[0], ["nb"]), "nb")
            heard.menu(await svc.turns.menu(channel, person, [], preview=True))
            for user in (person, *others):
                heard.outcome(await svc.queries.status(channel, user))
                heard.outcome(await svc.queries.board(channel, user))
                heard.outcome(await svc.queries.board_text(channel, user))  # the board for a screen reader
                heard.outcome(await svc.queries.hand(channel, user))
            heard.outcome(await svc.queries.board_text(channel, "u9"))  # a spectator's
            heard.outcome(await svc.people.my_settings(person, colour_vision="deutan"))
            await heard.refused(svc.people.my_settings(person, colour_vision="purple"))
            heard.outcome(await svc.rules_pages.rules(channel))
            continue
        if turn in (4, 9):  # the turn clock: the reminder at half time, the automatic player at expiry
            clock.now = row.deadline - row.turn_clock / 2 + 1
            reminded = [heard.outcome(out) for _, out in await svc.tick()]
            clock.now = row.deadline + 1
            expired = [heard.outcome(out) for _, out in await svc.tick()]
            assert len(reminded) == len(expired) == 1 and (await svc.db.game(row.id)).moves > row.moves
            heard.clock += 1
            continue
        if turn == 6 and not left and len(row.seats) > 1:  # one leaves (resigns): the automatic player takes over
            quitter = others[-1]
            heard.outcome(await svc.lobby.leave(channel, quitter))
            await heard.refused(svc.lobby.leave(channel, quitter))
            await heard.refused(svc.turns.play(channel, quitter, ["nb"]), "nb")
            left = True
            continue
        action = plugin.auto_action(state, seat, rnd, level="random")
        step = plugin.code(state, seat, action)
        if turn % 5 == 0:
            heard.menu(await svc.turns.menu(channel, person, [step]))
        heard.outcome(await svc.turns.play(channel, person, [step]))


@pytest.mark.parametrize("kind, players, options", GAMES, ids=[g[0] for g in GAMES])
async def test_a_whole_game_in_the_pseudo_language_leaves_nothing_untranslated(db, monkeypatch, kind, players, options):
    clock = Clock()
    svc = GameService(db, clock=clock, seeds=fixed_seeds(5), images=True, render_workers=0, ai_seconds=0.05)
    heard = Heard(monkeypatch)
    run = svc.painter.run

    async def paint(fn, *args):
        heard.painted.append(fn.__name__)
        return await run(fn, *args)

    svc.painter.run = paint
    channel = f"c-{kind}"
    people = PEOPLE[:players]
    with reading(PSEUDO):
        heard.outcome(
            await svc.lobby.new_game(
                channel, "g1", *people[0], kind, None, players, city=options.get("city"), language="qps"
            )
        )
        await heard.refused(svc.lobby.start(channel, people[1][0]))  # only the host starts
        for person in people[1:]:
            heard.outcome(await svc.lobby.join(channel, *person))
        await heard.refused(svc.game_settings.configure(channel, people[1][0], manager=False, turn_clock=3 * 3600))
        await heard.refused(svc.game_settings.configure(channel, people[0][0], manager=False, turn_clock=1))
        await heard.refused(svc.game_settings.configure(channel, people[0][0], manager=False, language="xx"))
        heard.outcome(
            await svc.game_settings.configure(channel, people[0][0], manager=False, turn_clock=3 * 3600, level="random")
        )
        heard.outcome(await svc.queries.status(channel, people[0][0]))
        heard.outcome(await svc.lobby.start(channel, people[0][0]))
        states = await _play_to_the_end(svc, heard, channel, kind, clock)
        row = await db.last_game(channel)
        assert row.status == "finished" and len(states) > 10 and heard.clock == 2
        assert any(s.auto for s in row.seats)  # someone left
        assert {"png_of_view", "finals_of_view"} <= set(heard.painted)  # the boards and the final images

        heard.outcome(await svc.replays.replay(channel))
        heard.outcome(await svc.replays.replay(channel, frame=0))
        heard.outcome(await svc.replays.replay(channel, frame=3, animation=True))
        await heard.refused(svc.replays.replay(channel, frame=-1))
        heard.texts += [label for label, _ in await svc.replays.replay_choices(channel)]
        heard.outcome(await svc.standings.history(channel))
        heard.outcome(await svc.standings.leaderboard("g1", people[0][0], kind))
        heard.outcome(await svc.standings.leaderboard("g1", people[0][0]))
        await heard.refused(svc.standings.leaderboard("g1", people[0][0], kind, 9))
        heard.outcome(await svc.standings.profile("g1", people[0][0], people[0][1]))
        await heard.refused(svc.standings.profile("g1", "u9", "Zed"))

        # a second game in the channel, aborted by its host
        heard.outcome(await svc.lobby.new_game(channel, "g1", *people[1], kind, None, players, language="qps"))
        heard.outcome(await svc.lobby.join(channel, *people[0]))
        await heard.refused(svc.lobby.abort(channel, people[0][0], manager=False))
        heard.outcome(await svc.lobby.abort(channel, people[1][0], manager=False))

    plugin = games.get_plugin(kind)
    final = plugin.game.from_json(row.state)
    # data: names, the maps' names, what was typed; the languages' own names for themselves
    data = image_data_words(kind, [final]) | {name for _, name in PEOPLE} | {"Zed"} | heard.typed
    data |= {w for name in LANGUAGES.values() for w in WORD.findall(name)} | {PSEUDO.code}
    texts = [discord_text(t) for t in heard.texts if t]  # as the channel reads them (their parts worded)
    assert len(texts) > 100 and "animation_of_views" in heard.painted
    leaks = {t[:160]: words for t in texts if (words := leftover(t, data))}
    assert not leaks, "\n".join(f"{t!r}: {w}" for t, w in leaks.items())
    # the images: every turn's board, the final images, the replay and the rating chart
    assert any("⟦" in s for s in heard.drawn)
    from tests.render.image_words import unmarked as drawn_leftover

    drawn = {s: words for s in heard.drawn if (words := drawn_leftover(s, data))}
    assert not drawn, drawn
