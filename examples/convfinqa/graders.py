"""Code grader of the example: is the reply grounded in what the tools returned?"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?%?")


@dataclass(frozen=True)
class Graded:
    """A grader's verdict: HoloDeck reads any result with these four fields (a mapping is
    refused, as `holodeck test` refuses it)."""

    score: float
    passed: bool | None = None
    reason: str | None = None
    details: dict[str, Any] | None = None


def _numbers(text: str) -> list[float]:
    out = []
    for token in _NUMBER.findall(text):
        value = float(token.rstrip("%").replace(",", ""))
        out.append(value / 100 if token.endswith("%") else value)
    return out


def _number(result: Any) -> float | None:
    """A tool result as a number: tools hand the model their value as text."""
    try:
        return float(str(result))
    except ValueError:
        return None


def grounded_in_tools(ctx: Any) -> Graded:
    """Passes when the reply states the last tool result (to within 0.5%), or when the turn
    called no tool."""
    results = [
        n for t in ctx.tool_invocations if t.error is None and (n := _number(t.result)) is not None
    ]
    if not results:
        return Graded(1.0, True, "no numeric tool result to check")
    last = results[-1]
    stated = _numbers(ctx.agent_response)
    found = any(abs(n - last) <= 0.005 * max(abs(last), 1e-9) for n in stated)
    return Graded(
        1.0 if found else 0.0,
        found,
        f"last tool result {last:g} {'is' if found else 'is not'} in the reply",
        {"last_tool_result": last, "numbers_in_reply": stated},
    )
