"""The stand-in's Activity parts (OAuth2 exchange, a person's /users/@me, Activity instances, the
type-12 callback, the Entry Point command), with plain HTTP and a tiny discord.py bot."""

from __future__ import annotations

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.e2e.standin import DiscordStandIn

pytestmark = pytest.mark.timeout(30)
CHECK_ALT_TEXT = False  # the stand-in itself: its clients are not our bot
FORM = "application/x-www-form-urlencoded"


async def exchange(s: DiscordStandIn, code: str, *, secret: str | None = None, json: bool = False) -> tuple[int, dict]:
    fields = {
        "client_id": str(s.application_id),
        "client_secret": secret or s.client_secret,
        "grant_type": "authorization_code",
        "code": code,
    }
    async with aiohttp.ClientSession() as http:
        send = {"json": fields} if json else {"data": fields}
        async with http.post(s.api_base + "/oauth2/token", **send) as answer:
            return answer.status, await answer.json(content_type=None)


async def get(s: DiscordStandIn, path: str, auth: str) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as http, http.get(s.api_base + path, headers={"Authorization": auth}) as answer:
        return answer.status, await answer.json(content_type=None)


async def test_code_for_token_for_the_person(standin: DiscordStandIn) -> None:
    standin.enable_activities()
    ann = standin.add_member(name="Ann")
    code = standin.authorize(ann)
    status, token = await exchange(standin, code)
    assert status == 200 and token["token_type"] == "Bearer" and token["scope"] == "identify"
    status, me = await get(standin, "/users/@me", f"Bearer {token['access_token']}")
    assert status == 200 and me["id"] == str(ann) and "email" not in me
    status, bot = await get(standin, "/users/@me", f"Bot {standin.token}")
    assert bot["id"] == str(standin.bot_id)  # the bot's token still names the bot
    # the code works once; a forged, an expired one, a wrong secret and JSON are refused as Discord does
    assert await exchange(standin, code) == (
        400,
        {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'},
    )
    assert (await exchange(standin, "forged"))[1]["error"] == "invalid_grant"
    late = standin.authorize(ann)
    standin.expire_code(late)
    assert (await exchange(standin, late))[1]["error"] == "invalid_grant"
    assert await exchange(standin, standin.authorize(ann), secret="wrong") == (
        401,
        {"error": "invalid_client", "error_description": "Invalid client"},
    )
    standin.expect_spec_violation("POST", "/oauth2/token", "Content-Type", "the stand-in refuses a JSON body")
    assert (await exchange(standin, standin.authorize(ann), json=True))[1]["error"] == "unsupported_grant_type"
    # a bearer token opens /users/@me only, and only while it lives
    standin.expect_spec_violation("GET", r"/users/\d+", "Authorization", "the stand-in refuses a bearer token there")
    assert (await get(standin, f"/users/{ann}", f"Bearer {token['access_token']}"))[0] == 401
    standin.expire_tokens()
    assert (await get(standin, "/users/@me", f"Bearer {token['access_token']}"))[0] == 401
    assert all(e["form"].get("client_secret") in (None, "***") for e in standin.token_exchanges)


async def test_activity_instances(standin: DiscordStandIn) -> None:
    standin.enable_activities()
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    channel = standin.create_channel("games")
    instance = standin.join_activity(ann, channel)
    assert standin.join_activity(bob, channel) == instance  # one instance a channel while it runs
    app = standin.application_id
    status, body = await get(standin, f"/applications/{app}/activity-instances/{instance}", f"Bot {standin.token}")
    assert status == 200 and body["location"] == {
        "id": f"gc-{standin.guild_id}-{channel}",
        "kind": "gc",
        "channel_id": str(channel),
        "guild_id": str(standin.guild_id),
    }
    assert body["users"] == [str(ann), str(bob)] and body["application_id"] == str(app)
    standin.expect_spec_violation(
        "GET", r"/applications/\d+/activity-instances/.+", "Authorization", "the stand-in refuses a bearer token there"
    )
    assert (await get(standin, f"/applications/{app}/activity-instances/{instance}", "Bearer x"))[0] == 401
    standin.leave_activity(ann, instance)
    standin.leave_activity(bob, instance)  # the last one leaves: it ends and is never reused
    assert (await get(standin, f"/applications/{app}/activity-instances/{instance}", f"Bot {standin.token}"))[0] == 404
    assert standin.join_activity(ann, channel) != instance


class LaunchBot(discord.Client):
    def __init__(self, entry_point: bool) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.entry_point = entry_point

        @self.tree.command(name="play", description="Play on the board")
        async def play(interaction: discord.Interaction) -> None:
            await interaction.response.launch_activity()

    async def setup_hook(self) -> None:
        payload = [c.to_dict(self.tree) for c in self.tree.get_commands()]
        if self.entry_point:
            payload.append({"name": "launch", "description": "", "type": 4, "handler": 2})
        await self.http.bulk_upsert_global_commands(self.application_id, payload=payload)


async def test_launch_activity_callback_and_entry_point(standin: DiscordStandIn, run_client) -> None:
    ann = standin.add_member(name="Ann")
    channel = standin.create_channel("games")
    standin.enable_activities()
    await run_client(LaunchBot(entry_point=True))
    await standin.wait_for_commands("play")
    assert standin.entry_point()["handler"] == 2
    handle = await standin.slash(ann, channel, "play")
    assert (await handle.wait_response()).type == 12
    assert standin.instance(handle.activity_instance)["users"] == [str(ann)]
    assert await standin.run_entry_point(ann, channel) == handle.activity_instance


async def test_a_sync_without_the_entry_point_is_refused(standin: DiscordStandIn) -> None:
    standin.enable_activities()
    async with aiohttp.ClientSession() as http:
        url = f"{standin.api_base}/applications/{standin.application_id}/commands"
        auth = {"Authorization": f"Bot {standin.token}"}
        async with http.put(url, json=[{"name": "play", "description": "x", "type": 1}], headers=auth) as answer:
            assert answer.status == 400 and (await answer.json())["code"] == 50240
        guild_url = f"{standin.api_base}/applications/{standin.application_id}/guilds/{standin.guild_id}/commands"
        async with http.put(guild_url, json=[{"name": "launch", "type": 4, "handler": 2}], headers=auth) as answer:
            assert answer.status == 400  # never a guild command
