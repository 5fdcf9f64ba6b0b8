"""How long a model service asks us to wait before a retry, read from its answer's headers.

In this order, the first that reads as a wait wins:
- `retry-after-ms`: milliseconds (Azure OpenAI; OpenAI's SDKs read it too);
- `Retry-After`: seconds, or an HTTP date (RFC 9110, section 10.2.3);
- the rate-limit reset headers of the limits that are spent: OpenAI's and Azure's
  `x-ratelimit-reset-requests` and `x-ratelimit-reset-tokens` (a duration, `6m0s`, `1s`,
  `20ms`, or a number of seconds), Anthropic's `anthropic-ratelimit-*-reset` (an RFC 3339
  time). A limit whose `...-remaining` header is 0 is spent; the wait is the latest of
  their resets, or, when no header says which limit is spent, the earliest reset given.

None: the headers ask for nothing readable, and our own backoff applies. The caller caps
the wait (`RetryPolicy.max_retry_after`): a hostile or confused service cannot make a run
sleep for a day.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

# OpenAI's (and Azure's) limits, then Anthropic's.
_RESETS = (
    ("x-ratelimit-reset-requests", "x-ratelimit-remaining-requests"),
    ("x-ratelimit-reset-tokens", "x-ratelimit-remaining-tokens"),
    ("anthropic-ratelimit-requests-reset", "anthropic-ratelimit-requests-remaining"),
    ("anthropic-ratelimit-tokens-reset", "anthropic-ratelimit-tokens-remaining"),
    ("anthropic-ratelimit-input-tokens-reset", "anthropic-ratelimit-input-tokens-remaining"),
    ("anthropic-ratelimit-output-tokens-reset", "anthropic-ratelimit-output-tokens-remaining"),
)
_DURATION = re.compile(r"(?:(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns))+")
_PART = re.compile(r"(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)")
_UNIT = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}
_MAX_TEXT = 64  # a longer header value is not a wait


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _duration(text: str) -> float | None:
    """`6m0s`, `1s`, `20ms`, `1h2m3.5s` (Go's duration format), or a plain number of
    seconds."""
    plain = _number(text)
    if plain is not None:
        return plain
    if _DURATION.fullmatch(text) is None:
        return None
    return sum(float(n) * _UNIT[unit] for n, unit in _PART.findall(text))


def _time(text: str, now: datetime) -> float | None:
    """Seconds from ``now`` to an RFC 3339 time (`2025-05-26T05:00:04Z`) or an HTTP date
    (`Mon, 26 May 2025 05:00:04 GMT`)."""
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        try:
            when = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)  # an HTTP date is in GMT
    return (when - now).total_seconds()


def _header(headers: Mapping[str, str], name: str) -> str | None:
    value = headers.get(name)
    if value is None or len(value) > _MAX_TEXT:
        return None
    return value.strip()


def _reset(headers: Mapping[str, str], now: datetime) -> float | None:
    spent: list[float] = []
    given: list[float] = []
    for reset_name, remaining_name in _RESETS:
        text = _header(headers, reset_name)
        if text is None:
            continue
        wait = _duration(text) if reset_name.startswith("x-") else _time(text, now)
        if wait is None:
            continue
        given.append(wait)
        if _number(_header(headers, remaining_name) or "") == 0:
            spent.append(wait)
    if spent:
        return max(spent)
    return min(given) if given else None


def asked_wait(headers: Mapping[str, str], now: datetime | None = None) -> float | None:
    """Seconds the service asks us to wait (never negative), None if it asks nothing;
    ``headers`` looked up by lower-case name (httpx's headers are)."""
    now = now or datetime.now(timezone.utc)
    wait: float | None = None
    if (ms := _header(headers, "retry-after-ms")) is not None and (n := _number(ms)) is not None:
        wait = n / 1000
    elif (text := _header(headers, "retry-after")) is not None:
        wait = _number(text)
        if wait is None:
            wait = _time(text, now)
    if wait is None:
        wait = _reset(headers, now)
    return None if wait is None else max(wait, 0.0)
