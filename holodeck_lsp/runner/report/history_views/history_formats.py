"""The formats of `history`, by name (`--format`), each giving text safe to print or post:
control and bidirectional characters escaped (as JSON escapes in JSON), every text from a
file a code span in Markdown, escaped in HTML."""

from __future__ import annotations

from collections.abc import Callable

from holodeck_lsp.hygiene.controls import visible, visible_json
from holodeck_lsp.runner.report.history_views.history_markdown import render_history_markdown
from holodeck_lsp.runner.report.history_views.history_text import render_history_text
from holodeck_lsp.runner.report.history_views.history_view import HistoryPage


def _json(page: HistoryPage) -> str:
    return visible_json(page.view.model_dump_json(indent=2)) + "\n"


def _text(page: HistoryPage) -> str:
    return visible(render_history_text(page.view))


def _markdown(page: HistoryPage) -> str:
    return render_history_markdown(page.view)  # every text from a file is a code span


def _html(page: HistoryPage) -> str:
    # Loaded when asked for: it shares the HTML report's styles, with the report formats.
    from holodeck_lsp.runner.report.history_views.history_html import render_history_html

    return render_history_html(page)


HISTORY_FORMATS: dict[str, Callable[[HistoryPage], str]] = {
    "text": _text,
    "json": _json,
    "markdown": _markdown,
    "html": _html,
}
