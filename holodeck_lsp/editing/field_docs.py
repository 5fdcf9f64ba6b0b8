"""What a field is, read from the models: its type, default, allowed values and description.

Hover and completion show this text; nothing here is written by hand beyond the
wording of the labels.
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, SecretStr
from pydantic.fields import FieldInfo

from holodeck_lsp.models.test_case import MATCHER_DOCS, MATCHER_KEYS, ExpectedTool
from holodeck_lsp.validation.model_tree import literal_values, models_in, type_at, unwrap
from holodeck_lsp.validation.yaml.source_map import YamlPath

_UNIONS = (Union, types.UnionType)
_NAMES: dict[Any, str] = {
    str: "text",
    int: "integer",
    float: "number",
    bool: "boolean",
    Any: "any",
    SecretStr: "text (secret)",
    type(None): "null",
}


def type_label(tp: Any) -> str:
    """A short reader-facing name of a declared type (`list of Turn`, `text`, ...)."""
    tp = unwrap(tp)
    origin = get_origin(tp)
    if origin in _UNIONS:
        members = [m for m in get_args(tp) if m is not type(None)]
        labels: list[str] = []
        for member in members:
            label = type_label(member)
            if label not in labels:
                labels.append(label)
        return " or ".join(labels)
    if origin is Literal or (isinstance(tp, type) and issubclass(tp, Enum)):
        return "text"
    if origin in (list, tuple, set):
        args = get_args(tp)
        return f"list of {type_label(args[0])}" if args else "list"
    if origin is dict:
        key, value = get_args(tp) or (Any, Any)
        return f"mapping of {type_label(key)} to {type_label(value)}"
    if origin is typing.Annotated:
        return type_label(get_args(tp)[0])
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return tp.__name__
    return _NAMES.get(tp, getattr(tp, "__name__", str(tp)))


def yaml_text(value: Any) -> str:
    """How a default or allowed value is written in YAML."""
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(yaml_text(v) for v in value) + "]"
    return str(value)


@dataclass(frozen=True)
class FieldDoc:
    name: str
    type: str
    required: bool
    default: str | None  # YAML text of the default, None when there is none
    description: str
    allowed: tuple[str, ...]  # the values a Literal/Enum field accepts
    item: str | None = None  # the docstring of the model the value is (or lists)


def _allowed(info: FieldInfo) -> tuple[str, ...]:
    values = literal_values(info)
    if not values and unwrap(info.annotation) is bool:
        values = [True, False]
    return tuple(yaml_text(v) for v in values)


def _item_doc(tp: Any) -> str | None:
    base = unwrap(tp)
    if get_origin(base) in (list, tuple):
        base = get_args(base)[0] if get_args(base) else base
    models = models_in(base)
    if len(models) == 1 and models[0].__doc__:
        return models[0].__doc__.strip().splitlines()[0]
    return None


def describe_field(name: str, info: FieldInfo) -> FieldDoc:
    required = info.is_required()
    default: str | None = None
    if not required:
        value = info.get_default(call_default_factory=True)
        default = None if value is None else yaml_text(value)
    return FieldDoc(
        name=name,
        type=type_label(info.annotation),
        required=required,
        default=default,
        description=(info.description or "").strip(),
        allowed=_allowed(info),
        item=_item_doc(info.annotation),
    )


def parent_models(
    root: type[BaseModel], parent: YamlPath, data: Any = None
) -> list[type[BaseModel]]:
    """The models a mapping at ``parent`` may be, narrowed by its `type` when written."""
    tp = type_at(root, parent)
    models = models_in(tp) if tp is not None else []
    if len(models) > 1 and isinstance(data, dict) and data.get("type") is not None:
        typed = [
            m
            for m in models
            if str(data["type"]) in map(str, literal_values(m.model_fields.get("type")))
        ]
        models = typed or models
    if len(models) > 1 and isinstance(data, dict) and data:
        # Without a `type`, the members that declare every key written so far.
        fitting = [m for m in models if set(map(str, data)) <= set(m.model_fields)]
        models = fitting or models
    return models


def is_matcher_mapping(root: type[BaseModel], path: YamlPath) -> bool:
    """Whether ``path`` is an argument's value under an expected tool's `args`."""
    return (
        len(path) >= 2
        and path[-2] == "args"
        and ExpectedTool in models_in(type_at(root, path[:-2]) or type(None))
    )


def matcher_doc(key: str) -> FieldDoc:
    """The matcher's own documentation (`fuzzy`, `regex`), not that of `args`."""
    return FieldDoc(key, "text", True, None, MATCHER_DOCS[key], ())


def field_doc(root: type[BaseModel], path: YamlPath, data: Any = None) -> FieldDoc | None:
    """The documentation of the field a path's last key names (None if no field)."""
    if not path or not isinstance(path[-1], str):
        return None
    if is_matcher_mapping(root, path[:-1]) and path[-1] in MATCHER_KEYS:
        return matcher_doc(path[-1])
    docs = [
        describe_field(path[-1], model.model_fields[path[-1]])
        for model in parent_models(root, path[:-1], data)
        if path[-1] in model.model_fields
    ]
    if not docs:
        return None
    first = docs[0]
    allowed: list[str] = []
    for doc in docs:  # a union's `type` field: every member's value
        allowed.extend(v for v in doc.allowed if v not in allowed)
    # Union members may disagree (each `type` defaults to its own value): claim only
    # what every member says.
    required = all(doc.required for doc in docs)
    defaults = {doc.default for doc in docs}
    default = first.default if len(defaults) == 1 else None
    return FieldDoc(
        first.name, first.type, required, default, first.description, tuple(allowed), first.item
    )


def render(doc: FieldDoc, markdown: bool = True) -> str:
    """Hover/completion documentation of a field."""
    code = (lambda s: f"`{s}`") if markdown else (lambda s: s)
    head = f"**{doc.name}**" if markdown else doc.name
    facts = [
        doc.type,
        "required"
        if doc.required
        else (f"default {code(doc.default)}" if doc.default is not None else "optional"),
    ]
    parts = [f"{head} ({', '.join(facts)})"]
    if doc.description:
        parts.append(doc.description if markdown else doc.description.replace("`", ""))
    if doc.allowed and doc.allowed != ("true", "false"):
        parts.append("Allowed values: " + ", ".join(code(v) for v in doc.allowed))
    if doc.item:
        parts.append(f"Each value: {doc.item}" if "list" in doc.type else doc.item)
    return "\n\n".join(parts)
