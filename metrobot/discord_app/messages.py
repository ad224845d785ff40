"""Small pieces every part of the adapter uses: clipping text to Discord's limit, files,
allowed mentions, the private reply, and the shape of the bot the parts talk to."""

from __future__ import annotations

import io
import logging
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

import aiohttp
import discord

from ..i18n.words import fit
from ..service import File, Message, Outcome, Refused
from ..storage import Commits, DatabaseUnavailable
from .accounting import mark
from .languages import as_requester, speaker
from .playlinks import with_links
from .words import discord_text

if TYPE_CHECKING:
    from ..tournaments.service import TournamentService
    from ..wiring import GameService

LIMIT = 2000
# Seconds the work before an interaction's first answer may take where it cannot be deferred
# (a box that opens, autocomplete): Discord waits 3 s, less the way there and back and the
# work done with what the database answered.
BEFORE_ANSWER = 1.5
log = logging.getLogger("metrobot.discord")


class Bot(Protocol):
    """What commands, controls and delivery need of the client (without importing it)."""

    service: GameService  # the games' service
    tournaments: TournamentService  # the tournaments, beside it (see metrobot/app.py)
    user: discord.ClientUser | None

    @property
    def guilds(self) -> Sequence[discord.Guild]: ...

    def get_channel(self, id: int, /) -> Any: ...

    async def fetch_channel(self, channel_id: int, /) -> Any: ...

    def get_user(self, id: int, /) -> discord.User | None: ...

    async def fetch_user(self, user_id: int, /) -> discord.User: ...

    async def deliver(
        self,
        channel_id: str,
        outcome: Outcome,
        interaction: discord.Interaction | None = None,
        *,
        ephemeral: bool = True,
    ) -> None: ...

    async def run_tournaments(self) -> None: ...


def custom_ids(view: discord.ui.View) -> list[str]:
    """The custom ids of a view's components: each of ours has one (a button, a menu)."""
    return [cast(Any, item).custom_id for item in view.children]


def bot_of(interaction: discord.Interaction) -> Bot:
    client: Any = interaction.client
    return client


def clip(text: str) -> str:
    """A text of the service as a Discord message's content: its aside lines left out while it
    is longer than Discord's limit (the coach under a tutorial's post; the middle of a long
    standings list: `words.fit`), its parts worded for Discord (`words.discord_text`), then cut
    to the limit if it is still too long."""
    text = discord_text(fit(text, LIMIT, lambda shown: len(discord_text(shown))))
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"


def files(items: list[File]) -> list[discord.File]:
    """The attachments, each with its alt text (Discord's `description`)."""
    return [
        discord.File(io.BytesIO(f.data), filename=f.name, description=discord_text(f.description) or None)
        for f in items
    ]


def allowed(message: Message) -> discord.AllowedMentions:
    """Ping exactly the people (and roles) the message means to ping, nobody else it names."""
    return discord.AllowedMentions(
        everyone=False,
        replied_user=False,
        roles=[discord.Object(int(r)) for r in message.roles if str(r).isdigit()],
        users=[discord.Object(int(u)) for u in message.mentions if u.isdigit()],
    )


async def send_reply(interaction: discord.Interaction, message: Message, *, ephemeral: bool = True, **extra) -> None:
    """The answer to whoever asked (private unless asked otherwise, e.g. a public replay)."""
    view = with_links(extra.pop("view", None), message)
    if view is not None:
        extra["view"] = view
    await interaction.followup.send(
        clip(message.text),
        files=files(message.files),
        ephemeral=ephemeral,
        allowed_mentions=discord.AllowedMentions.none(),
        **extra,
    )


async def guarded(interaction: discord.Interaction, work: Callable[[], Awaitable[None]]) -> None:
    """Run a control's work after its deferral; refusals go back privately with the reason,
    failures are logged for operators and never shown as tracebacks."""
    commits = Commits()
    try:
        with commits:
            async with as_requester(interaction):
                await work()
    except Refused as exc:
        mark("refused")
        await send_reply(interaction, Message(str(exc)))
    except DatabaseUnavailable as exc:
        mark("unavailable")
        await interaction.followup.send(unavailable(interaction, exc, commits.count), ephemeral=True)
    except Exception:
        mark("failed")
        log_failure("control %s failed", (interaction.data or {}).get("custom_id"))
        await interaction.followup.send(went_wrong(interaction), ephemeral=True)


def went_wrong(interaction: discord.Interaction) -> str:
    """What a person is told when a bug stopped their request (the traceback goes to the log)."""
    return speaker(interaction).t("Something went wrong on my side; the game is unchanged and the error was logged.")


def unavailable(interaction: discord.Interaction, exc: DatabaseUnavailable, commits: int = 0) -> str:
    """What a person is told when the database did not answer (it will be back in a minute):
    never the words for a bug. Whether something was saved is said as it is known."""
    reader = speaker(interaction)
    if exc.unsure or commits:
        return reader.t(
            "The game's database stopped answering while I was saving: your change may have been saved. "
            "Look at the channel in a minute before you try again."
        )
    return reader.t("The game's database is not answering; nothing was changed — try again in a minute.")


def transient(exc: BaseException) -> bool:
    """A failure that is Discord's weather, not our bug: its servers (5xx), its rate limits
    (429), a permission the bot lacks (403), or the connection dropping."""
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500 or exc.status in (403, 429)
    return isinstance(
        exc,
        (
            discord.GatewayNotFound,
            discord.ConnectionClosed,
            ConnectionError,
            TimeoutError,
            aiohttp.ClientConnectionError,
        ),
    )


def log_failure(message: str, *args: Any) -> None:
    """Log the exception being handled: one line for a transient Discord failure (operators
    see it, nothing to debug), nothing for a database that is not answering (storage logs an
    outage once, see storage/outage.py), the traceback for anything else."""
    exc = sys.exc_info()[1]
    if isinstance(exc, DatabaseUnavailable):  # (storage's outage log says it, once per kind of fault)
        log.debug(message + ": %s", *args, exc)
    elif exc is not None and transient(exc):
        status = getattr(exc, "status", None)
        log.warning(
            message + ": %s%s",
            *args,
            f"{status} " if status else "",
            str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__,
        )
    else:
        log.exception(message, *args)
