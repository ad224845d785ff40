"""Faults injected into a `python bot.py` started by the reliability suites.

Python imports this file at start-up when its folder is on PYTHONPATH; METROBOT_TEST_FAULTS
lists what to break (comma-separated, `name` or `name:probability`):

  kill_after_commit:P   after a write transaction commits, die at once (SIGKILL) with
                        probability P: the worst moment, the move saved, nothing posted yet
  skip_commit           roll back instead of committing while answering as if saved
  no_outbox             store nothing of what a change owes the channel and the players
  no_dedup              never mark a message delivered and never look for an earlier copy
                        before re-sending what is owed
  leases:S              (no fault: a setting) the outbox's send and sweep leases are S
                        seconds instead of 10 and 20, so that short lives see what a dead
                        process left owed delivered
  clock_lease:S         (no fault: a setting) a turn clock claimed by a process that died
                        is free again after S seconds instead of 60
  kill_while_editing:P  when an owed edit (a status message, old turn posts' buttons) has
                        been made but not yet marked done, die at once with probability P
  no_edits              owed edits (status messages, tidied turn posts) are marked done
                        without being made
  db_faults_unknown     the database's transient faults are not recognised (storage takes
                        every one for a bug, as before issue 39)

Only tests use this; the bot knows nothing of it.
"""
from __future__ import annotations

import os
import random
import signal


def _faults() -> dict[str, float]:
    out = {}
    for item in filter(None, os.environ.get("METROBOT_TEST_FAULTS", "").split(",")):
        name, _, p = item.partition(":")
        out[name.strip()] = float(p) if p else 1.0
    return out


FAULTS = _faults()
RND = random.Random(os.environ.get("METROBOT_TEST_FAULT_SEED", "0"))

if FAULTS:
    import aiosqlite

    from metrobot.discord_app import recovery
    from metrobot.service.core import ServiceCore
    from metrobot.storage.db import Database

    if "kill_after_commit" in FAULTS:
        original_write = Database._write

        async def _write(self, *args, **kwargs):
            await original_write(self, *args, **kwargs)
            if RND.random() < FAULTS["kill_after_commit"]:
                os.kill(os.getpid(), signal.SIGKILL)
        Database._write = _write

    if "skip_commit" in FAULTS:
        original_execute = aiosqlite.Connection.execute

        def execute(self, sql, *args, **kwargs):
            return original_execute(self, "ROLLBACK" if sql == "COMMIT" else sql, *args, **kwargs)
        aiosqlite.Connection.execute = execute

    if "no_outbox" in FAULTS:
        ServiceCore._owe = staticmethod(lambda outcome, position: [])

    if "leases" in FAULTS:
        from metrobot.storage import outbox

        outbox.SEND_LEASE = outbox.LEASE = FAULTS["leases"]

    if "clock_lease" in FAULTS:
        from metrobot.storage import db

        db.CLOCK_LEASE = FAULTS["clock_lease"]

    if "kill_while_editing" in FAULTS:
        original_delivered = ServiceCore.delivered

        async def delivered_then_maybe_die(self, message, message_id=None):
            if message.edit and RND.random() < FAULTS["kill_while_editing"]:
                os.kill(os.getpid(), signal.SIGKILL)
            await original_delivered(self, message, message_id)
        ServiceCore.delivered = delivered_then_maybe_die

    if "no_edits" in FAULTS:
        from metrobot.service.status import Status

        async def nothing_to_edit(self, message):
            return []
        Status.edits = nothing_to_edit

    if "db_faults_unknown" in FAULTS:
        from metrobot.storage import outage, postgres, sqlite

        postgres.kind_of = sqlite.kind_of = lambda exc: None
        outage.SHORT_LIVED = frozenset()

    if "no_dedup" in FAULTS:
        async def delivered(self, message):
            return None

        async def already_sent(*args, **kwargs):
            return False
        ServiceCore.delivered = delivered
        recovery._already_sent = already_sent
