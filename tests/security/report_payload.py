"""A test report with one text in every string field: built by walking the report's model
(`TestReport`), so a field added to it holds the text too, with no change here.

Each string is the field's path, then the text (`results[0].test_name ![x](...)`): a
finding names the field it came from. Dictionary keys hold it too (metric names are keys),
and the environment holds it under every key the product reads from a report that it does
not parse (a parsed key holding it is refused; `parsed_fields` lists those). Booleans are
all True or all False, so both branches of every writer are taken; numbers are small and
consistent (the summary adds up, token totals cover their parts).
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from holodeck_lsp.models.test_case import FileInput
from holodeck_lsp.models.test_result import ISO_8601, TestReport
from holodeck_lsp.models.token_usage import TokenUsage
from holodeck_lsp.runner.report.report_reading import CASE_INDEXES, OUR_VERSION, SUITE_KEY
from holodeck_lsp.runner.report.shard_merge import JUDGE_PREFIX

TIME = "2026-01-02T03:04:05+00:00"
# Environment keys the product reads from a report and shows or passes on as they are.
SHOWN_KEYS = (OUR_VERSION, SUITE_KEY, "repeat", "missing_shards", "merged_from", "replay",
              "resumed_from")  # fmt: skip
# Environment keys the product parses: holding the text, the report is refused by the
# commands that read the key (and the payload report leaves them out).
PARSED_KEYS = ("shard", CASE_INDEXES, "pass_rule", f"{JUDGE_PREFIX}calls")

Text = Callable[[str], str]  # a field's path -> its string


def _bare(annotation: Any) -> Any:
    """``annotation`` with `| None` taken off."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        kept = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _bare(kept[0])
    return annotation


def _model(annotation: Any) -> type[BaseModel] | None:
    bare = _bare(annotation)
    return bare if isinstance(bare, type) and issubclass(bare, BaseModel) else None


def _value(annotation: Any, info: FieldInfo | None, path: str, text: Text, flag: bool) -> Any:
    if info is not None and ISO_8601 in info.metadata:
        return TIME
    bare = _bare(annotation)
    origin, args = typing.get_origin(bare), typing.get_args(bare)
    if origin is Literal:
        return args[0]
    if origin is list:
        return [_value(args[0], None, f"{path}[0]", text, flag)]
    if origin is dict:
        key = text(f"{path} key")
        return {key: _value(args[1], None, f"{path} value", text, flag)}
    model = _model(bare)
    if model is not None:
        return filled(model, text, flag, path)
    if bare is bool:
        return flag
    if bare is int:
        return 1
    if bare is float:
        return 0.5
    if bare in (str, Any):
        return text(path)
    raise AssertionError(f"{path}: no value for {annotation!r}: teach report_payload.py")


def filled(model: type[BaseModel], text: Text, flag: bool, path: str = "") -> dict[str, Any]:
    """JSON data of ``model`` with every field set (see the module's docstring)."""
    data = {
        name: _value(info.annotation, info, f"{path}.{name}".lstrip("."), text, flag)
        for name, info in model.model_fields.items()
    }
    return _consistent(model, data)


def _consistent(model: type[BaseModel], data: dict[str, Any]) -> dict[str, Any]:
    """What the models' own validators ask beyond types."""
    if model is FileInput:
        data["url"] = None  # a path or a url, not both
    if model is TokenUsage:
        data["total_tokens"] = data["prompt_tokens"] + data["completion_tokens"]
    if model is TestReport:
        passed = int(data["results"][0]["passed"])
        data["summary"].update(total_tests=1, passed=passed, failed=1 - passed)
    return data


def payload_report(text: Text, passed: bool) -> dict[str, Any]:
    """A report's JSON data with ``text(path)`` in every string field, every boolean
    ``passed``: a report `merge`, `compare` and `run --baseline` accept."""
    data = filled(TestReport, text, passed)
    for key in SHOWN_KEYS:
        data["environment"][key] = text(f"environment.{key}")
    TestReport.model_validate(data)
    return data


def parsed_fields() -> Iterator[tuple[str, list[str | int]]]:
    """(name, where in the JSON) of every field a reader parses: each timestamp (found in
    the model, as the payload's fields are) and each parsed environment key."""

    def walk(model: type[BaseModel], at: list[str | int]) -> Iterator[list[str | int]]:
        for name, info in model.model_fields.items():
            if ISO_8601 in info.metadata:
                yield [*at, name]
            bare = _bare(info.annotation)
            if typing.get_origin(bare) is list:
                inner = _model(typing.get_args(bare)[0])
                if inner is not None:
                    yield from walk(inner, [*at, name, 0])
            elif (inner := _model(bare)) is not None:
                yield from walk(inner, [*at, name])

    for where in walk(TestReport, []):
        yield ".".join(map(str, where)).replace(".0", "[0]"), where
    for key in PARSED_KEYS:
        yield f"environment.{key}", ["environment", key]


def write_report(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def set_at(data: dict[str, Any], where: list[str | int], value: str) -> dict[str, Any]:
    """A copy of ``data`` with ``value`` at ``where``."""
    copy = json.loads(json.dumps(data))
    node = copy
    for step in where[:-1]:
        node = node[step]
    node[where[-1]] = value
    return copy
