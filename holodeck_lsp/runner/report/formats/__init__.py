"""Report formats of a run: the `TestReport` JSON, Markdown, JUnit XML and HTML."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from holodeck_lsp.history.turn_standings import Standings
from holodeck_lsp.hygiene.controls import encodable
from holodeck_lsp.models.comparison import Comparison
from holodeck_lsp.models.test_result import TestReport
from holodeck_lsp.runner.report.formats.html_report import render_html
from holodeck_lsp.runner.report.formats.junit_xml import render_junit
from holodeck_lsp.runner.report.formats.markdown_report import render_markdown
from holodeck_lsp.runner.score.turn_scores import Records
from holodeck_lsp.runner.services.atomic_output import atomic_write
from holodeck_lsp.runner.services.redaction import Secrets, map_strings

# Fields HoloDeck's report does not have: written only when they say something, so a
# complete run's report stays one HoloDeck reads.
OWN_FIELDS = ("interrupted", "stop_reason", "not_run", "repeats")


class Renderer(Protocol):
    """A report format: the report, the record of each of its turns (the run's own, or a
    report's read back from disk by `merge`), and with `run --baseline` its comparison
    with the baseline, as the file's text."""

    def __call__(
        self, report: TestReport, records: Records, baseline: Comparison | None = None
    ) -> str: ...


def render_json(
    report: TestReport, records: Records | None = None, baseline: Comparison | None = None
) -> str:
    """The run's own report: the baseline is `compare`'s to tell, not part of it."""
    unset: Any = {name for name in OWN_FIELDS if not getattr(report, name, None)}
    return report.model_dump_json(indent=2, exclude=unset) + "\n"


RENDERERS: dict[str, Renderer] = {
    ".json": render_json,
    ".md": render_markdown,
    ".markdown": render_markdown,
    ".xml": render_junit,
    ".html": render_html,
    ".htm": render_html,
}


# `run --format NAME` (run_defaults.REPORT_FORMATS): every report in that format.
NAMED_RENDERERS: dict[str, Renderer] = {
    "json": render_json,
    "markdown": render_markdown,
    "junit": render_junit,
    "html": render_html,
}


def renderer_for(path: Path, chosen: str | None = None) -> Renderer:
    """The format ``chosen`` (`--format`), else the file's extension's, else JSON, as
    `holodeck test --output` writes a file of another extension."""
    if chosen is not None:
        return NAMED_RENDERERS[chosen]
    return RENDERERS.get(path.suffix.lower(), render_json)


def unknown_extension(path: Path, chosen: str | None = None) -> str | None:
    """A note for a report whose format its name does not tell: it is written as JSON."""
    if chosen is not None or path.suffix.lower() in RENDERERS:
        return None
    return (
        f"{path}: written as JSON, as holodeck test writes a report of another extension "
        "(.json, .md, .xml or .html choose the format, or --format)"
    )


def write_reports(
    report: TestReport,
    records: Records,
    paths: list[Path],
    secrets: Secrets | None = None,
    baseline: Comparison | None = None,
    chosen: str | None = None,
    history: Standings | None = None,
) -> list[str]:
    """Every report that can be written is, from the report and the record of each turn
    (with ``baseline``, the deltas beside each case; with ``chosen``, each in that format;
    with ``history``, the HTML report's record of each case and turn over the runs kept
    before this one); returns why the others could not be.

    The report's and the records' values are masked before any format escapes or cuts
    them; each rendered text is masked once more, in case a secret got there another
    way."""
    secrets = secrets or Secrets()
    # The JSON report tells whether any value needs masking: most reports need none, and
    # their JSON is written as it is (no second rendering, no walk over the values).
    try:
        data = render_json(report)
    except ValueError:  # a lone surrogate from a service's JSON: no format could hold it
        report = map_strings(report, encodable)
        records = map_strings(records, encodable)
        data = render_json(report)
    if secrets.touches(data):
        report = secrets.mask_model(report, touched=True)
        records = secrets.mask_data(records)
        data = render_json(report)
    if baseline is not None:
        baseline = secrets.mask_model(baseline)
    problems = []
    for path in paths:
        render = renderer_for(path, chosen)
        try:
            if render is render_json:
                text = data
            elif render is render_html:  # the one format that tells the history
                text = render_html(report, records, baseline, history)
            else:
                text = render(report, records, baseline)
            atomic_write(path, secrets.mask(text))
        except OSError as exc:
            problems.append(f"cannot write {path}: {exc.strerror or exc}")
    return problems
