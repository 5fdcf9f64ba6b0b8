"""Runs INSIDE HoloDeck's runner venv: renders JSON reports with HoloDeck's own Markdown
reporter. Arguments: report files; output: one JSON line per file, `{"file", "error"}`
(error null when it rendered), and, with `--each`, one line per test case of the file,
rendered as a report of its own (`{"file", "case", "error"}`)."""

from __future__ import annotations

import json
import sys

from holodeck.lib.test_runner.reporter import generate_markdown_report
from holodeck.models.test_result import TestReport


def _render(report: TestReport) -> str | None:
    try:
        generate_markdown_report(report)
    except Exception as exc:  # what the reporter raised is the verdict
        return f"{type(exc).__name__}: {exc}"
    return None


def main(argv: list[str]) -> int:
    each = "--each" in argv
    for path in (a for a in argv if a != "--each"):
        with open(path, encoding="utf-8") as handle:
            report = TestReport.model_validate_json(handle.read())
        print(json.dumps({"file": path, "error": _render(report)}))
        if each:
            for index, result in enumerate(report.results):
                alone = report.model_copy(update={"results": [result]})
                print(json.dumps({"file": path, "case": index, "error": _render(alone)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
