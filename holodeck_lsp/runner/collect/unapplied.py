"""The warnings a run starts with: each field of the agent that `holodeck test` would act
on and `run` does not apply (`field_table.Status.NOT_APPLIED`), once per field, naming
where it is written and why it is not applied."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.runner.collect.field_table import ROWS, Row, Status, row_for
from holodeck_lsp.validation.model_tree import models_within
from holodeck_lsp.validation.yaml.path_text import format_path
from holodeck_lsp.validation.yaml.source_map import YamlPath

_SHOWN_PLACES = 3


def unapplied_warnings(agent: Agent) -> list[str]:
    """One line per not-applied field of the table `holodeck test` acts on in ``agent``."""
    provider = agent.model.provider.value
    found: dict[tuple[Row, tuple[str, ...]], list[YamlPath]] = {}
    for row, names, at in _walk(agent, (), provider):
        found.setdefault((row, names), []).append(at)
    lines = []
    for (row, names), places in found.items():
        shown = [format_path((*at, names[0])) for at in places[:_SHOWN_PLACES]]
        more = len(places) - len(shown)
        where = ", ".join(shown) + (f" and {more} more" if more else "")
        also = f" (with {', '.join(names[1:])})" if len(names) > 1 else ""
        lines.append(f"{where}{also} is not applied: {row.run}")
    return lines


Found = tuple[Row, tuple[str, ...], YamlPath]  # a row, its fields acted on, where


def _walk(obj: BaseModel, at: YamlPath, provider: str) -> Iterator[Found]:
    cls = type(obj)
    done: set[Row] = set()
    for name in cls.model_fields:
        row = row_for(cls.__name__, name)
        if row is None or row in done:
            continue
        done.add(row)
        if row.status is Status.NOT_APPLIED:
            names = _acted_on(obj, row, provider)
            if names:
                yield row, names, at
            continue  # what is inside a field that is not applied is not applied either
        for field in row.fields:
            value = getattr(obj, field, None)
            for below, child in _children(value, (*at, field)):
                if _may_warn(type(child)):
                    yield from _walk(child, below, provider)


def _acted_on(obj: BaseModel, row: Row, provider: str) -> tuple[str, ...]:
    """The row's fields `holodeck test` acts on in ``obj`` (empty: none)."""
    if row.providers is not None and provider not in row.providers:
        return ()
    written = tuple(
        name for name in row.fields if name in obj.model_fields_set and _not_default(obj, name)
    )
    if row.acts is None:
        return written
    return (written or row.fields[:1]) if row.acts(obj, provider) else ()


def _not_default(obj: BaseModel, name: str) -> bool:
    field = type(obj).model_fields[name]
    value = getattr(obj, name)
    default = field.get_default(call_default_factory=True)
    return bool(value != default)


def _children(value: Any, at: YamlPath) -> Iterator[tuple[YamlPath, BaseModel]]:
    if isinstance(value, BaseModel):
        yield at, value
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, BaseModel):
                yield (*at, i), item
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, BaseModel):
                yield (*at, key), item


_NOT_APPLIED_MODELS = frozenset(r.model for r in ROWS if r.status is Status.NOT_APPLIED)


@functools.cache
def _may_warn(cls: type[BaseModel]) -> bool:
    """Whether a not-applied field can stand in ``cls`` or below it (the walk skips the
    rest: a suite's thousand test cases hold few such fields)."""
    return _reaches(cls, frozenset())


def _reaches(cls: type[BaseModel], seen: frozenset[type[BaseModel]]) -> bool:
    if cls.__name__ in _NOT_APPLIED_MODELS:
        return True
    if cls in seen:
        return False
    inner = seen | {cls}
    fields = cls.model_fields.values()
    return any(_reaches(sub, inner) for f in fields for sub in models_within(f.annotation))
