"""The composer's menus as a tree, so that every legal step can be reached by a front end
whose menus hold at most `limit` entries: the front end's own (Discord's adapter: 25 options
a select, `discord_app/composer.py`); the service knows no such limit.

A game says where each of its choices sits (`GamePlugin.menu`, its notation's `menu`: e.g. colour → kind
of placement → part of the map); this module turns that into levels a person walks
through. A level that holds few enough steps shows them all at once, however the game
groups them (a player never opens a group they don't need to); a level still too long is
split into consecutive ranges named by what they hold ("centre · Ac–Bo"), never cut.
The tree depends only on the choices, their order and their paths, so the same position
gives the same tree, and a path of indices (carried by a control's custom id) finds the
same group again after a restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..games.protocol import Choice

SEP = " · "


@dataclass
class Node:
    """A group of steps: `name` is its full name as people read it ("red · start · north");
    "" for the top level."""

    name: str
    groups: list[Node] = field(default_factory=list["Node"])
    leaves: list[Choice] = field(default_factory=list[Choice])
    size: int = 0  # steps at or below this group

    def own_name(self, parent: Node) -> str:
        """The name relative to the level it is listed in ("start · north" inside "red")."""
        prefix = parent.name + SEP if parent.name else ""
        return self.name[len(prefix) :] if self.name.startswith(prefix) else self.name


def join(parent: str, key: str) -> str:
    return f"{parent}{SEP}{key}" if parent else key


def build(choices: Sequence[Choice], paths: Sequence[tuple[str, ...]], limit: int) -> Node:
    """The menu tree of a position's choices (`paths[i]`: where `choices[i]` sits)."""
    return _build([(tuple(p), c) for p, c in zip(paths, choices)], "", limit)


def _build(items: list[tuple[tuple[str, ...], Choice]], name: str, limit: int) -> Node:
    node = Node(name, size=len(items))
    if len(items) <= limit:  # few enough to show at once, whatever their groups
        node.leaves = [c for _, c in items]
        return node
    keyed: dict[str, list[tuple[tuple[str, ...], Choice]]] = {}
    for path, choice in items:
        if path:
            keyed.setdefault(path[0], []).append((path[1:], choice))
        else:
            node.leaves.append(choice)
    node.groups = [_collapse(_build(sub, join(name, key), limit)) for key, sub in keyed.items()]
    if len(node.leaves) > limit:
        node.groups += _ranges([_leaf_node(c, name) for c in node.leaves], name, limit, of_leaves=True)
        node.leaves = []
    if len(node.groups) > limit:
        node.groups = _ranges(node.groups, name, limit, of_leaves=False)
    return node


def _collapse(node: Node) -> Node:
    """A group whose only content is one group is that group (its name says both)."""
    while not node.leaves and len(node.groups) == 1:
        node = node.groups[0]
    return node


def _leaf_node(choice: Choice, parent: str) -> Node:
    return Node(parent, leaves=[choice], size=1)


def _ranges(items: list[Node], parent: str, limit: int, *, of_leaves: bool) -> list[Node]:
    """`items` in at most `limit` consecutive ranges of nearly equal size; a range still too
    long is split again, so every level keeps to the limit."""
    count = min(limit, -(-len(items) // limit))
    size, extra = divmod(len(items), count)
    tags = _tags([_tag_text(i, parent, of_leaves) for i in items])
    out: list[Node] = []
    start = 0
    for k in range(count):
        end = start + size + (k < extra)
        chunk = items[start:end]
        first, last = tags[start][0], tags[end - 1][1]
        node = Node(join(parent, first if first == last else f"{first}–{last}"), size=sum(i.size for i in chunk))
        if of_leaves:
            node.leaves = [i.leaves[0] for i in chunk]
        else:
            node.groups = chunk
        if len(chunk) > limit:  # more than limit² items: one more level of ranges
            node.groups = _ranges(chunk, node.name, limit, of_leaves=of_leaves)
            node.leaves = []
        out.append(node)
        start = end
    return out


def _tag_text(item: Node, parent: str, of_leaves: bool) -> str:
    return item.leaves[0].label if of_leaves else item.own_name(Node(parent))


def _tags(texts: list[str]) -> list[tuple[str, str]]:
    """For each text, the shortest beginnings that tell it from its neighbours: (as the first
    of a range, as the last of one). The words all texts share at their start are left out
    ("red Acton Town–…", "red Aldgate–…" → "Ac", "Al")."""
    common = _common_words(texts)
    bare = [t[len(common) :] or t for t in texts]
    out: list[tuple[str, str]] = []
    for i, text in enumerate(bare):
        before = bare[i - 1] if i > 0 else ""
        after = bare[i + 1] if i + 1 < len(bare) else ""
        out.append((_prefix(text, before), _prefix(text, after)))
    return out


def _common_words(texts: list[str]) -> str:
    if not texts:
        return ""
    first, last = min(texts), max(texts)  # what these two share, all of them do
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    common = first[:n]
    return common[: common.rfind(" ") + 1] if " " in common else ""


def _prefix(text: str, neighbour: str, least: int = 2) -> str:
    n = 0
    while n < min(len(text), len(neighbour)) and text[n].casefold() == neighbour[n].casefold():
        n += 1
    return text[: max(least, n + 1)].rstrip()


def at(root: Node, path: Sequence[int]) -> Node | None:
    """The group a path of indices leads to (None: the menus are no longer like that)."""
    node = root
    for i in path:
        if not 0 <= i < len(node.groups):
            return None
        node = node.groups[i]
    return node


def walk(root: Node) -> list[tuple[tuple[int, ...], Node]]:
    """Every group with its path, the top level first (for tests and tools)."""
    out: list[tuple[tuple[int, ...], Node]] = []
    todo: list[tuple[tuple[int, ...], Node]] = [((), root)]
    while todo:
        path, node = todo.pop(0)
        out.append((path, node))
        todo += [((*path, i), g) for i, g in enumerate(node.groups)]
    return out
