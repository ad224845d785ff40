"""Composing a turn on the board and confirming it: the composer's service calls, for a page.

`compose` is the service's `Turns.menu` (the same legal steps in the same order, the same
words, the same refusals, the same check of the position) with the picture drawn for the
page: the board as the person sees it after the steps so far and where each next step is
tapped on it, in one call to the drawing workers (`picture.py`). `confirm` is `Turns.play`:
one transaction with the version check, the outbox, the automatic players and the clock,
exactly as a move made through Discord; what it owes the channel is then announced by
`news.py`.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections import OrderedDict
from typing import Any

from ..i18n import Lang, reading
from ..service import Outcome, Refused
from ..service.core import title
from ..service.pictures import board_alt
from ..service.pictures.play_board import draw
from ..storage import GameRow
from ..turns.changed_decision import withdrawn
from ..turns.preview import shown_after
from ..wiring import GameService
from .access import Pass
from .board import Board, Target

KEEP = 96  # pictures kept for the pages that asked for them (a London board is about 190 KiB)
MAX_STEPS_TEXT = 1200  # an encoded list of steps longer than this is junk


class Stale(Exception):
    """The steps were composed on an older position: the page is shown the game as it is now."""


def encode_steps(steps: list[str]) -> str:
    return base64.urlsafe_b64encode(json.dumps(steps, separators=(",", ":")).encode()).decode().rstrip("=") or "-"


def decode_steps(text: str) -> list[str] | None:
    """The steps a picture's address names (None: not a list of steps)."""
    if text == "-":
        return []
    if len(text) > MAX_STEPS_TEXT:
        return None
    try:
        steps = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return None
    if not isinstance(steps, list) or not all(isinstance(s, str) for s in steps):
        return None
    return steps


class Composer:
    def __init__(self, service: GameService):
        self.service = service
        self._pictures: OrderedDict[str, bytes] = OrderedDict()

    # ------------------------------------------------------------ what the page shows
    async def compose(
        self,
        seat: Pass,
        row: GameRow,
        language: Lang,
        *,
        moves: int | None = None,
        steps: list[str] | None = None,
        typed: str | None = None,
        note: str = "",
        replacing: bool = False,
    ) -> Board:
        """The board after `steps` (composed at position `moves`; `Stale` if the game has moved
        on since) with the next steps as targets; `typed`: a step as `/play` takes it, added
        first; `replacing`: in place of the person's sealed decision. `Refused` with the composer's
        words when a step is not legal."""
        if moves is not None and moves != row.moves:
            raise Stale()
        svc = self.service
        plugin, state = svc.games.plugin_and_state(row)
        game = plugin.game
        user = seat.user_id
        steps = list(steps or [])
        can_change = any(game.can_withdraw(state, s) for s in game.seats_of(state, user))
        shown = withdrawn(plugin, state, user)[0] if replacing and can_change else state
        mine = [s for s in game.seats_of(shown, user) if s in game.to_move(shown)]
        my_turn = bool(mine) and not game.is_over(state)
        vision = await svc.drawing.vision_of(user)
        with reading(language):
            names = svc.drawing.names_for_images(plugin, state, row, language)
            if my_turn:
                menu = await svc.turns.menu(
                    row.channel_id, user, steps, moves=row.moves, game_id=row.id, typed=typed, replacing=replacing
                )
                steps = list(menu.prefix)
                after = shown_after(plugin, shown, mine[0], steps)  # (never what the move's end reveals)
                choices = menu.choices
            else:
                if steps or typed:
                    waiting = language.enumerated(
                        row.names.get(u) or u for u in svc.games.waiting_for(plugin, state, row)
                    )
                    raise Refused(language.t("It is not your turn. Waiting for: {who}.", who=waiting))
                menu, after, choices = None, state, []
            codes = [c.code for c in choices]
            png, size, boxes = (None, (0, 0), [None] * len(codes))
            if svc.images and plugin.renderer is not None:
                png, size, boxes = await svc.painter.run(
                    svc.drawing.compressed(draw),
                    row.game,
                    game.to_json(after),
                    user,
                    codes,
                    names,
                    language.code,
                    vision,
                )
            picture = None
            if png is not None:
                picture = f"picture/{row.moves}-{language.code}-{vision}-{encode_steps(steps)}.png"
                self._keep(f"{row.id}:{user}:{picture}", png)
            over = game.is_over(state)
            scores = game.view(state, None).get("scores", {})
            name = svc.games.namer(plugin, state, row, language)
            # (the page's own words: whose turn it is by name, no command and no Discord buttons)
            status = "" if over else plugin.turn_note(state, language)
            if over:
                heading = language.t("The game is over.")
            elif my_turn:
                heading = menu.heading if menu else plugin.game_labels(language).composer
            else:
                heading = language.t("Waiting for: {who}.", who=self._waiting_for(plugin, state, row, language))
                if can_change:
                    status = " ".join(
                        filter(
                            None,
                            [language.t("You have already decided this round; it resolves when everyone has."), status],
                        )
                    )
            return Board(
                row.id,
                row.game,
                title(plugin, language),
                row.version,
                row.moves,
                steps,
                my_turn,
                bool(menu and menu.complete),
                bool(menu and menu.can_submit),
                heading,
                menu.summary if menu else "",
                status,
                menu.example if menu else "",
                [Target(c.code, c.label, box) for c, box in zip(choices, boxes)],
                size,
                picture,
                board_alt(plugin, after, game.view(after, user), user, names, language),
                plugin.hand_text(game.view(state, user), game.seats_of(state, user), language),
                [(name(s), int(scores.get(s, 0))) for s in game.seats(state)],
                over,
                note,
                can_change and not my_turn,
                my_turn and replacing,
                None if my_turn else await self.takeback_until(row, user),
                dict(row.names),
            )

    def _waiting_for(self, plugin: Any, state: Any, row: GameRow, language: Lang) -> str:
        """Whom the game waits for, by name (an automatic seat's name when only those are to move)."""
        svc = self.service
        waiting = svc.games.waiting_for(plugin, state, row)
        if waiting:
            return language.enumerated(row.names.get(u) or "?" for u in waiting)
        name = svc.games.namer(plugin, state, row, language)
        return language.enumerated(name(s) for s in plugin.game.to_move(state))

    async def takeback_until(self, row: GameRow, user_id: str) -> float | None:
        """Until when this person may take back the game's last move on the page, as through
        Discord's ↶ Take back (turns/takeback.py decides again when asked), or None: no such
        move of theirs, or its window has closed."""
        record = row.takeback
        if row.status != "active" or not record or record.get("to") != row.moves:
            return None
        if float(record.get("until", 0)) <= self.service.clock():
            return None
        entries = await self.service.queries.logged_actions(row.id)
        if len(entries) != row.moves:
            return None
        taken = entries[record["from"] : record["to"]]
        if not taken or any(e["actor"] != user_id for e in taken):
            return None
        return float(record["until"])

    # ------------------------------------------------------------ the move
    async def confirm(
        self, seat: Pass, row: GameRow, language: Lang, *, moves: int, steps: list[str], replacing: bool = False
    ) -> Outcome:
        """Play the steps (all or none) as a move made through Discord is played (`replacing`: in
        place of the person's sealed decision); returns the service's outcome (what the
        channel, the DMs and the person are owed)."""
        if moves != row.moves:
            raise Stale()
        with reading(language):
            try:
                return await self.service.turns.play(
                    row.channel_id, seat.user_id, steps, moves=moves, game_id=row.id, replacing=replacing
                )
            except Refused:
                now = await self.service.queries.game(row.id)
                if now is None or now.moves != moves:  # someone moved first (a click, a clock, another page)
                    raise Stale() from None
                raise

    # ------------------------------------------------------------ pictures
    def _keep(self, key: str, data: bytes) -> None:
        self._pictures[key] = data
        self._pictures.move_to_end(key)
        while len(self._pictures) > KEEP:
            self._pictures.popitem(last=False)

    async def picture(self, seat: Pass, row: GameRow, name: str, language: Lang) -> bytes | None:
        """A picture a board named (`picture/<moves>-<lang>-<vision>-<steps>.png`): the one kept,
        else drawn again (another process served the board); None: not one of this position's."""
        key = f"{row.id}:{seat.user_id}:picture/{name}"
        kept = self._pictures.get(key)
        if kept is not None:
            return kept
        parts = name.removesuffix(".png").split("-", 3)
        if len(parts) != 4 or not parts[0].isdigit() or int(parts[0]) != row.moves or parts[1] != language.code:
            return None
        steps = decode_steps(parts[3])
        if steps is None:
            return None
        try:
            await self.compose(seat, row, language, moves=row.moves, steps=steps)
        except (Refused, Stale):
            return None
        return self._pictures.get(key)
