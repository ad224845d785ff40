"""A local stand-in for the Discord API, for end-to-end tests with the real discord.py client.

``DiscordStandIn`` is an aiohttp server on 127.0.0.1 (free port) that serves the REST API under
``/api/v10`` and the gateway websocket at ``/``. An unmodified discord.py client (in this process
or in another one) logs in, syncs its application commands and receives interactions from it; the
test drives users' actions and inspects what the bot did through the controller API below.

Pointing a client at it
-----------------------
* In-process: ``restore = point_discord_at(s.api_base, s.gateway_url)`` (``restore()`` undoes it).
* Subprocess: ``s.env()`` gives ``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL`` and ``DISCORD_TOKEN``;
  the bot applies the first two the same way ``point_discord_at`` does.
* The client must log in with ``s.token`` (REST answers 401 and the gateway closes with 4004 for any
  other token).

Construction
------------
``DiscordStandIn(*, token="standin-bot-token", bot_name="metrobot", guild_name="Test Guild",
default_timeout=10.0, session_timeout=15.0, accept_resume=True, bot_permissions=BOT_PERMISSIONS)``;
``await s.start()`` / ``await s.stop()`` (or ``async with``); ``await s.start(port)`` listens on a
given port (a bot started before it, trying that port, connects once it listens); ``s.api_base``
(``http://127.0.0.1:PORT/api/v10``), ``s.gateway_url`` (``ws://127.0.0.1:PORT/``), ``s.base_url``.
Every wait takes ``timeout`` (default ``default_timeout``) and raises :class:`StandInTimeout` (a
``TimeoutError``) whose message lists what the bot did and what was refused.

World model (ids are real snowflakes)
-------------------------------------
* ``s.bot_id`` / ``s.application_id`` (same value, as on Discord), ``s.owner_id``.
* ``s.guild_id``: the default guild (``add_guild()`` makes more); roles incl. ``@everyone``
  (id = guild id) and a role for the bot. ``add_guild(name, with_bot=False)``: a guild the bot
  is not in — it gets none of its events, its channels answer the bot 403 Missing Access, and a
  member's command there reaches the app only through their own install (``install_for_user``):
  ``context`` 0, ``authorizing_integration_owners`` ``{"1": user}``, a user app's few
  ``app_permissions``.
* ``s.add_member(user_id=None, name=None, manage_channels=False, *, administrator=False,
  roles=(), guild_id=None, bot=False) -> int``: user id (generated when ``None``);
  ``s.member_permissions(user_id, guild_id=None) -> int`` (what interactions carry).
* ``s.add_user(user_id=None, name=None, *, bot=False) -> int``: a user that is in no guild.
* ``s.create_role(name, permissions=0, guild_id=None) -> int``.
* ``s.create_channel(name, guild_id=None, *, type=0, parent_id=None) -> int`` (text channel; ``type=2``
  voice and ``13`` stage: their chat holds messages, no threads; ``15`` forum: a thread made in it is
  a post and needs its first ``message``, which the answer carries).
* ``s.create_thread(parent_id, name, *, private=False, owner_id=None) -> int`` (type 11/12).
* ``s.close_dms(user_id)`` / ``s.open_dms(user_id)``: sending to that user's DM channel answers
  403 ``{"code": 50007}`` (``discord.Forbidden``, ``.code == 50007``); ``s.failed_dms(user_id)``
  lists the refused message bodies.
* ``s.dm_channel(user_id) -> int``: the bot's DM channel with a user (created if needed).
* ``s.forbid_posting(channel_id, forbidden=True)``: the bot lacks Send Messages there (its posts
  answer 403 ``{"code": 50013}``; interaction responses still work).
* ``s.delete_channel(channel_id)``: a moderator deletes it (CHANNEL_DELETE/THREAD_DELETE dispatched).
* ``s.remove_bot(guild_id=None)``: the bot is removed from the guild (GUILD_DELETE without ``unavailable``;
  READY stops listing it); ``s.add_bot(guild_id=None)``: added back (GUILD_CREATE without ``unavailable``),
  or invited for the first time to a guild made ``with_bot=False``.
* ``s.remove_member(user_id, guild_id=None)``: a member leaves (``GET /guilds/{g}/members/{u}``: 404);
  ``s.hide_channel(channel_id, user_id)``: a member overwrite denies them View Channel (CHANNEL_UPDATE).
* ``s.application_refusal = (status, code, message)``: ``GET /oauth2/applications/@me`` refused so.
* ``s.user(user_id)``, ``s.channel(channel_id)``: the stored Discord-shaped payloads (dicts).
* Objects created while a client is connected are dispatched to it (CHANNEL_CREATE, THREAD_CREATE,
  GUILD_MEMBER_ADD, GUILD_CREATE) so its cache stays coherent.

Command registry
----------------
* Filled by the bot's sync (``PUT``/``POST``/``PATCH``/``DELETE`` on global and guild commands).
  A guild's commands answer 403 ``{"code": 50001}`` (Missing Access) while the bot is not in it,
  as Discord does (the quick start's ``DISCORD_DEV_GUILD`` before the invite).
* ``s.commands(guild_id=None) -> list[dict]`` (guild commands first, then global);
  ``s.command(name, guild_id=None) -> dict | None``;
  ``await s.wait_for_commands(*names, guild_id=None, timeout=None) -> dict[str, dict]``.

Driving users (each returns an :class:`InteractionHandle` once the event is on its way)
-------------------------------------------------------------------------------------
* ``await s.slash(user_id, channel_id, "name", options=None, *, subcommand=None, group=None)``:
  type 2. ``"name"`` may also be ``"game start"`` or ``"game admin kick"`` (command, group,
  subcommand). Option values are typed from the synced definition: str/int/float/bool as such;
  user/channel/role/mentionable as an id or an object with ``.id`` (``resolved`` is filled);
  attachment as ``(filename, bytes)``. Unknown/missing-required options, invalid choices and
  out-of-range values raise ``ValueError`` (a Discord client could not send them either).
* ``await s.click(user_id, message, custom_id=None, *, label=None)``: type 3 button press on a
  stored message (a :class:`Message` or id); the interaction carries the message's full payload.
  Disabled/link buttons, deleted messages and other users' ephemeral messages raise ``ValueError``.
* ``await s.select(user_id, message, custom_id, values)``: type 3 select (string, user, role,
  mentionable or channel select; values checked against options and min/max values).
* ``await s.autocomplete(user_id, channel_id, "name", options=None, *, focused, subcommand=None,
  group=None, timeout=None) -> list[dict]``: type 4, returns the choices the bot answered.
* ``await s.submit_modal(user_id, channel_id, custom_id, fields)`` or ``await h.submit_modal(fields)``
  on the handle whose response was the modal: type 5; ``fields`` maps the inputs' custom ids to a
  string (text input) or a list of values (selects).
* ``await s.post_user_message(user_id, channel_id, content) -> Message``: a user's message, sent to
  the bot as MESSAGE_CREATE (content blanked without the message-content intent, as on Discord).
* ``await s.forge(itype, user_id, channel_id, data, *, message=None, components=None)``: an
  interaction no Discord client could send (``data`` unchecked: unknown commands, wrong option
  types, NaN, forged custom ids; also from a deleted channel, or from someone else's ephemeral
  message); ``s.forged_row(custom_id, component_type=2, options=())`` builds components for it.
* ``s.interactions()``: every interaction's handle so far, oldest first.
* Interactions wait (``session_timeout``) for a client to be connected; none -> ``StandInTimeout``.
* ``s.one_session_per_interaction = True``: with several clients serving a guild, each interaction goes
  to one of them in turn (as Discord hands an interaction to one connection) instead of to all.

Interaction handle (:class:`InteractionHandle`)
----------------------------------------------
``h.id``, ``h.token``, ``h.type``, ``h.user_id``, ``h.channel_id``, ``h.payload`` (the
INTERACTION_CREATE data); ``h.response`` (:class:`CallbackRecord`: ``type`` 4/5/6/7/8/9, ``data``,
``ephemeral``); ``h.original`` (the message created by a type 4/5 callback, or the component's
message for 6/7); ``h.followups`` (messages from ``POST /webhooks/{app}/{token}``; the first
follow-up after a type 5 defer *fills* the loading original as on Discord, so it is both);
``h.messages`` (what it produced, not deleted: the message its callback created, its follow-ups,
and the component's message once edited after the click by any path); ``h.choices``
(autocomplete); ``h.modal``;
``h.events`` (``("callback", CallbackRecord)``, ``("followup", Message)``, ``("edit", Message)``,
``("delete", Message)`` in order); ``h.rejections`` (requests for this interaction that the
stand-in refused, e.g. 400 for content over 2000 chars); ``h.response_latency`` (seconds).
``await h.wait_response(timeout=None) -> CallbackRecord``;
``await h.wait_message(predicate=None, timeout=None) -> Message`` (first of ``h.messages`` that is
finished, i.e. not loading, and matches; re-evaluated on every change). A type 7 update is part of
the callback (no separate "edit" event).

Messages (:class:`Message`, live objects updated by edits)
---------------------------------------------------------
``id``, ``channel_id``, ``guild_id``, ``author`` (user dict), ``author_id``, ``content``,
``embeds`` (dicts), ``components`` (dicts, with Discord's numeric component ids added),
``attachments`` (:class:`Attachment`: ``id``, ``filename``, ``data`` bytes, ``content_type``,
``description``, ``size``, ``url``), ``flags``, ``ephemeral`` (flags & 64), ``loading`` (flags &
128), ``deleted``, ``edits``, ``interaction`` (its handle or ``None``), ``reactions``, ``raw``
(the payload Discord would send), helpers ``text`` (content + embed texts), ``buttons()``,
``selects()``, ``custom_ids()``, ``component(custom_id)``; ``posted_components`` and
``posted_all_components()``, ``posted_custom_ids()`` (what it was posted with: later edits may take components off),
``allowed_mentions`` (as the bot sent them when posting) and ``pinged() -> (users, roles)``
(whom the post pinged: the mentions in its content that its allowed_mentions allow).

* ``s.messages(channel_id, *, include_ephemeral=False, include_loading=False,
  include_deleted=False) -> list[Message]`` in order; ``s.dms(user_id)`` (the bot's DMs to a
  user); ``s.message(message_id)``.
* ``s.uploads() -> list[Attachment]``: every file the bot uploaded (posts, edits, interaction
  responses, DMs), oldest first, with the ``description`` (alt text) it was sent with; a
  description over 1,024 characters is refused with 400, as Discord does.
* ``await s.wait_for_message(channel_id, predicate=None, timeout=None, *, after=None) -> Message``
  and ``await s.wait_for_dm(user_id, predicate=None, timeout=None, *, after=None)``: the first
  matching message (existing ones included, or only ids greater than ``after``), re-checked on
  every create/edit in that channel.
* ``await s.wait_until(check, timeout=None, *, what="a condition", poll=None) -> value``: the
  first true value of ``check()`` (a function or a coroutine function), checked now and after
  every request the bot makes, every message stored and every gateway session's change; with
  ``poll`` also every ``poll`` seconds (for what the stand-in does not see, e.g. the bot's
  database; ``tests/e2e/waiting.py`` builds the usual waits on it). Never a fixed sleep.

Gateway
-------
HELLO, heartbeat ACK, IDENTIFY -> READY + one GUILD_CREATE per guild (channels, threads, roles; all
members with the GUILD_MEMBERS intent, else only the bot, as on Discord), REQUEST_GUILD_MEMBERS ->
GUILD_MEMBERS_CHUNK. A session survives a dropped connection (any close but 1000/1001) and RESUME
replays what was dispatched meanwhile, then RESUMED; an unknown session, a too old sequence number
or ``accept_resume=False`` answers INVALID_SESSION (d=false) and the client identifies afresh (which
discord.py delays by 5 s). A new IDENTIFY drops the dropped-connection sessions of its shard. Events
go to every session (intents respected); sharding by ``[shard_id, count]`` is honoured.
``s.identify_count``, ``s.resume_count``, ``s.connected`` (number of live sessions),
``await s.wait_for_identify(count=1, timeout=None)`` (returns once READY + GUILD_CREATE of the
``count``-th IDENTIFY are sent), ``s.force_reconnect()`` (op 7),
``await s.wait_for_resume(count=1, timeout=None)``, ``await s.disconnect_clients(code=4000)``
(clients reconnect and resume), ``await s.wait_for_disconnect(timeout=None)``.

The Activity (see activities.py)
--------------------------------
``s.enable_activities(client_secret)`` (creates the default Entry Point command, as Discord
does), ``s.join_activity(user, channel) -> instance_id``, ``s.leave_activity``,
``s.authorize(user) -> code``, ``s.expire_code``, ``s.expire_tokens``, ``s.access_tokens()``,
``s.entry_point()``, ``await s.run_entry_point(user, channel)``, ``s.token_exchanges``;
``POST /oauth2/token`` (forms only), ``GET /users/@me`` with a Bearer token,
``GET /applications/{app}/activity-instances/{id}``; a type-12 callback sets ``h.activity_instance``.

Diagnostics
-----------
Unknown endpoints are logged (logger ``standin``) and answered 404 ``{"code": 0}``; they are listed
in ``s.unknown_requests``. Stand-in bugs are answered 503 (discord.py does not retry those) and
listed in ``s.internal_errors``. Refused requests (4xx by design) are in ``s.rejections``.
``s.problems()`` returns the unknown + internal ones; the ``standin`` fixture fails the test with
them (unknown endpoints are tolerated with ``s.allow_unknown_endpoints = True``).
``s.request_log`` keeps the last requests as ``(monotonic time, method, path)``.

Requests, and Discord's published API spec
------------------------------------------
Every REST request is kept in ``s.captured`` (:class:`capture.CapturedRequest`: method, path,
query, the Authorization scheme — ``Bot``, ``Bearer`` or none —, content type, the JSON body,
a multipart body's ``payload_json`` with its files' part names, file names, types and sizes, or
a form's fields). ``s.unchecked_requests()`` hands over those received since its last call: the
fixtures' teardown checks them against Discord's OpenAPI spec (``tests/e2e/apispec``) and fails
the test on any the spec does not allow. A test that sends one on purpose says so first:
``s.expect_spec_violation(method, path_regex, where, why)`` (the check then fails if it never
comes). Adding an endpoint is one row in its part's ``routes()`` and its handler;
tests/e2e/test_apispec.py checks that Discord's spec has every route the stand-in serves.

Limits
------
No rate limiting (every answer carries generous X-RateLimit headers so discord.py never
serialises requests per route); no voice connections (a voice channel is only its chat), presences, reactions by users, polls' votes, stickers,
webhooks other than interaction tokens, permission overwrites (member permissions are guild-level);
interaction tokens never expire and the 3-second first-response deadline is not enforced (see
``h.response_latency``); message history pagination is simple; with several clients connected at
once each gets every event (as on Discord), so both would answer an interaction.
"""

from __future__ import annotations

# The package, one concern a module: constants (limits, bits, type numbers), basics (errors,
# helpers, waiting, where it listens), payloads (snowflakes), model (messages, attachments,
# interactions), and the parts DiscordStandIn is composed of, each owning its state and given
# the parts it uses (server.py builds them all in one place: the whole graph is there):
# sessions (connections.py), diagnostics (observe.py), capture (every request, for the spec
# check), world (what a test sets up), store (storage.py: messages kept and checked against
# Discord's limits), registry (commands.py), driving (users' actions), activities (the Activity
# and OAuth2), gateway, http, and the REST handlers by resource (rest_app, rest_interactions,
# rest_channels). DiscordStandIn keeps the controller API below by forwarding the parts' methods.
from .basics import StandInTimeout, point_discord_at
from .constants import PERMISSIONS
from .model import Attachment, CallbackRecord, InteractionHandle, Message
from .server import DiscordStandIn

__all__ = [
    "PERMISSIONS",
    "Attachment",
    "CallbackRecord",
    "DiscordStandIn",
    "InteractionHandle",
    "Message",
    "StandInTimeout",
    "point_discord_at",
]
