"""Languages end to end, through the real discord.py client and the stand-in:

- the synced command tree carries names and descriptions in Dutch, Spanish and Korean;
- a Korean-locale and a Dutch-locale player play a whole MetrOmania game in a Spanish
  server, by buttons, by /dig and by typing moves in their own words ("doorgetrokken G9
  links", "역 G9"): each reads every private reply, menu and DM in their own language, while
  every channel post is in the game's language (the server's by default, changed with
  `/game settings` during the game), to the last narration and the final images;
- every text the bot shows (posts, replies, DMs, buttons, menus, suggestions), with every
  person and the server on the pseudo-language, comes from the catalogue: nothing is left
  that is not a translated piece or a value filled in.
"""

from __future__ import annotations

import asyncio
import re

import pytest
import pytest_asyncio

from metrobot.discord_app.languages import discord_locales
from metrobot.games import get_plugin
from metrobot.i18n import OFFERED, lang
from metrobot.i18n import words as part
from tests.e2e.languages_kit import DATA_WORDS, GAME_OVER, LETTERS, _Plural, _texts, says
from tests.e2e.players import Table, said_done

pytestmark = pytest.mark.timeout(300)

KO, NL, ES = lang("ko"), lang("nl"), lang("es")
# Discord's locales for every language we offer (a language still being translated sends
# what it has so far, and is checked once it is offered).
# Discord's keys of every language offered but English (`nb` is Discord's `no`, `sv` its `sv-SE`,
# `es` both `es-ES` and `es-419`): the mapping itself is held to the pinned spec by test_discord_locales.
DISCORD_LOCALES = tuple(key for code in OFFERED if code != "en" for key in discord_locales(code))


@pytest_asyncio.fixture
async def bot(start_bot):
    return await start_bot("languages", "game", "dig", "play", "build")


# Discord's rule for a command's name, `^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$`, in Python's
# `re` (no \p{…}): word characters, and the Devanagari and Thai blocks, whose vowel signs and tone
# marks are not letters (ใหม่, खेल).
NAME = re.compile(r"[-_\w\u0900-\u097F\uA8E0-\uA8FF\u1CD0-\u1CFF\u0E00-\u0E7F]{1,32}")


def _walk(command: dict):
    yield command
    for option in command.get("options") or ():
        if option.get("type") in (1, 2):  # subcommand (group)
            yield from _walk(option)
        else:
            yield option


async def test_the_command_tree_is_sent_in_every_language(standin, bot):
    commands = standin.commands()
    assert commands
    for command in commands:
        for item in _walk(command):
            names, descriptions = item.get("name_localizations") or {}, item.get("description_localizations") or {}
            for locale in DISCORD_LOCALES:
                assert locale in names and locale in descriptions, (item["name"], locale, names, descriptions)
                assert NAME.fullmatch(names[locale]) and names[locale] == names[locale].lower(), names[locale]
    game = next(c for c in commands if c["name"] == "game")
    assert game["name_localizations"]["ko"] == KO.p("command name", "game")
    assert game["description_localizations"]["nl"] == NL.t("Create and manage the game in this channel")


async def _open_lobby(standin, channel: int, host: int, options: dict):
    h = await standin.slash(host, channel, "game new", options)
    reply = await h.wait_message()
    lobby = await standin.wait_for_message(channel, lambda m: any(c.startswith("mb:l:") for c in m.custom_ids()))
    return reply, lobby


async def _dms(standin, user: int) -> list:
    for _ in range(200):
        if standin.dms(user):
            return standin.dms(user)
        await asyncio.sleep(0.02)
    raise AssertionError(f"no DM for {user}")


NEXT = ("Next: {who} — {act}.", "Next: {who} (last round) — {act}.")


def typed_in(code: str, step: str, pick: int) -> str:
    """A MetrOmania step code typed as a person writes it in their language ("doorgetrokken
    G9 links", "역 G9")."""
    from tests.typed import metromania_typed

    return metromania_typed(code, step, pick)


async def test_korean_and_dutch_players_play_a_whole_game_each_in_their_own_language(standin, bot):
    standin.set_guild_locale(standin.guild_id, "es-ES")  # the game posts in the server's language
    minjun, daan = standin.add_member(name="김민준"), standin.add_member(name="Daan")
    standin.set_locale(minjun, "ko")
    standin.set_locale(daan, "nl")
    reader = {minjun: KO, daan: NL}
    channel = standin.create_channel("metro")

    reply, lobby = await _open_lobby(standin, channel, minjun, {"kind": "metromania", "players": 2})
    assert reply.ephemeral and reply.content == KO.t("Lobby open. Others join with the button; you start when ready.")
    assert says(ES, "Players ({seated}/{seats}):", lobby.content, seated=1, seats=2), lobby.content
    assert [b["label"] for b in lobby.buttons()] == [
        ES.p("button", "Join"),
        ES.p("button", "Leave"),
        ES.p("button", "Start"),
    ]
    join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
    h = await standin.click(daan, lobby, custom_id=join)
    assert (await h.wait_message(lambda m: m.ephemeral)).content == NL.t("You joined the game.")

    h = await standin.slash(minjun, channel, "game start")
    assert (await h.wait_message()).content == KO.t("Game started.")
    start = await standin.wait_for_message(channel, lambda m: any(c.endswith(":play") for c in m.custom_ids()))
    assert says(ES, "**{game}** begins! Order: {order}.", start.content, game="", order=""), start.content
    labels = get_plugin("metromania").game_labels(ES)
    assert [b["label"] for b in start.buttons()] == [labels.play, labels.mine, ES.p("button", "Board")]

    for user, language in reader.items():  # secret hands by DM, in the reader's language
        hand = (await _dms(standin, user))[-1].content
        assert says(language, "Your destination markers in hand: {markers}.", hand, markers=""), hand

    table = Table(standin, channel, bot.settings.db_path, seed=3)
    game, last, turn, ways = ES, start, 0, set()
    while owed := await table.owed():
        user = owed[0]
        mine, other = reader[user], next(u for u in reader if u != user)
        turn += 1
        if turn == 1:  # out of turn: refused in the reader's own language
            h = await standin.slash(other, channel, "play", {"move": "solid G9 L"})
            refusal = await h.wait_message()
            assert refusal.ephemeral and says(
                reader[other], "It is not your turn. Waiting for: {who}.", refusal.content, who=""
            )
        if turn == 3:  # the host moves the channel to Dutch: told privately in Korean, announced in Dutch
            h = await standin.slash(minjun, channel, "game settings", {"language": "nl"})
            said = await h.wait_message()
            assert said.ephemeral and says(KO, "the game now posts in {language}", said.content.lower(), language="")
            last = await standin.wait_for_message(
                channel,
                lambda m: says(NL, "the game now posts in {language}", m.content.lower(), language=""),
                after=last,
            )
            game = NL
        if turn == 5:  # a private question, answered in the requester's language
            h = await standin.slash(other, channel, "status")
            status = await h.wait_message()
            assert status.ephemeral and says(reader[other], "Scores: {scores}", status.content, scores="")
        way = ("buttons", "dig", "typed")[turn % 3]
        ways.add(way)
        if way == "buttons":  # the composer, in the player's language
            composer = await table.compose(user)
            assert mine.t("Your turn") in composer.content
            confirm = next(b for b in composer.buttons() if b["custom_id"].startswith("mb:ok:"))
            assert confirm["label"] == mine.t("✔ Confirm")
            h = await standin.click(user, composer, custom_id=confirm["custom_id"])
            await h.wait_response()
            done = await h.wait_message(lambda m: m.content.startswith(mine.t("✔ Played.")[:-1]))  # noqa: B023 - used within this iteration
            assert done.ephemeral
        elif way == "dig":  # /dig, each step picked from the suggestions
            done = await table.dig_by_command(user)
            assert done.ephemeral and (said_done(mine, done.content) or done.content.startswith(mine.t("Saved.")))
        else:  # /play, each step typed in the player's own words
            for pick in range(6):
                choices = await table.choices(user, "play", {}, "move")
                typed = typed_in(mine.code, table.rnd.choice(choices)["value"], pick)
                h = await standin.slash(user, channel, "play", {"move": typed})
                done = await h.wait_message()
                assert done.ephemeral and (
                    said_done(mine, done.content) or done.content.startswith(mine.t("Saved."))
                ), (typed, done.content)
                if said_done(mine, done.content):
                    break
        post = await standin.wait_for_message(
            channel, lambda m: not m.ephemeral and m.author_id == standin.bot_id, after=last
        )
        if await table.owed():  # the channel, in the game's language, says who is next
            post = await standin.wait_for_message(
                channel, lambda m: any(c.endswith(":play") for c in m.custom_ids()), after=last
            )
            play = {"act": part.act("play", "metromania", game.code)}  # ("`/cavar` o los botones de abajo")
            assert any(says(game, template, post.content, play, who="") for template in NEXT), (game.code, post.content)
        last = post
        for person in reader:  # secret hands by DM, each in the reader's language
            for dm in standin.dms(person):
                assert says(reader[person], "Your destination markers in hand: {markers}.", dm.content, markers=""), (
                    dm.content
                )

    assert turn >= 4 and ways == {"buttons", "dig", "typed"}
    # the end, in the game's language: the test trips' narration and the final images
    final = await standin.wait_for_message(channel, lambda m: "🏁" in m.content)
    assert any(says(_Plural(NL, n), GAME_OVER[n > 1], final.content, winners="") for n in (1, 2)), final.content
    assert "test-trips.png" in {a.filename for a in final.attachments}
    assert [c.split(":")[1] for c in final.custom_ids()] == [
        "again",
        "review",
    ]  # no move's controls: ↻ Play again, 🔎 Review


MARKED = re.compile(r"⟦[^⟦⟧]*⟧|⟪[^⟪⟫]*⟫")


def unmarked(text: str) -> list[str]:
    """What is left of a text once every catalogue piece, every value and every piece of
    data (names) is taken out."""
    before = None
    while before != text:
        before, text = text, MARKED.sub(" ", text)
    return [w for w in LETTERS.findall(text) if w not in DATA_WORDS]


async def test_every_text_comes_from_the_catalogue(standin, bot, monkeypatch):
    # every version of every message (composers are edited in place), DMs included
    shown: list[str] = []
    notify = standin.store.notify_message

    def spy(message):
        shown.extend(_texts(message))
        notify(message)

    monkeypatch.setattr(standin.store, "notify_message", spy)
    standin.set_guild_locale(standin.guild_id, "qps")
    people = [standin.add_member(name=n) for n in ("Ann", "Bob", "Cat")]
    for person in people:
        standin.set_locale(person, "qps")
    spectator = standin.add_member(name="Dee")
    standin.set_locale(spectator, "qps")
    suggestions: list[str] = []
    for kind, players in (("metromania", 2), ("flipwrite", 2), ("underground", 3)):
        channel = standin.create_channel(kind)
        table = Table(standin, channel, bot.settings.db_path, seed=5)
        await table.open(people[0], kind, people[1:players], players=players)
        for turn in range(4):
            owed = await table.owed()
            if not owed:
                break
            if turn % 2:
                await table.play_by_buttons(owed[0])
            else:
                got = await table.choices(owed[0], "play", {}, "move")
                suggestions += [c["name"] for c in got]
                h = await standin.slash(owed[0], channel, "play", {"move": got[0]["value"]})
                await h.wait_message()
        for user, command, options in (
            (spectator, "hand", {}),
            (spectator, "play", {"move": "x"}),
            (people[0], "status", {}),
            (people[0], "board", {}),
            (people[0], "hand", {}),
            (people[0], "game rules", {}),
            (people[1], "game abort", {}),
            (people[0], "game abort", {}),
        ):
            h = await standin.slash(user, channel, command, options)
            await h.wait_message()
    left = {text[:120]: unmarked(text) for text in shown + suggestions if unmarked(text)}
    assert not left, left
    assert len(shown) > 200 and suggestions and any(standin.dms(p) for p in people)
