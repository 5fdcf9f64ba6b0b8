"""Function tools (`type: function`): a Python function offered with its JSON schema."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from holodeck_lsp.runner.threads import UserCodeExit, describe, in_thread
from holodeck_lsp.runner.tools.base import FunctionSpec, ToolContext, ToolOutput, ToolRaised

_JSON_TYPES = {
    int: "integer",
    float: "number",
    str: "string",
    bool: "boolean",
    list: "array",
    dict: "object",
}


def _schema_from_config(parameters: dict[str, dict[str, Any]]) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, schema in parameters.items():
        prop = dict(schema)
        flag = prop.pop("required", None)  # a per-parameter flag is not JSON Schema
        if flag is not False and "default" not in prop:
            required.append(name)
        properties[name] = prop
    return {"type": "object", "properties": properties, "required": required}


def _schema_from_signature(fn: Callable[..., Any]) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    required: list[str] = []
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return {"type": "object", "properties": {}}
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        kind = _JSON_TYPES.get(p.annotation) if isinstance(p.annotation, type) else None
        if kind is None and isinstance(p.annotation, str):
            kind = {"int": "integer", "float": "number", "str": "string", "bool": "boolean"}.get(
                p.annotation
            )
        properties[p.name] = {"type": kind} if kind else {}
        if p.default is p.empty:
            required.append(p.name)
    return {"type": "object", "properties": properties, "required": required}


class FunctionKind:
    """One function tool; the function is imported when the run is set up."""

    is_retrieval = False

    def __init__(
        self,
        name: str,
        description: str,
        fn: Callable[..., Any],
        parameters: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        self.tool_name = name
        self._fn = fn
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
            raise ToolRaised(f"UserError: Error running tool {name}: {describe(exc)}") from None
        except Exception as exc:
            shown = exc.original if isinstance(exc, UserCodeExit) else exc
            raise ToolRaised(f"UserError: Error running tool {name}: {shown}") from exc
        return ToolOutput(str(result))

    async def close(self) -> None:
        return None
