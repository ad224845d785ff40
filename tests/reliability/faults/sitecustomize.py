"""Faults injected into a `python bot.py` started by the reliability suites.

Python imports this file at start-up when its folder is on PYTHONPATH; METROBOT_TEST_FAULTS
lists what to break (comma-separated, `name` or `name:probability`):

  kill_after_commit:P   after a write transaction commits, die at once (SIGKILL) with
                        probability P: the worst moment, the move saved, nothing posted yet
  kill_in_tournament:P  the same after a tournament's own commits: a change of it (a round
                        closed and the next paired, a sign-up, a drop), a table's thread
                        recorded, a table's game created (and not yet started)
  skip_commit           roll back instead of committing while answering as if saved
  no_outbox             store nothing of what a change owes the channel and the players
  no_dedup              never mark a message delivered, never look for an earlier copy
                        before re-sending what is owed, and send without the outbox item's
                        nonce (with which Discord itself makes no second message)
  leases:S              (no fault: a setting) the outbox's send and sweep leases are S
                        seconds instead of 10 and 20, so that short lives see what a dead
                        process left owed delivered
  clock_lease:S         (no fault: a setting) a turn clock claimed by a process that died
                        is free again after S seconds instead of 60
  kill_after_takeback:P when a move has been taken back (committed, its post not yet edited,
                        the answer not yet given), die at once with probability P
  kill_while_editing:P  when an owed edit (a status message, old turn posts' buttons) has
                        been made but not yet marked done, die at once with probability P
  no_edits              owed edits (status messages, tidied turn posts) are marked done
                        without being made
  kill_mid_pairing:N    when a tournament table's thread has been made on Discord but not yet
                        recorded, die at once — the N-th time in this process's life (a
                        round's pairing cut off half-way through its threads)
  kill_after_found      die at once when the matching of "find a game" has committed the tables
                        it found (their threads owed, none made yet) — the first time in this
                        process's life
  kill_mid_found_thread when a found table's thread has been made on Discord but not yet
                        recorded, die at once — the first time in this process's life
  toy                   (no fault) the toy game of tests/toygame is registered, as a game
                        shipped outside the package would be
  kill_in_forget:N      die at once when an erasure (/me forget) has committed its N-th
                        step: a seat handed to the automatic player, or a game renamed
  db_faults_unknown     the database's transient faults are not recognised (storage takes
                        every one for a bug, as before issue 39)
  kill_before_farewell_deleted  die at once when a farewell ("Done" after an erasure another
                        process finished) has been sent by DM, before it is deleted
  kill_after_digest     die at once when a reminder digest has been recorded with its DM owed
                        (committed), before the DM is sent
  kill_after_follow_dm  the same for a follower's DM
  kill_after_daily_created  die at once when a day's challenge game has been created with its
                        day's row (committed), before it is dealt (started)
  kill_after_daily_table  die at once when yesterday's daily challenge table has been recorded
                        as owed to a server's channel (committed), before it is posted
  digest_not_owed       a digest is recorded without the DM it owes (the DM only in memory)
  kill_in_expiry        die at once when a turn clock has run out and the automatic player has
                        moved for those out of time, before that is saved
  kill_after_expiry     die at once when a turn clock's expiry (the automatic player's move)
                        has been committed with the post it owes, before the post is sent
  clock_ahead:S         (no fault: a setting) the service's clock runs S seconds ahead of the
                        log's, so that games look as old as a digest needs
  fast_commits          (no fault: a setting) SQLite commits without an fsync (synchronous
                        NORMAL), as the tests' own process does (tests/conftest.py); the
                        harness's `start_bot_process` adds it unless asked for fsync
  kill_at_confirm_ack   die at once when a confirmation that starts background work (the
                        /me forget box, a tournament's start or abort) has been acknowledged
                        (its deferral answered by Discord), before anything else happens

Only tests use this; the bot knows nothing of it.
"""

from __future__ import annotations

import gc
import os
import random
import signal
import sys


def _faults() -> dict[str, float]:
    out = {}
    for item in filter(None, os.environ.get("METROBOT_TEST_FAULTS", "").split(",")):
        name, _, p = item.partition(":")
        out[name.strip()] = float(p) if p else 1.0
    return out


FAULTS = _faults()
RND = random.Random(os.environ.get("METROBOT_TEST_FAULT_SEED", "0"))
# The processes multiprocessing starts beside the bot (its resource tracker, the drawing
# workers' fork server: `python -c ...`) inherit the environment: the faults break nothing
# there, and importing the bot for them cost each 0.5 s of CPU at every start. Only `toy`
# applies there too (the workers play the automatic player, and need the game).
BESIDE_THE_BOT = sys.argv[:1] == ["-c"]

# What is imported here is the bot's own start-up, which bot.py imports with the collector off
# (see there): so is it here, until this file is done.
_COLLECTING = gc.isenabled()
gc.disable()

if "toy" in FAULTS:
    from metrobot import games
    from tests.toygame import PLUGIN

    games.register(PLUGIN)

if FAULTS and not BESIDE_THE_BOT:
    import aiosqlite

    from metrobot.discord_app import delivery, recovery
    from metrobot.service.outbox import Outbox
    from metrobot.storage.db import Database

    if "kill_after_commit" in FAULTS:
        original_write = Database._write

        async def _write(self, *args, **kwargs):
            await original_write(self, *args, **kwargs)
            if RND.random() < FAULTS["kill_after_commit"]:
                os.kill(os.getpid(), signal.SIGKILL)

        Database._write = _write

    if "kill_after_takeback" in FAULTS:
        from metrobot.turns.takeback import TakeBack

        original_take_back = TakeBack.take_back

        async def take_back_then_maybe_die(self, *args, **kwargs):
            out = await original_take_back(self, *args, **kwargs)
            if RND.random() < FAULTS["kill_after_takeback"]:
                os.kill(os.getpid(), signal.SIGKILL)
            return out

        TakeBack.take_back = take_back_then_maybe_die

    if "kill_in_tournament" in FAULTS:

        def dying(original, only_linked=False):
            async def write_then_maybe_die(self, *args, **kwargs):
                out = await original(self, *args, **kwargs)
                if (not only_linked or kwargs.get("linked")) and RND.random() < FAULTS["kill_in_tournament"]:
                    os.kill(os.getpid(), signal.SIGKILL)
                return out

            return write_then_maybe_die

        from metrobot.storage.tournaments import TournamentQueries  # (db.tournaments)

        for name in ("save_tournament", "table_thread"):
            setattr(TournamentQueries, name, dying(getattr(TournamentQueries, name)))
        Database.create_game = dying(Database.create_game, only_linked=True)

    if "skip_commit" in FAULTS:
        original_execute = aiosqlite.Connection.execute

        def execute(self, sql, *args, **kwargs):
            return original_execute(self, "ROLLBACK" if sql == "COMMIT" else sql, *args, **kwargs)

        aiosqlite.Connection.execute = execute

    if "no_outbox" in FAULTS:
        import sys

        from metrobot.service import outcome

        # every module that says what it owes calls owe: none of them owes anything now
        real_owe = outcome.owe
        for module in [m for name, m in sys.modules.items() if name.startswith("metrobot.")]:
            if getattr(module, "owe", None) is real_owe:
                module.owe = lambda said, position: []

    if "leases" in FAULTS:
        from metrobot.storage import erasure_dms, outbox, tournaments, tourney_outbox

        outbox.SEND_LEASE = outbox.LEASE = erasure_dms.LEASE = FAULTS["leases"]
        tourney_outbox.LEASE = tournaments.DUE_LEASE = FAULTS["leases"]
        from metrobot.storage import queue

        queue.LEASE = FAULTS["leases"]

    if "fast_commits" in FAULTS:
        from metrobot.storage import sqlite

        sqlite.SYNCHRONOUS = "NORMAL"

    if "kill_after_found" in FAULTS:
        from metrobot.storage.queue import QueueQueries

        original_form = QueueQueries.form_tables

        async def form_then_die(self, *args, **kwargs):
            out = await original_form(self, *args, **kwargs)
            if out:
                os.kill(os.getpid(), signal.SIGKILL)
            return out

        QueueQueries.form_tables = form_then_die

    if "kill_mid_found_thread" in FAULTS:
        from metrobot.discord_app import finding

        original_found_thread = finding._thread

        async def found_thread_then_die(channel, item, **how):  # (how: a forum's post or a thread)
            await original_found_thread(channel, item, **how)
            os.kill(os.getpid(), signal.SIGKILL)

        finding._thread = found_thread_then_die

    if "kill_mid_pairing" in FAULTS:
        from metrobot.discord_app import tournament_delivery

        original_thread = tournament_delivery._thread
        made = [0]

        async def thread_then_maybe_die(client, hall, item):
            thread = await original_thread(client, hall, item)
            made[0] += 1
            if made[0] == int(FAULTS["kill_mid_pairing"]):
                os.kill(os.getpid(), signal.SIGKILL)
            return thread

        tournament_delivery._thread = thread_then_maybe_die

    if "clock_lease" in FAULTS:
        from metrobot.storage import db

        db.CLOCK_LEASE = FAULTS["clock_lease"]

    if "kill_while_editing" in FAULTS:
        original_delivered = Outbox.delivered

        async def delivered_then_maybe_die(self, message, message_id=None):
            if message.edit and RND.random() < FAULTS["kill_while_editing"]:
                os.kill(os.getpid(), signal.SIGKILL)
            await original_delivered(self, message, message_id)

        Outbox.delivered = delivered_then_maybe_die

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

        async def delivered(self, message, *args, **kwargs):  # (its signature: a post's id too)
            return None

        async def already_sent(*args, **kwargs):
            return False

        def no_nonce(message):
            return None

        Outbox.delivered = delivered
        recovery._already_sent = already_sent
        delivery.nonce = recovery.nonce = no_nonce

    if "kill_in_forget" in FAULTS:
        from metrobot.privacy.forget import Forget
        from metrobot.storage.privacy import PrivacyQueries

        steps = [0]

        def step_done():
            steps[0] += 1
            if steps[0] >= FAULTS["kill_in_forget"]:
                os.kill(os.getpid(), signal.SIGKILL)

        original_leave, original_rename = Forget._leave, PrivacyQueries.rename_game

        async def leave_then_maybe_die(self, *args, **kwargs):
            out = await original_leave(self, *args, **kwargs)
            if out:
                step_done()
            return out

        async def rename_then_maybe_die(self, *args, **kwargs):
            done = await original_rename(self, *args, **kwargs)
            if done:
                step_done()
            return done

        Forget._leave = leave_then_maybe_die
        PrivacyQueries.rename_game = rename_then_maybe_die

    if "kill_at_confirm_ack" in FAULTS:
        import discord

        original_defer = discord.InteractionResponse.defer

        def confirming(interaction) -> bool:
            data = interaction.data or {}
            custom = str(data.get("custom_id", ""))
            if custom.startswith("mb:fgm:") or (custom.startswith("mb:tn:") and custom.endswith(":start")):
                return True
            command = interaction.command.qualified_name if interaction.command else ""
            return command in ("tournament start", "tournament abort")

        async def defer_then_die(self, *args, **kwargs):
            out = await original_defer(self, *args, **kwargs)
            if confirming(self._parent) and RND.random() < FAULTS["kill_at_confirm_ack"]:
                os.kill(os.getpid(), signal.SIGKILL)
            return out

        discord.InteractionResponse.defer = defer_then_die

    if "kill_before_farewell_deleted" in FAULTS:
        from metrobot.privacy.forget import Forget

        async def die_before_deleting(self, farewell_id):
            os.kill(os.getpid(), signal.SIGKILL)

        Forget.farewell_said = die_before_deleting  # (before Privacy, built later, hands it on)

    if "digest_not_owed" in FAULTS:
        from metrobot.storage import reminders

        original_record_digest = reminders.ReminderQueries.record_digest

        async def record_without_its_dm(self, *args, **kwargs):
            real_insert = reminders.outbox.insert

            async def nothing(*_args, **_kwargs):
                return None

            reminders.outbox.insert = nothing
            try:
                return await original_record_digest(self, *args, **kwargs)
            finally:
                reminders.outbox.insert = real_insert

        reminders.ReminderQueries.record_digest = record_without_its_dm

    if "kill_after_digest" in FAULTS or "kill_after_follow_dm" in FAULTS:
        from metrobot.storage.reminders import ReminderQueries

        def recorded_then_die(original):
            async def record(self, *args, **kwargs):
                made = await original(self, *args, **kwargs)
                if made:
                    os.kill(os.getpid(), signal.SIGKILL)
                return made

            return record

        if "kill_after_digest" in FAULTS:
            ReminderQueries.record_digest = recorded_then_die(ReminderQueries.record_digest)
        if "kill_after_follow_dm" in FAULTS:
            ReminderQueries.record_follow = recorded_then_die(ReminderQueries.record_follow)

    if "kill_after_daily_created" in FAULTS:
        from metrobot.storage.db import Database as _Database

        original_create = _Database.create_game

        async def create_then_maybe_die(self, *args, **kwargs):
            row = await original_create(self, *args, **kwargs)
            if row.settings.get("daily"):
                os.kill(os.getpid(), signal.SIGKILL)
            return row

        _Database.create_game = create_then_maybe_die

    if "kill_after_daily_table" in FAULTS:
        from metrobot.storage.daily import DailyQueries

        original_owe = DailyQueries.owe_post

        async def owe_then_die(self, *args, **kwargs):
            made = await original_owe(self, *args, **kwargs)
            if made:
                os.kill(os.getpid(), signal.SIGKILL)
            return made

        DailyQueries.owe_post = owe_then_die
    if "kill_in_expiry" in FAULTS:
        from metrobot.turns.turns import Turns

        original_settle = Turns.settle

        async def settle_or_die(self, move, *args, **kwargs):
            if (move.note or "").startswith("⏰"):  # (the turn clock's expiry, clock.py)
                os.kill(os.getpid(), signal.SIGKILL)
            return await original_settle(self, move, *args, **kwargs)

        Turns.settle = settle_or_die

    if "kill_after_expiry" in FAULTS:
        from metrobot.turns.clock import Clock

        original_tick_game = Clock.tick_game

        async def expired_then_die(self, *args, **kwargs):
            out = await original_tick_game(self, *args, **kwargs)
            if out is not None and any(m.text.startswith("⏰") for m in out.public):
                os.kill(os.getpid(), signal.SIGKILL)
            return out

        Clock.tick_game = expired_then_die

    if "clock_ahead" in FAULTS:
        import time

        from metrobot.wiring import GameService

        original_init = GameService.__init__

        def ahead(self, *args, **kwargs):
            original_init(self, *args, **kwargs)
            self.clock = lambda: time.time() + FAULTS["clock_ahead"]

        GameService.__init__ = ahead

if _COLLECTING:
    gc.enable()
