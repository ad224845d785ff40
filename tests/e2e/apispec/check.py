"""One captured request against Discord's spec: its operation (method + path template), its
credentials, its path and query parameters, and its body for its content type.

Path and query parameters arrive as text; each is read as the JSON type its schema takes
before it is validated (a boolean as Discord reads query strings: ``True``/``true``/``1`` and
``False``/``false``/``0``, reference.mdx "Boolean Query Strings"; an array from repeated
keys, "Array Query Strings"). A multipart body is its ``payload_json`` validated as the
operation's JSON body, plus its files' parts checked as reference.mdx "Uploading Files" says.
Body findings are kept by (operation, content type, body): the same command sync or the same
message sent again costs a dictionary look-up.
"""

from __future__ import annotations

import json
import re
from typing import Any

from tests.e2e.standin.capture import JSON, MULTIPART, CapturedRequest

from . import allowances
from .errors import Finding, describe, short
from .spec import Operation, Spec

SCHEMES = {None: None, "Bot": "BotToken", "Bearer": "OAuth2", "Basic": "Basic"}
BOOLEANS = {"True": True, "true": True, "1": True, "False": False, "false": False, "0": False}
FILE_PART = re.compile(r"^files\[(\d+)\]$")
MAX_FILES = 10  # a message's attachments (the spec's files[0]…files[9]; MessageCreateRequest.attachments maxItems)
MAX_ERRORS = 3  # findings shown per schema (the first ones; fixing them shows the next)
_BODY_CACHE: dict[tuple[str, str, str], list[Finding]] = {}


def check(spec: Spec, request: CapturedRequest) -> tuple[Operation | None, list[Finding]]:
    """The request's operation in the spec (None: there is none) and what is wrong with it."""
    if request.unreadable:
        return None, [Finding("body", request.unreadable)]
    found = spec.match(request.method, request.path)
    if found is None:
        return None, [Finding("operation", "Discord's spec has no such operation (method and path)")]
    op, path_values = found
    findings = _credentials(op, request.auth)
    for name, text in path_values.items():
        findings += _parameter(spec, op, "path", name, [text])
    findings += _query(spec, op, request.query)
    findings += _body(spec, op, request)
    for rule in allowances.REQUEST_RULES:
        findings += [Finding("body", m) for m in rule(op.method, op.template, request.auth, request.body)]
    return op, findings


# ---------------------------------------------------------------------------------------- credentials
def _credentials(op: Operation, auth: str | None) -> list[Finding]:
    wanted = SCHEMES.get(auth, auth)
    taken = [next(iter(alt), None) for alt in op.security]
    if wanted in taken:
        return []
    said = {None: "no credentials", "BotToken": "the bot's token", "OAuth2": "a Bearer token", "Basic": "HTTP Basic"}
    return [
        Finding(
            "Authorization",
            f"sent with {said.get(wanted, repr(auth))}; the operation takes {' or '.join(said.get(t, str(t)) for t in taken)}",
            f"#{op.pointer}/security",
        )
    ]


# ---------------------------------------------------------------------------------------- parameters
def _read(text: str, types: frozenset[str]) -> Any:
    """A query or path text as the JSON type its schema takes (else the text, which then fails)."""
    if "integer" in types and re.fullmatch(r"-?\d+", text):
        return int(text)
    if "number" in types and re.fullmatch(r"-?\d+(\.\d+)?([eE][-+]?\d+)?", text):
        return float(text)
    if "boolean" in types and text in BOOLEANS:
        return BOOLEANS[text]
    return text


def _parameter(spec: Spec, op: Operation, where: str, name: str, texts: list[str]) -> list[Finding]:
    param = op.parameters.get((where, name))
    if param is None:
        return [Finding(f"{where} {name}", f"not a {where} parameter of {op}", value=short(texts))]
    if "array" in param.types:
        items = spec.types(spec.resolve(spec.node(param.pointer)).get("items", {}))
        value: Any = [_read(t, items) for t in texts]
    elif len(texts) > 1:
        return [Finding(f"{where} {name}", "given more than once (it is not an array)", value=short(texts))]
    else:
        value = _read(texts[0], param.types)
    validator = spec.validator(param.pointer)
    return [
        describe(spec.document, param.pointer, e, f"{where} {name}")
        for e in list(validator.iter_errors(value))[:MAX_ERRORS]
    ]


def _query(spec: Spec, op: Operation, query: tuple[tuple[str, str], ...]) -> list[Finding]:
    grouped: dict[str, list[str]] = {}
    for key, text in query:
        grouped.setdefault(key, []).append(text)
    findings = []
    for key, texts in grouped.items():
        findings += _parameter(spec, op, "query", key, texts)
    for (where, name), param in op.parameters.items():
        if where == "query" and param.required and name not in grouped:
            findings.append(Finding(f"query {name}", "required by the operation, not sent"))
    return findings


# ---------------------------------------------------------------------------------------- the body
def _body(spec: Spec, op: Operation, request: CapturedRequest) -> list[Finding]:
    ctype = request.content_type
    if ctype is None:
        return [Finding("body", f"{op} requires a body; none was sent")] if op.body_required else []
    if not op.content:
        return [Finding("body", f"{op} takes no body, but one was sent ({ctype})", value=short(request.body))]
    if ctype not in op.content:
        return [Finding("Content-Type", f"{op} takes {', '.join(op.content)}, not {ctype}")]
    findings: list[Finding] = []
    pointer = op.content[ctype]
    if ctype == MULTIPART:
        findings += _parts(spec, op, request)
        # payload_json is the JSON body (reference.mdx, Uploading Files)
        pointer = op.content.get(JSON, pointer)
        if "payload_json" not in request.parts:
            return findings
    return findings + _validate(spec, pointer, ctype, request.body)


def _validate(spec: Spec, pointer: str, ctype: str, body: Any) -> list[Finding]:
    key = (pointer, ctype, json.dumps(body))  # (discord.py writes a body's keys in one order every time)
    if key not in _BODY_CACHE:
        if len(_BODY_CACHE) > 20000:
            _BODY_CACHE.clear()
        validator = spec.validator(pointer)
        _BODY_CACHE[key] = [
            describe(spec.document, pointer, e, "body") for e in list(validator.iter_errors(body))[:MAX_ERRORS]
        ]
    return _BODY_CACHE[key]


def _parts(spec: Spec, op: Operation, request: CapturedRequest) -> list[Finding]:
    """A multipart body's parts (reference.mdx, Uploading Files): each file is a ``files[n]``
    part with a file name and a name of its own; other parts must be named by the operation's
    multipart schema; a PATCH keeps only the files its ``attachments`` list."""
    findings = []
    named = _multipart_properties(spec, op.content[MULTIPART])
    seen: set[str] = set()
    for part in request.parts:
        if part in seen:
            findings.append(Finding(f"part {part}", "two parts have this name (each file needs its own)"))
        seen.add(part)
        if part != "payload_json" and not FILE_PART.match(part) and part not in named:
            findings.append(Finding(f"part {part}", f"not a part {op} takes (payload_json, files[n])"))
    files = [f for f in request.files if FILE_PART.match(f.field)]
    if len(files) > MAX_FILES:
        findings.append(Finding("files", f"{len(files)} files; at most {MAX_FILES} allowed"))
    for f in files:
        if not f.filename:
            findings.append(Finding(f"part {f.field}", "a file part without a filename in its Content-Disposition"))
    if op.method == "PATCH" and isinstance(request.body, dict):
        listed = {str(a.get("id")) for a in request.body.get("attachments") or [] if isinstance(a, dict)}
        for f in files:
            index = FILE_PART.match(f.field).group(1)
            if index not in listed:
                findings.append(
                    Finding(f"part {f.field}", "not in payload_json's attachments: Discord would drop this file")
                )
    return findings


def _multipart_properties(spec: Spec, pointer: str) -> set[str]:
    schema = spec.resolve(spec.node(pointer))
    names = set(schema.get("properties", {}))
    for branch in schema.get("allOf", []):
        names |= set(spec.resolve(branch).get("properties", {}))
    return names
