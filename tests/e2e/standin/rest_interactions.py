"""REST handlers: interaction callbacks and their webhooks (follow-ups).

``InteractionRoutes`` (one part of DiscordStandIn: see server.py) answers the bot's callbacks
and follow-ups on the interactions the driving part sent: it finds their handles in the
interaction log, and makes and edits messages through the message store."""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from .activities import CB_LAUNCH_ACTIVITY, Activities
from .basics import _ApiError, _invalid_form, _put_error
from .constants import (
    _KEY_CHANNEL,
    _KEY_HANDLE,
    _KEY_TOKEN,
    CB_AUTOCOMPLETE,
    CB_DEFERRED,
    CB_DEFERRED_UPDATE,
    CB_MESSAGE,
    CB_MODAL,
    CB_UPDATE,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    IT_AUTOCOMPLETE,
    IT_COMMAND,
    IT_COMPONENT,
    IT_MODAL,
)
from .http import RouteHandler, json_response, no_content
from .model import CallbackRecord, InteractionHandle, InteractionLog, Message
from .payloads import Snowflakes
from .storage import MessageStore
from .world import World


class InteractionRoutes:
    """``/interactions/...`` and ``/webhooks/...``."""

    def __init__(
        self,
        world: World,
        store: MessageStore,
        interactions_log: InteractionLog,
        ids: Snowflakes,
        activities: Activities,
    ) -> None:
        self.world = world
        self.store = store
        self.interactions_log = interactions_log
        self.ids = ids
        self.activities = activities  # (a type-12 callback launches the Activity)

    def routes(self) -> list[tuple[str, str, RouteHandler]]:
        return [
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._r_callback),
            ("POST", "/webhooks/{app_id}/{token}", self._r_followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._r_webhook_get),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._r_webhook_edit),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self._r_webhook_delete),
        ]

    def _handle_for(self, request: web.Request, token: str, interaction_id: str | None = None) -> InteractionHandle:
        handle: InteractionHandle | None = None
        if interaction_id is not None and interaction_id.isdigit():
            handle = self.interactions_log.by_id.get(int(interaction_id))
        else:
            parts = token.split(".")
            if len(parts) == 3 and parts[1].isdigit():
                handle = self.interactions_log.by_id.get(int(parts[1]))
        if handle is None or handle.token != token:
            raise _ApiError(
                404,
                10062 if interaction_id is not None else 10015,
                "Unknown interaction" if interaction_id else "Unknown Webhook",
            )
        request[_KEY_HANDLE] = handle
        request[_KEY_CHANNEL] = handle.channel_id
        request[_KEY_TOKEN] = token
        return handle

    async def _r_callback(self, request, body, uploads, interaction_id, token):
        handle = self._handle_for(request, token, interaction_id)
        if handle.response is not None:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        if not isinstance(body, dict) or "type" not in body:
            raise _invalid_form(
                {"type": {"_errors": [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]}}
            )
        ctype, data = int(body["type"]), body.get("data") or {}
        itype = handle.type
        allowed = {
            IT_COMMAND: (CB_MESSAGE, CB_DEFERRED, CB_MODAL, CB_LAUNCH_ACTIVITY),
            IT_COMPONENT: (CB_MESSAGE, CB_DEFERRED, CB_DEFERRED_UPDATE, CB_UPDATE, CB_MODAL, CB_LAUNCH_ACTIVITY),
            IT_AUTOCOMPLETE: (CB_AUTOCOMPLETE,),
            IT_MODAL: (CB_MESSAGE, CB_DEFERRED, CB_DEFERRED_UPDATE, CB_UPDATE, CB_LAUNCH_ACTIVITY),
        }[itype]
        if ctype not in allowed:
            raise _ApiError(
                400,
                50035,
                f"Interaction callback type {ctype} is not valid for interaction type {itype}",
                {
                    "type": {
                        "_errors": [
                            {
                                "code": "INTERACTION_CALLBACK_TYPE_INVALID",
                                "message": f"type {ctype} not allowed for interaction type {itype}",
                            }
                        ]
                    }
                },
            )
        message: Message | None = None
        activity: dict | None = None
        if ctype == CB_LAUNCH_ACTIVITY:
            activity = self.activities.launch(handle)
        elif ctype == CB_MESSAGE:
            ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            message = self.store.create_message(
                handle.channel_id, data, uploads, interaction=handle, flags=FLAG_EPHEMERAL if ephemeral else 0
            )
            handle.original = message
        elif ctype == CB_DEFERRED:
            ephemeral = bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            message = Message(
                self.world, id=self.ids.next(), channel_id=handle.channel_id, author=self.world.users[self.world.bot_id]
            )
            message.flags = FLAG_LOADING | (FLAG_EPHEMERAL if ephemeral else 0)
            message.interaction = handle
            message.webhook_id = self.world.application_id
            message.type = 20 if itype == IT_COMMAND else 0
            message.interaction_metadata = {
                "id": str(handle.id),
                "type": itype,
                "user": self.world.users[handle.user_id],
                "authorizing_integration_owners": handle.payload.get("authorizing_integration_owners", {}),
            }
            handle.original = message
            self.store.store_message(message)
        elif ctype in (CB_DEFERRED_UPDATE, CB_UPDATE):
            source = handle.source_message
            if source is None and ctype == CB_UPDATE:
                raise _ApiError(400, 50035, "This interaction has no message to update")
            if ctype == CB_UPDATE:
                new = self.store.message_changes(data, uploads, source, source.channel_id)
                # record the response first so that waiters see the edit as part of it
                handle.original = source
                handle.response = CallbackRecord(ctype, data, time.monotonic())
                self.store.apply_changes(source, new)
                source.edits += 1
                source.edited_timestamp = time.time()
                self.store.dispatch_message_event("MESSAGE_UPDATE", source)
                self.store.notify_message(source)
            handle.original = source
            message = source
        elif ctype == CB_AUTOCOMPLETE:
            choices = data.get("choices") or []
            errors: dict = {}
            if len(choices) > 25:
                _put_error(errors, ["data", "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            for i, choice in enumerate(choices):
                if not 1 <= len(str(choice.get("name", ""))) <= 100:
                    _put_error(
                        errors,
                        ["data", "choices", i, "name"],
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 100 in length.",
                    )
                if isinstance(choice.get("value"), str) and len(choice["value"]) > 100:
                    _put_error(
                        errors,
                        ["data", "choices", i, "value"],
                        "BASE_TYPE_MAX_LENGTH",
                        "Must be 100 or fewer in length.",
                    )
            if errors:
                raise _invalid_form(errors)
            handle.choices = choices
        elif ctype == CB_MODAL:
            if not data.get("custom_id") or not data.get("title") or len(data["title"]) > 45:
                raise _invalid_form(
                    {
                        "data": {
                            "title": {
                                "_errors": [
                                    {
                                        "code": "BASE_TYPE_BAD_LENGTH",
                                        "message": "Modal needs custom_id and a title of 1-45 characters",
                                    }
                                ]
                            }
                        }
                    }
                )
            handle.modal = dict(data, components=self.store.normalize_components(data.get("components") or []))
            self.interactions_log.modals[(handle.user_id, data["custom_id"])] = handle
        if handle.response is None:
            handle.response = CallbackRecord(ctype, data, time.monotonic())
        handle.record("callback", handle.response)

        answer: dict[str, Any] = {
            "interaction": {
                "id": str(handle.id),
                "type": itype,
                "response_message_id": str(message.id) if message is not None else None,
                "response_message_loading": ctype == CB_DEFERRED,
                "response_message_ephemeral": bool(message is not None and message.ephemeral),
            }
        }
        if activity is not None:
            answer["interaction"]["activity_instance_id"] = activity["id"]
        resource: dict[str, Any] = {"type": ctype}
        if message is not None and ctype in (CB_MESSAGE, CB_DEFERRED, CB_UPDATE):
            resource["message"] = message.to_payload()
        if activity is not None:
            resource["activity_instance"] = activity
        answer["resource"] = resource
        return json_response(answer)

    def _webhook_handle(self, request: web.Request, app_id: str, token: str) -> InteractionHandle:
        if app_id != str(self.world.application_id):
            raise _ApiError(404, 10015, "Unknown Webhook")
        handle = self._handle_for(request, token)
        if handle.response is None:
            raise _ApiError(404, 10015, "Unknown Webhook (the interaction was not acknowledged yet)")
        return handle

    def _webhook_message(self, handle: InteractionHandle, message_id: str) -> Message:
        if message_id == "@original":
            if handle.original is None or handle.original.deleted:
                raise _ApiError(404, 10008, "Unknown Message")
            return handle.original
        msg = self.store.by_id.get(int(message_id)) if message_id.isdigit() else None
        if msg is None or msg.deleted or (msg is not handle.original and msg not in handle.followups):
            raise _ApiError(404, 10008, "Unknown Message")
        return msg

    async def _r_followup(self, request, body, uploads, app_id, token):
        handle = self._webhook_handle(request, app_id, token)
        body = body or {}
        original = handle.original
        if handle.response.type == CB_DEFERRED and original is not None and original.loading and not original.deleted:
            # the first follow-up after a "thinking" defer replaces the loading message (same id, same ephemerality)
            msg = self.store.edit_message(
                original, {k: v for k, v in body.items() if k != "flags"}, uploads, record=False
            )
        else:
            flags = int(body.get("flags") or 0)
            msg = self.store.create_message(
                handle.channel_id, body, uploads, interaction=handle, flags=flags & FLAG_EPHEMERAL
            )
        handle.followups.append(msg)
        handle.record("followup", msg)
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(msg.to_payload())
        return no_content()

    async def _r_webhook_get(self, request, body, uploads, app_id, token, message_id):
        handle = self._webhook_handle(request, app_id, token)
        return json_response(self._webhook_message(handle, message_id).to_payload())

    async def _r_webhook_edit(self, request, body, uploads, app_id, token, message_id):
        handle = self._webhook_handle(request, app_id, token)
        msg = self._webhook_message(handle, message_id)
        self.store.edit_message(msg, body or {}, uploads)
        if msg.interaction is not handle:
            handle.record("edit", msg)
        return json_response(msg.to_payload())

    async def _r_webhook_delete(self, request, body, uploads, app_id, token, message_id):
        handle = self._webhook_handle(request, app_id, token)
        msg = self._webhook_message(handle, message_id)
        self.store.delete_message(msg)
        if msg.interaction is not handle:
            handle.record("delete", msg)
        return no_content()
