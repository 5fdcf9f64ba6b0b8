"""Argument matchers of tool assertions: literal, fuzzy and regex.

Each returns None when the actual value matches, else the reason it does not, worded as
`holodeck test` words it (`expected 2, got 0`). Regex verdicts are looked up: they were
reached beforehand, under a time limit (`regex_limit.py`, `regex_pairs`).
"""

from __future__ import annotations

import math
import re
from typing import Any

from holodeck_lsp.runner.score.regex_limit import Verdicts
from holodeck_lsp.validation.yaml.path_text import format_path
from holodeck_lsp.validation.yaml.source_map import YamlPath

_SEPARATORS = re.compile("[,_\u202f]")
_SPACES = re.compile(r"\s+")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def literal_equal(expected: Any, actual: Any) -> bool:
    """Numbers compare by value (206588 == 206588.0), bools only with bools, lists and
    mappings element by element by the same rule, everything else exactly."""
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(
            literal_equal(e, a) for e, a in zip(expected, actual, strict=True)
        )
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(
            literal_equal(v, actual[k]) for k, v in expected.items()
        )
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if _is_number(expected) and _is_number(actual):
        return float(expected) == float(actual)
    return bool(expected == actual)


def fuzzy_normalize(value: Any) -> str:
    """Trimmed, lower-cased, thousands separators removed, whitespace collapsed."""
    text = _SEPARATORS.sub("", str(value).strip().lower())
    return _SPACES.sub(" ", text)


def fuzzy_number(text: str) -> float | None:
    """The number a normalized text spells: spaces inside are separators ("25 587"), a
    trailing `%` divides by 100. NaN is no number: "nan" compares as a word."""
    percent = text.endswith("%")
    body = (text[:-1].strip() if percent else text).replace(" ", "")
    try:
        number = float(body)
    except ValueError:
        return None
    if math.isnan(number):
        return None
    return number / 100 if percent else number


def fuzzy_equal(pattern: str, actual: Any) -> bool:
    left, right = fuzzy_normalize(pattern), fuzzy_normalize(actual)
    a, b = fuzzy_number(left), fuzzy_number(right)
    if a is not None and b is not None:
        return math.isclose(a, b, rel_tol=0.0, abs_tol=1e-9)
    return left == right


def _matcher(spec: Any) -> tuple[str, Any]:
    """('fuzzy'|'regex'|'literal', pattern or value) of one asserted argument."""
    if isinstance(spec, dict) and set(spec) == {"fuzzy"}:
        return "fuzzy", spec["fuzzy"]
    if isinstance(spec, dict) and set(spec) == {"regex"}:
        return "regex", spec["regex"]
    return "literal", spec


def regex_pairs(args: dict[Any, Any], calls_args: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Every (pattern, text) the asserted ``args`` full-match against these calls."""
    pairs: list[tuple[str, str]] = []
    for key, spec in args.items():
        kind, pattern = _matcher(spec)
        if kind == "regex":
            name = str(key)
            pairs.extend((pattern, str(actual[name])) for actual in calls_args if name in actual)
    return pairs


def arg_mismatch(spec: Any, actual: Any, regexes: Verdicts, at: YamlPath) -> str | None:
    """Why ``actual`` fails one asserted argument (None when it holds); ``at`` is where the
    argument is asserted."""
    kind, value = _matcher(spec)
    if kind == "fuzzy":
        return None if fuzzy_equal(value, actual) else f"expected ≈{value!r}, got {actual!r}"
    if kind == "regex":
        verdict = regexes[(value, str(actual))]
        if verdict is True:
            return None
        if verdict is False:
            return f"expected regex {value!r}, got {actual!r}"
        return f"regex {value!r} ({format_path((*at, 'regex'))}) {verdict}, got {actual!r}"
    return None if literal_equal(value, actual) else f"expected {value!r}, got {actual!r}"


def mismatch(
    args: dict[Any, Any], actual: dict[str, Any], regexes: Verdicts, at: YamlPath
) -> str | None:
    """Why a call's arguments fail the asserted ``args`` (written at ``at``): the first
    argument that does not hold (None when they all hold)."""
    for key, spec in args.items():
        name = str(key)
        if name not in actual:
            return f"arg '{name}' missing"
        problem = arg_mismatch(spec, actual[name], regexes, (*at, key))
        if problem is not None:
            return f"arg '{name}' mismatch: {problem}"
    return None


def brief(args: dict[str, Any]) -> str:
    """Asserted arguments in one line: `year=2019, metric≈cash, code~A.*`."""
    parts = []
    for key, spec in args.items():
        kind, value = _matcher(spec)
        sign = {"fuzzy": "≈", "regex": "~"}.get(kind, "=")
        parts.append(f"{key}{sign}{value}")
    return ", ".join(parts)
