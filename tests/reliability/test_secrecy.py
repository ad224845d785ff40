"""Secrecy suite (reliability issue, item 5): over many seeded games of every kind, no secret
(hidden hands, sealed decisions, the undealt pile, the generator) reaches anyone it does not
belong to before the game reveals it: not in a public message, a DM or private reply to
someone else, a menu or autocomplete list, the attachments (file names, alt text) and
components of a message, a log line at INFO, the public JSON (a view), the public images or
the CLI's output. `secrecy_model` says what is secret when; `secrecy_play` plays and
watches the games; `secrecy_output` checks what the front ends make of it.

* `test_no_secret_reaches_anyone_it_does_not_belong_to`: whole games through the service,
  `scale(2, 1000)` per kind, every check in every game: texts, logs, views and their
  twins, the hints (💡) for a player and their twin, the alt text of the pictures and the
  text board (`/board format:text`) for a spectator and a player and their twins, `/me data`
  files (and their twins), the Discord adapter's attachments, components, composer and autocomplete
  suggestions, and at a sampled position the images and `python -m metrobot render` for a
  spectator and a player against twins that differ only in secrets, the final images, and
  the read-only requests with their images (full size: in worker processes);
* `test_secrets_stay_secret_through_discord`: our bot against the Discord stand-in, where
  messages also carry embeds, attachment descriptions, button labels and autocomplete
  lists, `scale(1, 2)` whole games per kind (the first nine moves in the everyday run);
* fault-injection tests: the suite sees a secret that is let out on purpose.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable

import pytest

from metrobot.games import all_plugins, get_plugin
from metrobot.i18n import EN
from metrobot.storage import Database

from .badinput_world import drawable
from .secrecy_play import Records, Watch, Watcher
from .secrecy_run import jobs, play_games, play_many
from .sizes import FULL, scale

pytestmark = pytest.mark.timeout(14400 if FULL else 300)

KINDS = [p.name for p in all_plugins()]
DRAWN = [k for k in KINDS if drawable(k)]


def _figures(watch: Watch, kind: str, started: float) -> dict:
    return dict(
        games=watch.games.get(kind, 0),
        **{f"{k}_checked": v for k, v in sorted(watch.outputs.items())},
        view_twins=watch.view_checks,
        twins_with_other_secrets=watch.twins_changed,
        request_twins=watch.service_twins,
        image_twins=watch.image_checks,
        cli_twins=watch.cli_checks,
        hint_twins=watch.hint_checks,
        brief_twins=watch.brief_checks,
        alt_text_twins=watch.alt_checks,
        data_files=watch.data_checks,
        takebacks=watch.takebacks,
        takeback_twins=watch.takeback_twins,
        follower_dm_and_digest_twins=watch.reminder_checks,
        secrets_leaked=watch.leaks,
        seconds=round(time.perf_counter() - started, 1),
    )


@pytest.mark.parametrize("kind", KINDS)
async def test_no_secret_reaches_anyone_it_does_not_belong_to(kind, report):
    n = scale(2, 1000)
    started = time.perf_counter()
    watch = await play_many(kind, n, images=kind in DRAWN, workers=jobs() if FULL else 1)
    report.update(_figures(watch, kind, started))
    assert watch.leaks == 0, "\n".join(watch.problems)
    assert watch.games.get(kind) == n
    assert watch.view_checks > 0 and watch.twins_changed > 0  # the twins did differ in secrets
    assert watch.hint_checks > 0 and watch.brief_checks > 0 and watch.alt_checks > 0 and watch.data_checks > 0
    assert watch.takebacks > 0 and watch.takeback_twins > 0  # moves were taken back, and compared with twins
    assert watch.reminder_checks > 0 and watch.outputs.get("follow", 0) > 0 and watch.outputs.get("digest", 0) > 0
    for channel in (
        "public",
        "reply",
        "menu",
        "composer",
        "autocomplete",
        "attachments_and_components",
        "alt_text",
        "text_board",
    ):
        assert watch.outputs.get(channel, 0) > 0, channel  # every way out was looked at
    if kind in DRAWN:  # every game's images and command-line output
        assert watch.image_checks >= 2 * n and watch.cli_checks == 2 * n and watch.service_twins > 0


# ---------------------------------------------------------------- through Discord
E2E = {
    "metromania": ("metromania", {"players": 3}),
    "flipwrite": ("flipwrite", {"players": 3, "city": "berlin", "variant": "special"}),
    "underground": ("underground", {"players": 3}),
}


@pytest.mark.parametrize("kind", [k for k in E2E if k in DRAWN])
async def test_secrets_stay_secret_through_discord(standin, run_client, tmp_path, kind, report):
    """Our bot against the stand-in: every message anyone can see (text, embeds, attachment
    descriptions and names, button and menu labels and values), every DM, every private
    reply and every autocomplete list, checked after each interaction against the game's
    secrets at that moment; a spectator looks around too."""
    from tests.e2e.harness import make_bot
    from tests.e2e.players import Table as Players

    db_path = str(tmp_path / "secrecy.sqlite3")
    bot = make_bot(db_path)
    await run_client(bot)
    await standin.wait_for_commands("game", "play", "status")
    watch, records = Watch(), Records()
    root = logging.getLogger()
    level = root.level
    root.addHandler(records)
    root.setLevel(logging.INFO)
    started = time.perf_counter()
    try:
        for number in range(scale(1, 2)):
            await _discord_game(standin, db_path, kind, number, watch, records, Players)
    finally:
        root.removeHandler(records)
        root.setLevel(level)
    report.update(_figures(watch, kind, started))
    assert watch.leaks == 0, "\n".join(watch.problems)


async def _discord_game(standin, db_path, kind, number, watch, records, Players, turns: int | None = None) -> None:
    name, options = E2E[kind]
    rnd = random.Random(f"discord:{kind}:{number}")
    users = [standin.add_member(name=n) for n in ("Ann", "Bob", "Cat")]
    spectator = standin.add_member(name="Sid")
    channel = standin.create_channel(f"secret-{kind}-{number}")
    table = Players(standin, channel, db_path, seed=number)
    w = Watcher(kind, watch, f"{kind} Discord game {number}", rnd)
    seen: set = set()
    db = await Database(db_path).open()

    async def sweep():
        await asyncio.sleep(0.15)
        await w.look(db, str(channel))
        w.check_records(records.take())
        for msg in standin.messages(channel, include_ephemeral=True):
            if (msg.id, msg.edits) in seen or msg.author_id != standin.bot_id:
                continue
            seen.add((msg.id, msg.edits))
            text = "\n".join(
                [msg.text]
                + [str(c.get(k, "")) for c in msg.all_components() for k in ("label", "placeholder")]
                + [
                    f"{o.get('label')} {o.get('value')} {o.get('description', '')}"
                    for c in msg.selects()
                    for o in c.get("options", [])
                ]
                + [f"{a.filename} {a.description or ''}" for a in msg.attachments]
            )
            if msg.ephemeral:
                w.check(text, "reply", str(msg.interaction.user_id) if msg.interaction else None)
            else:
                w.check(text, "public", None, public=True)
        for user in users + [spectator]:
            for msg in standin.dms(user):
                if (msg.id, msg.edits) not in seen:
                    seen.add((msg.id, msg.edits))
                    w.check(msg.text, "dm", str(user))
        for h in standin.interactions():
            if h.choices is not None and ("choices", h.id) not in seen:
                seen.add(("choices", h.id))
                w.check("\n".join(f"{c['name']} {c['value']}" for c in h.choices), "autocomplete", str(h.user_id))

    try:
        await table.open(users[0], name, users[1:], **options)
        await sweep()
        played, limit = 0, turns or (None if FULL else 9)
        while (owed := await table.owed()) and (limit is None or played < limit):
            for user in owed:
                if played % 3 == 2:
                    await table.play_by_buttons(user)
                elif kind == "metromania":
                    await table.dig_by_command(user)
                else:
                    await table.play_by_command(user)
                played += 1
                await sweep()
                if rnd.random() < 0.3:  # the spectator and the others look around
                    who = rnd.choice(users + [spectator])
                    h = await standin.slash(who, channel, rnd.choice(["status", "board", "hand"]))
                    await h.wait_message()
                    await standin.autocomplete(who, channel, "play", {"move": ""}, focused="move")
                    await sweep()
        watch.games[kind] = watch.games.get(kind, 0) + 1
    finally:
        await db.close()


# ---------------------------------------------------------------- the suite sees a secret let out
FAULT_GAMES = 3  # at most: each test's games stop once its leak has been seen (`caught`)


def caught(*words: str | tuple[str, ...]) -> Callable[[Watch], bool]:
    """Whether a leak was seen, named in the problems by each of `words` (a tuple: any of them)."""

    def seen(watch: Watch) -> bool:
        return watch.leaks > 0 and all(
            any(w in p for p in watch.problems for w in (word if isinstance(word, tuple) else (word,)))
            for word in words
        )

    return seen


async def test_fault_a_hand_in_the_narration_is_caught(monkeypatch):
    """The MetrOmania plug-in's narration tells the channel the next player's hand."""
    plugin = get_plugin("metromania")
    real = type(plugin).narrate

    def narrate(self, state, events, name, lang=EN):
        game = self.game
        seat = min(game.to_move(state), key=game.seats(state).index) if game.to_move(state) else None
        person = game.owner(state, seat) if seat else None
        hand = self.hand_text(game.view(state, person), game.seats_of(state, person), lang) if person else None
        return real(self, state, events, name, lang) + ([hand] if hand else [])

    monkeypatch.setattr(type(plugin), "narrate", narrate)
    watch = await play_games("metromania", FAULT_GAMES, until=caught("public"))
    assert watch.leaks > 0 and any("public" in p for p in watch.problems)


async def test_fault_a_decision_in_the_prompt_is_caught(monkeypatch):
    """The flip-and-write prompt mentions a decision already sealed this round."""
    plugin = get_plugin("flipwrite")
    real = type(plugin).prompt

    def prompt(self, state, who, lang=EN):
        sealed = [a for p in state.pending.values() for a in p.steps]
        return real(self, state, who, lang) + (f" (someone chose {self.describe(state, sealed[0])})" if sealed else "")

    monkeypatch.setattr(type(plugin), "prompt", prompt)
    watch = await play_games("flipwrite", FAULT_GAMES, until=caught())
    assert watch.leaks > 0


async def test_fault_a_take_back_telling_the_next_card_is_caught(monkeypatch):
    """Taking back an On the Underground move tells its mover the top card of the draw pile."""
    from metrobot.turns.takeback import TakeBack

    real = TakeBack.taken_back

    async def taken_back(self, row, plugin, state, before, seat, user_id, now):
        out, changes = await real(self, row, plugin, state, before, seat, user_id, now)
        out.reply.text += f" (next: {before.draw[0]})" if before.draw else ""
        return out, changes

    monkeypatch.setattr(TakeBack, "taken_back", taken_back)
    watch = await play_games("underground", 1, until=caught("taking back"))
    assert watch.leaks > 0 and any("taking back" in p for p in watch.problems)


async def test_fault_a_coach_telling_a_hand_is_caught(monkeypatch):
    """The tutorial coach's word on a MetrOmania board names the seat's secret marker letters."""
    plugin = get_plugin("metromania")
    real = type(plugin).board_brief

    def board_brief(self, state, seat, lang=EN):
        held = "".join(m["letter"] or "" for m in self.game.to_json(state)["markers"] if m["holder"] == seat)
        return f"{real(self, state, seat, lang)} (you hold {held})"

    monkeypatch.setattr(type(plugin), "board_brief", board_brief)
    watch = await play_games("metromania", 1, until=caught("coach"))
    assert watch.leaks > 0 and any("coach" in p for p in watch.problems)


async def test_fault_a_data_file_with_another_players_hand_is_caught(monkeypatch):
    """`/me data` that puts the other players' hands of a running MetrOmania game in the file."""
    from metrobot.privacy.export import Export

    real = Export.export

    async def export(self, user_id):
        document = await real(self, user_id)
        for entry in document["games"]:
            row = await self.db.game(entry["id"])
            plugin = get_plugin(row.game)
            game = plugin.game
            state = game.from_json(row.state)
            people = {game.owner(state, s) for s in game.seats(state)} - {user_id}
            entry["others"] = [plugin.hand_text(game.view(state, p), game.seats_of(state, p), EN) for p in people]
        return document

    monkeypatch.setattr(Export, "export", export)
    watch = await play_games("metromania", FAULT_GAMES, until=caught("data"))
    assert watch.leaks > 0 and any("data" in p for p in watch.problems)


async def test_fault_a_view_showing_hands_is_caught(monkeypatch):
    """A MetrOmania view that forgets to hide the other hands (the public JSON)."""
    game = get_plugin("metromania").game
    real = type(game).view

    def view(self, state, viewer):
        data = real(self, state, viewer)
        data["markers"] = self.to_json(state)["markers"]
        return data

    monkeypatch.setattr(type(game), "view", view)
    watch = await play_games("metromania", 1, until=caught("view"))
    assert watch.leaks > 0 and any("view" in p for p in watch.problems)


async def test_fault_the_seed_in_a_menu_and_a_hand_in_the_log_are_caught(monkeypatch):
    """A service that shows the game's seed in its menus and logs the mover's hand at INFO."""
    from metrobot.wiring import GameService

    real_init = GameService.__init__

    def init(self, *args, **kwargs):  # (every service the suite builds answers through these)
        real_init(self, *args, **kwargs)
        real_menu, real_play = self.turns.menu, self.turns.play

        async def menu(channel_id, user_id, prefix, **kwargs):
            out = await real_menu(channel_id, user_id, prefix, **kwargs)
            row = await self.db.open_game(channel_id)
            out.summary += f" (game {row.seed})"
            return out

        async def play(channel_id, user_id, steps, **kwargs):
            hand = await self.queries.hand(channel_id, user_id)
            logging.getLogger("metrobot.service").info("%s plays holding %s", user_id, hand.reply.text)
            return await real_play(channel_id, user_id, steps, **kwargs)

        self.turns.menu, self.turns.play = menu, play

    monkeypatch.setattr(GameService, "__init__", init)
    watch = await play_games("metromania", 1, until=caught("the seed in a menu", "in a log message"))
    assert any("the seed in a menu" in p for p in watch.problems)
    assert any("in a log message" in p for p in watch.problems)


async def test_fault_a_player_hand_on_the_public_image_is_caught(monkeypatch):
    """The public image drawn from the first player's view (their hand on the board)."""
    from metrobot import render

    real = render.render_image

    def leaky(game, state, viewer=None, names=None, lang=EN, *more, **options):  # (the palette passes through)
        return real(
            game,
            state,
            viewer if viewer is not None else get_plugin(game.name).game.seats(state)[0],
            names,
            lang,
            *more,
            **options,
        )

    monkeypatch.setattr(render, "render_image", leaky)
    watch = await play_games("metromania", 1, images=True)
    assert any("image for None" in p for p in watch.problems)
    assert any("`render` for None" in p for p in watch.problems)


def _hand_of_seat(now: dict):
    """The hand of the person at seat `index` in the state last narrated (`now`)."""
    plugin = get_plugin("metromania")
    game = plugin.game

    def hand(index: int) -> str:
        state = now.get("state")
        if state is None or game.is_over(state):
            return ""
        person = game.owner(state, game.seats(state)[index])
        return plugin.hand_text(game.view(state, person), game.seats_of(state, person))

    return hand


def _remember_state(monkeypatch) -> dict:
    plugin = get_plugin("metromania")
    now: dict = {}
    real = type(plugin).narrate

    def narrate(self, state, events, name, lang=EN):
        now["state"] = state
        return real(self, state, events, name, lang)

    monkeypatch.setattr(type(plugin), "narrate", narrate)
    return now


async def test_fault_an_alt_text_showing_a_hand_is_caught(monkeypatch):
    """The adapter gives every message an image whose alt text is the first player's hand."""
    import io

    import discord

    from metrobot.discord_app import messages

    hand, real = _hand_of_seat(_remember_state(monkeypatch)), messages.files

    def files(items):
        return real(items) + [discord.File(io.BytesIO(b""), filename="board.png", description=hand(0))]

    monkeypatch.setattr(messages, "files", files)
    watch = await play_games("metromania", 1, until=caught("attachments_and_components message"))
    assert any("attachments_and_components message" in p for p in watch.problems), watch.problems


async def test_fault_a_hook_telling_a_hand_to_a_screen_reader_is_caught(monkeypatch):
    """MetrOmania's alt text names the first player's hand and its text board the second's
    (hooks that read more than the view they are given)."""
    plugin = get_plugin("metromania")
    hand = _hand_of_seat(_remember_state(monkeypatch))
    real_alt, real_text = type(plugin).alt_text, type(plugin).text_board

    def alt_text(self, view, viewer, names, lang=EN, **kwargs):
        return f"{real_alt(self, view, viewer, names, lang, **kwargs)} {hand(0)}"

    def text_board(self, view, viewer, names, lang=EN, **kwargs):
        return real_text(self, view, viewer, names, lang, **kwargs) + [hand(1)]

    monkeypatch.setattr(type(plugin), "alt_text", alt_text)
    monkeypatch.setattr(type(plugin), "text_board", text_board)
    watch = await play_games("metromania", FAULT_GAMES, until=caught("alt_text message", "text_board message"))
    assert any("alt_text message" in p for p in watch.problems), watch.problems
    assert any("text_board message" in p for p in watch.problems), watch.problems


async def test_fault_a_suggestion_showing_a_hand_is_caught(monkeypatch):
    """The game's suggestions carry the second player's hand in their labels."""
    plugin = get_plugin("metromania")
    hand, real = _hand_of_seat(_remember_state(monkeypatch)), type(plugin).matching

    def matching(self, typed, choices):
        return [type(c)(c.code, f"{c.label} {hand(1)}", c.group) for c in real(self, typed, choices)]

    monkeypatch.setattr(type(plugin), "matching", matching)
    watch = await play_games("metromania", 2, until=caught("autocomplete message"))
    assert any("autocomplete message" in p for p in watch.problems), watch.problems


async def test_fault_a_hand_posted_through_discord_is_caught(standin, run_client, tmp_path, monkeypatch):
    """The same leaky narration, seen through the stand-in as people would see it."""
    from tests.e2e.harness import make_bot
    from tests.e2e.players import Table as Players

    plugin = get_plugin("metromania")
    real = type(plugin).narrate

    def narrate(self, state, events, name, lang=EN):
        hands = [
            self.hand_text(self.game.view(state, p), self.game.seats_of(state, p), lang) for p in self.game.seats(state)
        ]
        return real(self, state, events, name, lang) + [h for h in hands[:1] if h]

    monkeypatch.setattr(type(plugin), "narrate", narrate)
    db_path = str(tmp_path / "leaky.sqlite3")
    await run_client(make_bot(db_path))
    await standin.wait_for_commands("game", "dig")
    watch, records = Watch(), Records()
    await _discord_game(standin, db_path, "metromania", 0, watch, records, Players, turns=3)
    assert any("public" in p for p in watch.problems)


async def test_fault_a_followers_dm_with_a_players_hand_is_caught(monkeypatch):
    """Issue 46: a follower's DM that adds the hand of the player it waits for (as if the DM
    showed the board of someone's seat rather than the channel's)."""
    from metrobot.follow.following import Following

    real = Following.follow_message

    async def follow_message(self, row, reader, end):
        message = await real(self, row, reader, end)
        plugin = self.games.plugin(row)
        state = self.games.state(plugin, row)
        if row.waiting:
            person = row.waiting[0]
            message.text += "\n" + plugin.hand_text(
                plugin.game.view(state, person), plugin.game.seats_of(state, person), EN
            )
        return message

    monkeypatch.setattr(Following, "follow_message", follow_message)
    watch = await play_games("metromania", FAULT_GAMES, until=caught(("follower's DM", "follow message")))
    assert watch.leaks > 0 and any("follower's DM" in p or "follow message" in p for p in watch.problems), (
        watch.problems
    )


async def test_fault_a_digest_naming_the_seed_is_caught(monkeypatch):
    """A digest that tells its reader the game's generator state (the next deal)."""
    from metrobot.people.reminders import Reminders

    real = Reminders.digest_message

    async def digest_message(self, person, waiting, moved, every):
        message = await real(self, person, waiting, moved, every)
        row = waiting[0]
        plugin = self.games.plugin(row)
        message.text += f"\n(next: {plugin.game.to_json(self.games.state(plugin, row)).get('rng')})"
        return message

    monkeypatch.setattr(Reminders, "digest_message", digest_message)
    watch = await play_games("metromania", FAULT_GAMES, until=caught("digest"))
    assert watch.leaks > 0 and any("digest" in p for p in watch.problems), watch.problems
