"""Every REST request that reaches the stand-in, kept for the check against Discord's published
OpenAPI spec (tests/e2e/apispec): what was asked (method, path, query), with which credentials
(the scheme only: ``Bot`` for the bot's token, ``Bearer`` for a person's OAuth2 token), and
what was sent (the JSON body, a multipart body's ``payload_json`` with its files' metadata, or
a form's fields). File contents are not kept: only their part name, file name, type and size.
"""

from __future__ import annotations

import json
import urllib.parse
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .constants import API_PREFIX

JSON = "application/json"
FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"


@dataclass(frozen=True)
class CapturedFile:
    """A file part of a multipart body (its bytes are not kept)."""

    field: str  # the part's name, e.g. "files[0]"
    filename: str | None
    content_type: str | None
    size: int


@dataclass
class CapturedRequest:
    """One REST request as the stand-in received it."""

    method: str
    path: str  # below /api/v10, as sent (percent-encoding kept)
    query: tuple[tuple[str, str], ...] = ()
    auth: str | None = None  # the Authorization scheme: "Bot", "Bearer", ... (never the token)
    content_type: str | None = None  # None: no body
    body: Any = None  # JSON, payload_json, or a form's fields as a dict of strings
    files: tuple[CapturedFile, ...] = ()
    parts: tuple[str, ...] = ()  # every multipart part's name, in order (payload_json and files included)
    unreadable: str | None = None  # why the body could not be read as its content type says

    def line(self) -> str:
        query = urllib.parse.urlencode(self.query) if self.query else ""
        return f"{self.method} {API_PREFIX}{self.path}" + (f"?{query}" if query else "")

    def __str__(self) -> str:
        auth = f" [{self.auth}]" if self.auth else ""
        return self.line() + auth


def auth_scheme(request: web.Request) -> str | None:
    header = request.headers.get("Authorization", "").strip()
    return header.split(" ", 1)[0] if header else None


async def capture(request: web.Request, path: str) -> CapturedRequest:
    """The request as received, with its body unless it is multipart (``read_body`` reads that
    one, as it streams). The raw body stays in aiohttp's request, so a handler reads it again."""
    captured = CapturedRequest(
        method=request.method,
        path=path,
        query=tuple(urllib.parse.parse_qsl(request.query_string, keep_blank_values=True)),
        auth=auth_scheme(request),
    )
    if request.content_type.startswith("multipart/"):
        return captured
    raw = await request.read()
    if raw:
        captured.content_type = request.content_type
        if request.content_type == FORM:
            captured.body = dict(urllib.parse.parse_qsl(raw.decode("utf-8", "replace"), keep_blank_values=True))
        else:
            try:
                captured.body = json.loads(raw)
            except ValueError as exc:
                captured.unreadable = f"the body is not JSON ({exc})"
    return captured


async def read_body(request: web.Request, captured: CapturedRequest) -> tuple[Any, dict[int, tuple[str, bytes]]]:
    """The body for the REST handlers (JSON, payload_json or a form as a dict — their own copy;
    files by their index ``n`` of ``files[n]``), recording a multipart one in ``captured``."""
    uploads: dict[int, tuple[str, bytes]] = {}
    if request.content_type.startswith("multipart/"):
        captured.content_type = MULTIPART if request.content_type == MULTIPART else request.content_type
        payload: Any = {}
        files: list[CapturedFile] = []
        parts: list[str] = []
        reader = await request.multipart()
        async for part in reader:
            if part is None:
                break
            name = part.name or ""
            parts.append(name)
            if name == "payload_json":
                text = await part.text()
                try:
                    payload = json.loads(text)
                except ValueError as exc:
                    captured.unreadable = f"payload_json is not JSON ({exc})"
                    payload = None
            else:
                data = bytes(await part.read())
                if part.filename is not None or name.startswith("files["):
                    files.append(CapturedFile(name, part.filename, part.headers.get("Content-Type"), len(data)))
                if name.startswith("files[") and name.endswith("]") and name[6:-1].isdigit():
                    uploads[int(name[6:-1])] = (part.filename or f"file{len(uploads)}", data)
                elif name == "file" or part.filename:
                    uploads[len(uploads)] = (part.filename or "file", data)
        captured.body, captured.files, captured.parts = payload, tuple(files), tuple(parts)
        if captured.unreadable:
            raise ValueError(captured.unreadable)  # (the stand-in's internal error, as for a JSON body)
        return json.loads(json.dumps(payload)), uploads  # (the handlers' own copy)
    raw = await request.read()
    if not raw:
        return None, uploads
    if request.content_type == FORM:
        return dict(captured.body), uploads
    return json.loads(raw), uploads  # (not JSON: the stand-in's internal error, as before)


@dataclass
class ExpectedViolation:
    """A request a test sends on purpose that Discord's spec does not allow (the stand-in's own
    refusal tests): the spec check must see it — and then does not count it — or it fails."""

    method: str
    path: str  # a regular expression over the request's path (below /api/v10), matched whole
    where: str  # a word the violation's description must contain (a field, "content", "unknown operation")
    why: str
    seen: int = 0


class Capture:
    """The requests kept for the spec check (one part of DiscordStandIn: see server.py)."""

    def __init__(self) -> None:
        self.captured: list[CapturedRequest] = []
        self.checked_upto = 0
        self.expected_violations: list[ExpectedViolation] = []

    def keep(self, captured: CapturedRequest) -> None:
        self.captured.append(captured)

    def drop(self, captured: CapturedRequest) -> None:
        """A request whose client went away before its body arrived: not a request after all."""
        self.captured.remove(captured)

    def unchecked_requests(self) -> list[CapturedRequest]:
        """The requests received since the last call (the spec check's batch), oldest first."""
        end = len(self.captured)  # (the bad-input suite's stand-in runs in another thread)
        batch, self.checked_upto = self.captured[self.checked_upto : end], end
        return batch

    def forget_requests(self) -> None:
        """Drop the captured requests unchecked (a benchmark running for hours: bench/soak.py)."""
        self.captured.clear()
        self.checked_upto = 0

    def expect_spec_violation(self, method: str, path: str, where: str, why: str) -> ExpectedViolation:
        """Declare a request the test sends on purpose that Discord's spec rejects (see
        :class:`ExpectedViolation`); the check fails if it is never seen."""
        expected = ExpectedViolation(method, path, where, why)
        self.expected_violations.append(expected)
        return expected
