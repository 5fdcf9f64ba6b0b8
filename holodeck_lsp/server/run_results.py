"""What the last run of a case said, placed in the document: diagnostics of source
`holodeck-lsp run` and hover text, built from `run --events` (docs/run-events.md). The
diagnostics are the failures the run's events list, each at its field path in the run's
words (marked "(last run)"): what failed and where is the runner's to say.

A diagnostic remembers the text of its line; once that line changes it is dropped, and
the next run of the document replaces them all. With a baseline (`run.baseline`), a turn or
case that passed there and fails now is REGRESSED on hover (the run lists the regression
among its failures). In a Markdown hover, what the model, a tool or the agent file said is
code: a reply cannot load an image or plant a live link.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types

from holodeck_lsp.hygiene.clipping import clip
from holodeck_lsp.hygiene.controls import visible
from holodeck_lsp.hygiene.markdown import code_span
from holodeck_lsp.server.positions import PositionMap
from holodeck_lsp.validation.yaml.loader import load_yaml
from holodeck_lsp.validation.yaml.path_text import parse_path
from holodeck_lsp.validation.yaml.source_map import SourceMap

SOURCE = "holodeck-lsp run"
_EXCERPT = 200


@dataclass
class Placed:
    diagnostic: types.Diagnostic
    line_text: str  # the line as it was when the run finished


@dataclass
class Verdict:
    """The last result of a case or a turn, shown on hover over its lines."""

    first_line: int
    last_line: int
    markdown: str
    plain: str


def verdict_texts(
    verdict: str, subject: str, ms: int, fields: list[tuple[str, list[str]]], label: bool
) -> tuple[str, str]:
    """A verdict's hover as Markdown (every value as code, the subject too when it is a
    ``label`` from the agent file) and as plain text: a head line, then a paragraph per
    field, its values joined by `; `."""
    shown = code_span(subject) if label else subject
    markdown = [f"**Last run: {verdict}** {shown} ({ms} ms)"] + [
        f"{name}: {'; '.join(code_span(value) for value in values)}" for name, values in fields
    ]
    plain = [f"Last run: {verdict} {subject} ({ms} ms)"]
    plain += [f"{name}: {'; '.join(values)}" for name, values in fields]
    return "\n\n".join(markdown), "\n\n".join(plain)


@dataclass
class DocumentRuns:
    placed: list[Placed] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)
    # Each tool call of the run: its name and argument names (completion offers an MCP
    # server's tools, known only once it has run).
    calls: list[tuple[str, list[str]]] = field(default_factory=list)


class RunResults:
    def __init__(self) -> None:
        self._by_uri: dict[str, DocumentRuns] = {}

    def replace(self, uri: str, runs: DocumentRuns) -> None:
        self._by_uri[uri] = runs

    def diagnostics(self, uri: str, text: str) -> list[types.Diagnostic]:
        """The run's diagnostics whose lines are unchanged in ``text``."""
        runs = self._by_uri.get(uri)
        if runs is None:
            return []
        lines = text.split("\n")
        kept = [
            p
            for p in runs.placed
            if p.diagnostic.range.start.line < len(lines)
            and lines[p.diagnostic.range.start.line].rstrip("\r") == p.line_text
        ]
        runs.placed = kept
        return [p.diagnostic for p in kept]

    def calls(self, uri: str) -> list[tuple[str, list[str]]]:
        """The tool calls of the document's last run (none before one)."""
        runs = self._by_uri.get(uri)
        return list(runs.calls) if runs is not None else []

    def hover(self, uri: str, line: int, markdown: bool = True) -> str | None:
        runs = self._by_uri.get(uri)
        if runs is None:
            return None
        around = [v for v in runs.verdicts if v.first_line <= line <= v.last_line]
        if not around:
            return None
        inner = min(around, key=lambda v: v.last_line - v.first_line)
        return inner.markdown if markdown else inner.plain


def _cut(text: str | None) -> str:
    if not text:
        return ""
    return clip(" ".join(visible(text).split()), _EXCERPT, "…")


class _Placer:
    def __init__(self, text: str, encoding: str) -> None:
        loaded = load_yaml(text)
        self.map: SourceMap | None = loaded.source_map if loaded.parsed else None
        self.lines = text.split("\n")
        self.positions = PositionMap(text, encoding)

    def line_text(self, line: int) -> str:
        return self.lines[line].rstrip("\r") if 0 <= line < len(self.lines) else ""

    def span(self, path: str) -> tuple[int, int, int, int] | None:
        """(line, col, end line, end col) of the field: its key to the end of its value's
        first line."""
        if self.map is None:
            return None
        try:
            info = self.map.get(parse_path(path))
        except ValueError:
            return None
        if info is None:
            return None
        start = info.key or info.value
        if info.value.end_line == start.line:  # a value on one line (else: its first line)
            return start.line, start.col, start.line, info.value.end_col
        return start.line, start.col, start.line, len(self.line_text(start.line))

    def lines_of(self, path: str) -> tuple[int, int] | None:
        if self.map is None:
            return None
        info = self.map.get(parse_path(path))
        if info is None:
            return None
        first = (info.key or info.value).line
        return first, max(first, info.value.end_line - 1)

    def range_of(self, path: str) -> types.Range | None:
        """Where a result about the field at ``path`` is shown, in the client's encoding."""
        span = self.span(path)
        if span is None:
            return None
        line, col, end_line, end_col = span
        return self.positions.range_to_lsp((line, col), (end_line, end_col))

    def place(self, path: str, message: str, severity: types.DiagnosticSeverity) -> Placed | None:
        where = self.range_of(path)
        if where is None:
            return None
        diagnostic = types.Diagnostic(
            range=where, message=message, severity=severity, source=SOURCE
        )
        return Placed(diagnostic, self.line_text(where.start.line))


def field_ranges(text: str, encoding: str, paths: list[str]) -> list[types.Range | None]:
    """Where each field path of a run's events stands in ``text`` (None: not there)."""
    placer = _Placer(text, encoding)
    return [placer.range_of(path) for path in paths]


def from_events(events: list[dict[str, Any]], text: str, encoding: str) -> DocumentRuns:
    """Diagnostics and hover texts of one run's events, placed in ``text``: each failure a
    turn's event lists at its field path, as the run worded it."""
    placer = _Placer(text, encoding)
    runs = DocumentRuns()
    metrics: dict[tuple[int, int], list[str]] = {}
    for event in events:
        kind = event.get("event")
        if kind == "metric":
            key = (event["case"], event["turn"])
            mark = {True: "pass", False: "FAIL", None: "-"}[event["passed"]]
            metrics.setdefault(key, []).append(f"{event['name']} {event['score']:.3g} {mark}")
        elif kind == "turn_finished":
            _turn(event, placer, runs, metrics.get((event["case"], event["turn"]), []))
            runs.calls += [(c["name"], list(c["args"])) for c in event["tool_calls"]]
            for failure in event.get("failures") or []:
                _place_failure(failure, placer, runs)
        elif kind == "case_finished":
            lines = placer.lines_of(event["path"])
            if lines is not None:
                verdict = "PASS" if event["passed"] else "FAIL"
                verdict = "REGRESSED" if _regressed(event) else verdict
                fields = [("errors", [_cut(e) for e in event["errors"][:3]])]
                texts = verdict_texts(
                    verdict, _cut(event["label"]), event["duration_ms"],
                    fields if event["errors"] else [], label=True,
                )  # fmt: skip
                runs.verdicts.append(Verdict(*lines, *texts))
    return runs


def _place_failure(failure: dict[str, Any], placer: _Placer, runs: DocumentRuns) -> None:
    message = f"{_cut(failure['message'])} (last run)"
    if failure.get("expected") is not None or failure.get("actual") is not None:
        message += f"\nexpected: {_cut(failure['expected'])}\nactual: {_cut(failure['actual'])}"
    placed = placer.place(failure["path"], message, types.DiagnosticSeverity.Error)
    if placed is not None:
        runs.placed.append(placed)


def _regressed(event: dict[str, Any]) -> bool:
    """The turn or case passed in the baseline (`run.baseline`) and fails now."""
    baseline = event.get("baseline")
    return isinstance(baseline, dict) and baseline.get("change") == "regressed"


def _turn(event: dict[str, Any], placer: _Placer, runs: DocumentRuns, metrics: list[str]) -> None:
    lines = placer.lines_of(event["path"])
    if lines is None:
        return
    verdict = "SKIP" if event["skipped"] else ("PASS" if event["passed"] else "FAIL")
    if _regressed(event):
        verdict = "REGRESSED"
    calls = ", ".join(
        f"{c['name']}({', '.join(f'{k}={v!r}' for k, v in c['args'].items())})"
        for c in event["tool_calls"]
    )
    fields: list[tuple[str, list[str]]] = []
    if event["response"] is not None:
        fields.append(("reply", [_cut(event["response"])]))
    if calls:
        fields.append(("tool calls", [_cut(calls)]))
    if metrics:
        fields.append(("metrics", [_cut(m) for m in metrics]))
    if event["errors"]:
        fields.append(("errors", [_cut(e) for e in event["errors"][:3]]))
    if isinstance(event.get("baseline"), dict):
        fields.append(("since the baseline", [_cut(str(event["baseline"].get("text")))]))
    texts = verdict_texts(
        verdict, f"turn {event['turn']}", event["duration_ms"], fields, label=False
    )
    runs.verdicts.append(Verdict(*lines, *texts))
