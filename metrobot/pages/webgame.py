"""A game as its web page shows it: the public view only — what the channel sees.

The page has the scores, whose turn it is and the clock, the narrated log and a replay
scrubber with the board after every turn (or round), all from the stored log. A running
game's turns are replayed once and then extended as moves come in (states are immutable, so
the last one replayed is where the next replay starts). Only whole turns are frames: actions
inside a turn or a round not yet resolved (sealed decisions) are never narrated, and their
board is the spectators' view of the game as it is now, the same as `/board` shows.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..games.plugin import GamePlugin
from ..i18n import Lang
from ..replays.replays import Frame, Progress, Replays, extend
from ..service import pictures
from ..service.core import shown, title
from ..service.turnclock import banks_line, policy
from ..storage import GameRow
from ..tables.queries import STATUS_WORDS

if TYPE_CHECKING:
    from ..replays.replays import Replays
    from ..service.core import Games
    from ..service.pictures.drawing import Drawing
    from ..storage import Database

KEEP_RUNNING = 64  # running games whose replayed turns stay in memory


@dataclass
class TurnStory:
    """One turn on a game's page: what happened in it (not an engine's turn in progress)."""

    number: int  # 0: the start
    position: int  # actions played by then (its board's address)
    lines: list[str]  # what happened, as the channel was told
    current: bool = False


@dataclass
class ScoreLine:
    """One seat's line of a game page's scores (not a tournament's standing)."""

    name: str
    score: int
    waiting: bool  # the game waits for them now
    won: bool = False


@dataclass
class GamePage:
    id: int
    guild_id: str | None
    kind: str
    title: str
    status: str  # "active", "finished", "aborted"
    status_word: str
    language: str  # the language the page is written in
    version: int  # changes with every move: what the live page watches
    names_tag: str  # changes when a name changes (boards have names drawn on them)
    standings: list[ScoreLine]
    prompt: str  # whose turn, in words ("" once over)
    deadline: float | None
    paused: bool
    turns: list[TurnStory]
    description: str  # the board in words (its alt text)
    winners: list[str] = field(default_factory=list)
    ended: str = ""  # who won, in words ("The game is over: Ann, Bob share the win."; "" until it is over)
    banks: str = ""  # a bank clock's banks in words ("Banks: Ann 2 days ⏳, Bob 3 days"; turnclock.py)


def names_tag(row: GameRow) -> str:
    return hashlib.blake2b(json.dumps(row.names, sort_keys=True).encode(), digest_size=4).hexdigest()


class WebGame:
    def __init__(self, db: Database, games: Games, drawing: Drawing, replays: Replays):
        self.db = db
        self.games = games
        self.drawing = drawing
        self.replays = replays
        self._progress: OrderedDict[int, Progress] = OrderedDict()  # games under way, replayed so far

    def clear_cache(self) -> None:
        """Forget the games replayed so far (as after a start: the next page replays the log)."""
        self._progress.clear()

    async def web_turns(self, row: GameRow) -> tuple[list[Frame], Any]:
        """A game's whole turns so far (the start first), replayed from its log, and its state now."""
        plugin = self.games.plugin(row)
        if row.status == "finished":
            return await self.replays.frames(row), self.games.state(plugin, row)
        cache = self._progress
        known = cache.get(row.id)
        if known is None or known.moves > row.moves:
            known = Progress.start(plugin, row)
        if known.moves < row.moves:
            actions = (await self.db.actions(row.id))[known.moves : row.moves]
            known = await asyncio.to_thread(extend, plugin, known, actions)
        cache[row.id] = known
        cache.move_to_end(row.id)
        if len(cache) > KEEP_RUNNING:
            cache.popitem(last=False)
        # The game now is the stored state (the truth the rest of the service reads); the log
        # gives the turns before it.
        return known.frames, self.games.state(plugin, row)

    async def game_page(self, row: GameRow, language: Lang) -> GamePage:
        plugin = self.games.plugin(row)
        game = plugin.game
        frames, state = await self.web_turns(row)
        name = self.games.namer(plugin, state, row, language)
        scores = game.view(state, None).get("scores", {})
        waiting = set(self.games.waiting_for(plugin, state, row)) if row.status == "active" else set()
        over = game.is_over(state)
        ranking = plugin.final_ranking(state) if over else {}
        standings = [
            ScoreLine(name(s), int(scores.get(s, 0)), game.owner(state, s) in waiting, ranking.get(s) == 1)
            for s in game.seats(state)
        ]
        turns = [
            TurnStory(k, f.position, f.story(plugin, self.games.namer(plugin, f.state, row, language), language))
            for k, f in enumerate(frames)
        ]
        if frames[-1].position != row.moves:  # inside a turn or an unresolved round: the board as it is now
            turns.append(TurnStory(len(frames), row.moves, [language.t("The turn is under way.")]))
        turns[-1].current = True
        prompt = (
            self.games.prompt(plugin, state, row, mention=False, language=language)
            if row.status == "active" and not over
            else ""
        )
        status = "finished" if over else row.status
        page = GamePage(
            row.id,
            row.guild_id,
            row.game,
            title(plugin, language),
            status,
            language.t(STATUS_WORDS[status]) if status in STATUS_WORDS else status,
            language.code,
            row.version,
            names_tag(row),
            standings,
            prompt,
            row.deadline if not over else None,
            row.paused is not None and not over,
            turns,
            "",
            [s.name for s in standings if s.won],
        )
        if page.winners:
            # (the names as the reader's list, "Ann、Bob" in Chinese: put together here, where the
            # language's list comma is known, not in the template)
            page.ended = language.n(
                "The game is over: {winners} won.",
                "The game is over: {winners} share the win.",
                len(page.winners),
                winners=language.enumerated(page.winners),
            )
        page.description = self._described(page, plugin, state, row, language)
        if row.status == "active" and not over:
            banks = policy(row).left(row, await self.db.people.people(row.waiting), self.games.options.clock())
            if banks is not None:
                page.banks = banks_line(row, banks, language, lambda u: shown(u, row.names.get(u, u), language))
        return page

    def _described(self, page: GamePage, plugin: GamePlugin, state: Any, row: GameRow, language: Lang) -> str:
        """The board in plain words, as the bot's own board picture says it (the game's alt
        text of the spectators' view), after which turn it is, and whose turn."""
        names = self.drawing.names_for_images(plugin, state, row, language)
        heading = language.t("The {game} board now, at turn {turn}.", game=page.title, turn=len(page.turns) - 1)
        text = pictures.board_alt(plugin, state, plugin.game.view(state, None), None, names, language, heading=heading)
        # (the prompt follows as the next sentence: no space after "。" in Chinese and Japanese)
        return language.sentences(text, page.prompt).replace("**", "").replace("`", "").strip()

    @staticmethod
    def turn_description(page: GamePage, turn: TurnStory, language: Lang) -> str:
        """A past board in plain words (the scrubber's alt text)."""
        if turn.number == 0:
            return language.t("The {game} board at the start.", game=page.title)
        return language.t(
            "The {game} board after turn {turn} of {turns}.",
            game=page.title,
            turn=turn.number,
            turns=len(page.turns) - 1,
        )

    async def board_at(self, row: GameRow, position: int, language: Lang) -> bytes | None:
        """The board, as spectators see it, after `position` actions: a whole turn's end or the
        game now (None: no board there, or no images)."""
        frames, state = await self.web_turns(row)
        if position == row.moves:
            shown = state
        else:
            shown = next((f.state for f in frames if f.position == position), None)
            if shown is None:
                return None
        image = await self.drawing.image(self.games.plugin(row), shown, row, None, moves=position, language=language)
        return image.data if image else None
