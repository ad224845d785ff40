"""The strong level: whole turns planned, then tried out by playing the game to its end.

A decision is about a whole turn (up to three tunnels and a bonus station, or one
station), because the steps of a turn only make sense together:
1. `turns.candidate_turns` lists a handful of promising turns by a beam search over
   steps, judged by the estimate (`estimate.py`); the greedy player's own turn is among
   them.
2. Each candidate is tried out by rollouts: from a state drawn with `determinize` (so
   hidden hands are only ever sampled, never read), the candidate's steps are played and
   then every seat plays greedily to the end of the game; the real scoring phase says
   who won. A candidate's worth is its mean result (a win, plus the margin as a
   tie-break). Rollouts go first to every candidate once (the greedy turn first, then
   by estimate), then to the most promising ones (UCB1), until the budget is spent. A
   rollout the deadline interrupts is dropped; with no rollout at all (a tiny budget,
   a slow machine) the greedy turn is played. `depth` can cut rollouts short after so
   many turns, judged by the estimated points (`projected`); by default they run to
   the end, which measured better at equal time.
   With `crn` (issue 75), the deals are shared instead: on each deal (a state drawn
   from the view and a generator's seed) every candidate still in the running is played
   out with the same generator, so two candidates' results differ by their own effect,
   not by the luck of the hidden hands (common random numbers). After the first rollout
   the budget is read in rollouts and only as many candidates (best estimate first, which
   also breaks ties: two turns often end in the very same scores) are kept as can each get
   `min_deals` deals; a candidate `prune_z` standard
   errors of its paired differences behind the leader is dropped, and when every deal
   gave all the same result the search stops (nothing hidden, the same play). `rounds`
   cuts its rollouts after so many rounds, judged by `projected`; None plays to the end.
   Whether it is the default is the ladder's call (`bench/ladder.py`, its SPRT results
   in docs/developers/benchmarks.md).
   With `leaf="fitted"` (issue 75), a cut rollout is judged by the evaluation fitted on
   self-play (`value.py`) instead of `projected`; `rounds=0` judges a candidate right after
   its own turn, and `early` does so (on shared deals) only while the game's progress is
   below it, where one rollout to the end would be the whole budget, the search above
   otherwise. None of these is the default: the ladder accepted none (benchmarks.md).
3. `plan` returns the best turn's steps, all of them: the caller plays the whole turn
   at once (`autoplay.take_turn`), so a turn costs one search. Nothing hidden is
   revealed within a turn, so every step stays legal. `choose` is the plan's first step.

The work of a search (`Budget.iterations`) is counted in simulated steps (the
candidate's own included, so a turn that ends the game still costs work): a rollout
early in the game plays a hundred steps and late in it a handful, so counting rollouts
would either overrun the clock early or waste it late. A step costs about the same
everywhere (the greedy ranks a seat's legal steps), so `WORK_RATE` steps a second keep
a decision well within its seconds, and a seeded decision is the same on any machine as
long as the clock cap is not reached first (`Search.capped`). With two players a decision
gets more work (`WORK_FACTOR`): the ladder found it stronger there, not with four.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ...autoplay import AutoPlayer, Budget, Search, clearly_behind, judged
from ...protocol import Action, Game, Worth
from ..state import State
from .estimate import WEIGHTS, Estimator, Weights
from .greedy import rank
from .simulate import step
from .turns import candidate_turns
from .value import leaf_value, progress

UCB_C = 0.5  # exploration weight (results are in wins, roughly 0..1)
MARGIN_WEIGHT = 1 / 200  # points of margin, as a tie-break between equal win chances
LEAD_SCALE = 6.0  # an estimated lead of this many points: a win three times in four
# Simulated steps a second of budget: a 1 s decision stays well within its second (a step's
# and a decision's CPU: docs/developers/benchmarks.md, "A cheaper greedy step"). More steps
# for the CPU the look-ahead's steps saved were not stronger on the ladder with four players
# (the same place); with two they were, hence `WORK_FACTOR`.
WORK_RATE = 100
# A decision's work, times the budget's, by the number of players where it is not 1 (issue 75):
# with two players 189 steps a second, about the CPU a decision took before the cheaper steps.
# The ladder accepted it with two players and rejected it with four (docs/developers/benchmarks.md,
# "With two players, more work").
WORK_FACTOR: dict[int, float] = {2: 1.89}
# Issue 75's search (common random numbers): not the default, the ladder did not accept it
# (docs/developers/benchmarks.md, "The ladder").
CRN = False
# With it: rollouts to the end (ROUNDS None; a number cuts them after so many rounds, each seat
# one turn, judged by the estimate, which cannot see the trips: cut after one, it measured
# worse); each candidate kept gets MIN_DEALS deals at least; after PRUNE_AFTER deals a
# candidate PRUNE_Z standard errors behind the leader is dropped.
ROUNDS: float | None = None
MIN_DEALS = 3
PRUNE_AFTER = 4
PRUNE_Z = 2.0
NOISE = 0.1
# The fitted evaluation's cost in simulated steps: every seat's features (an estimator each and
# the scoring phase on the unfinished position) take about as long as one greedy step.
LEAF_WORK = 1


@dataclass
class Candidate:
    steps: list[Action]
    prior: float
    total: float = 0.0
    n: int = 0

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else -math.inf


class StrongPlayer(AutoPlayer):
    level = "strong"
    work_rate = WORK_RATE

    def __init__(
        self,
        width: int = 6,
        beam: int = 3,
        noise: float | None = None,
        margin: float = MARGIN_WEIGHT,
        depth: int | None = None,
        crn: bool = CRN,
        rounds: float | None = ROUNDS,
        min_deals: int = MIN_DEALS,
        prune_z: float = PRUNE_Z,
        leaf: str = "estimate",
        early: float | None = None,
        own: Weights = WEIGHTS,
        played: Weights | None = None,
        trust: int = 1,
        factor: dict[int, float] | None = None,
    ):
        self.width = width  # candidate turns kept
        self.beam = beam  # steps tried from each partial turn
        self.crn = crn  # common random numbers (issue 75); False: the first version's search
        # randomness of the greedy play in rollouts
        self.noise = noise if noise is not None else (NOISE if crn else 0.3)
        self.margin = margin  # weight of a point of margin beside a win
        self.depth = depth  # turns a rollout plays after the candidate's (None: to the end)
        self.rounds = rounds  # with crn: rounds a rollout plays after the candidate's (None: to the end)
        self.min_deals = min_deals
        self.prune_z = prune_z
        # how a cut rollout is judged: "estimate" (`projected`) or "fitted" (`value.py`, issue 75)
        self.leaf = leaf
        # below this progress of the game (`value.progress`), where a rollout to the end costs a
        # whole budget, the candidates are judged right after their turn on shared deals instead
        self.early = early
        # the estimate's weights this player plans its own moves with (candidate turns, and
        # its own moves in rollouts); the other seats are expected to play as the greedy level
        self.own = own
        # the weights its own later moves in rollouts are played by (None: `own`)
        self.played = own if played is None else played
        self.trust = trust  # rollouts a candidate needs before its mean is believed
        # the work of a decision, times the budget's, by the number of players (`WORK_FACTOR`)
        self.factor = WORK_FACTOR if factor is None else factor
        self.last = Search()

    def choose(
        self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random, budget: Budget = Budget()
    ) -> Action:
        return self.plan(game, view, viewer, seat, rnd, budget)[0]

    def plan(
        self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random, budget: Budget = Budget()
    ) -> list[Action]:
        deadline = budget.deadline()
        self.last = Search()
        s = game.determinize(view, viewer, rnd)
        legal = game.legal_actions(s, seat)
        if not legal:
            raise ValueError(f"{seat} has no legal action")
        if len(legal) == 1:
            return legal[:1]  # forced; the next decision sees what follows
        budget = self.for_players(budget, len(s.players))
        turns = candidate_turns(game, s, seat, self.width, self.beam, deadline, budget.clock, self.own)
        cands = [Candidate(steps, prior) for prior, steps in turns]
        self.last.candidates = len(cands)
        early = self.early is not None and progress(s) < self.early
        if len(cands) > 1 and (self.crn or early):
            cut = 0 if early else None
            best = cands[self._search(game, view, viewer, seat, s, cands, rnd, budget, deadline, cut)]
            self.last.capped = self.last.capped or budget.clock() > deadline
            return list(best.steps)
        if len(cands) > 1:
            self._try_out(game, view, viewer, seat, s, cands, rnd, budget, deadline)
        self.last.capped = self.last.capped or budget.clock() > deadline
        # A candidate's mean counts once it has `trust` rollouts; when no candidate has that many,
        # the first (the greedy turn by the player's own weights) is played. With the default, 1,
        # this is the best mean of those tried, as before the option.
        trusted = [c for c in cands if c.n >= self.trust]
        best = max(trusted, key=lambda c: (c.mean, c.prior)) if trusted else cands[0]
        return list(best.steps)

    def for_players(self, budget: Budget, players: int) -> Budget:
        """`budget` for a game of `players`: its work times `factor` for that number (a work
        bound stays one, so a decision still depends only on the view and the generator; the
        seconds, the clock's cap, are the caller's)."""
        times = self.factor.get(players, 1.0)
        if budget.iterations is None or times == 1.0:
            return budget
        return replace(budget, iterations=max(1, round(budget.iterations * times)))

    # ------------------------------------------------------------ common random numbers
    def _search(
        self,
        game: Game,
        view: dict[str, Any],
        viewer: str,
        seat: str,
        s: State,
        cands: list[Candidate],
        rnd: random.Random,
        budget: Budget,
        deadline: float,
        cut: int | None = None,
    ) -> int:
        """The best candidate's index by deals shared across candidates: on each deal (a state
        drawn from the view and a generator's seed) every candidate still in the running is
        played out, so two candidates' results differ by their own effect, not by luck."""
        hidden = any(m.get("letter") is None for m in view["markers"])
        person = game.owner(s, seat)
        outcomes: list[list[float]] = [[] for _ in cands]
        # Best estimate first: the candidates kept when the budget is short, and the tie-break
        # (equal results are common: two turns often lead to the same final scores).
        alive = sorted(range(len(cands)), key=lambda c: -cands[c].prior)
        priors = [c.prior for c in cands]
        last = self.last
        # Turns played after the candidate's own: 0 judges the position right after it.
        stop_after = None if self.rounds is None else max(0, round(self.rounds * len(s.players)))
        if cut is not None:
            stop_after = cut
        while len(alive) > 1:
            if budget.iterations is not None and last.work >= budget.iterations:
                break  # whole deals only, so every survivor has played the same ones
            world = game.determinize(view, viewer, rnd) if hidden else s
            seed = rnd.getrandbits(64)
            for c in list(alive):
                if c not in alive:
                    break  # cut after the first rollout (the candidates kept come first)
                if budget.clock() >= deadline:
                    last.capped = True
                    return _best(alive, outcomes, priors)
                final = self._played_out(
                    game, world, seat, cands[c].steps, random.Random(seed), deadline, budget.clock, stop_after
                )
                if final is None:
                    last.capped = True
                    return _best(alive, outcomes, priors)  # out of time: an unfinished rollout says nothing
                if game.is_over(final):
                    outcomes[c].append(result(game, final, person, self.margin))
                else:
                    outcomes[c].append(self._judged(game, final, person))
                last.rollouts += 1
                if last.rollouts == 1 and budget.iterations is not None:
                    # Now the budget can be read in rollouts: keep as many candidates (best
                    # estimate first) as can each get `min_deals` deals.
                    affordable = budget.iterations // max(last.work, 1) + 1
                    alive = alive[: max(2, min(len(alive), affordable // self.min_deals))]
            alive = self._survivors(alive, outcomes, priors)
        return _best(alive, outcomes, priors)

    def _judged(self, game: Game, s: State, person: str) -> float:
        """A cut rollout's position, by the chosen leaf evaluation (its features cost about a
        simulated step each: `LEAF_WORK`)."""
        if self.leaf == "fitted":
            self.last.work += LEAF_WORK
            return leaf_value(s, person, self.margin)
        return projected(game, s, person, self.margin)

    def _survivors(self, alive: list[int], outcomes: list[list[float]], priors: list[float]) -> list[int]:
        """Drop candidates clearly worse than the leader on the deals both played; stop when
        every deal gave all of them the same result (nothing hidden, the same play: more
        deals would not part them)."""
        n = min(len(outcomes[c]) for c in alive)
        if n == 0:
            return alive
        leader = max(alive, key=lambda c: (sum(outcomes[c][:n]), priors[c]))
        if n >= 2 and all(outcomes[c][:n] == outcomes[leader][:n] for c in alive):
            return [leader]
        if n < PRUNE_AFTER:
            return alive
        return [
            c for c in alive if c == leader or not clearly_behind(outcomes[leader][:n], outcomes[c][:n], self.prune_z)
        ]

    # ------------------------------------------------------------ rollouts
    def _try_out(
        self,
        game: Game,
        view: dict[str, Any],
        viewer: str,
        seat: str,
        s: State,
        cands: list[Candidate],
        rnd: random.Random,
        budget: Budget,
        deadline: float,
    ) -> None:
        hidden = any(m.get("letter") is None for m in view["markers"])
        person = game.owner(s, seat)
        last = self.last
        while budget.iterations is None or last.work < budget.iterations:
            if budget.clock() >= deadline:
                last.capped = True
                break
            done = last.rollouts
            if done < len(cands):
                cand = cands[done]  # everyone once, best estimate first
            else:
                log_n = math.log(done)
                cand = max(cands, key=lambda c: c.mean + UCB_C * math.sqrt(log_n / c.n))
            world = game.determinize(view, viewer, rnd) if hidden else s
            outcome = self._rollout(game, world, seat, person, cand.steps, rnd, deadline, budget.clock)
            if outcome is None:
                last.capped = True
                break  # out of time: an unfinished rollout says nothing
            cand.total += outcome
            cand.n += 1
            last.rollouts += 1

    def _rollout(
        self,
        game: Game,
        world: State,
        seat: str,
        person: str,
        steps: list[Action],
        rnd: random.Random,
        deadline: float,
        clock: Callable[[], float],
    ) -> float | None:
        final = self._played_out(game, world, seat, steps, rnd, deadline, clock)
        if final is None:
            return None
        if not game.is_over(final):
            return self._judged(game, final, person)
        return result(game, final, person, self.margin)

    def _played_out(
        self,
        game: Game,
        world: State,
        seat: str,
        steps: list[Action],
        rnd: random.Random,
        deadline: float = math.inf,
        clock: Callable[[], float] = time.process_time,
        turns: int | None = None,
    ) -> State | None:
        """`steps` played, then every seat greedily to the end (or `turns`, else `depth`,
        turns): the state reached, None when the deadline came first."""
        for action in steps:
            world = step(world, action)
        self.last.work += len(steps)  # a turn that ends the game still costs work (and its scoring)
        depth = turns if turns is not None else self.depth
        stop = game.turn_number(world) + depth if depth is not None else math.inf
        while not game.is_over(world):
            if clock() > deadline:
                return None
            if game.turn_number(world) >= stop:
                return world
            mover = world.players[world.current]
            actions = game.legal_actions(world, mover)
            if len(actions) == 1:
                action = actions[0]
            else:
                ranked = rank(game, world, mover, actions, self.played if mover == seat else WEIGHTS)
                action = actions[max(ranked, key=lambda x: x[0] + self.noise * rnd.random())[1]]
            world = step(world, action)
            self.last.work += 1
        return world

    def alternatives(
        self, game: Game, view: dict[str, Any], viewer: str, seat: str, rnd: random.Random
    ) -> list[list[Action]]:
        """The candidate turns a decision of this player compares (`Judge.alternatives`), best
        estimate first; the seat's own legal steps depend only on what its view shows."""
        s = game.determinize(view, viewer, rnd)
        if not game.legal_actions(s, seat):
            return []
        return [steps for _, steps in candidate_turns(game, s, seat, self.width, self.beam, weights=self.own)]

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
        same drawn states and generators for every turn, played out to the end."""

        def play_out(world: State, steps: list[Action], generator: random.Random) -> State:
            final = self._played_out(game, world, seat, steps, generator)
            assert final is not None, "no deadline: a play-out always ends"
            return final

        def measure(final: State) -> tuple[float, float, float]:
            person = game.owner(final, seat)
            if not game.is_over(final):  # a cut rollout (`depth`): its estimate
                value = projected(game, final, person, self.margin)
                return value, 0.0, value
            winners: list[str] = final.result["winners"] if final.result else []
            wins = (1.0 / len(winners)) if person in winners else 0.0
            return result(game, final, person, self.margin), float(_totals(game, final)[person]), wins

        return judged(game, view, viewer, turns, rnd, deals, play_out, measure)


def _best(alive: list[int], outcomes: list[list[float]], priors: list[float]) -> int:
    """The candidate with the best mean on the deals all survivors played (ties: the better
    estimate); before a first deal is complete, the best estimate."""
    n = min(len(outcomes[c]) for c in alive)
    return max(alive, key=lambda c: (sum(outcomes[c][:n]), priors[c]))


def _totals(game: Game, final: State) -> dict[str, int]:
    totals: dict[str, int] = {}
    for p, points in final.scores.items():
        owner = game.owner(final, p)
        totals[owner] = totals.get(owner, 0) + points
    return totals


def result(game: Game, final: State, person: str, margin: float = MARGIN_WEIGHT) -> float:
    """A finished game from one person's side: 1 for a win, 1/2 shared, plus the margin
    over the best other person as a small tie-break."""
    totals: dict[str, int] = {}
    for p, points in final.scores.items():
        owner = game.owner(final, p)
        totals[owner] = totals.get(owner, 0) + points
    winners: list[str] = final.result["winners"] if final.result else []
    win = (1.0 / len(winners)) if person in winners else 0.0
    best_other = max((v for p, v in totals.items() if p != person), default=0)
    return win + margin * (totals[person] - best_other)


def projected(game: Game, s: State, person: str, margin: float = MARGIN_WEIGHT) -> float:
    """An unfinished game from one person's side, as `result` would see it if the
    estimated points came true: the chance of a win grows smoothly with the margin."""
    totals: dict[str, float] = {}
    for i, seat in enumerate(s.players):
        owner = game.owner(s, seat)
        totals[owner] = totals.get(owner, 0.0) + Estimator(s, i).value(s, shaping=False)
    lead = totals[person] - max((v for p, v in totals.items() if p != person), default=0.0)
    return 1 / (1 + math.exp(-lead / LEAD_SCALE)) + margin * lead
