"""The "strong" level: determinized rollouts of the rest of the game.

For the card on the table the player lists its legal moves, keeps the few the greedy
heuristic rates best (`WIDTH`), and compares them by playing the whole rest of the game
many times over:

1. draw a determinization, a whole state consistent with the player's view (deck order
   and other players' sealed choices sampled by `Game.determinize`: no peeking);
2. for every candidate, on that same state and with the same rollout generator (common
   random numbers, so candidates are compared on equal luck), play the candidate, then
   finish the round and the game with the greedy for every seat, self included (the
   greedy's choices remembered within the decision, `policy.Memo`: the other seats' sheets
   are the same in every candidate's rollout on a deal until a line race parts them);
3. score the final sheets: own score minus the best other score, plus a bonus for
   winning (`WIN_BONUS`, half of it when shared). Line races need no extra term: whoever
   completes a line first in the rollout takes its high value there.

Candidates that are clearly worse than the leader on the paired outcomes are dropped as
the samples come in (a z-test on the per-determinization differences), so the work goes
to the close calls, and the search stops early once one candidate is left.

This is one step of policy improvement over the greedy: it plays what would be best if
everybody played greedily afterwards. Work is bounded by `budget.seconds` (checked
between rollouts) and, when given, `budget.iterations` = simulated steps (one seat's
move in a rollout; no new round of deals starts once they are spent), which makes a
seeded decision the same on any machine unless the clock runs out first
(`Search.capped`), times `WORK_FACTOR` for the number of players (2: 1.25, 4: 1.5). Steps, not
rollouts: a rollout in the first round plays the whole game and one in the last round a
step or two. A decision is one step of a chain (a
special station's extra action is decided when it is owed, seeing the marks just made).
"""

from __future__ import annotations

import random
from typing import Any

from ...autoplay import AutoPlayer, Budget, Search, clearly_behind
from ...protocol import Action, Game, RuleError, Worth
from .policy import DEFAULT, Memo, Tuning, estimate, play_out
from .sim import Sim, board_for

# Candidates searched: the heuristic's top picks. Wider spreads the same rollouts thinner; the
# heuristic's rating only needs to put the best move among its first few, not first.
WIDTH = 8
WIN_BONUS = 4.0  # points a win is worth beyond the margin: ties are common on some maps
# Pruning: after PRUNE_AFTER determinizations, a candidate whose paired mean difference to the
# leader exceeds PRUNE_Z standard errors is dropped. Early and loose pays off at small budgets
# (40 seeded 2-player games at 60 rollouts a decision: 35 wins against greedy, 29 when pruning
# after 8 at z = 2.5); at 150 rollouts both settings won 37-39 of 40.
PRUNE_AFTER = 4
PRUNE_Z = 2.0
# Simulated steps a second of budget: in `bench/ai_flipwrite.py` a 1 s decision took 0.09 s of
# CPU median, 0.25 s at most, on the reference machine (already 95 % of wins against greedy).
WORK_RATE = 6000
# A decision's work, times the budget's, by the number of players where it is not 1 (issue 75):
# since a decision's play-outs remember the greedy's moves (`policy.Memo`) a 4-player decision
# takes 0.63 times the CPU and a 2-player one 0.78, so 1.5 and 1.25 times the work cost about
# what a decision did before; the ladder accepted both (docs/developers/benchmarks.md,
# "Flip-and-write: the greedy's moves remembered"). Other numbers of players (untested) play at
# the budget's work.
WORK_FACTOR: dict[int, float] = {2: 1.25, 4: 1.5}


class StrongPlayer(AutoPlayer):
    level = "strong"
    work_rate = WORK_RATE

    def __init__(
        self,
        width: int = WIDTH,
        win_bonus: float = WIN_BONUS,
        prune_z: float = PRUNE_Z,
        prune_after: int = PRUNE_AFTER,
        own: Tuning = DEFAULT,
        factor: dict[int, float] | None = None,
    ):
        # the estimate's constants this player ranks its candidates and plays its own moves in
        # rollouts with; the other seats are expected to play as the greedy level (`DEFAULT`)
        self.own = own
        self.width = width
        self.win_bonus = win_bonus
        self.prune_z = prune_z
        self.prune_after = prune_after
        # the work of a decision, times the budget's, by the number of players (`WORK_FACTOR`)
        self.factor = WORK_FACTOR if factor is None else factor
        self.last = Search()

    def choose(
        self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random, budget: Budget = Budget()
    ) -> Action:
        # 3 % of the budget is kept back for the moments a shared machine hands the CPU to
        # others: a late answer can cost a player their round clock.
        deadline = budget.deadline() - 0.03 * budget.seconds
        self.last = last = Search()
        if seat not in view.get("waiting", ()):
            raise RuleError(f"{seat} owes no decision now.", rule="not_your_move")
        base = game.determinize(view, viewer, rnd)
        board = board_for(base.map)
        me = list(base.players).index(seat)
        candidates = self._candidates(game, base, seat)
        last.candidates = len(candidates)
        if len(candidates) == 1:
            return candidates[0]
        moves = [board.to_move(a) for a in candidates]
        outcomes: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        limit = budget.iterations
        if limit is not None:  # still a work bound: the same decision on any machine
            limit = max(1, round(limit * self.factor.get(len(base.players), 1.0)))
        clock = budget.clock
        memo: Memo = {}
        began = clock()
        while len(alive) > 1:
            if limit is not None and last.work >= limit:
                break  # whole rounds of candidates only, so every survivor has played the same deals
            state = game.determinize(view, viewer, rnd)
            start = Sim.from_state(board, state)
            seed = rnd.getrandbits(64)
            for c in alive:
                # Stop before a rollout that might end past the deadline (twice the mean
                # rollout time left over): the cap is a promise to the caller, not a target.
                now = clock()
                if (last.rollouts and now + 2 * (now - began) / last.rollouts > deadline) or now >= deadline:
                    last.capped = True
                    return candidates[self._best(alive, outcomes)]
                sim = start.copy()
                sim.act(me, moves[c])
                # the candidate's step counts too
                last.work += 1 + play_out(sim, random.Random(seed), (me, self.own), memo)
                outcomes[c].append(self._value(sim, me))
                last.rollouts += 1
            alive = self._survivors(alive, outcomes)
        return candidates[self._best(alive, outcomes)]

    def alternatives(
        self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random
    ) -> list[list[Action]]:
        """The decisions this player compares (`Judge.alternatives`): its `width` best legal
        ones by its estimate, best first, each a single step."""
        if seat not in view.get("waiting", ()):
            return []
        return [[a] for a in self._candidates(game, game.determinize(view, viewer, rnd), seat)]

    def _candidates(self, game: Game, base: Any, seat: str) -> list[Action]:
        """The `width` best legal decisions by the estimate with this player's own constants,
        best first. Own legal moves only depend on what the view shows: any state drawn from it
        lists them."""
        legal = game.legal_actions(base, seat)
        board = board_for(base.map)
        root = Sim.from_state(board, base)
        me = list(base.players).index(seat)
        ranked = sorted(range(len(legal)), key=lambda k: -estimate(root, me, board.to_move(legal[k]), self.own))
        return [legal[k] for k in ranked[: self.width]]

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
        """What each decision of `turns` (one step each) is worth by this player's rollouts
        (see `Judge.judge`): the same drawn states and generators for every one, the rest of
        the game played greedily by everyone."""
        base = game.determinize(view, viewer, rnd)
        board = board_for(base.map)
        me = list(base.players).index(seat)
        moves = [[board.to_move(a) for a in steps] for steps in turns]
        sums = [[0.0, 0.0, 0.0] for _ in turns]
        memo: Memo = {}
        for _ in range(deals):
            start = Sim.from_state(board, game.determinize(view, viewer, rnd))
            seed = rnd.getrandbits(64)
            for k, steps in enumerate(moves):
                sim = start.copy()
                for move in steps:
                    sim.act(me, move)
                play_out(sim, random.Random(seed), None, memo)
                totals = sim.totals()
                for i, x in enumerate((self._value(sim, me), float(totals[me][0]), _won(totals, me))):
                    sums[k][i] += x
        n = max(deals, 1)
        return [Worth(v / n, p / n, w / n) for v, p, w in sums]

    def _value(self, sim: Sim, me: int) -> float:
        totals = sim.totals()
        mine = totals[me]
        if len(totals) == 1:
            return float(mine[0])
        others = [t for k, t in enumerate(totals) if k != me]
        margin = mine[0] - max(t[0] for t in others)
        best_other = max((t[0], -t[1]) for t in others)
        rank = (mine[0], -mine[1])
        if rank > best_other:
            return margin + self.win_bonus
        return margin + (self.win_bonus / 2 if rank == best_other else 0.0)

    def _survivors(self, alive: list[int], outcomes: list[list[float]]) -> list[int]:
        """Drop candidates clearly worse than the leader on the determinizations both played."""
        n = min(len(outcomes[c]) for c in alive)
        if n < self.prune_after:
            return alive
        leader = max(alive, key=lambda c: sum(outcomes[c][:n]))
        if all(outcomes[c][:n] == outcomes[leader][:n] for c in alive):
            return [leader]  # the same on every deal (the last rounds): more deals will not part them
        return [
            c for c in alive if c == leader or not clearly_behind(outcomes[leader][:n], outcomes[c][:n], self.prune_z)
        ]

    def _best(self, alive: list[int], outcomes: list[list[float]]) -> int:
        """The candidate with the best mean on the determinizations all survivors played
        (the first, i.e. the heuristic's favourite, when nothing was played)."""
        n = min(len(outcomes[c]) for c in alive)
        if n == 0:
            return alive[0]
        return max(alive, key=lambda c: (sum(outcomes[c][:n]), -c))


def _won(totals: list[tuple[int, int]], me: int) -> float:
    """1 for a win (by the score, then the tie-break), 1/2 shared, 0 lost; alone: 1."""
    others = [(t[0], -t[1]) for k, t in enumerate(totals) if k != me]
    if not others:
        return 1.0
    rank, best_other = (totals[me][0], -totals[me][1]), max(others)
    return 1.0 if rank > best_other else 0.5 if rank == best_other else 0.0
