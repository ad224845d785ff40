"""The message catalogue's tool: finds every text the bot can show, keeps the catalogue in
step with the code, and checks the translations.

    python -m tools.messages extract   # writes metrobot/i18n/locales/messages.pot and merges it
                                       # into every language's .po (new texts empty, old ones kept,
                                       # an edited text's old translation kept as a fuzzy suggestion)
    python -m tools.messages check     # what is missing or broken (against the glossaries too) in the finished
                                       # languages, what is broken in what the ones in progress (IN_PROGRESS)
                                       # have translated (exit 1 if any), and how far each has come
    python -m tools.messages check de ja pt_BR   # those languages in full, finished or not
    python -m tools.messages scan [PATH...]   # only the calls that give the catalogue no literal
    python -m tools.messages fill REV [REV...]   # after a merge: translations the catalogue lacks,
                                       # taken from the .po files of those git revisions
    python -m tools.messages sample pl --seed 7603 [--count 30]   # a reading's sample: texts spread
                                       # over the features (the code's packages), a fixed draw by the
                                       # seed, each with its English, its notes and the translation

A text is in the catalogue when the code hands it, as a literal, to one of the catalogue's
calls: `lang.t(text)`, `lang.n(singular, plural, count)`, `lang.p(context, text)`, or marks it
for later with `N_(text)`, `NP_(context, text)`, `Term(text)`, `Phrase(text)`, `RuleError(text, rule, hint)` /
`hint=text`, `BadInput(text)`, `locale_str(text)`; the web pages' templates
(`metrobot/web/templates/*.html`) call `t(text)`, `n(…)` and `p(…)` the same way. Babel reads and writes the .po files
(`tools/translations.py`: `Catalog.update` merges the template into each language the way `pybabel update`
does, fuzzy matching and all; `check` reads `{places}` as `str.format` does).
"""

from __future__ import annotations

import ast
import fnmatch
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from metrobot.i18n import DEFAULT, IN_PROGRESS, LANGUAGES, known
from tools.translations import LOCALES, NOT_TRANSLATED, ROOT, check_language, check_sources, fill, merge, places_or_none

TEMPLATE = LOCALES / "messages.pot"
# Every language but the source; those still being translated are checked only when named.
TRANSLATED = tuple(code for code in LANGUAGES if code != DEFAULT)
FINISHED = tuple(code for code in TRANSLATED if code not in IN_PROGRESS)
SOURCES = ("metrobot",)
STABLE_DATE = datetime(2026, 1, 1, tzinfo=UTC)

# callee name -> which positional arguments are texts ("c" marks a context)
MARKERS: dict[str, tuple[str, ...]] = {
    "N_": ("m",),
    "NP_": ("c", "m"),
    "Term": ("m",),
    "Phrase": ("m",),
    "BadInput": ("m",),
    "locale_str": ("m",),
    "RuleError": ("m", "", "m"),
    "MapError": ("m",),
}
METHODS: dict[str, tuple[str, ...]] = {"t": ("m",), "n": ("m", "m"), "p": ("c", "m")}
# Files whose texts no player ever reads, and why: English, not in the catalogue. Every other
# file is scanned, the games' boards, maps and markers included (what a player can meet there,
# such as "there is no gap 999", is a catalogue template). A map file's own checks (`parse_map`,
# messages handed along as values) are for whoever edits the map, and stay English too.
ENGLISH_ONLY = {
    "metrobot/cli.py": "the command-line tool's diagnostics, for developers and operators",
    "metrobot/rulescli.py": "the rules tool's diagnostics (the pages it writes come from the catalogue)",
    "metrobot/tournaments/simulate.py": "the tournament simulation tool's diagnostics, for developers (it prints JSON)",
    "metrobot/privacycli.py": "the operators' export, forget and purge tools' diagnostics",
    "metrobot/dailycli.py": "the daily challenge's verify and key tools' diagnostics, for operators and checkers",
    "metrobot/gamelog.py": "game-log files: read by the CLI, and replayed from storage by the service, where a log "
    "that does not replay is a bug (an internal error), not a player's mistake",
    "metrobot/games/*/state.py": "from_json's checks of state JSON from storage or the CLI: a state that does not "
    "load is a bug or a broken file (an internal error), never a player's mistake",
    "metrobot/games/*/canonical.py": "from_json's checks of state JSON from storage or the CLI (a game whose "
    "state JSON has a module of its own): never a player's mistake either",
    "metrobot/games/*/ai/*.py": "the automatic players' sanity checks: the service asks them only for seats that "
    "owe a decision, on views it builds itself",
    "metrobot/games/*/determinize.py": "the automatic players' guesses of hidden cards, from views the service builds",
    "metrobot/games/*/views.py": "the automatic players' views, built by the service",
}
# What translators are told about the texts of a context (a comment in the .po files).
NOTES = {
    "typed word": "Words a player may type for this in a move, in this language: the words the game shows "
    "(menus, narration). Several forms may be listed, separated by commas.",
    "line code": "A colour's code on the board's lines, beside its name in the key: a letter or two of the "
    "colour's name (R red, Bk black, Y yellow, Bl blue, Pu purple, Pk pink, O orange, G green, "
    "Br brown, W white, Gy grey), each colour's different from the others'; one Hangul syllable "
    "fits.",
}

# What translators are told about a placeholder wherever a text has it: the parts of a message
# (metrobot/i18n/words.py) that each front end words in its own medium.
PART_NOTES = {
    "act": "{act} is what the person can do next, worded where the text is read: in a Discord channel "
    "“/dig or the buttons below”, on the play page “tap the board”, on a web page “their move, in Discord "
    "or on their play page”. Place it where such a phrase fits the sentence.",
    "command": "{command} (and {command2}, {command3}) is a slash command: in a channel written as Discord "
    "shows it in this language (`/spiel neu`), on a page too. Write no slash command of your own, and nothing "
    "that agrees with it (no article or particle: `{command} 명령어로`).",
}
PART_NOTES["play"] = PART_NOTES["build"] = PART_NOTES["command"].replace(
    "{command} (and {command2}, {command3})", "{play} or {build}"
)


def _notes(context: str | None, msgid: str) -> list[str]:
    notes = [NOTES[context]] if context in NOTES else []
    return notes + [
        note for name, note in PART_NOTES.items() if "{" + name + "}" in msgid or "{" + name + "2}" in msgid
    ]


@dataclass
class Found:
    messages: dict[tuple[str | None, str], dict] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # a catalogue call given something else than a literal

    def add(self, context: str | None, msgid: str, plural: str | None, where: str) -> None:
        entry = self.messages.setdefault((context, msgid), {"plural": plural, "where": []})
        entry["where"].append(where)
        if plural and not entry["plural"]:
            entry["plural"] = plural


def _name(func: ast.expr) -> tuple[str | None, str | None]:
    if isinstance(func, ast.Name):
        return func.id, None
    if isinstance(func, ast.Attribute):
        return (func.attr, None) if func.attr in MARKERS else (None, func.attr)
    return None, None


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _composed(node: ast.expr) -> bool:
    """Text put together in code (f-string, +, %, .format, str()): its pieces can't be in
    the catalogue, so a translator never sees the whole sentence."""
    if isinstance(node, (ast.JoinedStr, ast.BinOp)):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        return (isinstance(func, ast.Attribute) and func.attr in ("format", "join")) or (
            isinstance(func, ast.Name) and func.id in ("str", "repr")
        )
    return False


def scan_file(path: Path, found: Found) -> None:
    rel = path.relative_to(ROOT).as_posix()
    if any(fnmatch.fnmatch(rel, pattern) for pattern in ENGLISH_ONLY):
        return
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        marker, method = _name(node.func)
        shape = MARKERS.get(marker) if marker else METHODS.get(method or "")
        if shape is None:
            continue
        where = f"{rel}:{node.lineno}"
        # `.t(...)`/`.n(...)`/`.p(...)` on something that is not a language (e.g. a str's
        # translate) would not reach here: no such call in our code takes a literal first.
        args = list(node.args[: len(shape)])
        if marker == "RuleError":
            hint = next((k.value for k in node.keywords if k.arg == "hint"), None)
            if hint is not None:
                args = (args + [ast.Constant(None)] * 2)[:2] + [hint]
        texts: list[str] = []
        context = None
        for kind, arg in zip(shape, args):
            if not kind:
                continue
            value = _literal(arg)
            if value is None:
                if isinstance(arg, ast.Constant) and arg.value is None:
                    continue
                if not _composed(arg):
                    continue  # a value looked up from a table of N_() texts: extracted there
                found.problems.append(f"{where}: the catalogue is given {ast.unparse(arg)[:60]}, not a literal text")
                continue
            if kind == "c":
                context = value
            else:
                texts.append(value)
        if not texts:
            continue
        if method == "n" and len(texts) == 2:
            found.add(context, texts[0], texts[1], where)
        elif marker == "RuleError":
            for text in texts:
                found.add(None, text, None, where)
        else:
            found.add(context, texts[0], None, where)


def scan_template(path: Path, found: Found) -> None:
    """A web page's template: its `t("…")`, `n("…", "…", count)` and `p("context", "…")` calls,
    read from Jinja2's own parse of it (the same calls, with literals, as in the code)."""
    import jinja2
    from jinja2 import nodes

    rel = path.relative_to(ROOT).as_posix()
    tree = jinja2.Environment().parse(path.read_text(encoding="utf-8"))
    for call in tree.find_all(nodes.Call):
        name = call.node.name if isinstance(call.node, nodes.Name) else None
        shape = METHODS.get(name or "")
        if shape is None:
            continue
        where = f"{rel}:{call.lineno}"
        args = call.args[: len(shape)]
        if not all(isinstance(a, nodes.Const) and isinstance(a.value, str) for a in args) or len(args) < len(shape):
            found.problems.append(f"{where}: the catalogue is given something else than a literal text")
            continue
        values = [a.value for a in args if isinstance(a, nodes.Const)]  # (all are: checked above)
        if name == "n":
            found.add(None, values[0], values[1], where)
        elif name == "p":
            found.add(values[0], values[1], None, where)
        else:
            found.add(None, values[0], None, where)


def scan(roots: tuple[str, ...] = SOURCES) -> Found:
    found = Found()
    for root in roots:
        for path in sorted((ROOT / root).rglob("*.py")):
            scan_file(path, found)
        for path in sorted((ROOT / root).rglob("templates/*.html")):
            scan_template(path, found)
    # The slash commands' names, options, descriptions and choices: read from the command
    # tree itself (built from the game registry), as Discord will be sent them.
    from metrobot.discord_app.client import slash_commands
    from metrobot.discord_app.languages import command_texts

    for context, text in command_texts(slash_commands(None)):
        found.add(context, text, None, "slash commands:0")
    return found


def template(found: Found) -> Catalog:
    # A fixed creation date and no line numbers in the files: real ones change with every extract, and two
    # branches that each add a text would then conflict all over every .po file when merged.
    cat = Catalog(
        project="metrobot", msgid_bugs_address="", copyright_holder="metrobot", fuzzy=False, creation_date=STABLE_DATE
    )
    for (context, msgid), entry in sorted(found.messages.items(), key=lambda kv: (kv[0][1], kv[0][0] or "")):
        ident = (msgid, entry["plural"]) if entry["plural"] else msgid
        cat.add(
            ident,
            context=context,
            locations=[(w.rsplit(":", 1)[0], int(w.rsplit(":", 1)[1])) for w in entry["where"][:3]],
            flags=("python-brace-format",) if places_or_none(msgid) else (),
            auto_comments=_notes(context, msgid),
        )
    return cat


def _feature(locations: Sequence[tuple[str, int | None]]) -> str:
    """Where a text belongs for a reading's spread: the package of its first place in the code
    (`tables`, `daily`, a game's own package, `discord_app`, the web's templates)."""
    path = sorted(loc for loc, _ in locations)[0] if locations else "?"
    parts = Path(path).parts
    if parts[:2] == ("metrobot", "games") and len(parts) > 3:
        return f"games/{parts[2]}"
    return parts[1] if len(parts) > 2 else path


def sample(args: list[str]) -> int:
    """A reader's sample of one language: `count` texts, one feature after another in turn (the
    features in a fixed order, and each feature's texts ordered by the SHA-256 of the seed and
    their English), so that every feature is read and nobody chooses which texts."""
    import hashlib
    import textwrap

    from tools.translations import read

    code = known(args[0]) if args else None
    if code is None or code == DEFAULT or "--seed" not in args:
        print("sample takes a language code and --seed N (and --count N, 30 if not said)")
        return 2
    seed = args[args.index("--seed") + 1]
    count = int(args[args.index("--count") + 1]) if "--count" in args else 30
    cat = read(LOCALES / f"{code}.po", code)
    by_feature: dict[str, list] = {}
    for message in cat:
        if not message.id:
            continue
        by_feature.setdefault(_feature(message.locations), []).append(message)

    def order(message) -> str:
        english = message.id if isinstance(message.id, str) else message.id[0]
        return hashlib.sha256(f"{seed}:{message.context or ''}:{english}".encode()).hexdigest()

    queues = [sorted(by_feature[f], key=order) for f in sorted(by_feature)]
    picked = []
    while len(picked) < count and any(queues):
        for queue in queues:
            if queue and len(picked) < count:
                picked.append(queue.pop(0))
    for number, message in enumerate(picked, 1):
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strs = [message.string] if isinstance(message.string, str) else list(message.string)
        print(
            f"{number}. [{_feature(message.locations)}]" + (f" (context: {message.context})" if message.context else "")
        )
        for english in ids:
            print(textwrap.indent(english, "   en: "))
        for note in message.auto_comments:
            print(f"   note: {note}")
        for form, text in enumerate(strs):
            print(textwrap.indent(text, f"   {code}[{form}]: " if len(strs) > 1 else f"   {code}: "))
    return 0


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "fill":
        for code in TRANSLATED:
            print(f"{code}: {fill(code, argv[1:])} translations filled")
        return 0
    if command == "sample":
        return sample(argv[1:])
    if command == "scan":
        found = Found()
        for arg in argv[1:] or SOURCES:
            path = (ROOT / arg).resolve()
            for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
                scan_file(file, found)
        print("\n".join(found.problems) or f"{len(found.messages)} texts, every call given a literal")
        return 1 if found.problems else 0
    found = scan()
    if found.problems:
        print("\n".join(found.problems))
    tmpl = template(found)
    if command == "extract":
        LOCALES.mkdir(exist_ok=True)
        with TEMPLATE.open("wb") as f:
            write_po(f, tmpl, width=100, omit_header=False, include_lineno=False)
        for code in TRANSLATED:
            merge(code, tmpl)
        print(f"{len(found.messages)} texts in {TEMPLATE.relative_to(ROOT)}")
        return 1 if found.problems else 0
    named = [known(a) for a in argv[1:]]
    if None in named or DEFAULT in named:
        print(f"check takes language codes: {', '.join(TRANSLATED)}")
        return 2
    codes = [c for c in named if c is not None] or FINISHED  # (none is: checked above)
    problems = check_sources(tmpl) + [p for code in codes for p in check_language(code, tmpl)]
    progress = []
    if not named:
        # A language in progress: what is translated is held to every rule (places, plural
        # forms, command names, the glossary); what is not yet is counted, not a failure.
        for code in sorted(IN_PROGRESS):
            found_here = check_language(code, tmpl)
            left = sum(NOT_TRANSLATED in p for p in found_here)
            problems += [p for p in found_here if NOT_TRANSLATED not in p]
            progress.append(f"{code} (in progress): {len(found.messages) - left} of {len(found.messages)} translated")
    print("\n".join(problems) if problems else f"{len(found.messages)} texts, all translated in {', '.join(codes)}")
    if progress:
        print("\n".join(progress))
    return 1 if problems or found.problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
