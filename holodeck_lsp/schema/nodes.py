"""What every pass of the generator shares: the schema node type, the walk over
every node, references between definitions."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

DEFS = "#/definitions/"
ANNOTATIONS = frozenset(
    {"title", "description", "markdownDescription", "default", "examples", "defaultSnippets"}
)
ENV_REF = r"\$\{"


Schema = dict[str, Any]
Discriminator = str | Callable[[Any], Any]


def walk(node: Any) -> Iterator[dict[str, Any]]:
    """Every mapping inside ``node``, parents first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def definition(defs: dict[str, Schema], ref: str) -> Schema:
    return defs[ref.removeprefix(DEFS)]


def refs_in(node: Any) -> set[str]:
    return {n["$ref"].removeprefix(DEFS) for n in walk(node) if isinstance(n.get("$ref"), str)}
