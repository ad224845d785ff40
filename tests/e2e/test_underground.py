"""On the Underground end to end: a full 3-player game through the real discord.py client —
`/build` and `/play` with station-name autocomplete, the composer (menus of legal
placements grouped by colour, then end / branch / start; the preview image; Undo;
Confirm), the passenger's tied routes offered as buttons, and the final summary.

The opening is scripted so that the passenger's best routes tie on the third turn, reached
by legal play only. The game's seed comes from the harness's fixed seeds (the first game
of `TEST_SEED`), and the engine is deterministic, so the same placements give the same
tie every run. The script was found offline with the engine: from this seed, random legal
placements for three turns (Bob's first one at King's Cross) until Ann's ended in a tie
between two colours of two different players; any change to the board or the deal that
breaks it fails the preconditions below, not silently. After the opening, the players
play on with random legal moves (the table's seeded generator) until the game ends.
"""

from __future__ import annotations

import random

import pytest
import pytest_asyncio

from metrobot.discord_app.composer import MAX_OPTIONS
from metrobot.games import get_plugin
from metrobot.games.underground.notation import KIND_ORDER, route_label
from metrobot.i18n import EN
from metrobot.service import fixed_seeds
from metrobot.storage import Database
from metrobot.turns import menutree
from tests.e2e.composing import choose, control, group_labels, press, step_options, steps_of, take_step
from tests.e2e.harness import TEST_SEED
from tests.e2e.players import Table
from tests.replaying import stored_log

pytestmark = pytest.mark.timeout(300)

PLUGIN = get_plugin("underground")
GAME = PLUGIN.game
KINGS_CROSS = "King's Cross St. Pancras"
# Seats in joining order: Ann (yellow, green, brown), Bob (black, blue, grey, starts), Cat
# (red, pink, orange). Each turn's four placements, as step codes.
BOB_BUILDS = [
    ("kings cross", "p:blue:176"),  # blue King's Cross St. Pancras–Russell Square
    ("black notting hill bayswater", "p:black:77"),  # black Notting Hill Gate–Bayswater
    ("grey hammersmith turnham green", "p:grey:91"),  # grey Hammersmith–Turnham Green
    ("grey goldhawk", "p:grey:47"),
]  # grey Hammersmith–Goldhawk Road (extend)
CAT_BUILDS = ["p:red:49", "p:pink:33", "p:orange:201", "p:pink:164"]  # pink: St. Paul's–Bank–Moorgate
ANN_BUILDS = ["p:yellow:97", "p:green:188", "p:brown:147", "p:yellow:42"]
# ... after which the passenger, at Mile End, reaches Russell Square with 6 walks either by
# Bob's blue or by Cat's pink: Ann chooses, and picks Cat's pink (the second button).
TIE = {"kind": "standard", "to": "Russell Square", "colours": [["blue"], ["pink"]], "walks": 6}
ANN_PICKS = 1


@pytest_asyncio.fixture
async def bot(start_bot):
    return await start_bot("underground", "game", "build", "play")


# ---------------------------------------------------------------- reading the composer
def assert_grouped_by_colour_then_kind(composer, seat_colours: list[str]) -> None:
    """The top level lists a player's colours in the game's colour order (a colour with only
    one kind of placement as 'colour · kind'), forgoing beside them as steps."""
    labels = group_labels(composer)
    keys = [
        (seat_colours.index(label.split(" · ")[0]), KIND_ORDER.index(label.split(" · ")[1]) if " · " in label else -1)
        for label in labels
    ]
    assert keys == sorted(keys), labels
    if labels:
        assert {o["value"] for o in step_options(composer)} >= {"fg"}


async def row_and_state(table: Table):
    row = await table.row()
    return row, GAME.from_json(row.state)


def after(state, seat: str, steps: list[str]):
    for step in steps:
        state, _ = GAME.apply(state, seat, PLUGIN.parse(state, seat, step))
    return state


def path_to(state, seat: str, code: str) -> tuple[int, ...]:
    """The groups to open to reach a step: the menus the adapter builds from the plug-in's."""
    entries = PLUGIN.menu(state, seat, PLUGIN.choices(state, seat, EN), EN)
    root = menutree.build([c for _, c in entries], [p for p, _ in entries], MAX_OPTIONS)
    return next(path for path, node in menutree.walk(root) if code in {c.code for c in node.leaves})


# ---------------------------------------------------------------- using the composer
async def open_composer(standin, table: Table, user: int, seat_colours: list[str]):
    composer = await table.open_composer(user)
    assert composer.ephemeral and composer.attachments  # the preview image
    assert_grouped_by_colour_then_kind(composer, seat_colours)
    return composer


async def pick(standin, table: Table, user: int, composer, code: str) -> None:
    """Choose one step in the composer as a person does: its button or its menu entry at the
    level shown, else through the groups that lead to it."""
    steps = steps_of(composer)
    if code not in {o["value"] for o in step_options(composer)}:
        _, state = await row_and_state(table)
        for index in path_to(after(state, str(user), steps), str(user), code):
            await choose(standin, user, composer, control(composer, "mb:g:")["custom_id"], str(index))
    await take_step(standin, user, composer, code)
    assert steps_of(composer) == steps + [code]
    assert composer.attachments  # the preview follows every step


async def confirm(standin, user: int, composer) -> None:
    before = composer.edits
    await press(standin, user, composer, next(c for c in composer.custom_ids() if c.startswith("mb:ok:")))
    assert composer.edits > before and "Played" in composer.content, composer.content


async def build_in_composer(
    standin,
    table: Table,
    user: int,
    seat_colours: list[str],
    codes: list[str] | None,
    rnd: random.Random,
    *,
    undo: bool = False,
):
    """A whole build in the composer: the given steps, or random legal ones; with `undo`,
    the first step is chosen, undone, and chosen again. Confirmed, unless the preview shows
    that the passenger's best routes tie: the composer then offers them as the next step
    (see `choose_route`). Returns the composer."""
    composer = await open_composer(standin, table, user, seat_colours)
    seat = str(user)
    chosen: list[str] = []
    _, state = await row_and_state(table)
    now = state
    while GAME.turn_number(now) == GAME.turn_number(state) and not now.turn.build_done:
        code = codes[len(chosen)] if codes else rnd.choice(PLUGIN.choices(now, seat, EN)).code
        await pick(standin, table, user, composer, code)
        described = PLUGIN.describe(now, PLUGIN.parse(now, seat, code), EN)
        assert described in composer.content  # the composer says what is chosen so far
        if undo and not chosen:
            undo_button = next(c for c in composer.custom_ids() if c.startswith("mb:u:"))
            await press(standin, user, composer, undo_button)
            assert steps_of(composer) == []  # Undo removed the step just chosen...
            assert described not in composer.content and "choose your first step" in composer.content
            assert not any(c.startswith(("mb:u:", "mb:ok:")) for c in composer.custom_ids())  # ...nothing to undo
            await pick(standin, table, user, composer, code)
        chosen.append(code)
        now = after(state, seat, chosen)
    if now.turn.pending is not None:
        return composer
    assert "That completes it" in composer.content
    await confirm(standin, user, composer)
    return composer


async def choose_route(standin, table: Table, user: int, composer, index: int | None, rnd: random.Random) -> dict:
    """The active player picks one of the passenger's tied routes in the composer (buttons
    when they are few, else a menu; after the placements just chosen, or alone when they
    were played already) and confirms: the route travelled is the one picked. Returns
    {"buttons": whether they were buttons, "option": the route, "trip": the trip}."""
    row, state = await row_and_state(table)
    seat = str(user)
    steps = steps_of(composer)
    tied = after(state, seat, steps)
    pending = tied.turn.pending
    options = pending["options"]
    index = rnd.randrange(len(options)) if index is None else index
    buttons = [b for b in composer.buttons() if b["custom_id"].startswith("mb:b:")]
    if buttons:
        assert [b["custom_id"].split(":", 4)[4] for b in buttons] == [
            ";".join(steps + [f"r:{i}"]) for i in range(len(options))
        ]
        for button, option in zip(buttons, options):  # each button says where and by which colours
            label = route_label(option, EN)
            assert button["label"] in (label, label[:79] + "…")
    await pick(standin, table, user, composer, f"r:{index}")
    await confirm(standin, user, composer)  # (the other leg may tie too: then the turn goes on)
    row, later = await row_and_state(table)
    trip = later.trips[len(tied.trips)]
    chosen = options[index]
    assert (trip["kind"], trip["to"], trip["colours"], trip["path"]) == (
        pending["kind"],
        chosen["to"],
        chosen["colours"],
        chosen["path"],
    )
    db = await Database(table.db_path).open()
    try:
        log = await db.actions(row.id)
    finally:
        await db.close()
    assert log[-1]["action"] == {"type": "route", "option": index}
    return {"buttons": bool(buttons), "option": chosen, "trip": trip}


# ---------------------------------------------------------------- the game
async def test_full_three_player_game(standin, bot):
    ann, bob, cat = (standin.add_member(name=n) for n in ("Ann", "Bob", "Cat"))
    channel = standin.create_channel("underground")
    table = Table(standin, channel, bot.settings.db_path, seed=12)
    await table.open(ann, "underground", [bob, cat], players=3)
    start = table.last_play_message()
    assert "On the Underground** begins" in start.content and start.attachments
    row, state = await row_and_state(table)
    # Preconditions of the scripted opening (the harness's first seed, seats as they joined).
    assert row.seed == fixed_seeds(TEST_SEED)(), "the harness's seeds changed: search the opening again"
    seats = [str(u) for u in (ann, bob, cat)]
    assert state.players == seats and state.player == seats[1]
    colours = {seat: state.colours_of(seat) for seat in seats}
    assert colours[seats[1]] == ["black", "blue", "grey"] and colours[seats[2]] == ["red", "pink", "orange"]

    # Bob: /build, each placement found by typing station names (as a person writes them:
    # "kings cross" finds King's Cross St. Pancras, whatever the apostrophe and "St.").
    values: dict[str, str] = {}
    for i, (typed, code) in enumerate(BOB_BUILDS, 1):
        found = await standin.autocomplete(bob, channel, "build", {**values, f"place{i}": typed}, focused=f"place{i}")
        assert code in [c["value"] for c in found], (typed, found)
        if i == 1:
            assert "kings cross" not in KINGS_CROSS.lower()  # (a plain substring search finds nothing)
            assert all(KINGS_CROSS in c["name"] for c in found) and len(found) > 3
        values[f"place{i}"] = code
    h = await standin.slash(bob, channel, "build", values)
    reply = await h.wait_message()
    assert reply.content.startswith("Done"), reply.content
    assert await table.owed() == [cat]

    # Cat: /play suggests too, by the same reading of names; then she builds in the composer
    # and tries Undo first.
    found = await standin.autocomplete(cat, channel, "play", {"move": "st pancras"}, focused="move")
    assert found and all(KINGS_CROSS in c["name"] for c in found)
    rnd = random.Random(12)
    await build_in_composer(standin, table, cat, colours[seats[2]], CAT_BUILDS, rnd, undo=True)
    assert await table.owed() == [ann]

    # Ann: the composer; after her placements the preview shows the passenger's best routes
    # tie, the composer offers them as buttons, and the one she presses is the one travelled.
    composer = await build_in_composer(standin, table, ann, colours[seats[0]], ANN_BUILDS, rnd)
    _, state = await row_and_state(table)
    pending = after(state, seats[0], steps_of(composer)).turn.pending
    assert pending is not None, "the scripted tie did not arise"
    assert {
        "kind": pending["kind"],
        "to": pending["options"][0]["to"],
        "walks": pending["options"][0]["walks"],
        "colours": [o["colours"] for o in pending["options"]],
    } == TIE
    points = state.breakdown[seats[2]]["passenger"]
    picked = await choose_route(standin, table, ann, composer, ANN_PICKS, rnd)
    assert picked["trip"]["points"] == {seats[2]: 1}  # Cat's pink was ridden
    _, state = await row_and_state(table)
    assert state.breakdown[seats[2]]["passenger"] == points + 1
    route_choices, tie_buttons = 1, int(picked["buttons"])

    # Then everyone plays on, with random legal moves: the composer every third turn, /play
    # otherwise (a step at a time), until the game ends.
    turns = 0
    while owed := await table.owed():
        user = owed[0]
        _, state = await row_and_state(table)
        seat = str(user)
        if state.turn.pending is not None:  # another tie: the active player picks
            composer = await open_composer(standin, table, user, colours[seat])
            picked = await choose_route(standin, table, user, composer, None, rnd)
            route_choices += 1
            tie_buttons += picked["buttons"]
        elif turns % 3 == 0 and state.turn.step == 0:
            composer = await build_in_composer(standin, table, user, colours[seat], None, rnd)
            if "Played" not in composer.content:  # a tie in the preview: chosen before confirming
                picked = await choose_route(standin, table, user, composer, None, rnd)
                route_choices += 1
                tie_buttons += picked["buttons"]
            turns += 1
        else:
            await table.play_by_command(user)
            _, later = await row_and_state(table)
            turns += GAME.turn_number(later) != GAME.turn_number(state)
    assert route_choices >= 1 and tie_buttons >= 1

    final = await standin.wait_for_message(channel, lambda m: "Game over" in m.content, after=start)
    names = {a.filename for a in final.attachments}
    assert any(n.startswith("underground") for n in names) and "summary.png" in names
    row = await table.row()
    assert row.status == "finished" and row.state["winners"]
    assert row.state["passenger"]["trips"]  # the passenger travelled
    posts = [m for m in table.public() if "passenger goes to" in m.content]
    assert posts and all(m.attachments for m in posts)
    # A turn's building is told before the passenger's legs that followed it.
    for post in table.public():
        lines = post.content.splitlines()
        built = [i for i, line in enumerate(lines) if " built " in line or " forwent " in line]
        legs = [i for i, line in enumerate(lines) if "passenger" in line]
        assert not built or not legs or max(built) < min(legs), post.content
    # /leaderboard without a kind: the game just finished here, not the first kind listed.
    board = await (await standin.slash(bob, channel, "leaderboard")).wait_message()
    assert "On the Underground leaderboard" in board.content, board.content
    # Played through the bot only: the logged actions replay to the stored state.
    db = await Database(table.db_path).open()
    try:
        actions = await db.actions(row.id)
    finally:
        await db.close()
    log = stored_log(row, actions)
    assert GAME.to_json(log.replay()) == row.state


# ---------------------------------------------------------------- a game in Berlin
async def test_a_two_player_game_in_berlin(standin, bot):
    """`/game new underground city:berlin` (the city found by autocomplete), German station
    names found when typed without ß and umlauts, then a whole game by /play to the end."""
    ann, bob = (standin.add_member(name=n) for n in ("Ann", "Bob"))
    channel = standin.create_channel("u-bahn")
    cities = await standin.autocomplete(
        ann, channel, "game new", {"kind": "underground", "city": "ber"}, focused="city"
    )
    assert "berlin" in [c["value"] for c in cities], cities
    table = Table(standin, channel, bot.settings.db_path, seed=27)
    await table.open(ann, "underground", [bob], players=2, city="berlin")
    start = table.last_play_message()
    assert "On the Underground** begins" in start.content and start.attachments
    row, state = await row_and_state(table)
    assert row.options["map"] == "berlin" and state.board.name == "berlin" and state.at == "Alexanderplatz"

    first = next(u for u in (ann, bob) if str(u) == state.player)
    found = await standin.autocomplete(first, channel, "build", {"place1": "weinmeisterstrasse"}, focused="place1")
    assert found and all("Weinmeisterstraße" in c["name"] for c in found), found
    found = await standin.autocomplete(first, channel, "play", {"move": "schoenleinstr"}, focused="move")
    assert found and all("Schönleinstraße" in c["name"] for c in found), found

    while owed := await table.owed():
        await table.play_by_command(owed[0])
    final = await standin.wait_for_message(channel, lambda m: "Game over" in m.content, after=start)
    assert "summary.png" in {a.filename for a in final.attachments}
    row = await table.row()
    assert row.status == "finished" and row.state["map"] == "berlin" and row.state["passenger"]["trips"]
    db = await Database(table.db_path).open()
    try:
        actions = await db.actions(row.id)
    finally:
        await db.close()
    log = stored_log(row, actions)
    assert GAME.to_json(log.replay()) == row.state
