"""A tiny game registered only through the plug-in interface: "Race to 10".

Two or three players take turns adding 1, 2 or 3 to a shared counter; whoever brings it
to exactly 10 wins (a move past 10 is refused). It proves that a game needs no change to
shared code: engine, notation, narration, a slash command of its own and images all come
from here, assembled into a `GamePlugin` from its parts (`metrobot/games/parts.py`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from metrobot.games.autoplay import AutoPlayer, Budget
from metrobot.games.controls import CommandOption, Labels, MoveCommand
from metrobot.games.parts import DefaultPresentation, Notation, RulesGlue, first_player
from metrobot.games.plugin import GamePlugin
from metrobot.games.protocol import BadInput, Choice, Game, RuleError
from metrobot.i18n import EN

TARGET = 10


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    seed: int
    count: int = 0
    current: int = 0
    turns: int = 0
    winner: str | None = None


class Race(Game):
    name = "race"
    title = "Race to 10"
    min_players = 2
    max_players = 3

    def new_game(self, players, options, seed):
        first = (options or {}).get("first_player")
        return State(tuple(players), seed, current=players.index(first) if first in players else seed % len(players))

    def to_move(self, s):
        return frozenset() if s.winner else frozenset({s.players[s.current]})

    def legal_actions(self, s, player):
        if player not in self.to_move(s):
            return []
        return [{"type": "add", "n": n} for n in (1, 2, 3) if s.count + n <= TARGET]

    def apply(self, s, player, action):
        if player not in self.to_move(s):
            raise RuleError("It is not your turn.", "turn")
        n = action.get("n") if isinstance(action, dict) else None
        if not isinstance(n, int) or n not in (1, 2, 3):
            raise BadInput("add 1, 2 or 3")
        if s.count + n > TARGET:
            raise RuleError(f"The counter may not pass {TARGET}.", "overshoot", hint=f"Add at most {TARGET - s.count}.")
        count = s.count + n
        done = count == TARGET
        new = replace(
            s, count=count, current=(s.current + 1) % len(s.players), turns=s.turns + 1, winner=player if done else None
        )
        events = [{"type": "added", "player": player, "n": n, "count": count}]
        if done:
            events.append({"type": "game_over", "winners": [player]})
        return new, events

    def view(self, s, viewer):
        return self.to_json(s)

    def is_over(self, s):
        return s.winner is not None

    def to_json(self, s):
        return {
            "game": self.name,
            "players": list(s.players),
            "seed": s.seed,
            "count": s.count,
            "current": s.current,
            "turns": s.turns,
            "winner": s.winner,
            "scores": {p: int(p == s.winner) for p in s.players},
            "winners": [s.winner] if s.winner else [],
        }

    def from_json(self, data):
        # Malformed data is refused with BadInput, as the protocol asks (a KeyError would be a crash).
        keys = ("players", "seed", "count", "current", "turns", "winner")
        if not isinstance(data, dict) or not all(k in data for k in keys):
            raise BadInput("a Race to 10 state needs {keys}", keys=", ".join(keys))
        players, seed, count, current, turns, winner = (data[k] for k in keys)
        if not (
            isinstance(players, list)
            and self.min_players <= len(players) <= self.max_players
            and all(isinstance(p, str) for p in players)
            and all(isinstance(v, int) for v in (seed, count, current, turns))
            and 0 <= count <= TARGET
            and 0 <= current < len(players)
            and (winner is None or winner in players)
        ):
            raise BadInput("not a Race to 10 state")
        return State(tuple(players), seed, count, current, turns, winner)

    def determinize(self, view, viewer, rnd):
        return self.from_json(view)  # nothing is hidden

    def auto_action(self, s, player, rnd):
        return rnd.choice(self.legal_actions(s, player))

    def turn_number(self, s):
        return s.turns


class Smart(AutoPlayer):
    level = "greedy"

    def choose(self, game, view, viewer, seat, rnd: random.Random, budget: Budget = Budget()):
        legal = game.legal_actions(game.determinize(view, viewer, rnd), seat)
        # Leave the counter on a multiple of 4 away from the target when possible.
        good = [a for a in legal if (TARGET - view["count"] - a["n"]) % 4 == 0]
        return (good or legal)[0]


ADD = MoveCommand(
    name="add",
    description="Race to 10: add 1, 2 or 3 to the counter",
    options=(CommandOption("amount", "1, 2 or 3", required=True),),
    steps=lambda values: [values["amount"]],
    complete=lambda focused, values: ([], lambda code: True),
)


class RaceNotation(Notation):
    """The digits typed are the number added; `code` and `typed` are the shared defaults."""

    def __init__(self, game: Race):
        self.game = game

    def parse(self, state: Any, seat: str, text: str):
        digits = "".join(ch for ch in text if ch.isdigit())
        if not digits:
            raise BadInput(f"cannot read {text!r}; write 1, 2 or 3")
        return {"type": "add", "n": int(digits)}

    def choices(self, state: Any, seat: str, lang=EN) -> list[Choice]:
        return [Choice(str(a["n"]), f"add {a['n']}", "add") for a in self.game.legal_actions(state, seat)]

    def describe(self, state: Any, action, lang=EN) -> str:
        return f"add {action['n']}"


class RaceTelling(DefaultPresentation):
    """Narration and the prompt; the pictures' words are the shared defaults."""

    def narrate(self, state: Any, events, name, lang=EN):
        out = []
        for e in events:
            if e["type"] == "added":
                out.append(f"**{name(e['player'])}** added {e['n']}: the counter is {e['count']}.")
            elif e["type"] == "game_over":
                out.append(f"🏁 Game over. **{name(e['winners'][0])}** wins!")
        return out

    def prompt(self, state: Any, who: str, lang=EN) -> str:
        return f"Counter {state.count}/{TARGET}. Next: {who} — `/add` or the buttons below."


class RaceGlue(RulesGlue):
    def seat_order(self, players):
        return first_player(players)

    def automatic(self) -> dict[str, Callable[[], AutoPlayer]]:
        return {"greedy": Smart}


def race_plugin(game: Race | None = None, notation=RaceNotation, telling=RaceTelling) -> GamePlugin:
    """Race to 10 assembled from its parts (a test may swap a part, or the engine)."""
    game = game or Race()
    return GamePlugin(
        game=game,
        notation=notation(game),
        presentation=telling(game),
        glue=RaceGlue(),
        rules=f"**Race to 10**: add 1, 2 or 3 to the counter in turn; whoever makes it exactly {TARGET} wins.",
        renderer="tests.toygame.render",
        labels=Labels(play="▶ Add", mine="My counter", composer="Your addition"),
        commands=(ADD,),
    )


PLUGIN = race_plugin()
