"""Real HoloDeck files, all accepted by HoloDeck itself: not one error from us."""

from __future__ import annotations

from holodeck_lsp.check.checker import CheckOptions, check_paths
from holodeck_lsp.validation.diagnostics import Severity
from holodeck_lsp.validation.validate import ValidationContext
from tests.conftest import CORPUS


def test_check_reports_no_error_on_the_real_corpus() -> None:
    result = check_paths([CORPUS], CheckOptions(ValidationContext(user_config_dir=None)))
    errors = [
        f"{f.file}:{d.range.start.line + 1}: {d.code} {d.message}"
        for f in result.files
        for d in f.diagnostics
        if d.severity == Severity.ERROR
    ]
    assert errors == []
    assert len(result.files) >= 80


def test_every_corpus_yaml_validates_without_error_when_named_explicitly() -> None:
    files = sorted(CORPUS.rglob("*.yaml"))
    result = check_paths(files, CheckOptions(ValidationContext(user_config_dir=None)))
    errors = [
        f"{f.file}: {d.code} {d.message}"
        for f in result.files
        for d in f.diagnostics
        if d.severity == Severity.ERROR
    ]
    assert errors == []
