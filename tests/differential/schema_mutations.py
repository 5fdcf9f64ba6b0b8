"""Mutations that come from HoloDeck's published JSON schema: every known key, edge values.

The structural mutations in ``mutations.py`` only reach keys a seed already has. This one
finds the schema object that fits a mapping of the mutant (the smallest one whose properties
include all of the mapping's keys), then sets one of its properties, present or not, to a
value at the edge of what the schema describes: each enum member and a misspelling of one,
bounds and one past them, the wrong JSON type, an empty or minimal object. HoloDeck's own
validators go beyond the schema (ranges checked in code, cross-field rules), which is exactly
what the oracle then judges.
"""

from __future__ import annotations

import copy
import functools
import json
import random
from typing import Any

from tests.conftest import HOLODECK_SCHEMA
from tests.differential.mutation_tree import get, show, show_path, walk

Schema = dict[str, Any]


@functools.cache
def _schema() -> Schema:
    loaded: Schema = json.loads(HOLODECK_SCHEMA.read_text(encoding="utf-8"))
    return loaded


def _resolve(node: Schema) -> Schema:
    while "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        node = {**_schema()["$defs"][name], **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _options(node: Schema) -> list[Schema]:
    """The alternatives of a property (``anyOf``/``oneOf`` flattened, refs resolved)."""
    node = _resolve(node)
    for key in ("anyOf", "oneOf"):
        if key in node:
            return [o for alt in node[key] for o in _options(alt)]
    return [node]


@functools.cache
def _objects() -> tuple[tuple[str, Schema], ...]:
    """Every object schema with named properties: the root and each definition."""
    found = [("Agent", _schema())]
    found += [(name, d) for name, d in _schema()["$defs"].items() if d.get("properties")]
    return tuple(found)


def fitting_objects(mapping: dict[str, Any]) -> list[tuple[str, Schema]]:
    """Schema objects whose properties include every key of ``mapping``, smallest first."""
    keys = {k for k in mapping if isinstance(k, str)}
    if not keys:
        return []
    fits = [(n, o) for n, o in _objects() if keys <= set(o["properties"])]
    return sorted(fits, key=lambda item: len(item[1]["properties"]))


def _misspell(word: str, rng: random.Random) -> str:
    if len(word) > 2 and rng.random() < 0.5:
        i = rng.randrange(len(word) - 1)
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    return word.upper() if word != word.upper() else word.lower() + "x"


def minimal(node: Schema, rng: random.Random, depth: int = 0) -> Any:
    """A small value of the schema's shape (required properties filled in)."""
    options = [o for o in _options(node) if o.get("type") != "null"] or _options(node)
    option = options[rng.randrange(len(options))]
    if "const" in option:
        return option["const"]
    if "enum" in option:
        return option["enum"][rng.randrange(len(option["enum"]))]
    if "default" in option and option["default"] is not None and rng.random() < 0.5:
        return copy.deepcopy(option["default"])
    kind = option.get("type")
    if kind == "object" or "properties" in option:
        if depth > 3:
            return {}
        props = option.get("properties", {})
        return {k: minimal(props[k], rng, depth + 1) for k in option.get("required", [])}
    if kind == "array":
        return [minimal(option["items"], rng, depth + 1)] if "items" in option else []
    if kind == "integer":
        return int(option.get("minimum", option.get("exclusiveMinimum", 0) + 1))
    if kind == "number":
        return float(option.get("minimum", 0.5))
    if kind == "boolean":
        return True
    if kind == "string":
        return "x" * max(1, int(option.get("minLength", 1)))
    return "x"


def edge_values(node: Schema, rng: random.Random) -> list[Any]:
    """Values at and past the edges of what a property's schema allows."""
    values: list[Any] = [None, "", "  ", [], {}, "value", 0, -1, 1.5, True]
    for option in _options(node):
        if "enum" in option:
            members = option["enum"]
            values += members
            values += [_misspell(str(m), rng) for m in members[:3]]
        if "const" in option:
            values += [option["const"], _misspell(str(option["const"]), rng)]
        kind = option.get("type")
        for bound, step in (("minimum", -1), ("maximum", 1)):
            if bound in option:
                edge = option[bound]
                values += [edge, edge + step, edge + step * 0.5]
        for bound in ("exclusiveMinimum", "exclusiveMaximum"):
            if bound in option:
                values += [option[bound], option[bound] + 0.001]
        if kind == "integer":
            values += [1, 2, 1.0, 2.5, 10**9, "3"]
        if kind == "number":
            values += [0.0, 0.5, 1, 1.0, 2.0, 2.5, 100, -0.1]
        if kind == "string":
            if "maxLength" in option:
                values += ["a" * option["maxLength"], "a" * (option["maxLength"] + 1)]
            if "minLength" in option:
                values += ["a" * max(0, option["minLength"] - 1)]
            if "pattern" in option:
                values += ["has space", "dash-name", "dot.name", "ok_name", "a" * 80]
            values += ["https://example.com", "not a url", "/abs/path", "rel/path.txt", "a:b"]
        if kind == "boolean":
            values += [False, "true", 1, 0]
        if kind == "array":
            item = option.get("items", {})
            values += [[minimal(item, rng)], [minimal(item, rng)] * 2, ["x"], [None]]
            if "maxItems" in option:
                values.append([minimal(item, rng)] * (option["maxItems"] + 1))
            if "minItems" in option:
                values.append([minimal(item, rng)] * max(0, option["minItems"] - 1))
        if kind == "object" or "properties" in option:
            values += [minimal(option, rng), {"unknown_key": 1}]
            extra = option.get("additionalProperties")
            if isinstance(extra, dict):
                values += [{"k": minimal(extra, rng)}, {"k": 5}, {"k": None}]
        if "default" in option:
            values.append(copy.deepcopy(option["default"]))
    return values


def schema_edge(doc: Any, rng: random.Random) -> tuple[Any, str] | None:
    """Set one schema property of a random fitting mapping to an edge value."""
    mappings = [p for p, v in walk(doc) if isinstance(v, dict) and v]
    sections = [p for p in mappings if p and p[0] != "test_cases" and not isinstance(p[0], int)]
    if sections and rng.random() < 0.6:  # test cases are most of a file; sections matter too
        mappings = sections
    for _ in range(8):
        if not mappings:
            return None
        path = mappings[rng.randrange(len(mappings))]
        mapping = get(doc, path)
        fits = fitting_objects(mapping)
        if not fits:
            continue
        # Mostly the tightest fit; sometimes a looser one (the mapping may be another kind).
        name, obj = fits[0] if rng.random() < 0.7 else fits[rng.randrange(len(fits))]
        key = rng.choice(sorted(obj["properties"]))
        values = edge_values(obj["properties"][key], rng)
        value = copy.deepcopy(values[rng.randrange(len(values))])
        mapping[key] = value
        return doc, f"set {show_path((*path, key))} = {show(value)} (as {name}.{key})"
    return None
