"""An agent's own tools as HoloDeck's Claude Agent SDK backend declares them to the model,
for `anthropic` and `ollama` agents (`lib/backends/tool_adapters.py`): each description cut
to 200 characters (the last three `...`), and schemas the SDK builds from Python types,
without `additionalProperties`: `{query: str}` for a document search, the function's
signature for a function tool (its YAML `parameters` unread; every parameter required,
defaults or not; an annotation the SDK has no rule for is text).
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable
from typing import Any

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.llm import ProviderEnum

MAX_DESCRIPTION = 200
SEARCH_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {"query": {"type": "string"}},
    "required": ["query"],
}
_SCALARS: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


def uses_claude_adapter(agent: Agent) -> bool:
    return agent.model.provider in (ProviderEnum.ANTHROPIC, ProviderEnum.OLLAMA)


def cut(description: str) -> str:
    if len(description) <= MAX_DESCRIPTION:
        return description
    return description[: MAX_DESCRIPTION - 3] + "..."


def type_schema(annotation: Any) -> dict[str, Any]:
    """The JSON Schema the SDK gives a parameter of this annotation."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        base, *extras = typing.get_args(annotation)
        doc = next((e for e in extras if isinstance(e, str)), None)
        return {**type_schema(base), "description": doc} if doc is not None else type_schema(base)
    for scalar, name in _SCALARS.items():
        if annotation is scalar:
            return {"type": name}
    if origin is typing.Union or isinstance(annotation, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(members) == 1:
            return type_schema(members[0])
        return {"anyOf": [type_schema(a) for a in members]}
    if annotation is list or origin is list:
        items = typing.get_args(annotation)
        return {"type": "array", "items": type_schema(items[0])} if items else {"type": "array"}
    if annotation is dict or origin is dict:
        return {"type": "object"}
    if typing.is_typeddict(annotation):
        fields = typing.get_type_hints(annotation, include_extras=True)
        shape: dict[str, Any] = {
            "type": "object",
            "properties": {k: type_schema(v) for k, v in fields.items()},
        }
        required = getattr(annotation, "__required_keys__", set(fields))
        if required:
            shape["required"] = sorted(required)
        return shape
    return {"type": "string"}


def function_schema(fn: Callable[..., Any]) -> dict[str, Any]:
    """A function tool's schema: one property per parameter of the signature."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        params = []
    try:
        hints = typing.get_type_hints(fn)  # Annotated's extras dropped, as HoloDeck reads them
    except Exception:  # an annotation that does not resolve: the raw one is used
        hints = {}
    properties = {
        p.name: type_schema(hints.get(p.name, p.annotation if p.annotation is not p.empty
                                      else Any))
        for p in params
        if p.name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    }  # fmt: skip
    return {"type": "object", "properties": properties, "required": list(properties)}
