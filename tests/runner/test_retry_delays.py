"""A model service that answers 429 or 5xx says how long to wait in its headers, each
provider its own way: `Retry-After` (seconds or an HTTP date), Azure's `retry-after-ms`,
OpenAI's and Azure's `x-ratelimit-reset-*` durations, Anthropic's RFC 3339 reset times.
The retry waits what the service asked, and never longer than the policy's cap."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from typing import Any

import pytest

from holodeck_lsp.runner.services.http_client import JsonClient, RetryPolicy
from holodeck_lsp.runner.services.retry_delays import asked_wait
from tests.runner.fake_model import Action, FakeModelServer, Raw, Status

NOW = datetime(2025, 5, 26, 5, 0, 4, tzinfo=timezone.utc)


def _in(seconds: float) -> str:
    return (NOW + timedelta(seconds=seconds)).isoformat().replace("+00:00", "Z")


@pytest.mark.parametrize(
    ("headers", "wait"),
    [
        ({"retry-after": "7"}, 7.0),
        ({"retry-after": "1.5"}, 1.5),
        ({"retry-after": "Mon, 26 May 2025 05:00:34 GMT"}, 30.0),  # an HTTP date
        ({"retry-after": "Mon, 26 May 2025 04:00:00 GMT"}, 0.0),  # already past
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),  # Azure: the finer one first
        # OpenAI: the spent limit's reset, a Go duration.
        (
            {
                "x-ratelimit-reset-requests": "6m0s",
                "x-ratelimit-remaining-requests": "0",
                "x-ratelimit-reset-tokens": "20ms",
                "x-ratelimit-remaining-tokens": "1500",
            },
            360.0,
        ),
        ({"x-ratelimit-reset-tokens": "1m2.5s", "x-ratelimit-reset-requests": "20ms"}, 0.02),
        ({"x-ratelimit-reset-tokens": "3", "x-ratelimit-remaining-tokens": "0"}, 3.0),  # Azure
        # Anthropic: RFC 3339 times; both limits spent, the later reset.
        (
            {
                "anthropic-ratelimit-requests-reset": _in(12),
                "anthropic-ratelimit-requests-remaining": "0",
                "anthropic-ratelimit-tokens-reset": _in(40),
                "anthropic-ratelimit-tokens-remaining": "0",
                "anthropic-ratelimit-input-tokens-reset": _in(2),
                "anthropic-ratelimit-input-tokens-remaining": "100",
            },
            40.0,
        ),
        ({"retry-after": "soon"}, None),
        ({"retry-after": "nan", "x-ratelimit-reset-requests": "eventually"}, None),
        ({"retry-after": "1" * 100}, None),  # a header too long to be a wait
        ({}, None),
    ],
)
def test_the_wait_each_provider_asks_for(headers: dict[str, str], wait: float | None) -> None:
    assert asked_wait(headers, NOW) == wait


def test_a_wait_past_the_cap_is_cut_to_it_and_none_asked_is_our_backoff() -> None:
    policy = RetryPolicy(max_retry_after=30.0, base_delay=0.5, max_delay=8.0)
    assert policy.delay(0, {"retry-after": "86400"}) == 30.0  # a day: 30 s, then retried
    assert policy.delay(0, {"retry-after": "Fri, 31 Dec 9999 23:59:59 GMT"}) == 30.0
    assert 0.25 <= policy.delay(0, {"retry-after": "later"}) <= 0.5
    assert 4.0 <= policy.delay(5, None) <= 8.0


class _Twice:
    """429 with ``headers`` once, then a reply."""

    def __init__(self, headers: dict[str, str]) -> None:
        self.headers, self.calls = headers, 0

    def __call__(self, path: str, body: dict[str, Any]) -> Action:
        self.calls += 1
        if self.calls == 1:
            return Status(429, retry_after=None, headers=self.headers)
        return Raw('{"ok": true}')


def _http_date(seconds_ahead: int) -> str:
    return format_datetime(datetime.now(timezone.utc) + timedelta(seconds=seconds_ahead), True)


@pytest.mark.parametrize(
    ("headers", "low", "high"),
    [
        ({"Retry-After": "12"}, 12.0, 12.0),
        ({"Retry-After": "HTTP-DATE+20"}, 18.0, 20.0),
        ({"retry-after-ms": "1500"}, 1.5, 1.5),
        ({"x-ratelimit-reset-requests": "6s", "x-ratelimit-remaining-requests": "0"}, 6.0, 6.0),
        ({"anthropic-ratelimit-tokens-reset": "NOW+9", "anthropic-ratelimit-tokens-remaining": "0"},
         7.0, 9.0),
        ({"Retry-After": "86400"}, 30.0, 30.0),  # a hostile service: the cap
    ],
)
async def test_the_client_waits_what_the_loopback_service_asks(
    headers: dict[str, str], low: float, high: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in list(headers.items()):
        if value == "HTTP-DATE+20":
            headers[name] = _http_date(20)
        elif value == "NOW+9":
            later = datetime.now(timezone.utc) + timedelta(seconds=9)
            headers[name] = later.isoformat().replace("+00:00", "Z")
    waits: list[float] = []
    original = RetryPolicy.delay

    def recorded(self: RetryPolicy, attempt: int, asked: Any = None) -> float:
        waits.append(original(self, attempt, asked))
        return 0.0  # the test does not wait: it checks what would have been waited

    monkeypatch.setattr(RetryPolicy, "delay", recorded)
    script = _Twice(headers)
    with FakeModelServer(script) as server:
        client = JsonClient({}, RetryPolicy(attempts=2), max_connections=1, tls=False, env={})
        try:
            assert await client.post(server.url + "/chat/completions", {}) == {"ok": True}
        finally:
            await client.close()
    assert len(waits) == 1 and low <= waits[0] <= high, waits
