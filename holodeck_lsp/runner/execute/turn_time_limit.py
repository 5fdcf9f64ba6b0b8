"""The per-turn time limit (`llm_timeout`): a session wrapper that bounds each turn and
names the setting that chose the limit; a turn that runs out of time while the service
keeps failing is reported as the service's failure."""

from __future__ import annotations

import asyncio
import sys

from holodeck_lsp.runner.backends.backend import Backend, Reply, Session, TurnRequest
from holodeck_lsp.runner.services.failures import (
    SERVICE_FAILURES,
    BackendError,
    TurnTimeout,
)


class TimedSession:
    """Bounds each turn by ``timeout`` seconds; the session itself lives on."""

    def __init__(self, inner: Session, timeout: float, setting: str = "llm_timeout") -> None:
        self._inner = inner
        self._timeout = timeout
        self._setting = setting  # named in the failure: which option set the limit

    def restore(self, message: str, reply: Reply) -> bool:
        restore = getattr(self._inner, "restore", None)
        return bool(restore(message, reply)) if restore is not None else False

    async def send(self, turn: TurnRequest) -> Reply:
        failures: list[str] = []
        token = SERVICE_FAILURES.set(failures)
        try:
            if sys.version_info >= (3, 11):
                # Unlike wait_for, no extra task per turn.
                async with asyncio.timeout(self._timeout):
                    return await self._inner.send(turn)
            return await asyncio.wait_for(self._inner.send(turn), self._timeout)
        except (asyncio.TimeoutError, TimeoutError):
            limit = f"timed out after {self._timeout:g}s ({self._setting})"
            if failures:
                # The time went on retries: the service's failure is the news, not the clock.
                raise BackendError(
                    f"{failures[-1]} ({limit} while retrying, {len(failures)} failed attempt(s))"
                ) from None
            raise TurnTimeout(limit, self._timeout) from None
        finally:
            SERVICE_FAILURES.reset(token)

    async def close(self) -> None:
        await self._inner.close()


class TimedBackend:
    def __init__(self, inner: Backend, timeout: float, setting: str = "llm_timeout") -> None:
        self._inner = inner
        self._timeout = timeout
        self._setting = setting

    async def create_session(self) -> Session:
        return TimedSession(await self._inner.create_session(), self._timeout, self._setting)

    async def close(self) -> None:
        await self._inner.close()
