"""`${VAR}` in a YAML comment (HL008): HoloDeck substitutes every `${...}` of the raw text
before it parses it (`holodeck/config/env_loader.py:substitute_env_vars`, a `re.sub` over
the whole file), comments included, so an unset variable named only in a comment still
stops it.

Which references stand in a comment is decided by the parser's marks: a reference after a
`#` on its line that no key or scalar value of the source map covers is outside every
token, and outside tokens YAML holds only comments and blanks. The reference itself is
found by HoloDeck's own pattern, as its substitution finds it."""

from __future__ import annotations

from holodeck_lsp.validation.collector import Collector, SourceDoc
from holodeck_lsp.validation.env_refs import ENV_REF
from holodeck_lsp.validation.yaml.source_map import Span

Reference = tuple[int, int, int, str]  # line, start and end column, variable name


def env_in_comments(doc: SourceDoc, collector: Collector) -> None:
    found = _after_a_hash(doc.lines)
    if not found:
        return
    covering = _scalar_spans(doc, {line for line, _, _, _ in found})
    for line, start, end, name in found:
        if not any(_covers(span, line, start) for span in covering.get(line, ())):
            collector.emit_span(
                doc,
                Span(line, start, line, end),
                "HL008",
                f"${{{name}}} in a comment is substituted too: HoloDeck replaces every "
                f"${{...}} of the file, comments included, and stops when {name} is not "
                f"set; write ${name} in comments",
            )


def _after_a_hash(lines: list[str]) -> list[Reference]:
    """References preceded by a `#` on their line: the only ones a comment may hold."""
    found: list[Reference] = []
    for number, text in enumerate(lines):
        if "${" not in text or "#" not in text:
            continue
        for match in ENV_REF.finditer(text):
            if "#" in text[: match.start()]:
                found.append((number, match.start(), match.end(), match.group(1)))
    return found


def _scalar_spans(doc: SourceDoc, lines: set[int]) -> dict[int, list[Span]]:
    """The keys and scalar values that touch ``lines``, by line."""
    spans: dict[int, list[Span]] = {}
    for _path, info in doc.source_map.items():
        parts = [info.key] if info.key is not None else []
        if info.kind == "scalar":
            parts.append(info.value)
        for span in parts:
            for line in lines:
                if span.line <= line <= span.end_line:
                    spans.setdefault(line, []).append(span)
    return spans


def _covers(span: Span, line: int, col: int) -> bool:
    return (span.line, span.col) <= (line, col) < (span.end_line, span.end_col)
