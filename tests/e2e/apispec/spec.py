"""Discord's spec, ready to check requests: its operations found by method and path, and one
compiled JSON Schema validator per schema (an operation's body for a content type, a
parameter), made on first use and kept for the process.

OpenAPI 3.1's schemas are JSON Schema 2020-12; a ``$ref`` points into the same document
(``#/components/schemas/...``), so the whole document is one resource of a ``referencing``
registry and every validator's root is a ``$ref`` to its schema's JSON pointer.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from . import allowances
from .source import spec_file

URI = "urn:discord-api-spec"
METHODS = ("get", "put", "post", "patch", "delete")
NULL = {"type": "null"}

FORMATS = FormatChecker(formats=())


@FORMATS.checks("snowflake")
def _snowflake(value: object) -> bool:
    # (a string of digits below 2**64: Discord's ids are unsigned 64-bit integers; reference#snowflakes)
    return not isinstance(value, str) or (value.isdigit() and int(value) < 1 << 64)


@FORMATS.checks("int32")
def _int32(value: object) -> bool:
    return not isinstance(value, int) or -(1 << 31) <= value < 1 << 31


@FORMATS.checks("int64")
def _int64(value: object) -> bool:
    return not isinstance(value, int) or -(1 << 63) <= value < 1 << 63


@FORMATS.checks("uri")
def _uri(value: object) -> bool:
    # a scheme and something after it (https://…, attachment://board.png); no spaces
    if not isinstance(value, str):
        return True
    parts = urllib.parse.urlsplit(value)
    return bool(parts.scheme) and bool(parts.netloc or parts.path) and not re.search(r"\s", value)


def escape(part: str) -> str:
    """A JSON pointer's escaping of one reference token."""
    return part.replace("~", "~0").replace("/", "~1")


@dataclass
class Parameter:
    name: str
    where: str  # "path" or "query"
    pointer: str  # its schema's JSON pointer
    required: bool
    types: frozenset[str]  # the JSON types its schema takes (to read a query string's text)


@dataclass
class Operation:
    method: str
    template: str  # the spec's path, e.g. /channels/{channel_id}/messages
    pointer: str  # the operation's JSON pointer
    names: tuple[str, ...]  # the path parameters, in order
    parameters: dict[tuple[str, str], Parameter]  # (where, name) -> parameter
    security: list[dict]  # alternatives: {} (none), {"BotToken": []}, {"OAuth2": [scopes]}
    body_required: bool
    content: dict[str, str]  # content type -> its schema's JSON pointer
    pattern: re.Pattern[str] = field(repr=False, default=re.compile(""))
    allowance: str | None = None  # set for an operation the spec lacks (allowances.EXTRA_PATHS)

    def __str__(self) -> str:
        return f"{self.method} {self.template}"


class Spec:
    """The pinned spec with the named allowances applied (see allowances.py)."""

    def __init__(self, document: dict) -> None:
        self.document = document
        allowances.patch(document)
        self.registry = Registry().with_resource(URI, Resource(contents=document, specification=DRAFT202012))
        self._index: dict[tuple[str, int], list[Operation]] = {}
        self._kinds: dict[int, dict | None] = {}
        self._constants: dict[int, list | None] = {}
        self._refs: dict[str, Any] = {}
        for section in ("paths", allowances.EXTRA):
            for template, item in document[section].items():
                for method in METHODS:
                    if method in item:
                        self._add(self._operation(section, template, method, item))
        for index in self._index.values():
            # a literal segment wins over a parameter, the earliest difference first
            # (/users/@me before /users/{user_id}, .../messages/@original before .../{message_id})
            index.sort(key=lambda op: [part.startswith("{") for part in op.template.split("/")])

    # ------------------------------------------------------------------ building
    def _add(self, op: Operation) -> None:
        self._index.setdefault((op.method, op.template.count("/")), []).append(op)

    def _operation(self, section: str, template: str, method: str, item: dict) -> Operation:
        pointer = f"/{section}/{escape(template)}/{method}"
        operation = item[method]
        parameters: dict[tuple[str, str], Parameter] = {}
        # path-level parameters first, the operation's own override them
        for source, base in ((item, f"/{section}/{escape(template)}"), (operation, pointer)):
            for i, param in enumerate(source.get("parameters", [])):
                param = self.resolve(param)
                where = param["in"]
                parameters[(where, param["name"])] = Parameter(
                    name=param["name"],
                    where=where,
                    pointer=f"{base}/parameters/{i}/schema",
                    required=bool(param.get("required")) or where == "path",
                    types=self.types(param.get("schema", {})),
                )
        body = operation.get("requestBody") or {}
        body = self.resolve(body)
        content = {ctype: f"{pointer}/requestBody/content/{escape(ctype)}/schema" for ctype in body.get("content", {})}
        names = tuple(re.findall(r"\{(\w+)\}", template))
        regex = "^" + re.sub(r"\\\{\w+\\\}", "([^/]+)", re.escape(template)) + "$"
        return Operation(
            method=method.upper(),
            template=template,
            pointer=pointer,
            names=names,
            parameters=parameters,
            security=operation.get("security", self.document.get("security", [{}])),
            body_required=bool(body.get("required")),
            content=content,
            pattern=re.compile(regex),
            allowance=operation.get("x-allowance"),
        )

    # ------------------------------------------------------------------ reading the document
    def node(self, pointer: str) -> Any:
        node: Any = self.document
        for token in pointer.split("/")[1:]:
            token = token.replace("~1", "/").replace("~0", "~")
            node = node[int(token)] if isinstance(node, list) else node[token]
        return node

    def resolve(self, node: Any) -> Any:
        while isinstance(node, dict) and "$ref" in node:
            node = self.node(node["$ref"][1:])
        return node

    def types(self, schema: Any) -> frozenset[str]:
        """The JSON types a schema takes (following $ref, unions and allOf), to read text as them."""
        schema = self.resolve(schema)
        if not isinstance(schema, dict):
            return frozenset()
        found: set[str] = set()
        kind = schema.get("type")
        if isinstance(kind, str):
            found.add(kind)
        elif isinstance(kind, list):
            found.update(kind)
        for key in ("anyOf", "oneOf", "allOf"):
            for branch in schema.get(key, []):
                found |= self.types(branch)
        return frozenset(found)

    # ------------------------------------------------------------------ using it
    def match(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
        """The operation a request's method and path (below /api/v10) are, and its path
        parameters' values (percent-decoded), or None when the spec has no such operation."""
        path = path.split("?", 1)[0]
        if len(path) > 1 and path.endswith("/"):
            path = path[:-1]
        for op in self._index.get((method, path.count("/")), []):
            found = op.pattern.match(path)
            if found:
                return op, {n: urllib.parse.unquote(v) for n, v in zip(op.names, found.groups(), strict=True)}
        return None

    def operations(self) -> list[Operation]:
        return [op for ops in self._index.values() for op in ops]

    @cache  # noqa: B019  (one Spec a process: the validators live as long as it)
    def validator(self, pointer: str) -> Draft202012Validator:
        return self._validator_class({"$ref": f"{URI}#{pointer}"}, registry=self.registry, format_checker=FORMATS)

    # ------------------------------------------------------------------ unions told apart by `type`
    @property
    def _validator_class(self) -> type:
        if not hasattr(self, "_class"):
            self._class = validators.extend(
                Draft202012Validator,
                {"oneOf": self._union("oneOf"), "anyOf": self._union("anyOf"), "$ref": self._reference},
            )
        return self._class

    def _reference(self, validator, ref, instance, schema):
        """Every $ref is a JSON pointer into this one document: look each up once (referencing
        walks the pointer at every use: a quarter of the check's time)."""
        target = self._refs.get(ref)
        if target is None:
            target = self._refs[ref] = self.node(ref.split("#", 1)[1])
        yield from validator.descend(instance, target)

    def constants(self, branches: list) -> list[tuple[str, Any]] | None:
        """The values of a union of constants (each branch only `const`, a title, a description)."""
        key = id(branches)
        if key not in self._constants:
            plain = all(
                isinstance(b, dict) and "const" in b and set(b) <= {"const", "title", "description"} for b in branches
            )
            self._constants[key] = [(type(b["const"]).__name__, b["const"]) for b in branches] if plain else None
        return self._constants[key]

    def kinds(self, branches: list) -> dict[tuple[str, Any], int] | None:
        """For a union of object schemas each requiring a `type` of its own constant values (the
        components, the interaction callbacks…): which branch each `type` value selects."""
        key = id(branches)
        if key not in self._kinds:
            table: dict[tuple[str, Any], int] | None = {}
            for index, branch in enumerate(branches):
                branch = self.resolve(branch)
                if branch.get("type") == "null":
                    continue
                kind = self.resolve(branch.get("properties", {}).get("type", {}))
                values = [kind["const"]] if "const" in kind else kind.get("enum")
                if "type" not in branch.get("required", []) or not values:
                    table = None
                    break
                for value in values:
                    if (type(value).__name__, value) in table:
                        table = None  # two branches take one value: not a tagged union
                        break
                    table[(type(value).__name__, value)] = index
                if table is None:
                    break
            self._kinds[key] = table or None
        return self._kinds[key]

    def _union(self, keyword: str):
        """Discord's unions are tagged by `type` (the spec's README: anyOf and oneOf both mean
        "only one of"): validate the branch the value's `type` names, not every branch (jsonschema
        would evaluate each fully — most of the check's time). Other unions as jsonschema does."""
        plain = Draft202012Validator.VALIDATORS[keyword]

        def union(validator, branches, instance, schema):
            constants = self.constants(branches)
            if constants is not None:  # an enumeration written as constants (ApplicationIntegrationType…)
                if (type(instance).__name__, instance) not in constants:
                    taken = ", ".join(json.dumps(v) for _, v in constants)
                    yield ValidationError(f"{json.dumps(instance)} is not one of {taken}")
                return
            if len(branches) == 2 and NULL in branches:  # "null or X": X unless it is null
                if instance is not None:
                    yield from validator.descend(
                        instance, branches[1 - branches.index(NULL)], schema_path=1 - branches.index(NULL)
                    )
                return
            table = self.kinds(branches) if isinstance(instance, dict) and "type" in instance else None
            if table is None:
                yield from plain(validator, branches, instance, schema)
                return
            kind = instance["type"]
            index = table.get((type(kind).__name__, kind))
            if index is None:
                taken = ", ".join(str(v) for _, v in sorted(table, key=lambda k: (k[0], k[1])))
                yield ValidationError(f"type {json.dumps(kind)} is none of the kinds allowed here ({taken})")
                return
            yield from validator.descend(instance, branches[index], schema_path=index)

        return union


@cache
def load() -> Spec:
    """The pinned spec (source.spec_file), read once a process."""
    return Spec(json.loads(spec_file().read_text(encoding="utf-8")))
