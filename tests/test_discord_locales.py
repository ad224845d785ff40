"""The slash commands in every Discord locale (issue 76): every localization the bot sends is
keyed by one of the locales Discord's spec lists (`AvailableLocalesEnum`, pinned in
tests/e2e/apispec), each localized name passes Discord's rule for names, and a language still
being translated sends a command's name or description only where it has translated it —
Discord shows the English for the rest — and a name it would refuse not at all."""

from __future__ import annotations

import asyncio
import gettext
import io
import json
import unicodedata
import zlib
from pathlib import Path

import discord
import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from discord import app_commands

from metrobot.discord_app import activity
from metrobot.discord_app import languages as module
from metrobot.discord_app.client import slash_commands
from metrobot.discord_app.languages import NAME_CONTEXT, CatalogueTranslator, discord_locales
from metrobot.i18n import IN_PROGRESS, LANGUAGES, Lang, lang

SPEC = Path(__file__).parent / "e2e" / "apispec" / "pinned" / "openapi.json"  # (Discord's, pinned)


def _spec_locales() -> set[str]:
    spec = json.loads(SPEC.read_text(encoding="utf-8"))
    return {entry["const"] for entry in spec["components"]["schemas"]["AvailableLocalesEnum"]["oneOf"]}


def discord_accepts(name: str) -> bool:
    """Discord's rule for a command's or option's name, as its docs write it:
    `^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`, lower case where a letter has one (read
    here by Unicode's character names for the two scripts, apart from the code's own check)."""
    return (
        1 <= len(name) <= 32
        and name == name.lower()
        and all(
            ch in "-_"
            or unicodedata.category(ch)[0] in "LN"
            or unicodedata.name(ch, "").startswith(("DEVANAGARI ", "THAI "))
            for ch in name
        )
    )


async def _payload() -> list[dict]:
    """The command tree as discord.py sends it to Discord at a sync, translated by ours."""
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    translator = CatalogueTranslator()
    return [await command.get_translated_payload(tree, translator) for command in slash_commands(None)]


def _localized(item: dict, kinds: tuple[str, str] = ("name", "description")) -> list[tuple[str, str, str]]:
    """(kind, locale, text) of every localization in a command's payload, its options and
    choices within: "name" (a command's or option's: Discord's name rule), "description", "choice"."""
    out = [
        (kind, locale, text)
        for kind, key in zip(kinds, ("name", "description"))
        for locale, text in (item.get(f"{key}_localizations") or {}).items()
    ]
    for option in item.get("options") or ():
        out += _localized(option)
    for choice in item.get("choices") or ():
        out += _localized(choice, ("choice", "choice"))
    return out


def test_every_language_is_one_of_discords_locales():
    spec = _spec_locales()
    assert len(spec) >= 32
    for code in LANGUAGES:
        assert discord_locales(code) and set(discord_locales(code)) <= spec, code
    assert discord_locales("nb") == ["no"] and discord_locales("sv") == ["sv-SE"]
    assert discord_locales("zh_CN") == ["zh-CN"] and discord_locales("zh_TW") == ["zh-TW"]
    # every locale Discord's client offers reads one of our languages (English for en-GB and en-US)
    assert {code for locale in discord.Locale for code in [module.code_of(locale)]} == set(LANGUAGES)


def test_the_command_tree_sends_discords_locales_and_names_it_accepts(monkeypatch):
    monkeypatch.setattr(module, "_TRANSLATED", {})
    sent = [entry for command in asyncio.run(_payload()) for entry in _localized(command)]
    assert sent
    assert {locale for _, locale, _ in sent} <= _spec_locales()
    bad = [(locale, text) for kind, locale, text in sent if kind == "name" and not discord_accepts(text)]
    assert not bad
    # a language in progress sends only what it has translated (today: nothing, Discord shows English)
    untranslated = {
        locale for code in IN_PROGRESS if not lang(code).knows("game", NAME_CONTEXT) for locale in discord_locales(code)
    }
    game = next(c for c in asyncio.run(_payload()) if c["name"] == "game")
    assert not untranslated & set(game.get("name_localizations") or {})


def _partly(code: str, names: dict[str, str], texts: dict[str, str]) -> Lang:
    """A language with only these command names and texts translated."""
    cat = Catalog(locale=code)
    for english, own in names.items():
        cat.add(english, own, context=NAME_CONTEXT)
    for english, own in texts.items():
        cat.add(english, own)
    buf = io.BytesIO()
    write_mo(buf, cat)
    buf.seek(0)
    return Lang(code, gettext.GNUTranslations(buf))


@pytest.mark.parametrize(
    "code, name, wrong",
    [("pl", "gra", "Gra Nowa"), ("hi", "खेल", "खेल नया"), ("th", "เกม", "เกม ใหม่"), ("zh_CN", "游戏", "游 戏")],
)
def test_a_language_in_progress_sends_what_it_has_translated(monkeypatch, code, name, wrong):
    """Polish, Hindi, Thai and Chinese with only `game` named: its name goes out under the
    language's Discord locale, nothing else does; a name Discord would refuse (spaces, capitals)
    is not sent, so Discord shows the English."""
    description = "Create and manage the game in this channel"
    partial = {code: _partly(code, {"game": name}, {description: f"⟨{code}⟩"})}
    monkeypatch.setattr(module, "lang", lambda c: partial.get(c) or lang(c))
    monkeypatch.setattr(module, "_TRANSLATED", {})
    commands = asyncio.run(_payload())
    (locale,) = discord_locales(code)
    game = next(c for c in commands if c["name"] == "game")
    assert game["name_localizations"][locale] == name and discord_accepts(name)
    assert game["description_localizations"][locale] == f"⟨{code}⟩"
    others = [text for c in commands for kind, where, text in _localized(c) if where == locale]
    assert set(others) == {name, f"⟨{code}⟩"}, "nothing else in that locale (the name `game` is an option too)"
    partial[code] = _partly(code, {"game": wrong}, {})
    monkeypatch.setattr(module, "_TRANSLATED", {})
    game = next(c for c in asyncio.run(_payload()) if c["name"] == "game")
    assert locale not in (game.get("name_localizations") or {}) and not discord_accepts(wrong)


def test_the_activitys_description_goes_to_discords_locales_where_translated():
    sent = activity.entry_point(None)["description_localizations"]
    assert set(sent) <= _spec_locales()
    assert {"es-ES", "es-419", "pt-BR", "ja"} <= set(sent)
    assert not set(sent) & {locale for code in IN_PROGRESS for locale in discord_locales(code)} or any(
        lang(code).knows(activity.DESCRIPTION) for code in IN_PROGRESS
    )


def test_a_language_option_answers_as_the_person_types_within_discords_25_choices():
    """The languages offered are more than the 25 choices Discord takes on an option (it refused
    the whole command tree over one such option): they are autocompleted, by name or code."""
    from metrobot.discord_app.languages import MAX_CHOICES, language_choices
    from metrobot.i18n import OFFERED

    assert len(OFFERED) > MAX_CHOICES
    assert len(language_choices("")) == MAX_CHOICES
    assert [(c.name, c.value) for c in language_choices("pol")] == [("Polski", "pl")]
    assert [c.value for c in language_choices("ไทย")] == ["th"]
    assert [c.value for c in language_choices("zh_tw")] == ["zh_TW"]
    assert [c.value for c in language_choices("disc", (("Discord", "discord"),))] == ["discord"]


def test_the_translated_tree_kept_between_starts_is_the_one_discord_py_makes(tmp_path, monkeypatch):
    """A start reads the translated command tree from the cache when the same tree, catalogues and
    code made it before (metrobot/cachefiles.py): what it reads is what discord.py would send, and
    an edited catalogue is a new name, never the old tree."""
    import shutil

    from metrobot import i18n

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(module, "_TREES", {})  # (what this process made or read before)
    kept = tmp_path / "cache" / "metrobot" / "commands"

    async def sent() -> tuple[list[dict], list[dict], list[dict], str]:
        tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
        commands = slash_commands(None)
        made = [await c.get_translated_payload(tree, CatalogueTranslator()) for c in commands]
        first = await module.translated_tree(tree, commands, CatalogueTranslator())  # made, then kept
        again = await module.translated_tree(tree, commands, CatalogueTranslator())  # read back
        return made, first, again, module._tree_name([c.to_dict(tree) for c in commands])

    made, first, again, name = asyncio.run(sent())
    assert first == made and again == made
    assert [p.name for p in kept.iterdir()] == [name]
    (kept / name).write_bytes(zlib.compress(b'[{"name": "read from the cache"}]'))
    module._TREES.clear()
    assert asyncio.run(sent())[2] == [{"name": "read from the cache"}]

    locales = tmp_path / "locales"
    shutil.copytree(i18n.LOCALES, locales)
    with (locales / "de.po").open("a", encoding="utf-8") as po:
        po.write("\n# edited\n")
    monkeypatch.setattr(i18n, "LOCALES", locales)
    assert asyncio.run(sent())[3] != name
