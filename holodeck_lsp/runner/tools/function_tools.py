"""Function tools (`type: function`): a Python function offered with its JSON schema."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from typing import Any

from holodeck_lsp.nesting import MAX_FILE_DEPTH, TooDeep, check_depth
from holodeck_lsp.runner.services.user_threads import UserCodeExit, exception_line, in_thread
from holodeck_lsp.runner.tools.claude_adapter import cut, function_schema
from holodeck_lsp.runner.tools.tool_kind import (
    FunctionSpec,
    ToolCallError,
    ToolContext,
    ToolOutput,
    ToolRaised,
)

_JSON_TYPES = {
    int: "integer",
    float: "number",
    str: "string",
    bool: "boolean",
    list: "array",
    dict: "object",
}


def _closed(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    # HoloDeck gives every function tool `additionalProperties: false` (its calls are not
    # strict, so the model is told, not forced).
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def _schema_from_config(parameters: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """As `holodeck test` sends declared parameters: each as written, every one required
    (a per-parameter `required: false` is sent along, and changes nothing)."""
    return _closed({name: dict(schema) for name, schema in parameters.items()}, list(parameters))


def _json_type(annotation: Any) -> str:
    """A parameter's JSON type as HoloDeck derives it: the annotation's class (or its
    generic's, `list[str]` is an array), and text for anything else, none included."""
    if isinstance(annotation, type) and annotation in _JSON_TYPES:
        return _JSON_TYPES[annotation]
    origin = typing.get_origin(annotation)
    if isinstance(origin, type) and origin in _JSON_TYPES:
        return _JSON_TYPES[origin]
    return "string"


def _schema_from_signature(fn: Callable[..., Any]) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    required: list[str] = []
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return _closed({}, [])
    try:
        hints = typing.get_type_hints(fn)
    except Exception:  # an annotation that does not resolve: the raw one is used
        hints = {}
    for p in params:
        if p.name in ("self", "cls") or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        properties[p.name] = {"type": _json_type(hints.get(p.name, p.annotation))}
        if p.default is p.empty:
            required.append(p.name)
    return _closed(properties, required)


class FunctionKind:
    """One function tool; the function is imported when the run is set up."""

    is_retrieval = False

    def __init__(
        self,
        name: str,
        description: str,
        fn: Callable[..., Any],
        parameters: dict[str, dict[str, Any]] | None = None,
        claude_code: bool = False,
    ) -> None:
        self.tool_name = name
        self._fn = fn
        if claude_code:  # as HoloDeck's Claude backend declares it
            self.spec = FunctionSpec(name, cut(description), function_schema(fn))
            return
        schema = _schema_from_config(parameters) if parameters else _schema_from_signature(fn)
        self.spec = FunctionSpec(name, description, schema)

    async def start(self, ctx: ToolContext) -> list[FunctionSpec]:
        return [self.spec]

    async def call(self, name: str, args: dict[str, Any]) -> ToolOutput:
        """The model is handed `str()` of what the function returned, and the report records
        that same text, as `holodeck test` does; a function that raises fails the turn."""
        try:
            if inspect.iscoroutinefunction(self._fn):
                result = await self._fn(**args)
            else:
                # A thread keeps a slow tool from stalling the other test cases.
                result = await in_thread(self._fn, **args)
        except (SystemExit, KeyboardInterrupt) as exc:
            line = exception_line(exc)
            raise ToolRaised(f"UserError: Error running tool {name}: {line}") from None
        except Exception as exc:
            shown = exc.original if isinstance(exc, UserCodeExit) else exc
            raise ToolRaised(f"UserError: Error running tool {name}: {shown}") from exc
        try:  # `str` recurses once per level
            check_depth(result, MAX_FILE_DEPTH)
        except TooDeep as exc:
            raise ToolCallError(f"the tool's result holds {exc}") from None
        return ToolOutput(str(result))

    async def close(self) -> None:
        return None
