"""The one interface every backend speaks: sessions that take a turn and give a reply."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Protocol

from holodeck_lsp.models.test_result import ToolInvocation
from holodeck_lsp.models.token_usage import TokenUsage
from holodeck_lsp.runner.tools.base import ToolStartError
from holodeck_lsp.runner.tools.box import CaseTools, ToolBox


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


class TurnFailure(Exception):
    """A turn that produced no reply. ``kind`` decides the report and the exit code."""

    kind = "agent"
    # True when the fault lies with the model service or the runner, not the agent.
    execution_error = False
    # True when the session cannot take further turns.
    breaks_session = False


class AgentError(TurnFailure):
    """The agent's run failed: a Python agent's ``send`` raised, a tool raised, the model
    kept calling tools past the request limit. The turn fails; the session goes on."""


class AgentRunFailed(AgentError):
    """A model backend's agent loop failed (a tool raised, too many model requests)."""

    kind = "run"


class TurnTimeout(TurnFailure):
    """The turn did not finish within ``llm_timeout``."""

    kind = "timeout"

    def __init__(self, message: str, seconds: float | None = None) -> None:
        super().__init__(message)
        self.seconds = seconds


class BackendError(TurnFailure):
    """The model service failed: transport error, HTTP error after retries, bad payload."""

    kind = "backend"
    execution_error = True


class SessionBroken(BackendError):
    """The session cannot go on (authentication refused, agent factory failed, ...)."""

    kind = "session"
    breaks_session = True


async def case_tools(tools: ToolBox) -> CaseTools:
    """A test case's tools; a per-case tool that does not start ends the session."""
    try:
        return await tools.for_case()
    except ToolStartError as exc:
        raise SessionBroken(f"tool '{exc.tool}' did not start: {exc.message}") from None


FAILURE_KINDS: dict[str, type[TurnFailure]] = {
    cls.kind: cls for cls in (AgentError, AgentRunFailed, TurnTimeout, BackendError, SessionBroken)
}


class Session(Protocol):
    """One conversation: turns are sent strictly one after the other."""

    async def send(self, turn: TurnRequest) -> Reply: ...

    async def close(self) -> None: ...


class Backend(Protocol):
    """Makes a fresh session per test case."""

    async def create_session(self) -> Session: ...

    async def close(self) -> None: ...


# Failed attempts of the turn being sent (set by the per-turn time limit): a turn that runs
# out of time while the service keeps failing is reported as the service's failure.
SERVICE_FAILURES: ContextVar[list[str] | None] = ContextVar("service_failures", default=None)


def note_service_failure(reason: str) -> None:
    failures = SERVICE_FAILURES.get()
    if failures is not None:
        failures.append(reason)
