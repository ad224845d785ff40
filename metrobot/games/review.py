"""A finished game reviewed by the strong automatic player, for one person (issue 64).

For each of the person's decisions, the game's stored log is replayed to the moment they
made it and the strong player is asked two things **from that person's view at that
moment** (`Game.view`, the hidden parts drawn by `Game.determinize` as the automatic
player does in play; never the state itself):

* what it would have played (`Judge.plan`, with a work-bounded budget) and, where the game
  asks for it (`Reviewing.select`), which of that, the other turns its search compares
  (`Judge.alternatives`) and the person's own move did best when each was played out on the
  same drawn states, the worse half dropped round after round (`chosen`): the suggestion. A
  decision of the bot in play affords a few rollouts a candidate; a review, at low priority in
  a drawing worker, can afford dozens, and its suggestion is steadier and more often better
  for it (issue 75, docs/developers/benchmarks.md);
* what the person's own move and that suggestion were worth by its own estimate
  (`Judge.judge`: both played on the same states drawn from the view, then the game played
  out to its end with the same generators), on other drawn states than those that chose the
  suggestion, so that its luck there does not make "lost" look bigger than it is.

The generators are seeded by public facts only (the game's public key, the seat, the round
and the decision's number among the person's own), never by the game's seed nor by the
decision's position in the log, which counts what the person was never shown (another's
step taken back before it ended a turn, a sealed decision withdrawn and sealed again). So two
games that look the same from the seat get the same review (the secrecy tests check it with
twins that differ in hidden parts only, `tests/test_review.py` with twins that differ by a
hidden take-back or a changed sealed decision).

A decision is a whole turn in games whose strong player plans whole turns (several steps
with nothing hidden revealed in between) and one step otherwise (a round's card, or one
extra action of a chain): each game says which (`Reviewing.whole_turns`). Moves taken back are not
reviewed: the log is read as it was finally played (`logplay`), and a sealed decision that
was withdrawn is replaced by the one sealed after it.

The result is plain JSON (it is computed in a drawing worker and cached in the database):

    {"person": id, "deals": n, "work": plan iterations,
     "turns": [{"number": k (1-based, among the person's decisions), "position": log entries
                before it, "seat": id, "round": the game's turn number, "choices": legal first
                steps, "played": [actions], "suggested": [actions], "same": bool (the suggestion
                is the move played: exactly where "lost" is 0),
                "worth": {"played": Worth, "suggested": Worth}, "lost": value lost (>= 0)}],
     "worst": [indices into turns: the three where the most was lost, most first]}
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .autoplay import Budget
from .logplay import LogPlayer, is_takeback
from .protocol import WITHDRAW, Action, Game, Judge, Worth

WORST = 3  # turning points shown with their pictures


@dataclass(frozen=True)
class Reviewing:
    """How a game is reviewed: its strong player (a `Judge`), whether a decision is a whole
    turn, and the work given to each decision (in the player's own units, `work_rate` a
    second: the suggestion is the bot's own strong decision of `seconds` seconds) and how many
    drawn states every judged move is played out on."""

    judge: Callable[[], Judge]
    whole_turns: bool = True
    seconds: float = 1.0
    deals: int = 8
    # The suggestion is chosen among the strong player's own pick, the turns its search compares
    # (`Judge.alternatives`) and the move played, by successive halving on shared drawn states:
    # every contender still in the running played out on `select` more deals, the worse half
    # dropped, until one is left (0: the strong player's pick as it is, no selection).
    select: int = 0
    # The least loss, in the judge's own value, for which the review names another move than the
    # one played: a smaller difference is within what its play-outs can tell apart, and the turn
    # counts as played as well as the strong player would have (0: any loss at all).
    least_lost: float = 0.0
    # Whether a picture may show a whole turn played on a state drawn from the mover's view: where
    # the end of a turn shows only chance (a card turned from the pile, drawn at random there, so
    # nothing true), not the others' hidden decisions. Otherwise a picture stops before such a step.
    whole_turn_pictures: bool = False
    # The state a person's decision is drawn on, from one drawn from their view: where sealing a
    # decision can end the round (flip-and-write, when the others have decided), the others made
    # undecided, so that the picture shows the decision on the person's sheet and nothing else
    # (the others' sheets as of the last round, which the person saw). None: the drawn state.
    drawable: Callable[[Any, str], Any] | None = None

    def overridden(
        self,
        seconds: float | None = None,
        deals: int | None = None,
        select: int | None = None,
        least_lost: float | None = None,
    ) -> Reviewing:
        """These settings with those given (not None) in their place: a review's or a
        benchmark's overrides of a game's own (tests, benchmarks)."""
        given = {"seconds": seconds, "deals": deals, "select": select, "least_lost": least_lost}
        return replace(self, **{k: v for k, v in given.items() if v is not None})


@dataclass(frozen=True)
class Decision:
    position: int  # log entries played before it
    seat: str
    state: Any  # the state it was made in (only its view is ever read)
    played: list[Action]


def decisions(
    game: Game,
    players: list[str],
    options: dict[str, Any],
    seed: int,
    entries: list[dict[str, Any]],
    person: str,
    *,
    whole_turns: bool = True,
) -> list[Decision]:
    """The person's decisions in the log as it was finally played, in order."""
    player = LogPlayer.start(game, players, options, seed)
    kept: list[Decision] = []  # everyone's, in log order
    length_at: dict[int, int] = {0: 0}  # how many decisions stood after each log position
    for entry in entries:
        seat, action = entry["player"], entry["action"]
        before, position = player.state, player.position
        player.play(seat, action)
        if is_takeback(action):
            kept = kept[: length_at.get(int(action["to"]), 0)]
        elif action.get("type") == WITHDRAW:
            turn = game.turn_number(before)
            kept = [d for d in kept if not (d.seat == seat and game.turn_number(d.state) == turn)]
        else:
            last = kept[-1] if kept else None
            if (
                whole_turns
                and last is not None
                and last.seat == seat
                and game.turn_number(last.state) == game.turn_number(before)
                and last.position + len(last.played) == position
            ):
                last.played.append(action)
            else:
                kept.append(Decision(position, seat, before, [action]))
        length_at[player.position] = len(kept)
    return [d for d in kept if game.owner(d.state, d.seat) == person]


def review(
    game: Game,
    how: Reviewing,
    players: list[str],
    options: dict[str, Any],
    seed: int,
    entries: list[dict[str, Any]],
    person: str,
    key: str,
    *,
    seconds: float | None = None,
    deals: int | None = None,
    select: int | None = None,
    least_lost: float | None = None,
    only: Callable[[int], bool] | None = None,
) -> dict[str, Any]:
    """The review of `person`'s decisions (see the module's docstring); `key` is public (the
    game's id), `seconds`, `deals`, `select` and `least_lost` override the game's `Reviewing`
    `how` (tests, benchmarks) and `only` picks the decisions reviewed by their index (tests)."""
    how = how.overridden(seconds, deals, select, least_lost)
    turns: list[dict[str, Any]] = []
    for number, d in enumerate(
        decisions(game, players, options, seed, entries, person, whole_turns=how.whole_turns), start=1
    ):
        if only is not None and not only(number - 1):
            continue
        turns.append(decide(game, d, number, key, how))
    work = _work(how.judge(), how.seconds) if turns else 0
    worst = sorted((i for i, t in enumerate(turns) if t["lost"] > 0), key=lambda i: (-turns[i]["lost"], i))[:WORST]
    return {"person": person, "deals": how.deals, "work": work, "turns": turns, "worst": worst}


def _work(judge: Judge, seconds: float) -> int:
    rate = getattr(judge, "work_rate", None)
    return max(1, round(rate * seconds)) if rate else 0


def decide(game: Game, d: Decision, number: int, key: str, how: Reviewing) -> dict[str, Any]:
    """One decision reviewed by a judge of `how`'s (`how.judge`, a fresh one for each) with
    `how`'s settings: the suggestion and both moves' worth, from the seat's view only.

    The suggestion is the strong player's own decision of `how.seconds`; with `how.select`, the
    best of it, the turns its search compares and the move played, by `chosen` on deals of
    their own. Both moves are then judged on `how.deals` other deals: a worth measured on the
    deals that chose the winner would favour it by their luck (the winner's curse), and "lost"
    would be too big. Where those deals do not rate the suggestion above the move played by more
    than `how.least_lost`, the move played stands as the suggestion (`same`)."""
    judge = how.judge()
    viewer = game.owner(d.state, d.seat)
    view = game.view(d.state, viewer)
    # Work-bounded (the same suggestion on any machine), the process's CPU time as a generous
    # cap: a review runs in a drawing worker, at low priority, and nobody waits on its clock.
    budget = Budget(max(30.0, 30 * how.seconds), _work(judge, how.seconds) or None, time.process_time)
    public = seeded(key, d.seat, game.turn_number(d.state), number)
    rnd = random.Random(f"{public}:plan")
    suggested = list(judge.plan(game, view, viewer, d.seat, rnd, budget))
    if how.select:
        contenders = [d.played]
        for turn in [suggested, *judge.alternatives(game, view, viewer, d.seat, random.Random(f"{public}:turns"))]:
            if turn not in contenders:
                contenders.append(turn)
        best = chosen(game, judge, view, viewer, d.seat, contenders, random.Random(f"{public}:select"), how.select)
        suggested = list(contenders[best])
    same = suggested == d.played
    candidates = [d.played] if same else [d.played, suggested]
    worth = judge.judge(game, view, viewer, d.seat, candidates, random.Random(public), how.deals)
    played, proposed = worth[0], worth[-1]
    lost = round(max(0.0, proposed.value - played.value), 4)
    if not same and lost <= how.least_lost:
        # Judged on deals that did not choose it, the suggestion did no better than the move
        # played, or better by less than the play-outs can tell: the review says the move was as
        # good as its own and shows no other move, rather than one its own estimate does not
        # back. A suggestion that won the selection by the luck of its deals is caught here.
        suggested, same, proposed, lost = list(d.played), True, played, 0.0
    choices = len(game.legal_actions(game.determinize(view, viewer, random.Random(0)), d.seat))
    return {
        "number": number,
        "position": d.position,
        "seat": d.seat,
        "round": game.turn_number(d.state),
        "choices": choices,
        "played": d.played,
        "suggested": suggested,
        "same": same,
        "worth": {"played": played.to_json(), "suggested": proposed.to_json()},
        "lost": lost,
    }


def chosen(
    game: Game,
    judge: Judge,
    view: dict[str, Any],
    viewer: str,
    seat: str,
    turns: list[list[Action]],
    rnd: random.Random,
    deals: int,
) -> int:
    """The index of the best of `turns` by successive halving: every turn still in the running
    is judged on `deals` more drawn states, all on the same ones (`Judge.judge`), and the worse
    half by their sums so far is dropped, until one is left. A fixed budget spent where it
    parts the leaders: with seven turns, 7 + 4 + 2 times `deals` play-outs, the last two on
    three times `deals` each. Ties keep the earlier turn, so the move played (first) is only
    replaced by one that did better."""
    alive: list[int] = list(range(len(turns)))
    sums: list[float] = [0.0] * len(turns)
    while len(alive) > 1:
        worths = judge.judge(game, view, viewer, seat, [turns[k] for k in alive], rnd, deals)
        for k, worth in zip(alive, worths):
            sums[k] += worth.value
        ranked = sorted(alive, key=lambda k: (-sums[k], k))
        alive = sorted(ranked[: (len(alive) + 1) // 2])
    return alive[0]


def seeded(key: str, seat: str, round_: int, number: int) -> str:
    """The seed of a decision's generators: public facts only (see the module's docstring); the
    plan's, the alternatives' and the selection's generators are this with ":plan", ":turns" and
    ":select" after it."""
    return f"review:{key}:{seat}:{round_}:{number}"


def worth_of(data: dict[str, Any]) -> Worth:
    """A `Worth` read back from a review's JSON."""
    return Worth(float(data["value"]), float(data["points"]), float(data["wins"]))
