"""Turn (logical path, rule, message) into positioned diagnostics in the right file.

An agent's data is *logical*: test cases may come from a `test_cases_file`, values
from the project config. A router maps each logical path to the document and path it
was written at; positions then come from that document's source map.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from holodeck_lsp.validation.codes import rule
from holodeck_lsp.validation.diagnostics import Diagnostic, Range, RelatedInformation, Severity
from holodeck_lsp.validation.yaml.path_text import format_path
from holodeck_lsp.validation.yaml.scalar_positions import value_position
from holodeck_lsp.validation.yaml.source_map import NodeInfo, SourceMap, Span, YamlPath

Part = Literal["value", "key", "anchor"]


@dataclass
class SourceDoc:
    """One file as loaded: its text lines, data and source map."""

    file: str
    lines: list[str]
    data: Any
    source_map: SourceMap

    def line_end(self, line: int) -> int:
        return len(self.lines[line].rstrip("\r")) if 0 <= line < len(self.lines) else 0


Router = Callable[[YamlPath], tuple[SourceDoc, YamlPath]]


def value_at(data: Any, path: YamlPath) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def test_case_label(data: Any, path: YamlPath) -> str | None:
    """`test case "name"` for a path inside a test case (the index is in the path)."""
    if len(path) >= 2 and path[0] == "test_cases" and isinstance(path[1], int):
        name = value_at(data, path[:2] + ("name",))
        if isinstance(name, str) and name.strip():
            return f'test case "{name}"'
    return None


def _anchor(doc: SourceDoc, info: NodeInfo) -> Span:
    if info.key is not None:
        return info.key
    v = info.value
    end_col = doc.line_end(v.line) if v.end_line > v.line else v.end_col
    return Span(v.line, v.col, v.line, max(end_col, v.col))


def span_in(doc: SourceDoc, path: YamlPath, part: Part = "value", char: int | None = None) -> Span:
    """Where ``path`` was written in ``doc``, else its nearest written ancestor."""
    found = doc.source_map.nearest(path)
    if found is None:
        return Span(0, 0, 0, doc.line_end(0))
    found_path, info = found
    # A whole mapping or list is shown by its key (or first line), never by all its lines.
    if found_path != path or part == "anchor" or info.kind != "scalar":
        return _anchor(doc, info)
    if part == "key" and info.key is not None:
        return info.key
    if char is not None and info.kind == "scalar":
        value = value_at(doc.data, path)
        if isinstance(value, str):
            spot = value_position(doc.lines, info.value, info.style, value, char)
            if spot is not None:
                return spot
    return info.value


def _to_range(span: Span) -> Range:
    return Range.of(span.line, span.col, span.end_line, span.end_col)


@dataclass(frozen=True)
class Origin:
    """A value another file put into this document's data (the config merge does)."""

    at: YamlPath  # where the value sits in the logical data
    note: str  # said after the message: where the value comes from
    source: Callable[[YamlPath], RelatedInformation]  # the place, given the path below ``at``


@dataclass(frozen=True)
class Collector:
    """Collects diagnostics, per file, for one step of a validation.

    Configured once: a step that reads other data, routes paths elsewhere or knows
    where merged values come from gets a collector of its own over the same ``by_file``.
    """

    logical: Any
    route: Router
    by_file: dict[str, list[Diagnostic]] = field(default_factory=dict)
    origins: tuple[Origin, ...] = ()

    def span_for(
        self, path: YamlPath, part: Part = "value", char: int | None = None
    ) -> tuple[SourceDoc, Span]:
        doc, physical = self.route(path)
        return doc, span_in(doc, physical, part, char)

    def scalar_source(self, path: YamlPath) -> str | None:
        """The text of the one-line scalar written at exactly ``path``, if the source has one
        (a value the config merge put there has none)."""
        doc, physical = self.route(path)
        found = doc.source_map.nearest(physical)
        if found is None or found[0] != physical or found[1].kind != "scalar":
            return None
        span = found[1].value
        return doc.lines[span.line][span.col : span.end_col] if span.line == span.end_line else None

    def emit(
        self,
        path: YamlPath,
        code: str,
        message: str,
        *,
        part: Part = "value",
        char: int | None = None,
        data: dict[str, Any] | None = None,
        related: tuple[RelatedInformation, ...] = (),
        severity: Severity | None = None,
    ) -> None:
        doc, span = self.span_for(path, part, char)
        shown = format_path(path)
        label = test_case_label(self.logical, path)
        where = f"{label}: {shown}" if label else shown
        for origin in self.origins:
            if path[: len(origin.at)] == origin.at:
                message = f"{message}; {origin.note}"
                related = (*related, origin.source(path[len(origin.at) :]))
        text = _printable(f"{message} ({where})" if where else message)
        diagnostic = Diagnostic(
            _to_range(span),
            severity or rule(code).severity,
            code,
            text,
            _printable(shown),
            related,
            data,
        )
        self.by_file.setdefault(doc.file, []).append(diagnostic)

    def emit_span(
        self,
        doc: SourceDoc,
        span: Span,
        code: str,
        message: str,
        path: YamlPath = (),
        data: dict[str, Any] | None = None,
        related: tuple[RelatedInformation, ...] = (),
    ) -> None:
        """A diagnostic at a known place (YAML problems, which precede any path)."""
        shown = format_path(path)
        text = _printable(f"{message} ({shown})" if shown else message)
        self.by_file.setdefault(doc.file, []).append(
            Diagnostic(
                _to_range(span), rule(code).severity, code, text, _printable(shown), related, data
            )
        )


def _printable(text: str) -> str:
    """``text`` with lone surrogates (a YAML "\\ud800" escape) spelled as escapes again:
    they cannot be encoded, so printing them would crash every collector but JSON's."""
    if text.isascii():
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def related_at(doc: SourceDoc, span: Span, message: str) -> RelatedInformation:
    return RelatedInformation(doc.file, _to_range(span), message)
