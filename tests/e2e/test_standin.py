"""End-to-end tests of the Discord stand-in with a tiny discord.py bot defined here.

They prove that the real, unmodified discord.py client logs in, syncs commands and answers
interactions through the stand-in, and they double as usage examples of the controller API.
"""

from __future__ import annotations

import asyncio
import io
import os
import sys
import textwrap
import time

import aiohttp
import discord
import pytest
from discord import app_commands
from PIL import Image

from tests.e2e.standin import DiscordStandIn, StandInTimeout

pytestmark = pytest.mark.timeout(30)
CHECK_ALT_TEXT = False  # tests of the stand-in itself: its clients are not our bot

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_bytes(color: str = "red") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (32, 16), color).save(buf, format="PNG")
    return buf.getvalue()


# ------------------------------------------------------------------------------------------------
# the tiny bot
# ------------------------------------------------------------------------------------------------


class GameView(discord.ui.View):
    """A non-persistent view: buttons and a select, answered in various ways."""

    def __init__(self) -> None:
        super().__init__(timeout=120)

    @discord.ui.button(label="Join", custom_id="game:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        # type 7: update the message the button is on
        await interaction.response.edit_message(content=f"{interaction.user.name} joined", view=self)

    @discord.ui.button(label="Peek", custom_id="game:peek")
    async def peek(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message("your secret hand: A, C", ephemeral=True)

    @discord.ui.button(label="Next", custom_id="game:next")
    async def next_turn(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        # type 6, then a plain channel edit of the message (PATCH /channels/{id}/messages/{id})
        await interaction.response.defer()
        await interaction.message.edit(content="next turn")

    @discord.ui.select(
        custom_id="game:line",
        placeholder="Pick a line",
        min_values=1,
        max_values=2,
        options=[discord.SelectOption(label=f"Line {c}", value=c) for c in "ABC"],
    )
    async def line(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.defer()  # type 6, then edit the message later
        await interaction.edit_original_response(content=f"lines chosen: {','.join(select.values)}")


class PanelView(discord.ui.View):
    """A persistent view: no timeout, fixed custom ids; re-registered with add_view at start-up."""

    def __init__(self, generation: int) -> None:
        super().__init__(timeout=None)
        self.generation = generation

    @discord.ui.button(label="Ping", custom_id="panel:ping", style=discord.ButtonStyle.success)
    async def ping(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(f"pong from client generation {self.generation}")


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    text = discord.ui.TextInput(label="What do you think?", custom_id="feedback:text", max_length=200)
    score = discord.ui.TextInput(label="Score", custom_id="feedback:score", required=False)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"thanks: {self.text.value} ({self.score.value or 'no score'})")


FRUITS = ["apple", "apricot", "banana", "blueberry", "cherry"]


class TinyBot(discord.Client):
    def __init__(self, generation: int = 1, guild_id: int | None = None) -> None:
        super().__init__(intents=discord.Intents.default())
        self.generation = generation
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        self.dm_results: list[str] = []
        self._register()

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot:
            return
        if "ping" in message.content:
            await message.channel.send(f"pong: {message.content}")

    async def setup_hook(self) -> None:
        self.add_view(PanelView(self.generation))
        await self.tree.sync()
        if self.guild_id is not None:
            guild = discord.Object(self.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)

    def _register(self) -> None:
        tree = self.tree

        @tree.command(name="roll", description="Roll a die and show a board")
        @app_commands.describe(sides="number of sides", label="a label", loud="shout?", target="who rolls")
        async def roll(
            interaction: discord.Interaction,
            sides: app_commands.Range[int, 2, 100],
            label: str | None = None,
            loud: bool = False,
            target: discord.Member | None = None,
        ) -> None:
            await interaction.response.defer(thinking=True)
            who = target.display_name if target else interaction.user.display_name
            text = f"{who} rolls d{sides} [{label or '-'}]"
            if loud:
                text = text.upper()
            file = discord.File(io.BytesIO(png_bytes()), filename="board.png")
            await interaction.followup.send(text, file=file, view=GameView())

        @tree.command(name="pick", description="Pick a fruit")
        async def pick(interaction: discord.Interaction, fruit: str) -> None:
            await interaction.response.send_message(f"picked {fruit}")

        @pick.autocomplete("fruit")
        async def pick_fruit(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=f.title(), value=f) for f in FRUITS if f.startswith(current.lower())]

        @tree.command(name="secret", description="An ephemeral answer")
        async def secret(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("only you can see this", ephemeral=True)

        @tree.command(name="dm", description="DM a user")
        async def dm(interaction: discord.Interaction, user: discord.User) -> None:
            await interaction.response.defer(ephemeral=True)
            try:
                await user.send(f"hello {user.name}, here is your hand")
            except discord.Forbidden as exc:
                self.dm_results.append(f"forbidden {exc.code}")
                await interaction.followup.send(f"cannot DM {user.name} (code {exc.code})")
            else:
                self.dm_results.append("sent")
                await interaction.followup.send(f"DM sent to {user.name}")

        @tree.command(name="panel", description="Post the persistent panel")
        async def panel(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("control panel", view=PanelView(self.generation))

        @tree.command(name="say", description="Post in this channel")
        async def say(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.send_message("posting", ephemeral=True)
            msg = await interaction.channel.send(f"said: {text}")
            await msg.edit(content=f"said (edited): {text}")

        @tree.command(name="feedback", description="Open a modal")
        async def feedback(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(FeedbackModal())

        @tree.command(name="long", description="Answer with too much text")
        async def long(interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_message("x" * 2001)
            except discord.HTTPException as exc:
                await interaction.response.send_message(f"refused {exc.status} {exc.code}")

        game = app_commands.Group(name="game", description="Game commands")

        @game.command(name="start", description="Start a game")
        async def start(interaction: discord.Interaction, players: int, variant: str | None = None) -> None:
            embed = discord.Embed(
                title="Game started", description=f"{players} players, variant {variant or 'standard'}"
            )
            await interaction.response.send_message(embed=embed)

        @game.command(name="where", description="Where am I?")
        async def where(interaction: discord.Interaction) -> None:
            channel = interaction.channel
            kind = "thread" if isinstance(channel, discord.Thread) else type(channel).__name__
            await interaction.response.send_message(
                f"{kind} {channel.name} parent={getattr(channel, 'parent_id', None)}"
            )

        tree.add_command(game)


async def start_bot(standin: DiscordStandIn, run_client, generation: int = 1, guild: bool = False) -> TinyBot:
    bot = TinyBot(generation, standin.guild_id if guild else None)
    await run_client(bot)
    return bot


# ------------------------------------------------------------------------------------------------
# tests
# ------------------------------------------------------------------------------------------------


async def test_login_and_command_sync(standin: DiscordStandIn, run_client) -> None:
    bot = await start_bot(standin, run_client, guild=True)
    commands = await standin.wait_for_commands("roll", "pick", "game")
    assert commands["roll"]["options"][0]["name"] == "sides"
    assert {c["name"] for c in standin.commands()} >= {"roll", "pick", "secret", "dm", "panel", "game"}
    assert standin.command("roll", standin.guild_id)["guild_id"] == str(standin.guild_id)  # guild copy first
    assert bot.user is not None and bot.user.id == standin.bot_id
    assert bot.application_id == standin.application_id
    # (the commands are synced in setup_hook, before the gateway's GUILD_CREATE: wait for it)
    guild = await standin.wait_until(
        lambda: bot.get_guild(standin.guild_id), 10, what="the guild from the gateway", poll=0.02
    )  # (polled: the client's cache is nothing the stand-in sees change)
    assert guild.me is not None
    await asyncio.wait_for(bot.wait_until_ready(), 5)  # on_ready after guild_ready_timeout (2 s)


async def test_slash_defer_followup_with_png_and_buttons(standin: DiscordStandIn, run_client) -> None:
    alice = standin.add_member(name="alice")
    bob = standin.add_member(name="bob")
    channel = standin.create_channel("game-1")
    await start_bot(standin, run_client)

    h = await standin.slash(alice, channel, "roll", {"sides": 6, "label": "first", "loud": True, "target": bob})
    response = await h.wait_response()
    assert response.type == 5 and not response.ephemeral
    msg = await h.wait_message(lambda m: m.attachments)
    assert msg.content == "BOB ROLLS D6 [FIRST]"
    assert msg is h.original and h.followups == [msg]  # the first follow-up replaces "thinking..."
    [att] = msg.attachments
    assert att.filename == "board.png" and att.content_type == "image/png"
    assert att.data.startswith(PNG_SIGNATURE)
    assert [b["label"] for b in msg.buttons()] == ["Join", "Peek", "Next"]
    assert standin.messages(channel) == [msg]
    # the attachment URL is served by the stand-in, as the CDN would
    async with aiohttp.ClientSession() as session, session.get(att.url) as resp:
        assert resp.status == 200 and await resp.read() == att.data

    # click: the view answers with type 7 (edit the message the button is on)
    click = await standin.click(bob, msg, "game:join")
    assert (await click.wait_response()).type == 7
    assert msg.content == "bob joined" and msg.edits == 1
    assert click.payload["message"]["id"] == str(msg.id)
    assert click.payload["message"]["attachments"][0]["filename"] == "board.png"

    # the same button by label; then an ephemeral answer to another button
    again = await standin.click(alice, msg, label="Join")
    await again.wait_response()
    assert msg.content == "alice joined"
    peek = await standin.click(alice, msg, label="Peek")
    secret = await peek.wait_message()
    assert secret.ephemeral and secret.content == "your secret hand: A, C"
    assert secret not in standin.messages(channel)
    with pytest.raises(ValueError):
        await standin.click(bob, secret, "game:join")  # bob cannot even see alice's ephemeral message

    # type 6 and a channel edit of the message: still counted as this interaction's message
    nxt = await standin.click(bob, msg, "game:next")
    assert (await nxt.wait_message()).content == "next turn"
    assert (await nxt.wait_response()).type == 6 and nxt.messages == [msg]


async def test_select_menu(standin: DiscordStandIn, run_client) -> None:
    alice = standin.add_member(name="alice")
    channel = standin.create_channel("game-2")
    await start_bot(standin, run_client)
    h = await standin.slash(alice, channel, "roll", {"sides": 20})
    msg = await h.wait_message()
    [select] = msg.selects()
    assert select["custom_id"] == "game:line" and len(select["options"]) == 3

    pick = await standin.select(alice, msg, "game:line", ["A", "C"])
    assert (await pick.wait_response()).type == 6
    await pick.wait_message(lambda m: m.content == "lines chosen: A,C")
    assert msg.content == "lines chosen: A,C"
    assert [kind for kind, _ in pick.events] == ["callback", "edit"]
    with pytest.raises(ValueError):
        await standin.select(alice, msg, "game:line", ["Z"])  # not an option: no real client could send it
    with pytest.raises(ValueError):
        await standin.select(alice, msg, "game:line", ["A", "B", "C"])  # max_values is 2


async def test_autocomplete(standin: DiscordStandIn, run_client) -> None:
    alice = standin.add_member(name="alice")
    channel = standin.create_channel("game-3")
    await start_bot(standin, run_client)
    choices = await standin.autocomplete(alice, channel, "pick", {"fruit": "ap"}, focused="fruit")
    assert choices == [{"name": "Apple", "value": "apple"}, {"name": "Apricot", "value": "apricot"}]
    assert await standin.autocomplete(alice, channel, "pick", focused="fruit") != []
    h = await standin.slash(alice, channel, "pick", {"fruit": "cherry"})
    assert (await h.wait_message()).content == "picked cherry"


async def test_ephemeral_response(standin: DiscordStandIn, run_client) -> None:
    alice = standin.add_member(name="alice")
    channel = standin.create_channel("game-4")
    await start_bot(standin, run_client)
    h = await standin.slash(alice, channel, "secret")
    msg = await h.wait_message()
    assert h.response.type == 4 and h.ephemeral and msg.ephemeral and msg.flags & 64
    assert standin.messages(channel) == []
    assert standin.messages(channel, include_ephemeral=True) == [msg]
    assert 0 <= h.response_latency < 5


async def test_a_repeated_nonce_makes_no_second_message(standin: DiscordStandIn, run_client) -> None:
    """Discord's `enforce_nonce` (discord.py sends it with every nonce): the same author's send
    with a nonce it used a moment ago returns that message instead of making another."""
    channel = standin.create_channel("nonce")
    bot = await start_bot(standin, run_client)
    where = bot.get_channel(channel) or await bot.fetch_channel(channel)
    assert isinstance(where, discord.TextChannel)
    first, again = await asyncio.gather(where.send("one", nonce="mb7"), where.send("one", nonce="mb7"))
    other = await where.send("two", nonce="mb8")
    assert first.id == again.id != other.id
    assert [m.content for m in standin.messages(channel)] == ["one", "two"]


async def test_dm_open_and_closed(standin: DiscordStandIn, run_client) -> None:
    alice = standin.add_member(name="alice")
    bob = standin.add_member(name="bob")
    carol = standin.add_member(name="carol")
    standin.close_dms(carol)
    channel = standin.create_channel("game-5")
    bot = await start_bot(standin, run_client)

    h = await standin.slash(alice, channel, "dm", {"user": bob})
    assert (await h.wait_message()).content == "DM sent to bob"
    dm = await standin.wait_for_dm(bob, lambda m: "your hand" in m.content)
    assert dm.content == "hello bob, here is your hand" and standin.dms(bob) == [dm]

    h2 = await standin.slash(alice, channel, "dm", {"user": carol})
    answer = await h2.wait_message()
    assert answer.content == "cannot DM carol (code 50007)" and answer.ephemeral  # ephemeral from the defer
    assert standin.dms(carol) == []
    assert standin.failed_dms(carol)[0]["content"] == "hello carol, here is your hand"
    assert bot.dm_results == ["sent", "forbidden 50007"]

    # a slash command in the DM channel (global commands work there)
    h3 = await standin.slash(bob, standin.dm_channel(bob), "secret")
    assert (await h3.wait_message()).channel_id == standin.dm_channel(bob)
    assert "user" in h3.payload and "member" not in h3.payload


async def test_user_messages_and_message_content_intent(standin: DiscordStandIn, run_client) -> None:
    alice = standin.add_member(name="alice")
    channel = standin.create_channel("chat")
    await start_bot(standin, run_client)
    # without the message-content intent the bot sees guild messages blank unless it is mentioned
    await standin.post_user_message(alice, channel, "ping without mention")
    await standin.post_user_message(alice, channel, f"<@{standin.bot_id}> ping")
    reply = await standin.wait_for_message(channel, lambda m: m.author_id == standin.bot_id)
    assert reply.content == f"pong: <@{standin.bot_id}> ping"
    assert [m.content for m in standin.messages(channel)] == [
        "ping without mention",
        f"<@{standin.bot_id}> ping",
        reply.content,
    ]
    # DMs are always readable
    dm = standin.dm_channel(alice)
    await standin.post_user_message(alice, dm, "ping in private")
    assert (await standin.wait_for_dm(alice)).content == "pong: ping in private"


async def test_persistent_view_survives_a_new_client(standin: DiscordStandIn, run_client) -> None:
    alice = standin.add_member(name="alice")
    channel = standin.create_channel("game-6")
    first = await start_bot(standin, run_client, generation=1)
    h = await standin.slash(alice, channel, "panel")
    panel = await h.wait_message()
    click = await standin.click(alice, panel, "panel:ping")
    assert (await click.wait_message()).content == "pong from client generation 1"

    await run_client.stop(first)  # the bot "restarts": a brand-new client instance connects
    assert standin.connected == 0
    await start_bot(standin, run_client, generation=2)
    assert standin.identify_count == 2
    click = await standin.click(alice, panel, "panel:ping")
    assert (await click.wait_message()).content == "pong from client generation 2"


async def test_reconnect_and_resume_replays_missed_events(standin: DiscordStandIn, run_client) -> None:
    alice = standin.add_member(name="alice")
    channel = standin.create_channel("game-7")
    bot = await start_bot(standin, run_client)
    resumed = asyncio.ensure_future(bot.wait_for("resumed"))  # the client's side of the RESUME
    await standin.disconnect_clients(4000)  # the connection drops; the session stays resumable
    late = standin.create_channel("created-while-disconnected")  # buffered, replayed on RESUME
    await standin.wait_for_resume(1)
    await asyncio.wait_for(resumed, 5)  # RESUMED comes after the replayed events
    assert standin.identify_count == 1 and bot.get_channel(late) is not None
    standin.force_reconnect()  # op 7: the client reconnects and resumes again
    await standin.wait_for_resume(2)
    h = await standin.slash(alice, channel, "secret")
    assert (await h.wait_message()).content == "only you can see this"


@pytest.mark.timeout(30)
async def test_refused_resume_makes_the_client_identify_again(standin: DiscordStandIn, run_client) -> None:
    standin.accept_resume = False  # RESUME -> INVALID_SESSION (d=false); discord.py waits 5 s, then IDENTIFYs
    alice = standin.add_member(name="alice")
    channel = standin.create_channel("game-7b")
    await start_bot(standin, run_client)
    standin.force_reconnect()
    await standin.wait_for_identify(2, timeout=15)
    assert standin.resume_count == 0
    h = await standin.slash(alice, channel, "secret")
    assert (await h.wait_message()).content == "only you can see this"


async def test_thread_channel(standin: DiscordStandIn, run_client) -> None:
    alice = standin.add_member(name="alice", manage_channels=True)
    parent = standin.create_channel("games")
    before = standin.create_thread(parent, "game before login")
    bot = await start_bot(standin, run_client)
    after = standin.create_thread(parent, "game after login")  # dispatched as THREAD_CREATE
    for thread_id, name in ((before, "game before login"), (after, "game after login")):
        h = await standin.slash(alice, thread_id, "game where")
        msg = await h.wait_message()
        assert msg.content == f"thread {name} parent={parent}" and msg.channel_id == thread_id
        assert standin.messages(thread_id) == [msg] and standin.messages(parent) == []
    assert isinstance(bot.get_channel(after), discord.Thread)
    assert bot.get_guild(standin.guild_id).get_member(alice) is None  # no members intent: as on Discord
    assert h.payload["member"]["permissions"] == str(standin.member_permissions(alice))
    assert int(h.payload["member"]["permissions"]) & 16  # manage_channels


async def test_subcommand_embed_channel_posts_and_modal(standin: DiscordStandIn, run_client) -> None:
    alice = standin.add_member(name="alice")
    channel = standin.create_channel("game-8")
    await start_bot(standin, run_client)

    h = await standin.slash(alice, channel, "game start", {"players": 3})
    msg = await h.wait_message()
    assert msg.embeds[0]["title"] == "Game started" and "3 players" in msg.text

    say = await standin.slash(alice, channel, "say", {"text": "hi"})
    posted = await standin.wait_for_message(channel, lambda m: m.content.startswith("said (edited)"))
    assert posted.author_id == standin.bot_id and posted.interaction is None and posted.edits == 1
    assert (await say.wait_message()).ephemeral

    fb = await standin.slash(alice, channel, "feedback")
    assert (await fb.wait_response()).type == 9 and fb.modal["title"] == "Feedback"
    submitted = await fb.submit_modal({"feedback:text": "great game"})
    assert (await submitted.wait_message()).content == "thanks: great game (no score)"
    with pytest.raises(ValueError):
        await standin.submit_modal(alice, channel, "nope", {})


async def test_refusals_and_unknown_endpoints(standin: DiscordStandIn, run_client) -> None:
    alice = standin.add_member(name="alice")
    channel = standin.create_channel("game-9")
    await start_bot(standin, run_client)

    # what this test sends on purpose that Discord's spec rejects (the spec check must see it)
    standin.expect_spec_violation(
        "POST", r"/interactions/\d+/[^/]+/callback", "body/data/content", "content over 2,000 characters, refused"
    )
    standin.expect_spec_violation("GET", "/nope", "operation", "an endpoint Discord does not have")
    h = await standin.slash(alice, channel, "long")  # 2001 characters: 400 Invalid Form Body
    assert (await h.wait_message()).content == "refused 400 50035"
    assert h.rejections and "content" in str(h.rejections[0])

    with pytest.raises(ValueError):
        await standin.slash(alice, channel, "roll", {"sides": 1})  # below min_value 2
    with pytest.raises(ValueError):
        await standin.slash(alice, channel, "roll", {"side": 6})  # no such option
    with pytest.raises(ValueError):
        await standin.slash(alice, channel, "game")  # needs a subcommand

    async with aiohttp.ClientSession() as session:
        async with session.get(standin.api_base + "/nope", headers={"Authorization": f"Bot {standin.token}"}) as resp:
            assert resp.status == 404 and resp.headers["Content-Type"] == "application/json"
            assert "unknown endpoint" in (await resp.json())["message"]
        async with session.get(standin.api_base + "/users/@me", headers={"Authorization": "Bot wrong"}) as resp:
            assert resp.status == 401
    assert standin.unknown_requests == ["GET /api/v10/nope"]
    standin.unknown_requests.clear()

    nothing = await standin.slash(alice, channel, "pick", {"fruit": "x"})
    await nothing.wait_response()
    with pytest.raises(StandInTimeout) as info:
        await nothing.wait_message(lambda m: m.content == "never", timeout=0.2)
    assert "picked x" in str(info.value)


async def test_many_channels_concurrently(standin: DiscordStandIn, run_client) -> None:
    players = [standin.add_member(name=f"p{i}") for i in range(4)]
    channels = [standin.create_channel(f"table-{i}") for i in range(100)]
    await start_bot(standin, run_client)

    async def play(index: int, channel: int) -> None:
        player = players[index % len(players)]
        h = await standin.slash(player, channel, "roll", {"sides": 6})
        msg = await h.wait_message(lambda m: m.attachments)
        click = await standin.click(player, msg, "game:join")
        await click.wait_response()
        assert msg.content.endswith("joined")
        pick = await standin.select(player, msg, "game:line", ["B"])
        await pick.wait_message(lambda m: m.content == "lines chosen: B")

    started = time.monotonic()
    await asyncio.gather(*(play(i, c) for i, c in enumerate(channels)))
    assert time.monotonic() - started < 20
    assert all(len(standin.messages(c)) == 1 for c in channels)


SUBPROCESS_BOT = textwrap.dedent(
    """
    import os, discord, yarl
    from discord import app_commands
    # what bot.py does with the environment
    discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])

    client = discord.Client(intents=discord.Intents.default())
    tree = app_commands.CommandTree(client)

    @tree.command(name="hello", description="say hello")
    async def hello(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"hello {name} from pid {os.getpid()}")

    @client.event
    async def setup_hook() -> None:
        await tree.sync()

    client.run(os.environ["DISCORD_TOKEN"], log_handler=None)
    """
)


async def test_client_in_another_process(standin: DiscordStandIn) -> None:
    alice = standin.add_member(name="alice")
    channel = standin.create_channel("game-10")
    env = dict(os.environ, **standin.env())
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", SUBPROCESS_BOT, env=env)
    try:
        await standin.wait_for_identify(1, timeout=20)
        await standin.wait_for_commands("hello")
        h = await standin.slash(alice, channel, "hello", {"name": "alice"})
        assert (await h.wait_message()).content == f"hello alice from pid {proc.pid}"
    finally:
        proc.terminate()
        await asyncio.wait_for(proc.wait(), 10)
    await standin.wait_for_disconnect(timeout=5)
