"""The ToolBox: preflight of every tool kind, routing by the name the model saw, errors."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from holodeck_lsp.runner.tools.function_tools import FunctionKind
from holodeck_lsp.runner.tools.tool_kind import (
    FunctionSpec,
    ToolCallError,
    ToolContext,
    ToolKind,
    ToolOutput,
    ToolRaised,
    ToolStartError,
)
from holodeck_lsp.runner.tools.toolbox import PreflightError, ToolBox

CTX = ToolContext(Path("."))


class Server:
    """A tool kind offering fixed functions; counts its instances' lives."""

    is_retrieval = False

    def __init__(self, name: str, functions: list[str], log: list[str], fail: str = "") -> None:
        self.tool_name = name
        self.functions = functions
        self.log = log
        self.fail = fail
        self.state: list[str] = []

    async def start(self, ctx: ToolContext) -> list[FunctionSpec]:
        self.log.append(f"start {self.tool_name}")
        if self.fail:
            raise ToolStartError(self.tool_name, self.fail, "stderr line")
        return [
            FunctionSpec(f, f"{f} of {self.tool_name}", {"type": "object"}) for f in self.functions
        ]

    async def call(self, name: str, args: dict[str, Any]) -> ToolOutput:
        if name == "broken":
            raise ToolCallError("the server said no")
        self.state.append(args["v"])
        return ToolOutput(f"{self.tool_name}.{name}: {self.state}", retrieval=[str(args["v"])])

    async def close(self) -> None:
        self.log.append(f"close {self.tool_name}")

    def fresh(self) -> ToolKind:
        return Server(self.tool_name, self.functions, self.log, self.fail)

    def per_case(self, ctx: ToolContext) -> bool:
        return ctx.isolate_mcp


def add(a: int, b: int = 0) -> int:
    return a + b


def test_specs_in_yaml_order_and_calls_routed_by_function_name() -> None:
    log: list[str] = []
    box = ToolBox(
        [Server("memory", ["remember", "broken"], log), FunctionKind("add", "Adds.", add)]
    )

    async def scenario() -> list[Any]:
        await box.start(CTX)
        remembered = await box.call("remember", {"v": 1})
        added = await box.call("add", {"a": 2, "b": 3})
        refused = await box.call("broken", {})
        unknown = await box.call("nope", {})
        # A function that raises fails the agent's run, as in `holodeck test`.
        with pytest.raises(ToolRaised) as raised:
            await box.call("add", {"c": 1})
        await box.close()
        return [remembered, added, refused, unknown, str(raised.value)]

    remembered, added, refused, unknown, raised = asyncio.run(scenario())
    assert [s.name for s in box.specs] == ["remember", "broken", "add"]
    assert box.specs[2].parameters == {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a"],
        "additionalProperties": False,  # as HoloDeck closes every function tool
    }
    assert (remembered[1].text, remembered[1].retrieval) == ("memory.remember: [1]", ["1"])
    assert remembered[0].result == "memory.remember: [1]"
    # The model is handed str() of the value, and the report records that text.
    assert (added[0].result, added[1].text, added[0].error, added[0].bytes) == ("5", "5", None, 3)
    assert (refused[0].error, refused[1].text) == (
        "the server said no",
        "error: the server said no",
    )
    assert unknown[0].error == "unknown tool 'nope'"
    assert raised == (
        "UserError: Error running tool add: add() got an unexpected keyword argument 'c'"
    )
    assert log == ["start memory", "close memory"]


def test_preflight_lists_every_failure_and_closes_what_started() -> None:
    log: list[str] = []
    box = ToolBox(
        [
            Server("memory", ["remember"], log),
            Server("down", ["x"], log, fail="connection refused"),
            Server("twin", ["remember"], log),
        ]
    )
    with pytest.raises(PreflightError) as caught:
        asyncio.run(box.start(CTX))
    failures = [(f.tool, f.message, f.stderr_tail) for f in caught.value.failures]
    assert failures == [
        ("down", "connection refused", "stderr line"),
        (
            "twin",
            "offers a function named 'remember', as tool 'memory' does: names the model sees "
            "must be unique",
            None,
        ),
    ]
    assert sorted(log) == ["close memory", "close twin", "start down", "start memory", "start twin"]


def test_per_case_instances_keep_cases_apart() -> None:
    log: list[str] = []
    box = ToolBox([Server("memory", ["remember"], log)])

    async def scenario() -> list[str]:
        await box.start(ToolContext(Path("."), isolate_mcp=True))
        first, second = await box.for_case(), await box.for_case()
        await first.call("remember", {"v": "a"})
        one = (await first.call("remember", {"v": "b"}))[1].text
        two = (await second.call("remember", {"v": "c"}))[1].text
        await first.close()
        await second.close()
        await box.close()
        return [one, two]

    assert asyncio.run(scenario()) == ["memory.remember: ['a', 'b']", "memory.remember: ['c']"]
    # Preflight's instance lists the functions and closes; each case starts and closes its own.
    assert log == ["start memory", "close memory"] + ["start memory"] * 2 + ["close memory"] * 2


def test_shared_by_default() -> None:
    log: list[str] = []
    box = ToolBox([Server("memory", ["remember"], log)])

    async def scenario() -> str:
        await box.start(CTX)
        first, second = await box.for_case(), await box.for_case()
        await first.call("remember", {"v": "a"})
        text = (await second.call("remember", {"v": "b"}))[1].text
        await first.close()
        await box.close()
        return text

    assert asyncio.run(scenario()) == "memory.remember: ['a', 'b']"
    assert log == ["start memory", "close memory"]


def test_a_per_case_instance_that_does_not_start_is_reported_and_nothing_is_left_running() -> None:
    log: list[str] = []
    healthy, flaky = Server("memory", ["remember"], log), Server("db", ["query"], log)
    flaky.fresh = lambda: Server("db", ["query"], log, fail="the database is locked")  # type: ignore[method-assign]
    box = ToolBox([healthy, flaky])

    async def scenario() -> ToolStartError:
        await box.start(ToolContext(Path("."), isolate_mcp=True))
        log.clear()
        try:
            await box.for_case()
        except ToolStartError as exc:
            return exc
        finally:
            await box.close()
        raise AssertionError("the case's tools started")

    failure = asyncio.run(scenario())
    assert (failure.tool, failure.message) == ("db", "the database is locked")
    # The case's healthy instance was started, then closed again.
    assert sorted(log) == ["close memory", "start db", "start memory"]
