"""The interface every tool kind implements, and what a tool call gives back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from holodeck_lsp.nesting import TooDeep, loads


@dataclass(frozen=True)
class FunctionSpec:
    """A callable tool as the model sees it."""

    name: str
    description: str
    parameters: dict[str, Any]  # a JSON Schema of type object


_TEXT = object()  # ToolOutput.value unset: the report records the text


@dataclass
class ToolOutput:
    """What one call gave back."""

    text: str  # exactly what the model is given back
    value: Any = _TEXT  # what the report records as the call's result (JSON); default: text
    retrieval: list[str] | None = None  # chunks for retrieval_context (retrieval tools only)
    error: str | None = None  # the tool answered, reporting an error (the text says which)

    @property
    def recorded(self) -> Any:
        return self.text if self.value is _TEXT else self.value


@dataclass(frozen=True)
class ToolContext:
    """What tool kinds may need to start: where the agent lives, its environment, flags."""

    agent_dir: Path
    env: Mapping[str, str] = field(default_factory=dict)
    isolate_mcp: bool = False  # MCP servers per test case instead of shared by the run
    reingest: bool = False
    cache_dir: Path | None = None
    # Tool name -> where its database came from, when not from the agent file itself.
    database_origins: Mapping[str, str] = field(default_factory=dict)


class ToolStartError(Exception):
    """A tool could not be started in preflight: the run stops (exit 2) before any call."""

    def __init__(
        self,
        tool: str,
        message: str,
        stderr_tail: str | None = None,
        notes: list[str] | None = None,
    ) -> None:
        super().__init__(message)
        self.tool = tool  # the YAML tool's `name`
        self.message = message
        self.stderr_tail = stderr_tail  # the last lines a server wrote to stderr, if any
        self.notes = notes or []  # lines after the tail: what the server had, how to fix it


class ToolCallError(Exception):
    """A call the tool answered with an error; the message goes to the model as is."""


class ToolRaised(Exception):
    """A function tool raised: as in `holodeck test`, the agent's run (the turn) fails with
    it, instead of the error going back to the model."""


class ToolKind(Protocol):
    """One YAML tool entry, whatever its `type`."""

    tool_name: str  # the YAML tool's `name`
    is_retrieval: bool  # its results feed retrieval_context

    async def start(self, ctx: ToolContext) -> list[FunctionSpec]:
        """Connect, list, ingest; the functions offered to the model. Raises ToolStartError."""
        ...

    async def call(self, name: str, args: dict[str, Any]) -> ToolOutput:
        """One call by the name the model saw; any exception is reported as the call's error."""
        ...

    async def close(self) -> None: ...


@runtime_checkable
class PerCaseKind(ToolKind, Protocol):
    """A kind that can run one instance per test case (MCP servers with --isolate-mcp)."""

    def fresh(self) -> ToolKind:
        """A new, unstarted instance with the same configuration."""
        ...

    def per_case(self, ctx: ToolContext) -> bool:
        """Whether this run wants one instance per test case."""
        ...


def parse_arguments(raw: Any) -> tuple[dict[str, Any], str | None]:
    """Tool-call arguments as a mapping; a JSON string is decoded. Returns (args, problem)."""
    if isinstance(raw, dict):
        return raw, None
    if raw in (None, ""):
        return {}, None
    if isinstance(raw, str):
        try:
            value = loads(raw)
        except TooDeep as exc:
            return {}, f"the arguments hold {exc}"
        except ValueError as exc:
            return {}, f"arguments are not valid JSON: {exc}"
        if isinstance(value, dict):
            return value, None
    return {}, f"arguments must be a JSON object, got {raw!r}"
