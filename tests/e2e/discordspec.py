"""The bot's requests to Discord checked against Discord's published OpenAPI spec.

The stand-in keeps every REST request the bot made (`DiscordStandIn.captured`: method, path,
query, content type, body); `spec_problems(captured)` finds each one's operation in the spec
(`discord/discord-api-spec`, `specs/openapi.json`, OpenAPI 3.1: its schemas are JSON Schema
2020-12) and validates its JSON body (a multipart body's `payload_json`) against the operation's
request schema. A request whose route the spec does not have is a problem too, except
`POST /oauth2/token`, which the spec leaves out: its form is checked against Discord's OAuth2
documentation instead (the fields of an authorization-code exchange, nothing else).

The spec is a data file this repository does not ship: it is looked for at
`METROBOT_DISCORD_SPEC`, then `../shared/discord-api-spec/openapi.json` beside the checkout;
`spec_or_skip()` skips (saying where to put it) when it is nowhere.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLACES = (
    "METROBOT_DISCORD_SPEC",
    ROOT.parent / "shared" / "discord-api-spec" / "openapi.json",  # (a clone beside shared/, as CI's)
    ROOT.parent.parent / "shared" / "discord-api-spec" / "openapi.json",  # (a worktree one level down)
)
TOKEN_FORM = {"grant_type", "code", "client_id", "client_secret", "redirect_uri"}  # (topics/oauth2)


def spec_path() -> Path | None:
    for place in PLACES:
        path = Path(os.environ.get(place, "")) if isinstance(place, str) else place
        if path.is_file():
            return path
    return None


def spec_or_skip() -> Path:
    path = spec_path()
    if path is None:
        pytest.skip(
            "Discord's OpenAPI spec is not here: put discord/discord-api-spec's specs/openapi.json at "
            "../shared/discord-api-spec/openapi.json or name it in METROBOT_DISCORD_SPEC"
        )
    return path


@cache
def _spec(path: str) -> tuple[dict, list[tuple[str, re.Pattern[str], str]]]:
    spec = json.loads(Path(path).read_text(encoding="utf-8"))
    # Discord takes a snowflake as a number as well as a string (discord.py sends allowed
    # mentions' and attachments' ids as numbers); the spec writes only the string.
    snowflake = spec["components"]["schemas"]["SnowflakeType"]
    spec["components"]["schemas"]["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
    routes = []
    for template, operations in spec["paths"].items():
        pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$")
        for method in operations:
            if method in ("get", "post", "put", "patch", "delete"):
                routes.append((method.upper(), pattern, template))
    # (a literal segment wins over a parameter: /users/@me before /users/{user_id})
    routes.sort(key=lambda r: r[2].count("{"))
    return spec, routes


def _validator(spec_file: str, pointer: str) -> Any:
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    spec, _ = _spec(spec_file)
    registry = Registry().with_resource("urn:discord", Resource.from_contents(spec, default_specification=DRAFT202012))
    return Draft202012Validator({"$ref": "urn:discord#" + pointer}, registry=registry)


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def spec_problems(captured: list[tuple[str, str, str, str, Any]], spec_file: Path) -> list[str]:
    spec, routes = _spec(str(spec_file))
    problems: list[str] = []
    for method, path, _query, content_type, body in captured:
        if method == "POST" and path == "/oauth2/token":
            continue  # (checked from the stand-in's record of the form: `token_form_problems`)
        route = next((template for m, pattern, template in routes if m == method and pattern.match(path)), None)
        if route is None:
            problems.append(f"{method} {path}: not in Discord's spec")
            continue
        operation = spec["paths"][route][method.lower()]
        content = (operation.get("requestBody") or {}).get("content") or {}
        if body is None:
            if (operation.get("requestBody") or {}).get("required"):
                problems.append(f"{method} {route}: a body is required")
            continue
        if "application/json" not in content:
            problems.append(f"{method} {route}: the spec takes no JSON body")
            continue
        pointer = "/".join(("", "paths", _escape(route), method.lower(), "requestBody", "content"))
        validator = _validator(str(spec_file), pointer + "/application~1json/schema")
        for error in list(validator.iter_errors(body))[:3]:
            where = "/".join(str(p) for p in error.absolute_path)
            problems.append(f"{method} {route} ({content_type}): {where or 'body'}: {error.message[:200]}")
    return problems


def token_form_problems(exchanges: list[dict]) -> list[str]:
    """The OAuth2 exchanges as the stand-in recorded them: a form of OAuth2's fields only."""
    problems = []
    for exchange in exchanges:
        if exchange["content_type"] != "application/x-www-form-urlencoded":
            problems.append(f"POST /oauth2/token sent as {exchange['content_type']} (Discord takes forms only)")
        unknown = set(exchange["form"]) - TOKEN_FORM
        if unknown or exchange["form"].get("grant_type") != "authorization_code":
            problems.append(f"POST /oauth2/token: unexpected form {sorted(exchange['form'])}")
    return problems


def assert_valid_requests(standin: Any) -> None:
    """Every request the bot made so far is valid by Discord's spec (where the spec is here;
    the OAuth2 exchanges always)."""
    problems = token_form_problems(standin.token_exchanges)
    path = spec_path()
    if path is not None:
        problems += spec_problems(list(standin.captured), path)
    assert not problems, "requests Discord's spec does not allow:\n" + "\n".join(problems)
