"""Reviews by the strong player (issue 64): after a game ends, each of its players may ask
what the strong automatic player would have done at each of their turns, from what they
could see then (`games/review.py`, pure), and what it was worth by its own estimate.

A review is made once per game and person and kept (`db.reviews`, migration 17): the first
request makes it in the painter's background worker (`Painter.background`: one process at
the lowest priority, so it never slows anyone's move or picture), later ones read it. Two
requests at once for the same review wait for the same making. Its limits (issue 72): one
review in the making a person (a request for another is refused until theirs is made), at most
`IN_FLIGHT` in the making in all (then "busy, try again in about n minutes", from how long the
last ones took), and only of a game the person played themselves (a seat left before its first
move, played by the automatic player throughout, has nothing of theirs to review). The answer is private: the
three turns where the most was lost, each with the board as the person saw it then, their
move and the suggestion in words, and how often the suggestion agreed with them.
"""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..games import get_plugin
from ..games.logplay import LogPlayer, is_takeback
from ..games.plugin import GamePlugin
from ..games.review import review as reviewed
from ..games.review import worth_of
from ..i18n import N_, Lang, me
from ..i18n import words as part
from ..service.core import title
from ..service.outcome import Message, Outcome, Refused
from ..storage import GameRow

if TYPE_CHECKING:
    from ..service.core import Games, ServiceOptions
    from ..service.pictures.drawing import Drawing
    from ..service.pictures.painter import Painter
    from ..service.weblinks import WebLinks
    from ..storage import Database


@dataclass(frozen=True)
class ReviewPage:
    """What the web page of a player's review shows: its lines (as in Discord) and the log
    positions of its turning points (their boards, as the replay draws them)."""

    id: int
    game: str
    lines: list[str]
    positions: list[int]


# Reviews in the making at once, in all (each person's one): they are made one at a time by one
# worker, so this bounds the wait of the last (and the work a flood of requests can queue).
IN_FLIGHT = 8
# How long a review is taken to take before this process has made one (then: the mean of the
# last ones made): a review of a 4-player game of the slowest kind takes under a minute of CPU
# (docs/developers/benchmarks.md, "Reviews by the strong player"); more in a worker at the
# lowest priority.
REVIEW_SECONDS = 90.0


AS_SEEN = N_("Turning point {rank}: your turn {n}, the board as you saw it")
YOUR_MOVE = N_("Turning point {rank}: your turn {n}, your move drawn on the board as you saw it")
SUGGESTED = N_("Turning point {rank}: your turn {n}, the strong player's suggestion drawn on the same board")


class Reviews:
    def __init__(
        self, db: Database, options: ServiceOptions, painter: Painter, games: Games, drawing: Drawing, links: WebLinks
    ):
        self.links = links
        self.db = db
        self.options = options
        self.painter = painter.background()
        self.games = games
        self.drawing = drawing
        self._making: dict[tuple[int, str], asyncio.Future[dict[str, Any]]] = {}
        self._took: deque[float] = deque(maxlen=10)  # seconds the last reviews took in the worker

    async def reviewed_row(self, channel_id: str | None, user_id: str, game_id: int | None) -> GameRow:
        """The finished game to review: `game_id` (in this channel, when one is given), or the
        channel's last finished game; the person must have played in it."""
        if game_id is None:
            games = await self.db.history.finished_in_channel(channel_id or "", 1) if channel_id else []
            if not games:
                raise Refused(me().t("No game has finished in this channel yet: there is nothing to review."))
            game_id = games[0].id
        row = await self.db.game(game_id)
        if row is None or (channel_id is not None and row.channel_id != channel_id):
            raise Refused(
                me().t(
                    "There is no game #{id} in this channel. {command} lists the finished ones.",
                    id=game_id,
                    command=part.command("history", me().code),
                )
            )
        if row.status != "finished":
            raise Refused(
                me().t(
                    "Only a finished game can be reviewed: until it ends, a review would tell you what the "
                    "others cannot know. Ask again once it is over."
                )
            )
        if row.seat(user_id) is None:
            raise Refused(
                me().t(
                    "Only the people who played game #{id} can have it reviewed: a review tells what each of "
                    "them could see at their turns.",
                    id=row.id,
                )
            )
        tournament = row.settings.get("tournament")
        if tournament and (held := await self.db.tournaments.tournament(int(tournament))) is not None and held.open:
            raise Refused(
                me().t(
                    "A tournament's game is reviewed once the tournament is over: until then its other tables "
                    "may be playing the same deal, and a review would help them."
                )
            )
        if self.games.plugin(row).reviewing is None:
            raise Refused(
                me().t("{game} has no review by the strong player.", game=title(self.games.plugin(row), me()))
            )
        return row

    async def made(self, row: GameRow, user_id: str, actions: list[dict[str, Any]]) -> dict[str, Any]:
        """The person's review of a finished game: kept, or made now (once) and kept, within
        the limits (the module's docstring)."""
        kept = await self.db.reviews.review(row.id, user_id)
        if kept is not None:
            return kept
        key = (row.id, user_id)
        making = self._making.get(key)
        if making is None:
            self.check_limits(row, user_id, actions)
            making = self._making[key] = asyncio.ensure_future(self._make(row, user_id))
            making.add_done_callback(lambda _: self._making.pop(key, None))
        return await asyncio.shield(making)

    def check_limits(self, row: GameRow, user_id: str, actions: list[dict[str, Any]]) -> None:
        """Refused unless a new review of `row` for the person may be made now."""
        if not any(e["actor"] == user_id and not is_takeback(e["action"]) for e in actions):
            raise Refused(
                me().t(
                    "You made no move in game #{id}: the automatic player played your seat from the start. A "
                    "review is of the decisions you made yourself, so only a game you played can be reviewed.",
                    id=row.id,
                )
            )
        mine = next((game for game, person in self._making if person == user_id), None)
        if mine is not None:
            raise Refused(
                me().t(
                    "Your review of game #{id} is still being made, and each person has one made at a time: ask "
                    "for this one once that one is ready.",
                    id=mine,
                )
            )
        if len(self._making) >= IN_FLIGHT:
            took = sum(self._took) / len(self._took) if self._took else REVIEW_SECONDS
            minutes = max(1, math.ceil(len(self._making) * took / 60))
            raise Refused(
                me().n(
                    "The strong player is busy: {queued} reviews are being made, one at a time. Try again in about "
                    "{n} minute.",
                    "The strong player is busy: {queued} reviews are being made, one at a time. Try again in about "
                    "{n} minutes.",
                    minutes,
                    n=minutes,
                    queued=len(self._making),
                )
            )

    async def _make(self, row: GameRow, user_id: str) -> dict[str, Any]:
        actions = await self.db.actions(row.id)
        players = [s.user_id for s in row.seats]
        review, took = await self.painter.run(
            timed_review, row.game, players, row.options, row.seed, actions, user_id, f"game:{row.id}"
        )
        self._took.append(took)
        return await self.db.reviews.keep(row.id, user_id, review, self.options.clock())

    async def review(self, channel_id: str | None, user_id: str, game_id: int | None = None) -> Outcome:
        """`/game review` and the final post's 🔎 button: the person's review, privately."""
        row = await self.reviewed_row(channel_id, user_id, game_id)
        actions = await self.db.actions(row.id)
        found = await self.made(row, user_id, actions)
        plugin = self.games.plugin(row)
        mine = me()
        worst = [found["turns"][i] for i in found["worst"]]
        states = await asyncio.to_thread(states_at, plugin, row, actions, [t["position"] for t in worst])
        lines, files = self.words(plugin, row, found, states, mine), []
        vision = await self.drawing.vision_of(user_id)
        for rank, turn in enumerate(worst, start=1):
            shown = drawn_moves(plugin, states[turn["position"]], turn)
            if shown[0] is shown[1]:  # neither move could be drawn: the board as it was
                pictures = [(shown[0], AS_SEEN)]
            else:
                pictures = [(shown[0], YOUR_MOVE), (shown[1], SUGGESTED)]
            for state, heading in pictures:
                picture = await self.drawing.image(
                    plugin,
                    state,
                    row,
                    user_id,
                    moves=turn["position"],
                    language=mine,
                    vision=vision,
                    heading=mine.t(heading, rank=rank, n=turn["number"]),
                )
                if picture is not None:
                    files.append(picture)
        if self.options.web_base:
            url = self.links.url(await self.links.review_path(row, user_id))
            lines.append(mine.t("On the web, beside the game's replay: {url}", url=url))
        return Outcome(reply=Message("\n".join(lines), files))

    async def review_page(self, row: GameRow, user_id: str, language: Lang) -> ReviewPage:
        """A player's review as the game's web page shows it (their link only): the same words as
        in Discord, each turning point with the board at that moment as the replay shows it; a
        review not yet made is not made here (it takes a while): the page says how to ask for it."""
        plugin = self.games.plugin(row)
        found = await self.db.reviews.review(row.id, user_id)
        if found is None:
            return ReviewPage(
                row.id,
                title(plugin, language),
                [
                    language.t(
                        "Your review of this game is not made yet: ask for it in Discord with {command} "
                        "(or 🔎 Review under the game's final post), then open this page again.",
                        command=part.command("game review", language.code),
                    )
                ],
                [],
            )
        actions = await self.db.actions(row.id)
        worst = [found["turns"][i] for i in found["worst"]]
        states = await asyncio.to_thread(states_at, plugin, row, actions, [t["position"] for t in worst])
        lines = self.words(plugin, row, found, states, language)
        return ReviewPage(row.id, title(plugin, language), lines, [t["position"] for t in worst])

    def words(
        self, plugin: GamePlugin, row: GameRow, found: dict[str, Any], states: dict[int, Any], language: Lang
    ) -> list[str]:
        """The review in words: the heading, the turning points, how often you agreed, how
        good the estimate is."""
        turns = found["turns"]
        same = sum(1 for t in turns if t["same"] or t["lost"] == 0)
        lines = [
            language.t(
                "🔎 **Review** — {game} #{id}, by the strong player, from what you could see at each of your turns.",
                game=title(plugin, language),
                id=row.id,
            ),
            part.aside(
                language.n(
                    "Of your {n} turn, it would have played {same} as well as you did.",
                    "Of your {n} turns, it would have played {same} as well as you did.",
                    len(turns),
                    n=len(turns),
                    same=same,
                )
            ),
        ]
        if not found["worst"]:
            lines.append(language.t("It found no turn where you lost anything by its estimate. Well played!"))
        for rank, index in enumerate(found["worst"], start=1):
            turn = turns[index]
            said = self.said(plugin, states[turn["position"]], turn, language)
            played, suggested = worth_of(turn["worth"]["played"]), worth_of(turn["worth"]["suggested"])
            lines.append(
                language.t(
                    "**Turning point {rank}** (your turn {n}): you played {played}; the strong player suggests "
                    "{suggested}. By its estimate, your final score {mine} → {its} points, your chance to win "
                    "{won} % → {wins} %.",
                    rank=rank,
                    n=turn["number"],
                    played=said[0],
                    suggested=said[1],
                    mine=language.num(played.points),
                    its=language.num(suggested.points),
                    won=language.num(100 * played.wins),
                    wins=language.num(100 * suggested.wins),
                )
            )
        lines.append(
            language.t(
                "An estimate, not a verdict: the strong player plays the game out from what you could see, a few "
                "times over, and its suggestion is often but not always better (see the players' guide)."
            )
        )
        return lines

    @staticmethod
    def said(plugin: GamePlugin, state: Any, turn: dict[str, Any], language: Lang) -> tuple[str, str]:
        """The move played and the one suggested, in words, each step described on a state drawn
        from the person's view at the time (nothing else of the game is read)."""
        game, seat = plugin.game, turn["seat"]
        viewer = game.owner(state, seat)
        out: list[str] = []
        for steps in (turn["played"], turn["suggested"]):
            s = game.determinize(game.view(state, viewer), viewer, random.Random(0))
            parts: list[str] = []
            for action in steps:
                parts.append(plugin.describe(s, action, language))
                s, _ = game.apply(s, seat, action)
            out.append(language.clauses(parts))
        return out[0], out[1]


def drawn_moves(plugin: GamePlugin, before: Any, turn: dict[str, Any]) -> tuple[Any, Any]:
    """The position after the move played and after the suggestion, each played on a state drawn
    from the person's view at the time (so a picture of it shows nothing else of the game), as far
    as a picture may show it: a step that ends the game (every hand shown) is left out, and so is a
    step that would show what the person could not know then (a card turned, a round resolved with
    the others' decisions; `RulesGlue.showed_nothing`, as the composer's preview leaves them out)
    unless the game draws whole turns (`Reviewing.whole_turn_pictures`: what the end of its turn
    shows is a card drawn from the pile, drawn at random on this state: nothing true), on the
    state the game gives for drawing a decision alone (`Reviewing.drawable`). The same object
    twice when neither move has a step that may be drawn."""
    game, seat = plugin.game, turn["seat"]
    viewer = game.owner(before, seat)
    start = game.determinize(game.view(before, viewer), viewer, random.Random(0))
    if plugin.reviewing is not None and plugin.reviewing.drawable is not None:
        start = plugin.reviewing.drawable(start, seat)
    out = []
    for steps in (turn["played"], turn["suggested"]):
        s = start
        for action in steps:
            after, _ = game.apply(s, seat, action)
            whole = plugin.reviewing is not None and plugin.reviewing.whole_turn_pictures
            if game.is_over(after) or not (whole or plugin.glue.showed_nothing(s, after)):
                break
            s = after
        out.append(s)
    return (start, start) if out[0] is start and out[1] is start else (out[0], out[1])


def states_at(plugin: GamePlugin, row: GameRow, actions: list[dict[str, Any]], positions: list[int]) -> dict[int, Any]:
    """The game's states after the first `positions` entries of its log."""
    player = LogPlayer.start(plugin.game, [s.user_id for s in row.seats], row.options, row.seed)
    out: dict[int, Any] = {}
    for position in sorted(set(positions)):
        while player.position < position:
            entry = actions[player.position]
            player.play(entry["player"], entry["action"])
        out[position] = player.state
    return out


def review_by_name(
    game_name: str,
    players: list[str],
    options: dict[str, Any],
    seed: int,
    entries: list[dict[str, Any]],
    person: str,
    key: str,
) -> dict[str, Any]:
    """`games.review.review` for a game named by its kind: what the background worker is sent
    (plain data)."""
    plugin = get_plugin(game_name)
    assert plugin.reviewing is not None, "asked for games that have a review"
    return reviewed(plugin.game, plugin.reviewing, players, options, seed, entries, person, key)


def timed_review(*args: Any) -> tuple[dict[str, Any], float]:
    """`review_by_name` and the seconds it took in the worker (not counting its wait in the
    queue): what the "try again in" of a busy worker is estimated from."""
    began = time.monotonic()
    out = review_by_name(*args)
    return out, time.monotonic() - began
