"""JSON Schemas (draft-07) generated from the models, never written by hand.

Pydantic produces the schema; `_Generator` marks the tagged unions and strict scalars it
meets, and a post-processing pass turns the result into what YAML editors work best with:

- tagged unions become `if`/`then` on their `type` key, so a bad entry gets one error
  from its own kind instead of "matches none of";
- rules that live in validators (matchers, `turns` beside single-turn keys, blank text,
  limits) are added from the constants and validators the models use;
- a value holding a `${VAR}` reference is accepted wherever it stands, and so are the
  conversions the models make (a quoted number, ...), as HoloDeck substitutes and
  converts before it validates;
- keys the project `config.yaml` may supply are not required in the agent file;
- every property carries `description` and `markdownDescription`, and editors get
  `defaultSnippets` for a new test case, turn and expected tool.
"""

from __future__ import annotations

import copy
import functools
import inspect
import json
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue, model_json_schema
from pydantic_core import core_schema

KINDS = ("agent", "test-cases")
FILE_NAMES = {
    "agent": "holodeck-agent.schema.json",
    "test-cases": "holodeck-test-cases.schema.json",
}
DRAFT_07 = "http://json-schema.org/draft-07/schema#"
_DEFS = "#/definitions/"
_SCALARS = frozenset({"string", "integer", "number", "boolean", "null"})
_ANNOTATIONS = frozenset(
    {"title", "description", "markdownDescription", "default", "examples", "defaultSnippets"}
)
Schema = dict[str, Any]
Discriminator = str | Callable[[Any], Any]


def command(kind: str) -> str:
    """The command that writes the committed schema of ``kind``."""
    return f"holodeck-lsp schema --kind {kind} --output schema/{FILE_NAMES[kind]}"


def generate(kind: str) -> dict[str, Any]:
    """The schema of agent files (``agent``) or test-case files (``test-cases``)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}")
    root = _root(kind)
    raw = model_json_schema(root, ref_template=_DEFS + "{model}", schema_generator=_Generator)
    defs: dict[str, Schema] = raw.pop("$defs", {})
    defs[root.__name__] = raw
    _expand_unions(defs)
    _inline_enums(defs)
    _add_field_rules(defs, _models(root), kind)
    if kind == "agent":
        _relax_config_fillable(defs)
    for name, definition in defs.items():
        defs[name] = _tidy(definition)
    _add_cross_field_rules(defs)
    _describe(defs)
    _add_snippets(defs)
    return _assemble(kind, defs, root.__name__)


def render(kind: str) -> str:
    """The schema as the committed file holds it."""
    return json.dumps(generate(kind), indent=2, ensure_ascii=False) + "\n"


def _root(kind: str) -> type[BaseModel]:
    from holodeck_lsp.models.agent import Agent
    from holodeck_lsp.models.test_cases_file import TestCasesFile

    return Agent if kind == "agent" else TestCasesFile


# --- generation ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Union:
    """A tagged union met during generation: its tags, and how the tag is chosen."""

    tags: tuple[str, ...]  # in the order of the `oneOf` beside the marker
    discriminator: Discriminator


class _Generator(GenerateJsonSchema):
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
        # still renames; `_expand_unions` replaces both before anything is serialised.
        marker = _Union(tuple(tag for tag, _ in choices), discriminator)
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


def _walk(node: Any) -> Iterator[dict[str, Any]]:
    """Every mapping inside ``node``, parents first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def _def(defs: dict[str, Schema], ref: str) -> Schema:
    return defs[ref.removeprefix(_DEFS)]


def _models(root: type[BaseModel]) -> dict[str, type[BaseModel]]:
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


# --- tagged unions -------------------------------------------------------------------------


def _expand_unions(defs: dict[str, Schema]) -> None:
    for node in list(_walk(defs)):
        marker = node.pop("x-union", None)
        if isinstance(marker, _Union):
            options = node.pop("oneOf")
            refs = dict(zip(marker.tags, (o["$ref"] for o in options), strict=True))
            node.update(_union_schema(refs, marker.discriminator, defs))


def _tag_key(
    refs: dict[str, str], discriminator: Discriminator, defs: dict[str, Schema]
) -> str | None:
    """The key whose value is the tag: given, or the one the discriminator function reads."""
    if isinstance(discriminator, str):
        return discriminator
    keys: list[set[str]] = [set(_def(defs, ref).get("properties", {})) for ref in refs.values()]
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
        for required in _def(defs, ref).get("required", [])
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


def _inline_enums(defs: dict[str, Schema]) -> None:
    """Put enum values where they are used, so editors list them and `${VAR}` can wrap them."""
    enums = {name: d for name, d in defs.items() if "enum" in d and "properties" not in d}
    for node in _walk(defs):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.removeprefix(_DEFS) in enums:
            del node["$ref"]
            values = enums[ref.removeprefix(_DEFS)]
            node.update({k: v for k, v in values.items() if k != "title" and k not in node})
    for name in enums:
        del defs[name]


# --- rules that live in validators ----------------------------------------------------------

_ENV_REF = r"\$\{"


def _char_class(codes: list[int]) -> str:
    """A regex character class body for ``codes``, consecutive runs written as ranges."""
    runs: list[list[int]] = []
    for code in codes:
        if runs and code == runs[-1][1] + 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return "".join(f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in runs)


# Not blank as `str.strip()` sees it (an ECMA `\S` would also refuse a lone U+FEFF).
_NOT_BLANK = f"[^{_char_class([c for c in range(0x10000) if chr(c).isspace()])}]"


def _value_branch(prop: Schema, wanted: str) -> Schema:
    """The part of an (optional) property schema that describes a value of type ``wanted``."""
    options: list[Schema] = prop.get("anyOf", [prop])
    for option in options:
        if option.get("type") == wanted:
            return option
    raise KeyError(wanted)


def _refuses_blank(model: type[BaseModel], attribute: str, field: str) -> bool:
    """Whether a field validator refuses blank text (and accepts ordinary text)."""
    validator = getattr(model, attribute)
    takes_info = len(inspect.signature(validator).parameters) > 1

    def accepts(value: str) -> bool:
        info = SimpleNamespace(field_name=field, data={})
        try:
            validator(value, info) if takes_info else validator(value)
        except Exception:  # any refusal; a validator of another type never says yes to "x"
            return False
        return True

    return accepts("x") and not accepts(" \t")


def _blank_text_rules(defs: dict[str, Schema], models: dict[str, type[BaseModel]]) -> None:
    for name, model in models.items():
        properties = defs.get(name, {}).get("properties", {})
        for decorator in model.__pydantic_decorators__.field_validators.values():
            if decorator.info.mode != "after":
                continue
            for field in decorator.info.fields:
                if field in properties and _refuses_blank(model, decorator.cls_var_name, field):
                    try:
                        text = _value_branch(properties[field], "string")
                        text["pattern"] = _NOT_BLANK
                        text["patternErrorMessage"] = f"{field} must not be empty or whitespace"
                    except KeyError:
                        continue  # a secret or another non-plain string


def _matcher_schema() -> Schema:
    from holodeck_lsp.models.test_case import MATCHER_KEYS

    told = {
        "fuzzy": "Compared ignoring case, surrounding and repeated whitespace and thousands "
        "separators; numbers compare numerically.",
        "regex": "A regular expression that must match the whole actual value (as text).",
    }

    def only(key: str) -> Schema:
        return {
            "properties": {key: {"type": "string", "description": told.get(key, key)}},
            "additionalProperties": False,
        }

    chosen: Schema = only(MATCHER_KEYS[-1])
    for key in reversed(MATCHER_KEYS[:-1]):
        chosen = {"if": {"required": [key]}, "then": only(key), "else": chosen}
    keys = " or ".join(f"`{k}`" for k in MATCHER_KEYS)
    return {
        "description": (
            "The value the argument must have: a literal (numbers compare numerically), "
            f"or a matcher mapping with exactly one of {keys} and nothing else."
        ),
        "if": {"type": "object", "anyOf": [{"required": [k]} for k in MATCHER_KEYS]},
        "then": chosen,
        "defaultSnippets": [
            {"label": f"{key} matcher", "description": told.get(key, key), "body": {key: "$1"}}
            for key in MATCHER_KEYS
        ],
    }


def _count_schema(generated: Schema) -> Schema:
    """`count` is checked before conversion: an int >= 1 (`true` passes, as a bool is an int)."""
    described = {k: v for k, v in generated.items() if k in _ANNOTATIONS}
    number = {"type": "integer", "minimum": 1}
    return {**described, "if": {"type": "boolean"}, "then": {"const": True}, "else": number}


def _add_field_rules(
    defs: dict[str, Schema], models: dict[str, type[BaseModel]], kind: str
) -> None:
    """Constraints on single values: limits, matchers, `count`, blank text."""
    from holodeck_lsp.models.agent import MAX_TEST_CASES, MAX_TOOLS
    from holodeck_lsp.models.test_case import MAX_FILES

    _blank_text_rules(defs, models)
    tool = defs["ExpectedTool"]["properties"]
    tool["count"] = _count_schema(tool["count"])
    _value_branch(tool["args"], "object")["additionalProperties"] = _matcher_schema()
    for owner in ("Turn", "TestCaseModel"):
        _value_branch(defs[owner]["properties"]["files"], "array")["maxItems"] = MAX_FILES
    _value_branch(defs["TestCaseModel"]["properties"]["turns"], "array")["minItems"] = 1
    if kind == "agent":
        agent = defs["Agent"]["properties"]
        _value_branch(agent["tools"], "array")["maxItems"] = MAX_TOOLS
        _value_branch(agent["test_cases"], "array")["maxItems"] = MAX_TEST_CASES
    else:
        defs["TestCasesFile"]["properties"]["test_cases"]["maxItems"] = MAX_TEST_CASES


_TRUTHY_TEXT: Schema = {"type": "string", "minLength": 1}
_NOT_NULL: Schema = {"not": {"type": "null"}}
# (model, first, second, what counts as given): exactly one of the two keys. The second
# key is where the conflict is reported, as in the models' validators.
_ONE_OF_TWO = (
    ("FileInput", "path", "url", _TRUTHY_TEXT),
    ("Instructions", "file", "inline", _TRUTHY_TEXT),
    ("PromptTool", "template", "file", _TRUTHY_TEXT),
    ("SubagentSpec", "prompt", "prompt_file", _NOT_NULL),
)


def _one_of_two(first: str, second: str, given: Schema) -> list[Schema]:
    both = f"give either '{first}' or '{second}', not both"
    absent = [{"not": {"required": [key], "properties": {key: given}}} for key in (first, second)]
    return [
        {"not": {"allOf": absent}, "errorMessage": f"give '{first}' or '{second}'"},
        {
            "if": {"required": [first], "properties": {first: given}},
            "then": {"properties": {second: _unless_env({"not": given}, both)}},
        },
    ]


def _unless_env(rule: Schema, message: str) -> Schema:
    """``rule`` for a value that holds no `${VAR}` reference (one that does is unknown)."""
    return {
        "description": message,
        "if": {"type": "string", "pattern": _ENV_REF},
        "else": {**rule, "errorMessage": message},
    }


def _null_unless_env(message: str) -> Schema:
    return _unless_env({"type": "null"}, message)


def _single_or_multi_turn() -> list[Schema]:
    """`turns` excludes the single-turn keys; without `turns`, `input` is required."""
    from holodeck_lsp.models.test_case import SINGLE_TURN_FIELDS

    conflict = "'{}' cannot stand beside 'turns'; move it onto a turn"
    return [
        {
            "if": {"required": ["turns"], "properties": {"turns": _NOT_NULL}},
            "then": {
                "properties": {
                    key: _null_unless_env(conflict.format(key)) for key in SINGLE_TURN_FIELDS
                }
            },
            "else": {"required": ["input"]},
        }
    ]


def _cases_or_file() -> list[Schema]:
    """`test_cases` and a `test_cases_file` (one needing no substitution) exclude each other."""
    message = "give either 'test_cases' or 'test_cases_file', not both"
    return [
        {
            "if": {"required": ["test_cases"], "properties": {"test_cases": _NOT_NULL}},
            "then": {"properties": {"test_cases_file": _null_unless_env(message)}},
        }
    ]


def _add_cross_field_rules(defs: dict[str, Schema]) -> None:
    """Rules between keys of one mapping, as `allOf` parts (added after tidying)."""
    rules: list[tuple[str, list[Schema]]] = [
        (model, _one_of_two(first, second, given)) for model, first, second, given in _ONE_OF_TWO
    ]
    rules += [("TestCaseModel", _single_or_multi_turn()), ("Agent", _cases_or_file())]
    for model, parts in rules:
        if model in defs:
            defs[model].setdefault("allOf", []).extend(parts)


# --- what the project config may supply -------------------------------------------------------


def _refs_in(node: Any) -> set[str]:
    return {n["$ref"].removeprefix(_DEFS) for n in _walk(node) if isinstance(n.get("$ref"), str)}


def _reachable(defs: dict[str, Schema], start: Any) -> set[str]:
    seen: set[str] = set()
    todo = _refs_in(start)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo |= _refs_in(defs[name])
    return seen


def _relax_config_fillable(defs: dict[str, Schema]) -> None:
    """Keys the project config may fill in are not required in the agent file itself.

    Its named provider fills the agent's `model` and `evaluations.model`, and its
    `deployment` is merged under the agent's own; `check` validates after the merge.
    """
    merged = copy.deepcopy(defs["LLMProvider"])
    merged["required"] = ["provider"]
    merged["description"] += (
        " Keys not given here come from the project config's provider of the same name."
    )
    defs["MergedLLMProvider"] = merged
    for owner in ("Agent", "EvaluationConfig"):
        for node in _walk(defs[owner]["properties"]["model"]):
            if node.get("$ref") == _DEFS + "LLMProvider":
                node["$ref"] = _DEFS + "MergedLLMProvider"
    agent = defs["Agent"]["properties"]
    elsewhere = _reachable(defs, {k: v for k, v in agent.items() if k != "deployment"})
    for name in _reachable(defs, agent["deployment"]) - elsewhere:
        defs[name].pop("required", None)


# --- tidying: nulls, `$ref` siblings, `${VAR}` and coercible strings ---------------------------


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
    outer = {k: v for k, v in body.items() if k in _ANNOTATIONS}
    rules = {k: v for k, v in body.items() if k not in _ANNOTATIONS}
    converted = [] if strict else [t for t in types if t in _CONVERTED]
    pattern = "|".join([_ENV_REF] + [_COERCIBLE[t] for t in converted])
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
    schema = _tidy(schema)
    return _lenient(schema) if lenient else _siblings_of_ref(schema)


def _tidy(schema: Schema) -> Schema:
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
            out[key] = [_tidy(part) for part in value]
        elif key != "x-strict":
            out[key] = value
    return out


# --- descriptions and snippets -----------------------------------------------------------------


def _markdown(schema: Schema) -> str:
    text = str(schema["description"])
    if "default" in schema:
        text += f"\n\nDefault: `{json.dumps(schema['default'], ensure_ascii=False)}`"
    return text


def _describe(defs: dict[str, Schema]) -> None:
    """`markdownDescription` beside every description; a model's own for a bare reference."""
    for node in _walk(defs):
        for prop in node.get("properties", {}).values():
            if not isinstance(prop, dict):
                continue
            if "description" not in prop:
                refs = sorted(_refs_in(prop))
                if len(refs) == 1 and "description" in defs[refs[0]]:
                    prop["description"] = defs[refs[0]]["description"]
            if "description" in prop:
                prop["markdownDescription"] = _markdown(prop)
    for definition in defs.values():
        if "description" in definition:
            definition["markdownDescription"] = definition["description"]


def _add_snippets(defs: dict[str, Schema]) -> None:
    defs["TestCaseModel"]["defaultSnippets"] = [
        {
            "label": "New test case (single turn)",
            "description": "One user message, the expected reply and the tools to call.",
            "body": {
                "name": "${1:case name}",
                "input": "${2:user message}",
                "ground_truth": "${3:expected reply}",
            },
        },
        {
            "label": "New test case (multi-turn)",
            "description": "A conversation: turns sent in order on one session.",
            "body": {
                "name": "${1:case name}",
                "turns": [
                    {"input": "${2:first user message}", "ground_truth": "${3:expected reply}"},
                    {"input": "${4:follow-up message}"},
                ],
            },
        },
    ]
    defs["Turn"]["defaultSnippets"] = [
        {
            "label": "New turn",
            "description": "The next user message of the conversation and what to expect.",
            "body": {"input": "${1:user message}", "ground_truth": "${2:expected reply}"},
        }
    ]
    defs["ExpectedTool"]["defaultSnippets"] = [
        {
            "label": "Expected tool with args",
            "description": "A call that must carry these arguments, at least `count` times.",
            "body": {
                "name": "${1:tool_name}",
                "args": {"${2:argument}": "${3:value}", "${4:other}": {"fuzzy": "${5:text}"}},
                "count": 1,
            },
        }
    ]


# --- the file ----------------------------------------------------------------------------------


def _assemble(kind: str, defs: dict[str, Schema], root_name: str) -> dict[str, Any]:
    schema: Schema = {
        "$schema": DRAFT_07,
        "$comment": f"Generated from the holodeck-lsp models by `{command(kind)}`; do not edit.",
    }
    root = defs.pop(root_name)
    if kind == "agent":
        schema.update(root, title="HoloDeck agent")
    else:
        cases = root["properties"]["test_cases"]
        cases.setdefault("description", "The test cases of this file.")
        cases["markdownDescription"] = _markdown(cases)
        root["description"] = root["markdownDescription"] = "A mapping with a `test_cases:` list."
        # An empty file (or `{}`) is an empty suite.
        root["if"] = {"minProperties": 1}
        root["then"] = {"required": root.pop("required")}
        described = "A list of test cases, or a mapping with a `test_cases:` list."
        schema.update(
            title="HoloDeck test cases",
            description=f"A test-case file, named by an agent's `test_cases_file`. {described}",
            type=["array", "object"],
        )
        schema["if"] = {"type": "array"}
        schema["then"] = {k: v for k, v in cases.items() if k not in _ANNOTATIONS}
        schema["else"] = root
    schema["definitions"] = dict(sorted(defs.items()))
    return schema
