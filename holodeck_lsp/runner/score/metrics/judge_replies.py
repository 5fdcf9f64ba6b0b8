"""Reading a judge model's reply: one JSON object, and the fields a rubric asks for."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection
from typing import Any

from holodeck_lsp.nesting import loads

_FENCE = re.compile(r"```(?:json)?\s*\n?(.*?)\n?```", re.DOTALL | re.IGNORECASE)


class MalformedReply(Exception):
    """The judge's reply cannot be used; the message says why."""


def parse_object(text: str) -> dict[str, Any]:
    """The JSON object of a reply: the whole text, a fenced block, or the outermost braces.

    Models often wrap the object in a code fence or a sentence; the object itself must
    still be valid JSON.
    """
    stripped = text.strip()
    if not stripped:
        raise MalformedReply("the reply is empty")
    candidates = [stripped]
    fenced = _FENCE.search(stripped)
    if fenced:
        candidates.append(fenced.group(1).strip())
    first, last = stripped.find("{"), stripped.rfind("}")
    if 0 <= first < last:
        candidates.append(stripped[first : last + 1])
    for candidate in candidates:
        try:
            value = loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    raise MalformedReply("the reply is not a JSON object")


def number(data: dict[str, Any], key: str, low: float, high: float) -> float:
    """A number within [low, high]; booleans and numeric strings are refused."""
    if key not in data:
        raise MalformedReply(f"no '{key}' in the reply")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise MalformedReply(f"'{key}' must be a number, got {value!r}")
    if not math.isfinite(value) or not low <= value <= high:
        raise MalformedReply(f"'{key}' must be within [{low:g}, {high:g}], got {value!r}")
    return float(value)


def reason(data: dict[str, Any]) -> str | None:
    """The judge's explanation, when it gave one."""
    value = data.get("reason")
    if value is None:
        return None
    text = value if isinstance(value, str) else json.dumps(value)
    return text.strip() or None


def verdicts(data: dict[str, Any], key: str, allowed: Collection[str]) -> list[str]:
    """The `verdict` of each item of the list `key`, lower-cased; each must be allowed."""
    items = data.get(key)
    if not isinstance(items, list):
        raise MalformedReply(f"'{key}' must be a list")
    out = []
    for index, item in enumerate(items):
        raw = item.get("verdict") if isinstance(item, dict) else None
        value = raw.strip().lower() if isinstance(raw, str) else None
        if value is None or value not in allowed:
            choices = ", ".join(repr(a) for a in sorted(allowed))
            raise MalformedReply(f"{key}[{index}].verdict must be one of {choices}, got {raw!r}")
        out.append(value)
    return out
