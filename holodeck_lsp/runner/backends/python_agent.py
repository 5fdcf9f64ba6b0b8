"""Agents written in Python: `--agent pkg.mod:factory`.

`factory()` is called once per test case; the object it returns is the session. Its
`send(message)` (plain or async) returns the reply text, or a mapping with `text` and
optionally `tool_calls` and `usage`; its optional `close()` ends the session.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import ValidationError

from holodeck_lsp.models.test_result import ToolInvocation
from holodeck_lsp.models.token_usage import TokenUsage
from holodeck_lsp.nesting import TooDeep, check_depth
from holodeck_lsp.runner.backends.backend import Reply, TurnRequest
from holodeck_lsp.runner.services.failures import AgentError, SessionBroken
from holodeck_lsp.runner.services.user_threads import UserCodeExit, exception_line, in_thread


async def _call(fn: Callable[..., Any], *args: Any) -> Any:
    if inspect.iscoroutinefunction(fn):
        try:
            return await fn(*args)
        except (SystemExit, KeyboardInterrupt) as exc:
            raise UserCodeExit(exc) from None
    # A thread lets llm_timeout fire even when a plain `send` blocks.
    return await in_thread(fn, *args)


def reply_from(value: Any) -> Reply:
    """Read what `send` returned, per the documented contract."""
    if isinstance(value, str):
        return Reply(value)
    if not isinstance(value, Mapping):
        raise AgentError(
            f"send() must return a string or a mapping with 'text', not {type(value).__name__}"
        )
    try:
        check_depth(dict(value))
    except TooDeep as exc:  # before anything walks it: the report, masking, the matchers
        raise AgentError(f"send() returned {exc} (at {_where(exc.path)})") from None
    text = value.get("text")
    if not isinstance(text, str):
        raise AgentError("the mapping returned by send() needs a string 'text'")
    invocations = []
    for i, call in enumerate(value.get("tool_calls") or []):
        if not isinstance(call, Mapping) or not isinstance(call.get("name"), str):
            raise AgentError(f"tool_calls[{i}] needs a string 'name'")
        try:
            invocations.append(
                ToolInvocation(
                    name=call["name"],
                    args=dict(call.get("args") or {}),
                    result=call.get("result"),
                    duration_ms=call.get("duration_ms"),
                    error=call.get("error"),
                )
            )
        except (ValidationError, TypeError, ValueError) as exc:
            raise AgentError(f"tool_calls[{i}] is malformed: {exc}") from None
    usage = None
    raw_usage = value.get("usage")
    if raw_usage is not None:
        try:
            usage = TokenUsage.model_validate(raw_usage)
        except ValidationError as exc:
            detail = exc.errors()[0]["msg"] if exc.errors() else str(exc)
            raise AgentError(f"usage is malformed: {detail}") from None
    return Reply(text, invocations, usage)


class PythonSession:
    """One object from the factory; made on the first turn so a failing factory is a
    recorded exchange like any other."""

    def __init__(self, factory: Callable[[], Any]) -> None:
        self._factory = factory
        self._agent: Any = None

    async def send(self, turn: TurnRequest) -> Reply:
        if self._agent is None:
            try:
                self._agent = await _call(self._factory)
            except Exception as exc:
                raise SessionBroken(f"the agent factory raised {exception_line(exc)}") from exc
            if not callable(getattr(self._agent, "send", None)):
                raise SessionBroken("the object returned by the agent factory has no send()")
        try:
            value = await _call(self._agent.send, turn.message)
        except Exception as exc:
            raise AgentError(exception_line(exc)) from exc
        return reply_from(value)

    async def close(self) -> None:
        close = getattr(self._agent, "close", None)
        if callable(close):
            # A failing close() must not change the verdict of the test case.
            with contextlib.suppress(Exception):
                await _call(close)


class PythonBackend:
    """Sessions are objects made by the user's factory."""

    def __init__(self, factory: Callable[[], Any]) -> None:
        self._factory = factory

    async def create_session(self) -> PythonSession:
        return PythonSession(self._factory)

    async def close(self) -> None:
        return None


def _where(path: tuple[str | int, ...]) -> str:
    """A path into the returned mapping, as Python writes it: `['tool_calls'][0]...`,
    its first levels only."""
    shown = "".join(f"[{key!r}]" for key in path[:6])
    return shown + ("..." if len(path) > 6 else "")
