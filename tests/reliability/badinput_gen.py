"""What the bad-input suite sends, drawn with hypothesis, and the oracle that says whether a
drawn interaction could legitimately change a game (those are not sent: the suite only
sends input that must change nothing).

Three families, each with forged payloads no Discord client could send (the stand-in's
`forge` sends them unchecked):

* slash commands: every synced command and subcommand (and unknown ones), with wrong, odd,
  overlong, empty or missing arguments: strings where numbers go, 1e308, NaN, infinities,
  negative and huge integers, booleans, lists and objects, values that are not among the
  choices, overlong and odd Unicode text, options that don't exist; and (`garbled`) JSON
  of the wrong type anywhere in the payload: option names, types and values, sub-options,
  whole options, the options list, the resolved objects, the server id;
* autocomplete: junk typed into every autocompleted option (and into options that have no
  autocomplete), with odd values in the other options;
* components: forged custom ids (the bot's templates with other games' ids, other channels,
  finished games, huge numbers, stale positions, wrong step codes, 100-character junk, other
  bots' formats) and real ones on stale messages, pressed by non-players, spectators, players
  on someone else's ephemeral composer, members without Manage Channels, in deleted channels,
  in channels the bot may not post in, in DMs and in another guild; `/me forget`'s button and
  its box (someone else's, stale, from the future, with wrong codes or the right one).
"""

from __future__ import annotations

import copy
import functools
import math
import time
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from metrobot.discord_app.commands import MAX_CLOCK_HOURS, MIN_CLOCK_HOURS
from metrobot.discord_app.controls import DYNAMIC_ITEMS
from metrobot.discord_app.privacy import BOX, CONFIRM_SECONDS, _typed, confirmation_code
from metrobot.games import BadInput, RuleError, all_plugins, get_plugin

IT_COMMAND, IT_COMPONENT, IT_AUTOCOMPLETE, IT_MODAL = 2, 3, 4, 5
BUTTON, STRING_SELECT = 2, 3

ODD_TEXT = [
    "",
    " ",
    "\u200b",
    "\u202eevil",
    "\u200f\u200e",
    "🚇" * 30,
    "e\u0301" * 40,
    "Z\u0351\u0300\u0316" * 20,
    "@everyone",
    "@here",
    "<@1>",
    "<@&1>",
    "<#1>",
    "**bold** __u__ ~~s~~",
    "`code` ```block```",
    "\n\n\n",
    "\x00",
    "\t\r\n",
    "x" * 100,
    "x" * 101,
    "y" * 2000,
    "z" * 6001,
    "NaN",
    "nan",
    "inf",
    "-inf",
    "1e308",
    "-1",
    "0",
    "1" * 40,
    "None",
    "null",
    "true",
    "[]",
    "{}",
    "'; DROP TABLE games; --",
    "%s%s%n",
    "{0}{1}{__class__}",
    "${jndi:x}",
    "../../etc/passwd",
    "ＧＩＴ",
    "Ⅻ",
    "٣",
    "G13",
    "A0",
    "M26",
    "Z99",
    "S0",
    "T13",
    "S12",
    "s:G9:L",
    "s:S4:F24",
    "d:T5",
    "st:G13",
    "b:G9",
    "nb",
    "s:G9:L:A",
    "d:Z9:Q",
    "r:C:3",
    "r:A:2:cw",
    "r:A:9:up",
    "t:C",
    "f:-",
    "f:",
    "f:nowhere",
    "free",
    "free Alexanderplatz",
    "C 3",
    "C -3",
    "C 99",
    "C 1e308",
    "transfer Z",
    "ride",
    "solid",
    "solid S4 F24",
    "dashed T5",
    "station",
    "station G13",
    "bonus",
    "no bonus",
    "mb:p:1:0:play",
    ";;;",
    ";",
    "s:G9:L;s:G10:L;s:G11:L;s:G12:L;s:G13:L;s:G14:L;s:G15:L;s:G16:L;s:G17:L",
]

ODD_NUMBERS: list[Any] = [
    1e308,
    -1e308,
    float("nan"),
    float("inf"),
    float("-inf"),
    2**63,
    2**64 + 1,
    -(2**63) - 1,
    10**40,
    -(10**40),
    0,
    -1,
    0.0,
    -0.0,
    1e-308,
    0.019,
    0.02,
    336,
    336.0001,
    337,
    9,
    4.5,
    2.0,
    "3",
    "three",
    "",
    True,
    False,
    None,
    [],
    [2],
    {"n": 2},
]


# The strategies below are made once (functools.cache): a strategy made anew at each draw is
# validated anew by Hypothesis, and that validation was half of the bad-input suite's CPU.
@functools.cache
def odd_text(max_size: int = 60) -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(ODD_TEXT),
        st.text(max_size=max_size),
        st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=max_size),
        st.builds(lambda c, n: c * n, st.sampled_from(["x", "🚇", "\u0301", "ﷺ", "\u202e", "9"]), st.integers(0, 7000)),
    )


@functools.cache
def odd_number() -> st.SearchStrategy[Any]:
    return st.one_of(st.sampled_from(ODD_NUMBERS), st.integers(), st.floats(), st.text(max_size=8))


@functools.cache
def json_values() -> st.SearchStrategy[Any]:
    """Any JSON value (what a forged payload can put anywhere)."""
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(),
        st.text(max_size=12),
        st.sampled_from(["new", "settings", "move", "clock_hours", "1", ""]),
    )
    return st.recursive(
        leaves,
        lambda kids: st.one_of(st.lists(kids, max_size=3), st.dictionaries(st.text(max_size=8), kids, max_size=3)),
        max_leaves=6,
    )


# What a forged payload puts where Discord puts a name, a type or an object: the right
# thing in the wrong JSON type first (the bug these found: a name that is a list).
WRONG_NAMES: list[Any] = [["new"], {"name": "new"}, 1, 1.5, True, None, ["move", "move"]]
WRONG_TYPES: list[Any] = ["1", "3", 3.0, 1.0, True, False, None, [3], {"type": 3}, -1, 2**64]
WRONG_OBJECTS: list[Any] = [None, "", "x", 0, 1, True, [], [[]], {}, {"name": "move"}]


def _nodes(data: dict[str, Any]) -> list[tuple[Any, Any, str]]:
    """Every place of a command payload a forger could garble: (container, key, what)."""
    out: list[tuple[Any, Any, str]] = [(data, k, k) for k in ("name", "type", "options", "guild_id", "resolved")]

    def walk(options: Any) -> None:
        if not isinstance(options, list):
            return
        for i, o in enumerate(options):
            out.append((options, i, "option"))
            if isinstance(o, dict):
                out.extend((o, k, k) for k in ("name", "type", "value", "options", "focused"))
                walk(o.get("options"))

    walk(data.get("options"))
    return out


@st.composite
def garbled(draw, data: dict[str, Any]) -> dict[str, Any]:
    """`data` with one to three places replaced by JSON of another type (names, types,
    values, sub-options, whole options, the options list, resolved objects, ids)."""
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, 3))):
        container, key, what = draw(st.sampled_from(_nodes(data)))
        if what == "name":
            value = draw(st.one_of(st.sampled_from(WRONG_NAMES), json_values()))
        elif what == "type":
            value = draw(st.one_of(st.sampled_from(WRONG_TYPES), json_values()))
        elif what in ("options", "option", "resolved"):
            value = draw(st.one_of(st.sampled_from(WRONG_OBJECTS), json_values()))
        else:
            value = draw(json_values())
        # A copy: the WRONG_* constants are shared, and a later round may garble inside this
        # value; mutating them would make later draws depend on earlier ones (hypothesis
        # refuses a strategy whose choices change with outside state).
        container[key] = copy.deepcopy(value)
    return data


@dataclass
class Attempt:
    """One interaction to send: `family` slash | autocomplete | component | modal (a ⌨ box sent)."""

    family: str
    user: str  # a name of World.users
    channel: str  # a name of World.channels
    data: dict[str, Any]
    message: int | None = None  # the message a component interaction claims to come from
    components: list[dict[str, Any]] | None = None  # what that message carries in the payload

    @property
    def itype(self) -> int:
        return {"slash": IT_COMMAND, "component": IT_COMPONENT, "autocomplete": IT_AUTOCOMPLETE, "modal": IT_MODAL}[
            self.family
        ]

    def label(self) -> str:
        if self.family == "component":
            what = f"{self.data.get('custom_id')!r} values={self.data.get('values')!r}"
        elif self.family == "modal":
            what = _short(self.data)
        else:
            what = _short(self.data)
        return f"{self.family} by {self.user} in #{self.channel}: {what}"[:400]


def _flat(options: list[Any]) -> list[dict[str, Any]]:
    out = []
    for o in options:
        if isinstance(o, dict):
            out.append(o)
            out += _flat(o.get("options") or [])
    return out


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 300 else text[:300] + "…"


# ---------------------------------------------------------------- drawing
class Draw:
    """Strategies over one world (its users, channels, games, messages and legal codes)."""

    def __init__(self, world: Any):
        self.w = world
        self.user_names = sorted(world.users)
        self.channel_names = sorted(world.channels)
        self.commands = world.standin.commands()
        self.snowflakes = [str(u) for u in world.users.values()] + [str(world.standin.bot_id), "1", "0"]
        # When `/me forget` confirmations were made: just now, long ago, in the future, nonsense.
        now = int(time.time())
        self.issued = [now - 30, now - 100_000, now + 100_000, 0, 10**12 - 1]
        # Who the stand-in knows, as of now: what a draw may depend on must not change later.
        self.known_users = {str(u): copy.deepcopy(p) for u, p in world.standin.world.users.items()}
        self.game_ids = sorted(set(world.games.values()))
        self.tournament_ids = sorted(t["id"] for t in world.tournaments().values())
        model = world.model()
        self.moves = dict.fromkeys(self.game_ids, 0)
        games, _ = world.read_db()
        for gid, row in games.items():
            self.moves[gid] = row["moves"]
        # Step codes that are legal somewhere (for someone): the best material for wrong use.
        codes: set[str] = set()
        for seen in model.values():
            if seen.state is None:
                continue
            plugin = get_plugin(seen.game)
            for seat in plugin.game.to_move(seen.state):
                codes.update(c.code for c in plugin.choices(seen.state, seat)[:40])
        self.codes = sorted(codes)
        # The bot's messages in each channel that a component could claim to be on, with the
        # controls they carry now (fixed here: hypothesis wants the same choices every time).
        s = world.standin
        self.carriers: dict[str, list[tuple[int, list[dict[str, Any]]]]] = {}
        for name, channel in world.channels.items():
            found = [m for m in s.messages(channel, include_ephemeral=True) if m.author_id == s.bot_id]
            self.carriers[name] = [(m.id, [dict(c) for c in m.all_components() if c.get("custom_id")]) for m in found]

    def step_text(self) -> st.SearchStrategy[str]:
        return st.one_of(st.sampled_from(self.codes), odd_text(40)) if self.codes else odd_text(40)

    # ------------------------------------------------------------ slash commands
    def option_value(self, definition: dict[str, Any]) -> st.SearchStrategy[Any]:
        otype = definition.get("type")
        if definition.get("choices"):
            values = [c["value"] for c in definition["choices"]]
            return st.one_of(st.sampled_from(values), odd_text(20), odd_number())
        if otype == 3:
            return st.one_of(self.step_text(), odd_text(), odd_number())
        if otype in (6, 7, 8, 9, 11):  # snowflakes: people, channels, roles
            return st.one_of(st.sampled_from(self.snowflakes), odd_text(12), odd_number())
        return st.one_of(odd_number(), odd_text(12))

    @st.composite
    def _options(draw, self, defs: list[dict[str, Any]], focused: bool) -> list[dict[str, Any]]:
        out = []
        for d in defs:
            if d.get("type") in (1, 2):
                continue
            keep = draw(st.floats(0, 1)) < (0.85 if d.get("required") else 0.5)
            if not keep:
                continue
            otype = d["type"] if draw(st.floats(0, 1)) < 0.9 else draw(st.sampled_from([3, 4, 5, 10]))
            out.append({"name": d["name"], "type": otype, "value": draw(self.option_value(d))})
        if draw(st.floats(0, 1)) < 0.08:
            out.append(
                {
                    "name": draw(st.sampled_from(["kind", "x", "", "step9", "move", "🚇"])),
                    "type": draw(st.sampled_from([3, 4, 10])),
                    "value": draw(odd_text(20)),
                }
            )
        if focused:
            candidates = [d for d in defs if d.get("type") not in (1, 2)]
            wants_auto = [d for d in candidates if d.get("autocomplete")]
            pool = wants_auto if wants_auto and draw(st.floats(0, 1)) < 0.85 else candidates
            if pool and draw(st.floats(0, 1)) < 0.97:
                target = draw(st.sampled_from(pool))
                out = [o for o in out if o["name"] != target["name"]]
                out.append(
                    {
                        "name": target["name"],
                        "type": 3 if draw(st.floats(0, 1)) < 0.9 else target["type"],
                        "value": draw(st.one_of(self.step_text(), odd_text())),
                        "focused": True,
                    }
                )
        return draw(st.permutations(out)) if len(out) > 1 else out

    @st.composite
    def command_data(draw, self, focused: bool = False) -> dict[str, Any]:
        data = draw(self._command_data(focused))
        # Discord sends what a user option names in `resolved`: mostly there, sometimes not.
        people = [
            o["value"]
            for o in _flat(data.get("options") or [])
            if o.get("type") == 6 and isinstance(o.get("value"), str) and o["value"] in self.known_users
        ]
        if people and draw(st.floats(0, 1)) < 0.8:
            data["resolved"] = {"users": {p: copy.deepcopy(self.known_users[p]) for p in people}}
        if draw(st.floats(0, 1)) < 0.12:  # JSON of the wrong type somewhere in the payload
            data = draw(garbled(data))
        return data

    @st.composite
    def _command_data(draw, self, focused: bool = False) -> dict[str, Any]:
        known = draw(st.floats(0, 1)) < 0.95
        if not known:
            return {
                "id": "1",
                "name": draw(st.sampled_from(["chess", "", "GAME", "dig2", "x" * 40, "🚇"])),
                "type": 1,
                "options": [],
            }
        command = draw(st.sampled_from(self.commands))
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1}
        defs = command.get("options") or []
        subs = [d for d in defs if d.get("type") == 1]
        if subs:
            if draw(st.floats(0, 1)) < 0.04:
                data["options"] = draw(self._options(defs, focused))  # a group without its subcommand
                return data
            sub = draw(st.sampled_from(subs))
            name = sub["name"] if draw(st.floats(0, 1)) < 0.97 else draw(st.sampled_from(["nuke", "", "NEW"]))
            data["options"] = [
                {"name": name, "type": 1, "options": draw(self._options(sub.get("options") or [], focused))}
            ]
        else:
            data["options"] = draw(self._options(defs, focused))
        return data

    # ------------------------------------------------------------ components
    def game_id(self) -> st.SearchStrategy[str]:
        real = [str(g) for g in self.game_ids]
        return st.one_of(
            st.sampled_from(real),
            st.sampled_from(["0", "999999", str(2**63), "9" * 30, "٣", "-1", "", "01", "1.0"]),
            st.integers(0, 10**12).map(str),
        )

    def moves_for(self, gid: str) -> st.SearchStrategy[str]:
        base = self.moves.get(int(gid), 0) if gid.isascii() and gid.isdigit() and int(gid) in self.moves else 0
        return st.one_of(
            st.sampled_from([str(base), str(base + 1), str(max(0, base - 1)), "0"]),
            st.sampled_from([str(2**64), "9" * 40, "-1", "", "x"]),
            st.integers(0, 500).map(str),
        )

    @st.composite
    def steps(draw, self) -> str:
        n = draw(st.integers(0, 4))
        parts = [draw(self.step_text()) for _ in range(n)]
        return ";".join(parts)

    @st.composite
    def custom_id(draw, self) -> tuple[str, int]:
        """A custom id and the component type it is put on."""
        family = draw(
            st.sampled_from(
                [
                    "l",
                    "p",
                    "s",
                    "b",
                    "g",
                    "up",
                    "t",
                    "h",
                    "ok",
                    "u",
                    "x",
                    "r",
                    "lb",
                    "rp",
                    "bt",
                    "tp",
                    "tn",
                    "fg",
                    "tb",
                    "a",
                    "fw",
                    "again",
                    "found",
                    "junk",
                    "other",
                ]
            )
        )
        if family == "fg":  # /me forget's button: someone's, made some time
            uid = draw(st.sampled_from(self.snowflakes + ["9" * 20]))
            return f"mb:fg:{uid}:{draw(st.sampled_from(self.issued))}", BUTTON
        if family == "junk":
            return draw(st.one_of(odd_text(100), st.text(min_size=100, max_size=100))), draw(
                st.sampled_from([BUTTON, STRING_SELECT])
            )
        if family == "other":
            return draw(
                st.sampled_from(
                    [
                        "confirm",
                        "button:accept:123",
                        "ticket_close",
                        "mb",
                        "mb:",
                        "mb:p",
                        "mb:p:1",
                        "mb:p:1:2",
                        "mb:p:1:2:play:extra",
                        "mb:l:1:explode",
                        "mb:q:1:2:",
                        "MB:P:1:0:PLAY",
                        "mb:p:1:2:play\n",
                        "mb:a:",
                        "mb:a:1:2",
                        "mb:a:" + "9" * 25,
                        "mb:again:",
                        "mb:again:1:2",
                        "mb:again:" + "9" * 25,
                        "mb:found:",
                        "mb:found:1:explode",
                        "mb:found:" + "9" * 25 + ":confirm",
                        "role-menu:7",
                    ]
                )
            ), BUTTON
        if family == "tn":  # a tournament's sign-up: this one, another server's, none, a stale stage
            tid = draw(
                st.one_of(
                    st.sampled_from([str(t) for t in self.tournament_ids] or ["1"]),
                    st.sampled_from(["0", "999999", str(2**63), "9" * 19, "01"]),
                )
            )
            stage = draw(st.sampled_from(["0", "1", "2", "9999"]))
            return f"mb:tn:{tid}:{stage}:{draw(st.sampled_from(['join', 'leave', 'start', 'start', 'drop']))}", BUTTON
        if family in ("lb", "rp"):  # a leaderboard's or a rules book's pages
            kind = draw(st.one_of(st.sampled_from([p.name for p in all_plugins()]), st.sampled_from(["chess", "x"])))
            page = draw(st.sampled_from(["0", "1", "5", "6", "7", str(2**63), "9" * 30]))
            return f"mb:{family}:{kind}:{page}:{draw(st.sampled_from(['prev', 'next']))}", BUTTON
        gid = draw(self.game_id())
        if family == "r":
            frame = draw(st.sampled_from(["0", "1", "3", "40", str(2**63), "9" * 30]))
            return f"mb:r:{gid}:{frame}:{draw(st.sampled_from(['first', 'prev', 'next', 'last']))}", BUTTON
        if family == "l":
            op = draw(st.sampled_from(["join", "leave", "start"]))
            return f"mb:l:{gid}:{op}", BUTTON
        if family == "a":  # ▶ Play on the board (the Activity, or the board in a browser)
            return f"mb:a:{gid}", BUTTON
        if family == "fw":  # 👁 Follow (follows a game: changes none)
            return f"mb:fw:{gid}", BUTTON
        if family == "again":  # ↻ Play again: any game's, a finished one's, nonsense
            return f"mb:again:{gid}", BUTTON
        if family == "found":  # ✔ Confirm / Drop out under a found table's lobby: any game's, nonsense
            return f"mb:found:{gid}:{draw(st.sampled_from(['confirm', 'drop']))}", BUTTON
        if family == "bt":  # 📄 the board as text
            return f"mb:bt:{gid}", BUTTON
        if family == "tp":  # the text board's pages
            page = draw(st.sampled_from(["0", "1", "3", "40", str(2**63), "9" * 30]))
            return f"mb:tp:{gid}:{page}:{draw(st.sampled_from(['prev', 'next']))}", BUTTON
        moves = draw(self.moves_for(gid))
        if family == "tb":  # ↶ take back: any game's position, this one's, a stale one, nonsense
            return f"mb:tb:{gid}:{moves}", BUTTON
        if family == "p":
            return f"mb:p:{gid}:{moves}:{draw(st.sampled_from(['play', 'hint', 'hand', 'board']))}", BUTTON
        steps = draw(self.steps())
        kind = STRING_SELECT if family in ("s", "g") else BUTTON
        if draw(st.floats(0, 1)) < 0.05:
            kind = BUTTON if kind == STRING_SELECT else STRING_SELECT
        if family in ("g", "up"):  # a group of the composer's menus: the path of indices to it
            return f"mb:{family}:{gid}:{moves}:{draw(self.menu_path())}:{steps}", kind
        return f"mb:{family}:{gid}:{moves}:{steps}", kind

    def menu_path(self) -> st.SearchStrategy[str]:
        return st.one_of(
            st.sampled_from(
                ["", "0", "1", "0.0", "3.8", "0.0.0", "24", "25", "99.99.99", str(2**64), "1..2", ".", "-1"]
            ),
            st.lists(st.integers(0, 40), max_size=5).map(lambda path: ".".join(map(str, path))),
        )

    @st.composite
    def typed_box(draw, self) -> dict[str, Any]:
        """What a ⌨ box sends back: its custom id (the composer's game, position and steps, or
        nonsense) and the text typed, in the shapes Discord uses (an action row, a label) or
        others."""
        gid = draw(self.game_id())
        custom_id = draw(
            st.one_of(
                st.builds(lambda moves, steps: f"mb:tm:{gid}:{moves}:{steps}", self.moves_for(gid), self.steps()),
                st.sampled_from(["mb:tm:", "mb:tm:1", "mb:tm:1:2", "mb:t:1:2:", "modal", "MB:TM:1:0:"]),
                odd_text(100),
            )
        )
        text = draw(st.one_of(self.step_text(), odd_text(200), st.sampled_from(["", " ", "route 99", "forgo 9"])))
        field = {"type": 4, "custom_id": draw(st.sampled_from(["step", "step", "other"])), "value": text}
        shape = draw(st.sampled_from(["row", "label", "none", "junk"]))
        components: Any = {
            "row": [{"type": 1, "components": [field]}],
            "label": [{"type": 18, "component": field}],
            "none": [],
            "junk": draw(json_values()),
        }[shape]
        return {"custom_id": custom_id, "components": components}

    @st.composite
    def forget_box(draw, self) -> dict[str, Any]:
        """`/me forget`'s box sent back: someone's, made some time, with the right code or not."""
        uid = draw(st.sampled_from(self.snowflakes + ["9" * 20]))
        issued = draw(st.sampled_from(self.issued))
        code = confirmation_code(uid, issued)
        typed = draw(
            st.one_of(st.sampled_from([code, code.lower(), f" {code[:3]}-{code[3:]} ", "AAAAAA", ""]), odd_text(20))
        )
        field = {"type": 4, "custom_id": draw(st.sampled_from(["code", "code", "step"])), "value": typed}
        custom_id = draw(
            st.sampled_from([f"mb:fgm:{uid}:{issued}", f"mb:fgm:{uid}:", "mb:fgm:x:1", f"mb:fg:{uid}:{issued}"])
        )
        return {"custom_id": custom_id, "components": [{"type": 1, "components": [field]}]}

    @st.composite
    def attempt(draw, self) -> Attempt:
        family = draw(
            st.sampled_from(["slash", "slash", "autocomplete", "component", "component", "component", "modal"])
        )
        user = draw(st.sampled_from(self.user_names))
        channel = draw(st.sampled_from(self.channel_names))
        if channel != "dm" and (channel == "elsewhere") != (user == "zed"):  # members of that guild only
            user, channel = (
                ("zed", "elsewhere")
                if draw(st.booleans())
                else (
                    draw(st.sampled_from([u for u in self.user_names if u != "zed"])),
                    channel if channel != "elsewhere" else "metro",
                )
            )
        if family in ("slash", "autocomplete"):
            return Attempt(family, user, channel, draw(self.command_data(focused=family == "autocomplete")))
        if not self.carriers[channel]:
            channel = "metro"
        message, real = draw(st.sampled_from(self.carriers[channel]))
        if family == "modal":  # sent from a message (a composer's ⌨), or from none
            box = draw(st.one_of(self.typed_box(), self.forget_box()))
            return Attempt("modal", user, channel, box, message if draw(st.booleans()) else None)
        if real and draw(st.floats(0, 1)) < 0.3:  # a real control of that message (stale, foreign, …)
            component = draw(st.sampled_from(real))
            data: dict[str, Any] = {"custom_id": component["custom_id"], "component_type": component["type"]}
            if component["type"] == STRING_SELECT:
                options = [o["value"] for o in component.get("options", [])]
                data["values"] = [
                    draw(st.one_of(st.sampled_from(options), self.step_text()) if options else self.step_text())
                ]
            return Attempt("component", user, channel, data, message, self._with(message, data))
        custom_id, ctype = draw(self.custom_id())
        data = {"custom_id": custom_id, "component_type": ctype}
        options: list[str] = []
        if ctype == STRING_SELECT:
            values = draw(st.lists(self.step_text(), min_size=0, max_size=2))
            data["values"] = values
            options = values
        return Attempt(
            "component",
            user,
            channel,
            data,
            message,
            self._with(message, data, self.w.standin.forged_row(custom_id, component_type=ctype, options=options)),
        )

    def _with(self, message: int, data: dict[str, Any], row: list[dict[str, Any]] | None = None) -> list[dict]:
        """The message's components as the payload carries them: what it has now, plus the
        pressed one if it no longer has it (a stale client's view of it)."""
        current = self.w.standin.message(message).raw["components"]
        if row is None:
            if any(c.get("custom_id") == data["custom_id"] for r in current for c in r.get("components", [])):
                return current
            row = self.w.standin.forged_row(
                data["custom_id"], component_type=data["component_type"], options=data.get("values") or ()
            )
        return current + row


# ---------------------------------------------------------------- the oracle
TEMPLATES = {cls.__name__: cls.__discord_ui_compiled_template__ for cls in DYNAMIC_ITEMS}


class Oracle:
    """Could this interaction legitimately change a stored game? (Conservative: when in doubt,
    yes, and the interaction is not sent.) Legality of moves is the engine's word."""

    def __init__(self, world: Any):
        self.w = world
        self.model = world.model()
        self.managers = {world.users["mod"]}
        self.organisers = {str(world.users["org"]), str(world.users["zed"])}  # Manage Server
        self.cups = world.tournaments()

    def refresh(self) -> None:
        self.model = self.w.model()
        self.cups = self.w.tournaments()

    def public_by_design(self, a: Attempt) -> bool:
        """Input that may answer in public without changing a game: a replay asked for the
        whole channel, and the paging buttons of replays, leaderboards and rules pressed on their
        own pager (they turn the page of that message, for everyone). Pressed on any other post
        (a tournament's sign-up, a turn post), a pager must leave it as it was: not by design."""
        if a.family == "component":
            cid = a.data.get("custom_id")
            if not isinstance(cid, str) or not any(
                TEMPLATES[t].fullmatch(cid) for t in ("ReplayButton", "PageButton", "RulesPageButton")
            ):
                return False
            prefix = cid[: cid.rindex(":") + 1]  # (the pager and its page: the operation cut off)
            ops = ("first", "prev", "next", "last") if cid.startswith("mb:r:") else ("prev", "next")
            stored = {c["custom_id"] for c in self.w.standin.message(a.message).all_components() if "custom_id" in c}
            return stored == {prefix + op for op in ops}  # (exactly that pager, as the bot made it)
        if a.family == "slash" and a.data.get("name") == "me":  # /me data: the requester's own file, by DM
            options = a.data.get("options")
            return isinstance(options, list) and any(isinstance(o, dict) and o.get("name") == "data" for o in options)
        if a.family == "slash" and a.data.get("name") == "game":
            options = a.data.get("options")
            sub = options[0] if isinstance(options, list) and options and isinstance(options[0], dict) else {}
            sub_options = sub.get("options")
            if sub.get("name") == "replay" and isinstance(sub_options, list):
                return any(
                    isinstance(o, dict) and o.get("name") == "public" and o.get("value") is True for o in sub_options
                )
        return False

    def could_change(self, a: Attempt) -> bool:
        if a.family == "modal":  # a typed step only composes (Confirm plays); /me forget's box forgets
            return self._forgets(a)
        if a.family == "autocomplete":
            return False
        seen = self.model.get(self.w.channels[a.channel])
        user = str(self.w.users[a.user])
        if a.family == "slash":
            try:
                return self._slash(a, seen, user)
            except Unreadable:
                return False
        return self._component(a, seen, user)

    # ------------------------------------------------------------ slash
    def _slash(self, a: Attempt, seen: Any, user: str) -> bool:
        data = a.data
        name = data.get("name")
        options = data.get("options", [])
        if not _json_int(data.get("type", 1), 1) or not isinstance(options, list):
            return False  # no slash command of ours (a context menu), or options that are no list
        guild = data.get("guild_id")
        if guild is not None and not (isinstance(guild, str) and guild.isascii() and guild.isdigit()):
            return False
        if name == "game":
            if (
                len(options) != 1
                or not isinstance(options[0], dict)
                or not _json_int(options[0].get("type"), 1, 2)
                or not isinstance(options[0].get("name"), str)
            ):
                return False
            sub = options[0]["name"]
            sub_options = options[0].get("options", [])
            if not isinstance(sub_options, list):
                return False
            values = _values(sub_options)
            return self._game(sub, values, seen, user, a)
        if name == "tournament":
            sub = options[0] if len(options) == 1 and isinstance(options[0], dict) else {}
            sub_options = sub.get("options", [])
            if not isinstance(sub.get("name"), str) or not isinstance(sub_options, list):
                return False
            return self._tournament(sub["name"], _values(sub_options), a, user)
        if name == "me":  # time away (and back from it) stops and restarts the clocks of a person's games
            sub = options[0] if len(options) == 1 and isinstance(options[0], dict) else {}
            return sub.get("name") in ("away", "back")
        values = _values(options)
        if name in ("status", "board", "hand", "hint", "games", "server"):  # (a server's settings are not a game's)
            return False
        if name == "play":
            return self._move(seen, user, [values.get("move")], kind=None)
        for plugin in all_plugins():
            for spec in plugin.commands:
                if spec.name == name:
                    typed = {o.name: values.get(o.name) for o in spec.options}
                    if any(o.required and not typed.get(o.name) for o in spec.options):
                        return False
                    if any(v is not None and not isinstance(v, str) for v in typed.values()):
                        return False  # Discord sends these options as text only
                    try:
                        steps = spec.steps({k: v for k, v in typed.items() if v})
                    except Exception:  # noqa: BLE001 - then the bot must refuse too
                        return False
                    return self._move(seen, user, steps, kind=plugin.name)
        return False

    def _game(self, sub: str, values: dict[str, Any], seen: Any, user: str, a: Attempt) -> bool:
        manager = int(user) in self.managers
        if sub == "new":
            return seen is None and self._valid_new(values)
        if sub == "tutorial":  # a new game in a thread of its own, whatever this channel holds
            return isinstance(values.get("kind"), str) and values["kind"] in {p.name for p in all_plugins()}
        if sub == "again":  # a lobby for a finished game, in a channel with none open (erring on yes)
            return seen is None
        if sub == "find":  # the queue: a table found opens a game in a thread (erring on yes with a game)
            return isinstance(values.get("kind"), str) and not values.get("leave")
        if seen is None:
            return False
        seated = seen.seated(user)
        if sub == "leave" and seen.status == "lobby" and user in seen.invited:
            return True  # invited to play again: leaving, or never having joined, declines
        if sub == "join":
            return seen.status == "lobby" and seated is None and len(seen.seats) < seen.max_seats
        if sub in ("leave", "resign"):
            return seated is not None and not seated.get("auto")
        if sub == "start":
            return (
                seen.status == "lobby"
                and user == seen.host
                and len(seen.seats) >= get_plugin(seen.game).game.min_players
            )
        if sub == "abort":
            return user == seen.host or manager
        if sub == "settings":
            # Any of the settings, given by the host or a Manage Channels member, is a change
            # (even to the value it has: the game is saved again). A bad clock refuses all.
            given = [values.get(k) for k in ("clock_hours", "level", "language", "tidy", "hints", "takeback_minutes")]
            return (
                (user == seen.host or manager)
                and any(v is not None for v in given)
                and _clock_ok(values.get("clock_hours"), required=False)
            )
        if sub == "nudge":  # anyone playing may nudge (when in doubt: it may post)
            return seen.status == "active" and seated is not None
        return False

    def _tournament(self, sub: str, values: dict[str, Any], a: Attempt, user: str) -> bool:
        """Could this tournament request change one (conservatively)? Looking never does."""
        if sub in ("standings", "pairings", "list"):
            return False
        runs = user in self.organisers
        cup = self.cups.get(self.w.channels[a.channel])
        if sub == "new":
            return runs and cup is None
        if cup is None:
            return False
        runs = runs or user == cup["host"]
        if sub == "join":
            return user not in cup["entrants"] and (cup["status"] == "signup" or cup["rules"]["format"] == "league")
        if sub in ("leave", "drop"):
            return user in cup["entrants"]
        if sub == "remove":
            return runs
        return runs  # start, pause, resume, abort

    def _valid_new(self, values: dict[str, Any]) -> bool:
        kind, players = values.get("kind"), values.get("players")
        variant, city = values.get("variant"), values.get("city")
        if not isinstance(kind, str):
            return False
        try:
            plugin = get_plugin(kind)
        except BadInput:
            return False
        if players is not None and (not _is_int(players) or not 1 <= players <= 8):
            return False
        if not _clock_ok(values.get("clock_hours"), required=False):
            return False
        if not _bank_ok(values):
            return False
        if (variant is not None and not isinstance(variant, str)) or (city is not None and not isinstance(city, str)):
            return False
        try:
            options = plugin.options(variant, city)
            seats = 2 if options.get("advanced") else (players or plugin.game.max_players)
            if options.get("advanced") and players not in (None, 2):
                return False
            if not plugin.game.min_players <= seats <= plugin.game.max_players:
                return False
            plugin.game.validate_options(options, seats)
        except BadInput:
            return False
        except Exception:  # noqa: BLE001 - the bot must then refuse as well
            return False
        return True

    def _move(
        self,
        seen: Any,
        user: str,
        steps: list[Any],
        *,
        kind: str | None,
        moves: int | None = None,
        gid: int | None = None,
    ) -> bool:
        if seen is None or seen.status != "active" or seen.state is None:
            return False
        if (gid is not None and gid != seen.id) or (moves is not None and moves != seen.moves):
            return False
        if kind is not None and kind != seen.game:
            return False
        seat_row = seen.seated(user)
        if seat_row is None or seat_row.get("auto"):
            return False
        if not steps or len(steps) > get_plugin(seen.game).max_steps or not all(isinstance(s, str) for s in steps):
            return False
        plugin = get_plugin(seen.game)
        game = plugin.game
        state = seen.state
        owed = [s for s in game.seats(state) if s in game.to_move(state) and s in game.seats_of(state, user)]
        if not owed:
            return False
        seat = owed[0]
        for step in steps:
            if seat not in game.to_move(state):
                return False
            try:
                state, _ = game.apply(state, seat, plugin.parse(state, seat, step))
            except (RuleError, BadInput):
                return False
            except Exception:  # noqa: BLE001 - the bot must refuse it too (or the suite sees a traceback)
                return False
        return True

    # ------------------------------------------------------------ components
    def _component(self, a: Attempt, seen: Any, user: str) -> bool:
        cid = a.data.get("custom_id")
        if not isinstance(cid, str):
            return False
        m = TEMPLATES["LobbyButton"].fullmatch(cid)
        if m:
            gid = int(m["gid"])
            if seen is None or seen.id != gid:
                return False
            return self._game(m["op"], {}, seen, user, a)
        m = TEMPLATES["AgainButton"].fullmatch(cid)
        if m:  # ↻ Play again opens a lobby where none is open (the game's player or not: erring on yes)
            return self._game("again", {}, seen, user, a)
        m = TEMPLATES["FoundButton"].fullmatch(cid)
        if m:  # a found table's people confirm (join) or drop out (the lobby closes)
            gid = int(m["gid"])
            return seen is not None and seen.id == gid and seen.status == "lobby" and user in seen.invited
        m = TEMPLATES["TournamentButton"].fullmatch(cid)
        if m:
            cup = self.cups.get(self.w.channels[a.channel])
            if cup is None or cup["id"] != int(m["tid"]) or cup["stage"] != int(m["stage"]):
                return False
            return self._tournament(m["op"], {}, a, user)
        m = TEMPLATES["ForgetButton"].fullmatch(cid)
        if m:  # its person's own, fresh: opens the box (that is not a refusal)
            return m["uid"] == user and _maybe_fresh(int(m["issued"]))
        m = TEMPLATES["TakeBackButton"].fullmatch(cid)
        if m:  # ↶ of the move the game may still take back, by its mover (in time or not: erring on yes)
            record = seen.takeback if seen is not None else None
            return (
                seen is not None
                and seen.status == "active"
                and seen.id == int(m["gid"])
                and seen.moves == int(m["moves"])
                and record is not None
                and record.get("to") == seen.moves
                and seen.mover == user
            )
        m = TEMPLATES["ComposeButton"].fullmatch(cid)
        if m and m["op"] == "ok":
            steps = [s for s in m["steps"].split(";") if s]
            return self._move(seen, user, steps, kind=None, moves=int(m["moves"]), gid=int(m["gid"]))
        return False  # PlayButton (💡 too), the composer's menus, Back, ⌨, 💡, undo, cancel only look

    def _forgets(self, a: Attempt) -> bool:
        """`/me forget`'s box, sent by its person in time with the right code (erring on the side of yes)."""
        m = BOX.fullmatch(str(a.data.get("custom_id", "")))
        if m is None or m["uid"] != str(self.w.users[a.user]) or not _maybe_fresh(int(m["issued"])):
            return False
        code = confirmation_code(m["uid"], int(m["issued"]))
        return any(_typed(v) == code for v in _values_typed(a.data.get("components")))


def _values_typed(components: Any) -> list[str]:
    """Every text a box carries, wherever it sits (any field: erring on the side of yes)."""
    out: list[str] = []
    for c in components if isinstance(components, list) else []:
        if isinstance(c, dict):
            if isinstance(c.get("value"), str):
                out.append(c["value"])
            out += _values_typed(c.get("components"))
            out += _values_typed([c["component"]] if isinstance(c.get("component"), dict) else [])
    return out


def _maybe_fresh(issued: int) -> bool:
    """A confirmation the bot might still take (a margin either side of its limits)."""
    now = time.time()
    return now - CONFIRM_SECONDS - 30 <= issued <= now + 90


class Unreadable(Exception):
    """An option value discord.py itself cannot read (the bot must refuse the command)."""


def _values(options: list[Any]) -> dict[str, Any]:
    """Option values as discord.py's Namespace reads them (numbers through float(), the last
    of a name wins); Unreadable when it cannot."""
    out: dict[str, Any] = {}
    for o in options:
        if (
            not isinstance(o, dict)
            or not isinstance(o.get("name"), str)
            or type(o.get("type")) is not int
            or not isinstance(o.get("focused", False), bool)
        ):
            raise Unreadable(o)
        otype = o["type"]
        if otype in (1, 2):
            continue
        if "value" not in o:
            raise Unreadable(o)
        value = o["value"]
        if otype == 10:
            if value is None or value == "":
                value = float("nan")
            elif not o.get("focused"):
                try:
                    value = float(value)
                except (TypeError, ValueError, OverflowError):
                    raise Unreadable(o) from None
        elif otype not in (3, 4, 5):
            continue
        out[o["name"]] = value
    return out


def _json_int(value: Any, *allowed: int) -> bool:
    """A JSON integer (not true or false) among `allowed`."""
    return type(value) is int and value in allowed


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


BANK_OPTIONS = ("clock", "bank_hours", "increment_hours", "cap_hours", "bank_quiet", "bank_away")


def _bank_ok(values: dict[str, Any]) -> bool:
    """Could `/game new`'s clock options make a game (erring on yes: then nothing is sent)?
    A preset by name, hours from 0 to 14 days, true or false; a bank with `clock_hours` never."""
    clock = values.get("clock")
    if clock is not None and clock not in ("fixed", "day", "weekend", "sitting"):
        return False
    hours = [values.get(k) for k in ("bank_hours", "increment_hours", "cap_hours")]
    for value in hours:
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 14 * 24
        ):
            return False
    if any(values.get(k) is not None and not isinstance(values.get(k), bool) for k in ("bank_quiet", "bank_away")):
        return False
    banked = clock not in (None, "fixed") or any(values.get(k) is not None for k in BANK_OPTIONS[1:])
    return not (banked and values.get("clock_hours"))


def _clock_ok(value: Any, *, required: bool) -> bool:
    if value is None:
        return not required
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return math.isfinite(value) and MIN_CLOCK_HOURS <= value <= MAX_CLOCK_HOURS
