"""Which language the adapter speaks, and the slash commands in every language.

A person's own language — the one they chose with `/me settings`, else their Discord's
(`interaction.locale`) — is used for everything said to them alone: the adapter sets it for the request (`reading`), so the service's replies,
refusals and menus come out in it. What the channel reads is in the game's language,
which the service knows.

Discord shows a command's name, description, options and choices in each user's language
when the bot sends `name_localizations` / `description_localizations`; discord.py asks a
`Translator` for each of them when the tree is synced. Ours reads the same catalogues as
everything else: names with the context "command name" (Discord wants them lower case,
without spaces), the rest as plain texts.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
import zlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import cache
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from .. import i18n
from ..cachefiles import keep, kept
from ..i18n import DEFAULT, OFFERED, Lang, code_of, lang, reading

NAME_CONTEXT = "command name"
NAMES = {Where.command_name, Where.group_name, Where.parameter_name}
# What Discord accepts as a command or option name: `^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$`,
# lower case where a letter has a lower case (kana and kanji have none). Letters and numbers
# are told by their Unicode category (Python's `re` has no \p{…}); Devanagari's and Thai's
# vowel signs and marks (not letters: Mn, Mc) by their blocks, as Hindi and Thai names need them
# (खेल, เกม). Nothing else: a name Discord would refuse is sent as no localization at all.
MAX_NAME = 32
SCRIPTS_WITH_MARKS = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x1CD0, 0x1CFF), (0x0E00, 0x0E7F))  # Devanagari, Thai
MAX_DESCRIPTION = 100  # descriptions and choice names


CHOSEN = "metrobot_language"  # where an interaction keeps the language its person chose
MAX_CHOICES = 25  # Discord's most choices an option (or an autocomplete answer) may have


def language_choices(current: str, extra: tuple[tuple[str, str], ...] = ()) -> list[app_commands.Choice[str]]:
    """An option's languages, as the person types (autocomplete): each offered language named in
    itself (as people look for it), then `extra` ((name, value): "Discord"), those whose name or
    code holds what was typed, at most Discord's 25. Not fixed choices: the languages offered are
    more than the 25 choices Discord takes on an option, and it refuses the whole command tree
    over one such option. The service refuses a value that is no language offered."""
    typed = unicodedata.normalize("NFKC", current or "").casefold().strip()
    named = [(name, code) for code, name in OFFERED.items()] + list(extra)
    return [
        app_commands.Choice(name=name, value=code)
        for name, code in named
        if typed in unicodedata.normalize("NFKC", name).casefold() or typed in code.casefold()
    ][:MAX_CHOICES]


def speaker(interaction: discord.Interaction) -> Lang:
    """The language of the person behind an interaction: the one they chose (`/me settings`,
    once `as_requester` has looked it up), else their Discord's (English if Discord doesn't say)."""
    chosen = (getattr(interaction, "extras", None) or {}).get(CHOSEN)
    return lang(chosen or getattr(interaction, "locale", None))


@asynccontextmanager
async def as_requester(interaction: discord.Interaction) -> AsyncIterator[Lang]:
    """Everything the service says during this request speaks the requester's language."""
    extras = getattr(interaction, "extras", None)
    if isinstance(extras, dict) and CHOSEN not in extras:
        service = getattr(interaction.client, "service", None)
        try:
            extras[CHOSEN] = await service.people.language_of(str(interaction.user.id)) if service else None
        except Exception:  # (a database hiccup: their Discord's language will do)
            extras[CHOSEN] = None
    with reading(speaker(interaction)) as language:
        yield language


def valid_name(text: str) -> bool:
    return (
        1 <= len(text) <= MAX_NAME
        and text == text.lower()
        and all(
            ch in "-_"
            or unicodedata.category(ch)[0] in "LN"
            or any(low <= ord(ch) <= high for low, high in SCRIPTS_WITH_MARKS)
            for ch in text
        )
    )


def discord_locales(code: str) -> list[str]:
    """Discord's locale keys that read our language `code` (`nb` -> ["no"], `es` -> ["es-419",
    "es-ES"], `zh_CN` -> ["zh-CN"]): every key the bot sends a localization under is one of these."""
    return sorted(locale.value for locale in discord.Locale if code_of(locale) == code)


def command_text(language: Lang, text: str, name: bool) -> str | None:
    """A command's name or description in `language` (the English where the catalogue has
    no other); None where Discord would refuse it, so that it shows the English."""
    if not language.knows(text, NAME_CONTEXT if name else None):
        return None  # (a text from outside our catalogues, e.g. a game registered by a test)
    out = language.p(NAME_CONTEXT, text) if name else language.t(text)
    if name:
        return out if valid_name(out) else None
    return out if len(out) <= MAX_DESCRIPTION else None


# Every text the tree asks for, by (text, Discord locale, whether a name): the catalogues are
# read once a process (`metrobot.i18n`), so a translation never changes; discord.py asks each
# of about 300 texts once for each of its 31 locales at every sync, i.e. at every start.
_TRANSLATED: dict[tuple[str, discord.Locale, bool], str | None] = {}


class CatalogueTranslator(app_commands.Translator):
    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        key = (string.message, locale, context.location in NAMES)
        if key not in _TRANSLATED:
            code = code_of(locale)
            _TRANSLATED[key] = None if code == DEFAULT else command_text(lang(code), key[0], key[2])
        return _TRANSLATED[key]


# The translated tree is the same at every start of the same code and catalogues, but making it
# costs a bot's start about 0.12 s of CPU (0.65 s in all): every catalogue read (29 of them) and
# some 12,500 of discord.py's translator calls. So it is kept in the user's cache
# (metrobot/cachefiles.py) under the digest of all it is made from: the tree as discord.py gives it
# untranslated, discord.py's version, every catalogue's .po file, and the code that translates
# (this module and metrobot/i18n); and in the process (`_TREES`), for a process that starts more
# than one bot (the tests). Another translator (a test's) is asked every time. Compressed (zlib:
# 570 kB of JSON in 190 kB, 2 ms to read back), and only the last few trees: one per upgrade.
_TREE_FORMAT = b"translated command tree, 2"
_TREES_KEPT = 8
_TRANSLATING_CODE = (Path(__file__), Path(i18n.__file__))
_TREES: dict[str, bytes] = {}


@cache
def _digest(path: Path, mtime_ns: int, size: int) -> bytes:
    """A file's digest, once a process while it is not changed (its time and size the same)."""
    return hashlib.sha256(path.read_bytes()).digest()


def _file_digest(path: Path) -> bytes:
    try:
        status = path.stat()
    except FileNotFoundError:
        return b"-"
    return _digest(path, status.st_mtime_ns, status.st_size)


def _tree_name(untranslated: list[dict[str, Any]]) -> str:
    h = hashlib.sha256(_TREE_FORMAT + b"\0" + discord.__version__.encode())
    h.update(json.dumps(untranslated, sort_keys=True).encode())
    for path in _TRANSLATING_CODE:
        h.update(b"\0" + _file_digest(path))
    for code in i18n.LANGUAGES:
        h.update(b"\0" + code.encode() + b"\0" + _file_digest(i18n.LOCALES / f"{code}.po"))
    return h.hexdigest()[:40] + ".json.z"


async def translated_tree(
    tree: app_commands.CommandTree, commands: list[Any], translator: app_commands.Translator
) -> list[dict[str, Any]]:
    """The commands' payload as discord.py's sync sends it with `translator` (every name and
    description in every language), read from the cache when the same was made before."""
    if type(translator) is not CatalogueTranslator:
        return [await c.get_translated_payload(tree, translator) for c in commands]
    try:
        name = _tree_name([c.to_dict(tree) for c in commands])
    except OSError:  # (a catalogue that cannot be read: translated as before, which says why)
        return [await c.get_translated_payload(tree, translator) for c in commands]
    data = _TREES.get(name) or kept("commands", name)
    if data is not None:
        try:
            payload = json.loads(zlib.decompress(data))
        except (ValueError, zlib.error):
            payload = None  # (not what was written: made again below)
        if isinstance(payload, list):
            _TREES[name] = data
            return payload
    payload = [await c.get_translated_payload(tree, translator) for c in commands]
    _TREES[name] = data = zlib.compress(json.dumps(payload, ensure_ascii=False).encode())
    keep("commands", name, data, limit=_TREES_KEPT)
    return payload


def command_texts(commands: list[Any]) -> list[tuple[str | None, str]]:
    """Every name (with its context) and description of these slash commands, their
    options and choices: what the catalogue must hold for the command tree."""
    out: list[tuple[str | None, str]] = []

    def walk(command: Any) -> None:
        out.append((NAME_CONTEXT, command.name))
        out.append((None, command.description))
        if isinstance(command, app_commands.Group):
            for sub in command.commands:
                walk(sub)
            return
        for param in command.parameters:
            out.append((NAME_CONTEXT, param.display_name))
            if param.description and param.description != "…":
                out.append((None, param.description))
            if param.name != "language":  # languages are named in themselves
                for choice in param.choices:
                    out.append((None, choice.name))

    for command in commands:
        walk(command)
    return out


__all__ = [
    "NAME_CONTEXT",
    "CatalogueTranslator",
    "as_requester",
    "command_text",
    "command_texts",
    "discord_locales",
    "speaker",
    "translated_tree",
    "valid_name",
]
