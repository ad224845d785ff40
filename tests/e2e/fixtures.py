"""Fixtures for end-to-end tests against the local Discord stand-in (the ``standin`` package in this folder).

* ``standin``: a started :class:`standin.DiscordStandIn`, with this process's discord.py pointed at it
  (``discord.http.Route.BASE`` and the default gateway are restored afterwards). At teardown the
  test fails if the stand-in saw unknown endpoints or had internal errors (``standin.problems()``);
  set ``standin.allow_unknown_endpoints = True`` in a test to tolerate unknown endpoints. It
  fails too if any request the stand-in received is not valid by Discord's published API spec
  (``apispec.check_standin``; a test that sends one on purpose declares it with
  ``standin.expect_spec_violation``).
* ``run_client``: ``await run_client(client)`` starts ``client.start(standin.token)`` in a task and
  returns once the stand-in has sent it READY + GUILD_CREATE (so interactions can be driven; the
  client's ``on_ready`` comes ``guild_ready_timeout`` seconds later). It fails fast if the client
  task dies (e.g. an exception in ``setup_hook``). Every client started this way is closed at
  teardown. ``await run_client.stop(client)`` closes one earlier (e.g. to simulate a restart).

These fixtures know nothing about our bot; tests import their bot themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
import pytest_asyncio

from tests.e2e.apispec import check_standin, heading
from tests.e2e.harness import running_bot
from tests.e2e.standin import DiscordStandIn, StandInTimeout, point_discord_at


@pytest_asyncio.fixture
async def standin():
    server = DiscordStandIn()
    await server.start()
    restore = point_discord_at(server.api_base, server.gateway_url)
    try:
        yield server
    finally:
        restore()
        await server.stop()
    fail_on_problems(server)


def fail_on_problems(server: DiscordStandIn) -> None:
    """The stand-in's own problems, and every request it received since the last check that
    Discord's published API spec does not allow (tests/e2e/apispec)."""
    failures = []
    problems = server.problems()
    if problems:
        failures.append("Discord stand-in problems:\n" + "\n".join(problems))
    invalid = check_standin(server)
    if invalid:
        failures.append(heading(len(invalid)) + "\n" + "\n".join(invalid))
    if failures:
        pytest.fail("\n\n".join(failures), pytrace=False)


class ClientRunner:
    """Starts discord.py clients against the stand-in and makes sure they are all closed again."""

    def __init__(self, server: DiscordStandIn) -> None:
        self.server = server
        self.started: list[tuple[Any, asyncio.Task]] = []

    async def __call__(self, client: Any, *, timeout: float = 15.0) -> asyncio.Task:
        wanted = self.server.identify_count + 1
        task = asyncio.create_task(client.start(self.server.token), name=f"discord-client-{len(self.started)}")
        self.started.append((client, task))
        waiter = asyncio.create_task(self.server.wait_for_identify(wanted, timeout=timeout))
        done, _ = await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if waiter not in done:
            waiter.cancel()
            await asyncio.gather(waiter, return_exceptions=True)
            task.result()  # re-raises the client's exception
            raise RuntimeError("the discord client stopped before connecting to the stand-in")
        waiter.result()
        return task

    async def stop(self, client: Any, *, timeout: float = 10.0) -> None:
        for started_client, task in self.started:
            if started_client is client:
                if not client.is_closed():
                    await client.close()
                await asyncio.wait_for(asyncio.shield(task), timeout)
                task.result()

    async def close_all(self) -> None:
        for client, task in reversed(self.started):
            if not client.is_closed():
                await client.close()
            with contextlib.suppress(BaseException):  # the test already reported what went wrong with the client
                await asyncio.wait_for(task, 10)


@pytest_asyncio.fixture
async def run_client(standin: DiscordStandIn):
    runner = ClientRunner(standin)
    try:
        yield runner
    finally:
        await runner.close_all()


__all__ = ["ClientRunner", "StandInTimeout", "fail_on_problems", "run_client", "standin"]


@pytest.fixture
async def processes():
    """Bot processes a test starts (`processes(BotProcess(...))`) are killed at its end, whatever happened."""
    made = []
    yield lambda bot: made.append(bot) or bot
    for bot in made:
        await bot.kill()


@pytest.fixture
def start_bot(standin, run_client, tmp_path):
    """`await start_bot("name", "game", "me", tick=3600.0, clock=Clock(...))`: our bot on a
    database `name.sqlite3` in the test's folder, run in this process, once the stand-in has the
    commands named (tests/e2e/harness.py: running_bot; the other words are its settings)."""

    async def start(name: str, *commands: str, clock=None, **settings):
        return await running_bot(
            standin, run_client, str(tmp_path / f"{name}.sqlite3"), commands, clock=clock, **settings
        )

    return start
