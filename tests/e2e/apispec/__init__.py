"""Every request the bot sends is valid by Discord's published API spec.

The Discord stand-in (tests/e2e/standin) keeps every REST request it receives
(``standin.captured``: method, path, query, the Authorization scheme, the JSON body or a
multipart body's ``payload_json`` with its files' metadata, or a form's fields). At the
teardown of every test that used a stand-in (the ``standin`` fixture; the bad-input suite's
world) :func:`check_standin` checks the requests received since the last check against
Discord's OpenAPI spec (discord/discord-api-spec, ``specs/openapi.json``, pinned in
``pin.json``, kept in ``pinned/``; see ``source.py`` and ``tools/discord_spec.py`` to refresh
it):

* the operation exists (method + path template; a literal segment such as ``@me`` wins over a
  parameter) — an unknown endpoint is a failure, whatever the stand-in answered;
* the credentials are ones the operation takes (the bot's token, a person's Bearer token, none);
* path parameters (snowflakes: digits, below 2**64) and query parameters (defined by the
  operation, of their schema's type, the required ones present);
* the body, for its content type, against the operation's requestBody schema (JSON Schema
  2020-12, ``$ref`` resolved within the document, formats ``snowflake``, ``int32``, ``int64`` and
  ``uri`` checked); a multipart body's parts as Discord's docs describe them.

A failure names the request (method, path), the operation, where in it (``body/data/content``),
the rule's place in the spec (``#/components/schemas/…/maxLength``) and the offending value.
Where the spec is stricter or older than Discord's documented behaviour, ``allowances.py`` says
so case by case, citing the docs. A test that sends a wrong request on purpose declares it with
``standin.expect_spec_violation(method, path_regex, where, why)``; the check then fails if it
does not see it.

Without the pinned spec (deleted or changed in the checkout) the check does not run: a warning
says so, and under ``CI=true`` the test fails instead.
"""

from __future__ import annotations

import os
import re
import time
import warnings
from collections.abc import Iterable
from typing import Any

from tests.e2e.standin.capture import CapturedRequest, ExpectedViolation

from .check import check
from .errors import Finding
from .source import SpecUnavailable, pin
from .spec import Spec, load

__all__ = ["SpecNotChecked", "SpecUnavailable", "assert_valid_requests", "check_requests", "check_standin", "load"]


class SpecNotChecked(UserWarning):
    """The spec is not installed here, so the requests were not checked."""


def check_requests(
    spec: Spec, requests: Iterable[CapturedRequest], expected: list[ExpectedViolation] = ()
) -> list[str]:
    """What is wrong with these requests, one text a request (similar ones counted once)."""
    reports: dict[tuple, tuple[list[Finding], list[CapturedRequest]]] = {}
    for request in requests:
        op, findings = check(spec, request)
        findings = [f for f in findings if not _expected(expected, request, f)]
        if findings:
            # the same fault in another request of the operation (another id, another value) is counted once
            shape = tuple((f.where, f.message, f.schema_path) for f in findings)
            key = (str(op) if op else None, request.method, None if op else request.path, shape)
            reports.setdefault(key, (findings, []))[1].append(request)
    out = []
    for (operation, *_), (findings, seen) in reports.items():
        head = f"{seen[0]}" + (f"  (operation {operation})" if operation else "")
        more = [f"  (and {len(seen) - 1} more request(s) like it)"] if len(seen) > 1 else []
        out.append("\n".join([head, *(line for f in findings for line in f.lines()), *more]))
    return out


_PART_MARKS = re.compile("[\ue000-\ue002]")


def unrendered(requests: Iterable[CapturedRequest]) -> list[str]:
    """Our own rule beside Discord's spec: a text the service made reaches Discord with its
    parts worded (metrobot/i18n/words.py), never with the marks of a part left in it."""

    def strings(value: Any) -> Iterable[str]:
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for item in value.values():
                yield from strings(item)
        elif isinstance(value, list):
            for item in value:
                yield from strings(item)

    return [
        f"{request}: a part of a message was not worded for Discord: {text!r}"
        for request in requests
        for text in strings(request.body)
        if _PART_MARKS.search(text)
    ]


def _expected(expected: Iterable[ExpectedViolation], request: CapturedRequest, finding: Finding) -> bool:
    for e in expected:
        if e.method == request.method and re.fullmatch(e.path, request.path) and e.where in "\n".join(finding.lines()):
            e.seen += 1
            return True
    return False


def check_standin(standin, *, final: bool = True) -> list[str]:
    """The stand-in's requests since the last check, checked; with ``final``, also the declared
    violations that never came. Empty when all is well (or when the spec is not installed here
    outside CI: a SpecNotChecked warning then says so)."""
    started = time.perf_counter()
    batch = standin.unchecked_requests()
    try:
        spec = load()
    except SpecUnavailable as exc:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            return [f"the requests could not be checked: {exc}"]
        warnings.warn(SpecNotChecked(f"{len(batch)} requests not checked against Discord's spec: {exc}"), stacklevel=2)
        return []
    problems = check_requests(spec, batch, standin.expected_violations) + unrendered(batch)
    if final:
        problems += [
            f"expected a request Discord's spec rejects ({e.method} {e.path}, {e.where}: {e.why}), none came"
            for e in standin.expected_violations
            if not e.seen
        ]
    _account(len(batch), time.perf_counter() - started)
    return problems


def _account(requests: int, seconds: float) -> None:
    """What the check cost, a line per check in METROBOT_SPEC_STATS when it is set (the figures
    in docs/developers/testing.md are summed from it)."""
    out = os.environ.get("METROBOT_SPEC_STATS")
    if out:
        with open(out, "a", encoding="utf-8") as f:
            f.write(f"{os.getpid()}\t{requests}\t{seconds:.4f}\n")


def heading(count: int) -> str:
    p = pin()
    return (
        f"{count} request(s) to the Discord stand-in are not valid by Discord's published API spec "
        f"({p['repository']} at {p['commit'][:12]}, {p['date'][:10]}; tests/e2e/apispec):"
    )


def assert_valid_requests(standin) -> None:
    """Check now, mid-test (the fixture's teardown checks whatever comes after)."""
    problems = check_standin(standin, final=False)
    assert not problems, heading(len(problems)) + "\n" + "\n".join(problems)
