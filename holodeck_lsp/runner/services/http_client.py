"""JSON over HTTP with retries: 429 and 5xx are retried with exponential backoff."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import random
import ssl
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from holodeck_lsp import __version__
from holodeck_lsp.nesting import TooDeep, loads
from holodeck_lsp.runner.services.failures import BackendError, SessionBroken, note_service_failure
from holodeck_lsp.runner.services.http_transport import (
    StaleConnection,
    StreamTransport,
    proxy_configured,
)
from holodeck_lsp.runner.services.redaction import Secrets, active
from holodeck_lsp.runner.services.secret_sources import header_secrets
from holodeck_lsp.runner.services.service_targets import public_url

RETRY_STATUSES = frozenset({408, 409, 429}) | frozenset(range(500, 600))
# The request can never succeed with these: the rest of the session would fail the same way.
FATAL_STATUSES = frozenset({401, 403, 404})
# The key was refused: after this many refusals in a row, no further request is sent.
REFUSALS = frozenset({401, 403})
REFUSALS_TO_STOP = 2
CREDENTIAL_HEADERS = frozenset({"authorization", "x-api-key", "api-key"})


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


def _excerpt(response: httpx.Response, secrets: Secrets) -> str:
    # Masked before it is cut (300 characters, then "..."): a key cut in half would no
    # longer be recognised.
    return secrets.clip(response.text.strip().replace("\n", " "), 300 + len("..."))


@dataclass(frozen=True)
class _NoResponse:
    """Why an attempt got no response; ``stale`` when a kept-alive connection was gone."""

    reason: str
    stale: bool = False


def _quiet_async_library_probe() -> None:
    """httpcore imports `sniffio` on every request to learn the async library; when it is
    not installed, each failed import scans the whole module path (~0.5 ms a request).
    Marking it absent once makes the same ImportError free."""
    if "sniffio" not in sys.modules and importlib.util.find_spec("sniffio") is None:
        sys.modules["sniffio"] = None  # type: ignore[assignment]


class JsonClient:
    """Posts JSON, returns the decoded reply; raises a `BackendError` when it cannot.

    One lane per concurrent request, each with a single keep-alive connection: a shared
    pool re-checks every connection on every request, which costs more than the request
    itself at 16 connections. Without a proxy, requests go straight to the lean transport
    (httpx's client layer alone costs more CPU than the rest of a turn); with one, through
    an httpx client, which knows proxies.
    """

    def __init__(
        self,
        headers: dict[str, str],
        policy: RetryPolicy | None = None,
        max_connections: int = 16,
        tls: bool = True,
        env: Mapping[str, str] | None = None,
    ) -> None:
        _quiet_async_library_probe()
        self.policy = policy or RetryPolicy()
        # Loading the CA bundle costs ~50 ms: once, and never for a plain-http endpoint.
        context = ssl.create_default_context() if tls else None
        self.lean = not proxy_configured(os.environ if env is None else env)
        self.headers = {
            "accept": "application/json",
            "content-type": "application/json",
            "user-agent": f"holodeck-lsp/{__version__}",
            **headers,
        }
        one = httpx.Limits(max_connections=1, max_keepalive_connections=1)
        self._lanes: list[StreamTransport | httpx.AsyncClient] = [
            StreamTransport(context)
            if self.lean
            # The per-turn llm_timeout bounds each request; httpx's own timeout stays generous.
            else httpx.AsyncClient(
                headers=self.headers,
                timeout=httpx.Timeout(600.0, connect=30.0),
                limits=one,
                verify=context or False,
            )
            for _ in range(max(1, max_connections))
        ]
        # Error bodies may echo the request's credentials: never let them through.
        self.secrets = active()
        self.secrets.add_all(header_secrets(headers, CREDENTIAL_HEADERS))
        self._refusals = 0  # 401/403 answers in a row, over all sessions
        self._refused: str | None = None
        self._urls: dict[str, httpx.URL] = {}
        self._idle: asyncio.Queue[StreamTransport | httpx.AsyncClient] = asyncio.Queue()
        for lane in self._lanes:
            self._idle.put_nowait(lane)

    async def _send(self, url: str, body: dict[str, Any]) -> httpx.Response | _NoResponse:
        """One attempt: the response, or why there is none."""
        content = json.dumps(body, separators=(",", ":")).encode()
        lane = await self._idle.get()
        try:
            if isinstance(lane, httpx.AsyncClient):
                return await lane.post(url, content=content)
            target = self._urls.get(url)
            if target is None:
                target = self._urls[url] = httpx.URL(url)  # parsed once, not per request
            request = httpx.Request("POST", target, headers=self.headers, content=content)
            response = await lane.handle_async_request(request)
            await response.aread()
            return response
        except httpx.TransportError as exc:
            stale = isinstance(exc, StaleConnection)
            kind = "RemoteProtocolError" if stale else type(exc).__name__  # one name, one fault
            where = public_url(url)
            return _NoResponse(f"{kind}: {exc or 'connection failed'} ({where})", stale)
        finally:
            self._idle.put_nowait(lane)

    async def post(self, url: str, body: dict[str, Any]) -> dict[str, Any]:
        if self._refusals >= REFUSALS_TO_STOP:
            raise SessionBroken(f"{self._refused} (not sent: the service refused the key)")
        last = ""
        for attempt in range(self.policy.attempts):
            response = await self._send(url, body)
            retry_after: str | None = None
            if isinstance(response, _NoResponse):
                last = response.reason
                note_service_failure(last)
                if response.stale and attempt + 1 < self.policy.attempts:
                    continue  # an idle connection the server dropped: try a fresh one now
            elif response.status_code < 300:
                self._refusals = 0
                return self._decode(response)
            else:
                last = f"HTTP {response.status_code}: {_excerpt(response, self.secrets)}"
                note_service_failure(last)
                if response.status_code in REFUSALS:
                    self._refusals += 1
                    self._refused = last
                if response.status_code in FATAL_STATUSES:
                    raise SessionBroken(last)
                if response.status_code not in RETRY_STATUSES:
                    raise BackendError(last)
                retry_after = response.headers.get("retry-after")
            if attempt + 1 < self.policy.attempts:
                await asyncio.sleep(self.policy.delay(attempt, retry_after))
        raise BackendError(f"{last} (gave up after {self.policy.attempts} attempts)")

    def _decode(self, response: httpx.Response) -> dict[str, Any]:
        try:
            data = loads(response.content)
        except TooDeep as exc:
            raise BackendError(f"the model service's reply holds {exc}") from None
        except ValueError:
            raise BackendError(
                f"the model service sent invalid JSON: {_excerpt(response, self.secrets)}"
            ) from None
        if not isinstance(data, dict):
            raise BackendError("the model service sent JSON that is not an object")
        return data

    async def close(self) -> None:
        for lane in self._lanes:
            await lane.aclose()
