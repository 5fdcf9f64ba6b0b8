"""Facts written in more than one place are held equal: the metric families against the
metrics the runner computes, and the defaults the VS Code extension repeats (its manifest
and its settings module) against the Python side's."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, get_args

from holodeck_lsp.models.evaluation import (
    METRIC_FAMILIES,
    NGRAM_METRICS,
    BuiltInMetricName,
    EvaluationMetric,
)
from holodeck_lsp.runner.score.metrics.judged_metrics import is_judged
from holodeck_lsp.runner.score.metrics.ngram_overlap import MODULES, SCORERS
from holodeck_lsp.server.settings import DEFAULT_INCLUDE, Settings
from holodeck_lsp.validation.codes import SEVERITY_LEVELS
from holodeck_lsp.validation.file_kinds import DEFAULT_PATTERNS

EXTENSION = Path(__file__).resolve().parents[2] / "vscode-extension"


def _manifest() -> dict[str, Any]:
    return json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _ts_strings(name: str) -> list[str]:
    """The quoted strings of the array constant ``name`` in the extension's settings.ts."""
    text = (EXTENSION / "src" / "settings.ts").read_text(encoding="utf-8")
    found = re.search(rf"const {name}\b[^=]*=\s*\[(.*?)\];", text, re.DOTALL)
    assert found is not None, f"settings.ts has no array {name}"
    return re.findall(r"'([^']*)'", found.group(1))


def test_the_metric_families_hold_every_built_in_metric_once() -> None:
    families = list(METRIC_FAMILIES.values())
    assert sorted(m for family in families for m in family) == sorted(get_args(BuiltInMetricName))


def test_the_runner_computes_each_family_where_it_says() -> None:
    assert set(SCORERS) == set(MODULES) == NGRAM_METRICS
    judged = {m for m in get_args(BuiltInMetricName) if is_judged(EvaluationMetric(metric=m))}
    assert judged == METRIC_FAMILIES["judged"]


def test_the_extension_manifest_has_the_default_patterns() -> None:
    manifest = _manifest()
    settings = manifest["contributes"]["configuration"]["properties"]
    assert settings["holodeck.files.include"]["default"] == list(DEFAULT_INCLUDE)
    assert manifest["activationEvents"] == [f"workspaceContains:{p}" for p in DEFAULT_INCLUDE]
    (validation,) = manifest["contributes"]["yamlValidation"]
    assert validation["fileMatch"] == list(DEFAULT_PATTERNS)
    severity = settings["holodeck.severity"]["additionalProperties"]["enum"]
    assert severity == list(SEVERITY_LEVELS)
    assert settings["holodeck.graders.import"]["default"] == Settings().grader_import


def test_the_extension_settings_module_has_the_default_patterns() -> None:
    assert _ts_strings("DEFAULT_INCLUDE") == list(DEFAULT_INCLUDE)
    assert _ts_strings("SEVERITIES") == list(SEVERITY_LEVELS)
