"""A world for the Activity's tests: the Discord stand-in (OAuth2, instances), a database with an
On the Underground game between Ann and Bob in one of its channels, and the pages served with the
application's OAuth2 client pointed at the stand-in (as `METROBOT_ACTIVITY_CLIENT_ID` / `_SECRET`
and `DISCORD_API_BASE` do for the bot)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from aiohttp import web

from metrobot.app import build
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.web import make_app
from metrobot.web.discordauth import DiscordAuth
from tests.e2e.standin import DiscordStandIn

SECRET = "activity-client-secret-for-tests"


@dataclass
class ActivityWorld:
    standin: DiscordStandIn
    service: Any
    base: str
    channel: int
    other_channel: int
    game: int
    ann: int
    bob: int
    cy: int
    runner: web.AppRunner
    auth: DiscordAuth
    app: Any = None  # the service and the tournaments (metrobot/app.py)

    def frame_query(self, user: int, channel: int | None = None, platform: str = "desktop") -> tuple[str, str]:
        """Discord's query string for `user` opening the Activity in `channel` (and its instance)."""
        channel = channel or self.channel
        instance = self.standin.join_activity(user, channel)
        query = (
            f"frame_id=f-{user}&instance_id={instance}&platform={platform}&guild_id={self.standin.guild_id}"
            f"&channel_id={channel}&location_id=gc-{self.standin.guild_id}-{channel}"
        )
        return query, instance


async def make_activity_world(tmp_path, *, secret: str | None = SECRET) -> ActivityWorld:
    s = DiscordStandIn()
    await s.start()
    s.enable_activities(SECRET)
    ann, bob, cy = s.add_member(name="Ann"), s.add_member(name="Bob"), s.add_member(name="Cy")
    channel, other = s.create_channel("underground"), s.create_channel("elsewhere")
    db = await Database(tmp_path / "activity.sqlite3").open()
    app = build(db, seeds=fixed_seeds(45), images=False)
    service = app.service
    guild = str(s.guild_id)
    await service.lobby.new_game(str(channel), guild, str(ann), "Ann", "underground", {}, 2)
    await service.lobby.join(str(channel), str(bob), "Bob")
    await service.lobby.start(str(channel), str(ann))
    service.images = True
    game = (await db.open_game(str(channel))).id
    auth = DiscordAuth(str(s.application_id), secret, s.token, s.api_base)
    runner = web.AppRunner(make_app(service, tournaments=app.tournaments, auth=auth), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    service.web_base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    return ActivityWorld(s, service, service.web_base, channel, other, game, ann, bob, cy, runner, auth, app=app)


async def close_activity_world(world: ActivityWorld) -> None:
    await world.runner.cleanup()
    world.service.painter.close()
    await world.service.db.close()
    await world.standin.stop()
