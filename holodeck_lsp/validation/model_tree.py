"""Walk the Pydantic models along a YAML path: which model, field and type stand there.

Used for did-you-mean candidates, completion and hover, so that every list of keys
and values comes from the models themselves.
"""

from __future__ import annotations

import types
import typing
from enum import Enum
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from holodeck_lsp.validation.yaml.source_map import YamlPath

_UNION_TYPES = (Union, types.UnionType)


def unwrap(tp: Any) -> Any:
    """Strip ``Annotated`` and ``Optional`` (``X | None``) from a type."""
    while True:
        if get_origin(tp) is typing.Annotated:
            tp = get_args(tp)[0]
            continue
        if get_origin(tp) in _UNION_TYPES:
            members = [a for a in get_args(tp) if a is not type(None)]
            if len(members) == 1:
                tp = members[0]
                continue
        return tp


def union_members(tp: Any) -> list[Any]:
    tp = unwrap(tp)
    if get_origin(tp) in _UNION_TYPES:
        return [m for a in get_args(tp) if a is not type(None) for m in union_members(a)]
    return [tp]


def _tag_of(member: Any) -> set[str]:
    """Every name a union member may be called by in an error location."""
    names: set[str] = set()
    if get_origin(member) is typing.Annotated:
        for meta in get_args(member)[1:]:
            tag = getattr(meta, "tag", None)
            if isinstance(tag, str):
                names.add(tag)
    base = unwrap(member)
    if isinstance(base, type):
        names.add(base.__name__)
        if issubclass(base, BaseModel):
            names.update(str(v) for v in literal_values(base.model_fields.get("type")))
    return names


def literal_values(field: FieldInfo | Any) -> list[Any]:
    """The allowed values of a Literal or Enum field (empty for anything else)."""
    tp = field.annotation if isinstance(field, FieldInfo) else field
    values: list[Any] = []
    for member in union_members(tp):
        if get_origin(member) is Literal:
            values.extend(get_args(member))
        elif isinstance(member, type) and issubclass(member, Enum):
            values.extend(e.value for e in member)
    return values


def models_in(tp: Any) -> list[type[BaseModel]]:
    """The models a value of type ``tp`` may be (several for a union)."""
    out = []
    for member in union_members(tp):
        base = unwrap(member)
        if isinstance(base, type) and issubclass(base, BaseModel):
            out.append(base)
    return out


def models_within(tp: Any) -> list[type[BaseModel]]:
    """Every model a value of type ``tp`` may hold: itself, its items, its values."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [tp]
    out: list[type[BaseModel]] = []
    for arg in get_args(tp):
        out.extend(m for m in models_within(arg) if m not in out)
    return out


def is_union_tag(tp: Any, segment: Any) -> bool:
    """Whether ``segment`` names a member of the union ``tp`` (a tag in an error loc)."""
    base = unwrap(tp)
    if get_origin(base) not in _UNION_TYPES or not isinstance(segment, str):
        return False
    return any(segment in _tag_of(member) for member in get_args(base))


def step_type(tp: Any, segment: Any) -> Any | None:
    """The type one key, index or union tag below ``tp``."""
    return _step(tp, segment)


def _step(tp: Any, segment: Any) -> Any | None:
    members = (
        [tp] if get_origin(unwrap(tp)) not in _UNION_TYPES else [m for m in get_args(unwrap(tp))]
    )
    for member in members:
        if isinstance(segment, str) and segment in _tag_of(member):
            return member
    for member in members:
        base = unwrap(member)
        origin = get_origin(base)
        if isinstance(base, type) and issubclass(base, BaseModel):
            field = base.model_fields.get(segment) if isinstance(segment, str) else None
            if field is not None:
                return field.annotation
        elif origin in (list, tuple) and isinstance(segment, int):
            return get_args(base)[0]
        elif origin is dict:
            return get_args(base)[1]
    return None


def type_at(root: type[BaseModel], loc: YamlPath) -> Any | None:
    """The declared type at an error location or YAML path (tags allowed, not required)."""
    tp: Any = root
    for segment in loc:
        nxt = _step(tp, segment)
        if nxt is None:
            return None
        tp = nxt
    return tp


def keys_at(root: type[BaseModel], loc: YamlPath, data: Any = None) -> list[str]:
    """The keys a mapping at ``loc`` may hold; a union narrowed by the data's ``type``."""
    parent = type_at(root, loc)
    candidates = models_in(parent) if parent is not None else []
    if len(candidates) > 1 and isinstance(data, dict) and "type" in data:
        typed = [
            m for m in candidates if data["type"] in literal_values(m.model_fields.get("type"))
        ]
        candidates = typed or candidates
    keys: list[str] = []
    for model in candidates:
        keys.extend(k for k in model.model_fields if k not in keys)
    return keys
