"""The outline of a document: its top-level sections, test cases and their turns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from holodeck_lsp.validation.diagnostics import Position, Range
from holodeck_lsp.validation.yaml.loader import load_yaml
from holodeck_lsp.validation.yaml.source_map import NodeInfo, SourceMap, Span, YamlPath

SymbolKind = Literal["section", "test-case", "turn"]
_EXCERPT = 60


@dataclass(frozen=True)
class Symbol:
    name: str
    detail: str
    kind: SymbolKind
    range: Range
    selection: Range
    children: tuple[Symbol, ...] = ()
    index: int | None = None  # a test case's or turn's position in its list


class _Doc:
    def __init__(self, text: str, source_map: SourceMap) -> None:
        self.lines = text.split("\n")
        self.map = source_map

    def _line(self, index: int) -> str:
        return self.lines[index].rstrip("\r") if 0 <= index < len(self.lines) else ""

    def extent(self, info: NodeInfo) -> Range:
        """From the key (or the item's dash) to the last character of the value."""
        first = info.key or info.value
        start = Position(first.line, first.col)
        if info.key is None and self._line(first.line)[max(first.col - 2, 0) : first.col] == "- ":
            start = Position(first.line, first.col - 2)
        end = Position(info.value.end_line, info.value.end_col)
        # A block value ends where the next token starts; pull back over blank lines.
        while end.line > start.line:
            before = self._line(end.line)[: end.character].strip()
            if before and not before.startswith("#"):
                break
            end = Position(end.line - 1, len(self._line(end.line - 1)))
        return Range(start, max(end, start))

    def span(self, span: Span) -> Range:
        return Range.of(span.line, span.col, span.end_line, span.end_col)


def _excerpt(value: Any) -> str:
    if not isinstance(value, str):
        return ""
    first = value.strip().split("\n", 1)[0]
    return first if len(first) <= _EXCERPT else first[: _EXCERPT - 1] + "…"


def _selection(doc: _Doc, path: YamlPath, info: NodeInfo, within: Range) -> Range:
    named = doc.map.get((*path, "name"))
    chosen = doc.span(named.value) if named is not None else within
    if chosen.start < within.start or chosen.end > within.end:
        return within
    return chosen


def _turns(doc: _Doc, data: Any, path: YamlPath) -> tuple[Symbol, ...]:
    turns = data.get("turns") if isinstance(data, dict) else None
    out = []
    for k, turn in enumerate(turns if isinstance(turns, list) else []):
        info = doc.map.get((*path, "turns", k))
        if info is None:
            continue
        where = doc.extent(info)
        text = turn.get("input") if isinstance(turn, dict) else None
        out.append(Symbol(f"turns[{k}]", _excerpt(text), "turn", where, where, index=k))
    return tuple(out)


def _cases(doc: _Doc, cases: Any, prefix: YamlPath) -> tuple[Symbol, ...]:
    out = []
    for i, case in enumerate(cases if isinstance(cases, list) else []):
        path = (*prefix, i)
        info = doc.map.get(path)
        if info is None:
            continue
        where = doc.extent(info)
        name = case.get("name") if isinstance(case, dict) else None
        label = name if isinstance(name, str) and name.strip() else f"test_cases[{i}]"
        children = _turns(doc, case, path)
        turns = case.get("turns") if isinstance(case, dict) else None
        if isinstance(turns, list):
            detail = f"{len(turns)} turn" + ("" if len(turns) == 1 else "s")
        else:
            detail = _excerpt(case.get("input") if isinstance(case, dict) else None)
        out.append(
            Symbol(
                label, detail, "test-case", where, _selection(doc, path, info, where), children, i
            )
        )
    return tuple(out)


def outline(text: str) -> list[Symbol] | None:
    """The document's symbols; None when the text does not parse (keep the last outline)."""
    loaded = load_yaml(text)
    if not loaded.parsed:
        return None
    doc = _Doc(text, loaded.source_map)
    data = loaded.data
    if isinstance(data, list):
        return list(_cases(doc, data, ()))
    if not isinstance(data, dict):
        return []
    out = []
    for key, value in data.items():
        info = doc.map.get((key,))
        if info is None or info.key is None:
            continue
        where = doc.extent(info)
        children = _cases(doc, value, ("test_cases",)) if key == "test_cases" else ()
        detail = (
            f"{len(value)} test cases" if key == "test_cases" and isinstance(value, list) else ""
        )
        out.append(Symbol(str(key), detail, "section", where, doc.span(info.key), children))
    return out


def suite_items(text: str, standalone: bool = False) -> list[Symbol] | None:
    """The test cases of an agent file, each with its turns (what a test explorer lists
    and code lenses mark); with ``standalone``, of a `test_cases_file` (a list, or a
    mapping with `test_cases:`). None when the text does not parse."""
    symbols = outline(text)
    if symbols is None:
        return None
    sections = [s for s in symbols if s.kind == "section" and s.name == "test_cases"]
    if sections:
        return list(sections[0].children)
    return [s for s in symbols if s.kind == "test-case"] if standalone else []
