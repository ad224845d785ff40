"""The application commands Discord holds for the app, as the bot's sync leaves them.

``CommandRegistry`` (one part of DiscordStandIn: see server.py) keeps the global and the guild
commands; the REST handlers fill it, the driving part finds there what a user can run, and a
test reads it back or waits for the sync."""

from __future__ import annotations

import collections
from typing import Any

from .basics import Timeouts, _ApiError, _invalid_form, _Signal
from .constants import _PENDING
from .observe import Diagnostics
from .payloads import Snowflakes
from .world import World


class CommandRegistry:
    """The global and guild commands, with Discord's ids and versions."""

    def __init__(self, world: World, ids: Snowflakes, timeouts: Timeouts, diagnostics: Diagnostics) -> None:
        self.world = world
        self.ids = ids
        self.timeouts = timeouts
        self.diagnostics = diagnostics
        self.global_commands: list[dict] = []
        self.guild_commands: dict[int, list[dict]] = collections.defaultdict(list)
        self.command_ids: dict[tuple[int | None, str, int], int] = {}
        self.signal = _Signal()  # notified on every change (wait_for_commands)

    # what a test reads back (controller API)
    def commands(self, guild_id: int | None = None) -> list[dict]:
        """Registered commands visible in a guild (its guild commands first, then global ones)."""
        guild_id = guild_id or self.world.guild_id
        return list(self.guild_commands.get(guild_id, [])) + list(self.global_commands)

    def command(self, name: str, guild_id: int | None = None, *, type: int = 1) -> dict | None:
        return next((c for c in self.commands(guild_id) if c["name"] == name and c.get("type", 1) == type), None)

    async def wait_for_commands(
        self, *names: str, guild_id: int | None = None, timeout: float | None = None
    ) -> dict[str, dict]:
        """Wait until the named commands (or, with no names, any command) are registered."""

        def check() -> Any:
            available = {c["name"]: c for c in self.commands(guild_id)}
            if names:
                return available if all(n in available for n in names) else _PENDING
            return available if available else _PENDING

        def describe() -> str:
            have = sorted(c["name"] for c in self.commands(guild_id))
            return f"timed out waiting for commands {list(names) or '(any)'}; registered: {have}\n" + "\n".join(
                self.diagnostics.lines()
            )

        return await self.signal.wait_for(check, self.timeouts.resolve(timeout), describe)

    def find_command(self, name: str, guild_id: int | None) -> dict:
        command = (
            self.command(name, guild_id)
            if guild_id
            else next((c for c in self.global_commands if c["name"] == name and c.get("type", 1) == 1), None)
        )
        if command is None:
            have = sorted(c["name"] for c in (self.commands(guild_id) if guild_id else self.global_commands))
            raise ValueError(f"no slash command {name!r} is registered (registered: {have}); did the bot sync?")
        return command

    # what the REST handlers and the Activity use
    def command_list(self, guild_id: str | None) -> list[dict]:
        if guild_id is None:
            return self.global_commands
        gid = int(guild_id)
        if gid not in self.world.guilds:
            raise _ApiError(404, 10004, "Unknown Guild")
        if gid in self.world.bot_removed:  # (as Discord: the application is not in that server)
            raise _ApiError(403, 50001, "Missing Access")
        return self.guild_commands[gid]

    def normalize(self, spec: dict, guild_id: str | None) -> dict:
        if not isinstance(spec, dict) or not spec.get("name"):
            raise _invalid_form(
                {"name": {"_errors": [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]}}
            )
        ctype = int(spec.get("type", 1))
        key = (int(guild_id) if guild_id else None, spec["name"], ctype)
        if key not in self.command_ids:
            self.command_ids[key] = self.ids.next()
        command = {
            "id": str(self.command_ids[key]),
            "application_id": str(self.world.application_id),
            "version": str(self.ids.next()),
            "type": ctype,
            "name": spec["name"],
            "description": spec.get("description", ""),
            "options": spec.get("options") or [],
            "default_member_permissions": spec.get("default_member_permissions"),
            "dm_permission": spec.get("dm_permission", True),
            "nsfw": spec.get("nsfw", False),
            "contexts": spec.get("contexts"),
            "integration_types": spec.get("integration_types", [0]),
            "name_localizations": spec.get("name_localizations"),
            "description_localizations": spec.get("description_localizations"),
        }
        if ctype == 4:  # PRIMARY_ENTRY_POINT: how it is handled (2: Discord launches the Activity)
            command["handler"] = int(spec.get("handler", 1))
        if guild_id:
            command["guild_id"] = str(guild_id)
        return command

    def find_by_id(self, guild_id: str | None, command_id: str) -> tuple[list[dict], dict]:
        target = self.command_list(guild_id)
        command = next((c for c in target if c["id"] == command_id), None)
        if command is None:
            raise _ApiError(404, 10063, "Unknown application command")
        return target, command
