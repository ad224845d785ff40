"""Driving users: slash commands, autocomplete, clicks, selects, modals, users' messages and
forged interactions.

``Driving`` (one part of DiscordStandIn: see server.py) is what a test's users do: it builds the
interaction a Discord client would send from the world, the synced commands and the stored
messages, checks it as that client would, and sends it to a connected session."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from .basics import Timeouts
from .commands import CommandRegistry
from .connections import Sessions
from .constants import (
    ALL_PERMISSIONS,
    ATTACHMENT_SIZE_LIMIT,
    C_BUTTON,
    C_CHANNEL_SELECT,
    C_LABEL,
    C_MENTIONABLE_SELECT,
    C_ROLE_SELECT,
    C_ROW,
    C_STRING_SELECT,
    C_TEXT_INPUT,
    C_USER_SELECT,
    IT_AUTOCOMPLETE,
    IT_COMMAND,
    IT_COMPONENT,
    IT_MODAL,
    OPT_ATTACHMENT,
    OPT_BOOL,
    OPT_CHANNEL,
    OPT_GROUP,
    OPT_INT,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_STRING,
    OPT_SUB,
    OPT_USER,
    PERMISSIONS,
    SELECT_TYPES,
    USER_APP_PERMISSIONS,
)
from .model import Attachment, InteractionHandle, InteractionLog, Message
from .observe import Diagnostics
from .payloads import Snowflakes
from .storage import MessageStore
from .world import World


class Driving:
    """Users' actions (controller API)."""

    def __init__(
        self,
        world: World,
        store: MessageStore,
        registry: CommandRegistry,
        sessions: Sessions,
        interactions_log: InteractionLog,
        ids: Snowflakes,
        timeouts: Timeouts,
        diagnostics: Diagnostics,
    ) -> None:
        self.world = world
        self.store = store
        self.registry = registry
        self.sessions = sessions
        self.interactions_log = interactions_log
        self.ids = ids
        self.timeouts = timeouts
        self.diagnostics = diagnostics
        # Several clients serving the same guild (processes sharing one bot's work) each get
        # every event; with this set, each interaction goes to one of them in turn instead.
        self.one_session_per_interaction = False
        self.spread = 0

    def _interaction_payload(
        self,
        itype: int,
        user_id: int,
        channel_id: int,
        data: dict,
        message: Message | None = None,
        *,
        allow_deleted: bool = False,
    ) -> dict:
        user_id, channel_id = int(user_id), int(channel_id)
        if user_id not in self.world.users:
            raise ValueError(f"unknown user {user_id}; call add_member/add_user first")
        channel = self.world.channels.get(channel_id)
        if channel is None and allow_deleted:
            channel = self.world.deleted_channels.get(channel_id)
        if channel is None:
            raise ValueError(f"unknown channel {channel_id}")
        guild_id = int(channel["guild_id"]) if channel.get("guild_id") else None
        app_permissions = (
            self.world.member_permissions(self.world.bot_id, guild_id)
            if guild_id and guild_id not in self.world.bot_removed
            else ALL_PERMISSIONS
        )
        if channel_id in self.world.no_posting:
            app_permissions &= ~(PERMISSIONS["send_messages"] | PERMISSIONS["send_messages_in_threads"])
        interaction_id = self.ids.next()
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.world.application_id),
            "type": itype,
            "data": data,
            "token": f"standin.{interaction_id}.{secrets.token_urlsafe(18)}",
            "version": 1,
            "locale": self.world.user_locales.get(user_id, "en-US"),
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "channel_id": str(channel_id),
            "channel": dict(
                channel,
                permissions=str(self.world.member_permissions(user_id, guild_id)) if guild_id else str(ALL_PERMISSIONS),
            ),
            "app_permissions": str(app_permissions),
        }
        if guild_id is not None:
            if user_id not in self.world.guilds[guild_id]["members"]:
                raise ValueError(f"user {user_id} is not a member of guild {guild_id}; call add_member first")
            # In a guild the bot is not in, only the user's own install reaches the app ("1"),
            # with the few permissions Discord gives a user-installed app there.
            absent = guild_id in self.world.bot_removed
            if absent and user_id not in self.world.user_installs:
                raise ValueError(f"user {user_id} has not installed the app: no command reaches it in guild {guild_id}")
            owners = {"1": str(user_id)} if absent else {"0": str(guild_id)}
            if absent:
                payload["app_permissions"] = str(USER_APP_PERMISSIONS)
            payload.update(
                guild_id=str(guild_id),
                guild={
                    "id": str(guild_id),
                    "locale": self.world.guilds[guild_id].get("preferred_locale", "en-US"),
                    "features": [],
                },
                guild_locale=self.world.guilds[guild_id].get("preferred_locale", "en-US"),
                member=self.world.member_payload(guild_id, user_id, with_permissions=True),
                context=0,
                authorizing_integration_owners=owners,
            )
        else:
            # A DM with the bot (1) or any other private channel (2: a group DM, reached only
            # through the user's own install); "1" names a user install, "0": "0" a server install
            # used in the bot's DMs (as Discord sends them).
            context = 1 if channel.get("type") == 1 else 2
            owners = {"1": str(user_id)} if user_id in self.world.user_installs else {}
            if context == 1:
                owners.setdefault("0", "0")
            if not owners:
                raise ValueError(f"user {user_id} has not installed the app: no command reaches it in a group DM")
            payload.update(user=self.world.users[user_id], context=context, authorizing_integration_owners=owners)
        if message is not None:
            payload["message"] = message.to_payload()
        return payload

    async def _send_interaction(self, payload: dict, source_message: Message | None = None) -> InteractionHandle:
        guild_id = int(payload["guild_id"]) if payload.get("guild_id") else None
        await self.sessions.wait_for_session(guild_id)
        handle = InteractionHandle(
            payload,
            source_message=source_message,
            timeouts=self.timeouts,
            diagnostics=self.diagnostics,
            submit_modal=self.submit_modal,
        )
        if source_message is not None:
            source_message.watchers.append(handle)
        self.interactions_log.by_id[handle.id] = handle
        if self.one_session_per_interaction:
            live = [session for session in self.sessions.active_sessions(guild_id) if session.live]
            live[self.spread % len(live)].dispatch("INTERACTION_CREATE", payload)
            self.spread += 1
        else:
            self.world.dispatch("INTERACTION_CREATE", payload, guild_id, None)
        return handle

    @staticmethod
    def _split_name(name: str, subcommand: str | None, group: str | None) -> tuple[str, str | None, str | None]:
        parts = name.split()
        if len(parts) == 2 and subcommand is None:
            return parts[0], parts[1], group
        if len(parts) == 3 and subcommand is None and group is None:
            return parts[0], parts[2], parts[1]
        if len(parts) != 1:
            raise ValueError(f"cannot parse command name {name!r}")
        return name, subcommand, group

    def _command_data(
        self,
        name: str,
        options: dict[str, Any] | None,
        subcommand: str | None,
        group: str | None,
        guild_id: int | None,
        focused: str | None = None,
    ) -> dict:
        name, subcommand, group = self._split_name(name, subcommand, group)
        command = self.registry.find_command(name, guild_id)
        defs = command.get("options") or []
        if group is not None:
            grp = next((o for o in defs if o["type"] == OPT_GROUP and o["name"] == group), None)
            if grp is None:
                raise ValueError(f"/{name} has no subcommand group {group!r}")
            defs = grp.get("options") or []
        if subcommand is not None:
            sub = next((o for o in defs if o["type"] == OPT_SUB and o["name"] == subcommand), None)
            if sub is None:
                raise ValueError(
                    f"/{name} has no subcommand {subcommand!r}; it has {[o['name'] for o in defs if o['type'] in (1, 2)]}"
                )
            defs = sub.get("options") or []
        elif any(o["type"] in (OPT_SUB, OPT_GROUP) for o in defs):
            raise ValueError(f"/{name} needs a subcommand: {[o['name'] for o in defs if o['type'] in (1, 2)]}")

        built, resolved = self._build_options(name, defs, dict(options or {}), guild_id, focused)
        if subcommand is not None:
            built = [{"name": subcommand, "type": OPT_SUB, "options": built}]
            if group is not None:
                built = [{"name": group, "type": OPT_GROUP, "options": built}]
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1}
        if built:
            data["options"] = built
        if resolved:
            data["resolved"] = resolved
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        return data

    def _build_options(
        self, cmd: str, defs: list[dict], options: dict[str, Any], guild_id: int | None, focused: str | None
    ) -> tuple[list[dict], dict]:
        by_name = {d["name"]: d for d in defs}
        unknown = set(options) - set(by_name)
        if focused is not None and focused not in by_name:
            unknown.add(focused)
        if unknown:
            raise ValueError(f"/{cmd} has no option(s) {sorted(unknown)}; it has {list(by_name)}")
        if focused is not None and focused not in options:
            options[focused] = ""
        built: list[dict] = []
        resolved: dict[str, dict[str, Any]] = {}
        for definition in defs:
            oname, otype = definition["name"], definition["type"]
            if oname not in options:
                if definition.get("required") and focused is None:
                    raise ValueError(f"/{cmd}: option {oname!r} is required")
                continue
            value = options[oname]
            entry: dict[str, Any] = {"name": oname, "type": otype}
            if oname == focused:
                if not definition.get("autocomplete"):
                    raise ValueError(f"/{cmd}: option {oname!r} has no autocomplete")
                entry["value"] = str(value)
                entry["focused"] = True
                built.append(entry)
                continue
            entry["value"] = self._option_value(cmd, definition, value, guild_id, resolved)
            built.append(entry)
        return built, resolved

    def _option_value(self, cmd: str, d: dict, value: Any, guild_id: int | None, resolved: dict) -> Any:
        oname, otype = d["name"], d["type"]
        where = f"/{cmd} option {oname!r}"
        if otype == OPT_STRING:
            if not isinstance(value, str):
                raise ValueError(f"{where} expects a string, got {value!r}")
            if ("min_length" in d and len(value) < d["min_length"]) or (
                "max_length" in d and len(value) > d["max_length"]
            ):
                raise ValueError(f"{where}: length of {value!r} outside [{d.get('min_length')}, {d.get('max_length')}]")
        elif otype == OPT_INT:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{where} expects an integer, got {value!r}")
        elif otype == OPT_NUMBER:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{where} expects a number, got {value!r}")
        elif otype == OPT_BOOL:
            if not isinstance(value, bool):
                raise ValueError(f"{where} expects a bool, got {value!r}")
        elif otype in (OPT_USER, OPT_CHANNEL, OPT_ROLE, OPT_MENTIONABLE):
            snowflake = int(getattr(value, "id", value))
            self._resolve_entity(where, otype, snowflake, guild_id, resolved)
            return str(snowflake)
        elif otype == OPT_ATTACHMENT:
            if isinstance(value, Attachment):
                att = value
            else:
                filename, data = value
                att = self.store.new_attachment(0, filename, bytes(data), by_user=True)
            resolved.setdefault("attachments", {})[str(att.id)] = att.to_payload()
            return str(att.id)
        else:
            raise ValueError(f"{where}: unsupported option type {otype}")
        if otype in (OPT_INT, OPT_NUMBER) and (
            ("min_value" in d and value < d["min_value"]) or ("max_value" in d and value > d["max_value"])
        ):
            raise ValueError(f"{where}: {value!r} outside [{d.get('min_value')}, {d.get('max_value')}]")
        if d.get("choices") and value not in [c["value"] for c in d["choices"]]:
            raise ValueError(f"{where}: {value!r} is not one of the choices {[c['value'] for c in d['choices']]}")
        return value

    def _resolve_entity(self, where: str, otype: int, snowflake: int, guild_id: int | None, resolved: dict) -> None:
        roles = self.world.guilds[guild_id]["roles"] if guild_id else {}
        if otype in (OPT_USER, OPT_MENTIONABLE) and snowflake in self.world.users:
            resolved.setdefault("users", {})[str(snowflake)] = self.world.users[snowflake]
            if guild_id and snowflake in self.world.guilds[guild_id]["members"]:
                member = self.world.member_payload(guild_id, snowflake, with_user=False, with_permissions=True)
                resolved.setdefault("members", {})[str(snowflake)] = member
        elif otype in (OPT_ROLE, OPT_MENTIONABLE) and snowflake in roles:
            resolved.setdefault("roles", {})[str(snowflake)] = roles[snowflake]
        elif otype == OPT_CHANNEL and snowflake in self.world.channels:
            ch = self.world.channels[snowflake]
            entry = {k: ch[k] for k in ("id", "name", "type", "parent_id", "thread_metadata", "guild_id") if k in ch}
            entry["permissions"] = str(ALL_PERMISSIONS)
            resolved.setdefault("channels", {})[str(snowflake)] = entry
        else:
            raise ValueError(f"{where}: {snowflake} is not a known {'user' if otype == OPT_USER else 'entity'}")

    async def slash(
        self,
        user_id: int,
        channel_id: int,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        subcommand: str | None = None,
        group: str | None = None,
    ) -> InteractionHandle:
        """A user runs a slash command; returns the interaction's handle."""
        guild_id = self.world.channel_guild(int(channel_id))
        data = self._command_data(name, options, subcommand, group, guild_id)
        payload = self._interaction_payload(IT_COMMAND, user_id, channel_id, data)
        self._check_offered(self.registry.find_command(data["name"], guild_id), payload)
        return await self._send_interaction(payload)

    @staticmethod
    def _check_offered(command: dict, payload: dict) -> None:
        """A Discord client offers a command only where its ``contexts`` and
        ``integration_types`` allow (a guild command only in its guild, both default to all)."""
        contexts = command.get("contexts")
        if contexts is None and command.get("dm_permission") is False:  # (the older spelling of "servers only")
            contexts = [0]
        if contexts is not None and payload["context"] not in contexts:
            raise ValueError(f"/{command['name']} is not offered in context {payload['context']} (only {contexts})")
        installs = {int(k) for k in payload["authorizing_integration_owners"]}
        if not installs & set(command.get("integration_types") or [0]):
            raise ValueError(f"/{command['name']} is not installed for this use (installs {sorted(installs)})")

    async def autocomplete(
        self,
        user_id: int,
        channel_id: int,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        focused: str,
        subcommand: str | None = None,
        group: str | None = None,
        timeout: float | None = None,
    ) -> list[dict]:
        """A user types in an autocomplete option; returns the bot's choices (``[{"name", "value"}]``)."""
        guild_id = self.world.channel_guild(int(channel_id))
        data = self._command_data(name, options, subcommand, group, guild_id, focused=focused)
        handle = await self._send_interaction(self._interaction_payload(IT_AUTOCOMPLETE, user_id, channel_id, data))
        return await handle.wait_choices(timeout)

    def _interactive_message(self, user_id: int, message: Message | int) -> Message:
        msg = self.store.by_id.get(int(getattr(message, "id", message)))
        if msg is None:
            raise ValueError(f"unknown message {message!r}")
        if msg.deleted:
            raise ValueError(f"message {msg.id} was deleted")
        if msg.ephemeral and msg.interaction is not None and msg.interaction.user_id != int(user_id):
            raise ValueError(f"message {msg.id} is ephemeral: only user {msg.interaction.user_id} can see it")
        return msg

    async def click(
        self, user_id: int, message: Message | int, custom_id: str | None = None, *, label: str | None = None
    ) -> InteractionHandle:
        """A user clicks a button (by ``custom_id`` or ``label``) on a stored message."""
        msg = self._interactive_message(user_id, message)
        if custom_id is None:
            if label is None:
                raise ValueError("click needs custom_id or label")
            found = msg.button(label)
            if found is None:
                raise ValueError(
                    f"no button labelled {label!r} on {msg!r}; buttons: {[b.get('label') for b in msg.buttons()]}"
                )
            custom_id = found.get("custom_id")
        component = msg.component(custom_id) if custom_id else None
        if component is None or component.get("type") != C_BUTTON:
            raise ValueError(f"no button {custom_id!r} on {msg!r}; custom ids: {msg.custom_ids()}")
        if component.get("disabled"):
            raise ValueError(f"button {custom_id!r} on message {msg.id} is disabled")
        if component.get("style") in (5, 6):
            raise ValueError(f"button {custom_id!r} is a link/premium button and sends no interaction")
        data = {"custom_id": custom_id, "component_type": C_BUTTON, "id": component.get("id")}
        payload = self._interaction_payload(IT_COMPONENT, user_id, msg.channel_id, data, message=msg)
        return await self._send_interaction(payload, source_message=msg)

    async def select(
        self, user_id: int, message: Message | int, custom_id: str, values: Sequence[Any]
    ) -> InteractionHandle:
        """A user picks ``values`` in a select menu on a stored message."""
        msg = self._interactive_message(user_id, message)
        component = msg.component(custom_id)
        if component is None or component.get("type") not in SELECT_TYPES:
            raise ValueError(f"no select menu {custom_id!r} on {msg!r}; custom ids: {msg.custom_ids()}")
        if component.get("disabled"):
            raise ValueError(f"select {custom_id!r} on message {msg.id} is disabled")
        ctype = component["type"]
        str_values = [str(getattr(v, "id", v)) for v in values]
        lo, hi = component.get("min_values", 1), component.get("max_values", 1)
        if not lo <= len(str_values) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(str_values)}")
        data: dict[str, Any] = {
            "custom_id": custom_id,
            "component_type": ctype,
            "values": str_values,
            "id": component.get("id"),
        }
        guild_id = self.world.channel_guild(msg.channel_id)
        if ctype == C_STRING_SELECT:
            allowed = [o["value"] for o in component.get("options", [])]
            bad = [v for v in str_values if v not in allowed]
            if bad:
                raise ValueError(f"select {custom_id!r}: {bad} not among options {allowed}")
        else:
            otype = {
                C_USER_SELECT: OPT_USER,
                C_ROLE_SELECT: OPT_ROLE,
                C_MENTIONABLE_SELECT: OPT_MENTIONABLE,
                C_CHANNEL_SELECT: OPT_CHANNEL,
            }[ctype]
            resolved: dict = {}
            for v in str_values:
                self._resolve_entity(f"select {custom_id!r}", otype, int(v), guild_id, resolved)
            data["resolved"] = resolved
        payload = self._interaction_payload(IT_COMPONENT, user_id, msg.channel_id, data, message=msg)
        return await self._send_interaction(payload, source_message=msg)

    async def submit_modal(
        self, user_id: int, channel_id: int, custom_id: str, fields: dict[str, Any]
    ) -> InteractionHandle:
        """A user submits the modal ``custom_id`` that the bot showed them; ``fields``: input custom id -> value."""
        origin = self.interactions_log.modals.get((int(user_id), custom_id))
        if origin is None:
            shown = [cid for (uid, cid) in self.interactions_log.modals if uid == int(user_id)]
            raise ValueError(f"no modal {custom_id!r} was shown to user {user_id} (shown: {shown})")
        modal = origin.modal or {}
        fields = dict(fields)
        components: list[dict] = []

        def submitted(component: dict) -> dict | None:
            ctype, cid = component.get("type"), component.get("custom_id")
            if ctype == C_TEXT_INPUT:
                value = fields.pop(cid, component.get("value") or "")
                if not isinstance(value, str):
                    raise ValueError(f"modal {custom_id!r}: text input {cid!r} takes a string")
                if component.get("required", True) and not value:
                    raise ValueError(f"modal {custom_id!r}: text input {cid!r} is required")
                lo, hi = component.get("min_length", 0), component.get("max_length", 4000)
                if value and not lo <= len(value) <= hi:
                    raise ValueError(f"modal {custom_id!r}: {cid!r} length {len(value)} outside [{lo}, {hi}]")
                return {"type": C_TEXT_INPUT, "id": component.get("id"), "custom_id": cid, "value": value}
            if ctype in SELECT_TYPES:
                values = [str(getattr(v, "id", v)) for v in fields.pop(cid, [])]
                return {"type": ctype, "id": component.get("id"), "custom_id": cid, "values": values}
            return None

        for top in modal.get("components", []):
            if top.get("type") == C_ROW:
                inner = [s for s in (submitted(c) for c in top.get("components", [])) if s]
                components.append({"type": C_ROW, "id": top.get("id"), "components": inner})
            elif top.get("type") == C_LABEL and isinstance(top.get("component"), dict):
                inner_one = submitted(top["component"])
                if inner_one:
                    components.append({"type": C_LABEL, "id": top.get("id"), "component": inner_one})
        if fields:
            raise ValueError(f"modal {custom_id!r} has no input(s) {sorted(fields)}")
        data = {"custom_id": custom_id, "components": components}
        message = origin.source_message
        payload = self._interaction_payload(IT_MODAL, user_id, channel_id, data, message=message)
        return await self._send_interaction(payload, source_message=message)

    # -------------------------------------------------------------------------------------------------
    # message storage
    async def forge(
        self,
        itype: int,
        user_id: int,
        channel_id: int,
        data: dict,
        *,
        message: Message | int | None = None,
        components: list[dict] | None = None,
    ) -> InteractionHandle:
        """Send an interaction that no Discord client could send: ``data`` goes out as given, with
        no check against the synced commands, option types, ranges, choices or the message's
        components (e.g. ``{"name": "game", "type": 1, "options": [...]}`` with a NaN, or
        ``{"custom_id": "mb:x:1:2:", "component_type": 2}``). ``itype``: 2 command, 3 component,
        4 autocomplete, 5 modal. The user and channel must be known; the channel may have been
        deleted (``delete_channel``). A component interaction claims to come from ``message`` (a
        stored message, also someone else's ephemeral one); ``components`` (component dicts, see
        ``forged_row``) replace that message's components in the payload only, the stored message
        is unchanged (discord.py dispatches a custom id only if the message carries it).
        Returns the handle, like ``slash``."""
        msg = None
        if message is not None:
            msg = self.store.by_id.get(int(getattr(message, "id", message)))
            if msg is None:
                raise ValueError(f"unknown message {message!r}")
        payload = self._interaction_payload(int(itype), user_id, channel_id, data, msg, allow_deleted=True)
        if msg is not None and components is not None:
            payload["message"] = dict(payload["message"], components=self.store.normalize_components(components))
        return await self._send_interaction(payload, source_message=msg)

    @staticmethod
    def forged_row(custom_id: str, *, component_type: int = C_BUTTON, options: Sequence[str] = ()) -> list[dict]:
        """One action row holding a button (or a string select with ``options`` as values) with this custom id."""
        if component_type == C_BUTTON:
            item: dict[str, Any] = {"type": C_BUTTON, "style": 1, "label": "forged", "custom_id": custom_id}
        else:
            item = {
                "type": component_type,
                "custom_id": custom_id,
                "min_values": 1,
                "max_values": 1,
                "options": [{"label": str(v)[:100] or "-", "value": str(v)[:100]} for v in (options or ["x"])],
            }
        return [{"type": C_ROW, "components": [item]}]

    def interactions(self) -> list[InteractionHandle]:
        """Every interaction sent so far, oldest first."""
        return list(self.interactions_log.by_id.values())

    async def post_user_message(self, user_id: int, channel_id: int, content: str) -> Message:
        """A user writes ``content`` in a channel; the bot receives MESSAGE_CREATE."""
        user_id, channel_id = int(user_id), int(channel_id)
        guild_id = self.world.channel_guild(channel_id)
        if guild_id is not None and user_id not in self.world.guilds[guild_id]["members"]:
            raise ValueError(f"user {user_id} is not a member of guild {guild_id}")
        await self.sessions.wait_for_session(guild_id)
        msg = Message(self.world, id=self.ids.next(), channel_id=channel_id, author=self.world.users[user_id])
        msg.content = content
        self.store.store_message(msg)
        return msg
