"""The places in the logical data the lints look at: test cases, turns, metrics."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from holodeck_lsp.validation.yaml.source_map import YamlPath


def cases(logical: dict[str, Any]) -> Iterator[tuple[YamlPath, dict[str, Any]]]:
    cases = logical.get("test_cases")
    if isinstance(cases, list):
        for i, case in enumerate(cases):
            if isinstance(case, dict):
                yield ("test_cases", i), case


def exchanges(logical: dict[str, Any]) -> Iterator[tuple[YamlPath, dict[str, Any]]]:
    """Every test case and every turn: the mappings that carry input, tools and files."""
    for path, case in cases(logical):
        yield path, case
        turns = case.get("turns")
        if isinstance(turns, list):
            for k, turn in enumerate(turns):
                if isinstance(turn, dict):
                    yield (*path, "turns", k), turn


def metrics(logical: dict[str, Any]) -> Iterator[tuple[YamlPath, dict[str, Any]]]:
    evaluations = logical.get("evaluations")
    if isinstance(evaluations, dict) and isinstance(evaluations.get("metrics"), list):
        for j, metric in enumerate(evaluations["metrics"]):
            if isinstance(metric, dict):
                yield ("evaluations", "metrics", j), metric
    for path, exchange in exchanges(logical):
        metrics = exchange.get("evaluations")
        if isinstance(metrics, list):
            for j, metric in enumerate(metrics):
                if isinstance(metric, dict):
                    yield (*path, "evaluations", j), metric
