"""The one interface every backend speaks: sessions that take a turn and give a reply."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from holodeck_lsp.models.test_result import ToolInvocation
from holodeck_lsp.models.token_usage import TokenUsage
from holodeck_lsp.runner.services.failures import SessionBroken
from holodeck_lsp.runner.tools.tool_kind import ToolStartError
from holodeck_lsp.runner.tools.toolbox import CaseTools, ToolBox


@dataclass(frozen=True)
class TurnRequest:
    """What one turn sends: the message (files already folded in) and its position."""

    message: str
    turn_index: int
    test_case: str  # the test case's name, or `test_cases[i]`
    case_index: int = 0
    judge: str | None = None  # the metric, when a judge model grades the turn


@dataclass
class Reply:
    """What the agent gave back for one turn."""

    text: str
    tool_invocations: list[ToolInvocation] = field(default_factory=list)
    usage: TokenUsage | None = None
    retrieval: list[str] = field(default_factory=list)  # retrieval tools' chunks, call order


async def case_tools(tools: ToolBox) -> CaseTools:
    """A test case's tools; a per-case tool that does not start ends the session."""
    try:
        return await tools.for_case()
    except ToolStartError as exc:
        raise SessionBroken(f"tool '{exc.tool}' did not start: {exc.message}") from None


class Session(Protocol):
    """One conversation: turns are sent strictly one after the other."""

    async def send(self, turn: TurnRequest) -> Reply: ...

    async def close(self) -> None: ...


class Backend(Protocol):
    """Makes a fresh session per test case."""

    async def create_session(self) -> Session: ...

    async def close(self) -> None: ...
