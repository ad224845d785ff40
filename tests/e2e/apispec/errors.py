"""A schema's complaint in words a reader can act on: where in the request (``body/data/content``),
what is wrong, where in Discord's spec the rule is (``#/components/schemas/…/maxLength``) and the
offending value.

Discord's unions (``anyOf``/``oneOf`` of object schemas told apart by a ``type`` constant, or of
``null`` and an object) make jsonschema's own message useless ("is not valid under any of the
given schemas"); :func:`leaf` follows the alternative the value was meant to be — the one whose
``type`` matches, that is not merely ``null``, whose errors go deepest — down to the real fault.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from jsonschema.exceptions import ValidationError

UNIONS = ("anyOf", "oneOf")


@dataclass(frozen=True)
class Finding:
    where: str  # "body/data/content", "query with_response", "path channel_id"
    message: str
    schema_path: str = ""  # "#/components/schemas/…/maxLength"
    value: str = ""  # the offending value, shortened

    def lines(self) -> list[str]:
        out = [f"  {self.where}: {self.message}"]
        if self.schema_path:
            out.append(f"    spec: {self.schema_path}")
        if self.value:
            out.append(f"    value: {self.value}")
        return out


def short(value: Any, limit: int = 120) -> str:
    if isinstance(value, str) and len(value) > limit:
        return json.dumps(value[:limit], ensure_ascii=False) + f"… ({len(value)} characters)"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters of JSON)"


def _discriminator_miss(error: ValidationError) -> bool:
    # a wrong `type` constant: this alternative is another kind of object
    return error.validator in ("const", "enum") and list(error.relative_path) == ["type"]


def _score(errors: list[ValidationError]) -> tuple:
    miss = any(_discriminator_miss(e) for e in errors)
    only_kind = all(e.validator == "type" and not e.relative_path for e in errors)
    depth = max(len(e.relative_path) for e in errors)
    return (miss, only_kind, -depth, len(errors))


def leaf(error: ValidationError) -> tuple[ValidationError, str | None]:
    """The error to show, and a message replacing its own when no alternative fits a union."""
    while error.context and error.validator in UNIONS:
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        scored = sorted(branches.values(), key=_score)
        if all(_score(b)[0] for b in scored):
            # no alternative takes this `type`: say which ones are taken
            taken = sorted(
                {json.dumps(v) for b in scored for e in b if _discriminator_miss(e) for v in _values(e.validator_value)}
            )
            kind = error.instance.get("type") if isinstance(error.instance, dict) else None
            return error, f"type {json.dumps(kind)} is none of the kinds allowed here ({', '.join(taken)})"
        if all(_score(b)[1] for b in scored):
            # the value is of a JSON type none of the alternatives takes: name them all
            kinds = sorted({json.dumps(k) for b in scored for e in b for k in _values(e.validator_value)})
            return error, f"not of type {' or '.join(kinds)}"
        chosen = scored[0]
        error = max(chosen, key=lambda e: (len(e.relative_path), e.validator not in UNIONS + ("type",)))
    return error, None


def _values(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


def schema_location(document: dict, root: str, path: Any) -> str:
    """The spec's JSON pointer of the keyword that failed: ``path`` is the error's absolute schema
    path from a validator whose root is ``{"$ref": <root>}``; each ``$ref`` is followed."""
    items = list(path)
    if items[:1] == ["$ref"]:
        items = items[1:]
    location = root
    node: Any = _node(document, root)
    for item in items:
        # jsonschema's paths step through a $ref silently (or as a "$ref" item): follow it
        while isinstance(node, dict) and isinstance(node.get("$ref"), str) and (item == "$ref" or item not in node):
            location = node["$ref"].split("#", 1)[1]
            node = _node(document, location)
        if item == "$ref":
            continue
        location = f"{location}/{str(item).replace('~', '~0').replace('/', '~1')}"
        try:
            node = node[item] if not isinstance(node, list) else node[int(item)]
        except (KeyError, IndexError, TypeError, ValueError):
            node = None
    return "#" + location


def _node(document: dict, pointer: str) -> Any:
    node: Any = document
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def words(error: ValidationError) -> str:
    """jsonschema's message without the (possibly huge) value it quotes."""
    limit, value = error.validator_value, error.instance
    if error.validator in ("maxLength", "minLength") and isinstance(value, str):
        side = "at most" if error.validator == "maxLength" else "at least"
        return f"{len(value)} characters; {side} {limit} allowed"
    if error.validator in ("maxItems", "minItems") and isinstance(value, list):
        side = "at most" if error.validator == "maxItems" else "at least"
        return f"{len(value)} items; {side} {limit} allowed"
    if error.validator in ("enum", "const"):
        return f"not {'one of ' + short(limit) if error.validator == 'enum' else short(limit)}"
    if error.validator == "type":
        return f"not of type {' or '.join(json.dumps(k) for k in _values(limit))}"
    text = error.message
    return text if len(text) <= 300 else text[:300] + "…"


def describe(document: dict, root: str, error: ValidationError, prefix: str) -> Finding:
    shown, message = leaf(error)
    return Finding(
        where="/".join([prefix, *(str(p) for p in shown.absolute_path)]),
        message=message or words(shown),
        schema_path=schema_location(document, root, shown.absolute_schema_path),
        value=short(shown.instance),
    )
