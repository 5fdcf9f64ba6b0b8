"""Tagged unions become `if`/`then` on their `type` key, so a bad entry gets one error from
its own kind; small enums are inlined."""

from __future__ import annotations

import functools

from holodeck_lsp.schema.nodes import DEFS, Discriminator, Schema, definition, walk
from holodeck_lsp.schema.raw import TaggedUnion


def expand_unions(defs: dict[str, Schema]) -> None:
    for node in list(walk(defs)):
        marker = node.pop("x-union", None)
        if isinstance(marker, TaggedUnion):
            options = node.pop("oneOf")
            refs = dict(zip(marker.tags, (o["$ref"] for o in options), strict=True))
            node.update(_union_schema(refs, marker.discriminator, defs))


def _tag_key(
    refs: dict[str, str], discriminator: Discriminator, defs: dict[str, Schema]
) -> str | None:
    """The key whose value is the tag: given, or the one the discriminator function reads."""
    if isinstance(discriminator, str):
        return discriminator
    keys: list[set[str]] = [
        set(definition(defs, ref).get("properties", {})) for ref in refs.values()
    ]
    for key in sorted(set.intersection(*keys)):
        if all(discriminator({key: tag}) == tag for tag in refs):
            return key
    return None


def _inference(
    refs: dict[str, str], discriminator: Discriminator, key: str, defs: dict[str, Schema]
) -> tuple[str | None, list[tuple[str, str]]]:
    """Without the tag key: the kind chosen by default, and `(key present -> kind)` rules.

    Read off the discriminator function by probing it, so the schema infers the kind
    exactly as validation does.
    """
    if isinstance(discriminator, str):
        return None, []
    fn = discriminator
    default = str(fn({}))
    if default not in refs:
        return None, []
    rules = [
        (required, tag)
        for tag, ref in refs.items()
        if tag != default
        for required in definition(defs, ref).get("required", [])
        if required != key and fn({required: None}) == tag
    ]

    def first(a: tuple[str, str], b: tuple[str, str]) -> int:
        return -1 if fn({a[0]: None, b[0]: None}) == a[1] else 1

    return default, sorted(rules, key=functools.cmp_to_key(first))


def _union_schema(
    refs: dict[str, str], discriminator: Discriminator, defs: dict[str, Schema]
) -> Schema:
    key = _tag_key(refs, discriminator, defs)
    if key is None:
        return {"oneOf": [{"$ref": ref} for ref in refs.values()]}
    branches: list[Schema] = [
        {"if": {"required": [key], "properties": {key: {"const": tag}}}, "then": {"$ref": ref}}
        for tag, ref in refs.items()
    ]
    description = f"Which kind of entry this is: {', '.join(f'`{tag}`' for tag in refs)}."
    schema: Schema = {"type": "object", "properties": {key: {"enum": list(refs)}}}
    default, rules = _inference(refs, discriminator, key, defs)
    if default is None:
        schema["required"] = [key]
    else:
        chosen: Schema = {"$ref": refs[default]}
        for required, tag in reversed(rules):
            chosen = {"if": {"required": [required]}, "then": {"$ref": refs[tag]}, "else": chosen}
        branches.append({"if": {"not": {"required": [key]}}, "then": chosen})
        told = "; ".join(f"with `{required}` it is `{tag}`" for required, tag in rules)
        description += f" When omitted: {told}; otherwise `{default}`."
    schema["properties"][key]["description"] = description
    schema["allOf"] = branches
    return schema


def inline_enums(defs: dict[str, Schema]) -> None:
    """Put enum values where they are used, so editors list them and `${VAR}` can wrap them."""
    enums = {name: d for name, d in defs.items() if "enum" in d and "properties" not in d}
    for node in walk(defs):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.removeprefix(DEFS) in enums:
            del node["$ref"]
            values = enums[ref.removeprefix(DEFS)]
            node.update({k: v for k, v in values.items() if k != "title" and k not in node})
    for name in enums:
        del defs[name]
