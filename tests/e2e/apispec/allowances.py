"""Where the check departs from the letter of Discord's spec, each case named and justified by
Discord's own documentation (developers' docs: discord/discord-api-docs; the spec's README).

Nothing here skips a request: a patch widens one schema to what Discord documents it takes, and
an extra operation adds one the spec leaves out, with a schema written from the docs. A new
case needs a name, the docs it rests on, and a test in tests/e2e/test_apispec.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# ----------------------------------------------------------------------------------------------
# Patches: (name, JSON pointer of the schema, how it is widened, why)
# ----------------------------------------------------------------------------------------------


def _or_number(maximum: int) -> Callable[[Any], Any]:
    def widen(schema: Any) -> Any:
        return {"anyOf": [schema, {"type": "integer", "minimum": 0, "maximum": maximum}]}

    return widen


SCHEMA_PATCHES: list[tuple[str, str, Callable[[Any], Any], str]] = [
    # A new file's entry in `attachments` is named by the number n of its `files[n]` part:
    # resources/message.mdx, "Attachment Request Structure" (id: "snowflake or number … for new
    # attachments this must match the n in files[n]"), and reference.mdx, "Uploading Files",
    # whose example bodies send "id": 0 — as discord.py does. The spec types it a string snowflake.
    (
        "attachment-placeholder-ids",
        "/components/schemas/MessageAttachmentRequest/properties/id",
        _or_number((1 << 64) - 1),
        "an attachment's id may be the number n of its files[n] part",
    ),
    # discord.py (2.7.1) sends these ids as JSON numbers (AllowedMentions.to_dict, and
    # HTTPClient.start_private_message behind User.create_dm), and Discord takes them: its
    # docs say ids are numbers ("Internally, Discord stores IDs as integer snowflakes"; they are
    # written as strings only "to prevent integer overflows in some languages", reference.mdx,
    # "Snowflakes"), document "snowflake or number" for attachments' ids (above) and send
    # snowflakes as "64-bit integers or strings" over ETF (events/gateway.mdx). Only these
    # fields, where our requests have them; a number must still fit in 64 bits.
    *(
        (
            "integer-snowflakes-from-discord.py",
            pointer,
            _or_number((1 << 64) - 1),
            "a snowflake that discord.py sends as a JSON number",
        )
        for pointer in (
            "/components/schemas/MessageAllowedMentionsRequest/properties/users/items/oneOf/1",
            "/components/schemas/MessageAllowedMentionsRequest/properties/roles/items/oneOf/1",
            "/components/schemas/CreatePrivateChannelRequest/properties/recipient_id/oneOf/1",
        )
    ),
]


# ----------------------------------------------------------------------------------------------
# Operations the spec leaves out, in the spec's own shape (paths -> method -> operation)
# ----------------------------------------------------------------------------------------------

TOKEN_FORM = {
    # OAuth2's token URL (topics/oauth2.mdx, "OAuth2 URLs" and "Authorization Code Grant"): the
    # spec names it only as its security scheme's tokenUrl. Form-encoded only ("JSON content is
    # not permitted"); the fields of the grants Discord documents (authorization code, refresh
    # token, client credentials); the client's id and secret in the form unless HTTP Basic
    # carries them ("All calls to the OAuth2 endpoints require either HTTP Basic authentication
    # or client_id and client_secret supplied in the form data body"; see `token_client_auth`).
    "type": "object",
    "properties": {
        "grant_type": {"enum": ["authorization_code", "refresh_token", "client_credentials"]},
        "code": {"type": "string", "minLength": 1},
        "redirect_uri": {"type": "string", "format": "uri"},
        "refresh_token": {"type": "string", "minLength": 1},
        "scope": {"type": "string"},
        "client_id": {"$ref": "#/components/schemas/SnowflakeType"},
        "client_secret": {"type": "string", "minLength": 1},
    },
    "required": ["grant_type"],
    "additionalProperties": False,
    "allOf": [
        {"if": {"properties": {"grant_type": {"const": "authorization_code"}}}, "then": {"required": ["code"]}},
        {"if": {"properties": {"grant_type": {"const": "refresh_token"}}}, "then": {"required": ["refresh_token"]}},
    ],
}

EXTRA_PATHS: dict[str, dict] = {
    "/oauth2/token": {
        "post": {
            "operationId": "x_oauth2_token_exchange",
            "x-allowance": "oauth2-token-url (topics/oauth2.mdx: OAuth2 URLs, Authorization Code Grant)",
            "requestBody": {"required": True, "content": {"application/x-www-form-urlencoded": {"schema": TOKEN_FORM}}},
            "security": [{"Basic": []}, {}],
        }
    }
}
EXTRA = "x-metrobot-extra-paths"  # where they live in the loaded document (their schemas' pointers)


def token_client_auth(method: str, template: str, auth: str | None, body: Any) -> list[str]:
    """The client authenticates by HTTP Basic or by its id and secret in the form (topics/oauth2)."""
    if (method, template) != ("POST", "/oauth2/token") or auth == "Basic" or not isinstance(body, dict):
        return []
    missing = [name for name in ("client_id", "client_secret") if name not in body]
    return [f"without HTTP Basic, the form needs {' and '.join(missing)}"] if missing else []


# Rules a schema cannot say (they read the request's credentials or its multipart parts)
REQUEST_RULES: list[Callable[[str, str, str | None, Any], list[str]]] = [token_client_auth]


def patch(document: dict) -> None:
    """Apply SCHEMA_PATCHES and add EXTRA_PATHS to a freshly loaded spec (in place)."""
    for _name, pointer, widen, _why in SCHEMA_PATCHES:
        parent, key = _parent(document, pointer)
        parent[key] = widen(parent[key])
    document[EXTRA] = EXTRA_PATHS


def _parent(document: dict, pointer: str) -> tuple[Any, str | int]:
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
    node: Any = document
    for token in tokens[:-1]:
        node = node[int(token)] if isinstance(node, list) else node[token]
    last = tokens[-1]
    return node, (int(last) if isinstance(node, list) else last)
