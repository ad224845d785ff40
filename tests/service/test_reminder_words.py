"""What people read of reminders, following and pace (issue 46), rendered through the service
in English and Korean: the game's title in bold as everywhere else, Korean without particle
fallbacks ("이(가)", "을(를)": a name and its particle are kept apart) and without "당신" (the
bot's Korean says "내 차례"), and a quick player's pace in seconds, not a 60-second floor."""

from __future__ import annotations

import re

import pytest

from metrobot.i18n import EN, lang, reading
from metrobot.service.words import duration, hours_words
from tests.history.play import owed
from tests.said import worded

ANN, BOB = ("730000000000000001", "Ann"), ("730000000000000002", "Bob")
NOW = 1_800_000_000.0
pytestmark = [pytest.mark.timeout(120), pytest.mark.service(seed=3, now=NOW, discord=True)]
FALLBACKS = re.compile(r"\((가|를|을|이|는|은|과|와)\)")


async def move(svc, channel: str) -> None:
    user = (await owed(svc, channel))[0]
    prefix: list[str] = []
    menu = await svc.turns.menu(channel, user, prefix)
    while not menu.complete:
        prefix.append(menu.choices[0].code)
        menu = await svc.turns.menu(channel, user, prefix)
    await svc.turns.play(channel, user, prefix)


async def test_a_followers_dm_and_a_digest_read_well_in_english_and_korean(svc):
    await svc.lobby.new_game("c1", "g1", *BOB, "metromania", {}, 2)
    await svc.lobby.join("c1", *ANN)
    await svc.lobby.start("c1", BOB[0])
    while ANN[0] not in await owed(svc, "c1"):
        await move(svc, "c1")
    row = await svc.db.open_game("c1")
    texts = {}
    for code in ("en", "ko"):
        with reading(lang(code)):
            follower = worded((await svc.following.follow_message(row, lang(code), False)).text)
            person = await svc.db.people.person(ANN[0])
            person.settings["language"] = code
            digest = worded((await svc.reminders.digest_message(person, [row], {row.id: NOW - 7200}, 3 * 3600.0)).text)
        texts[code] = (follower, digest)
    follower, digest = texts["en"]
    assert follower.startswith("👁 **MetrOmania** in <#c1> has moved on: now waiting for Ann.")
    assert "• **MetrOmania** in <#c1>: your turn began" in digest and "every 3 hours" in digest
    follower, digest = texts["ko"]
    assert "**메트로매니아**" in follower and "기다리는 사람: Ann" in follower
    for text in (follower, digest):
        assert not FALLBACKS.search(text) and "당신" not in text, text
    assert "내 차례" in digest


def test_a_quick_players_pace_is_said_in_seconds():
    assert duration(5, EN) == "5 seconds"
    assert duration(0.2, EN) == "1 second"
    assert duration(35 * 60, EN) == "35 minutes"
    assert duration(2 * 3600, EN) == "2 hours"
    assert "초" in duration(5, lang("ko"))


async def test_an_interval_of_one_hour_reads_every_hour_in_every_language(svc):
    """Never "every 1 hour", "toutes les 1 heure", "alle 1 Stunde" (issue 58): a text of its own
    for one hour in the languages that say it differently; Korean and Japanese have one form
    ("1시간마다" is how Korean says it). Checked on what the service says: the /me settings line,
    a digest, and following a game."""
    await svc.lobby.new_game("c1", "g1", *BOB, "metromania", {}, 2)
    await svc.lobby.join("c1", *ANN)
    row = await svc.db.open_game("c1")
    person = await svc.db.people.person(ANN[0])
    for code in ("en", "nl", "es", "ko", "de", "fr", "pt_BR", "ja"):
        reader = lang(code)
        said = {}
        for hours in (1, 6):
            await svc.db.reminders.set_reminder(ANN[0], hours * 3600.0)
            person.settings["language"] = code
            with reading(reader):
                settings = await svc.reminders.reminders_text(ANN[0], reader)
                digest = (await svc.reminders.digest_message(person, [row], {row.id: NOW - 7200}, hours * 3600.0)).text
                follow = (await svc.following.follow("c1", ANN[0])).reply.text
                await svc.following.follow("c1", ANN[0], toggle=True)  # (unfollowed again)
            said[hours] = (settings, digest.splitlines()[-1], follow)
        one, six = hours_words(1, reader), hours_words(6, reader)
        for text in said[6]:
            assert six in text, (code, text)
        for text in said[1]:
            if reader.code in ("ko", "ja"):
                assert one in text, (code, text)
            else:
                assert one not in text and not re.search(r"\b1\b", text), (code, text)


SHARED = {  # (the follower's DM, the status line)
    "en": ("Ann, Bob share the win", "Ann, Bob share the win"),
    "nl": ("Ann, Bob hebben samen gewonnen", "Ann, Bob hebben samen gewonnen"),
    "es": ("Ann, Bob comparten la victoria", "Ann, Bob comparten la victoria"),
    "de": ("Ann, Bob teilen sich den Sieg", "Ann, Bob teilen sich den Sieg"),
    "fr": ("Ann, Bob partagent la victoire", "victoire partagée\u00a0: Ann, Bob"),
    "pt_BR": ("Ann, Bob dividem a vitória", "vitória compartilhada de Ann, Bob"),
}


async def test_a_shared_win_is_said_with_a_plural_verb(svc, monkeypatch):
    """Two winners share the win ("Ann, Bob hat gewonnen" was the singular, issue 58): the
    follower's last DM and the status line, with one winner and with two."""
    await svc.lobby.new_game("c1", "g1", *BOB, "metromania", {}, 2)
    await svc.lobby.join("c1", *ANN)
    await svc.lobby.start("c1", BOB[0])
    row = await svc.db.open_game("c1")
    plugin = svc.games.plugin(row)
    state = svc.games.state(plugin, row)
    monkeypatch.setattr(type(plugin.game), "is_over", lambda self, state: True)
    for winners, places in ((1, {ANN[0]: 1, BOB[0]: 2}), (2, {ANN[0]: 1, BOB[0]: 1})):
        monkeypatch.setattr(type(plugin), "final_ranking", lambda self, state, places=places: places)
        for code, shared in SHARED.items():
            row.language = code
            with reading(lang(code)):
                follower = worded((await svc.following.follow_message(row, lang(code), True)).text)
                status = worded((await svc.status.status_message(plugin, state, row)).text)
            for text, words in zip((follower, status), shared):
                assert (words in text) == (winners == 2), (code, winners, text)
