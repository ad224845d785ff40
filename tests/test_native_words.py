"""Words a native speaker would write (issue 74): the translations a native-level reading found
wrong, and the English sources built so that no language could say them well. Each test names
one class of defect and fails on the catalogues (or the code) that had it."""

from __future__ import annotations

import re

from metrobot.i18n import lang


def test_the_korean_clock_presets_say_what_they_are():
    # "a sitting" (15 minutes a bank) was 주말 게임, "a weekend game" 한자리에서: swapped
    ko = lang("ko")
    assert "주말" in ko.t("a weekend game") and "한자리" not in ko.t("a weekend game")
    assert "한자리" in ko.t("a sitting") and "주말" not in ko.t("a sitting")


def _translations(code: str, where: str) -> dict[str, str]:
    """A language's translations of the texts a file of the code (or a template) says."""
    from tools.translations import LOCALES, read

    found = {}
    for message in read(LOCALES / f"{code}.po", code):
        if message.id and any(path == where for path, _ in message.locations):
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            found[message.id if isinstance(message.id, str) else message.id[0]] = " ".join(strings)
    return found


def test_french_speaks_to_the_player_with_tu_in_the_daily_challenge_too():
    assert lang("fr").t("(you)") == "(toi)"
    daily = _translations("fr", "metrobot/service/daily.py")
    assert len(daily) > 10
    said = {english: text for english, text in daily.items() if re.search(r"(?i)\b(vous|votre|vos|vôtre)\b", text)}
    assert said == {}


def test_the_daily_replay_is_watched_not_played_again():
    # (the daily is played once: "wiederholen" / "repetirlo" said play it again)
    text = "Your {game} challenge of {day} is not over yet: it can be replayed once it is."
    assert "Replay" in lang("de").t(text) and "wiederhol" not in lang("de").t(text).lower()
    assert "ver la repetición" in lang("es").t(text)


def test_a_korean_particle_after_a_game_title_fits_each_of_the_three_titles():
    from metrobot.games import all_plugins
    from tools.sentences import KO_PAIRS, ko_particle_fits

    ko = lang("ko")
    titles = [ko.t(plugin.title) for plugin in all_plugins()]
    assert len(titles) == 3 and all(re.search("[가-힣]$", t) for t in titles)
    particle = re.compile(r"\{game\}(?: ?\([^()]*\))?(" + "|".join(sorted(KO_PAIRS, key=len, reverse=True)) + ")")
    texts = [text for text in _translations("ko", "metrobot/service/queue.py").values() if particle.search(text)]
    texts += [ko.t("{game} is played alone: there is nobody to find.")]
    for text in texts:
        for found in particle.finditer(text):
            for title in titles:
                assert ko_particle_fits(found.group(1), title), (title, found.group(1), text)


def test_a_korean_particle_after_a_placeholder_holds_for_any_value():
    from tools.sentences import ko_particles

    # a command ends in any sound (/게임 새로, /대기열 나가기, /복기): a noun goes between
    assert ko_particles("{command}로 시작하세요.", {}) != []
    assert ko_particles("{command} 명령어로 시작하세요.", {}) == []
    assert ko_particles("{first}에서 {last}(으)로", {}) != []  # (a fallback is no answer either)
    # a game's title: every value known, so the particle is chosen from them
    titles = {"game": ["메트로매니아", "온 더 언더그라운드"]}
    assert ko_particles("{game}은 혼자 하는 게임이에요.", titles) != []
    assert ko_particles("{game}는 혼자 하는 게임이에요.", titles) == []
    assert ko_particles("{game} (2~4명)을 기다려요.", titles) != []
    assert ko_particles("{game}에서 {count}명", titles) == []  # (에서 never changes)


def test_a_german_article_before_a_placeholder_agrees_with_every_value():
    from tools.sentences import de_articles

    assert de_articles("Das {game} ist vorbei.", frozenset()) != []  # (das MetrOmania, die On the Underground?)
    assert de_articles("Das Spiel {game} ist vorbei.", frozenset()) == []
    assert de_articles("Die {game}-Rangliste hat eine Seite.", frozenset()) == []  # (the compound's article)
    assert de_articles("hat die {line} beendet", frozenset({"line"})) == []  # (every line style is feminine)
