"""JSON over HTTP with retries: 429 and 5xx are retried with exponential backoff."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from typing import Any

import httpx

from holodeck_lsp.runner.backends.base import BackendError, SessionBroken

RETRY_STATUSES = frozenset({408, 409, 429}) | frozenset(range(500, 600))
# The request can never succeed with these: the rest of the session would fail the same way.
FATAL_STATUSES = frozenset({401, 403, 404})


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently a failed request is retried."""

    attempts: int = 5  # including the first
    base_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 30.0

    def delay(self, attempt: int, retry_after: str | None) -> float:
        if retry_after is not None:
            try:
                return min(max(float(retry_after), 0.0), self.max_retry_after)
            except ValueError:
                pass  # an HTTP date: fall back to our own backoff
        backoff = min(self.base_delay * (2.0**attempt), self.max_delay)
        return backoff * (0.5 + random.random() / 2)  # jitter spreads parallel retries


def _excerpt(response: httpx.Response) -> str:
    text = response.text.strip().replace("\n", " ")
    return text[:300] + ("..." if len(text) > 300 else "")


class JsonClient:
    """Posts JSON, returns the decoded reply; raises a `BackendError` when it cannot."""

    def __init__(
        self,
        headers: dict[str, str],
        policy: RetryPolicy | None = None,
        max_connections: int = 16,
        tls: bool = True,
    ) -> None:
        self.policy = policy or RetryPolicy()
        limits = httpx.Limits(
            max_connections=max_connections, max_keepalive_connections=max_connections
        )
        # The per-turn llm_timeout bounds each request; httpx's own timeout stays generous.
        self._client = httpx.AsyncClient(
            headers=headers,
            timeout=httpx.Timeout(600.0, connect=30.0),
            limits=limits,
            # Loading the CA bundle costs ~50 ms; a plain-http endpoint never uses it.
            verify=tls,
        )

    async def post(self, url: str, body: dict[str, Any]) -> dict[str, Any]:
        last = ""
        for attempt in range(self.policy.attempts):
            retry_after: str | None = None
            try:
                response = await self._client.post(url, json=body)
            except httpx.TransportError as exc:
                last = f"{type(exc).__name__}: {exc or 'connection failed'} ({url})"
            else:
                if response.status_code < 300:
                    try:
                        data = response.json()
                    except ValueError:
                        raise BackendError(
                            f"the model service sent invalid JSON: {_excerpt(response)}"
                        ) from None
                    if not isinstance(data, dict):
                        raise BackendError("the model service sent JSON that is not an object")
                    return data
                last = f"HTTP {response.status_code}: {_excerpt(response)}"
                if response.status_code in FATAL_STATUSES:
                    raise SessionBroken(last)
                if response.status_code not in RETRY_STATUSES:
                    raise BackendError(last)
                retry_after = response.headers.get("retry-after")
            if attempt + 1 < self.policy.attempts:
                await asyncio.sleep(self.policy.delay(attempt, retry_after))
        raise BackendError(f"{last} (gave up after {self.policy.attempts} attempts)")

    async def close(self) -> None:
        await self._client.aclose()
