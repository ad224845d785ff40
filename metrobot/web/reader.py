"""Who reads a page, and in which language; the helpers every template gets.

The language is the one the reader picked with the switch (`?lang=ko`), else the first of
their browser's (`Accept-Language`) that the bot speaks, else the game's. Every word on a
page comes from the catalogue: templates call `t(…)`, `n(…)` and `p(…)` like the code does,
and `tools/messages.py` reads them there.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from functools import cache
from typing import Any

from aiohttp import web
from babel import Locale
from babel.dates import format_datetime
from markupsafe import Markup, escape

from ..i18n import LANGUAGES, N_, OFFERED, Lang, known, lang
from ..i18n.words import ASIDE, INSTEAD, OPEN, PART, has_parts, parts
from ..play.board import piece_of, plain

# A browser's language alone, by its first code ("pt" is Brazil's, the one we have; "zh" the
# simplified; "no", Norwegian, is Bokmål, `nb`).
_BY_BASE: dict[str, str] = {"no": "nb"}
for _code in LANGUAGES:
    _BY_BASE.setdefault(_code.split("_")[0], _code)

_ACCEPT = re.compile(r"\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q\s*=\s*([0-9.]{1,5}))?\s*$")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_UNDERLINE = re.compile(r"__(.+?)__")
_CODE = re.compile(r"`([^`]+)`")
_STAMP = re.compile(r"&lt;t:(\d{1,12}):[a-zA-Z]&gt;")
_MENTION = re.compile(r"&lt;[@#][!&]?\d{1,20}&gt;")
# What a player can do next, as a page read by anyone says it (the play page has its own).
ACT_WORDS = {
    "play": N_("their move, in Discord or on their play page"),
    "go on": N_("the rest of the turn, in Discord or on the play page"),
    "route": N_("the player chooses one of them"),
}


def accepted(header: str | None) -> list[str]:
    """The bot's languages a browser accepts, most wanted first, those still being translated
    after the complete ones (junk in the header is skipped)."""
    wanted: list[tuple[bool, float, int, str]] = []
    for i, part in enumerate((header or "")[:500].split(",")[:20]):
        match = _ACCEPT.match(part)
        if not match:
            continue
        try:
            q = float(match.group(2)) if match.group(2) else 1.0
        except ValueError:
            continue
        code = known(match.group(1)) or _BY_BASE.get(match.group(1).split("-")[0].lower())
        if code is not None and q > 0:
            wanted.append((code not in OFFERED, -q, i, code))
    # (a language still being translated is mostly English yet: one the reader also reads and
    # that is complete comes first, however the browser ranks them)
    return [code for *_, code in sorted(wanted)]


def chosen(request: web.Request, default: str | None = None) -> Lang:
    """The reader's language (see above); an unknown `?lang=` is refused (400)."""
    asked = request.query.get("lang")
    if asked is not None:
        if asked not in LANGUAGES:
            raise web.HTTPBadRequest()
        return lang(asked)
    for code in accepted(request.headers.get("Accept-Language")):
        return lang(code)
    return lang(default if default in LANGUAGES else None)


def when(at: float | None, language: Lang) -> str:
    """A moment as the reader's language writes it, in UTC (the page's script shows it in the
    reader's own time zone)."""
    if at is None:
        return ""
    # (a naive datetime already in UTC: Babel's time-zone handling costs ten times the rest)
    moment = dt.datetime.fromtimestamp(at, dt.UTC).replace(tzinfo=None)
    return format_datetime(moment, "medium", locale=_locale(language.code)) + " UTC"


@cache
def _locale(code: str) -> Locale:
    return Locale.parse(code if code in LANGUAGES else "en")


def stamp(at: float | None) -> str:
    """A moment in a list, written the same in every language (the page's script then writes it
    as the reader's language and time zone do): Babel for a hundred times a page costs more
    than all the rest of the page."""
    return dt.datetime.fromtimestamp(at or 0, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def iso(at: float | None) -> str:
    return dt.datetime.fromtimestamp(at or 0, dt.UTC).isoformat(timespec="seconds")


def _marked(text: str, language: Lang) -> str:
    """A plain piece: escaped first, then only the catalogue's marks (**bold**, __underline__,
    `code`) turned into markup; the timestamps and mentions of an older text read too."""
    html = str(escape(text))
    html = _BOLD.sub(r"<strong>\1</strong>", html)
    html = _UNDERLINE.sub(r"<strong>\1</strong>", html)
    html = _CODE.sub(r"<code>\1</code>", html)
    html = _STAMP.sub(lambda m: str(escape(when(float(m.group(1)), language))), html)
    return _MENTION.sub("", html)


def rich(text: str, language: Lang) -> Markup:
    """A text of the service as HTML: its plain pieces with their marks, its parts worded as a
    page words them (`play.board.page_text`: people by name, no slash command), times in the
    reader's language."""
    html = []
    for piece in parts(text):
        if isinstance(piece, str):
            html.append(_marked(piece, language))
            continue
        said = piece_of(piece, {}, ACT_WORDS)
        if said is not None:
            html.append(str(escape(when(float(said["time"]), language) if "time" in said else said["text"])))
    return Markup("".join(html))


def tag(code: str) -> str:
    """A language code as HTML and HTTP write it (BCP 47: "pt-BR", not gettext's "pt_BR")."""
    return code.replace("_", "-")


def helpers(language: Lang) -> dict[str, Any]:
    """What every template may call, in the reader's language."""
    return {
        "t": language.t,
        "n": language.n,
        "p": language.p,
        "num": language.num,
        "nums": language.nums,
        "language": language.code,
        "tag": tag(language.code),
        # (the languages offered, and the reader's own while it is being translated: the others
        # in progress are mostly English yet, and offered nowhere)
        "languages": [(code, name) for code, name in LANGUAGES.items() if code in OFFERED or code == language.code],
        "when": lambda at: when(at, language),
        "iso": iso,
        "stamp": stamp,
        "rich": lambda text: rich(text, language),
    }


def worded(value: Any) -> Any:
    """What a template writes (`{{ … }}`, Jinja's `finalize`): a text of the service with its
    parts worded as a page words them (the template escapes the result as usual)."""
    if isinstance(value, str) and not isinstance(value, Markup) and has_parts(value):
        return plain(value)
    return value


# A part's or an aside line's mark (or a summary's: `words.summarised`), as UTF-8 and as JSON
# writes it escaped.
_MARK_BYTES = (OPEN.encode(), ASIDE.encode(), INSTEAD.encode(), b"\\ue000", b"\\ue003", b"\\ue004")
_INSTEAD = re.compile(f"{INSTEAD}[^\\n<]*")  # (a summary a page shows no need of: its lines are all there)
_WORDED = ("application/json", "text/html", "text/plain")


def worded_body(response: web.StreamResponse) -> None:
    """A last look at every answer: a text of the service that reached a page without going
    through `rich` or a template (a JSON answer of the play page, the Activity) has its parts
    worded too, so a page never shows their marks."""
    body = getattr(response, "body", None)
    if (
        not isinstance(body, bytes)
        or not any(mark in body for mark in _MARK_BYTES)
        or response.content_type not in _WORDED
    ):
        return  # (a picture's bytes may hold the mark's bytes by chance: only texts are read)
    assert isinstance(response, web.Response)
    if response.content_type == "application/json":
        response.body = json.dumps(_worded_json(json.loads(body)), ensure_ascii=False).encode()
    else:
        text = body.decode(response.charset or "utf-8")
        text = _INSTEAD.sub("", PART.sub(lambda m: str(escape(plain(m.group(0)))), text)).replace(ASIDE, "")
        response.body = text.encode(response.charset or "utf-8")


def _worded_json(value: Any) -> Any:
    if isinstance(value, str):
        return plain(value) if has_parts(value) else value
    if isinstance(value, list):
        return [_worded_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _worded_json(v) for k, v in value.items()}
    return value
