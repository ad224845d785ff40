"""The check of every captured request against Discord's published OpenAPI spec (apispec/):
what the spec allows passes — the Activity's requests and the user-install fields included —
and what it does not is caught, named and located; the stand-in serves only operations the
spec has; a request really sent to the stand-in is captured and checked."""

from __future__ import annotations

import json
import os

import aiohttp
import pytest

from tests.e2e.apispec import check_requests, check_standin, load
from tests.e2e.apispec import source as spec_source
from tests.e2e.apispec.check import check
from tests.e2e.standin import DiscordStandIn
from tests.e2e.standin.capture import CapturedFile, CapturedRequest

APP, GUILD, CHANNEL, MESSAGE = "1215413995645968394", "912952092627435520", "1175235469862502400", "1175235469958971392"
CALLBACK = "/interactions/1175235469958971393/standin.1175235469958971393.tok/callback"
FOLLOWUP = f"/webhooks/{APP}/standin.1175235469958971393.tok"
ENTRY_POINT = {
    "name": "launch",
    "type": 4,
    "handler": 2,
    "description": "Play the board",
    "integration_types": [0, 1],
    "contexts": [0, 1, 2],
}


@pytest.fixture(scope="module")
def spec():
    try:
        return load()
    except spec_source.SpecUnavailable as exc:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            raise
        pytest.skip(str(exc))


def req(method, path, body=None, *, query=(), auth="Bot", ctype=None, files=(), parts=()) -> CapturedRequest:
    if body is not None and ctype is None:
        ctype = "application/json"
    return CapturedRequest(method, path, tuple(query), auth, ctype, body, tuple(files), tuple(parts))


def findings(spec, request: CapturedRequest) -> list[str]:
    return ["\n".join(f.lines()) for f in check(spec, request)[1]]


def message(content="hello", **more) -> dict:
    return {"content": content, "allowed_mentions": {"parse": [], "users": [int(MESSAGE)]}, **more}


GOOD = [
    req("GET", "/gateway/bot"),
    req("GET", "/users/@me"),
    req("GET", "/users/@me", auth="Bearer"),  # the web server, for a person (OAuth2 identify)
    req("GET", f"/applications/{APP}/activity-instances/i-1175235469862502400-gc-912952092627435520"),
    req("PUT", f"/applications/{APP}/commands", [ENTRY_POINT, {"name": "games", "description": "Your games"}]),
    req("POST", f"/applications/{APP}/commands", ENTRY_POINT),
    req("POST", CALLBACK, {"type": 12}, query=[("with_response", "1")], auth=None),  # LAUNCH_ACTIVITY
    req("POST", CALLBACK, {"type": 5, "data": {"flags": 64}}, query=[("with_response", "true")], auth=None),
    req("POST", CALLBACK, {"type": 4, "data": {"content": "x" * 2000}}, auth=None),
    req("POST", FOLLOWUP, message(), query=[("wait", "1"), ("with_components", "0")], auth=None),
    req("POST", "/users/@me/channels", {"recipient_id": int(MESSAGE)}),
    req("GET", f"/channels/{CHANNEL}/messages", query=[("limit", "100"), ("after", MESSAGE)]),
    req(
        "POST",
        f"/channels/{CHANNEL}/messages",
        message(attachments=[{"id": 0, "filename": "board.png", "description": "The board"}]),
        ctype="multipart/form-data",
        files=[CapturedFile("files[0]", "board.png", "image/png", 1234)],
        parts=["payload_json", "files[0]"],
    ),
    req("PUT", f"/channels/{CHANNEL}/messages/{MESSAGE}/reactions/%F0%9F%9A%87/@me"),
    req(
        "POST",
        "/oauth2/token",
        {"grant_type": "authorization_code", "code": "c0de", "client_id": APP, "client_secret": "s"},
        auth=None,
        ctype="application/x-www-form-urlencoded",
    ),
    req(
        "POST",
        "/oauth2/token",
        {"grant_type": "authorization_code", "code": "c0de"},
        auth="Basic",
        ctype="application/x-www-form-urlencoded",
    ),
]


@pytest.mark.parametrize("request_", GOOD, ids=lambda r: f"{r.method} {r.path[:40]}")
def test_what_the_spec_allows_passes(spec, request_):
    assert findings(spec, request_) == []


BAD = [
    # (request, where, what the finding says, the rule's place in the spec)
    (
        req("POST", CALLBACK, {"type": 4, "data": {"content": "x" * 2001}}, auth=None),
        "body/data/content",
        "2001 characters; at most 2000 allowed",
        "#/components/schemas/IncomingWebhookInteractionRequest/properties/content/maxLength",
    ),
    (
        req("POST", CALLBACK, {"type": 99}, auth=None),
        "body",
        "type 99 is none of the kinds allowed here",
        "~1callback/post/requestBody/content/application~1json/schema/anyOf",
    ),
    (
        req(
            "POST",
            f"/channels/{CHANNEL}/messages",
            message(components=[{"type": 1, "components": [{"type": 42, "custom_id": "x"}]}]),
        ),
        "body/components/0/components/0",
        "type 42 is none of the kinds allowed here (2, 3, 5, 6, 7, 8)",
        "#/components/schemas/ActionRowComponentForMessageRequest/properties/components/items/oneOf",
    ),
    (
        req(
            "POST",
            "/oauth2/token",
            {"grant_type": "authorization_code", "code": "c", "password": "p"},
            auth="Basic",
            ctype="application/x-www-form-urlencoded",
        ),
        "body",
        "Additional properties are not allowed ('password' was unexpected)",
        "#/x-metrobot-extra-paths/~1oauth2~1token/post/requestBody/content/application~1x-www-form-urlencoded/schema/additionalProperties",
    ),
    (
        req("POST", "/oauth2/token", {"grant_type": "authorization_code", "code": "c"}, auth=None),
        "Content-Type",
        "takes application/x-www-form-urlencoded, not application/json",
        "",
    ),
    (
        req(
            "POST",
            "/oauth2/token",
            {"grant_type": "authorization_code", "code": "c"},
            auth=None,
            ctype="application/x-www-form-urlencoded",
        ),
        "body",
        "without HTTP Basic, the form needs client_id and client_secret",
        "",
    ),
    (
        req("PUT", f"/applications/{APP}/commands", [dict(ENTRY_POINT, handler="two")]),
        "body/0/handler",
        "not of type",
        "",
    ),
    (
        req("PUT", f"/applications/{APP}/commands", [dict(ENTRY_POINT, integration_types=[0, 7])]),
        "body/0/integration_types/1",
        "not one of 0, 1",
        "#/components/schemas/ApplicationIntegrationType/oneOf",
    ),
    (
        req("PUT", f"/applications/{APP}/commands", [dict(ENTRY_POINT, contexts=[])]),
        "body/0/contexts",
        "0 items; at least 1 allowed",
        "minItems",
    ),
    (
        req("POST", f"/applications/{APP}/commands", dict(ENTRY_POINT, name="x" * 33)),
        "body/name",
        "33 characters; at most 32 allowed",
        "#/components/schemas/ApplicationCommandCreateRequest/properties/name/maxLength",
    ),
    (req("GET", "/nope"), "operation", "Discord's spec has no such operation", ""),
    (req("GET", f"/applications/{APP}/activity-instances"), "operation", "no such operation", ""),
    (req("GET", "/channels/12ab"), "path channel_id", "does not match", "SnowflakeType/pattern"),
    (req("GET", f"/channels/{CHANNEL}/messages", query=[("limit", "500")]), "query limit", "maximum of 100", ""),
    (req("GET", f"/channels/{CHANNEL}/messages", query=[("limit", "ten")]), "query limit", "not of type", ""),
    (req("GET", f"/channels/{CHANNEL}/messages", query=[("sort", "asc")]), "query sort", "not a query parameter", ""),
    (req("POST", CALLBACK, {"type": 5}, query=[("with_response", "yes")], auth=None), "query with_response", "", ""),
    (
        req("POST", f"/channels/{CHANNEL}/messages", message(), auth="Bearer"),
        "Authorization",
        "sent with a Bearer token; the operation takes the bot's token",
        "/security",
    ),
    (req("GET", "/users/@me", auth=None), "Authorization", "sent with no credentials", ""),
    (req("POST", f"/channels/{CHANNEL}/typing", {"x": 1}), "body", "takes no body, but one was sent", ""),
    (req("POST", f"/channels/{CHANNEL}/messages"), "body", "requires a body; none was sent", ""),
    (
        req("POST", "/users/@me/channels", {"recipient_id": 1 << 64}),
        "body/recipient_id",
        "",
        "#/components/schemas/CreatePrivateChannelRequest/properties/recipient_id",
    ),
    (
        req(
            "POST",
            f"/channels/{CHANNEL}/messages",
            message(),
            ctype="multipart/form-data",
            files=[CapturedFile("files[0]", None, "image/png", 10), CapturedFile("files[0]", "b.png", "image/png", 9)],
            parts=["payload_json", "files[0]", "files[0]"],
        ),
        "part files[0]",
        "two parts have this name",
        "",
    ),
    (
        req(
            "PATCH",
            f"/channels/{CHANNEL}/messages/{MESSAGE}",
            message(attachments=[]),
            ctype="multipart/form-data",
            files=[CapturedFile("files[0]", "board.png", "image/png", 10)],
            parts=["payload_json", "files[0]"],
        ),
        "part files[0]",
        "not in payload_json's attachments",
        "",
    ),
]


@pytest.mark.parametrize(("request_", "where", "said", "rule"), BAD, ids=lambda v: str(v)[:50])
def test_what_the_spec_does_not_allow_is_caught_and_located(spec, request_, where, said, rule):
    found = findings(spec, request_)
    assert any(f.startswith(f"  {where}: ") and said in f and rule in f for f in found), "\n".join(found)


def test_a_failure_names_the_request_the_rule_and_the_value(spec):
    report = check_requests(spec, [BAD[0][0], BAD[0][0], req("GET", "/users/@me")])
    assert len(report) == 1  # the same fault twice is reported once, counted
    text = report[0]
    assert text.startswith(f"POST /api/v10{CALLBACK}  (operation POST /interactions/")
    assert "spec: #/components/schemas/IncomingWebhookInteractionRequest/properties/content/maxLength" in text
    assert 'value: "xxxxxxxxxx' in text and "(2001 characters)" in text
    assert "(and 1 more request(s) like it)" in text


def test_the_stand_in_serves_only_operations_of_the_spec(spec):
    """Adding an endpoint to the stand-in is a row in http.py's table; Discord must have it."""
    sample = {"token": "standin.1.tok", "emoji": "%F0%9F%9A%87", "instance_id": "i-1-gc-2-3"}
    missing = []
    for method, template in DiscordStandIn().route_templates:
        path = template
        for name in [p.strip("{}") for p in template.split("/") if p.startswith("{")]:
            path = path.replace("{" + name + "}", sample.get(name, "1175235469862502400"))
        if spec.match(method, path) is None:
            missing.append(f"{method} {template}")
    assert not missing, f"the stand-in serves what Discord's spec does not have: {missing}"


def test_every_allowance_still_fits_the_spec(spec):
    """A refresh that moves a schema an allowance widens fails here (and at load) rather than
    silently dropping it."""
    from tests.e2e.apispec.allowances import SCHEMA_PATCHES

    for name, pointer, _widen, why in SCHEMA_PATCHES:
        assert "anyOf" in spec.node(pointer), (name, why)


async def test_requests_sent_to_the_stand_in_are_captured_and_checked(standin, spec):
    channel = standin.create_channel("spec")
    headers = {"Authorization": f"Bot {standin.token}"}
    form = aiohttp.FormData()
    body = {"content": "y", "tts": "loud", "attachments": [{"id": 0, "description": "A board"}]}
    form.add_field("payload_json", json.dumps(body))
    form.add_field("files[0]", b"\x89PNG", filename="board.png", content_type="image/png")
    async with aiohttp.ClientSession() as session:
        url = f"{standin.api_base}/channels/{channel}/messages"
        async with session.post(url, data=form, headers=headers) as answer:
            assert answer.status == 200  # the stand-in took it; the spec check does not
        async with session.get(url, params={"limit": "5", "sort": "asc"}, headers=headers) as answer:
            assert answer.status == 200
    captured = standin.captured[-2]
    assert (captured.content_type, captured.parts) == ("multipart/form-data", ("payload_json", "files[0]"))
    assert captured.files == (CapturedFile("files[0]", "board.png", "image/png", 4),)
    problems = check_standin(standin)
    assert len(problems) == 2, problems
    assert problems[0].startswith(f"POST /api/v10/channels/{channel}/messages [Bot]")
    assert 'body/tts: not of type "boolean" or "null"' in problems[0] and 'value: "loud"' in problems[0]
    assert "query sort: not a query parameter of GET /channels/{channel_id}/messages" in problems[1]
    assert check_standin(standin) == []  # checked once: the fixture's teardown finds nothing left


async def test_a_declared_violation_must_come(spec):
    standin = DiscordStandIn()
    standin.expect_spec_violation("GET", "/nope", "operation", "a test of the check")
    standin.expect_spec_violation("GET", "/never", "operation", "a request that is not sent")
    standin.captured.append(req("GET", "/nope"))
    assert check_standin(standin) == [
        "expected a request Discord's spec rejects (GET /never, operation: a request that is not sent), none came"
    ]


def test_the_spec_used_is_the_pinned_one(spec, tmp_path, monkeypatch):
    pinned = spec_source.pin()
    assert spec_source.sha256(spec_source.spec_file().read_bytes()) == pinned["sha256"]
    other = tmp_path / "openapi.json"
    other.write_text("{}")
    monkeypatch.setattr(spec_source, "SPEC_FILE", other)
    spec_source.spec_file.cache_clear()
    try:
        with pytest.raises(spec_source.SpecUnavailable, match="but not the pinned version"):
            spec_source.spec_file()
    finally:
        spec_source.spec_file.cache_clear()


async def test_the_web_servers_requests_for_a_person_are_checked_too(standin, spec):
    """The Activity's server side speaks to Discord for a person: the token exchange (a form)
    and /users/@me with the person's Bearer token pass through the stand-in and are checked."""
    form = {"grant_type": "authorization_code", "code": "c0de", "client_id": APP, "client_secret": "s"}
    async with aiohttp.ClientSession() as session:
        for data in (form, dict(form, password="p")):
            async with session.post(f"{standin.api_base}/oauth2/token", data=data):
                pass
        async with session.post(f"{standin.api_base}/oauth2/token", json=form):
            pass
        async with session.get(f"{standin.api_base}/users/@me", headers={"Authorization": "Bearer t0ken"}):
            pass
    standin.unknown_requests.clear()  # (whether this stand-in serves OAuth2 or not is not the point here)
    assert [(c.auth, c.content_type) for c in standin.captured[-4:]] == [
        (None, "application/x-www-form-urlencoded"),
        (None, "application/x-www-form-urlencoded"),
        (None, "application/json"),
        ("Bearer", None),
    ]
    assert standin.captured[-4].body == form
    problems = check_standin(standin)
    assert len(problems) == 2, problems
    assert "('password' was unexpected)" in problems[0]
    assert (
        "Content-Type: POST /oauth2/token takes application/x-www-form-urlencoded, not application/json" in problems[1]
    )


def test_without_the_spec_the_check_says_so_and_under_ci_fails(monkeypatch):
    from tests.e2e.apispec import SpecNotChecked
    from tests.e2e.apispec import spec as spec_module

    standin = DiscordStandIn()
    standin.captured.append(req("GET", "/nope"))
    monkeypatch.setattr(spec_source, "SPEC_FILE", spec_source.HERE / "no such file")
    spec_source.spec_file.cache_clear()
    spec_module.load.cache_clear()
    try:
        monkeypatch.setenv("CI", "true")
        assert "could not be checked" in check_standin(standin)[0]
        monkeypatch.delenv("CI")
        standin.captured.append(req("GET", "/nope"))
        with pytest.warns(SpecNotChecked, match="1 requests not checked"):
            assert check_standin(standin) == []
    finally:
        spec_source.spec_file.cache_clear()
        spec_module.load.cache_clear()
