"""The Discord client: wires the service, the commands, the persistent controls and the
turn-clock loop together (RoboDanny-style: a Bot subclass with cogs added in setup_hook)."""
from __future__ import annotations

import logging

import discord
from discord.ext import commands, tasks

from ..service import GameService
from ..settings import Settings
from ..storage import Database
from .commands import GameCommands, PlayCommands
from .controls import DYNAMIC_ITEMS
from .delivery import deliver

log = logging.getLogger("metrobot.discord")


class MetroBot(commands.Bot):
    def __init__(self, settings: Settings):
        # No privileged intents: slash commands and buttons need neither members nor message content.
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         help_command=None)
        self.settings = settings
        self.db: Database | None = None
        self.service: GameService | None = None

    async def setup_hook(self) -> None:
        self.db = await Database(self.settings.db_path).open()
        self.service = GameService(self.db, default_turn_clock=int(self.settings.turn_clock_hours * 3600))
        await self.add_cog(GameCommands(self))
        await self.add_cog(PlayCommands(self))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.settings.dev_guild:
            guild = discord.Object(self.settings.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        self.turn_clock.change_interval(seconds=self.settings.tick_seconds)
        self.turn_clock.start()
        log.info("metrobot ready: database %s (schema %d)", self.settings.db_path, self.db.schema_version)

    async def close(self) -> None:
        self.turn_clock.cancel()
        await super().close()
        if self.db is not None:
            await self.db.close()
            self.db = None

    @tasks.loop(seconds=30)
    async def turn_clock(self) -> None:
        """Reminders at half time and the automatic player at expiry; timers live in the
        database, so a restart simply picks them up here."""
        assert self.service is not None
        try:
            results = await self.service.tick()
        except Exception:
            log.exception("turn clock tick failed")
            return
        for channel_id, outcome in results:
            try:
                await deliver(self, channel_id, outcome)
            except Exception:
                log.exception("could not post the turn clock's news to channel %s", channel_id)

    @turn_clock.before_loop
    async def _wait_until_connected(self) -> None:
        await self.wait_until_ready()
