"""Values HoloDeck's lax parsing coerces (HL111): text where a number or a boolean belongs
(`'4'`, `'yes'`), a boolean where a number belongs (`true` read as 1), a number where a
boolean belongs (`1`). HoloDeck's models, like ours (and the JSON Schemas), accept them;
the file still says something other than what its author most likely meant.

The agent's own sections are walked once, along the models; test cases, turns and
metrics come from the lints' shared walk (`walk.places`)."""

from __future__ import annotations

import functools
import math
import typing
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.evaluation import (
    CodeMetric,
    EvaluationConfig,
    EvaluationMetric,
    GEvalMetric,
    RAGMetric,
    metric_kind,
)
from holodeck_lsp.models.test_case import TestCaseModel, Turn
from holodeck_lsp.validation.collector import Collector
from holodeck_lsp.validation.diagnostics import Severity
from holodeck_lsp.validation.lints.walk import Places
from holodeck_lsp.validation.model_tree import literal_values, models_within, unwrap
from holodeck_lsp.validation.yaml.path_text import format_path
from holodeck_lsp.validation.yaml.source_map import YamlPath

_METRICS: dict[str, type[BaseModel]] = {
    "standard": EvaluationMetric,
    "geval": GEvalMetric,
    "rag": RAGMetric,
    "code": CodeMetric,
}
# Walked by `places` (test cases and metrics are most of a suite): not walked again here.
_PLACES_KEYS: dict[type[BaseModel], set[str]] = {
    Agent: {"test_cases"},
    EvaluationConfig: {"metrics"},
    TestCaseModel: {"turns", "evaluations"},
    Turn: {"evaluations"},
}
_SCALARS = (bool, int, float)


@dataclass(frozen=True)
class _Scalar:
    kind: type  # bool, int or float
    accepts: TypeAdapter[Any]  # the field's own type and bounds: what the model takes
    container: str = "one"  # or "list" (`pages: [1, 2]`), "dict" (optimizer `loss:`)


@dataclass(frozen=True)
class _Nested:
    models: tuple[type[BaseModel], ...]
    container: str  # "one", "list" or "dict"


def lax_value_rules(logical: dict[str, Any], found: Places, collector: Collector) -> None:
    _check(Agent, logical, (), collector)
    # A suite holds thousands of test cases and turns, and one of their fields can hold a
    # converted value (`files`): look for it before anything else.
    case_keys, turn_keys = tuple(_plan(TestCaseModel)), tuple(_plan(Turn))
    for path, exchange in found.exchanges:
        exchange_model: type[BaseModel] = TestCaseModel if len(path) == 2 else Turn
        for key in case_keys if len(path) == 2 else turn_keys:
            if key in exchange:
                _check(exchange_model, exchange, path, collector)
                break
    for at, metric in found.metrics:
        metric_model = _METRICS.get(metric_kind(metric))
        if metric_model is not None:
            _check(metric_model, metric, at, collector)


def _check(model: type[BaseModel], data: Any, at: YamlPath, collector: Collector) -> None:
    if not isinstance(data, dict):
        return
    plan = _plan(model)
    # The shorter side drives: a metric writes 3 of its 17 fields, a turn holds 1 of ours.
    if len(data) < len(plan):
        steps = [(k, plan[k], v) for k, v in data.items() if isinstance(k, str) and k in plan]
    else:
        steps = [(k, step, data[k]) for k, step in plan.items() if k in data]
    for key, step, value in steps:
        if isinstance(step, _Scalar):
            kind = type(value)
            if kind is step.kind or (kind is int and step.kind is float):
                continue  # written as meant: most values, on every keystroke
            for where, item in _items(step.container, value, (*at, key)):
                message = _lax(step, item)
                if message is not None and not _refused(collector, where):
                    text, meant = message
                    collector.emit(where, "HL111", text, data={"replace_value": _literal(meant)})
            continue
        if step.container == "list" and isinstance(value, list):
            for i, item in enumerate(value):
                _check_one(step.models, item, (*at, key, i), collector)
        elif step.container == "dict" and isinstance(value, dict):
            for name, item in value.items():
                _check_one(step.models, item, (*at, key, name), collector)
        elif step.container == "one":
            _check_one(step.models, value, (*at, key), collector)


def as_read(model: type[BaseModel], field: str, value: Any) -> Any:
    """The value ``model`` reads for ``value`` at ``field``: converted as HoloDeck converts
    it, else ``value`` as written (not a convertible field, or a value it refuses)."""
    step = _plan(model).get(field)
    if not isinstance(step, _Scalar) or step.container != "one":
        return value
    try:
        return step.accepts.validate_python(value)
    except ValidationError:
        return value


def _items(container: str, value: Any, at: YamlPath) -> list[tuple[YamlPath, Any]]:
    if container == "list":
        return [((*at, i), v) for i, v in enumerate(value)] if isinstance(value, list) else []
    if container == "dict":
        return [((*at, k), v) for k, v in value.items()] if isinstance(value, dict) else []
    return [(at, value)]


def _check_one(
    models: tuple[type[BaseModel], ...], value: Any, at: YamlPath, collector: Collector
) -> None:
    if not isinstance(value, dict):
        return
    if len(models) > 1:  # a union told apart by `type` (tools); metrics come from places
        kind = value.get("type")
        chosen = [m for m in models if kind in literal_values(m.model_fields.get("type"))]
        if len(chosen) != 1:
            return
        models = (chosen[0],)
    _check(models[0], value, at, collector)


def _lax(step: _Scalar, value: Any) -> tuple[str, Any] | None:
    """What a coerced value says and the value HoloDeck reads, or None."""
    if step.kind is bool:
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            return None
    elif not isinstance(value, (str, bool)):
        return None
    try:
        meant = step.accepts.validate_python(value)
    except ValidationError:
        return None  # refused: the model's own error says so
    if meant is None:
        return None
    shown = _yaml(meant)
    if step.kind is bool:
        what = f"{value!r} is text" if isinstance(value, str) else f"{value} is a number"
        return (f"{what} where true or false belongs; HoloDeck reads it as {shown}; "
                f"write {shown}", meant)
    if isinstance(value, bool):
        return (f"{_yaml(value)} where a number belongs; HoloDeck reads it as {shown}; "
                "write the number", meant)
    return (f"{value!r} is text where a number belongs; HoloDeck reads it as {shown}; "
            "write it without quotes", meant)


def _refused(collector: Collector, path: YamlPath) -> bool:
    """Whether the models already gave an error there (a bound a field validator checks)."""
    doc, _span = collector.span_for(path)
    shown = format_path(path)
    given = collector.by_file.get(doc.file, [])
    return any(d.path == shown and d.severity is Severity.ERROR for d in given)


def _literal(value: Any) -> Any:
    """``value`` as the quick fix writes it: a YAML float spelling for NaN and infinities."""
    if isinstance(value, float) and not math.isfinite(value):
        return ".nan" if math.isnan(value) else ("-.inf" if value < 0 else ".inf")
    return value


def _yaml(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@functools.cache
def _plan(model: type[BaseModel]) -> dict[str, _Scalar | _Nested]:
    """Per field of ``model`` that can hold a converted value: the scalar HoloDeck converts
    into, or the models below it (fields `places` walks are left to it)."""
    plan: dict[str, _Scalar | _Nested] = {}
    skipped = _PLACES_KEYS.get(model, set())
    for name, field in model.model_fields.items():
        step = _scalar(field) or _nested(field)
        if name in skipped or step is None:
            continue
        if isinstance(step, _Nested) and not any(_plan(m) for m in step.models):
            continue  # nothing below converts (expected_tools: names, args, a strict count)
        plan[name] = step
    return plan


def _scalar(field: FieldInfo) -> _Scalar | None:
    if any(_decides(meta) for meta in field.metadata):
        return None  # strict, or a validator of its own decides what it takes
    base, container = unwrap(field.annotation), "one"
    origin = typing.get_origin(base)
    if origin in (list, dict):
        item = typing.get_args(base)[-1] if typing.get_args(base) else None
        if any(_decides(meta) for meta in _metadata(item)):
            return None
        base, container = unwrap(item), origin.__name__
        bounds: tuple[Any, ...] = ()  # a list's bounds (`min_length`) are not its items'
    else:
        bounds = tuple(field.metadata)
    if base not in _SCALARS:
        return None
    shape: Any = base
    if bounds:  # the field's own (`ge`, ...): a value they refuse is the model's error
        params = (base, *bounds)
        shape = typing.Annotated[params]
    return _Scalar(base, TypeAdapter(shape), container)


def _metadata(tp: Any) -> tuple[Any, ...]:
    return tuple(typing.get_args(tp)[1:]) if typing.get_origin(tp) is typing.Annotated else ()


def _decides(meta: Any) -> bool:
    name = type(meta).__name__
    return name == "Strict" or name.endswith("Validator")


def _nested(field: FieldInfo) -> _Nested | None:
    models = tuple(models_within(field.annotation))
    if not models:
        return None
    origin = typing.get_origin(unwrap(field.annotation))
    container = "list" if origin is list else "dict" if origin is dict else "one"
    return _Nested(models, container)
