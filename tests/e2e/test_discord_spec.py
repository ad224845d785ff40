"""The spec check itself (tests/e2e/discordspec.py): what Discord's published OpenAPI spec allows
passes, what it does not is seen — the Activity's requests first of all (the type-12 callback,
the Entry Point command in a bulk overwrite and alone)."""

from __future__ import annotations

from discordspec import spec_or_skip, spec_problems, token_form_problems

APP, GUILD = "1215413995645968394", "912952092627435520"


def test_the_activitys_requests_are_valid():
    spec = spec_or_skip()
    entry = {
        "name": "launch",
        "type": 4,
        "handler": 2,
        "description": "Play",
        "integration_types": [0],
        "contexts": [0],
    }
    good = [
        ("POST", "/interactions/1/tok/callback", "with_response=true", "application/json", {"type": 12}),
        ("PUT", f"/applications/{APP}/commands", "", "application/json", [entry]),
        ("POST", f"/applications/{APP}/commands", "", "application/json", entry),
        ("GET", f"/applications/{APP}/activity-instances/i-1-gc-2-3", "", "", None),
        ("GET", "/users/@me", "", "", None),
    ]
    assert spec_problems(good, spec) == []


def test_what_the_spec_does_not_allow_is_seen():
    spec = spec_or_skip()
    bad = [
        ("POST", "/interactions/1/tok/callback", "", "application/json", {"type": 12, "data": 5}),
        ("PUT", f"/applications/{APP}/commands", "", "application/json", [{"name": "x" * 40, "type": 4}]),
        ("GET", f"/applications/{APP}/activity-instances", "", "", None),
        ("POST", f"/applications/{APP}/guilds/{GUILD}/commands", "", "application/json", {"handler": "two"}),
    ]
    problems = spec_problems(bad, spec)
    assert len(problems) >= 4, problems
    assert any("not in Discord's spec" in p for p in problems)


def test_the_token_exchange_is_a_form():
    good = {
        "content_type": "application/x-www-form-urlencoded",
        "form": {"grant_type": "authorization_code", "code": "c", "client_id": "1", "client_secret": "***"},
    }
    assert token_form_problems([good]) == []
    assert token_form_problems([dict(good, content_type="application/json")])
    assert token_form_problems([dict(good, form={**good["form"], "scope": "identify"})])
