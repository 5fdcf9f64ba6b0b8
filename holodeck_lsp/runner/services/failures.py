"""Why a turn produced no reply: the failures an agent, a model service or the per-turn
time limit raise, each saying whether it is an execution error and whether the session
can go on. Shared by the HTTP client, the backends, the tools and the judges."""

from __future__ import annotations

from contextvars import ContextVar


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


FAILURE_KINDS: dict[str, type[TurnFailure]] = {
    cls.kind: cls for cls in (AgentError, AgentRunFailed, TurnTimeout, BackendError, SessionBroken)
}


# Failed attempts of the turn being sent (set by the per-turn time limit): a turn that runs
# out of time while the service keeps failing is reported as the service's failure.
SERVICE_FAILURES: ContextVar[list[str] | None] = ContextVar("service_failures", default=None)


def note_service_failure(reason: str) -> None:
    failures = SERVICE_FAILURES.get()
    if failures is not None:
        failures.append(reason)
