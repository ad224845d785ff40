"""The strong level: whole turns, compared by playing the game on from each of them.

1. `turns.candidate_turns` lists a handful of promising whole turns (four placements,
   then the passenger's trip, with its route when routes tie), ranked by the greedy
   valuation with this player's own weights (`OWN`, with 4 players or more); that
   valuation's own turn comes first, so a search cut short plays it.
2. They are compared by rollouts: a state is drawn with `determinize` (the deck order is
   only ever sampled, never read), a candidate is played on it, then every seat plays
   greedily to the end of the game, judged by this seat's margin over the best other
   score plus a win bonus. The other seats play as the greedy level does (the model of
   an opponent); this seat plays by its own weights, tuned so that a greedy player with
   them wins far more often against the greedy level (`tools/tune_underground.py`): a
   turn is worth what this player will make of it, not what the greedy level would.
   With 2 or 3 players it keeps the greedy level's weights (`OWN_FROM`): there the tuned
   ones lost more games against the greedy level (2) or made no difference (3).
   All candidates play the same drawn state with the same generator (common random
   numbers: they differ only by their own effect); one whose
   paired results trail the leader's by more than PRUNE_Z standard errors is dropped,
   so the work goes to the close calls. Early in the game a rollout is long, so only
   as many candidates (best first) as can each get MIN_DEALS deals are kept.
3. `plan` returns the best turn's steps, all of them: the caller plays the whole turn
   at once (`autoplay.take_turn`), so a turn costs one search. Nothing hidden is
   revealed within a turn (the row is refilled after the passenger's trip), so every
   step stays legal. `choose` is the plan's first step.

Why to the end: the points of a position lie mostly in the passenger's future trips,
which only playing on reveals. Against greedy, 2 players, 0.5 s a decision, on 40-60
seeded games away from the benchmark's own: cut after 1, 2, 3 or 5 rounds and judged
by the margin (and tokens, see `rounds`; the first three before the greedy valuation
was made faster), the strong player's mean margin was +14, +17, +20 and +23 points;
played to the end +22 to +24, with 87-95 % of wins. Comparing 4, 6 or 8 candidates
made no difference beyond noise (+21 to +24).

`Budget.seconds` caps the wall-clock time of a decision (a rollout the deadline
overtakes is abandoned). `Budget.iterations`, when given, bounds the work in simulated
steps, the candidate's own included (a rollout early in the game plays some 150 steps,
late in it a few): no new
round of deals starts once it is spent, and how many candidates are kept is worked out
from the first rollout's length, not from the clock. So a seeded decision is the same
on any machine as long as the clock cap is not reached first (`Search.capped`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from ...autoplay import AutoPlayer, Budget, Search, clearly_behind, judged
from ...protocol import Action, Game, RuleError, Worth
from ..state import State
from .greedy import DEFAULT, Weights, decide
from .turns import candidate_turns

WIDTH = 6  # whole turns compared
BEAM = 3  # steps tried from each partial turn
ROUNDS = None  # rounds a rollout plays after the candidate before it is judged (None: to the end)
WIN_BONUS = 4.0  # points a win is worth beyond the margin, when a rollout reaches the end
TOKEN_WORTH = 0.3  # a branch token in hand at the horizon (it may pay for a branch)
MIN_DEALS = 3  # deals each candidate should get at least (fewer candidates otherwise)
PRUNE_AFTER = 4
PRUNE_Z = 2.0
RESERVE = 0.03  # share of the budget kept back: a shared machine may be slow to hand the CPU back
# The weights this player plans its own future moves with (`tools/tune_underground.py` finds
# them: one greedy player with them wins 46 % of held-out 4-player games against three with the
# greedy level's, 26 % with those): a truer plan of its own makes a turn's play-outs truer. The
# ladder accepted them (docs/developers/benchmarks.md, "own-a").
OWN = Weights(gamma=0.45, token=0.3, forgo=0.15, express=1.3, standard=0.9)
# ... from this many players on, where the ladder accepted it (4 and 5): in 2-player games, against the
# greedy level, a player planning with OWN won 84.0 % of 200 held-out games against 95.2 % with
# the greedy level's own weights (86.5 / 91.2 % on the ladder's seeds), and with 3 players the
# ladder found no difference (H0, -1.5 Elo [-25.6, +22.7]), so there it keeps those.
OWN_FROM = 4
# Simulated steps a second of budget: in `bench/ai_underground.py` a 1 s decision took 0.24 s
# of CPU median, 0.54 s at most, on the reference machine.
WORK_RATE = 800


class StrongPlayer(AutoPlayer):
    level = "strong"
    work_rate = WORK_RATE

    def __init__(
        self,
        width: int = WIDTH,
        beam: int = BEAM,
        rounds: int | None = ROUNDS,
        win_bonus: float = WIN_BONUS,
        token_worth: float = TOKEN_WORTH,
        prune_z: float = PRUNE_Z,
        margin_cap: float | None = None,
        own: Weights = OWN,
        own_from: int = OWN_FROM,
    ):
        self.width = width
        self.beam = beam
        self.rounds = rounds  # None: rollouts play to the end of the game
        self.win_bonus = win_bonus
        self.token_worth = token_worth
        self.prune_z = prune_z
        # A finished rollout's margin held within ±margin_cap (None: as it is): a win by 30
        # points and one by 3 are the same win, and in a 4-player game the blowouts of the
        # rollouts' luck would otherwise outweigh how often a turn wins (issue 75's ladder).
        self.margin_cap = margin_cap
        # The valuation this player plans its own moves with, in its candidate turns and its
        # rollouts (from `own_from` players on); the other seats are expected to play as the
        # greedy level does (`DEFAULT`).
        self.own = own
        self.own_from = own_from
        self.last = Search()

    def choose(
        self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random, budget: Budget = Budget()
    ) -> Action:
        return self.plan(game, view, viewer, seat, rnd, budget)[0]

    def plan(
        self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random, budget: Budget = Budget()
    ) -> list[Action]:
        deadline = budget.deadline() - RESERVE * budget.seconds
        self.last = Search()
        s = game.determinize(view, viewer, rnd)
        legal = game.legal_actions(s, seat)
        if not legal:
            raise RuleError(f"{seat} owes no decision now.", "not_your_turn")
        cands = candidate_turns(game, s, seat, self.width, self.beam, deadline, rnd, budget.clock, self._own(s))
        self.last.candidates = len(cands)
        best = (
            cands[self._search(game, view, viewer, seat, cands, rnd, budget, deadline)] if len(cands) > 1 else cands[0]
        )
        self.last.capped = self.last.capped or budget.clock() > deadline
        return list(best)

    # ------------------------------------------------------------ rollouts
    def _search(
        self,
        game: Game,
        view: dict[str, Any],
        viewer: str,
        seat: str,
        cands: list[list[Action]],
        rnd: random.Random,
        budget: Budget,
        deadline: float,
    ) -> int:
        outcomes: list[list[float]] = [[] for _ in cands]
        alive = list(range(len(cands)))
        last = self.last
        clock = budget.clock
        began = clock()
        while len(alive) > 1:
            if budget.iterations is not None and last.work >= budget.iterations:
                break  # whole rounds only, so every survivor has played the same deals
            world = game.determinize(view, viewer, rnd)
            seed = rnd.getrandbits(64)
            for c in list(alive):
                if c not in alive:
                    break  # cut after the first rollout (the candidates kept come first)
                # A rollout unlikely to finish in time is not started, and one the deadline
                # overtakes is abandoned: the cap is a promise to the caller.
                now = clock()
                if now >= deadline or (last.rollouts and now + (now - began) / last.rollouts > deadline):
                    last.capped = True
                    return _best(alive, outcomes)
                outcome = self._rollout(game, world, seat, cands[c], random.Random(seed), deadline, clock)
                if outcome is None:
                    last.capped = True
                    return _best(alive, outcomes)  # out of time: an unfinished rollout says nothing
                outcomes[c].append(outcome)
                last.rollouts += 1
                if last.rollouts == 1:  # now the budget can be read in rollouts
                    alive = _fewer(alive, self._affordable(last.work, budget, deadline, began))
            alive = self._survivors(alive, outcomes)
        return _best(alive, outcomes)

    @staticmethod
    def _affordable(length: int, budget: Budget, deadline: float, began: float) -> int:
        """Rollouts the budget buys, judged by the first one (`length` steps): by the
        work bound when there is one (the same on any machine), else by the clock."""
        if budget.iterations is not None:
            return budget.iterations // max(length, 1) + 1
        took = budget.clock() - began
        return int(max(0.0, deadline - budget.clock()) / max(took, 1e-6)) + 1

    def _rollout(
        self,
        game: Game,
        world: State,
        seat: str,
        steps: list[Action],
        rnd: random.Random,
        deadline: float,
        clock: Callable[[], float],
    ) -> float | None:
        final = self._played_out(game, world, seat, steps, rnd, deadline, clock)
        return None if final is None else self._value(final, seat)

    def _played_out(
        self,
        game: Game,
        world: State,
        seat: str,
        steps: list[Action],
        rnd: random.Random,
        deadline: float = math.inf,
        clock: Callable[[], float] = time.process_time,
        own: Weights | None = None,
    ) -> State | None:
        """`steps` played, then every seat greedily to the end (or `rounds` rounds), `seat` by
        `own` (this player's own weights if None): the state reached, None when the deadline
        came first."""
        for action in steps:
            world, _ = game.apply(world, seat, action)
        self.last.work += len(steps)  # a turn that ends the game still costs work
        stop = world.turn_count + self.rounds * len(world.players) if self.rounds is not None else math.inf
        own = self._own(world) if own is None else own
        while world.phase != "finished" and world.turn_count < stop:
            if clock() > deadline:
                return None
            mover = world.player
            world, _ = game.apply(world, mover, decide(world, mover, rnd, own if mover == seat else DEFAULT))
            self.last.work += 1
        return world

    def alternatives(
        self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random
    ) -> list[list[Action]]:
        """The candidate turns a decision of this player compares (`Judge.alternatives`), best
        first by its valuation; the seat's own turns depend only on what its view shows."""
        s = game.determinize(view, viewer, rnd)
        if not game.legal_actions(s, seat):
            return []
        return candidate_turns(game, s, seat, self.width, self.beam, rnd=rnd, w=self._own(s))

    def judge(
        self,
        game: Game,
        view: dict[str, Any],
        viewer: str,
        seat: str,
        turns: list[list[Action]],
        rnd: random.Random,
        deals: int,
    ) -> list[Worth]:
        """What each of `turns` is worth by this player's rollouts (see `Judge.judge`): the
        same drawn states and generators for every turn, played out to the end. Every seat,
        the reviewed person's included, plays on as the greedy level does: a review judges a
        person's move by what a person, not this player, would likely make of it (with this
        player's own weights, its estimate named the better of two moves in 25 of 40
        held-out positions, 29 of 40 this way; docs/developers/benchmarks.md)."""

        def play_out(world: State, steps: list[Action], generator: random.Random) -> State:
            final = self._played_out(game, world, seat, steps, generator, own=DEFAULT)
            assert final is not None, "no deadline: a play-out always ends"
            return final

        def measure(final: State) -> tuple[float, float, float]:
            scores = final.scores()
            margin = scores[seat] - max(v for p, v in scores.items() if p != seat)
            wins = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
            return self._value(final, seat), float(scores[seat]), wins

        return judged(game, view, viewer, turns, rnd, deals, play_out, measure)

    def _own(self, s: State) -> Weights:
        """The weights this seat plans its own moves with in a game like `s`."""
        return self.own if len(s.players) >= self.own_from else DEFAULT

    def _value(self, s: State, seat: str) -> float:
        scores = s.scores()
        best_other = max(v for p, v in scores.items() if p != seat)
        margin = scores[seat] - best_other
        if s.phase == "finished":
            if self.margin_cap is not None:
                margin = max(-self.margin_cap, min(self.margin_cap, margin))
            return margin + (self.win_bonus if margin > 0 else self.win_bonus / 2 if margin == 0 else 0.0)
        return margin + self.token_worth * s.tokens[seat]

    def _survivors(self, alive: list[int], outcomes: list[list[float]]) -> list[int]:
        """Drop candidates clearly worse than the leader on the deals both played."""
        n = min(len(outcomes[c]) for c in alive)
        if n < PRUNE_AFTER:
            return alive
        leader = max(alive, key=lambda c: sum(outcomes[c][:n]))
        if all(outcomes[c][:n] == outcomes[leader][:n] for c in alive):
            return [leader]  # the same on every deal (late in the game): more deals will not part them
        return [
            c for c in alive if c == leader or not clearly_behind(outcomes[leader][:n], outcomes[c][:n], self.prune_z)
        ]


def _fewer(alive: list[int], rollouts: int) -> list[int]:
    """The candidates (best prior first) that `rollouts` can give MIN_DEALS deals each:
    one deal each tells little, and early in the game a rollout to the end is long."""
    return alive[: max(2, min(len(alive), rollouts // MIN_DEALS))]


def _best(alive: list[int], outcomes: list[list[float]]) -> int:
    """The candidate with the best mean on the deals all survivors played; before a first
    round is complete, among those that played its deal (the greedy turn if alone)."""
    n = min(len(outcomes[c]) for c in alive)
    if n == 0:
        alive = [c for c in alive if outcomes[c]] or alive[:1]
        n = 1 if outcomes[alive[0]] else 0
    return max(alive, key=lambda c: (sum(outcomes[c][:n]), -c))
