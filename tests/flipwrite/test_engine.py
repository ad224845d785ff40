"""Rounds, sealed decisions, completion values, variants, views, JSON and options."""

import copy
import json
import random
from dataclasses import replace

import pytest

from metrobot.games import BadInput, RuleError
from metrobot.games.flipwrite import GAME
from metrobot.games.flipwrite.mapdata import map_names, parse_map
from metrobot.games.flipwrite.scoring import breakdown, solo_rating
from metrobot.games.flipwrite.sheet import Sheet

from .smallmaps import tiny_data
from .util import independent_scores, new, play_round, ride, set_card, set_sheet

PLAYERS = ("ann", "bob", "cat")


def test_registered_game_attributes():
    assert GAME.name == "flipwrite" and GAME.min_players == 1 and GAME.max_players == 8 and GAME.simultaneous


# --- rounds ----------------------------------------------------------------------------------
def test_round_resolves_only_when_the_last_player_decides():
    state = set_card(new(PLAYERS), "3")
    assert GAME.to_move(state) == frozenset(PLAYERS)
    state, events = GAME.apply(state, "bob", ride("A", 3))
    assert events == [{"type": "decided", "player": "bob"}]
    assert GAME.to_move(state) == {"ann", "cat"} and state.rounds == 0
    assert state.sheets["bob"].marks == {}  # public sheet unchanged until resolution
    assert GAME.legal_actions(state, "bob") == []
    with pytest.raises(RuleError) as err:
        GAME.apply(state, "bob", ride("B", 1))
    assert err.value.rule == "already_decided"
    state, _ = GAME.apply(state, "ann", ride("B", 2))
    assert state.rounds == 0
    state, events = GAME.apply(state, "cat", ride("D", 3))
    assert state.rounds == 1 and GAME.to_move(state) == frozenset(PLAYERS) and not state.pending
    resolved = next(e for e in events if e["type"] == "round_resolved")
    assert resolved["decisions"]["bob"] == [ride("A", 3)]
    assert resolved["marked"] == {"ann": ["b1", "X"], "bob": ["a1", "a2", "X"], "cat": ["d1", "Z", "d3"]}
    assert events[-1]["type"] == "card_flipped"
    assert state.sheets["bob"].marks == {"a1": "x", "a2": "x", "X": "x"}


def test_unknown_player_is_bad_input():
    with pytest.raises(BadInput):
        GAME.apply(new(), "zed", ride("A", 1))


def test_game_ends_when_every_window_is_filled():
    state = new(("ann", "bob"), deck=["3"])
    rounds = 0
    while not GAME.is_over(state):
        assert GAME.to_move(state) == {"ann", "bob"}
        lid = state.sheets["ann"].open_lines()[0]
        act = ride(lid, 0, "cw" if lid == "C" else None)
        state, events = play_round(state, {"ann": act, "bob": act})
        rounds += 1
    assert rounds == 7 == state.rounds  # tiny has 7 windows
    assert state.phase == "finished" and GAME.to_move(state) == frozenset() and state.pile.card is None
    assert events[-1]["type"] == "game_over"
    assert GAME.legal_actions(state, "ann") == []
    with pytest.raises(RuleError) as err:
        GAME.apply(state, "ann", ride("A", 0))
    assert err.value.rule == "game_over"
    data = GAME.to_json(state)
    assert data["winners"] == ["ann", "bob"]  # identical sheets: shared win
    assert data["breakdown"]["ann"] == {"completion": 0, "transfers": 0, "empty_penalty": 7, "total": -7, "empty": 14}


# --- completion -----------------------------------------------------------------------------
def test_same_round_completers_share_high_and_later_ones_get_low():
    state = new(PLAYERS)
    state, events = play_round(state, {"ann": ride("A", 5), "bob": ride("A", 5), "cat": ride("B", 4)}, card="5")
    done = sorted((e["player"], e["line"], e["points"], e["first"]) for e in events if e["type"] == "line_completed")
    assert done == [("ann", "A", 5, True), ("bob", "A", 5, True), ("cat", "B", 4, True)]
    # cat finishes A a round later (express hops X): only the low value is left.
    state, events = play_round(state, {"ann": ride("B", 1), "bob": ride("D", 0), "cat": ride("A", 4)}, card="E5")
    done = sorted((e["player"], e["line"], e["points"]) for e in events if e["type"] == "line_completed")
    assert ("cat", "A", 3) in done
    # ann completes B (b1, X already, b3, Z) after cat took its high value.
    assert ("ann", "B", 2) not in done
    state, events = play_round(
        state, {"ann": ride("B", 2), "bob": ride("C", 0, "cw"), "cat": ride("C", 0, "cw")}, card="E2"
    )
    assert ("ann", "B", 2) in [(e["player"], e["line"], e["points"]) for e in events if e["type"] == "line_completed"]
    assert state.sheets["ann"].completed == {"A": (1, 5), "B": (3, 2)}
    assert state.sheets["cat"].completed == {"B": (1, 4), "A": (2, 3)}


def test_one_move_can_complete_several_lines_and_other_lines_count():
    state = set_sheet(new(("ann", "bob")), "ann", marks={"d1": "x", "d3": "x", "b1": "x", "X": "x", "b3": "x"})
    state, _events = play_round(
        state, {"ann": {"type": "free", "station": "Z"}, "bob": {"type": "free", "station": None}}, card="free"
    )
    assert state.sheets["ann"].completed == {"B": (1, 4), "D": (1, 3)}


def test_solo_completion_is_always_high():
    state = set_sheet(new(("ann",)), "ann", marks={"a1": "x", "a2": "x", "X": "x", "a4": "x"})
    state, _ = play_round(state, {"ann": ride("A", 1)}, card="3")
    assert state.sheets["ann"].completed == {"A": (1, 5)}


# --- scoring ---------------------------------------------------------------------------------
def rule_book_map():
    """Six lines finished for 1+2+4+2+3+6, transfers boxed 1, 4, 1, 3, 2 and 9 empty stations."""
    st = lambda *ids: list(ids)  # noqa: E731
    lines = [
        ("A", st("T4", "T3", "a1"), 3, 1),
        ("B", st("T4", "T2", "b1"), 2, 1),
        ("C", st("T4", "T1a", "c1"), 4, 2),
        ("D", st("T4", "T1b", "d1"), 5, 2),
        ("E", st("T3", "T2", "e1"), 3, 2),
        ("F", st("T3", "f1", "f2"), 6, 4),
        ("G", [f"g{i}" for i in range(1, 10)], 5, 3),
    ]
    ids = sorted({s for _, ss, _, _ in lines for s in ss})
    return parse_map(
        {
            "id": "book",
            "stations": [{"id": s, "name": s, "x": 10 * i, "y": 10} for i, s in enumerate(ids)],
            "lines": [{"id": lid, "stations": ss, "windows": 2, "high": h, "low": lo} for lid, ss, h, lo in lines],
        },
        strict=False,
    )


def test_rule_book_scoring_example():
    metro = rule_book_map()
    assert [len(metro.lines_at(s)) for s in ("T1a", "T4", "T1b", "T3", "T2")] == [1, 4, 1, 3, 2]
    marks = {s: "x" for s in metro.stations if not s.startswith("g")}
    marks.update({"T1a": 1, "T4": 4, "T1b": 1, "T3": 3, "T2": 2})
    # A and D were finished by somebody else first (low), the others first (high).
    completed = {"A": (5, 1), "B": (3, 2), "C": (4, 4), "D": (9, 2), "E": (7, 3), "F": (8, 6)}
    sheet = Sheet(marks, {l.id: ("3", "4") for l in metro.lines}, completed)
    assert breakdown(metro, sheet, solo=False) == {
        "completion": 18,
        "transfers": 22,
        "empty_penalty": 4,
        "total": 36,
        "empty": 9,
    }
    # Solo: the 9 empty stations are not halved.
    assert breakdown(metro, sheet, solo=True)["total"] == 18 + 22 - 9


@pytest.mark.parametrize(
    "total,band",
    [
        (80, "50+"),
        (50, "50+"),
        (49, "40-49"),
        (40, "40-49"),
        (39, "30-39"),
        (30, "30-39"),
        (25, "20-29"),
        (10, "10-19"),
        (9, "5-9"),
        (5, "5-9"),
        (4, "1-4"),
        (1, "1-4"),
        (0, "below 1"),
        (-12, "below 1"),
    ],
)
def test_solo_rating_bands(total, band):
    rating = solo_rating(total)
    assert rating["band"] == band and rating["text"]


def test_solo_game_reports_rating_and_unhalved_penalty():
    state = new(("ann",), deck=["3"])
    while not GAME.is_over(state):
        state, _ = play_round(state, {"ann": GAME.legal_actions(state, "ann")[-1]})
    data = GAME.to_json(state)
    b = data["breakdown"]["ann"]
    assert b["empty_penalty"] == b["empty"] and data["winners"] == ["ann"]
    assert data["rating"] == solo_rating(b["total"])
    assert independent_scores(data) == data["breakdown"]


def test_ties_broken_by_fewer_empty_stations():
    full = {"A": ("3", "3"), "B": ("3", "3"), "C": ("3", "3"), "D": ("3",)}
    state = new(("ann", "bob"), deck=["3"])
    state = replace(state, phase="finished", pile=replace(state.pile, card=None))
    ann = {"X": 2}  # +4, 13 empty -> -6: total -2
    bob = {"a1": "x", "a2": "x", "a4": "x", "Y": "x"}  # 10 empty -> -5
    state = set_sheet(set_sheet(state, "ann", marks=ann, windows=full), "bob", marks=bob, windows=full)
    data = GAME.to_json(state)
    assert data["scores"] == {"ann": -2, "bob": -5} and data["winners"] == ["ann"]
    bob = {"a1": "x", "a2": "x", "a4": "x", "Y": "x", "c1": "x", "c2": 1}  # +2, 8 empty -> -4: total -2
    data = GAME.to_json(set_sheet(state, "bob", marks=bob, windows=full))
    assert data["scores"] == {"ann": -2, "bob": -2} and data["winners"] == ["bob"]
    data = GAME.to_json(set_sheet(state, "bob", marks={"X": 2}, windows=full))
    assert data["winners"] == ["ann", "bob"]  # same total, same empty count: shared


# --- special stations variant -------------------------------------------------------------
def test_special_station_gives_an_extra_action_with_the_same_card():
    state = set_card(new(("ann", "bob"), special=True), "4")
    state, events = GAME.apply(state, "ann", ride("B", 4))  # crosses b3 (special)
    assert events == [{"type": "extra_action", "player": "ann", "owed": 1, "visible_to": ["ann"]}]
    assert "ann" in GAME.to_move(state)
    legal = GAME.legal_actions(state, "ann")
    assert {"type": "ride", "line": "D", "count": 1} in legal  # d1 then Z (already crossed this round)
    assert all(a["line"] != "B" or a["count"] == 0 for a in legal)  # B has one window left, nothing to cross
    state, _ = GAME.apply(state, "bob", ride("A", 0))
    assert state.rounds == 0  # ann still owes her extra action
    state, events = GAME.apply(state, "ann", ride("D", 1))
    assert state.rounds == 1
    resolved = next(e for e in events if e["type"] == "round_resolved")
    assert resolved["decisions"]["ann"] == [ride("B", 4), ride("D", 1)]
    sheet = state.sheets["ann"]
    assert sheet.windows["B"] == ("4", None) and sheet.windows["D"] == ("4",)
    assert sheet.completed == {"B": (1, 4)} and sheet.marks.keys() == {"b1", "X", "b3", "Z", "d1"}


def test_special_extra_actions_chain_and_inherit_express():
    state = set_card(new(("ann",), special=True), "E4")
    state = set_sheet(state, "ann", marks={"b1": "x", "X": "x"})
    state, _ = GAME.apply(state, "ann", ride("B", 2))  # hops to b3 (special) and Z
    assert state.pending["ann"].owed == 1
    state = GAME.apply(state, "ann", ride("C", 4, "ccw"))[0]  # c1 c5 c4 (special) Y
    assert state.pending["ann"].owed == 1
    # express again on A: a1, a2, hop X, a4 ...
    state, _ = GAME.apply(state, "ann", ride("A", 3))
    assert state.rounds == 1
    assert state.sheets["ann"].marks.keys() >= {"a1", "a2", "a4", "b3", "Z", "c4"}
    assert state.sheets["ann"].windows["A"] == ("E4", None)


def test_special_extra_transfer_must_be_a_transfer():
    state = set_card(new(("ann",), special=True), "+")
    state = set_sheet(state, "ann", marks={"b1": "x", "X": "x"})
    state, _ = GAME.apply(state, "ann", {"type": "transfer", "line": "B"})
    assert state.pending["ann"].sheet.marks["b3"] == 1 and state.pending["ann"].owed == 1
    with pytest.raises(RuleError):
        GAME.apply(state, "ann", ride("A", 1))
    assert all(a["type"] == "transfer" for a in GAME.legal_actions(state, "ann"))


def test_free_ride_on_a_special_station_gives_no_extra_action():
    state = set_card(new(("ann", "bob"), special=True), "free")
    state, events = GAME.apply(state, "ann", {"type": "free", "station": "b3"})
    assert events == [{"type": "decided", "player": "ann"}]


def test_special_stations_are_ignored_without_the_variant():
    state = set_card(new(("ann",), special=False), "4")
    state, _ = GAME.apply(state, "ann", ride("B", 4))
    assert state.rounds == 1


def test_extra_action_is_lost_without_an_empty_window():
    state = set_card(new(("ann", "bob"), special=True), "4")
    state = set_sheet(state, "ann", windows={"A": ("3", "3"), "B": ("3", None), "C": ("3", "3"), "D": ("3",)})
    state, events = GAME.apply(state, "ann", ride("B", 4))
    assert events == [{"type": "decided", "player": "ann"}]


def test_finished_player_sits_out_while_others_play_on():
    state = set_card(new(("ann", "bob"), special=True), "4")
    state = set_sheet(state, "ann", windows={"A": ("3", "3"), "B": ("3", None), "C": ("3", "3"), "D": (None,)})
    state = set_sheet(state, "bob", windows={"A": ("3", None), "B": ("3", None), "C": ("3", "3"), "D": ("3",)})
    state, _ = GAME.apply(state, "ann", ride("B", 4))  # b3 special: extra action in D, her last window
    state, _ = GAME.apply(state, "ann", ride("D", 1))
    state, events = GAME.apply(state, "bob", ride("A", 1))
    assert {"type": "player_done", "player": "ann"} in events
    assert not GAME.is_over(state) and GAME.to_move(state) == {"bob"}
    assert GAME.view(state, "bob")["sitting_out"] == ["ann"]
    with pytest.raises(RuleError) as err:
        GAME.apply(state, "ann", ride("A", 0))
    assert err.value.rule == "sitting_out"
    state, events = play_round(state, {"bob": ride("B", 0)}, card="3")  # bob alone, game over
    assert GAME.is_over(state) and state.rounds == 2


# --- views -------------------------------------------------------------------------------------
def test_views_hide_other_players_pending_decisions():
    state = set_card(new(PLAYERS, special=True), "4")
    state, _ = GAME.apply(state, "ann", ride("A", 4))
    state, _ = GAME.apply(state, "bob", ride("B", 4))  # owes an extra action
    alt, _ = GAME.apply(set_card(new(PLAYERS, special=True), "4"), "ann", ride("D", 2))
    alt, _ = GAME.apply(alt, "bob", ride("B", 4))
    for viewer in ("cat", None):
        assert GAME.view(state, viewer) == GAME.view(alt, viewer)
    assert GAME.view(state, "bob")["sheets"] == GAME.view(alt, "bob")["sheets"]
    mine = GAME.view(state, "ann")
    assert mine["pending"]["steps"] == [ride("A", 4)] and "X" in mine["pending"]["sheet"]["marks"]
    assert mine["decided"] == ["ann"] and mine["waiting"] == ["bob", "cat"]
    assert GAME.view(state, "bob")["pending"]["owed"] == 1
    text = json.dumps(GAME.view(state, "cat"))
    assert "pending" not in text and "rng" not in GAME.view(state, None) and "draw" not in GAME.view(state, None)
    assert GAME.view(state, None)["card"] == "4" and GAME.view(state, None)["you"] is None
    with pytest.raises(BadInput):
        GAME.view(state, "zed")


# --- JSON ------------------------------------------------------------------------------------
def test_json_has_the_contract_keys():
    state = set_card(new(PLAYERS, special=True), "4")
    data = GAME.to_json(state)
    assert {"game", "map", "seed", "players", "phase", "map_data", "sheets", "rounds", "scores"} <= data.keys()
    assert data["game"] == "flipwrite" and data["map"] == "tiny" and data["phase"] == "playing"
    assert data["players"] == list(PLAYERS) and data["rounds"] == 0 and data["seed"] == 1
    line = data["map_data"]["lines"][2]
    assert {k: line[k] for k in ("id", "stations", "ring", "windows", "high", "low")} == {
        "id": "C",
        "stations": ["c1", "c2", "Y", "c4", "c5"],
        "ring": True,
        "windows": 2,
        "high": 6,
        "low": 4,
    }
    assert {"id": "b3", "name": "B3 station", "special": True}.items() <= data["map_data"]["stations"][6].items()
    assert data["sheets"]["ann"] == {
        "marks": {},
        "windows": {"A": [None, None], "B": [None, None], "C": [None, None], "D": [None]},
        "completed": {},
    }
    assert "breakdown" not in data and "winners" not in data
    json.dumps(data)


def test_json_round_trip_mid_round_with_pending_chains():
    state = set_card(new(PLAYERS, special=True), "4")
    state, _ = GAME.apply(state, "ann", ride("B", 4))  # owes 1
    state, _ = GAME.apply(state, "cat", ride("C", 3, "cw"))
    data = GAME.to_json(state)
    assert data["pending"] == {
        "ann": {"steps": [ride("B", 4)], "owed": 1},
        "cat": {"steps": [ride("C", 3, "cw")], "owed": 0},
    }
    back = GAME.from_json(json.loads(json.dumps(data)))
    assert back == state and GAME.to_json(back) == data
    assert GAME.legal_actions(back, "ann") == GAME.legal_actions(state, "ann")
    a1, e1 = GAME.apply(state, "ann", ride("D", 1))
    a2, e2 = GAME.apply(back, "ann", ride("D", 1))
    assert GAME.to_json(a1) == GAME.to_json(a2) and e1 == e2


def test_json_round_trip_finished():
    state = new(("ann", "bob"), deck=["5", "E2", "+"], seed=4)
    rnd = random.Random(0)
    while not GAME.is_over(state):
        for p in sorted(GAME.to_move(state)):
            state, _ = GAME.apply(state, p, GAME.auto_action(state, p, rnd))
    data = GAME.to_json(state)
    assert data["phase"] == "finished" and data["card"] is None
    assert GAME.from_json(copy.deepcopy(data)) == state and GAME.to_json(GAME.from_json(data)) == data
    assert independent_scores(data) == data["breakdown"]


def _broken(mutate):
    state = set_card(new(PLAYERS, special=True), "4")
    state, _ = GAME.apply(state, "ann", ride("B", 4))
    data = copy.deepcopy(GAME.to_json(state))
    mutate(data)
    return data


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.clear(),
        lambda d: d.update(game="metromania"),
        lambda d: d.pop("sheets"),
        lambda d: d.update(players="ann"),
        lambda d: d.update(phase="paused"),
        lambda d: d.update(rounds=-1),
        lambda d: d["sheets"]["ann"]["marks"].update(nowhere="x"),
        lambda d: d["sheets"]["ann"]["marks"].update(a1="y"),
        lambda d: d["sheets"]["ann"]["windows"].update(A=["3"]),
        lambda d: d["sheets"]["ann"]["windows"].update(A=["7x", None]),
        lambda d: d["sheets"]["bob"]["completed"].update(A={"round": 1, "points": 5}),
        lambda d: d["pending"]["ann"].update(owed=0),
        lambda d: d["pending"]["ann"].update(steps=[ride("A", 9)]),
        lambda d: d["pending"].update(zed={"steps": [], "owed": 0}),
        lambda d: d.update(card=None),
        lambda d: d["deck"].update(draw=["Q"]),
        lambda d: d.update(rng="x"),
        lambda d: d["map_data"].update(lines=[]),
        lambda d: d.update(map="berlin"),
        lambda d: d["options"].update(solo=True),
        lambda d: d.update(sheets=[]),
        lambda d: d["sheets"]["ann"].update(windows=None),
        lambda d: d["pending"].update(ann=[1]),
    ],
)
def test_malformed_json_is_bad_input_with_one_line_message(mutate):
    with pytest.raises(BadInput) as err:
        GAME.from_json(_broken(mutate))
    assert "\n" not in str(err.value) and str(err.value)


def test_from_json_rejects_non_objects():
    for bad in (None, [], "state", 3):
        with pytest.raises(BadInput):
            GAME.from_json(bad)


# --- purity ------------------------------------------------------------------------------------
def test_apply_never_mutates_its_input():
    state = set_card(new(PLAYERS, special=True), "4")
    steps = [("ann", ride("B", 4)), ("bob", ride("A", 4)), ("ann", ride("D", 1)), ("cat", ride("C", 2, "ccw"))]
    for player, action in steps:
        before_json = copy.deepcopy(GAME.to_json(state))
        before = copy.deepcopy(state)
        action_copy = copy.deepcopy(action)
        new_state, _ = GAME.apply(state, player, action)
        assert GAME.to_json(state) == before_json and state == before and action == action_copy
        again, _ = GAME.apply(state, player, action)  # the old state is still valid
        assert GAME.to_json(again) == GAME.to_json(new_state)
        state = new_state
    assert state.rounds == 1


def test_refused_action_leaves_state_untouched():
    state = set_card(new(PLAYERS), "3")
    before = GAME.to_json(state)
    with pytest.raises(RuleError):
        GAME.apply(state, "ann", ride("A", 4))
    assert GAME.to_json(state) == before


def test_action_dict_is_copied_into_the_state():
    state = set_card(new(PLAYERS), "3")
    action = ride("A", 2)
    state, _ = GAME.apply(state, "ann", action)
    action["count"] = 3
    assert GAME.to_json(state)["pending"]["ann"]["steps"] == [ride("A", 2)]


# --- options ---------------------------------------------------------------------------------
def test_options_defaults_and_checks():
    opts = GAME.validate_options({"map": tiny_data()}, 3)
    assert opts["special_stations"] is False and opts["solo"] is False and len(opts["deck"]) == 14
    assert GAME.validate_options({"map": tiny_data()}, 1)["solo"] is True
    assert GAME.validate_options(opts, 3) == opts  # idempotent
    for bad, n in [
        ({"colour": "red"}, 2),
        ({"map": tiny_data(), "special_stations": "yes"}, 2),
        ({"map": tiny_data(), "deck": ["free"]}, 2),
        ({"map": tiny_data(), "solo": True}, 2),
        ({"map": "atlantis"}, 2),
        ({"map": 7}, 2),
        ({"map": tiny_data()}, 0),
        ({"map": tiny_data()}, 9),
    ]:
        with pytest.raises(BadInput):
            GAME.validate_options(bad, n)


def test_default_map():
    names = map_names()
    if not names:
        with pytest.raises(BadInput, match="no maps"):
            GAME.validate_options({}, 2)
    else:
        assert GAME.validate_options({}, 2)["map"] == ("berlin" if "berlin" in names else names[0])


def test_new_game_refuses_duplicate_seats():
    with pytest.raises(BadInput):
        new(("ann", "ann"))
