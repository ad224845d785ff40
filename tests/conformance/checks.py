"""The conformance checks, each a function that raises AssertionError when a game breaks the
protocol (`metrobot/games/protocol.py`), and `conform`, which runs them all over one seeded
random whole game.

What a game must do, whatever its rules:
- the seats owed a decision have legal actions and the others none; every legal action
  applied never raises and never changes the state it is applied to; bad input (an unknown
  action, a move out of turn, a stranger, malformed JSON) is refused with RuleError or
  BadInput, the state unchanged;
- the state's JSON is plain JSON and rebuilds the same state (`from_json(to_json(s)) == s`),
  at every step;
- views: a person's view is plain JSON and hides what it must. Where everyone decides at
  once, another decision by one person (with the same public outcome) leaves everyone else's
  view as it is. A state drawn from a person's view (`determinize`) is one the person cannot
  tell from the real one: their view of it, and a spectator's, are the real ones, the same
  seats owe a decision and theirs have the same legal actions. The drawn state differs from
  the real one only in what the person's view hides (other people's secrets, the deck, the
  generator), so a view that showed any of it would differ too: that is how an unfiltered
  view is caught (the planted-fault test);
- a step the game lets its mover take back showed the mover nothing (the same step from a
  state drawn from their view looks the same to them) and is taken back to the state before
  it, as the service does it (`metrobot/turns/takeback.py`: the log, with a take-back entry,
  replayed);
- the log, take-backs included, replays from the seed to the final state;
- a finished game owes nothing, refuses moves, and scores: every seat a score, winners
  among the seats, and the places (`final_ranking`) put exactly the winners' people first.
"""

from __future__ import annotations

import json
import random
from typing import Any

from metrobot.games import GamePlugin
from metrobot.games.logplay import replay
from metrobot.games.protocol import BadInput, Game, RuleError

from .play import Hooks, Played, Setup, random_game

REFUSED = (RuleError, BadInput)
EVERY_ACTION = 4  # every legal action is applied at every fourth step (and the first and the last)
TAKEN_BACK = 0.2  # the share of the steps that may be taken back that are (in the log)
REPLAYED = 2  # take-backs a game checks the service's way (the log replayed from the seed)


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def persons(game: Game, state: Any) -> list[str]:
    return list(dict.fromkeys(game.owner(state, seat) for seat in game.seats(state)))


# ------------------------------------------------------------------ the state
def check_serialization(game: Game, state: Any, plain: bool = True) -> dict[str, Any]:
    """JSON state -> from JSON -> the same state; returns the state's JSON (checked to be plain
    JSON, as a file or a database gives it back, if `plain`)."""
    data = game.to_json(state)
    assert not plain or as_json(data) == data, "to_json gives plain JSON (string keys, no tuples)"
    back = game.from_json(as_json(data) if plain else data)
    assert game.to_json(back) == data, "to_json(from_json(data)) == data"
    assert back == state, "from_json(to_json(s)) == s"
    return data


def check_owing(game: Game, state: Any, plain: bool = True) -> None:
    """Who owes a decision, and their legal actions (checked to be plain JSON if `plain`)."""
    owing = game.to_move(state)
    seats = game.seats(state)
    assert owing <= set(seats), f"to_move names seats that do not play: {owing - set(seats)}"
    assert bool(owing) != game.is_over(state), "a game owes a decision exactly while it is not over"
    for seat in seats:
        legal = game.legal_actions(state, seat)
        assert all(isinstance(a, dict) and "type" in a for a in legal), "actions are objects with a type"
        assert not plain or as_json(legal) == legal, "actions are plain JSON"
        assert bool(legal) == (seat in owing), f"{seat}: legal actions exactly while owed a decision"


def check_every_action(game: Game, state: Any, seats: list[str] | None = None) -> None:
    """Every legal action of every seat owed a decision (or of `seats`) applies, and leaves
    `state` as it was."""
    before = game.to_json(state)
    for seat in sorted(game.to_move(state)) if seats is None else seats:
        for action in game.legal_actions(state, seat):
            _, events = game.apply(state, seat, action)
            assert all(isinstance(e, dict) and "type" in e for e in events), "events are objects with a type"
    assert game.to_json(state) == before, "apply changed the state it was given"


def check_refusals(game: Game, state: Any) -> None:
    """Bad input is refused with RuleError or BadInput, and changes nothing."""
    before = game.to_json(state)
    seats = game.seats(state)
    owing = sorted(game.to_move(state))
    wrong: list[tuple[str, Any]] = [("nobody at all", {"type": "pass"})]
    if owing:
        legal = game.legal_actions(state, owing[0])
        wrong += [(owing[0], {}), (owing[0], {"type": "no such move"})]
        wrong += [(seat, legal[0]) for seat in seats if seat not in owing]  # out of turn
    else:
        wrong += [(seat, {"type": "pass"}) for seat in seats]  # after the end
    for seat, action in wrong:
        if action in game.legal_actions(state, seat):
            continue  # (a game where that happens to be a move)
        try:
            game.apply(state, seat, action)
        except REFUSED:
            pass
        else:
            raise AssertionError(f"{seat} playing {action} was not refused")
    assert game.to_json(state) == before, "a refused action changed the state"
    for data in ({}, [], None, "x", {"game": before.get("game")}):
        try:
            game.from_json(data)
        except BadInput:
            continue
        except Exception as exc:
            raise AssertionError(f"from_json({data!r}) raised {type(exc).__name__}, not BadInput: {exc}") from exc
        raise AssertionError(f"from_json({data!r}) made a state")


# ------------------------------------------------------------------ views
def check_views(game: Game, state: Any, rnd: random.Random, only: str | None = None) -> None:
    """Each person's view (or only `only`'s) hides what it must, and a state drawn from it is
    consistent with it."""
    spectator = game.view(state, None)
    owing = game.to_move(state)
    for person in [only] if only is not None else persons(game, state):
        view = game.view(state, person)
        try:  # (a view of its own: a determinization may keep parts of the one it is given)
            drawn = game.determinize(game.view(state, person), person, rnd)
        except Exception as exc:
            raise AssertionError(f"{person}'s own view cannot be determinized ({type(exc).__name__}: {exc})") from exc
        assert game.view(drawn, person) == view, (
            f"a state drawn from {person}'s view looks different to {person}: the view shows something it "
            "should hide (another person's secret, the deck, the generator), or the drawn state contradicts it"
        )
        assert game.view(drawn, None) == spectator, f"a spectator sees something {person} cannot"
        assert game.to_move(drawn) == owing, f"who owes a decision depends on what {person} cannot see"
        for seat in game.seats_of(state, person):
            assert game.legal_actions(drawn, seat) == game.legal_actions(state, seat), (
                f"{seat}'s legal actions depend on what {person} cannot see"
            )


def check_sealed(
    game: Game, before: Any, seat: str, action: dict[str, Any], after: Any, rnd: random.Random, only: str | None = None
) -> None:
    """In a game where everyone decides at once, a decision is the decider's secret until the
    round resolves: had `seat` decided otherwise (any other legal action with the same public
    outcome: the same seats still owing, the same round), nobody else's view (or only `only`'s)
    and no spectator's would differ."""
    if not game.simultaneous or game.is_over(after):
        return
    others = [a for a in game.legal_actions(before, seat) if a != action]
    if not others:
        return
    alternative, _ = game.apply(before, seat, rnd.choice(others))
    if game.to_move(alternative) != game.to_move(after) or not (
        game.turn_number(alternative) == game.turn_number(after) == game.turn_number(before)
    ):
        return  # (what changes in public — who still owes, a resolved round — shows anyway)
    mover = game.owner(before, seat)
    for viewer in [None, *([only] if only is not None else persons(game, before))]:
        if viewer != mover:
            assert game.view(alternative, viewer) == game.view(after, viewer), (
                f"{viewer or 'a spectator'}'s view shows {seat}'s secret decision before the round resolves"
            )


def check_secrecy(
    game: Game, before: Any, seat: str, action: dict[str, Any], after: Any, rnd: random.Random, only: str | None = None
) -> None:
    """What a step leaves hidden stays hidden: the views after it (`check_sealed`, `check_views`)."""
    check_sealed(game, before, seat, action, after, rnd, only)
    check_views(game, after, rnd, only)


def check_views_are_json(game: Game, state: Any, viewers: list[str | None] | None = None) -> None:
    for viewer in [None, *persons(game, state)] if viewers is None else viewers:
        view = game.view(state, viewer)
        assert as_json(view) == view, f"{viewer}'s view is plain JSON"


# ------------------------------------------------------------------ take-backs
def check_showed_nothing(game: Game, before: Any, seat: str, action: dict[str, Any], after: Any, rnd: Any) -> None:
    """A step that may be taken back showed its mover nothing: played on a state drawn from
    the mover's view, it leaves the mover's view as the real step does."""
    person = game.owner(before, seat)
    drawn = game.determinize(as_json(game.view(before, person)), person, rnd)
    drawn_after, _ = game.apply(drawn, seat, action)
    assert game.view(drawn_after, person) == game.view(after, person), (
        f"{seat} may take back {action}, yet it showed them something"
    )


def check_taken_back(plugin: GamePlugin, setup: Setup, log: list[dict[str, Any]], before: Any) -> None:
    """The service's take-back: the log up to the move, replayed from the seed, is the state before it."""
    game = plugin.game
    start = plugin.new_game(list(setup.players), setup.options, setup.seed)
    again = replay(game, start, as_json(log))
    assert game.to_json(again) == game.to_json(before), "the log replayed to the move is not the state before it"


# ------------------------------------------------------------------ the end
def check_end(plugin: GamePlugin, played: Played) -> None:
    game, state = plugin.game, played.final
    assert game.is_over(state)
    seats = game.seats(state)
    spectator = game.view(state, None)
    scores, winners = spectator.get("scores"), spectator.get("winners")
    assert isinstance(scores, dict) and set(scores) == set(seats), "a finished game scores every seat"
    assert all(isinstance(v, (int, float)) for v in scores.values()), f"scores are numbers: {scores}"
    everyone = persons(game, state)
    assert isinstance(winners, list) and winners, "a finished game has winners"
    assert set(winners) <= set(seats) | set(everyone), f"winners are seats or people: {winners}"
    places = plugin.final_ranking(state)
    assert set(places) == set(everyone), "every person has a place"
    first = {person for person, place in places.items() if place == 1}
    assert first == {game.owner(state, w) if w in seats else w for w in winners}, f"places {places}, winners {winners}"
    # the log, take-backs included, replays from the seed to the final state
    start = plugin.new_game(list(played.setup.players), played.setup.options, played.setup.seed)
    again = replay(game, start, as_json(played.log))
    assert game.to_json(again) == game.to_json(state), "the log does not replay to the final state"


# ------------------------------------------------------------------ a whole game
def conform(plugin: GamePlugin, setup: Setup, hooks: Hooks) -> Played:
    """One random whole game of `setup`. At the first and the last state, everything: every
    view, every legal action, bad input. At every step: the state's JSON round trip, who owes
    what, one person's view and a state drawn from it (each person in turn). At every
    `EVERY_ACTION`-th step also: another decision leaves that person's view alike (a game
    decided at once), apply left its input alone, every legal action of one seat owed a
    decision (in turn), bad input, the views and events plain JSON. A share of the steps
    that may be taken back are (`TAKEN_BACK`), in the log, once checked to have shown nothing."""
    game = plugin.game
    rnd = random.Random(setup.seed + 1)  # the checks' own draws (determinizations, take-backs)
    start = plugin.new_game(list(setup.players), setup.options, setup.seed)
    everyone = persons(game, start)

    def check_all(state: Any) -> None:
        check_owing(game, state)
        check_views_are_json(game, state)
        check_views(game, state, rnd)
        check_every_action(game, state)
        check_refusals(game, state)

    last = check_serialization(game, start)
    check_all(start)
    steps = [0]
    log: list[dict[str, Any]] = []  # the log so far, for take-backs checked the service's way
    replayed = [0]
    taken_back = [False]  # the last step was taken back: the next starts from the state before it

    def each(before: Any, seat: str, action: dict[str, Any], after: Any, events: list[dict[str, Any]]) -> bool:
        nonlocal last
        reached = last  # the JSON of `before` when it was reached
        steps[0] += 1
        turn = steps[0] // EVERY_ACTION
        full = steps[0] % EVERY_ACTION == 0
        if taken_back[0]:
            assert game.to_json(before) == reached, "a step taken back did not leave the state as it was before it"
        elif full:
            assert game.to_json(before) == reached, "apply changed the state it was given"
        taken_back[0] = False
        assert all(isinstance(e, dict) and "type" in e for e in events), "events are objects with a type"
        last = check_serialization(game, after, plain=full)
        check_owing(game, after, plain=full)
        person = everyone[steps[0] % len(everyone)]
        check_views(game, after, rnd, only=person)
        if full:
            check_sealed(game, before, seat, action, after, rnd, only=person)
            assert as_json(events) == events, "events are plain JSON"
            check_views_are_json(game, after, [None, person])
            owing = sorted(game.to_move(after))
            check_every_action(game, after, owing[turn % len(owing) :][:1] if owing else [])
            check_refusals(game, after)
        hooks.each(before, seat, action, after, events)
        log.append({"player": seat, "action": action})
        if not plugin.can_take_back(before, seat, [action], after):
            return False
        if rnd.random() >= TAKEN_BACK:
            return False
        check_showed_nothing(game, before, seat, action, after, rnd)
        if replayed[0] < REPLAYED:
            replayed[0] += 1
            check_taken_back(plugin, setup, log[:-1], before)
        log.append({"player": seat, "action": {"type": "takeback", "to": len(log) - 1}})
        last = reached
        taken_back[0] = True
        return True

    played = random_game(plugin, setup, each)
    assert log == played.log
    check_all(played.final)
    check_end(plugin, played)
    hooks.end(played)
    return played
