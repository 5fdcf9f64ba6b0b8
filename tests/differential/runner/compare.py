"""Field-by-field comparison of two `TestReport`s: every `TestResult`, `TurnResult` and
`MetricResult` field, and the summary; timings and provenance are left out."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

# Wall-clock measures and where/when/by-what a report was made: never equal across runs.
TIMING_FIELDS = frozenset(
    {"execution_time_ms", "evaluation_time_ms", "duration_ms", "timestamp", "total_duration_ms"}
)
PROVENANCE_FIELDS = frozenset({"holodeck_version", "environment", "agent_config_path"})
_ABSENT = object()


@dataclass(frozen=True)
class Difference:
    case: str | None  # the test case's name; None for report-level fields
    path: str  # e.g. `results[2].turns[1].errors`
    ours: Any
    theirs: Any

    def __str__(self) -> str:
        return f"{self.path} ({self.case}): ours={self.ours!r} holodeck={self.theirs!r}"


def _diff(ours: Any, theirs: Any, path: str) -> Iterator[tuple[str, Any, Any]]:
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for key in [*ours, *(k for k in theirs if k not in ours)]:
            if key in TIMING_FIELDS:
                continue
            yield from _diff(ours.get(key, _ABSENT), theirs.get(key, _ABSENT), f"{path}.{key}")
        return
    if isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs):
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            yield from _diff(a, b, f"{path}[{i}]")
        return
    same_kind = type(ours) is type(theirs) or (_number(ours) and _number(theirs))
    if not same_kind or ours != theirs:
        yield path, ours, theirs


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def compare_reports(ours: dict[str, Any], theirs: dict[str, Any]) -> list[Difference]:
    """Every differing leaf; lists of unequal length differ as a whole."""
    out: list[Difference] = []
    our_results, their_results = ours.get("results", []), theirs.get("results", [])
    if len(our_results) != len(their_results):
        return [Difference(None, "results", len(our_results), len(their_results))]
    for i, (a, b) in enumerate(zip(our_results, their_results, strict=True)):
        case = b.get("test_name")
        out.extend(Difference(case, p, x, y) for p, x, y in _diff(a, b, f"results[{i}]"))
    for key in ours.keys() | theirs.keys():
        if key in ("results", *TIMING_FIELDS, *PROVENANCE_FIELDS):
            continue
        found = _diff(ours.get(key), theirs.get(key), key)
        out.extend(Difference(None, p, x, y) for p, x, y in found)
    return out
