"""One opponent for everyone (issue 72, item 3): the daily challenge's automatic player is
bounded by its work alone, never by the wall clock nor by `METROBOT_AI_SECONDS`, so the same
moves meet the same answers on any machine under any load. Played under a clock slowed beyond
any deadline (an hour passes at every read, as on a machine loaded to a standstill), and with
another `ai_seconds`, the daily game answers exactly as under a normal clock; the same clock does
cut an ordinary game's search short (the check can fail)."""

import random

import pytest

from metrobot.games import get_plugin
from metrobot.games.autoplay import AutoPlayer, decide
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.turns import automatic
from metrobot.wiring import GameService
from tests.clock import Clock

from .daily_kit import ANN, DAY, anonymous

KEY = bytes.fromhex("3c" * 32)
MOVES = 3  # the person's decisions (each answered by the automatic player)


@pytest.fixture(autouse=True)
def small_work(monkeypatch):
    monkeypatch.setattr(automatic, "DAILY_SECONDS", 0.05)  # (a cheap search; the same in every run)


def slow_the_bots_clock(monkeypatch) -> None:
    """Every budget the bot gives a player (`AutoPlayer.budget`) reads a clock on which an hour passes at
    every read: every deadline is past at once."""
    budget = AutoPlayer.budget
    monkeypatch.setattr(
        AutoPlayer, "budget", lambda self, seconds, clock=None: budget(self, seconds, Clock(0.0, step=3600.0))
    )


async def played(tmp_path, name: str, kind: str, ai_seconds: float) -> dict:
    """The daily game's state after the person's first `MOVES` decisions (always the first
    choice offered), every answer of the automatic player included."""
    db = await Database(tmp_path / f"{name}.sqlite3").open()
    try:
        await db.daily.add_key("2026-11-19", KEY, first="2026-11-18")
        svc = GameService(
            db, seeds=fixed_seeds(5), images=False, clock=Clock(DAY), ai_seconds=ai_seconds, render_workers=0
        )
        svc.web_base = "http://pages.test"
        await svc.daily.start("5001", *ANN, kind)
        game_id = await svc.daily.game_of(ANN[0], kind)
        for _ in range(MOVES):
            row = await db.game(game_id)
            if row.status != "active" or ANN[0] not in row.waiting:
                break
            prefix: list[str] = []
            menu = await svc.turns.menu(row.channel_id, ANN[0], prefix)
            while not menu.complete:
                prefix.append(menu.choices[0].code)
                menu = await svc.turns.menu(row.channel_id, ANN[0], prefix)
            await svc.turns.play(row.channel_id, ANN[0], prefix)
        row = await db.game(game_id)
        assert row.moves > MOVES, "the automatic player answered"
        return row.state
    finally:
        await db.close()


@pytest.mark.parametrize("kind", ["metromania", "underground"])
async def test_the_daily_opponent_answers_the_same_under_a_slowed_clock(tmp_path, monkeypatch, kind):
    normal = await played(tmp_path, "normal", kind, 1.0)
    other_setting = await played(tmp_path, "setting", kind, 0.01)  # (METROBOT_AI_SECONDS has no say)
    with monkeypatch.context() as m:
        slow_the_bots_clock(m)
        slowed = await played(tmp_path, "slowed", kind, 1.0)
        # The clock is slowed for real: it cuts an ordinary game's search short at once.
        plugin = get_plugin(kind)
        auto = plugin.player("strong")
        state = plugin.game.new_game(
            [ANN[0], "bot-1"], plugin.options(None, None if not plugin.cities() else "london"), 7
        )
        seat = next(iter(plugin.game.to_move(state)))
        decide(plugin.game, auto, state, seat, random.Random(1), 1.0)
        assert auto.last.capped, "the slowed clock must cut an ordinary search short"
    assert anonymous(slowed, ANN[0]) == anonymous(normal, ANN[0]) == anonymous(other_setting, ANN[0])
