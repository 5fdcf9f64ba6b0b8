"""Code grader of the example: is the reply grounded in what the tools returned?"""

from __future__ import annotations

import re
from typing import Any

_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?%?")


def _numbers(text: str) -> list[float]:
    out = []
    for token in _NUMBER.findall(text):
        value = float(token.rstrip("%").replace(",", ""))
        out.append(value / 100 if token.endswith("%") else value)
    return out


def grounded_in_tools(ctx: Any) -> dict[str, Any]:
    """Passes when the reply states the last tool result (to within 0.5%), or when the turn
    called no tool."""
    results = [
        t.result
        for t in ctx.tool_invocations
        if t.error is None and isinstance(t.result, (int, float))
    ]
    if not results:
        return {"passed": True, "score": 1.0, "reason": "no numeric tool result to check"}
    last = float(results[-1])
    stated = _numbers(ctx.agent_response)
    found = any(abs(n - last) <= 0.005 * max(abs(last), 1e-9) for n in stated)
    return {
        "score": 1.0 if found else 0.0,
        "passed": found,
        "reason": f"last tool result {last:g} {'is' if found else 'is not'} in the reply",
        "details": {"last_tool_result": last, "numbers_in_reply": stated},
    }
