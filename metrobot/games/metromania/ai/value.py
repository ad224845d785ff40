"""A fitted evaluation of an unfinished MetrOmania position (issue 75): each seat's final score,
predicted from what the position shows, so that a search can stop its rollouts early.

Each seat is described by a few numbers (`FEATURES`): its station points now, the estimate's
projected points (`estimate.py`, trips left out), what the trips would give and cost if the game
were scored now (the real scoring phase on the unfinished position: routes already ridden,
markers still unplaced or untouched), its lines (finished, blocked, tunnels still to dig), its
markers in hand, and the same read against the game's progress (how near its end trigger is),
because the estimate means less early than late. A seat's final score, less the seats' mean,
is a weighted sum of its features less the seats' mean (only leads matter, and what moves every
seat alike is noise to them), the weights (`value.json`, one set per number of seats) fitted by
least squares on self-play positions (every seat greedy, seeds away from the benchmarks' and
the ladder's) by `python -m tools.fit_value`, reproducibly.

A position is judged for a person as the search judges a finished game: the chance of a win,
which grows smoothly with the predicted lead over the best other person (a logistic curve
whose scale comes from the fit's own error), plus the lead as a small tie-break.

The features of every seat are read from the state they are given. The strong player gives
only states drawn from its own view (`determinize`): the other seats' hidden markers there are
a sample, never theirs.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from .. import scoring
from ..state import TUNNELS_PER_LINE, State
from ..steps import END_THRESHOLD
from .estimate import INF, Estimator
from .greedy import horizon

DATA = Path(__file__).with_name("value.json")
FEATURES = (
    "bias",
    "stations",  # station points now
    "estimate",  # the estimate's projected points (no trips)
    "trips_won",  # points of trips if the game were scored now
    "trips_lost",  # penalties if the game were scored now (unplaced or untouched markers)
    "finished",  # finished lines
    "to_dig",  # tunnels still to dig to finish the lines that can finish
    "blocked",  # lines that can no longer finish
    "hand",  # markers still in hand
    "behind",  # 1 if the seat has one turn fewer than the seat ahead (it still plays this round)
    "progress",  # how near the end trigger is, 0 to 1
    "estimate*progress",
    "stations*progress",
    "trips_won*progress",
    "trips_lost*progress",
    "finished*progress",
    "to_dig*progress",
)
PROGRESSIVE = ("estimate", "stations", "trips_won", "trips_lost", "finished", "to_dig")


def progress(s: State) -> float:
    """How near the building phase's end is, 0 (start) to 1 (last round or over): the nearest
    of its triggers (the station supply, lines finished or blocked, a seat's two lines)."""
    if s.phase != "building":
        return 1.0
    statuses = [line.status for line in s.lines]
    done = sum(1 for x in statuses if x in ("finished", "blocked"))
    stations = 1 - s.stations_left / 30
    lines = done / END_THRESHOLD[len(s.players)]
    pairs = max(sum(1 for x in statuses[li : li + 2] if x == "finished") for li in range(0, len(statuses), 2)) / 2
    return min(1.0, max(stations, lines, pairs))


def _to_dig(s: State, seat: int, est: Estimator) -> tuple[int, int, int]:
    """(finished lines, lines that cannot finish, tunnels still to dig for the others)."""
    finished = blocked = dig = 0
    for li in s.seat_lines(seat):
        line = s.lines[li]
        if line.status == "finished":
            finished += 1
            continue
        if line.status == "unstarted":
            d, left = est.unstarted_to_end(s, li), TUNNELS_PER_LINE
        elif line.status == "blocked":
            d, left = INF, 0
        else:
            o = est.outlook(s, li)
            d, left = o.to_end, o.left
        if d <= left:
            dig += d
        else:
            blocked += 1
    return finished, blocked, dig


def features(s: State) -> list[list[float]]:
    """Every seat's features (in `FEATURES` order), in seat order, from the state given."""
    trips: dict[str, tuple[int, int]] = dict.fromkeys(s.players, (0, 0))
    if s.phase != "finished":
        for trip in scoring.score(s)["trips"]:
            for p, v in trip["points"].items():
                won, lost = trips[p]
                trips[p] = (won + max(v, 0), lost + min(v, 0))
    g = progress(s)
    most = max(s.turns_taken)
    out: list[list[float]] = []
    for i, p in enumerate(s.players):
        est = Estimator(s, i)
        estimate = est.value(s, horizon(s, i), shaping=False)
        finished, blocked, dig = _to_dig(s, i, est)
        hand = sum(1 for m in s.markers if m.holder == p and m.cell is None)
        won, lost = trips[p]
        base = {
            "stations": float(s.scores[p]),
            "estimate": estimate,
            "trips_won": float(won),
            "trips_lost": float(lost),
            "finished": float(finished),
            "to_dig": float(dig),
        }
        row = [1.0, *base.values(), float(blocked), float(hand), float(most - s.turns_taken[i]), g]
        row += [base[name] * g for name in PROGRESSIVE]
        out.append(row)
    return out


@lru_cache(maxsize=1)
def _model() -> dict[str, Any]:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    if tuple(data["features"]) != FEATURES:
        raise ValueError("value.json was fitted on other features: run `python -m tools.fit_value`")
    return data


def model(n_seats: int) -> tuple[list[float], float]:
    """The weights and the logistic scale (points of lead) fitted for games of `n_seats`."""
    fits = _model()["fits"]
    fit = fits.get(str(n_seats)) or fits[max(fits, key=lambda k: -abs(int(k) - n_seats))]
    return fit["weights"], fit["scale"]


def predicted(s: State) -> dict[str, float]:
    """Each person's predicted final score less the seats' mean (the sum of their seats')."""
    weights, _ = model(len(s.players))
    rows = features(s)
    means = [sum(col) / len(rows) for col in zip(*rows)]
    totals: dict[str, float] = {}
    for p, row in zip(s.players, ([x - m for x, m in zip(r, means)] for r in rows)):
        owner = s.owners.get(p, p)
        totals[owner] = totals.get(owner, 0.0) + sum(w * x for w, x in zip(weights, row))
    return totals


def leaf_value(s: State, person: str, margin: float) -> float:
    """An unfinished position from one person's side, on the scale of a finished game's result
    (`strong.result`): the chance of a win by the predicted lead, plus the lead times `margin`."""
    _, scale = model(len(s.players))
    totals = predicted(s)
    lead = totals[person] - max((v for p, v in totals.items() if p != person), default=0.0)
    return 1 / (1 + math.exp(-lead / scale)) + margin * lead
