"""The plain-data tree of a parsed YAML file: walk it, read and write by path, dump it back."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import yaml
from yaml.nodes import MappingNode, ScalarNode

Doc = Any
YPath = tuple[str | int, ...]

_CLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(text: str) -> Doc:
    """Parse like HoloDeck does (YAML 1.1 safe types), with the fast parser."""
    return yaml.load(text, Loader=_CLoader)


class Plain(str):
    """A scalar written without quotes, so YAML 1.1 reads it as it would (``yes`` -> True)."""


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    pass


def _represent_plain(dumper: yaml.SafeDumper, value: Plain) -> ScalarNode:
    # Tagging the node with the type the resolver gives the bare text lets the emitter write
    # it bare: that is exactly how the user would have typed it.
    tag = dumper.resolve(ScalarNode, str(value), (True, False))  # type: ignore[no-untyped-call]
    return dumper.represent_scalar(tag, str(value))


_Dumper.add_representer(Plain, _represent_plain)


class MergeFrom(dict[str, Any]):
    """A mapping written as ``<<: *base`` plus its own keys (a YAML 1.1 merge key)."""

    def __init__(self, base: dict[str, Any], own: dict[str, Any]) -> None:
        super().__init__(own)
        self.base = base


def _represent_merge(dumper: yaml.SafeDumper, value: MergeFrom) -> MappingNode:
    node = dumper.represent_mapping("tag:yaml.org,2002:map", dict(value))
    # `base` also stands elsewhere in the document, so it is written once with an anchor.
    merge_key = ScalarNode("tag:yaml.org,2002:merge", "<<")
    node.value.insert(0, (merge_key, dumper.represent_data(value.base)))
    return node


_Dumper.add_representer(MergeFrom, _represent_merge)


def dump(doc: Doc) -> str:
    return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=4096, indent=2)


def show(value: Any) -> str:
    if isinstance(value, Plain):
        return f"{value} (unquoted)"
    text = json.dumps(value, ensure_ascii=True, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def show_path(path: YPath) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "<top>"


def walk(node: Doc, path: YPath = ()) -> Iterator[tuple[YPath, Doc]]:
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(key, str):
                yield from walk(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk(value, (*path, index))


def get(doc: Doc, path: YPath) -> Doc:
    for part in path:
        doc = doc[part]
    return doc


def put(doc: Doc, path: YPath, value: Doc) -> Doc:
    if not path:
        return value
    get(doc, path[:-1])[path[-1]] = value
    return doc


def context(path: YPath) -> str:
    """A path with list positions erased: ``test_cases[].turns[].input``."""
    return show_path(tuple("[]" if isinstance(p, int) else p for p in path)).replace(".[]", "[]")


def key_at(path: YPath) -> str | None:
    for part in reversed(path):
        if isinstance(part, str):
            return part
    return None


def replace_key(mapping: dict[str, Any], old: str, new: str) -> None:
    items = [(new if k == old else k, v) for k, v in mapping.items()]
    mapping.clear()
    mapping.update(items)


def pick(rng: random.Random, items: list[Any]) -> Any:
    """One of ``items`` (None when there are none)."""
    return items[rng.randrange(len(items))] if items else None


def weighted(rng: random.Random, table: list[tuple[str, Any, int]]) -> tuple[str, Any]:
    total = sum(w for _, _, w in table)
    roll = rng.randrange(total)
    for name, fn, weight in table:
        if roll < weight:
            return name, fn
        roll -= weight
    raise AssertionError("unreachable")
