"""`equality` and `numeric`: deterministic comparisons of the reply with `ground_truth`, and
`response_path`, the field of a JSON reply they compare instead."""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Any

from holodeck_lsp.models.evaluation import EvaluationMetric
from holodeck_lsp.nesting import loads
from holodeck_lsp.runner.services.redaction import active

_SPACES = re.compile(r"\s+")
_PUNCTUATION = str.maketrans("", "", string.punctuation)
# Comma, underscore, no-break space and narrow no-break space.
_THOUSANDS = ",_\u00a0\u202f"
_PATH_TOKEN = re.compile(r"([A-Za-z_][\w-]*)|\[(\d+)\]")


@dataclass(frozen=True)
class Verdict:
    passed: bool
    reason: str


def path_leaf(response: str, path: str) -> tuple[str | None, str | None]:
    """(the text of the scalar at ``path`` of the reply read as JSON, None), or (None, why
    there is none). Dotted keys and `[i]` indexes; a leaf that is a list or a mapping is
    not a value."""
    try:
        node: Any = loads(response)
    except ValueError as exc:
        shown = active().clip(response, 80, "").replace("\n", " ")
        return None, (
            f"response_path={path!r} but response is not JSON "
            f"({type(exc).__name__}: {exc}); got: {shown!r}"
        )
    for key, index in _PATH_TOKEN.findall(path):
        if index:
            position = int(index)
            if not isinstance(node, list):
                kind = type(node).__name__
                where = f"index [{position}]"
                return None, f"response_path={path!r}: expected list at {where}, got {kind}"
            if position >= len(node):
                return None, (
                    f"response_path={path!r}: index [{position}] out of range (len={len(node)})"
                )
            node = node[position]
            continue
        if not isinstance(node, dict):
            kind = type(node).__name__
            return None, f"response_path={path!r}: expected dict at key {key!r}, got {kind}"
        if key not in node:
            return None, (
                f"response_path={path!r}: key {key!r} not found (available: {sorted(node)})"
            )
        node = node[key]
    if isinstance(node, (dict, list)):
        return None, (
            f"response_path={path!r}: leaf is {type(node).__name__}, "
            "expected a scalar (str/number/bool/null)"
        )
    return str(node), None


def _normalize(text: str, metric: EvaluationMetric) -> str:
    if metric.case_insensitive:
        text = text.casefold()
    if metric.strip_punctuation:
        text = text.translate(_PUNCTUATION)
    if metric.strip_whitespace:
        text = _SPACES.sub(" ", text).strip()
    return text


def equality(actual: str, expected: str, metric: EvaluationMetric) -> Verdict:
    left, right = _normalize(actual, metric), _normalize(expected, metric)
    if left == right:
        return Verdict(True, "equal")
    return Verdict(False, f"expected {right!r}, got {left!r}")


def parse_number(value: str, metric: EvaluationMetric) -> tuple[float | None, str | None]:
    """(the number, None) or (None, why not), as the metric's flags allow: a `%` only with
    `accept_percent`, separators only with `accept_thousands_separators`."""
    text = value.strip()
    if not text:
        return None, "value is empty"
    percent = text.endswith("%")
    if percent and not metric.accept_percent:
        return None, f"percent sign in {text!r} but accept_percent=False"
    if percent:
        text = text[:-1].strip()
    if metric.accept_thousands_separators:
        text = "".join(ch for ch in text if ch not in _THOUSANDS)
    elif any(ch in text for ch in _THOUSANDS):
        return None, f"thousands separator in {text!r} but flag is off"
    try:
        number = float(text)
    except ValueError as exc:
        return None, f"could not parse {value!r} as number: {exc}"
    return (number / 100 if percent else number), None


def numeric(actual: str, expected: str, metric: EvaluationMetric) -> Verdict:
    a, problem = parse_number(actual, metric)
    e, truth_problem = parse_number(expected, metric)
    if a is None or e is None:
        return Verdict(False, problem or truth_problem or "not a number")
    diff = abs(a - e)
    if diff <= metric.absolute_tolerance:
        return Verdict(True, f"|{a:g} - {e:g}| = {diff:g} <= absolute_tolerance")
    if metric.relative_tolerance > 0 and diff <= metric.relative_tolerance * abs(e):
        return Verdict(True, f"|{a:g} - {e:g}| = {diff:g} <= relative_tolerance x |{e:g}|")
    return Verdict(
        False,
        f"|{a:g} - {e:g}| = {diff:g} exceeds absolute_tolerance {metric.absolute_tolerance:g}"
        f" and relative_tolerance {metric.relative_tolerance:g} x |{e:g}|",
    )
