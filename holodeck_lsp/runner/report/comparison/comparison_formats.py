"""The formats of `compare`, by name (`--format`), each giving text safe to print or post:
control and bidirectional characters escaped, as JSON escapes in JSON."""

from __future__ import annotations

from collections.abc import Callable

from holodeck_lsp.hygiene.controls import visible, visible_json
from holodeck_lsp.models.comparison import Comparison
from holodeck_lsp.runner.report.comparison.comparison_markdown import (
    render_comparison_markdown,
)
from holodeck_lsp.runner.report.comparison.comparison_text import render_comparison_text


def render_json(comparison: Comparison, _fail_on: str) -> str:
    return visible_json(comparison.model_dump_json(indent=2)) + "\n"


def _text(comparison: Comparison, fail_on: str) -> str:
    return visible(render_comparison_text(comparison, fail_on))


COMPARISON_FORMATS: dict[str, Callable[[Comparison, str], str]] = {
    "text": _text,
    "markdown": render_comparison_markdown,  # every text from a report is a code span already
    "json": render_json,
}
