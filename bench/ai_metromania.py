"""MetrOmania automatic players: how often each level wins, and how long it thinks.

  python -m bench.ai_metromania [--games N] [--seconds S] [--iterations K] [--jobs J]
                                [--first-seed F] [--only a|b]

The two settings, how games are seeded and seats rotated, how ties count: see
`bench/aiplay.py`. The strong player plays as the bot does by default: at most 1 s a
decision, its search bounded by work (`StrongPlayer.work_rate` simulated steps a second).
"""

from __future__ import annotations

from collections.abc import Callable

from metrobot.games.autoplay import AutoPlayer
from metrobot.games.metromania.ai.estimate import Weights

from . import aiplay

SLOW = True  # hundreds of games: `make bench-ai`, or by name


def _tried(**options) -> Callable[[], AutoPlayer]:
    """A candidate as it was tried: the same work per second whatever the number of players."""
    return aiplay.strong("metromania", factor={}, **options)


def _worked(rate: int, **options) -> Callable[[], AutoPlayer]:
    """`rate` steps a second whatever the number of players (no `WORK_FACTOR`)."""
    return aiplay.strong("metromania", work_rate=rate, factor={}, **options)


# The ladder's named versions of the strong player (`bench/ladder.py`; "current" is the bot's):
# "v1" the search before issue 75 (the default still, with two players since 2026-11-29 at `v1-w189`'s
# work), "v1-w100" v1 before that, the others the candidates tried, with their SPRT results in
# docs/developers/benchmarks.md.
VERSIONS: dict[str, Callable[[], AutoPlayer]] = {
    "v1": aiplay.strong("metromania", crn=False),
    "v1-w100": _worked(100, crn=False),
    "crn-r1": _tried(crn=True, rounds=1.0),
    "crn-r2": _tried(crn=True, rounds=2.0),
    "crn-end": _tried(crn=True, rounds=None),
    "crn-end-m10": _tried(crn=True, rounds=None, margin=0.1),
    "crn-end-m10-n3": _tried(crn=True, rounds=None, margin=0.1, noise=0.3),
    # Rollouts cut and judged by the fitted evaluation (`ai/value.py`): right after the
    # candidate's turn (leaf0), or after one more round, every other seat's turn (leaf1).
    "leaf0": _tried(crn=True, rounds=0, leaf="fitted"),
    "leaf1": _tried(crn=True, rounds=1.0, leaf="fitted"),
    # v1's search (states drawn per rollout, every candidate once, then UCB1) with its rollouts
    # cut after 4 turns (a round of 4 players) and judged by the fitted evaluation.
    "ucb-d4-leaf": _tried(crn=False, depth=4, leaf="fitted"),
    # v1, except early in the game (progress below 0.4, where one rollout to the end is the
    # whole budget): then leaf0's judgement (every candidate right after its turn, shared deals).
    "early-leaf": _tried(crn=False, leaf="fitted", early=0.4),
    # early-leaf spending the CPU it saves on more candidate turns (10, from 4 steps a partial turn).
    "early-wide": _tried(crn=False, leaf="fitted", early=0.4, width=10, beam=4),
    # v1 planning its own moves (candidate turns, its own moves in rollouts) with other weights of
    # the estimate, the other seats still expected to play as the greedy level (as On the
    # Underground's accepted own-a): a greedy player with them won 28.5 % of 400 4-player deals
    # against three greedy players, 20.4 % with the greedy level's.
    "own-tf": _tried(crn=False, own=Weights(tempo=2.0, far=1.0)),
    # v1 with the rollouts' greedy play as random as the greedy level's own (its tie-break noise,
    # 0.05, not 0.3): the opponents the rollouts model are that player.
    "v1-n05": _tried(crn=False, noise=0.05),
    # v1 planning its own moves with the estimate's trip term (`Weights.trip`): a greedy player
    # with it won 32.5 % of 400 4-player deals from seed 40,000 among three greedy, 26.2 % without.
    "own-trip3": _tried(crn=False, own=Weights(trip=3.0)),
    # own-trip3's candidate turns, its own later moves in rollouts played by the greedy level's weights
    "plan-trip3": _tried(crn=False, own=Weights(trip=3.0), played=Weights()),
    # early-leaf (at half v1's CPU in 2-player games) spending what it saves on more work, 190
    # steps a second: about v1's CPU there (2026-11-28, issue 75's 2-player goal).
    "early-leaf-w190": _worked(190, crn=False, leaf="fitted", early=0.4),
    # Not candidates (more work than the bot's): how much more work a decision would buy.
    "v1-w200": _worked(200, crn=False),
    "v1-w400": _worked(400, crn=False),
    # v1 at 175 simulated steps a second: the look-ahead's steps made 1.75 times cheaper
    # (`ai/simulate.py`, 2026-11-28, as first measured), about the CPU a decision of v1 at 100
    # before them.
    "v1-w175": _worked(175, crn=False),
    # ... and at 189: 1.89 times cheaper, with the look-ahead's scoring's shorter searches.
    "v1-w189": _worked(189, crn=False),
    # A candidate's mean believed from 2 rollouts on (early in the game a decision affords one or
    # two, and the better of two single rollouts is mostly luck): else the first candidate, the turn
    # by the player's own estimate; with the trip term (trip3-t2) or without (v1-t2).
    "v1-t2": _tried(crn=False, trust=2),
    "trip3-t2": _tried(crn=False, own=Weights(trip=3.0), trust=2),
}


def options(deal: int) -> dict:
    return {"first_player": "p1"}


def main(argv: list[str] | None = None) -> None:
    aiplay.main("metromania", options, argv)


if __name__ == "__main__":
    main()
