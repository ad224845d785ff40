"""Taking a move back (issue 46): ↶ Take back under the mover's private confirmation.

A move recorded as one that may be taken back (takeback_window.py) is taken back when its mover
asks while nothing else has happened: no action logged after it (another person's move, the
automatic player's, the turn clock's), the game not over, the window open. The game's own
rule is asked again (`GamePlugin.can_take_back`, a pure function of the states around the
move), so a forged button is refused by the same rule that decides whether one is offered.

The take-back is logged like a move, `{"type": "takeback", "to": n}` (see games/logplay.py),
in one transaction that also restores the state (canonical JSON equal to the one before the
move), the turn clock as it was, settles unsent what the move held back (the next person's ping
and turn DM), and owes an edit of the move's channel post: it says the move was taken back, its
board is the board as it is again, and its buttons are live for the mover. Steps that did not
end a turn were never told to the channel, and their take-back is not either.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..games.logplay import is_takeback, takeback
from ..games.logplay import replay as replay_log
from ..games.plugin import GamePlugin
from ..i18n import me
from ..i18n import words as part
from ..replays.replays import taken_back_line
from ..service.core import hours
from ..service.outcome import Message, Outcome, Refused
from ..service.time_off import is_away
from ..service.turnclock import policy
from ..storage import Conflict, GameRow
from .takeback_window import clock_back, window

if TYPE_CHECKING:
    from ..service.core import Games, ServiceOptions
    from ..service.pictures.drawing import Drawing
    from ..service.status import Status
    from ..storage import Database


class TakeBack:
    def __init__(self, db: Database, options: ServiceOptions, games: Games, drawing: Drawing, status: Status):
        self.db = db
        self.options = options
        self.games = games
        self.drawing = drawing
        self.status = status

    async def _before(self, plugin: GamePlugin, row: GameRow, entries: list[dict[str, Any]], position: int) -> Any:
        """The state after the log's first `position` entries, replayed (a whole game's replay
        takes tens of milliseconds: nothing is kept for it)."""
        game = plugin.game
        start = game.new_game([s.user_id for s in row.seats], row.options, row.seed)
        return await asyncio.to_thread(replay_log, game, start, entries[:position])

    def _record(self, row: GameRow, user_id: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
        """The game's record of the move the person asks to take back, or the reason there is
        none for them: something happened since, it is someone else's, the game's settings or
        its rule keep it."""
        too_late = Refused(
            me().t(
                "Too late to take this move back: something has happened since (another move, or the "
                "automatic player's). A move can be taken back only while nothing has followed it."
            )
        )
        if row.status != "active" or not entries or len(entries) != row.moves:
            raise too_late
        record = row.takeback
        # The confirmation the button was under: the entries saved with the last one.
        last = [e for e in entries if e["at"] == entries[-1]["at"]]
        if record is not None and record.get("to") == row.moves:
            last = entries[record["from"] : record["to"]]
        if any(e["actor"] == "auto" or is_takeback(e["action"]) for e in last):
            raise too_late
        if not last or any(e["actor"] != user_id for e in last):
            raise Refused(me().t("Only the person who made a move can take it back."))
        if record is None or record.get("to") != row.moves:
            if window(row) <= 0:
                raise Refused(
                    me().t(
                        "Moves can't be taken back in this game: its settings turn it off ({command}).",
                        command=part.command("game settings takeback_minutes", me().code),
                    )
                )
            rule = self.games.plugin(row).takeback_rule
            raise Refused(me().t("This move can't be taken back. {rule}", rule=me().t(rule)))
        return record

    async def take_back(self, channel_id: str, user_id: str, *, game_id: int, moves: int) -> Outcome:
        """Take back the person's move that left the game at `moves` actions, if nothing has
        happened since and the game's rule allows it; refused, with the reason, otherwise."""
        async with self.games.lock(channel_id):
            row = await self.db.open_game(channel_id)
            if row is None or row.id != game_id:
                over = await self.db.game(game_id)
                if over is not None and over.channel_id == channel_id and over.status == "finished":
                    raise Refused(me().t("The game is over: its last move can't be taken back."))
                raise Refused(me().t("These controls belong to an earlier game in this channel."))
            entries = await self.db.actions(row.id) if moves == row.moves else []
            record = self._record(row, user_id, entries)
            taken = entries[record["from"] : record["to"]]
            now = self.options.clock()
            if now > record["until"]:
                raise Refused(
                    me().t(
                        "Too late to take this move back: in this game a move can be taken back for {window} "
                        "after it is made, and that time has passed.",
                        window=hours(window(row), me()),
                    )
                )
            plugin = self.games.plugin(row)
            game, seat = plugin.game, taken[0]["player"]
            state = self.games.state(plugin, row)
            before = await self._before(plugin, row, entries, record["from"])
            if not plugin.can_take_back(before, seat, [e["action"] for e in taken], state):
                raise Refused(me().t("This move can't be taken back. {rule}", rule=me().t(plugin.takeback_rule)))
            out, changes = await self.taken_back(row, plugin, state, before, seat, user_id, now)
            try:
                saved = await self.games.save(
                    row,
                    state=game.to_json(before),
                    actions=[(seat, takeback(record["from"]), user_id)],
                    says=out,
                    position=row.moves + 1,
                    withdraw=record["to"],
                    **changes,
                )
            except Conflict:
                raise Refused(
                    me().t("Someone else moved at the same moment; nothing was taken back. Look at the board.")
                ) from None
            self.games.remember(saved, before)
        return out

    async def taken_back(
        self, row: GameRow, plugin: GamePlugin, state: Any, before: Any, seat: str, user_id: str, now: float
    ) -> tuple[Outcome, dict[str, Any]]:
        """What a take-back says (the edit of the move's post, the status message, hands that
        change back, the reply) and the changes it makes to the game row."""
        record = row.takeback or {}
        people = await self.games.people(row)
        waiting = self.games.waiting_for(plugin, before, row)
        away = any(is_away(people[u], now) for u in waiting if u in people)
        changes: dict[str, Any] = {"waiting": waiting, "takeback": None, **clock_back(record, away, now)}
        if "banks" in record:  # the banks as before the move: no time given back (turnclock.py)
            restored = replace(
                row,
                settings={**row.settings, "banks": record["banks"]},
                waiting=waiting,
                deadline=record.get("deadline"),
                paused=record.get("paused"),
            )
            changes.update(policy(row).moved(restored, waiting, people, now, new_turn=False))
        position = row.moves + 1
        after = replace(row, moves=position, **changes)
        g = self.games.lang(row)
        name = self.games.namer(plugin, before, row, parts=True)(seat)
        out = Outcome(reply=Message(me().t("↶ Taken back: the game is as it was before your move; it is your turn.")))
        said = await self.db.people.posts_at(row.id, record["to"])
        if said:
            struck = [f"~~{line.strip()}~~" for _, p in said for line in p.get("text", "").splitlines() if line.strip()]
            prompt = self.games.prompt(plugin, before, after, mention=False)
            text = "\n".join([taken_back_line(name, g), *([prompt] if prompt else []), *struck])
            played = any((p.get("controls") or {}).get("kind") == "play" for _, p in said)
            edit = Message(
                text,
                edit="takeback",
                controls=self.games.play_controls(plugin, after) if played else None,
                images=self.drawing.channel_images(people, {"board": None})
                if any(p.get("images") for _, p in said)
                else [],
            )
            out.edits.append(edit)
            out.edits.append(await self.status.status_message(plugin, before, after))
            await self.drawing.draw(edit, plugin, before, row, position)
        if plugin.secret_hands:
            _, out.dms = self.games.hand_dms(
                plugin, before, row, self.games.hand_dms(plugin, state, row, people=people)[0], people
            )
        return out, changes
