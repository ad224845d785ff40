"""Looking at a game: status, the board, a player's hand, the rules."""
from __future__ import annotations

from ..games import BadInput, all_plugins, get_plugin
from .core import ServiceCore, hours
from .outcome import Message, Outcome, Refused


class Queries(ServiceCore):
    async def status(self, channel_id: str, user_id: str) -> Outcome:
        row = await self.db.open_game(channel_id) or await self.db.last_game(channel_id)
        if row is None:
            raise Refused("No game in this channel yet. Start one with `/game new`.")
        plugin = self._plugin(row)
        game = plugin.game
        if row.status == "lobby":
            return Outcome(reply=self._lobby_message(plugin, row))
        state = self._state(plugin, row)
        name = self._namer(plugin, state, row)
        viewer = user_id if game.seats_of(state, user_id) else None
        lines = [f"**{game.title}** — {row.status}."]
        scores = game.view(state, None).get("scores", {})
        lines.append("Scores: " + ", ".join(f"{name(s)} {scores.get(s, 0)}" for s in game.seats(state)))
        if row.status == "active":
            lines.append(self._prompt(plugin, state, row, mention=False))
            if row.deadline:
                lines.append(f"Turn clock: {hours(row.turn_clock)}; time is up <t:{int(row.deadline)}:R>.")
        left = [s.name for s in row.seats if s.auto]
        if left:
            lines.append("Played by the automatic player: " + ", ".join(left) + ".")
        image = await self._image(plugin, state, row, viewer)
        return Outcome(reply=Message("\n".join(lines), [image] if image else []))

    async def board(self, channel_id: str, user_id: str) -> Outcome:
        row = await self.db.open_game(channel_id) or await self.db.last_game(channel_id)
        if row is None or row.state is None:
            raise Refused("No game is running in this channel.")
        plugin = self._plugin(row)
        state = self._state(plugin, row)
        viewer = user_id if plugin.game.seats_of(state, user_id) else None
        image = await self._image(plugin, state, row, viewer)
        text = "Your view of the board." if viewer else "The board (spectator view)."
        return Outcome(reply=Message(text, [image] if image else []))

    async def hand(self, channel_id: str, user_id: str) -> Outcome:
        row = await self._open(channel_id)
        plugin = self._plugin(row)
        game = plugin.game
        state = self._state(plugin, row)
        self._seated(row, user_id)
        text = plugin.hand_text(game.view(state, user_id), game.seats_of(state, user_id))
        image = await self._image(plugin, state, row, user_id)
        return Outcome(reply=Message(text or "Nothing is secret in this game: everything is on the board.",
                                     [image] if image else []))

    async def rules(self, channel_id: str, game_name: str | None = None) -> Outcome:
        """The rules summary of the named game, else of this channel's game, else of the
        first game the bot offers."""
        if game_name is None:
            row = await self.db.open_game(channel_id) or await self.db.last_game(channel_id)
            game_name = row.game if row else all_plugins()[0].name
        try:
            return Outcome(reply=Message(get_plugin(game_name).rules))
        except BadInput as exc:
            raise Refused(str(exc)) from None
