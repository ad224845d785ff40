"""Looking at a game: status, the board, a player's hand. Each is a private
reply, in the asker's language (`me()`), images included."""
from __future__ import annotations

from ..i18n import N_, lang, me
from .core import ServiceCore, hours, shown, title
from .time_off import is_away
from .outcome import Message, Outcome, Refused

STATUS_WORDS = {"lobby": N_("lobby"), "active": N_("active"), "finished": N_("finished"), "aborted": N_("aborted")}


class Queries(ServiceCore):
    async def status(self, channel_id: str, user_id: str) -> Outcome:
        row = await self.db.open_game(channel_id) or await self.db.last_game(channel_id)
        mine = me()
        if row is None:
            raise Refused(mine.t("No game in this channel yet. Start one with `/game new`."))
        plugin = self._plugin(row)
        game = plugin.game
        if row.status == "lobby":
            return Outcome(reply=self._lobby_message(plugin, row, mine))
        state = self._state(plugin, row)
        name = self._namer(plugin, state, row, mine)
        viewer = user_id if game.seats_of(state, user_id) else None
        status = mine.t(STATUS_WORDS[row.status]) if row.status in STATUS_WORDS else row.status
        lines = [mine.t("**{game}** — {status}.", game=title(plugin, mine), status=status)]
        scores = game.view(state, None).get("scores", {})
        lines.append(mine.t("Scores: {scores}", scores=", ".join(f"{name(s)} {scores.get(s, 0)}"
                                                                 for s in game.seats(state))))
        if row.status == "active":
            lines.append(self._prompt(plugin, state, row, mention=False, language=mine))
            if row.deadline:
                lines.append(mine.t("Turn clock: {clock}; time is up {when}.", clock=hours(row.turn_clock, mine),
                                    when=f"<t:{int(row.deadline)}:R>"))
        now = self.clock()
        away = [p for p in (await self._people(row)).values() if is_away(p, now)]
        if away and row.status == "active":
            lines.append(mine.t("Away: {who}.", who=", ".join(mine.t("{name} until {when}", name=row.names.get(
                p.user_id, p.user_id), when=f"<t:{int(p.away_until)}:f>") for p in away)))
            if row.paused is not None:
                lines.append(mine.t("The turn clock is stopped while the game waits for someone away."))
        left = [shown(s.user_id, s.name, mine) for s in row.seats if s.auto]
        if left:
            lines.append(mine.t("Played by the automatic player: {names}.", names=", ".join(left)))
        image = await self._image(plugin, state, row, viewer, language=mine)
        return Outcome(reply=Message("\n".join(lines), [image] if image else []))

    async def board(self, channel_id: str, user_id: str) -> Outcome:
        row = await self.db.open_game(channel_id) or await self.db.last_game(channel_id)
        if row is None or row.state is None:
            raise Refused(me().t("No game is running in this channel."))
        plugin = self._plugin(row)
        state = self._state(plugin, row)
        viewer = user_id if plugin.game.seats_of(state, user_id) else None
        image = await self._image(plugin, state, row, viewer, language=me())
        text = me().t("Your view of the board.") if viewer else me().t("The board (spectator view).")
        return Outcome(reply=Message(text, [image] if image else []))

    async def hand(self, channel_id: str, user_id: str) -> Outcome:
        row = await self._open(channel_id)
        plugin = self._plugin(row)
        game = plugin.game
        state = self._state(plugin, row)
        self._seated(row, user_id)
        text = plugin.hand_text(game.view(state, user_id), game.seats_of(state, user_id), me())
        image = await self._image(plugin, state, row, user_id, language=me())
        return Outcome(reply=Message(text or me().t("Nothing is secret in this game: everything is on the board."),
                                     [image] if image else []))

    async def dms_closed_notice(self, channel_id: str, user_ids: list[str]) -> Message:
        """What the channel is told when DMs to these players failed: nothing secret, in
        the game's language, and where to look instead."""
        row = await self.db.open_game(channel_id) or await self.db.last_game(channel_id)
        language = self._lang(row) if row is not None else lang(None)
        who = ", ".join(f"<@{u}>" for u in user_ids)
        return Message(language.t("📭 I couldn't send {who} a direct message (DMs closed?). Use `/hand` here to "
                                  "see your secret hand privately.", who=who), mentions=list(user_ids))
