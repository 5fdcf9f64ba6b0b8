"""Function tools: their JSON schemas for the model, and their execution when called."""

from __future__ import annotations

import inspect
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from holodeck_lsp.models.test_result import ToolInvocation
from holodeck_lsp.runner.backends.base import AgentRunFailed
from holodeck_lsp.runner.threads import in_thread

_JSON_TYPES = {
    int: "integer",
    float: "number",
    str: "string",
    bool: "boolean",
    list: "array",
    dict: "object",
}


@dataclass(frozen=True)
class FunctionSpec:
    """A callable tool as the model sees it."""

    name: str
    description: str
    parameters: dict[str, Any]  # a JSON Schema of type object


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


class ToolBox:
    """The agent's function tools, by name."""

    def __init__(self) -> None:
        self._functions: dict[str, Callable[..., Any]] = {}
        self.specs: list[FunctionSpec] = []

    def add(
        self,
        name: str,
        description: str,
        fn: Callable[..., Any],
        parameters: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        schema = _schema_from_config(parameters) if parameters else _schema_from_signature(fn)
        self._functions[name] = fn
        self.specs.append(FunctionSpec(name, description, schema))

    def __bool__(self) -> bool:
        return bool(self._functions)

    async def call(self, name: str, args: dict[str, Any]) -> tuple[ToolInvocation, str]:
        """Run one call; returns the invocation record and the text handed back to the model.

        The model gets `str()` of what the tool returned, and the record holds that same
        text, as `holodeck test` reports it. A tool that raises fails the agent's run (the
        turn), as it does in `holodeck test`.
        """
        start = time.perf_counter()
        fn = self._functions.get(name)
        if fn is None:
            error = f"unknown tool '{name}'"
            return ToolInvocation(name=name, args=args, error=error), f"error: {error}"
        try:
            if inspect.iscoroutinefunction(fn):
                result = await fn(**args)
            else:
                # A thread keeps a slow tool from stalling the other test cases.
                result = await in_thread(fn, **args)
        except Exception as exc:
            raise AgentRunFailed(f"UserError: Error running tool {name}: {exc}") from exc
        text = str(result)
        invocation = ToolInvocation(
            name=name,
            args=args,
            result=text,
            bytes=len(json.dumps(text)),
            duration_ms=int((time.perf_counter() - start) * 1000),
        )
        return invocation, text


def parse_arguments(raw: Any) -> tuple[dict[str, Any], str | None]:
    """Tool-call arguments as a mapping; a JSON string is decoded. Returns (args, problem)."""
    if isinstance(raw, dict):
        return raw, None
    if raw in (None, ""):
        return {}, None
    if isinstance(raw, str):
        try:
            value = json.loads(raw)
        except ValueError as exc:
            return {}, f"arguments are not valid JSON: {exc}"
        if isinstance(value, dict):
            return value, None
    return {}, f"arguments must be a JSON object, got {raw!r}"
