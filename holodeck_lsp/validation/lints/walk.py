"""The places in the logical data the lints look at: test cases, turns, metrics.

Found in one pass and shared by every lint: the server lints on every keystroke, and a
1,000-case suite has thousands of places."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from holodeck_lsp.validation.yaml.source_map import YamlPath

Place = tuple[YamlPath, dict[str, Any]]


@dataclass
class Places:
    cases: list[Place] = field(default_factory=list)
    # Every test case and every turn: the mappings that carry input, tools and files.
    exchanges: list[Place] = field(default_factory=list)
    # The file's metrics first, then each case's and each turn's, in file order.
    metrics: list[Place] = field(default_factory=list)


def places(logical: dict[str, Any]) -> Places:
    found = Places()
    evaluations = logical.get("evaluations")
    if isinstance(evaluations, dict):
        _add_metrics(found.metrics, ("evaluations", "metrics"), evaluations.get("metrics"))
    cases = logical.get("test_cases")
    if not isinstance(cases, list):
        return found
    for i, case in enumerate(cases):
        if not isinstance(case, dict):
            continue
        path: YamlPath = ("test_cases", i)
        found.cases.append((path, case))
        found.exchanges.append((path, case))
        _add_metrics(found.metrics, (*path, "evaluations"), case.get("evaluations"))
        turns = case.get("turns")
        if isinstance(turns, list):
            for k, turn in enumerate(turns):
                if isinstance(turn, dict):
                    at: YamlPath = (*path, "turns", k)
                    found.exchanges.append((at, turn))
                    _add_metrics(found.metrics, (*at, "evaluations"), turn.get("evaluations"))
    return found


def _add_metrics(into: list[Place], at: YamlPath, metrics: Any) -> None:
    if isinstance(metrics, list):
        into.extend(((*at, j), m) for j, m in enumerate(metrics) if isinstance(m, dict))
