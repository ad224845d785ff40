"""The board as a Discord Activity, launched through Discord (the stand-in): the Entry Point
command registered with the sync, "▶ Play on the board" under turn posts and on the status
message answering with LAUNCH_ACTIVITY (type 12), in a channel and in a tournament table's
thread; without the Activity the same button hands out the board in a browser, privately."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio

from tests.e2e.harness import make_bot
from tests.e2e.players import Table

pytestmark = pytest.mark.timeout(120)
SECRET = "e2e-client-secret"


@pytest_asyncio.fixture
async def activity_bot(standin, run_client, tmp_path):
    standin.enable_activities(SECRET)
    client = make_bot(
        str(tmp_path / "activity.sqlite3"),
        web_port=0,
        api_base=standin.api_base,
        activity_client_id=str(standin.application_id),
        activity_client_secret=SECRET,
    )
    await run_client(client)
    await standin.wait_for_commands("game")
    return client


def tap_button(message) -> dict | None:
    return next((c for c in message.all_components() if str(c.get("custom_id", "")).startswith("mb:a:")), None)


async def status_with_tap(table: Table):
    """The game's status message, once its edit carries the buttons."""
    status = next(m for m in table.public() if m.posted_custom_ids() and "mb:l:" in m.posted_custom_ids()[0])
    for _ in range(200):  # (the status edit follows the start's posts)
        if tap_button(status):
            return status
        await asyncio.sleep(0.05)
    raise AssertionError("the status message never got its ▶ Play on the board")


async def test_the_buttons_launch_the_activity(standin, activity_bot):
    entry = standin.entry_point()
    assert entry is not None and entry["handler"] == 2 and entry["name"] == "launch"
    assert entry["description"] == "Play this channel's game on the board"
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    table = Table(standin, standin.create_channel("tube"), activity_bot.settings.db_path, seed=3)
    await table.open(ann, "underground", [bob], players=2)
    await table.posted()
    turn = table.last_play_message()
    button = tap_button(turn)
    assert button["label"] == "▶ Play on the board"
    handle = await standin.click(bob, turn, button["custom_id"])
    assert (await handle.wait_response()).type == 12
    instance = standin.instance(handle.activity_instance)
    assert instance["location"]["channel_id"] == str(table.channel) and instance["users"] == [str(bob)]
    status = await status_with_tap(table)
    handle = await standin.click(ann, status, tap_button(status)["custom_id"])
    assert (await handle.wait_response()).type == 12
    assert standin.instance(handle.activity_instance)["users"] == [str(bob), str(ann)]  # (the same instance)
    assert not [r for r in standin.rejections if r.path.startswith("/interactions/")]
    # both LAUNCH_ACTIVITY callbacks and the sync carrying the Entry Point are among the requests
    # the fixture's teardown checks against Discord's spec (tests/e2e/apispec)
    sent = standin.captured
    launches = [
        c for c in sent if c.path.endswith("/callback") and isinstance(c.body, dict) and c.body.get("type") == 12
    ]
    syncs = [c for c in sent if c.method == "PUT" and c.path.endswith("/commands") and isinstance(c.body, list)]
    assert len(launches) == 2
    assert any(command.get("type") == 4 for sync in syncs for command in sync.body)


async def test_a_restart_keeps_the_entry_point_and_the_button(standin, run_client, activity_bot, tmp_path):
    """The sync carries the Entry Point every time (Discord refuses to drop it: 50240)."""
    await run_client.stop(activity_bot)
    again = make_bot(
        activity_bot.settings.db_path,
        web_port=0,
        api_base=standin.api_base,
        activity_client_id=str(standin.application_id),
        activity_client_secret=SECRET,
    )
    await run_client(again)
    await standin.wait_for_commands("game")
    assert standin.entry_point()["handler"] == 2
    assert not [r for r in standin.rejections if r.status == 400 and "commands" in r.path]


async def test_without_the_activity_the_button_hands_out_the_browser(standin, run_client, tmp_path):
    standin.enable_activities("portal-only")  # enabled in the portal, but not set up in the bot
    client = make_bot(str(tmp_path / "plain.sqlite3"), web_port=0)
    await run_client(client)
    await standin.wait_for_commands("game")
    assert standin.entry_point() is not None  # Discord's default Entry Point was kept, not dropped
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    table = Table(standin, standin.create_channel("tube"), client.settings.db_path, seed=3)
    await table.open(ann, "underground", [bob], players=2)
    await table.posted()
    turn = table.last_play_message()
    handle = await standin.click(bob, turn, tap_button(turn)["custom_id"])
    reply = await handle.wait_message()
    (link,) = [c for c in reply.all_components() if c.get("url")]
    assert handle.response.type == 5 and reply.ephemeral
    assert link["url"].startswith(f"http://127.0.0.1:{client.web.port}/play/")  # their own seat's play page
    cy = standin.add_member(name="Cy")  # not seated: the game's page
    reply = await (await standin.click(cy, turn, tap_button(turn)["custom_id"])).wait_message()
    (link,) = [c for c in reply.all_components() if c.get("url")]
    assert link["url"].startswith(f"http://127.0.0.1:{client.web.port}/g/")


async def test_no_web_pages_no_button(standin, run_client, tmp_path):
    client = make_bot(str(tmp_path / "none.sqlite3"))
    await run_client(client)
    await standin.wait_for_commands("game")
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    table = Table(standin, standin.create_channel("tube"), client.settings.db_path, seed=3)
    await table.open(ann, "underground", [bob], players=2)
    await table.posted()
    assert tap_button(table.last_play_message()) is None and standin.entry_point() is None


async def test_in_a_tournament_table_thread_and_its_hall(standin, activity_bot):
    """A table's thread: its turn posts launch the Activity there, which opens that table; in the
    hall, the Activity opens the table the person sits at, and someone at no table picks one."""
    import aiohttp

    from tests.e2e.tourney_play import round_ready

    db_path = activity_bot.settings.db_path
    hall = standin.create_channel("hall")
    host = standin.add_member(name="Host", roles=[standin.create_role("Organisers", 1 << 5)])
    people = [standin.add_member(name=n) for n in ("Ann", "Bob", "Cy", "Dee")]
    await (
        await standin.slash(
            host, hall, "tournament new", {"kind": "metromania", "format": "swiss", "table_size": 2, "rounds": 1}
        )
    ).wait_message()
    for person in people:
        await (await standin.slash(person, hall, "tournament join")).wait_message()
    await (await standin.slash(host, hall, "tournament start")).wait_message()
    table = (await round_ready(db_path, 1))[0]
    thread, seated = int(table["thread"]), int(table["seats"][0])
    turn = await standin.wait_for_message(thread, lambda m: tap_button(m) is not None)
    handle = await standin.click(seated, turn, tap_button(turn)["custom_id"])
    assert (await handle.wait_response()).type == 12
    assert standin.instance(handle.activity_instance)["location"]["channel_id"] == str(thread)

    async def session(user: int, channel: int, game: int | None = None) -> dict:
        instance = standin.join_activity(user, channel)
        body = {"code": standin.authorize(user), "instance_id": instance, "channel_id": str(channel), "game": game}
        async with (
            aiohttp.ClientSession() as http,
            http.post(f"http://127.0.0.1:{activity_bot.web.port}/activity/api/session", json=body) as answer,
        ):
            return await answer.json()

    assert (await session(seated, thread)) | {"session": None, "access_token": None} == {
        "session": None,
        "access_token": None,
        "expires_in": 14400,
        "game": table["game"],
        "seated": True,
    }
    in_hall = await session(seated, hall)
    assert in_hall["game"] == table["game"] and in_hall["seated"] is True
    choose = (await session(host, hall))["choose"]
    assert table["game"] in [c["game"] for c in choose] and len(choose) == 2
    watched = await session(host, hall, table["game"])
    assert watched["game"] == table["game"] and watched["seated"] is False


async def test_a_development_servers_sync_registers_the_entry_point_globally(standin, run_client, tmp_path):
    """With the commands synced to one server (DISCORD_DEV_GUILD), the Entry Point, which can only
    be global, is made by itself."""
    standin.enable_activities(SECRET)
    client = make_bot(
        str(tmp_path / "dev.sqlite3"),
        dev_guild=standin.guild_id,
        web_port=0,
        api_base=standin.api_base,
        activity_client_id=str(standin.application_id),
        activity_client_secret=SECRET,
    )
    await run_client(client)
    await standin.wait_for_commands("game", guild_id=standin.guild_id)
    entry = standin.entry_point()
    assert entry["description"] == "Play this channel's game on the board"  # (ours: Discord's had none)
    assert [c for c in standin.commands() if c["type"] == 4] == [entry]


async def test_when_discord_will_not_launch_it_the_browser_is_offered(standin, run_client, tmp_path):
    """Set up in the bot but not in the portal (Activities off): Discord refuses the launch, and
    the person gets the board in a browser instead, privately."""
    client = make_bot(
        str(tmp_path / "off.sqlite3"),
        web_port=0,
        api_base=standin.api_base,
        activity_client_id=str(standin.application_id),
        activity_client_secret=SECRET,
    )
    await run_client(client)
    await standin.wait_for_commands("game")
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    table = Table(standin, standin.create_channel("tube"), client.settings.db_path, seed=3)
    await table.open(ann, "underground", [bob], players=2)
    await table.posted()
    turn = table.last_play_message()
    handle = await standin.click(bob, turn, tap_button(turn)["custom_id"])
    reply = await handle.wait_message()
    assert handle.rejections and handle.rejections[0].status == 400  # (the type-12 callback refused)
    assert handle.response.type == 5 and reply.ephemeral
    assert [c for c in reply.all_components() if str(c.get("url", "")).startswith("http://127.0.0.1:")]
