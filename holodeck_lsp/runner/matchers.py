"""Argument matchers of tool assertions: literal, fuzzy and regex (SPEC §7).

Each returns None when the actual value matches, else the reason it does not.
"""

from __future__ import annotations

import math
import re
from typing import Any

_SEPARATORS = re.compile("[,_\u202f]")
_SPACES = re.compile(r"\s+")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def literal_equal(expected: Any, actual: Any) -> bool:
    """Numbers compare by value (206588 == 206588.0), bools only with bools, containers
    element-wise by the same rule, everything else exactly."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool) and expected == actual
    if _is_number(expected) and _is_number(actual):
        return bool(expected == actual)
    if isinstance(expected, list) and isinstance(actual, (list, tuple)):
        return len(expected) == len(actual) and all(
            literal_equal(e, a) for e, a in zip(expected, actual, strict=True)
        )
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(
            literal_equal(v, actual[k]) for k, v in expected.items()
        )
    return type(expected) is type(actual) and bool(expected == actual)


def fuzzy_normalize(value: Any) -> str:
    """Lower-cased, trimmed, whitespace collapsed, thousands separators removed."""
    text = _SEPARATORS.sub("", str(value))
    return _SPACES.sub(" ", text.strip().lower())


def fuzzy_number(text: str) -> float | None:
    """The number a normalized text spells, with a trailing `%` as a division by 100."""
    percent = text.endswith("%")
    body = text[:-1].strip() if percent else text
    try:
        number = float(body)
    except ValueError:
        return None
    if not math.isfinite(number):
        return None  # "nan"/"inf" compare as words
    return number / 100 if percent else number


def fuzzy_equal(pattern: str, actual: Any) -> bool:
    left, right = fuzzy_normalize(pattern), fuzzy_normalize(actual)
    a, b = fuzzy_number(left), fuzzy_number(right)
    if a is not None and b is not None:
        # Equal up to the rounding of the division by 100 (33.2% vs 0.332).
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return left == right


def regex_match(pattern: str, actual: Any) -> bool:
    return re.fullmatch(pattern, str(actual)) is not None


def describe_matcher(spec: Any) -> str:
    if isinstance(spec, dict) and set(spec) == {"fuzzy"}:
        return f"fuzzy {spec['fuzzy']!r}"
    if isinstance(spec, dict) and set(spec) == {"regex"}:
        return f"regex {spec['regex']!r}"
    return repr(spec)


def match_arg(spec: Any, actual: Any) -> bool:
    """Match one asserted argument; ``spec`` is the YAML value (literal or matcher)."""
    if isinstance(spec, dict) and set(spec) == {"fuzzy"}:
        return fuzzy_equal(spec["fuzzy"], actual)
    if isinstance(spec, dict) and set(spec) == {"regex"}:
        return regex_match(spec["regex"], actual)
    return literal_equal(spec, actual)


def mismatch(args: dict[Any, Any], actual: dict[str, Any]) -> str | None:
    """Why a call's arguments fail the asserted ``args`` (None when they all hold)."""
    for key, spec in args.items():
        name = str(key)
        if name not in actual:
            return f"missing argument '{name}'"
        if not match_arg(spec, actual[name]):
            return f"argument '{name}': expected {describe_matcher(spec)}, got {actual[name]!r}"
    return None
