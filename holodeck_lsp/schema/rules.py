"""Rules that live in the models' validators, added from the constants and validators the
models use: matchers, counts, blank text, limits, `turns` beside single-turn keys."""

from __future__ import annotations

import inspect
from types import SimpleNamespace

from pydantic import BaseModel

from holodeck_lsp.schema.nodes import ANNOTATIONS, ENV_REF, Schema


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
    from holodeck_lsp.models.test_case import MATCHER_KEYS, MATCHER_MEANINGS

    told = {key: text[0].upper() + text[1:] + "." for key, text in MATCHER_MEANINGS.items()}

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
    described = {k: v for k, v in generated.items() if k in ANNOTATIONS}
    number = {"type": "integer", "minimum": 1}
    return {**described, "if": {"type": "boolean"}, "then": {"const": True}, "else": number}


def add_field_rules(
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
        "if": {"type": "string", "pattern": ENV_REF},
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


def add_cross_field_rules(defs: dict[str, Schema]) -> None:
    """Rules between keys of one mapping, as `allOf` parts (added after tidying)."""
    rules: list[tuple[str, list[Schema]]] = [
        (model, _one_of_two(first, second, given)) for model, first, second, given in _ONE_OF_TWO
    ]
    rules += [("TestCaseModel", _single_or_multi_turn()), ("Agent", _cases_or_file())]
    for model, parts in rules:
        if model in defs:
            defs[model].setdefault("allOf", []).extend(parts)
