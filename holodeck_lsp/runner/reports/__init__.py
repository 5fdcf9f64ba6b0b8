"""Report formats of a run: the `TestReport` JSON, Markdown and JUnit XML."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from holodeck_lsp.models.test_result import TestReport
from holodeck_lsp.runner.reports.junit import render_junit
from holodeck_lsp.runner.reports.markdown import render_markdown


def render_json(report: TestReport) -> str:
    return report.model_dump_json(indent=2) + "\n"


RENDERERS: dict[str, Callable[[TestReport], str]] = {
    ".json": render_json,
    ".md": render_markdown,
    ".markdown": render_markdown,
    ".xml": render_junit,
}


def renderer_for(path: Path) -> Callable[[TestReport], str]:
    """The format is chosen by the file's extension; raises ValueError for others."""
    try:
        return RENDERERS[path.suffix.lower()]
    except KeyError:
        raise ValueError(f"{path}: unknown report format; use .json, .md or .xml") from None


def write_reports(report: TestReport, paths: list[Path]) -> None:
    for path in paths:
        path.write_text(renderer_for(path)(report), encoding="utf-8")
