"""Pydantic validation errors -> coded, positioned diagnostics.

An error location mixes YAML keys and indices with union tags (`'code'`, `'object'`);
we walk it against the data and skip every segment the data does not have, except a
last one, which is then a key that is missing.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from typing import Any

from pydantic import BaseModel, ValidationError

from holodeck_lsp.models import errors as E
from holodeck_lsp.models.agent import Agent
from holodeck_lsp.validation.collector import Collector, Part, value_at
from holodeck_lsp.validation.model_tree import is_union_tag, keys_at, step_type
from holodeck_lsp.validation.upgrade_facts import (
    SUBAGENT_MODEL_NOTE,
    is_subagent_model,
    removed_field,
    subagent_model_alias,
)
from holodeck_lsp.validation.yaml.source_map import YamlPath

_CUSTOM_CODES = {
    E.EMPTY_STRING: "HL204",
    E.TURNS_CONFLICT: "HL201",
    E.TURNS_EMPTY: "HL202",
    E.MISSING_INPUT: "HL203",
    E.EXPECTED_TOOL_ENTRY: "HL301",
    E.EXPECTED_TOOL_NAME: "HL302",
    E.EXPECTED_TOOL_COUNT: "HL303",
    E.ARGS_NOT_MAPPING: "HL305",
    E.MATCHER_BOTH: "HL402",
    E.MATCHER_EXTRA_KEYS: "HL403",
    E.MATCHER_PATTERN_TYPE: "HL404",
    E.REGEX_COMPILE: "HL401",
    E.GRADER_FORMAT: "HL501",
    E.TOO_MANY: "HL107",
    E.DUPLICATE_TOOL_NAMES: "HL108",
    E.MUTUALLY_EXCLUSIVE: "HL109",
    E.REQUIRES_ONE_OF: "HL110",
}
# Errors about a key being there at all: they stand whatever a `${VAR}` value turns into.
_WHATEVER_THE_VALUE = {"extra_forbidden", E.MUTUALLY_EXCLUSIVE, E.TURNS_CONFLICT}
_CHOICE_TYPES = {"literal_error", "enum", "union_tag_invalid"}
_RANGE_TYPES = {
    "greater_than",
    "greater_than_equal",
    "less_than",
    "less_than_equal",
    "too_short",
    "too_long",
    "multiple_of",
    "finite_number",
}
_TYPE_NAMES = {
    "string_type": "text",
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
    "tuple_type": "a list",
    "set_type": "a list",
}
_QUOTED = re.compile(r"'([^']*)'")


def _describe(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the text {value!r}"
    return f"a {type(value).__name__}"


def _yaml_path(root: type[BaseModel], data: Any, loc: tuple[Any, ...]) -> tuple[YamlPath, Any]:
    """(path in the data, the segment that names a missing key or None).

    The model type is walked alongside, so a union tag that happens to equal a key of
    the data (a function tool's tag `function` and its `function:` key) is still skipped.
    """
    path: list[Any] = []
    cur = data
    tp: Any = root
    for i, seg in enumerate(loc):
        if tp is not None and is_union_tag(tp, seg):
            tp = step_type(tp, seg)
            continue
        tp = step_type(tp, seg) if tp is not None else None
        if (isinstance(cur, dict) and seg in cur) or (
            isinstance(cur, list) and isinstance(seg, int) and 0 <= seg < len(cur)
        ):
            cur = cur[seg]
            path.append(seg)
        elif i == len(loc) - 1:
            return tuple(path), seg
    return tuple(path), None


def did_you_mean(word: Any, choices: list[Any]) -> str | None:
    if not isinstance(word, str):
        return None
    names = [str(c) for c in choices]
    close = difflib.get_close_matches(word, names, n=1, cutoff=0.6)
    if not close:
        lowered = {n.lower(): n for n in names}
        close = [lowered[word.lower()]] if word.lower() in lowered else []
    return close[0] if close else None


def _has_env_ref(value: Any) -> bool:
    return isinstance(value, str) and "${" in value


def report_validation_error(
    exc: ValidationError,
    root: type[BaseModel],
    data: Any,
    collector: Collector,
    prefix: YamlPath = (),
) -> None:
    """Emit one diagnostic per error (type errors of one value's union members merged)."""
    type_errors: dict[YamlPath, list[dict[str, Any]]] = defaultdict(list)
    failed: list[YamlPath] = []  # every error's place, reported or not
    for details in exc.errors(include_url=False):
        error: dict[str, Any] = dict(details)
        loc = tuple(error["loc"])
        path, missing = _yaml_path(root, data, loc)
        value = value_at(data, path)
        if error["type"] != "missing":
            missing = None  # an unmatched last segment is a union tag, not a key
        failed.append(path if missing is None else (*path, missing))
        if _has_env_ref(value) and missing is None and error["type"] not in _WHATEVER_THE_VALUE:
            continue  # `${VAR}` is substituted before HoloDeck validates: unknown here
        if error["type"] in _TYPE_NAMES and missing is None:
            type_errors[path].append(error)
            continue
        _report_one(error, root, data, collector, prefix, loc, path, missing, value)
    # A mapping or list that one branch took and failed inside (even only on a `${VAR}`
    # value) is not news for the branches that wanted text: those errors are dropped.
    deeper = {p[:n] for p in failed for n in range(len(p))}
    for path, errors in type_errors.items():
        if path in deeper and isinstance(value_at(data, path), (dict, list)):
            continue
        _report_type(errors, data, collector, prefix, path)


def _report_type(
    errors: list[dict[str, Any]], data: Any, collector: Collector, prefix: YamlPath, path: YamlPath
) -> None:
    value = value_at(data, path)
    wanted = sorted({_TYPE_NAMES[e["type"]] for e in errors})
    message = f"expected {' or '.join(wanted)}, got {_describe(value)}"
    hint: dict[str, Any] | None = None
    if "text" in wanted and isinstance(value, (bool, int, float)) and not isinstance(value, dict):
        source = collector.scalar_source(prefix + path)
        if source:
            message += f' (unquoted in YAML); quote it: "{source}"'
            hint = {"quote": source}
    elif len(errors) == 1 and errors[0]["type"] in ("int_parsing", "float_parsing", "bool_parsing"):
        message = f"expected {wanted[0]}, got {_describe(value)}"
    collector.emit(prefix + path, "HL103", message, data=hint)


def _report_one(
    error: dict[str, Any],
    root: type[BaseModel],
    data: Any,
    collector: Collector,
    prefix: YamlPath,
    loc: tuple[Any, ...],
    path: YamlPath,
    missing: Any,
    value: Any,
) -> None:
    kind: str = error["type"]
    ctx: dict[str, Any] = error.get("ctx") or {}
    full = prefix + path
    if kind == "missing":
        name = missing if missing is not None else (loc[-1] if loc else "?")
        collector.emit(full + (name,), "HL102", f"missing required key {name!r}", part="anchor")
        return
    if kind == "extra_forbidden":
        removed = removed_field(full) if root is Agent else None
        if removed is not None:
            collector.emit(full, "HL701", removed, part="key", data={"delete_key": True})
            return
        choices = [
            k
            for k in keys_at(root, loc[:-1], value_at(data, path[:-1]))
            if k not in (value_at(data, path[:-1]) or {})
        ]
        guess = did_you_mean(path[-1] if path else None, choices)
        message = f"unknown key {path[-1]!r}" if path else "unknown key"
        message += f"; did you mean {guess!r}?" if guess else ""
        collector.emit(
            full, "HL101", message, part="key", data={"replace_key": guess} if guess else None
        )
        return
    if kind in _CHOICE_TYPES:
        expected = ctx.get("expected") or ctx.get("expected_tags") or ""
        choices = _QUOTED.findall(str(expected))
        if kind == "union_tag_invalid":
            discriminator = str(ctx.get("discriminator", "type")).strip("'")
            if isinstance(value, dict) and discriminator in value:
                full = full + (discriminator,)
                value = value[discriminator]
        guess = did_you_mean(value, choices) or subagent_model_alias(full, value)
        message = f"unknown value {_describe_choice(value)}; expected one of {', '.join(choices)}"
        message += f"; did you mean {guess!r}?" if guess else ""
        if is_subagent_model(full):
            message += SUBAGENT_MODEL_NOTE
        collector.emit(full, "HL104", message, data={"replace_value": guess} if guess else None)
        return
    if kind == "union_tag_not_found":
        discriminator = str(ctx.get("discriminator", "type")).strip("'")
        collector.emit(full, "HL102", f"missing required key {discriminator!r}", part="anchor")
        return
    if kind in _RANGE_TYPES:
        collector.emit(full, "HL105", _plain(error["msg"]))
        return
    code = _CUSTOM_CODES.get(kind, "HL106")
    message = _plain(error["msg"])
    if ctx.get("keys"):
        for key in ctx["keys"]:
            collector.emit(full + (key,), code, message, part="key")
        return
    sub = tuple(ctx.get("subloc") or ())
    part: Part = "key" if ctx.get("at_key") else "value"
    collector.emit(full + sub, code, message, part=part, char=ctx.get("char"))


def _describe_choice(value: Any) -> str:
    return repr(value) if isinstance(value, str) else _describe(value)


def _plain(message: str) -> str:
    """Pydantic's message without its 'Value error, ' preamble, lower-cased first letter."""
    for preamble in ("Value error, ", "Assertion failed, "):
        if message.startswith(preamble):
            message = message[len(preamble) :]
    return message[:1].lower() + message[1:] if message[:2] != message[:2].upper() else message
