"""What is secret in each game kind, until when, and how to make a twin state that differs
only in what a given viewer may not see (the secrecy suite's model of the rules).

* Every game: the seed and the generator state (they would let anyone recompute the deal
  or the deck). Never revealed.
* MetrOmania with hidden hands: each destination marker still in a hand (letter and kind),
  known to the person holding it only; revealed when placed, or when the game ends. The
  forms the game's texts use: "**A** (residential)", "A (residential)", "A-res" and the
  holder's whole hand text. Open and strict deals show every hand: no hand is secret.
* Flip-and-write: each player's sealed decision of the current round, known to that player
  only until the round resolves (forms: the descriptions the game writes, e.g. "line C
  (Ringbahn): cross 3 stations"); and the order of the undealt pile.
* On the Underground: the order of the draw pile.

`twin(state, keep)` changes all of that except what `keep` (a person, or None for a
spectator) may see: other hands are dealt again among the same holders (a deal the rules
could have made that leaves every line blocked or not as it is: a line's status follows
from its player's hand), other decisions replaced by other legal ones, the pile
reshuffled, a new seed and generator state; the markers' order in the state is shuffled
as well (it is no game information, but it follows the deal). Whatever a viewer is shown must be the same for the state and its twin.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from dataclasses import dataclass
from typing import Any

from metrobot.games import get_plugin
from metrobot.games.metromania.markers import KIND_NAMES


@dataclass(frozen=True)
class Secret:
    owner: str | None  # the one person who may see it (None: nobody)
    forms: tuple[str, ...]  # how the game's texts would write it
    what: str
    in_menus: bool = True  # text-searched in menus to others too (False: forms others' menus also use)


class Model:
    """Secrets of one game kind."""

    name = ""

    def secrets(self, state: Any) -> list[Secret]:
        """What is secret in `state` now."""
        return _generator_secrets(self.name, state)

    def twin(self, state: Any, keep: str | None, rnd: random.Random) -> tuple[Any, bool]:
        """(a state that differs from `state` only in what `keep` may not see, whether more
        than the generator could be changed: a hand, a decision, the pile's order)."""
        data = self.game.to_json(state)
        data["seed"], data["rng"] = rnd.getrandbits(47), rnd.getrandbits(63)
        return self.game.from_json(data), False

    def structure(self, state: Any, view: dict[str, Any], viewer: str | None) -> list[str]:
        """What a view must not hold, checked on its keys and values: no generator at any
        depth, no draw pile as a list (its order)."""
        text = json.dumps(view, separators=(",", ":"))
        return [f"the view holds {what}" for pattern, what in FORBIDDEN if pattern.search(text)]

    @property
    def game(self):
        return get_plugin(self.name).game


def _generator_secrets(name: str, state: Any) -> list[Secret]:
    data = get_plugin(name).game.to_json(state)
    out = []
    for key in ("seed", "rng"):
        value = data.get(key)
        if isinstance(value, int) and value >= 10**6:  # shorter numbers occur anywhere
            out.append(Secret(None, (str(value),), f"the {key}"))
    return out


FORBIDDEN = [
    (re.compile(r'"seed":'), "the seed"),
    (re.compile(r'"rng":'), "the generator state"),
    (re.compile(r'"draw":\['), "the order of the draw pile"),
]


# ---------------------------------------------------------------- MetrOmania
class Metromania(Model):
    name = "metromania"

    @staticmethod
    def hidden(state: Any) -> bool:
        return state.options.get("hands", "hidden") == "hidden" and state.phase != "finished"

    def secrets(self, state: Any) -> list[Secret]:
        out = super().secrets(state)
        if not self.hidden(state):
            return out
        plugin = get_plugin(self.name)
        game = plugin.game
        people = []
        for m in state.markers:
            if m.cell is None:
                person = game.owner(state, m.holder)
                people.append(person)
                kind = KIND_NAMES[m.kind]
                out.append(
                    Secret(
                        person,
                        (f"**{m.letter}** ({kind})", f"{m.letter} ({kind})", f"{m.letter}-{m.kind}"),
                        f"marker {m.letter}-{m.kind} in {person}'s hand",
                    )
                )
        for person in dict.fromkeys(people):
            text = plugin.hand_text(game.view(state, person), game.seats_of(state, person))
            if text:
                out.append(Secret(person, (text,), f"{person}'s hand text"))
        return out

    def twin(self, state: Any, keep: str | None, rnd: random.Random) -> tuple[Any, bool]:
        game = self.game
        data = game.to_json(state)
        data["seed"], data["rng"] = rnd.getrandbits(47), rnd.getrandbits(63)
        changed = False
        if self.hidden(state):
            mine = set(game.seats_of(state, keep)) if keep is not None else set()
            markers = data["markers"]
            others = [m for m in markers if m["cell"] is None and m["holder"] not in mine]
            pairs = [(m["letter"], m["kind"]) for m in others]
            holders = [m["holder"] for m in others]
            # The suite's games follow `rnd`: draw from it what the twin always drew (a new order
            # of these markers, again while it is the same), so that they play as they did.
            order = list(range(len(others)))
            for _ in range(20):
                rnd.shuffle(order)
                if order != sorted(order) or len(order) < 2:
                    break
            draw = random.Random(f"{data['seed']}:{data['rng']}:{order}")
            dealt = self._deal(state, keep, others, draw)
            for m, (letter, kind) in zip(others, dealt):
                m["letter"], m["kind"] = letter, kind
            changed = dict(zip(pairs, holders)) != dict(zip(dealt, holders))  # some marker changed hands
            rnd.shuffle(markers)  # their order in the state follows the deal: no view may show it
        return game.from_json(data), changed

    def _deal(
        self, state: Any, keep: str | None, others: list[dict[str, Any]], rnd: random.Random
    ) -> list[tuple[str, str]]:
        """Another deal of the markers in `others` (the ones `keep` may not see) among the same
        holders, one the game could be in as far as `keep` can tell: every hand one the rules
        deal (all 12 markers dealt at the start, 3 players: 4 letters of all three kinds, 4
        players: one of each kind; the markers already placed count), drawn as the hints draw
        one (`Game.determinize` of `keep`'s view), and every line's status what the engine
        would find in it. A line is blocked when no legal tunnel extends it, and a tunnel onto
        a spot needs a marker of its kind in the player's hand: that a line is not blocked says
        something of its player's hand, and a twin whose hands contradict it is a position no
        game reaches (the first step composed in it re-checks the lines and finds one blocked:
        the full-size play-page suite's game 17, issue 59). The deal itself if no other is."""
        game = self.game
        pairs = [(m["letter"], m["kind"]) for m in others]
        held = {m["holder"] for m in others}
        real = _hands(pairs, others)
        same = 0
        view = game.view(state, keep)
        for _ in range(12):
            hands: dict[str, list[tuple[str, str]]] = {}
            for m in game.determinize(view, keep, rnd).markers:
                if m.cell is None and m.holder in held:
                    hands.setdefault(m.holder, []).append((m.letter, m.kind))
            for hand in hands.values():
                rnd.shuffle(hand)
            dealt = [hands[m["holder"]].pop() for m in others]
            if sorted(dealt) != sorted(pairs):
                continue  # (a position no deal gives: the view's markers are dealt any way)
            if _hands(dealt, others) == real:
                same += 1
                if same == 4:
                    break  # (as good as the only deal: 2 players, for one)
                continue
            if _lines_as_dealt(state, others, dealt):
                return dealt
        return pairs

    def structure(self, state: Any, view: dict[str, Any], viewer: str | None) -> list[str]:
        problems = super().structure(state, view, viewer)
        if self.hidden(state):
            mine = set(self.game.seats_of(state, viewer)) if viewer is not None else set()
            for m in view.get("markers", []):
                if m.get("cell") is None and m.get("holder") not in mine and (m.get("letter") or m.get("kind")):
                    problems.append(f"marker {m.get('letter')}-{m.get('kind')} of {m.get('holder')} shown to {viewer}")
        return problems


def _hands(dealt: list[tuple[str, str]], others: list[dict[str, Any]]) -> dict[str, list[tuple[str, str]]]:
    """Each holder's markers of `dealt` (dealt to the entries `others`, in their order)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for marker, m in zip(dealt, others):
        out.setdefault(m["holder"], []).append(marker)
    return {holder: sorted(hand) for holder, hand in out.items()}


def _lines_as_dealt(state: Any, others: list[dict[str, Any]], dealt: list[tuple[str, str]]) -> bool:
    """Every unfinished line of `state` with `dealt` in place of the markers in `others` (in
    hand, as the state's JSON lists them) has the status the engine gives it after every step."""
    from metrobot.games.metromania import rules
    from metrobot.games.metromania.state import Marker

    swap = {(m["holder"], m["letter"], m["kind"]): d for m, d in zip(others, dealt)}
    markers = []
    for m in state.markers:
        letter, kind = (
            swap.get((m.holder, m.letter, m.kind), (m.letter, m.kind)) if m.cell is None else (m.letter, m.kind)
        )
        markers.append(Marker(letter, kind, m.holder, m.cell))
    trial = dataclasses.replace(state, markers=markers)
    for li, line in enumerate(trial.lines):
        if line.status == "finished":
            continue
        blocked = not rules.can_extend(trial, li, per_turn=False)
        if line.status != ("blocked" if blocked else ("building" if line.vertices else "unstarted")):
            return False
    return True


# ---------------------------------------------------------------- flip-and-write
class Flipwrite(Model):
    name = "flipwrite"

    def secrets(self, state: Any) -> list[Secret]:
        out = super().secrets(state)
        plugin = get_plugin(self.name)
        for player, pending in state.pending.items():
            # Every step's form, repeats kept: a decision that crosses 3 on line H twice reveals
            # that form twice when its round resolves, and the check counts occurrences.
            forms = tuple(plugin.describe(state, a) for a in pending.steps)
            if forms:
                out.append(Secret(player, forms, f"{player}'s decision of round {state.rounds + 1}", in_menus=False))
        return out

    def twin(self, state: Any, keep: str | None, rnd: random.Random) -> tuple[Any, bool]:
        game = self.game
        draw = list(state.pile.draw)
        rnd.shuffle(draw)
        changed = tuple(draw) != state.pile.draw
        pile = dataclasses.replace(state.pile, draw=tuple(draw), rng=rnd.getrandbits(63))
        sealed = [p for p, d in state.pending.items() if p != keep and d.sealed]
        pending = {p: d for p, d in state.pending.items() if p not in sealed}
        twin = dataclasses.replace(state, seed=rnd.getrandbits(47), pile=pile, pending=pending)
        for p in sealed:  # another legal decision (a new chain of extra actions included)
            original = [dict(a) for a in state.pending[p].steps]
            for attempt in range(6):
                candidate, steps = twin, []
                while p in game.to_move(candidate):
                    action = rnd.choice(game.legal_actions(candidate, p))
                    candidate, _ = game.apply(candidate, p, action)
                    steps.append(action)
                if steps != original or attempt == 5:
                    break
            twin = candidate
            changed = changed or steps != original
        return twin, changed

    def structure(self, state: Any, view: dict[str, Any], viewer: str | None) -> list[str]:
        problems = super().structure(state, view, viewer)
        if viewer is None and "pending" in view:
            problems.append("a spectator is shown a pending decision")
        if not isinstance(view.get("draw_pile", 0), int):
            problems.append("the draw pile is shown, not counted")
        return problems


# ---------------------------------------------------------------- On the Underground
class Underground(Model):
    name = "underground"

    def twin(self, state: Any, keep: str | None, rnd: random.Random) -> tuple[Any, bool]:
        game = self.game
        data = game.to_json(state)
        data["seed"], data["rng"] = rnd.getrandbits(47), rnd.getrandbits(63)
        draw = data["deck"]["draw"]
        before = list(draw)
        rnd.shuffle(draw)
        return game.from_json(data), draw != before


MODELS: dict[str, Model] = {m.name: m for m in (Metromania(), Flipwrite(), Underground())}


def model(name: str) -> Model:
    return MODELS.get(name) or _Generic(name)


class _Generic(Model):
    """A game this suite has no model of yet: only its generator is secret."""

    def __init__(self, name: str):
        self.name = name
