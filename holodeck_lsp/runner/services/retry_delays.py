"""How long a model service asks us to wait before a retry, read from its answer's headers.

The first that reads as a wait wins: `retry-after-ms` (Azure OpenAI), `Retry-After`
(seconds or an HTTP date, RFC 9110 10.2.3), then the reset of the spent rate limits:
OpenAI's and Azure's `x-ratelimit-reset-requests`/`-tokens` (a duration, `6m0s`, `1s`,
`20ms`, or seconds), Anthropic's `anthropic-ratelimit-*-reset` (an RFC 3339 time). A limit
whose `...-remaining` is 0 is spent; the wait is the latest of their resets or, when no
header says which is spent, the earliest reset given. None: our own backoff applies. The
caller caps the wait (`RetryPolicy.max_retry_after`): no service makes a run sleep a day.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

# (reset, remaining) header names: OpenAI's and Azure's, then Anthropic's.
_RESETS = [(f"x-ratelimit-reset-{k}", f"x-ratelimit-remaining-{k}") for k in ("requests", "tokens")]
_RESETS += [(f"anthropic-ratelimit-{k}-reset", f"anthropic-ratelimit-{k}-remaining")
            for k in ("requests", "tokens", "input-tokens", "output-tokens")]
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
    """Go's duration format (`1h2m3.5s`, `20ms`), or a plain number of seconds."""
    plain = _number(text)
    if plain is not None or not text or _PART.sub("", text):
        return plain
    return sum(float(n) * _UNIT[unit] for n, unit in _PART.findall(text))


def _time(text: str, now: datetime) -> float | None:
    """Seconds from ``now`` to an RFC 3339 time or an HTTP date."""
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
    return None if value is None or len(value) > _MAX_TEXT else value.strip()


def _reset(headers: Mapping[str, str], now: datetime) -> float | None:
    spent, given = [], []
    for reset, remaining in _RESETS:
        text = _header(headers, reset)
        wait = None if text is None else _duration(text) if reset[0] == "x" else _time(text, now)
        if wait is not None:
            given.append(wait)
            if _number(_header(headers, remaining) or "") == 0:
                spent.append(wait)
    return max(spent) if spent else min(given) if given else None


def asked_wait(headers: Mapping[str, str], now: datetime | None = None) -> float | None:
    """Seconds the service asks us to wait (never negative), None if it asks nothing;
    ``headers`` looked up by lower-case name (httpx's headers are)."""
    now = now or datetime.now(timezone.utc)
    wait: float | None = None
    if (ms := _header(headers, "retry-after-ms")) is not None and (n := _number(ms)) is not None:
        wait = n / 1000
    elif (text := _header(headers, "retry-after")) is not None:
        wait = _number(text)
        wait = _time(text, now) if wait is None else wait
    if wait is None:
        wait = _reset(headers, now)
    return None if wait is None else max(wait, 0.0)
