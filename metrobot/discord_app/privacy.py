"""People's data through Discord: `/me data` (the JSON file by DM, or privately here when DMs
are closed), `/me forget` (a button, then a box where a code is typed, as Red-DiscordBot's
`forgetme` asks for a typed confirmation), and `/privacy`.

The confirmation lives in custom ids only (nothing in memory, so it works after a restart):
`mb:fg:<user>:<issued>` on the button, `mb:fgm:<user>:<issued>` on the box. The code to type
is derived from both, so a forged id only ever lets a person forget themselves — which is
what the confirmation guards against doing by accident, not against anyone else: the button
is refused to anyone but its person, after CONFIRM_SECONDS, and with a wrong code.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import re
import time
from typing import Any

import discord
from discord import app_commands

from ..service import Refused
from .commands import run
from .languages import as_requester, speaker
from .messages import Bot, bot_of, clip, log_failure, went_wrong
from .user_install import anywhere

CONFIRM_SECONDS = 600
FILE_LIMIT = 8 * 1024 * 1024  # bytes Discord takes in one attachment: past it, the file is gzipped
BOX = re.compile(r"mb:fgm:(?P<uid>\d{1,20}):(?P<issued>\d{1,12})")


def confirmation_code(user_id: str, issued: int) -> str:
    """Six letters and digits to type (A–Z, 2–7: no 0/O or 1/I to mix up)."""
    digest = hashlib.blake2b(f"forget:{user_id}:{issued}".encode(), digest_size=5).digest()
    return base64.b32encode(digest).decode()[:6]


def _typed(text: str) -> str:
    return re.sub(r"[\s\-_.]", "", str(text)).upper()


def _check(interaction: discord.Interaction, uid: str, issued: int) -> None:
    """Refuse a confirmation that is not the requester's own, or too old (or from the future)."""
    t = speaker(interaction)
    if str(interaction.user.id) != uid:
        raise Refused(
            t.t(
                "This confirmation belongs to someone else; nothing was deleted. To delete your own data, "
                "use `/me forget`."
            )
        )
    now = time.time()
    if not now - CONFIRM_SECONDS <= issued <= now + 60:
        raise Refused(
            t.t("This confirmation has expired (it lasts 10 minutes); nothing was deleted. Use `/me forget` again.")
        )


class ForgetButton(discord.ui.DynamicItem[discord.ui.Button], template=r"mb:fg:(?P<uid>\d{1,20}):(?P<issued>\d{1,12})"):
    """ "Forget me…" under `/me forget`'s private answer: opens the box for the code."""

    def __init__(self, uid: str, issued: int, label: str = "…"):
        super().__init__(
            discord.ui.Button(style=discord.ButtonStyle.danger, label=label, custom_id=f"mb:fg:{uid}:{issued}")
        )
        self.uid, self.issued = uid, issued

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(match["uid"], int(match["issued"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        # (a box opens at once, as the first answer; a refusal is a private message instead)
        try:
            async with as_requester(interaction) as t:
                _check(interaction, self.uid, self.issued)
                code = confirmation_code(self.uid, self.issued)
                modal = discord.ui.Modal(
                    title=t.t("Forget me")[:45], custom_id=f"mb:fgm:{self.uid}:{self.issued}", timeout=None
                )
                modal.add_item(
                    discord.ui.TextInput(
                        label=t.t("Type {code} to confirm", code=code)[:45], max_length=20, custom_id="code"
                    )
                )
        except Refused as exc:
            await interaction.response.send_message(clip(str(exc)), ephemeral=True)
            return
        except Exception:
            log_failure("control %s failed", (interaction.data or {}).get("custom_id"))
            await interaction.response.send_message(went_wrong(interaction), ephemeral=True)
            return
        await interaction.response.send_modal(modal)
        modal.stop()  # (its answer is read from its custom id: see `forget_submitted`)


def _box_text(interaction: discord.Interaction) -> str:
    def texts(components: Any):
        for c in components if isinstance(components, list) else []:
            if not isinstance(c, dict):
                continue
            if c.get("custom_id") == "code" and isinstance(c.get("value"), str):
                yield c["value"]
            yield from texts(c.get("components"))
            yield from texts([c["component"]] if isinstance(c.get("component"), dict) else [])

    return next(texts((interaction.data or {}).get("components")), "")


async def forget_submitted(interaction: discord.Interaction) -> bool:
    """The box of `/me forget` sent back: with the right code, the requester is forgotten. False
    if the interaction is not that box."""
    match = BOX.fullmatch(str((interaction.data or {}).get("custom_id", "")))
    if match is None:
        return False
    bot = bot_of(interaction)
    uid, issued = match["uid"], int(match["issued"])

    async def work():
        _check(interaction, uid, issued)
        if _typed(_box_text(interaction)) != confirmation_code(uid, issued):
            raise Refused(
                speaker(interaction).t("The code does not match; nothing was deleted. Use `/me forget` to start again.")
            )
        return await bot.privacy.forget(uid, tell=True)  # type: ignore[attr-defined]

    # (the modal closes with the acknowledgement: the erasure is recorded before it, so that a
    # process killed right after it leaves a job the next one completes)
    await run(interaction, work, confirm=True)
    return True


async def send_data(bot: Bot, interaction: discord.Interaction) -> None:
    """`/me data`: the file by DM; privately here if DMs are closed."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        async with as_requester(interaction) as t:
            user = str(interaction.user.id)
            document = await bot.privacy.export(user)  # type: ignore[attr-defined]
            data = json.dumps(document, ensure_ascii=False, indent=1).encode()
            name = f"metrobot-data-{user}.json"
            if len(data) > FILE_LIMIT:
                data, name = gzip.compress(data), name + ".gz"
            text = t.t(
                "Your data as metrobot keeps it: a JSON file (format version {version}, described in the "
                "bot's PRIVACY.md). `/me forget` deletes it.",
                version=document["version"],
            )
            # (a screen reader says what the attachment is, as for every file the bot sends)
            about = t.t(
                "Everything metrobot keeps about you, as JSON (format version {version}).", version=document["version"]
            )
            try:
                await interaction.user.send(text, file=discord.File(io.BytesIO(data), filename=name, description=about))
                await interaction.followup.send(t.t("I have sent you your data by direct message."), ephemeral=True)
            except discord.Forbidden:  # closed DMs: privately, here
                await interaction.followup.send(
                    clip(t.t("Your DMs are closed, so here it is, only for you.") + "\n" + text),
                    file=discord.File(io.BytesIO(data), filename=name, description=about),
                    ephemeral=True,
                )
    except Exception:
        log_failure("/me data failed")
        await interaction.followup.send(went_wrong(interaction), ephemeral=True)


def me_privacy_commands(bot: Bot) -> list[app_commands.Command]:
    """`/me data` and `/me forget` (added to the `/me` group)."""

    @app_commands.command(name="data", description="Everything metrobot keeps about you, as a file by DM")
    async def data(interaction: discord.Interaction) -> None:
        await send_data(bot, interaction)

    @app_commands.command(name="forget", description="Delete everything metrobot keeps about you (asks first)")
    async def forget(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with as_requester(interaction) as t:
            uid, issued = str(interaction.user.id), int(time.time())
            text = t.t(
                "**Forget me** deletes your settings, time away, notes and ratings, and puts “Deleted player” "
                "in place of your name and id in every game: the others keep their games, and the automatic "
                "player takes your seats in running games. It cannot be undone. Messages already posted in "
                "channels stay. To go on, press the button and type **{code}** (within 10 minutes).",
                code=confirmation_code(uid, issued),
            )
            view = discord.ui.View(timeout=None)
            view.add_item(ForgetButton(uid, issued, t.p("button", "Forget me…")))
        await interaction.followup.send(clip(text), view=view, ephemeral=True)

    return [data, forget]


def privacy_command(bot: Bot) -> app_commands.Command:
    @anywhere
    @app_commands.command(name="privacy", description="What metrobot keeps about you, why, and how to get or delete it")
    async def privacy(interaction: discord.Interaction) -> None:
        await run(interaction, lambda: bot.privacy.policy())  # type: ignore[attr-defined]

    return privacy


PRIVACY_ITEMS = (ForgetButton,)
