"""The game service: everything a front end asks of a game, without knowing the front end.

A facade over the parts built in wiring.py (one part per concern: lobby, turns, take-back,
clocks, queries, replays, standings, people, pages, outbox and delivery, pictures, …): it builds
them and hands each public request to the part that owns it, so front ends keep one object to
talk to. A new capability takes the parts it uses (`service.parts`) instead.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

from ..storage import Database, DatabaseUnavailable
from .core import DEFAULT_TURN_CLOCK, ServiceOptions, random_seed
from .outcome import Outcome
from .pictures.painter import Painter
from .wiring import wire


class GameService:
    """The one object front ends talk to."""

    closed = False  # the database is closed (see close): the service answers nothing more

    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], float] = time.time,
        default_turn_clock: int = DEFAULT_TURN_CLOCK,
        images: bool = True,
        seeds: Callable[[], int] = random_seed,
        render_workers: int | None = 0,
        ai_seconds: float = 1.0,
        png_compression: int | None = None,
    ):
        self.db = db
        self.options = ServiceOptions(
            clock=clock,
            default_turn_clock=default_turn_clock,
            images=images,
            seeds=seeds,
            ai_seconds=ai_seconds,
            png_compression=png_compression,
        )
        # Images and the automatic player's thinking run here: worker processes in the bot;
        # 0, the default of the service alone (tests, tools), means a thread.
        self.painter = Painter(render_workers)
        self.parts = parts = wire(db, self.options, self.painter)
        # What the front ends ask, answered by the part that owns it.
        # Games
        self.plugin_and_state = parts.games.plugin_and_state
        self.channel_lock = parts.games.channel_lock
        self.player_language = parts.games.player_language
        self.namer = parts.games.namer
        self.owed_people = parts.games.owed_people
        # Drawing
        self.names_for_images = parts.drawing.names_for_images
        self.compressed = parts.drawing.compressed
        self.vision_of = parts.drawing.vision_of
        # Outbox
        self.delivered = parts.outbox.delivered
        self.overtaken = parts.outbox.overtaken
        self.listen_owed = parts.outbox.listen_owed
        self.hand_over = parts.outbox.hand_over
        self.undelivered = parts.outbox.undelivered
        # Status
        self.edits = parts.status.edits
        # ServerSettings
        self.server_settings = parts.server.server_settings
        # WebLinks
        self.game_signature = parts.links.game_signature
        self.game_signed = parts.links.game_signed
        self.game_path = parts.links.game_path
        self.tournament_path = parts.links.tournament_path
        self.server_path = parts.links.server_path
        self.person_path = parts.links.person_path
        self.opened_game = parts.links.opened_game
        self.opened_tournament = parts.links.opened_tournament
        self.opened_server = parts.links.opened_server
        self.opened_person = parts.links.opened_person
        self.status_link = parts.links.status_link
        self.tap_label = parts.links.tap_label
        self.web_link = parts.links.web_link
        self.leaderboard_link = parts.links.leaderboard_link
        self.web_settings = parts.links.web_settings
        self.revoke_links_outside_servers = parts.links.revoke_links_outside_servers
        # Reminders
        self.reminder_hours = parts.reminders.reminder_hours
        self.set_reminders = parts.reminders.set_reminders
        self.reminders_text = parts.reminders.reminders_text
        self.digests = parts.reminders.digests
        # People
        self.language_of = parts.people.language_of
        self.my_settings = parts.people.my_settings
        self.away = parts.people.away
        self.back = parts.people.back
        self.back_from_away = parts.people.back_from_away
        self.quiet_now = parts.people.quiet_now
        # Pace
        self.game_pace = parts.pace.game_pace
        self.pace_line = parts.pace.pace_line
        # Turns
        self.menu = parts.turns.menu
        self.play = parts.turns.play
        # Lobby
        self.new_game = parts.lobby.new_game
        self.join = parts.lobby.join
        self.leave = parts.lobby.leave
        self.start = parts.lobby.start
        self.abort = parts.lobby.abort
        # PlayAgain
        self.play_again = parts.again.play_again
        # FindGame
        self.find_game = parts.find.find
        self.found_threads = parts.find.threads_owed
        self.found_thread_made = parts.find.thread_made
        self.confirm_found = parts.find.confirm
        self.drop_out_found = parts.find.drop_out
        self.avoid = parts.find.avoid
        self.found_thread_failed = parts.find.thread_failed
        self.found_news = parts.find.found_news
        # GameSettings
        self.configure = parts.game_settings.configure
        # TakeBack
        self.take_back = parts.takeback.take_back
        # Hints
        self.hint = parts.hints.hint
        self.hint_menu = parts.hints.hint_menu
        # Tutorial
        self.tutorial = parts.tutorial.tutorial
        # Daily
        self.daily_start = parts.daily.start
        self.daily_game = parts.daily.game_of
        self.daily_still_running = parts.daily.still_running
        self.daily_table = parts.daily.table
        self.daily_replay = parts.daily.replay
        self.daily_page = parts.daily.page
        self.daily_tables_due = parts.daily.owe_tables
        self.daily_posts_owed = parts.daily.posts_owed
        self.daily_post_delivered = parts.daily.post_delivered
        # Queries
        self.open_game_id = parts.queries.open_game_id
        self.running_game = parts.queries.running_game
        self.game = parts.queries.game
        self.logged_actions = parts.queries.logged_actions
        self.status = parts.queries.status
        self.board = parts.queries.board
        self.board_text = parts.queries.board_text
        self.hand = parts.queries.hand
        self.dms_closed_notice = parts.queries.dms_closed_notice
        # RulesPages
        self.rules = parts.rules_pages.rules
        # Replays
        self.frames = parts.replays.frames
        self.replay = parts.replays.replay
        self.replay_choices = parts.replays.replay_choices
        self.review = parts.reviews.review
        self.review_page = parts.reviews.review_page
        self.opened_review = parts.links.opened_review
        self.review_path = parts.links.review_path
        # Standings
        self.history = parts.standings.history
        self.leaderboard = parts.standings.leaderboard
        self.profile = parts.standings.profile
        self.profile_everywhere = parts.standings.profile_everywhere
        self.rebuild_ratings = parts.standings.rebuild_ratings
        # WebGame
        self.web_turns = parts.web_game.web_turns
        self.game_page = parts.web_game.game_page
        self.turn_description = parts.web_game.turn_description
        self.board_at = parts.web_game.board_at
        # WebIndex
        self.server_page = parts.web_index.server_page
        self.person_page = parts.web_index.person_page
        self.rating_chart = parts.web_index.rating_chart
        # Listing
        self.my_games = parts.listing.my_games
        self.followed_lines = parts.listing.followed_lines
        self.nudge = parts.listing.nudge
        # Following
        self.follow = parts.following.follow
        self.follow_label = parts.following.follow_label
        self.unfollow = parts.following.unfollow
        self.follower_gone = parts.following.follower_gone
        self.still_to_send = parts.following.still_to_send
        self.follow_news = parts.following.follow_news

    # How the service runs: the options its parts share (a test may change them as it runs).
    @property
    def clock(self) -> Callable[[], float]:
        return self.options.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.options.clock = clock

    @property
    def images(self) -> bool:
        return self.options.images

    @images.setter
    def images(self, on: bool) -> None:
        self.options.images = on

    @property
    def web_base(self) -> str | None:
        return self.options.web_base

    @web_base.setter
    def web_base(self, base: str | None) -> None:
        self.options.web_base = base

    @property
    def board_play(self) -> bool:
        return self.options.board_play

    @board_play.setter
    def board_play(self, on: bool) -> None:
        self.options.board_play = on

    @property
    def default_turn_clock(self) -> int:
        return self.options.default_turn_clock

    @property
    def keep_drawn(self) -> int:
        return self.parts.drawing.keep_drawn

    @keep_drawn.setter
    def keep_drawn(self, count: int) -> None:
        self.parts.drawing.keep_drawn = count

    async def close(self) -> None:
        """Stop the drawing workers and close the database, as the process that opened it stops."""
        self.closed = True
        self.painter.close()
        await self.db.close()

    # What operators ask (/healthz, /metrics).

    async def database_fault(self) -> str | None:
        """What is wrong with the database (the kind of fault), or None: it answers and takes writes."""
        return await self.db.health.fault()

    async def backlog(self) -> tuple[int, float | None]:
        """(messages owed and due now, when the oldest of them became due); messages held for
        someone's quiet hours are not yet due and not counted."""
        return await self.db.health.backlog(self.options.clock())

    async def games_by_status(self) -> dict[tuple[str, str], int]:
        """(status, kind) -> how many games, for the lobbies and the games being played."""
        return await self.db.health.games_by_status()

    async def tick(self) -> list[tuple[str, Outcome]]:
        """The turn clocks (see clock.py), then the digests, the followers' DMs and the found tables due."""
        out = await self.parts.turn_clock.tick()
        for due in (self.parts.reminders.digests, self.parts.following.follow_news, self.parts.find.tick):
            with contextlib.suppress(DatabaseUnavailable):  # (what is due stays due: a later tick)
                out += await due()
        return out
