"""Reviews by the strong player (issue 64): how long one takes, whether it slows anyone's moves,
and how often its suggestion really scores more.

  python -m bench.review [--games N] [--positions P] [--playouts K] [--only time|latency|truth]
                         [--game G]

1. **time**: one person's review (seat p1) of seeded 4-player games of each kind (greedy
   self-play, London for On the Underground, Berlin for flip-and-write), at the bot's own budget
   (`games/<kind>/review.py`), CPU seconds of this process (one core): median and max.
2. **latency**: the moves of other games (2-player MetrOmania through the service, no images,
   the service's drawing workers as the bot has them) with and without three reviews running in
   the service's background worker (`Painter.background`: one process at the lowest priority):
   p95 of `play`, wall ms, after a warm-up, the two phases alternated in the same run and each
   as long as the other.
3. **truth**: at P seeded positions a kind (a decision of some seat in a seeded 4-player game),
   the review's suggestion and another move (the greedy player's, as a person might play) are
   each played out K times from the **true** state (every seat then greedy, deciding from its own
   view; the same generators for both moves): how often the suggestion's mean final score is
   higher, equal, lower, and how often the review's estimate said which was better. Positions
   where both moves are the same are counted and skipped (nothing to compare). `--chance
   redrawn` (flip-and-write, On the Underground) draws the future cards afresh for each
   play-out (the same for both moves), everything else true: a move's worth is its mean over
   the cards to come, which nobody can see; `kept` (the default, as before) judges both moves
   on the true state's one order of the pile. Where another seed's review names another move,
   the two are compared too ("the same or one within half a point"); `--close-playouts N` plays
   both out N times for that check (a few play-outs part two equal moves by their own noise).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from metrobot.games import get_plugin
from metrobot.games.autoplay import decide as auto_decide
from metrobot.games.autoplay import play_steps
from metrobot.games.review import Decision, decide, review

SLOW = True  # minutes of CPU: run it by name
KINDS = ("metromania", "underground", "flipwrite")
OPTIONS = {"metromania": {"hands": "hidden"}, "underground": {"map": "london"}, "flipwrite": {"map": "berlin"}}
PLAYERS = ["p1", "p2", "p3", "p4"]


def seeded(kind: str, seed: int, each=None):
    plugin = get_plugin(kind)
    return plugin.self_play(PLAYERS, OPTIONS[kind], seed, level="greedy", each=each)


# ---------------------------------------------------------------- 1. time
def review_times(kind: str, games: int) -> list[float]:
    plugin = get_plugin(kind)
    assert plugin.reviewing is not None
    times = []
    for seed in range(1, games + 1):
        actions, _ = seeded(kind, seed)
        began = time.process_time()
        review(plugin.game, plugin.reviewing, PLAYERS, OPTIONS[kind], seed, actions, "p1", f"bench:{seed}")
        times.append(time.process_time() - began)
    return times


# ---------------------------------------------------------------- 2. latency
async def latency(reviews: int = 3, rounds: int = 2) -> tuple[list[float], list[float]]:
    from metrobot.app import build
    from metrobot.review.reviews import review_by_name
    from metrobot.service import fixed_seeds
    from metrobot.storage import Database

    with tempfile.TemporaryDirectory() as tmp:
        db = await Database(Path(tmp) / "bench.sqlite3").open()
        app = build(db, seeds=fixed_seeds(5), images=False, render_workers=2, default_turn_clock=3600)
        svc = app.service
        background = svc.reviews.painter
        kind = "underground"
        logs = [seeded(kind, seed)[0] for seed in range(1, reviews + 1)]
        quiet: list[float] = []
        busy: list[float] = []
        rnd = random.Random(1)
        channels = [f"c{i}" for i in range(4)]
        for c in channels:
            await svc.lobby.new_game(c, "g", f"{c}a", "Ann", "metromania", {}, 2)
            await svc.lobby.join(c, f"{c}b", "Bob")
            await svc.lobby.start(c, f"{c}a")

        async def moves(out: list[float], n: int) -> None:
            for _ in range(n):
                for c in channels:
                    row = await db.open_game(c)
                    if row is None:  # finished: another game in the channel
                        await svc.lobby.new_game(c, "g", f"{c}a", "Ann", "metromania", {}, 2)
                        await svc.lobby.join(c, f"{c}b", "Bob")
                        await svc.lobby.start(c, f"{c}a")
                        row = await db.open_game(c)
                        assert row is not None
                    plugin = get_plugin(row.game)
                    state = plugin.game.from_json(row.state)
                    (seat,) = sorted(plugin.game.to_move(state))
                    prefix: list[str] = []
                    menu = await svc.turns.menu(c, seat, prefix)
                    while not menu.complete:
                        prefix.append(rnd.choice(menu.choices).code)
                        menu = await svc.turns.menu(c, seat, prefix)
                    began = time.perf_counter()
                    await svc.turns.play(c, seat, prefix)
                    out.append(time.perf_counter() - began)

        await moves([], 3)  # warming up (the first moves load what every later one finds ready)
        for r in range(rounds):
            running = [
                asyncio.ensure_future(
                    background.run(review_by_name, kind, PLAYERS, OPTIONS[kind], s + 1, log, "p1", f"bench:{r}:{s}")
                )
                for s, log in enumerate(logs)
            ]
            began = time.perf_counter()
            while not all(t.done() for t in running):
                await moves(busy, 1)
            await asyncio.gather(*running)
            took = time.perf_counter() - began
            began = time.perf_counter()
            while time.perf_counter() - began < took:  # as long without reviews
                await moves(quiet, 1)
        await svc.close()
    return quiet, busy


# ---------------------------------------------------------------- 3. truth
def positions(kind: str, wanted: int, first_seed: int = 100):
    """(state, seat) at the start of seats' decisions in seeded 4-player games, a few a game."""
    plugin = get_plugin(kind)
    game = plugin.game
    assert plugin.reviewing is not None
    whole = plugin.reviewing.whole_turns
    found = []
    seed = first_seed
    while len(found) < wanted:
        states: list = []
        seeded(kind, seed, each=states.append)
        starts = []
        for k, s in enumerate(states[:-1]):
            if game.is_over(s):
                continue
            for seat in sorted(game.to_move(s)):
                before = states[k - 1] if k else None
                if (
                    not whole
                    or before is None
                    or seat not in game.to_move(before)
                    or game.turn_number(before) != game.turn_number(s)
                ):
                    starts.append((s, seat))
        rnd = random.Random(seed)
        found += rnd.sample(starts, min(6, len(starts)))
        seed += 1
    return found[:wanted]


def redrawn(kind: str, state, seed: int):
    """The true state with its future chance drawn afresh (flip-and-write: the order of the
    face-down pile and the generator behind later reshuffles, everything else kept: the
    others' sealed decisions, every sheet; On the Underground: the order of the destination
    cards' draw pile, its only hidden part, and the generator behind its reshuffles). A
    decision under uncertainty is worth its mean over the cards still to come; a single true
    order of the pile judges it by luck it could not see (the same order for both moves: a
    move that wins on this deal may lose on most)."""
    from dataclasses import replace

    rnd = random.Random(f"redrawn:{seed}")
    if kind == "underground":  # the destination cards' draw pile and the generator of its reshuffles
        cards = list(state.draw)
        rnd.shuffle(cards)
        return replace(state, draw=cards, rng=rnd.getrandbits(64))
    if kind != "flipwrite":
        return state  # MetrOmania: every marker is dealt at the start, nothing is left to chance
    draw = list(state.pile.draw)
    rnd.shuffle(draw)
    return replace(state, pile=replace(state.pile, draw=tuple(draw), rng=rnd.getrandbits(64)))


class Outcome(NamedTuple):
    """A play-out's end for one seat: its final points, its share of the win (1/k shared) and its
    margin over the best other score (what the strong players' reviews maximize, with a bonus
    for a win; MetrOmania's with the chance to win first). Alone at the table the margin is the
    points."""

    points: float
    share: float
    margin: float


def played_out(kind: str, state, seat: str, steps, seed: int, chance: bool = False) -> Outcome:
    """`steps` played from the true state, then every seat greedy to the end (`Outcome`).
    `chance`: the future cards drawn afresh first (`redrawn`), the same for every move given
    the same seed."""
    plugin = get_plugin(kind)
    game = plugin.game
    if chance:
        state = redrawn(kind, state, seed)
        if kind == "flipwrite":
            from .ai_flipwrite import simulated  # the game's own benchmark holds its fast play-out

            return Outcome(*simulated(state, seat, steps, seed))
    state, _, _ = play_steps(game, state, seat, list(steps))
    rnd = random.Random(seed)
    greedy = plugin.player("greedy")
    while not game.is_over(state):
        for mover in sorted(game.to_move(state)):
            state, _, _ = play_steps(game, state, mover, auto_decide(game, greedy, state, mover, rnd))
            if game.is_over(state):
                break
    view = game.view(state, None)
    scores = {p: float(v) for p, v in (view.get("scores") or {}).items()}
    if not scores:
        scores = {p: -float(v) for p, v in plugin.final_ranking(state).items()}  # a rank: lower is better
    best = max(scores.values())
    winners = [p for p, v in scores.items() if v == best]
    others = [v for p, v in scores.items() if p != seat]
    margin = scores[seat] - max(others) if others else scores[seat]
    return Outcome(scores[seat], (1 / len(winners)) if seat in winners else 0.0, margin)


def mean_of(outcomes: list[Outcome], field: str) -> float:
    return statistics.mean(getattr(o, field) for o in outcomes)


def outcomes(kind: str, position: Decision, steps, ks: range, chance: bool) -> list[Outcome]:
    """`steps` played out from the position's true state with the play-out seeds `ks` (the same
    for every move at that position: common random numbers; `truth` numbers its positions in
    `Decision.position`)."""
    return [played_out(kind, position.state, position.seat, steps, 1000 * position.position + k, chance) for k in ks]


def truth(
    kind: str,
    wanted: int,
    playouts: int,
    chance: bool = False,
    first_seed: int = 100,
    seconds: float | None = None,
    deals: int | None = None,
    select: int | None = None,
    least_lost: float | None = None,
    close_playouts: int | None = None,
) -> dict:
    """See the module's docstring. `close_playouts`: where two seeds name different moves, both
    are also played out that many times (common seeds, the first `playouts` of them the same) for
    the half-point check: with a few play-outs the measured gap between two truly equal moves is
    often more than half a point by the play-outs' own noise."""
    plugin = get_plugin(kind)
    game = plugin.game
    assert plugin.reviewing is not None
    how = plugin.reviewing.overridden(seconds, deals, select, least_lost)
    higher = equal = lower = same = agreed = seeds_agree = close = close_more = close_margin = 0
    more = max(close_playouts or playouts, playouts)
    gains: list[float] = []
    win_gains: list[float] = []
    each: list[dict] = []  # the compared positions one by one: the estimate's difference, the truth's
    for i, (state, seat) in enumerate(positions(kind, wanted, first_seed)):
        other = auto_decide(game, plugin.player("greedy"), state, seat, random.Random(i))
        position = Decision(i, seat, state, other)
        turn = decide(game, position, 1, f"truth:{i}", how)
        if turn["same"]:
            same += 1
            continue
        mine = outcomes(kind, position, other, range(playouts), chance)
        its = outcomes(kind, position, turn["suggested"], range(playouts), chance)
        gain = mean_of(its, "points") - mean_of(mine, "points")
        gains.append(gain)
        # The suggestion is chosen for the chance to win first and the margin second (`Judge`),
        # and the review shows both the points and that chance: "at least as good" read that way
        # too, a higher chance to win or the same chance and at least the points.
        win_gains.append(mean_of(its, "share") - mean_of(mine, "share"))
        # The same decision with another seed: the same suggestion, or one truly as good (within
        # half a point) - issue 75's measure of how much of a suggestion is noise.
        again = decide(game, position, 1, f"again:{i}", how)
        apart: dict[str, float] = {}  # another seed named another move: the two truly this far apart
        if again["suggested"] == turn["suggested"]:
            seeds_agree += 1
            close += 1
            close_more += 1
            close_margin += 1
        else:
            alt = outcomes(kind, position, again["suggested"], range(more), chance)
            apart["apart"] = mean_of(alt[:playouts], "points") - mean_of(its, "points")
            close += abs(apart["apart"]) <= 0.5
            its_more = its + outcomes(kind, position, turn["suggested"], range(playouts, more), chance)
            points_more = mean_of(alt, "points") - mean_of(its_more, "points")
            close_more += abs(points_more) <= 0.5
            if more > playouts:
                apart["apart_more"] = points_more
            # the same two by the margin over the best other score, on all the play-outs
            apart["apart_margin"] = mean_of(alt, "margin") - mean_of(its_more, "margin")
            close_margin += abs(apart["apart_margin"]) <= 0.5
        said = turn["worth"]["suggested"]["value"] - turn["worth"]["played"]["value"]
        row = {"position": i, "said": round(said, 4), "gain": round(gain, 4), "win_gain": round(win_gains[-1], 4)}
        row.update((k, round(v, 4)) for k, v in apart.items())
        each.append(row)
        higher, equal, lower = higher + (gain > 0), equal + (gain == 0), lower + (gain < 0)
        agreed += (gain > 0 and said > 0) or (gain < 0 and said < 0) or (gain == 0 and said == 0)
    return {
        "positions": wanted,
        "same": same,
        "compared": len(gains),
        "higher": higher,
        "equal": equal,
        "lower": lower,
        "agreed": agreed,
        "seeds_agree": seeds_agree,
        "close": close,
        "close_more": close_more,
        "close_margin": close_margin,
        "close_playouts": more,
        "mean_gain": statistics.mean(gains) if gains else 0.0,
        "wins_more": sum(w > 0 for w in win_gains),
        "wins_less": sum(w < 0 for w in win_gains),
        "good_by_wins": sum(w > 0 or (w == 0 and g >= 0) for g, w in zip(gains, win_gains)),
        "mean_win_gain": statistics.mean(win_gains) if win_gains else 0.0,
        "each": each,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.review")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--playouts", type=int, default=4)
    ap.add_argument("--only", choices=["time", "latency", "truth"])
    ap.add_argument("--game", choices=KINDS)
    ap.add_argument("--first-seed", type=int, default=100, help="truth: the first seeded game positions come from")
    ap.add_argument(
        "--seconds", type=float, help="truth: the suggestion's work in seconds (the game's review's otherwise)"
    )
    ap.add_argument("--deals", type=int, help="truth: drawn states a move is judged on (the game's review's otherwise)")
    ap.add_argument(
        "--select",
        type=int,
        help="truth: deals a round of the suggestion's selection (the game's review's otherwise; 0: none)",
    )
    ap.add_argument(
        "--chance",
        choices=("kept", "redrawn"),
        default="kept",
        help="truth: the future cards of the true state kept, or drawn afresh for each play-out (flip-and-write, On the Underground)",
    )
    ap.add_argument(
        "--least-lost",
        type=float,
        help="truth: the least loss for which the review names another move (the game's review's otherwise)",
    )
    ap.add_argument("--each", action="store_true", help="truth: also each compared position, one JSON line")
    ap.add_argument(
        "--close-playouts",
        type=int,
        help="truth: where two seeds name different moves, also play both out this many times for the half-point check",
    )
    a, _ = ap.parse_known_args(argv)
    kinds = [a.game] if a.game else list(KINDS)
    if a.only in (None, "time"):
        for kind in kinds:
            t = review_times(kind, a.games)
            how = get_plugin(kind).reviewing
            assert how is not None
            print(
                f"review time, {kind}, 4 players, seat p1 ({a.games} seeded games; {how.seconds:g} s of work a "
                f"suggestion, {how.deals} deals a move): median {statistics.median(t):.1f} s, max {max(t):.1f} s CPU"
            )
    if a.only in (None, "latency"):
        quiet, busy = asyncio.run(latency())

        def p95(xs: list[float]) -> float:
            return sorted(xs)[max(0, round(0.95 * len(xs)) - 1)] * 1000

        print(
            f"moves of other games (2-player MetrOmania, no images): p95 {p95(quiet):.1f} ms without reviews "
            f"(n={len(quiet)}), {p95(busy):.1f} ms while three reviews run (n={len(busy)}); ratio "
            f"{p95(busy) / p95(quiet):.2f}"
        )
    if a.only in (None, "truth"):
        for kind in kinds:
            r = truth(
                kind,
                a.positions,
                a.playouts,
                a.chance == "redrawn",
                a.first_seed,
                a.seconds,
                a.deals,
                a.select,
                a.least_lost,
                a.close_playouts,
            )
            n = max(r["compared"], 1)
            print(
                f"suggestion played out from the true state ({a.chance} future cards), {kind}: {r['positions']} positions, "
                f"{r['same']} where the other move was the suggestion; of {r['compared']} compared "
                f"({a.playouts} play-outs each): scores more {r['higher']} ({100 * r['higher'] / n:.0f} %), "
                f"the same {r['equal']}, less {r['lower']} ({100 * r['lower'] / n:.0f} %); mean gain "
                f"{r['mean_gain']:+.2f} points; the estimate named the better one in {r['agreed']} "
                f"({100 * r['agreed'] / n:.0f} %); another seed made the same suggestion in {r['seeds_agree']} "
                f"({100 * r['seeds_agree'] / n:.0f} %), the same or one within half a point in {r['close']} "
                f"({100 * r['close'] / n:.0f} %)"
                + (
                    f", by {r['close_playouts']} play-outs of both {r['close_more']} ({100 * r['close_more'] / n:.0f} %)"
                    if r["close_playouts"] > a.playouts
                    else ""
                )
                + f", by the margin over the best other score {r['close_margin']} ({100 * r['close_margin'] / n:.0f} %)"
                + f"; by the chance to win, more {r['wins_more']}, less "
                f"{r['wins_less']}, mean {100 * r['mean_win_gain']:+.1f} points of win share; at least as good by "
                f"the chance to win, then the points, {r['good_by_wins']} ({100 * r['good_by_wins'] / n:.0f} %)"
            )
            if a.each:  # one JSON line a compared position: the review's "lost" (value) and the truth's gain
                for row in r["each"]:
                    print(json.dumps(row))


if __name__ == "__main__":
    main()
