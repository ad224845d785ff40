"""Looking at a game: status, the board, a player's hand. Each is a private
reply, in the requester's language (`me()`), images included."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..games.alttext import pages as text_pages
from ..i18n import N_, lang, me
from ..i18n import words as part
from ..service.core import hours, shown, title
from ..service.outcome import Controls, File, Message, Outcome, Refused
from ..service.time_off import is_away
from ..service.turnclock import BANK, banks_line, describe, policy
from ..storage import GameRow

if TYPE_CHECKING:
    from ..service.core import Games, ServiceOptions
    from ..service.pictures.drawing import Drawing
    from ..storage import Database
    from .lobby import Lobby

TEXT_PAGE = 1900  # a text board's page: a message's 2,000 characters less its heading
STATUS_WORDS = {"lobby": N_("lobby"), "active": N_("active"), "finished": N_("finished"), "aborted": N_("aborted")}


class Queries:
    def __init__(self, db: Database, options: ServiceOptions, games: Games, drawing: Drawing, lobby: Lobby):
        self.db = db
        self.options = options
        self.games = games
        self.drawing = drawing
        self.lobby = lobby

    async def open_game_id(self, channel_id: str) -> int | None:
        """The id of a channel's lobby or active game, or None."""
        row = await self.db.open_game(channel_id)
        return row.id if row is not None else None

    async def running_game(self, channel_id: str) -> GameRow | None:
        """A channel's game under way (dealt and not over), or None: none, or still its lobby."""
        row = await self.db.open_game(channel_id)
        return row if row is not None and row.status == "active" and row.state is not None else None

    async def game(self, game_id: int) -> GameRow | None:
        """A game as stored (whatever its status), or None: no such game."""
        return await self.db.game(game_id)

    async def logged_actions(self, game_id: int) -> list[dict[str, Any]]:
        """The game's log: every action played so far, in order, each with its `actor`."""
        return await self.db.actions(game_id)

    async def status(self, channel_id: str, user_id: str) -> Outcome:
        row = await self.db.open_game(channel_id) or await self.db.last_game(channel_id)
        mine = me()
        if row is None:
            raise Refused(
                mine.t(
                    "No game in this channel yet. Start one with {command}.",
                    command=part.command("game new", mine.code),
                )
            )
        plugin = self.games.plugin(row)
        game = plugin.game
        if row.status == "lobby":
            return Outcome(reply=await self.lobby.lobby_post(plugin, row, mine))
        state = self.games.state(plugin, row)
        name = self.games.namer(plugin, state, row, mine)
        viewer = user_id if game.seats_of(state, user_id) else None
        status = mine.t(STATUS_WORDS[row.status]) if row.status in STATUS_WORDS else row.status
        lines = [mine.t("**{game}** — {status}.", game=title(plugin, mine), status=status)]
        scores = game.view(state, None).get("scores", {})
        lines.append(
            mine.t(
                "Scores: {scores}", scores=mine.enumerated(f"{name(s)} {scores.get(s, 0)}" for s in game.seats(state))
            )
        )
        if row.status == "active":
            lines.append(self.games.prompt(plugin, state, row, mention=False, language=mine))
            if row.deadline and policy(row) is not BANK:
                lines.append(
                    mine.t(
                        "Turn clock: {clock}; time is up {when}.",
                        clock=hours(row.turn_clock, mine),
                        when=part.time(row.deadline, "R"),
                    )
                )
        now = self.options.clock()
        people = await self.games.people(row)
        banks = policy(row).left(row, people, now) if row.status == "active" else None
        if banks is not None:  # a bank clock: its terms and each player's bank (turnclock.py)
            terms = describe(BANK.terms(row), mine, titled=True)
            lines.append(
                mine.t("Bank clock: {terms}; time is up {when}.", terms=terms, when=part.time(row.deadline, "R"))
                if row.deadline
                else mine.t("Bank clock: {terms}.", terms=terms)
            )
            lines.append(banks_line(row, banks, mine, lambda u: shown(u, row.names.get(u, u), mine)))
        away = [p for p in people.values() if is_away(p, now)]
        if away and row.status == "active":
            lines.append(
                mine.t(
                    "Away: {who}.",
                    who=mine.enumerated(
                        mine.t(
                            "{name} until {when}",
                            name=row.names.get(p.user_id, p.user_id),
                            when=part.time(p.away_until or 0, "f"),
                        )
                        for p in away
                    ),
                )
            )
            if row.paused is not None:
                lines.append(mine.t("The turn clock is stopped while the game waits for someone away."))
        left = [shown(s.user_id, s.name, mine) for s in row.seats if s.auto]
        if left:
            lines.append(mine.t("Played by the automatic player: {names}.", names=mine.enumerated(left)))
        image = await self.drawing.image(
            plugin, state, row, viewer, language=mine, vision=await self.drawing.vision_of(user_id)
        )
        return Outcome(reply=Message("\n".join(lines), [image] if image else []))

    async def board(self, channel_id: str, user_id: str) -> Outcome:
        row = await self.db.open_game(channel_id) or await self.db.last_game(channel_id)
        if row is None or row.state is None:
            raise Refused(me().t("No game is running in this channel."))
        plugin = self.games.plugin(row)
        state = self.games.state(plugin, row)
        viewer = user_id if plugin.game.seats_of(state, user_id) else None
        image = await self.drawing.image(
            plugin, state, row, viewer, language=me(), vision=await self.drawing.vision_of(user_id)
        )
        text = me().t("Your view of the board.") if viewer else me().t("The board (spectator view).")
        # 📄 next to the picture: the same position as text, for a screen reader
        controls = Controls("astext", row.id, row.game, 0, board_label=me().p("button", "📄 As text"))
        return Outcome(reply=Message(text, [image] if image else [], controls=controls))

    async def board_text(
        self, channel_id: str, user_id: str, page: int | None = None, *, game_id: int | None = None
    ) -> Outcome:
        """`/board format:text`: the position in words for a screen reader, from the requester's
        view (a player's own, else a spectator's), privately: page `page` (from 0) of it with
        ◀ ▶ when it runs past one message, and the whole of it as a .txt file."""
        row = await self.db.open_game(channel_id) or await self.db.last_game(channel_id)
        if row is None or row.state is None:
            raise Refused(me().t("No game is running in this channel."))
        if game_id is not None and row.id != game_id:
            raise Refused(me().t("These controls belong to an earlier game in this channel."))
        plugin = self.games.plugin(row)
        game, mine = plugin.game, me()
        state = self.games.state(plugin, row)
        viewer = user_id if game.seats_of(state, user_id) else None
        names = self.drawing.names_for_images(plugin, state, row, mine)
        waiting = tuple(s for s in game.seats(state) if s in game.to_move(state))
        lines = plugin.text_board(game.view(state, viewer), viewer, names, mine, waiting=waiting)
        pages = text_pages(lines, TEXT_PAGE)
        k = min(max(page or 0, 0), len(pages) - 1)
        heading = (
            mine.t("📄 The board as text (page {page} of {pages}):", page=k + 1, pages=len(pages))
            if len(pages) > 1
            else mine.t("📄 The board as text:")
        )
        whole = "\n".join(lines).strip() + "\n"
        attached = File(
            f"{row.game}-{row.id}-{row.moves}.txt",
            whole.encode(),
            mine.n(
                "The same position as a text file: {n} line.",
                "The same position as a text file: {n} lines.",
                whole.count("\n"),
                n=whole.count("\n"),
            ),
        )
        controls = Controls("text", row.id, row.game, k, total=len(pages) - 1) if len(pages) > 1 else None
        return Outcome(reply=Message(f"{heading}\n{pages[k]}", [attached], controls=controls))

    async def hand(self, channel_id: str, user_id: str) -> Outcome:
        row = await self.games.open_game(channel_id)
        plugin = self.games.plugin(row)
        game = plugin.game
        state = self.games.state(plugin, row)
        self.games.seated(row, user_id)
        text = plugin.hand_text(game.view(state, user_id), game.seats_of(state, user_id), me())
        image = await self.drawing.image(
            plugin, state, row, user_id, language=me(), vision=await self.drawing.vision_of(user_id)
        )
        return Outcome(
            reply=Message(
                text or me().t("Nothing is secret in this game: everything is on the board."), [image] if image else []
            )
        )

    async def dms_closed_notice(self, channel_id: str, user_ids: list[str]) -> Message:
        """What the channel is told when DMs to these players failed: nothing secret, in
        the game's language, and where to look instead."""
        row = await self.db.open_game(channel_id) or await self.db.last_game(channel_id)
        language = self.games.lang(row) if row is not None else lang(None)
        who = part.people(user_ids, separator=language.enumeration_comma)
        return Message(
            language.t(
                "📭 I couldn't send {who} a direct message (DMs closed?). Use {command} here to see your secret hand "
                "privately.",
                who=who,
                command=part.command("hand", language.code),
            ),
            mentions=list(user_ids),
        )
