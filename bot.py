"""Start metrobot: `python bot.py` (or `make run`). Settings come from `.env`."""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import sys

HOW_TO_TOKEN = """No DISCORD_TOKEN is set, so the bot cannot log in.

To get one:
  1. Open https://discord.com/developers/applications and create an application.
  2. In "Bot", press "Reset Token" and copy the token.
  3. Make a .env only you may read, `install -m 600 .env.example .env`, and put the token
     after DISCORD_TOKEN= in it.
  4. Invite the bot, then run `make run` again (README, "Quick start"; in full:
     docs/operators/install.md).
"""


def point_at_api(api_base: str | None, gateway_url: str | None) -> None:
    """Talk to a Discord-API-compatible server instead of Discord (self-hosted or a test stand-in)."""
    import discord
    import yarl

    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


async def serve(bot, token: str) -> None:
    """Run until closed. SIGTERM (a service manager's stop) and SIGINT (Ctrl-C) stop the bot
    gracefully: what is in flight finishes, what is owed is delivered, then exit status 0."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, bot.request_stop)
    async with bot:
        await bot.start(token)
    logging.getLogger("metrobot").info("stopped")


def main() -> int:
    from metrobot.settings import load_settings

    try:
        settings = load_settings()
    except SystemExit as exc:  # a setting is wrong: say which; status 2, as restarting would not help
        print(exc.code, file=sys.stderr)
        return 2
    logging.basicConfig(
        level=getattr(logging, settings.log_level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not settings.token:
        print(HOW_TO_TOKEN, file=sys.stderr)
        return 2
    # Start-up imports some 800 modules (discord.py, aiohttp, the service, the games), whose
    # objects live as long as the process: the collector's young collections while they are made
    # free nothing and cost a start about 0.04 s of CPU. So it is off until the bot is built; then
    # what start-up made is frozen out of the collections (`gc.freeze`), which would otherwise walk
    # it all at every old-generation collection for the process's life. (The few cycles of import
    # time that are garbage, some 2,000 objects, stay: a collection to find them costs 0.05 s.)
    gc.disable()
    try:
        import discord

        from metrobot.discord_app.client import create_bot
        from metrobot.render.keptlayers import keep_between_runs
        from metrobot.storage import DatabaseUnavailable, NewerSchema

        keep_between_runs()  # the maps' drawn layers, read back after a restart (metrobot/render/keptlayers.py)

        point_at_api(settings.api_base, settings.gateway_url)
        bot = create_bot(settings)
    finally:
        gc.freeze()
        gc.enable()
    try:
        asyncio.run(serve(bot, settings.token))
    except KeyboardInterrupt:  # (a Ctrl-C before the signal handlers were in place)
        return 0
    except discord.LoginFailure:
        print(
            "Discord refused the token in DISCORD_TOKEN (401): reset it in the developer portal (your "
            "application -> Bot -> Reset Token) and put the new one in .env; starting again will not help until then.",
            file=sys.stderr,
        )
        return 2
    except NewerSchema as exc:
        print(exc, file=sys.stderr)
        return 2
    except DatabaseUnavailable as exc:  # (status 1: starting again later may well work)
        print(
            f"The database is not answering ({exc.kind}) at {bot.settings.database.split('@')[-1]}; "
            "exiting so that the service manager starts the bot again.",
            file=sys.stderr,
        )
        return 1
    except discord.HTTPException as exc:  # any other refusal at start: one line, never a traceback
        from metrobot.discord_app.connecting import refusal

        print(
            f"Discord refused a request at start: {refusal(exc)}. Check the application in the developer "
            "portal and that DISCORD_TOKEN is its bot's token.",
            file=sys.stderr,
        )
        return 2 if exc.status < 500 else 1
    except discord.PrivilegedIntentsRequired:
        print("Discord asked for privileged intents; metrobot needs none. Check the bot's settings.", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
