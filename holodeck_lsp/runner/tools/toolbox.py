"""All of an agent's tools: started together before the first test case (preflight),
each call routed to its tool by the name the model saw, all closed after the last case."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterable
from typing import Any

from holodeck_lsp.models.test_result import ToolInvocation
from holodeck_lsp.nesting import TooDeep, check_depth
from holodeck_lsp.runner.services.user_threads import exception_line
from holodeck_lsp.runner.tools.tool_kind import (
    FunctionSpec,
    PerCaseKind,
    ToolCallError,
    ToolContext,
    ToolKind,
    ToolOutput,
    ToolRaised,
    ToolStartError,
)


class PreflightError(Exception):
    """Some tools did not start; every failure is listed, each naming its tool."""

    def __init__(self, failures: list[ToolStartError]) -> None:
        super().__init__("; ".join(f"tool '{f.tool}': {f.message}" for f in failures))
        self.failures = failures


async def _start_all(
    kinds: list[ToolKind], ctx: ToolContext
) -> tuple[list[tuple[ToolKind, list[FunctionSpec]]], list[ToolStartError]]:
    """Start every kind at once; (started kinds with their functions, failures)."""
    results = await asyncio.gather(*(k.start(ctx) for k in kinds), return_exceptions=True)
    started: list[tuple[ToolKind, list[FunctionSpec]]] = []
    failures: list[ToolStartError] = []
    for kind, result in zip(kinds, results, strict=True):
        if isinstance(result, ToolStartError):
            failures.append(result)
        elif isinstance(result, Exception):
            failures.append(ToolStartError(kind.tool_name, f"{type(result).__name__}: {result}"))
        elif isinstance(result, BaseException):
            raise result
        else:
            started.append((kind, result))
    return started, failures


async def _close_all(kinds: Iterable[ToolKind]) -> None:
    await asyncio.gather(*(k.close() for k in kinds), return_exceptions=True)


async def _invoke(
    kind: ToolKind | None, name: str, args: dict[str, Any]
) -> tuple[ToolInvocation, ToolOutput]:
    start = time.perf_counter()
    output: ToolOutput | None = None
    error: str | None = None
    if kind is None:
        error = f"unknown tool '{name}'"
    elif (deep := _too_deep(args)) is not None:  # from a replay: checked to its file's depth
        error, args = f"the arguments hold {deep}", {}
    else:
        try:
            output = await kind.call(name, args)
        except ToolCallError as exc:
            error = str(exc)
        except ToolRaised:
            raise
        except Exception as exc:
            error = exception_line(exc)
        # Before the report, masking and the model's next request walk it.
        if output is not None and (deep := _too_deep(output.recorded)) is not None:
            output, error = None, f"the tool's result holds {deep}"
    duration = int((time.perf_counter() - start) * 1000)
    answered = output is not None
    if output is None:
        output = ToolOutput(f"error: {error}", None)
    else:
        error = output.error  # the tool's own error: the model still gets its text
    invocation = ToolInvocation(
        name=name,
        args=args,
        result=output.recorded,
        # As `holodeck test` counts it: the size of the recorded result as JSON.
        bytes=len(json.dumps(output.recorded, default=str)) if answered else 0,
        duration_ms=duration,
        error=error,
    )
    return invocation, output


def _too_deep(value: Any) -> TooDeep | None:
    try:
        check_depth(value)
    except TooDeep as exc:
        return exc
    return None


class CaseTools:
    """The tools one test case calls: the run's shared ones, and its own instances of
    per-case kinds (MCP servers under --isolate-mcp)."""

    def __init__(self, box: ToolBox, own: dict[int, ToolKind] | None = None) -> None:
        self._box = box
        self._own = own or {}  # id(shared kind) -> this case's instance

    async def call(self, name: str, args: dict[str, Any]) -> tuple[ToolInvocation, ToolOutput]:
        """Run one call: the invocation for the report and the output for the model."""
        kind = self._box.route(name)
        if kind is not None:
            kind = self._own.get(id(kind), kind)
        return await _invoke(kind, name, args)

    async def close(self) -> None:
        await _close_all(self._own.values())


class ToolBox:
    """The agent's tools, in YAML order; ``specs`` is filled by `start`."""

    def __init__(self, kinds: Iterable[ToolKind] = ()) -> None:
        self.kinds = list(kinds)
        self.specs: list[FunctionSpec] = []
        self._routes: dict[str, ToolKind] = {}
        self._running: list[ToolKind] = []
        self._per_case: list[PerCaseKind] = []
        self._ctx: ToolContext | None = None
        self.shared = CaseTools(self)

    def __bool__(self) -> bool:
        return bool(self.kinds)

    def route(self, name: str) -> ToolKind | None:
        return self._routes.get(name)

    async def start(self, ctx: ToolContext) -> None:
        """Preflight: every tool started and its functions listed, names unique across
        tools; raises `PreflightError` (with everything started closed again)."""
        self._ctx = ctx
        started, failures = await _start_all(self.kinds, ctx)
        owner: dict[str, ToolKind] = {}
        for kind, specs in started:
            for spec in specs:
                other = owner.setdefault(spec.name, kind)
                if other is not kind:
                    failures.append(
                        ToolStartError(
                            kind.tool_name,
                            f"offers a function named '{spec.name}', as tool "
                            f"'{other.tool_name}' does: names the model sees must be unique",
                        )
                    )
                    continue
                self.specs.append(spec)
        if failures:
            await _close_all(kind for kind, _ in started)
            raise PreflightError(failures)
        self._routes = owner
        for kind, _ in started:
            if isinstance(kind, PerCaseKind) and kind.per_case(ctx):
                self._per_case.append(kind)
                await kind.close()  # it served to list the functions; cases start their own
            else:
                self._running.append(kind)

    async def for_case(self) -> CaseTools:
        """The tools of one test case; raises ToolStartError when a per-case one fails."""
        if not self._per_case or self._ctx is None:
            return self.shared
        fresh = [kind.fresh() for kind in self._per_case]
        started, failures = await _start_all(fresh, self._ctx)
        if failures:
            await _close_all(kind for kind, _ in started)
            raise failures[0]
        pairs = zip(self._per_case, fresh, strict=True)
        return CaseTools(self, {id(old): new for old, new in pairs})

    async def call(self, name: str, args: dict[str, Any]) -> tuple[ToolInvocation, ToolOutput]:
        return await self.shared.call(name, args)

    async def close(self) -> None:
        running, self._running = self._running, []
        await _close_all(running)
