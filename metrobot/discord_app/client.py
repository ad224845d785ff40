"""The Discord client: wires the service and the tournaments (built in metrobot/app.py), the
commands, the persistent controls and the turn-clock loop together (RoboDanny-style: a Bot
subclass that sets everything up in setup_hook). Commands are built from the game registry at
start-up."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import discord
from discord.ext import commands, tasks

from .. import memory
from ..app import for_bot
from ..privacy import Privacy
from ..service import Outcome
from ..settings import Settings
from ..storage import Database
from ..tournaments.service import TournamentService
from ..wiring import GameService
from .activity import board_play, sync_at_start, sync_once_invited
from .commands import game_group, look_commands
from .composer import typed_step
from .connecting import patiently
from .controls import DYNAMIC_ITEMS, unknown_control
from .daily import daily_group
from .delivery import deliver
from .finding import find_command, run_found
from .gate import Gate, TokenBuckets
from .languages import CatalogueTranslator
from .messages import Bot, log_failure
from .moves import move_commands
from .operate import Operations
from .people import people_commands
from .privacy import forget_submitted, privacy_command
from .recovery import deliver_on_start, deliver_owed
from .standings import standings_commands
from .tournament_delivery import run_tournaments
from .tournaments import tournament_group
from .tree import MetroTree
from .wakeup import Waker

log = logging.getLogger("metrobot.discord")

STOP_SECONDS = 8.0  # a graceful stop's budget: under the 10 s a stop is promised in


# To the checker, the mixin is the Bot it is always mixed into (see MetroBot, ShardedMetroBot).
if TYPE_CHECKING:
    _BotBase = commands.Bot
else:
    _BotBase = object


class Metro(_BotBase):
    """The bot's own behaviour, on top of discord.py's Bot or AutoShardedBot (see create_bot)."""

    settings: Settings

    def __init__(self, settings: Settings, **sharding: Any):
        # No privileged intents: slash commands and buttons need neither members nor message content.
        # No message cache either: the bot never looks back at a message it saw (its posts are
        # found by id), and a cache of 1,000 messages with their attachments and components is
        # memory a busy server fills for nothing.
        # The bot never joins a voice channel: no warning that voice libraries are missing.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),  # type: ignore
            help_command=None,
            tree_cls=MetroTree,
            max_messages=None,
            **sharding,
        )
        self.settings = settings
        self.service: GameService | None = None
        self.tournaments: TournamentService | None = None  # (built with the service: metrobot/app.py)
        self.privacy: Privacy | None = None
        self._guard_parsers()
        self.gate = Gate(self, TokenBuckets(settings.rate_per_second, settings.rate_burst))
        self.gate.install(self._connection)
        self._recovery: asyncio.Task | None = None
        self._ticking = asyncio.Lock()  # held while the turn clock acts (a stop waits for it)
        self._stopping: asyncio.Task | None = None
        self._closing: asyncio.Task | None = None
        self.operations: Operations | None = None
        self.web: Any = None  # the web pages' server, when this process serves them
        self.waker: Waker | None = None  # woken by moves made on pages served elsewhere
        self._closed = False
        self._shut = asyncio.Event()  # set by close(): a start-up waiting to try Discord again gives up
        self._setting_up = False  # setup_hook has begun: a failure from here on is not retried by start()
        self._background: set[asyncio.Task] = set()
        self.sync_awaited: int | None = None  # the development server the commands wait for (activity.py)

    def _guard_parsers(self) -> None:
        """An event Discord sends that discord.py cannot parse (a malformed interaction,
        say) would otherwise end the connection and `bot.run` with it: log it and go on."""
        parsers = self._connection.parsers
        for event, parser in list(parsers.items()):
            parsers[event] = _guarded(event, parser)

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        """Log in — again and again, one log line a try, while Discord cannot be reached (see
        connecting.py) — then connect to the gateway, whose own reconnecting takes over."""
        await patiently(
            "logging in",
            lambda: self.login(token),
            self._stopped_within,
            before_retry=self._fresh_http,
            may_retry=lambda: not self._setting_up,
        )
        if not self._closed:
            await self.connect(reconnect=reconnect)

    async def _fresh_http(self) -> None:
        """The HTTP session of a failed login closed (its connector with it), so that the next
        login makes new ones rather than leaving one open per try."""
        await self.http.close()
        self.http.connector = discord.utils.MISSING

    async def _stopped_within(self, seconds: float) -> bool:
        """Wait up to `seconds`; whether the bot was closed meanwhile (a stop while waiting)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._shut.wait(), seconds)
        return self._closed

    async def setup_hook(self) -> None:
        self._setting_up = True
        # The database is the service's from here on: it closes it (see close).
        db = await Database(self.settings.database).open()
        try:
            app = for_bot(db, self.settings)  # (the game service and the tournaments: metrobot/app.py)
            self.service, self.tournaments, self.privacy = app.service, app.tournaments, app.privacy
        except BaseException:
            await db.close()
            raise
        # The drawing workers start now, in the background, and draw every board's static
        # layers before anyone asks (start-up does not wait for them).
        self.service.painter.start(warm=self.settings.draw_ahead)
        for command in slash_commands(self):
            self.tree.add_command(command)
        # Names and descriptions in the users' languages, from the message catalogues.
        await self.tree.set_translator(CatalogueTranslator())
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        guild = discord.Object(self.settings.dev_guild) if self.settings.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        if not await sync_at_start(self, guild, self._stopped_within):  # (a refusal: one line, see activity.py)
            return  # stopped while waiting
        # What a crash left owed is delivered now, over HTTP, while the gateway connects, and
        # as soon as the claims a dead process held run out (later at every tick of the turn clock).
        self._recovery = asyncio.create_task(deliver_on_start(cast(Bot, self)))
        self.turn_clock.change_interval(seconds=self.settings.tick_seconds)
        self.turn_clock.start()
        if self.settings.metrics_port is not None:
            self.operations = Operations(self, self.settings.metrics_host, self.settings.metrics_port)
            await self.operations.start()
        await self._start_web()
        board_play(self)  # "▶ Play on the board" under turn posts: the Activity, or a browser
        log.info("metrobot ready: database %s (schema %d)", db.path, db.schema_version)

    async def _start_web(self) -> None:
        """The web pages in this process (METROBOT_WEB_PORT), or links to where another process
        serves them (METROBOT_WEB_BASE_URL alone)."""
        assert self.service is not None
        if self.settings.web_port is not None:
            from ..web.serve import WebServer

            assert self.tournaments is not None
            self.web = WebServer(
                self.service,
                self.tournaments,
                self.settings.web_host,
                self.settings.web_port,
                self.settings.web_base_url,
                announce=self.deliver,  # (a move confirmed on a play page is announced from here)
                settings=self.settings,  # (the Discord Activity's client id and secret, if set)
            )
            await self.web.start()
        elif self.settings.web_base_url:
            self.service.web_base = self.settings.web_base_url
            # Pages in processes of their own: a move made there wakes this bot (see wakeup.py).
            self.waker = Waker(self)
            await self.waker.start()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A box a person typed into comes back as a modal submit, which discord.py routes
        only to modals it still holds in memory: ours are read from their custom id instead,
        so they work after a restart too."""
        if (
            interaction.type is discord.InteractionType.modal_submit
            and not await typed_step(interaction)
            and not await forget_submitted(interaction)
        ):
            await unknown_control(interaction)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server (discord.py calls this for GUILD_DELETE only when the server is
        not merely unavailable): its games stop, and its data goes after the retention period."""
        await self._server_news("guild_removed", guild)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Added to a server, perhaps again within the retention period: everything goes on."""
        await self._server_news("guild_back", guild)
        await sync_once_invited(self, guild)  # (the development server, invited after the start)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self._server_news("guild_back", guild)
        await sync_once_invited(self, guild)

    async def _missed_departures(self) -> None:
        """Servers that removed the bot while it was not connected are not announced: once
        connected, the ones the database knows and Discord no longer lists (for this
        process's shards) are taken as gone."""
        if self.privacy is None:
            return
        count = getattr(self, "shard_count", None) or 1
        mine = set(getattr(self, "shard_ids", None) or range(count))
        try:
            gone = await self.privacy.missed_departures(
                {str(g.id) for g in self.guilds}, lambda guild: (guild >> 22) % count in mine
            )
            if gone:
                log.info("removed from %d server(s) while away: their games are paused", len(gone))
        except Exception:
            log_failure("could not look for servers that removed the bot meanwhile")

    async def _server_news(self, what: str, guild: discord.Guild) -> None:
        # (a server's news arriving while the bot stops: the gateway may connect, and send the
        # servers it has, after the stop began; the next start hears of them again)
        if self.privacy is None or self._closed or self.stopping:
            return
        try:
            await getattr(self.privacy, what)(str(guild.id))
        except Exception:
            if self._closed or self.stopping:  # (the database closed under it: not a failure)
                log.info("%s for server %s left to the next start: the bot stopped meanwhile", what, guild.id)
                return
            log_failure("%s for server %s failed", what, guild.id)

    async def deliver(
        self,
        channel_id: str,
        outcome: Outcome,
        interaction: discord.Interaction | None = None,
        *,
        ephemeral: bool = True,
    ) -> None:
        await deliver(cast(Bot, self), channel_id, outcome, interaction, ephemeral=ephemeral)
        if self.tournaments is not None and self.tournaments.table_ended():  # its tournament's director runs now
            task = asyncio.create_task(self.run_tournaments())
            self._background.add(task)  # (a task nobody holds may be collected before it ends)
            task.add_done_callback(self._background.discard)
        if self.service is not None and self.service.find.found_news():  # tables found: their threads now
            task = asyncio.create_task(run_found(self))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def run_tournaments(self) -> None:
        """Tournaments' directors and what tournaments owe the halls (see tournament_delivery.py)."""
        if self.tournaments is not None and not self._closed:
            await run_tournaments(self)

    @property
    def stopping(self) -> bool:
        return self.gate.stopping

    def request_stop(self) -> None:
        """SIGTERM or SIGINT: stop gracefully (see `stop_gracefully`); a second signal closes at once."""
        if self._stopping is None:
            self._stopping = asyncio.create_task(self.stop_gracefully())
        else:
            log.warning("asked again to stop: closing now")
            self._closing = asyncio.create_task(self.close())  # held: the loop keeps only weak references

    async def stop_gracefully(self, within: float = STOP_SECONDS) -> None:
        """Take no new interactions (they are told to try again in a minute), let those in
        flight and the turn clock's current tick finish, deliver what is owed, then close the
        gateway, the workers and the database — all within `within` seconds, so that a
        service manager's stop timeout (15 s in deploy/) is never reached."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        self.gate.stopping = True
        log.info("stopping: taking no new interactions, finishing %d in flight", self.gate.in_flight)
        if not await self.gate.drain(timeout=within * 0.5):
            log.warning("stopping: %d interactions still running after %.1f s", self.gate.in_flight, within * 0.5)
        try:
            async with asyncio.timeout(max(0.1, deadline - loop.time() - 1.5)):
                async with self._ticking:  # (the turn clock's tick in progress ends first)
                    self.turn_clock.cancel()
                if self._recovery is not None and not self._recovery.done():
                    # (its later sweeps wait for dead processes' claims: one sweep now does;
                    # a post it was making is found in the channel by the next start, not sent twice)
                    self._recovery.cancel()
                if self.service is not None:  # (stopped before it ever logged in: nothing to deliver)
                    await deliver_owed(cast(Bot, self))
        except TimeoutError:
            log.warning("stopping: out of time; what is still owed is delivered at the next start")
        except Exception:
            log_failure("stopping: could not deliver what is owed; it is delivered at the next start")
        log.info("stopping: closing the connection, the workers and the database")
        await self.close()

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._shut.set()
        self.turn_clock.cancel()
        if self._recovery is not None:
            self._recovery.cancel()
        if self.operations is not None:
            await self.operations.stop()
        if self.web is not None:
            await self.web.stop()
        if self.waker is not None:
            await self.waker.stop()
        await super().close()  # type: ignore[misc]
        if self.service is not None:
            await self.service.close()

    @tasks.loop(seconds=30)
    async def turn_clock(self) -> None:
        """Reminders at half time and the automatic player at expiry; timers live in the
        database, so a restart simply picks them up here. Then what is still owed. Nothing
        that fails here ends the loop: it is logged (with its traceback) and the next tick
        tries again."""
        assert self.service is not None
        async with self._ticking:
            await self._tick()

    async def _tick(self) -> None:
        assert self.service is not None
        try:
            results = await self.service.tick()
        except Exception:
            log_failure("turn clock tick failed")
            results = []
        if self.privacy is not None:  # interrupted erasures, servers past the retention period
            try:
                results += await self.privacy.tick()
            except Exception:
                log_failure("the privacy tick failed")
        try:  # yesterday's daily challenge tables, once a day (delivered with what is owed)
            await self.service.daily.owe_tables()
        except Exception:
            log_failure("making the daily tables failed")
        for channel_id, outcome in results:
            try:
                await deliver(cast(Bot, self), channel_id, outcome)
            except Exception:
                log_failure("could not post the turn clock's news to channel %s", channel_id)
        if self._recovery is not None and self._recovery.done():
            try:
                await deliver_owed(cast(Bot, self))
            except Exception:
                log_failure("could not deliver what is owed; trying again at the next tick")
        await self.run_tournaments()  # (never raises: each tournament's trouble is logged)
        await run_found(self)  # the found tables' threads owed (never raises)
        await asyncio.to_thread(memory.give_back)

    @turn_clock.before_loop
    async def _wait_until_connected(self) -> None:
        await self.wait_until_ready()
        await self._missed_departures()


class MetroBot(Metro, commands.Bot):
    """One process, one gateway connection (the default)."""


class ShardedMetroBot(Metro, commands.AutoShardedBot):
    """One process running some shards of a sharded bot (METROBOT_SHARD_COUNT / _IDS)."""


def slash_commands(bot: Any) -> list[Any]:
    """Every slash command of the bot (built from the game registry)."""
    return [
        game_group(bot, find_command(bot)),
        *look_commands(bot),
        *move_commands(bot),
        *standings_commands(bot),
        *people_commands(bot),
        tournament_group(bot),
        daily_group(bot),
        privacy_command(bot),
    ]


def create_bot(settings: Settings) -> commands.Bot:
    if settings.shard_count is None:
        return MetroBot(settings)
    return ShardedMetroBot(
        settings, shard_count=settings.shard_count, shard_ids=list(settings.shard_ids) if settings.shard_ids else None
    )


def _guarded(event: str, parser: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def parse(data: Any) -> Any:
        try:
            return parser(data)
        except Exception as exc:
            log.warning("ignored a %s event that could not be read (%s: %s)", event, type(exc).__name__, exc)
            return None

    return parse
