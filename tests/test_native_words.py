"""Words a native speaker would write (issue 74): the translations a native-level reading found
wrong, and the English sources built so that no language could say them well. Each test names
one class of defect and fails on the catalogues (or the code) that had it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

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
            found[message.id if isinstance(message.id, str) else message.id[0]] = " ".join(str(s) for s in strings)
    return found


def test_french_speaks_to_the_player_with_tu_in_the_daily_challenge_too():
    assert lang("fr").t("(you)") == "(toi)"
    daily = _translations("fr", "metrobot/daily/challenge.py")
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
    texts = [text for text in _translations("ko", "metrobot/tables/find.py").values() if particle.search(text)]
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


# ---------------------------------------------------------------- sources every language can say

ROOT = Path(__file__).resolve().parents[1]
# (a preposition that needs a moment, before a time Discord writes as "in 5 minutes" or "5 minutes ago")
_BEFORE_PLACE = re.compile(r"(?i)\b(before|since|until|till|after|by|from|at|on)\s+\{(\w+)\}")


def _relative_times() -> list[str]:
    """Every catalogue text given a relative time (`part.time(…, "R")`), with a preposition
    before that place."""
    found = []
    for path in sorted((ROOT / "metrobot").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call in ast.walk(tree):
            if not (isinstance(call, ast.Call) and call.args and isinstance(call.args[0], ast.Constant)):
                continue
            text = call.args[0].value
            if not isinstance(text, str):
                continue
            relative = {
                k.arg
                for k in call.keywords
                if isinstance(k.value, ast.Call)
                and isinstance(k.value.func, ast.Attribute)
                and k.value.func.attr == "time"
                and any(isinstance(a, ast.Constant) and a.value == "R" for a in k.value.args[1:])
            }
            found += [
                f"{path.relative_to(ROOT)}: {text!r}" for m in _BEFORE_PLACE.finditer(text) if m.group(2) in relative
            ]
    return found


def test_a_relative_time_carries_its_own_preposition():
    # Discord writes a relative time as "in 5 minutes" / "5 minutes ago", in the reader's words:
    # "before {time}" read "before in 5 minutes" (vor in…, avant dans…, 5분 후 전에)
    assert _relative_times() == []


def test_the_review_page_says_in_discord_once():
    from metrobot.i18n import LANGUAGES
    from metrobot.i18n import words as part
    from metrobot.web.reader import rich

    for code in LANGUAGES:
        reader = lang(code)
        text = reader.t(
            "Your review of this game is not made yet: ask for it in Discord with {command} "
            "(or 🔎 Review under the game's final post), then open this page again.",
            command=part.command("game review", code),
        )
        page = str(rich(text, reader))
        assert page.count("Discord") == 1, (code, page)
        assert f"/{reader.p('command name', 'game')} {reader.p('command name', 'review')}" in page, (code, page)


def test_a_bank_clocks_terms_do_not_repeat_their_title():
    from metrobot.i18n import LANGUAGES
    from metrobot.service.turnclock import PRESETS, describe

    for code in LANGUAGES:
        reader = lang(code)
        title = re.split(r"\s*[:：]", reader.t("Bank clock: {terms}."))[0]
        for terms in PRESETS.values():
            line = reader.t("Bank clock: {terms}.", terms=describe(terms, reader, titled=True))
            assert line.count(title) == 1, (code, line)  # never "Zeitkonto: Zeitkonto 3 Tage"
            assert code not in ("ja", "ko") or "; " not in line, line  # (Japanese joins with 、)
    assert lang("de").t("Bank clock: {terms}.", terms=describe(PRESETS["day"], lang("de"), titled=True)) == (
        "Zeitkonto: ein Zug am Tag — 3 Tage zu Beginn, +1 Tag pro Zug, höchstens 7 Tage."
    )


def test_a_nudge_speaks_to_one_person_or_to_several():
    nudge = "👋 {who}: the game is waiting for you — a nudge from {name} ({when})."
    fr, de = lang("fr"), lang("de")
    assert (
        "t’attend"
        in fr.n(nudge, nudge, 1, who="Ann", name="Bob", when="")
        != fr.n(nudge, nudge, 2, who="", name="", when="")
    )
    assert "vous attend" in fr.n(nudge, nudge, 2, who="Ann, Cleo", name="Bob", when="")
    assert "euch" in de.n(nudge, nudge, 2, who="Ann, Cleo", name="Bob", when="")
