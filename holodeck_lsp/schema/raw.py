"""Pydantic's schema of the models, with tagged unions and strict scalars marked for
the later passes."""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from holodeck_lsp.schema.nodes import Discriminator


@dataclass(frozen=True)
class TaggedUnion:
    """A tagged union met during generation: its tags, and how the tag is chosen."""

    tags: tuple[str, ...]  # in the order of the `oneOf` beside the marker
    discriminator: Discriminator


class SchemaGenerator(GenerateJsonSchema):
    """Pydantic's generator, marking tagged unions of models and strict scalars."""

    def tagged_union_schema(self, schema: core_schema.TaggedUnionSchema) -> JsonSchemaValue:
        choices = [(str(tag), self.generate_inner(c)) for tag, c in schema["choices"].items()]
        discriminator = schema["discriminator"]
        if not (isinstance(discriminator, str) or callable(discriminator)):
            return super().tagged_union_schema(schema)  # a path into nested keys: not used here
        plain = all(set(json) == {"$ref"} for _, json in choices)
        if not plain:
            return _by_json_type([json for _, json in choices]) or super().tagged_union_schema(
                schema
            )
        # The marker is a (hashable) Python object beside a `oneOf` whose `$ref`s pydantic
        # still renames; `expand_unions` replaces both before anything is serialised.
        marker = TaggedUnion(tuple(tag for tag, _ in choices), discriminator)
        return {"oneOf": [json for _, json in choices], "x-union": marker}

    def bool_schema(self, schema: core_schema.BoolSchema) -> JsonSchemaValue:
        return _mark_strict(super().bool_schema(schema), schema)

    def int_schema(self, schema: core_schema.IntSchema) -> JsonSchemaValue:
        return _mark_strict(super().int_schema(schema), schema)

    def float_schema(self, schema: core_schema.FloatSchema) -> JsonSchemaValue:
        return _mark_strict(super().float_schema(schema), schema)


_TYPE_NAMES = {"object": "a mapping", "array": "a list", "string": "text"}


def _by_json_type(choices: list[JsonSchemaValue]) -> JsonSchemaValue | None:
    """A union whose members differ in JSON type (`name` or `{name: ...}`): pick by type.

    One `if`/`then` per type, so an object entry is checked as an object only.
    """
    typed = [("object" if set(json) == {"$ref"} else json.get("type"), json) for json in choices]
    kinds = [kind for kind, _ in typed]
    if not all(isinstance(kind, str) for kind in kinds) or len(set(kinds)) != len(kinds):
        return None
    typed.sort(key=lambda item: "$ref" not in item[1])  # a plain type last: it carries the message
    wanted = " or ".join(_TYPE_NAMES.get(str(kind), str(kind)) for kind, _ in typed)
    *earlier, (_, chosen) = typed
    chosen = {**chosen, "errorMessage": f"expected {wanted}"}
    for kind, option in reversed(earlier):
        chosen = {"if": {"type": kind}, "then": option, "else": chosen}
    return chosen


def _mark_strict(json_schema: JsonSchemaValue, schema: Any) -> JsonSchemaValue:
    """A strict scalar (`StrictBool`, ...) is not coerced from a string: `_lenient` reads this."""
    return {**json_schema, "x-strict": True} if schema.get("strict") else json_schema


def models_of(root: type[BaseModel]) -> dict[str, type[BaseModel]]:
    """Every model reachable from ``root``'s fields, by class name (the definition's name)."""
    found: dict[str, type[BaseModel]] = {}

    def visit(tp: Any) -> None:
        if isinstance(tp, type) and issubclass(tp, BaseModel) and tp.__name__ not in found:
            found[tp.__name__] = tp
            for info in tp.model_fields.values():
                visit(info.annotation)
        for arg in typing.get_args(tp):
            visit(arg)

    visit(root)
    return found
