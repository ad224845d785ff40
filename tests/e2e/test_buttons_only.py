"""A 2-player On the Underground game played to the end with buttons only, as phone players
play it: no `/build`, no `/play`. On their first turn both start all four of their colours
through the composer's menus (colour · start, then a part of the map, then a placement);
on their second they forgo; on their third they type a step in the ⌨ box — Ann in
English, Bob in Dutch — and one typed step is refused with its rule. Otherwise they walk
the menus at random (seeded) until the game ends."""

from __future__ import annotations

import pytest
import pytest_asyncio

from metrobot.games import get_plugin
from metrobot.games.underground.words import COLOUR_WORDS
from metrobot.i18n import lang
from tests.e2e.composing import edited, group_labels, open_group, press, step_options, steps_of, take_step, type_step
from tests.e2e.players import Table

pytestmark = pytest.mark.timeout(300)

PLUGIN = get_plugin("underground")
GAME = PLUGIN.game


@pytest_asyncio.fixture
async def bot(start_bot):
    return await start_bot("buttons", "game")


async def state_of(table: Table):
    return GAME.from_json((await table.row()).state)


async def open_composer(standin, table: Table, user: int):
    return await table.open_composer(user)


async def start_colour(standin, table: Table, user: int, composer, word: str) -> None:
    """Start a colour: its group at the top (e.g. 'rood · begin'), a part of the map, a placement."""
    top = group_labels(composer)
    label = next(g for g in top if g.split(" · ")[0] == word)
    await open_group(standin, user, composer, label)
    if group_labels(composer):  # the parts of the map
        await open_group(standin, user, composer, table.rnd.choice(group_labels(composer)))
    await take_step(standin, user, composer, table.rnd.choice(step_options(composer))["value"])


async def wander(standin, table: Table, user: int, composer, most: int = 40) -> None:
    """Steps chosen at random through the menus until the turn is complete."""
    for _ in range(most):
        groups, steps = group_labels(composer), step_options(composer)
        if not groups and not steps:
            return
        if groups and (not steps or table.rnd.random() < 0.7):
            await open_group(standin, user, composer, table.rnd.choice(groups))
        else:
            await take_step(standin, user, composer, table.rnd.choice(steps)["value"])
    raise AssertionError(f"the turn was never complete: {composer.content}")


def typed_placement(state, seat: str, language: str) -> tuple[str, str]:
    """A legal placement as a person types it in their language, and its code."""
    action = next(a for a in GAME.legal_actions(state, seat) if a["type"] == "place")
    a, b = state.board.ends[action["gap"]]
    return f"{lang(language).t(COLOUR_WORDS[action['colour']])} {a} - {b}", f"p:{action['colour']}:{action['gap']}"


async def test_a_two_player_game_to_the_end_with_buttons_only(standin, bot):
    ann, bob = standin.add_member(name="Ann"), standin.add_member(name="Bob")
    standin.set_locale(bob, "nl")
    languages = {ann: "en", bob: "nl"}
    channel = standin.create_channel("buttons")
    table = Table(standin, channel, bot.settings.db_path, seed=22)
    await table.open(ann, "underground", [bob], players=2)
    turns = {ann: 0, bob: 0}
    while owed := await table.owed():
        user = owed[0]
        seat, state = str(user), await state_of(table)
        composer = await open_composer(standin, table, user)
        if state.turn.step == 0 and state.turn.pending is None:
            turn, turns[user] = turns[user], turns[user] + 1
        else:
            turn = -1  # a turn already under way (a tied route to choose): just finish it
        reader = lang(languages[user])
        if turn == 0:  # all four colours started, through their groups
            colours = state.colours_of(seat)
            assert len(colours) == 4
            for colour in colours:
                await start_colour(standin, table, user, composer, reader.t(COLOUR_WORDS[colour]))
        elif turn == 1:  # the whole turn forgone (four branch tokens)
            forgo = max(
                (o for o in step_options(composer) if o["value"].startswith("fg")),
                key=lambda o: int(o["value"].partition(":")[2] or 1),
            )
            await take_step(standin, user, composer, forgo["value"])
        elif turn == 2:  # a step typed in the ⌨ box, in the person's language
            text, code = typed_placement(state, seat, languages[user])
            sent, before = await type_step(standin, user, composer, text)
            await edited(standin, sent, composer, before)
            assert steps_of(composer) == [code], (text, composer.content)
            if user == ann:  # a step that is not legal is refused with its rule, and changes nothing
                refused, before = await type_step(standin, user, composer, "black Heathrow - Bank")
                answer = await refused.wait_message()
                assert answer.ephemeral and "Nothing was played" in answer.content, answer.content
                assert steps_of(composer) == [code]
        await wander(standin, table, user, composer)
        await press(standin, user, composer, next(c for c in composer.custom_ids() if c.startswith("mb:ok:")))

    row = await table.row()
    assert row.status == "finished"
    state = GAME.from_json(row.state)
    for seat in (str(ann), str(bob)):  # every colour of both was started
        assert all(state.colours[c].track for c in state.colours_of(seat))
    log = [a["action"] for a in await table_actions(table)]
    assert sum(a["type"] == "forgo" for a in log) >= 2
    # Buttons, menus and the ⌨ box only: no slash command but opening and starting the game.
    used = {h.name for h in standin.interactions() if h.type == 2}
    assert used == {"game"}, used  # (/game new and /game start)
    assert min(turns.values()) >= 5
    assert not bot._connection._view_store._modals  # the ⌨ box is read from its custom id, not kept in memory


async def table_actions(table: Table) -> list[dict]:
    from metrobot.storage import Database

    row = await table.row()
    db = await Database(table.db_path).open()
    try:
        return await db.actions(row.id)
    finally:
        await db.close()
