"""The schema never refuses what `check` accepts: mutated real files, both verdicts.

A false positive is the worst bug this product can ship, and a YAML editor shows schema
errors as errors. So whenever the schema reports an error on a mutation of a valid file,
`check` (which refuses exactly what HoloDeck refuses) must report one too.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from holodeck_lsp.validation.file_kinds import kind_of_data
from holodeck_lsp.validation.validate import ValidationContext, validate_text
from holodeck_lsp.validation.yaml.loader import load_yaml
from tests.conftest import FIXTURES
from tests.schema.schema_errors import validator
from tests.schema.test_schema_fixtures import CORPUS, CORPUS_ENTRIES, VALID


def _sources() -> list[tuple[str, Any]]:
    """(kind, data) of every valid file but the few large suites (slow to mutate)."""
    found = []
    paths = [(p, None) for p in VALID]
    kinds = {"agent": "agent", "payload": "test-cases"}
    paths += [(CORPUS / file, kinds.get(kind, kind)) for file, kind in CORPUS_ENTRIES]
    for path, kind in paths:
        text = path.read_text(encoding="utf-8")
        if len(text) > 20_000:
            continue
        data = load_yaml(text).data
        found.append((kind or kind_of_data(path, data), data))
    return found


SOURCES = _sources()
VALUES = [
    None, True, False, 0, 1, -1, 2, 0.5, 2.5, 1001, "", "  ", "x", "yes", "1", "2.5", "nan",
    "${X}", "a ${X}", "equality", "code", "rag", "geval", "standard", "function", "mcp",
    "openai", "image", "pkg.mod:fn", "\u200b", [], ["x"], [{}], {}, {"name": "x"},
    {"fuzzy": "a"}, {"fuzzy": "a", "regex": "b"}, {"input": "hi"},
]  # fmt: skip
KEYS = [
    "zzz", "type", "input", "turns", "name", "args", "count", "path", "url", "inline", "file",
    "test_cases", "test_cases_file", "metric", "grader", "criteria", "metric_type", "model",
]  # fmt: skip


def _containers(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths of every mapping and list in ``node``."""
    found: list[tuple[Any, ...]] = []
    if isinstance(node, dict):
        found.append(path)
        for key, value in node.items():
            found += _containers(value, (*path, key))
    elif isinstance(node, list):
        found.append(path)
        for index, value in enumerate(node):
            found += _containers(value, (*path, index))
    return found


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        node = node[part]
    return node


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, Any]:
    kind, original = draw(st.sampled_from(SOURCES))
    data = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        paths = _containers(data)
        if not paths:
            break
        target = _at(data, draw(st.sampled_from(paths)))
        keys = list(target) if isinstance(target, dict) else list(range(len(target)))
        action = draw(st.sampled_from(["set", "delete", "add"]))
        value = copy.deepcopy(draw(st.sampled_from(VALUES)))  # later steps may change it
        if action == "add" or not keys:
            new_key = draw(st.sampled_from(KEYS))
            if isinstance(target, dict):
                target[new_key] = value
            else:
                target.append(value)
        elif action == "delete":
            del target[draw(st.sampled_from(keys))]
        else:
            target[draw(st.sampled_from(keys))] = value
    return kind, data


@pytest.mark.skipif(not SOURCES, reason="no valid files")
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_schema_error_implies_check_error(case: tuple[str, Any]) -> None:
    kind, data = case
    schema_says = [e.message for e in validator(kind).iter_errors(data)]
    if not schema_says:
        return
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    where = FIXTURES / "valid" / ("agent.yaml" if kind == "agent" else "suite.yaml")
    result = validate_text(text, where, ValidationContext(user_config_dir=None), kind=kind)  # type: ignore[arg-type]
    assert result.has_errors, f"schema only: {schema_says}\n{text}"


def test_sources_include_the_corpus() -> None:
    assert len(SOURCES) >= len(VALID) + len(CORPUS_ENTRIES) - 5
