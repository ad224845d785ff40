"""The flip-and-write's illustrated rules show what their texts say: the positions are the
engine's, and the numbers and stations in the texts are the engine's events and scores."""

from __future__ import annotations

from metrobot.games import get_plugin
from metrobot.games.flipwrite.rulebook import ANN, BOB, PAGES
from metrobot.games.rulebook import position

PLUGIN = get_plugin("flipwrite")
GAME = PLUGIN.game
KEYS = [p.key for p in PAGES]


def built(key: str):
    return position(PLUGIN.name, PAGES[KEYS.index(key)])


def test_the_pages_in_order():
    assert PLUGIN.rules_pages() is PAGES
    assert KEYS == ["sheet", "card", "transfers", "complete", "round", "scoring", "summary"]
    assert PLUGIN.rules_page_of("count") == KEYS.index("card")
    assert PLUGIN.rules_page_of("already_decided") == KEYS.index("round")
    assert all(built(k).viewer == ANN for k in KEYS[:-1]), "every picture is Ann's own sheet"


def test_the_sheet_is_a_new_game():
    shown = built("sheet")
    assert all(not sheet.marks for sheet in shown.state.sheets.values())


def test_the_card_crossed_what_the_text_says():
    shown = built("card")
    marks = shown.state.sheets[ANN].marks
    named = {shown.state.map.stations[sid].name: sid for sid in marks}
    assert shown.params["first"] in named and shown.params["last"] in named
    assert shown.params["card"].isdigit() and 0 < shown.params["count"] <= int(shown.params["card"])
    assert shown.params["card"] in [w for line in shown.state.sheets[ANN].windows.values() for w in line if w]


def test_the_transfer_is_boxed_with_the_number_of_lines():
    shown = built("transfers")
    sid = next(s for s, st in shown.state.map.stations.items() if st.name == shown.params["station"])
    serving = [line for line in shown.state.map.lines if sid in line.stations]
    assert shown.state.sheets[ANN].marks[sid] == shown.params["number"] == len(serving)
    assert shown.params["points"] == 2 * shown.params["number"]


def test_lines_completed_together_and_one_after_the_other():
    shown = built("complete")
    lines = {line.id: line for line in shown.state.map.lines}
    both, later = lines[shown.params["both"]], lines[shown.params["line"]]
    assert shown.params["high"] == both.high and shown.params["first"] == later.high
    assert shown.params["low"] == later.low < later.high
    completed = shown.state.sheets[BOB].completed
    assert later.id in completed and both.id in shown.state.sheets[ANN].completed


def test_the_round_is_half_decided_and_the_scores_are_the_engines():
    shown = built("round")
    assert GAME.to_move(shown.state) == {BOB}
    assert GAME.view(shown.state, ANN) != GAME.view(shown.state, BOB), "Ann's choice is hers alone"
    final = built("scoring")
    assert GAME.is_over(final.state)
    parts = GAME.view(final.state, None)["breakdown"][ANN]
    p = final.params
    assert (p["completion"], p["transfers"], p["empty"], p["penalty"], p["total"]) == (
        parts["completion"],
        parts["transfers"],
        parts["empty"],
        parts["empty_penalty"],
        parts["total"],
    )
    assert p["total"] == p["completion"] + p["transfers"] - p["penalty"] and p["penalty"] == p["empty"] // 2
