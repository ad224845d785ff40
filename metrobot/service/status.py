"""A game's status message and its tidy channel.

The lobby post becomes the game's status message: once the game starts, every change that
alters what it says (a new turn, the clock, someone away, the end) owes an edit of it —
whose turn, the scores, the clock's deadline, a link to the latest board. Edits go through
the outbox like posts (an older owed edit is superseded by a newer one, and one made late
says what the newest says), so after a crash the message is brought up to date, never
posted again.

Tidy channel (a game setting, on by default): each new turn post owes an edit that takes
the buttons off the turn posts before it, so only the current turn has live controls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..games.plugin import GamePlugin
from ..i18n import words as part
from ..storage import GameRow
from .core import shown, title
from .outcome import Message
from .time_off import is_away
from .turnclock import banks_line, policy

if TYPE_CHECKING:
    from ..storage import Database
    from .core import Games, ServiceOptions

BOARD = "{board}"  # where the link to the latest board goes (filled in when the edit is made)


def jump_link(row: GameRow, message_id: str | None) -> str:
    """A link to a message of a game's channel (the channel itself before there is one)."""
    if not message_id:
        return part.channel(row.channel_id)
    return f"https://discord.com/channels/{row.guild_id or '@me'}/{row.channel_id}/{message_id}"


class Status:
    def __init__(self, db: Database, options: ServiceOptions, games: Games):
        self.db = db
        self.options = options
        self.games = games

    async def status_message(self, plugin: GamePlugin, state: Any, row: GameRow) -> Message:
        """The status message as it should read after a change (`row`: the game as saved)."""
        g, game = self.games.lang(row), plugin.game
        name = self.games.namer(plugin, state, row, parts=True)
        lines = []
        if row.status == "aborted":
            lines.append(g.t("📋 **{game}** — aborted.", game=title(plugin, g)))
        elif state is not None and game.is_over(state):
            ranking = plugin.final_ranking(state)
            first = [p for p, place in ranking.items() if place == 1]
            won = g.enumerated(part.name(p, shown(p, row.names.get(p, p), g)) for p in first)
            lines.append(
                g.n(  # (several winners share the win: a plural verb)
                    "📋 **{game}** — finished: {winners} won.",
                    "📋 **{game}** — finished: {winners} share the win.",
                    len(first),
                    game=title(plugin, g),
                    winners=won,
                )
            )
        else:
            lines.append(g.t("📋 **{game}** — in progress.", game=title(plugin, g)))
            who = g.enumerated(self.games.named(row, u) for u in row.waiting) or name(
                sorted(game.to_move(state), key=game.seats(state).index)[0]
            )
            if row.paused is not None:
                people = await self.db.people.people(row.waiting)
                away = [p for p in people.values() if is_away(p, self.options.clock())]
                until = max((p.away_until or 0 for p in away), default=self.options.clock())  # (away: set)
                lines.append(
                    g.t(
                        "Waiting for {who}; the turn clock is stopped until {away} is back ({when}).",
                        who=who,
                        away=g.enumerated(self.games.named(row, p.user_id) for p in away) or who,
                        when=part.time(until, "R"),
                    )
                )
            elif row.deadline is not None:
                lines.append(g.t("Waiting for {who}; time is up {when}.", who=who, when=part.time(row.deadline, "R")))
            else:
                lines.append(g.t("Waiting for {who}.", who=who))
            banks = policy(row).left(row, await self.db.people.people(row.waiting), self.options.clock())
            if banks is not None:  # a bank clock: each player's bank (turnclock.py)
                lines.append(banks_line(row, banks, g, lambda u: self.games.named(row, u)))
        if state is not None:
            scores = game.view(state, None).get("scores", {})
            lines.append(
                g.t("Scores: {scores}", scores=g.enumerated(f"{name(s)} {scores.get(s, 0)}" for s in game.seats(state)))
            )
        lines.append(g.t("Latest board: {board}", board=BOARD))
        return Message("\n".join(lines), edit="status")

    @staticmethod
    def tidy(row: GameRow, *, everything: bool = False) -> list[Message]:
        """The edit that takes the buttons off the turn posts before the one just owed (with
        `everything`, off the last one too: the game was stopped); none if the game keeps them."""
        return [Message("", edit="tidy-all" if everything else "tidy")] if row.settings.get("tidy", True) else []

    async def edits(self, message: Message) -> list[tuple[str, str | None]] | None:
        """What an owed edit changes now: (message id, its new text, or None to only take its
        buttons off), for the front end to make; None: not yet (what it edits is still owed)."""
        item = message.owed
        if item is None or item.game_id is None:
            return []
        if message.edit == "status":
            if await self.db.people.board_owed_before(item):
                return None  # (its link names the latest board: it goes out after that board)
            where = await self.db.people.status_message(item.game_id)
            row = await self.db.game(item.game_id)
            if where is None or row is None:
                return []
            board = (await self.db.people.last_boards([item.game_id])).get(item.game_id)
            # What the newest status edit says, not this one: an edit made late (a restarted
            # process redoing what a dead one left, a slow sender) must not undo a newer one.
            text = await self.db.people.newest_status(item) or message.text
            return [(where, text.replace(BOARD, jump_link(row, board)))]
        if message.edit in ("tidy", "tidy-all"):
            return [(mid, None) for mid in await self.db.people.untidied(item)]
        if message.edit == "takeback":  # the posts of the move taken back: the one just before it
            posts = await self.db.people.posts_at(item.game_id, item.position - 1)
            if any(mid is None for mid, _ in posts):
                return None  # (it goes out after them: the outbox keeps a game's messages in order)
            return [(mid, message.text) for mid, _ in posts if mid is not None]  # (all of them, as checked)
        return []
