"""Nulls, `$ref` siblings, `${VAR}` references and the strings the models convert:
accepted wherever they stand, as HoloDeck substitutes and converts before it validates."""

from __future__ import annotations

from typing import Any

from holodeck_lsp.schema.nodes import ANNOTATIONS, ENV_REF, Schema


def _split_null(schema: Schema) -> tuple[Schema, bool]:
    """`anyOf: [X, {type: null}]` -> (X with the other keywords, True); else (schema, False)."""
    options = schema.get("anyOf")
    if not isinstance(options, list) or len(options) != 2 or {"type": "null"} not in options:
        return schema, False
    (other,) = [o for o in options if o != {"type": "null"}]
    return {**{k: v for k, v in schema.items() if k != "anyOf"}, **other}, True


def _case_insensitive(word: str) -> str:
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in word)


_BOOL_WORDS = ("true", "false", "yes", "no", "on", "off", "t", "f", "y", "n", "1", "0")
_SPECIAL_FLOATS = "|".join(_case_insensitive(w) for w in ("infinity", "inf", "nan"))
# Strings the models' lax validation turns into a value of each type.
_COERCIBLE = {
    "integer": r"^\s*[+-]?[0-9][0-9_]*(\.0*)?\s*$",
    "number": r"^\s*[+-]?([0-9][0-9_]*\.?[0-9_]*|\.[0-9]+)([eE][+-]?[0-9]+)?\s*$"
    rf"|^\s*[+-]?({_SPECIAL_FLOATS})\s*$",
    "boolean": r"^\s*(" + "|".join(_case_insensitive(w) for w in _BOOL_WORDS) + r")\s*$",
}
# Values of another JSON type the models convert: a boolean to a number, 0 or 1 to a boolean.
_CONVERTED: dict[str, Schema] = {
    "integer": {"type": "boolean"},
    "number": {"type": "boolean"},
    "boolean": {"enum": [0, 1]},
}
_STRING_CONSTRAINTS = frozenset({"enum", "const", "pattern", "minLength", "maxLength"})


def _types(schema: Schema) -> list[str]:
    kinds = schema.get("type", [])
    return [kinds] if isinstance(kinds, str) else list(kinds)


def _lenient(schema: Schema) -> Schema:
    """Accept too what HoloDeck substitutes or converts before it validates.

    HoloDeck replaces `${VAR}` in the raw text before parsing it, so a value holding a
    reference is unknown until then and never an error, whatever is expected there (as in
    `check`). The models also convert a quoted number or boolean, a boolean where a number
    is expected and 0/1 where a boolean is (unless the field is strict). Written as `if`
    (accepted as is) / `else` (the rules), so a wrong value gets the rules' own error.
    """
    strict = schema.pop("x-strict", False)
    body, nullable = _split_null(schema)
    types = _types(body)
    if "const" in body:
        return schema  # a discriminator: editors offer its one value
    if types and set(types) <= {"string", "null"} and not body.keys() & _STRING_CONSTRAINTS:
        # Any text goes, `${VAR}` included.
        return {**body, "type": [*types, "null"]} if nullable and "null" not in types else body
    outer = {k: v for k, v in body.items() if k in ANNOTATIONS}
    rules = {k: v for k, v in body.items() if k not in ANNOTATIONS}
    converted = [] if strict else [t for t in types if t in _CONVERTED]
    pattern = "|".join([ENV_REF] + [_COERCIBLE[t] for t in converted])
    accepted: list[Schema] = [{"type": "string", "pattern": pattern}]
    accepted += [_CONVERTED[t] for t in converted] + ([{"type": "null"}] if nullable else [])
    # Editors complete a value from `enum`s but not inside `else`: offer them as examples.
    offered = [v for v in rules.get("enum", []) if v is not None]
    offered += [True, False] if "boolean" in types else []
    if offered:
        outer.setdefault("examples", offered)
    condition = accepted[0] if len(accepted) == 1 else {"anyOf": accepted}
    return {**outer, "if": condition, "else": _siblings_of_ref(rules)}


def _siblings_of_ref(schema: Schema) -> Schema:
    """Draft-07 ignores keywords beside `$ref`: move the reference into an `allOf`."""
    if "$ref" not in schema or len(schema) == 1:
        return schema
    rest = {k: v for k, v in schema.items() if k != "$ref"}
    rest["allOf"] = [{"$ref": schema["$ref"]}, *rest.get("allOf", [])]
    return rest


def _value_schema(schema: Any, lenient: bool = True) -> Any:
    """Tidy a schema that describes a value (a property, an item, a mapping's values).

    The options of a union are not made lenient one by one: the union as a whole is.
    """
    if not isinstance(schema, dict):
        return schema
    schema = dict(schema)
    schema.pop("title", None)  # pydantic's property titles only repeat the key
    if "default" in schema and schema["default"] is None:
        del schema["default"]
    schema = tidy(schema)
    return _lenient(schema) if lenient else _siblings_of_ref(schema)


def tidy(schema: Schema) -> Schema:
    """Tidy the value schemas below ``schema``; conditions and branches built here stay."""
    out: Schema = {}
    for key, value in schema.items():
        if key == "properties":
            out[key] = {name: _value_schema(prop) for name, prop in value.items()}
        elif key in ("items", "additionalProperties"):
            out[key] = _value_schema(value)
        elif key in ("anyOf", "oneOf"):
            out[key] = [_value_schema(option, lenient=False) for option in value]
        elif key == "allOf":
            out[key] = [tidy(part) for part in value]
        elif key != "x-strict":
            out[key] = value
    return out
