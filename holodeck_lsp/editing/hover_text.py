"""Hover text for the key (or value) under the cursor: the field's documentation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from holodeck_lsp.editing.cursor import key_at
from holodeck_lsp.editing.field_docs import field_doc, render
from holodeck_lsp.editing.model_roots import ROOTS, logical_path
from holodeck_lsp.validation.collector import value_at
from holodeck_lsp.validation.diagnostics import Range
from holodeck_lsp.validation.file_kinds import Kind
from holodeck_lsp.validation.yaml.loader import load_yaml
from holodeck_lsp.validation.yaml.source_map import YamlPath


@dataclass(frozen=True)
class HoverInfo:
    markdown: str
    plain: str
    range: Range


def _from_parse(text: str, line: int, character: int) -> tuple[YamlPath, Range, Any] | None:
    """YamlPath and range from a full parse (flow mappings, keys the line scan cannot read)."""
    loaded = load_yaml(text)
    if not loaded.parsed:
        return None
    path = loaded.source_map.path_at(line, character)
    info = loaded.source_map.get(path) if path else None
    if not path or info is None or not isinstance(path[-1], str):
        return None
    span = info.key if info.key is not None and info.key.contains(line, character) else info.value
    return (
        path,
        Range.of(span.line, span.col, span.end_line, span.end_col),
        value_at(loaded.data, path[:-1]),
    )


def _line(text: str, line: int) -> str:
    lines = text.split("\n")
    return lines[line] if 0 <= line < len(lines) else ""


def _opens_flow(text: str, line: int, column: int) -> bool:
    return _line(text, line)[column : column + 1] in ("{", "[")


def hover_at(text: str, line: int, character: int, kind: Kind) -> HoverInfo | None:
    """The documentation of the field at (line, character), if there is one."""
    found = key_at(text, line, character)
    if found is None or (found.part == "value" and _opens_flow(text, line, found.start)):
        # Only flow collections need a full parse (a large file makes it slow).
        flow_line = _line(text, line)
        parsed = (
            _from_parse(text, line, character) if "{" in flow_line or "[" in flow_line else None
        )
    else:
        parsed = None
    if parsed is not None:
        path, where, data = parsed
    elif found is not None:
        path, data = found.path, dict(found.siblings)
        data[str(found.path[-1])] = ""
        where = Range.of(line, found.start, line, found.end)
    else:
        return None
    doc = field_doc(ROOTS[kind], logical_path(kind, path), data)
    if doc is None:
        return None
    return HoverInfo(render(doc), render(doc, markdown=False), where)
