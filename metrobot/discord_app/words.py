"""The service's texts as Discord shows them: its parts (`metrobot.i18n.words`) worded with
Discord's own syntax — mentions, roles, channels, timestamps and slash commands — and what a
person can do next named by the game's command and the buttons under the message.

Only this module writes `<@id>`, `<#id>`, `<t:…>` or a slash command for a text the service
made; everything the adapter sends passes through `discord_text` (`messages.clip` calls it)."""

from __future__ import annotations

from dataclasses import dataclass

from ..games import get_plugin
from ..i18n import N_, lang
from ..i18n.words import render

# What a person can do next, in a channel (see words.ACTS).
ACT_WORDS = {"play": N_("{command} or the buttons below"), "go on": N_("{command} or the buttons")}
# One text, as translators wrote it with the command's localized name and its typed word.
ROUTE_WORDS = N_("choose one with ▶ Play or `/play route N`")


def _command(text: str, language: str) -> str:
    """A slash command as a person types it in `language`: Discord shows the localized names of
    commands and options ("game new" -> `/spiel neu`, "me settings reminders:0" -> `/ich
    einstellungen erinnerungen:0`); values stay as they are."""
    reader = lang(language)
    words = []
    for word in text.split(" "):
        option, colon, value = word.partition(":")
        words.append(reader.p("command name", option) + colon + value if option.isidentifier() else word)
    return "`/" + " ".join(words) + "`"


@dataclass
class Discord:
    """The medium: Discord's markdown is what the catalogue's texts already carry."""

    def text(self, piece: str) -> str:
        return piece

    def person(self, user_id: str, name: str, ping: bool) -> str:
        return f"<@{user_id}>" if ping else name

    def role(self, role_id: str) -> str:
        return f"<@&{role_id}>"

    def channel(self, channel_id: str) -> str:
        return f"<#{channel_id}>"

    def time(self, seconds: int, style: str) -> str:
        return f"<t:{seconds}:{style}>"

    def act(self, what: str, game: str, language: str) -> str:
        reader = lang(language)
        commands = get_plugin(game).commands if game else ()
        main = _command(commands[0].name, language) if commands else ""
        if what == "route":
            return reader.t(ROUTE_WORDS)
        if not main:
            return reader.t("the buttons below")
        return reader.t(ACT_WORDS.get(what, ACT_WORDS["play"]), command=main)

    def command(self, text: str, language: str) -> str:
        return _command(text, language)


DISCORD = Discord()


def discord_text(text: str) -> str:
    """A text of the service as a Discord message (or a label, an alt text) carries it."""
    return render(text, DISCORD)
