"""`equality` and `numeric`: deterministic comparisons of the reply with `ground_truth`."""

from __future__ import annotations

import json
import math
import re
import string
from dataclasses import dataclass
from typing import Any

from holodeck_lsp.models.evaluation import EvaluationMetric

_SPACES = re.compile(r"\s+")
_PUNCTUATION = str.maketrans("", "", string.punctuation)
_SEPARATORS = re.compile("[,_\u202f]")
_PATH_PART = re.compile(r"([^.\[\]]+)((?:\[\d+\])*)")
_FENCE = re.compile(r"^```[\w-]*\s*\n(.*)\n```\s*$", re.DOTALL)


@dataclass(frozen=True)
class Verdict:
    passed: bool
    reason: str


class PathMissing(Exception):
    """`response_path` does not lead anywhere in the reply."""


def extract(response: str, path: str) -> Any:
    """The value at ``path`` (dotted keys, `[i]` indexes) of the reply read as JSON."""
    text = response.strip()
    fenced = _FENCE.match(text)
    try:
        value: Any = json.loads(fenced.group(1) if fenced else text)
    except ValueError:
        raise PathMissing(f"response_path '{path}': the reply is not JSON") from None
    for segment in path.split("."):
        part = _PATH_PART.fullmatch(segment)
        if part is None:
            raise PathMissing(f"response_path '{path}': bad segment '{segment}'")
        key, indexes = part.group(1), re.findall(r"\d+", part.group(2))
        if not isinstance(value, dict) or key not in value:
            raise PathMissing(f"response_path '{path}': no key '{key}' in the reply")
        value = value[key]
        for index in map(int, indexes):
            if not isinstance(value, list) or index >= len(value):
                raise PathMissing(f"response_path '{path}': no item [{index}] under '{key}'")
            value = value[index]
    return value


def _normalize(text: str, metric: EvaluationMetric) -> str:
    if metric.strip_punctuation:
        text = text.translate(_PUNCTUATION)
    if metric.strip_whitespace:
        text = _SPACES.sub(" ", text).strip()
    if metric.case_insensitive:
        text = text.casefold()
    return text


def equality(actual: Any, expected: str, metric: EvaluationMetric) -> Verdict:
    left = _normalize(actual if isinstance(actual, str) else json.dumps(actual), metric)
    right = _normalize(expected, metric)
    if left == right:
        return Verdict(True, "equal")
    return Verdict(False, f"expected {right!r}, got {left!r}")


def parse_number(value: Any, metric: EvaluationMetric) -> float | None:
    """A number from a reply or a ground truth, as the metric's flags allow."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if not isinstance(value, str):
        return None
    text = value.strip()
    if metric.accept_thousands_separators:
        text = _SEPARATORS.sub("", text)
    percent = metric.accept_percent and text.endswith("%")
    if percent:
        text = text[:-1].strip()
    try:
        number = float(text)
    except ValueError:
        return None
    return number / 100 if percent else number


def numeric(actual: Any, expected: str, metric: EvaluationMetric) -> Verdict:
    a, e = parse_number(actual, metric), parse_number(expected, metric)
    if e is None:
        return Verdict(False, f"ground_truth {expected!r} is not a number")
    if a is None:
        return Verdict(False, f"the reply {actual!r} is not a number")
    if math.isnan(a) and math.isnan(e):
        return Verdict(True, "both NaN")
    diff = abs(a - e)
    if diff <= metric.absolute_tolerance:
        return Verdict(True, f"|{a:g} - {e:g}| = {diff:g} <= absolute_tolerance")
    if diff <= metric.relative_tolerance * abs(e):
        return Verdict(True, f"|{a:g} - {e:g}| = {diff:g} <= relative_tolerance x |{e:g}|")
    return Verdict(
        False,
        f"|{a:g} - {e:g}| = {diff:g} exceeds absolute_tolerance {metric.absolute_tolerance:g}"
        f" and relative_tolerance {metric.relative_tolerance:g} x |{e:g}|",
    )
