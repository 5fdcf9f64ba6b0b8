"""Parse a large suite one test case at a time, re-using the cases an edit did not touch.

The language server validates on every keystroke; parsing a 1,000-case suite whole
takes most of a second, while an edit changes one case. A block list of test cases
(`test_cases:` followed by `- ` items, or a file that is such a list) is cut at its
items; each item is parsed on its own and cached by its text, and the rest of the file
is parsed with the items' lines blanked. The result is the same data, problems and
positions as a whole parse (a property test holds the two together); anything this
cutting cannot promise that for (anchors, merge keys, tabs, several documents, flow
lists) is parsed whole.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import OrderedDict
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

from holodeck_lsp.validation.yaml.loader import (
    MAX_TEXT,
    LoadedYaml,
    YamlProblem,
    fast_reader_accepts,
    load_yaml,
)
from holodeck_lsp.validation.yaml.source_map import NodeInfo, SourceMap, Span, YamlPath

MIN_LINES = 400  # below this a whole parse is fast enough
_CACHE_SIZE = 8192
_LIST_KEY = re.compile(r"^test_cases:[ ]*(?:#.*)?$", re.MULTILINE)
_FIRST_CONTENT = re.compile(r"^( *)(\S)", re.MULTILINE)
_NODE_PROPERTY_AFTER = " \t\n[{,:-"


def _unsafe(text: str) -> bool:
    """Whether the text uses what cutting cannot keep whole: anchors, aliases, tags,
    merge keys, tabs, line breaks other than LF and CRLF, or several documents."""
    if "\t" in text or "<<" in text or text.startswith(("---", "...", "%")):
        return True
    # Line breaks other than "\n" and "\r\n" (a lone "\r", NEL, LS, PS) end a line for YAML
    # but not for the cut, which counts lines by "\n".
    if "\x85" in text or "\u2028" in text or "\u2029" in text:
        return True
    if "\r" in text and text.count("\r") != text.count("\r\n"):
        return True
    if "\n---" in text or "\n..." in text or "\n%" in text:
        return True
    for mark in "&*!":
        at = text.find(mark)
        while at != -1:
            before = text[at - 1] if at else "\n"
            after = text[at + 1 : at + 2]
            if before in _NODE_PROPERTY_AFTER and (after.isalnum() or after in "_<!"):
                return True
            at = text.find(mark, at + 1)
    return False


@dataclass(frozen=True)
class _Item:
    ok: bool
    data: Any
    positions: SourceMap  # lines relative to the item's first line
    problems: tuple[YamlProblem, ...]

    @property
    def nodes(self) -> dict[YamlPath, NodeInfo]:
        return self.positions._nodes


_cache: OrderedDict[tuple[str, int], _Item] = OrderedDict()


class _Placed(NamedTuple):  # a tuple: one is built per list item on every keystroke
    """Where an item's text sits in the file: its first line, and the column of the token
    after it. A mark at the very end of the item's text (col 0 of the line after it, where
    an empty value ends) is where a whole parse puts it: at that next token."""

    start: int
    lines: int
    next_col: int

    def point(self, line: int, col: int) -> tuple[int, int]:
        if line == self.lines and col == 0:
            col = self.next_col
        return line + self.start, col


def _shift_span(span: Span | None, at: _Placed) -> Span | None:
    if span is None:
        return None
    line, col = at.point(span.line, span.col)
    end_line, end_col = at.point(span.end_line, span.end_col)
    return Span(line, col, end_line, end_col)


def _shift(info: NodeInfo, at: _Placed) -> NodeInfo:
    return NodeInfo(
        _shift_span(info.key, at),
        _shift_span(info.value, at) or info.value,
        info.kind,
        info.style,
    )


class ChunkedSourceMap(SourceMap):
    """A head map plus one map per list item, each kept in its own item's line numbers."""

    def __init__(
        self, head: dict[YamlPath, NodeInfo], prefix: YamlPath, items: list[tuple[_Placed, _Item]]
    ) -> None:
        super().__init__(head)
        self._prefix = prefix
        self._items = items
        self._starts = [at.start for at, _ in items]

    def _split(self, path: YamlPath) -> tuple[int, YamlPath] | None:
        n = len(self._prefix)
        if len(path) > n and path[:n] == self._prefix:
            index = path[n]
            if (
                isinstance(index, int)
                and not isinstance(index, bool)
                and (0 <= index < len(self._items))
            ):
                return index, (0, *path[n + 1 :])
        return None

    def get(self, path: YamlPath) -> NodeInfo | None:
        inside = self._split(path)
        if inside is None:
            return self._nodes.get(path)
        at, item = self._items[inside[0]]
        info = item.nodes.get(inside[1])
        return _shift(info, at) if info is not None else None

    def paths(self) -> list[YamlPath]:
        out = list(self._nodes)
        for index, (_, item) in enumerate(self._items):
            out.extend((*self._prefix, index, *rel[1:]) for rel in item.nodes if rel)
        return out

    def path_at(self, line: int, col: int) -> YamlPath | None:
        index = bisect_right(self._starts, line) - 1
        if index >= 0:
            at, item = self._items[index]
            best: YamlPath | None = None
            for rel, info in item.nodes.items():
                if not rel:
                    continue
                shifted = _shift(info, at)
                hit = shifted.value.contains(line, col) or (
                    shifted.key is not None and shifted.key.contains(line, col)
                )
                if hit and (best is None or len(rel) > len(best)):
                    best = rel
            if best is not None:
                return (*self._prefix, index, *best[1:])
        return super().path_at(line, col)


def _parse_item(text: str, depth: int) -> _Item:
    """One item of the list, ``depth`` levels under the file's top (its nesting limit
    counts them, as a whole parse does)."""
    cached = _cache.get((text, depth))
    if cached is not None:
        _cache.move_to_end((text, depth))
        return cached
    loaded = load_yaml(text, depth=depth)
    ok = loaded.parsed and isinstance(loaded.data, list) and len(loaded.data) == 1
    # An item's positions are built when asked for (most cases have no problem to place),
    # from its text again: the cache keeps neither the table nor the parser's events.
    positions = SourceMap(build=partial(_item_table, text, depth))
    item = _Item(ok, loaded.data[0] if ok else None, positions, tuple(loaded.problems))
    _cache[(text, depth)] = item
    if len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return item


def _item_table(text: str, depth: int) -> dict[YamlPath, NodeInfo]:
    return load_yaml(text, depth=depth).source_map._nodes


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _cut(text: str) -> tuple[YamlPath, list[int], int] | None:
    """(list path, item start lines, end line) of the suite's block list, if it has one."""
    key = _LIST_KEY.search(text)
    begin = key.end() if key is not None else 0
    first = _FIRST_CONTENT.search(text, begin)
    while first is not None and first.group(2) == "#":
        first = _FIRST_CONTENT.search(text, first.end())
    if first is None or first.group(2) != "-" or text[first.end() : first.end() + 1] not in " \n":
        return None  # no list, or a plain scalar such as `-1` (the empty slice is the end)
    indent = len(first.group(1))
    if key is None and (indent != 0 or text[: first.start()].strip(" \n#") != ""):
        return None
    # An item starts with "-" at the list's indentation; the list ends at the first other
    # line indented no deeper (comments and blank lines belong to the item above). Both
    # patterns start with the line break before the line: the engine then jumps from one
    # line break to the next instead of trying every character (a keystroke's cost).
    item = re.compile(rf"\n {{{indent}}}-(?: |\n|$)")
    stop = re.compile(rf"\n(?! {{{indent}}}-(?: |\n|$)) {{0,{indent}}}[^ #\n]")
    # The first item's own line has no line break before it in the searched range.
    ending = stop.search(text, first.start())
    limit = ending.start() + 1 if ending is not None else len(text)
    line = text.count("\n", 0, first.start())
    starts, last = [line], first.start()
    for match in item.finditer(text, first.start(), limit):
        line += text.count("\n", last, match.start() + 1)
        last = match.start() + 1
        starts.append(line)
    if len(starts) < 2:
        return None
    end = text.count("\n", 0, limit) if ending is not None else text.count("\n") + 1
    if key is None and ending is not None:
        return None  # text after a top-level list: only a whole parse can judge it
    return (("test_cases",) if key is not None else ()), starts, end


def load_yaml_incremental(text: str, max_text: int = MAX_TEXT) -> LoadedYaml:
    """Like ``load_yaml``; large block lists of test cases are parsed item by item."""
    if text.count("\n") < MIN_LINES or len(text) > max_text or _unsafe(text):
        return load_yaml(text, max_text)
    cut = _cut(text)
    if cut is None:
        return load_yaml(text)
    lines = text.split("\n")
    prefix, starts, end = cut
    bounds = list(zip(starts, [*starts[1:], end], strict=True))
    items = [
        (
            _Placed(a, b - a, _indent(lines[b]) if b < len(lines) else 0),
            # The last item of a list that runs to the end is the text's own end, with no
            # line break added (a block scalar there would take it in).
            _parse_item("\n".join(lines[a:b]) + ("\n" if b < len(lines) else ""), len(prefix)),
        )
        for a, b in bounds
    ]
    head_lines = list(lines)
    head_lines[starts[0] : end] = [""] * (end - starts[0])
    head = load_yaml("\n".join(head_lines)) if prefix else None
    if head is not None and not (
        head.parsed and isinstance(head.data, dict) and head.data.get("test_cases") is None
    ):
        return load_yaml(text)
    broken = next(((at, item) for at, item in items if not item.ok), None)
    if broken is not None:
        at, item = broken
        syntax = item.problems and all(p.kind in ("syntax", "tab") for p in item.problems)
        if not syntax or fast_reader_accepts(text):
            return load_yaml(text)
        # The whole text does not parse either: report the broken case's own error (an
        # unclosed quote is shown at the end of its case, not of the file) rather than
        # re-reading a large file a second time with the slower reader on every keystroke.
        problems = [
            YamlProblem(p.kind, _shift_span(p.span, at) or p.span, p.message)
            for p in item.problems
        ]
        return LoadedYaml(None, SourceMap({}), problems, parsed=False)
    data_items = [item.data for _, item in items]
    head_nodes: dict[YamlPath, NodeInfo] = dict(head.source_map._nodes) if head else {}
    last_at, last = items[-1]
    last_end = _shift(last.nodes[()], last_at).value
    first_dash = Span(starts[0], _indent(lines[starts[0]]), last_end.end_line, last_end.end_col)
    key = head_nodes[prefix].key if prefix and prefix in head_nodes else None
    head_nodes[prefix] = NodeInfo(key, first_dash, "sequence", None)
    if head is not None and () in head_nodes and prefix:
        root = head_nodes[()]
        head_nodes[()] = NodeInfo(
            root.key,
            Span(
                root.value.line,
                root.value.col,
                max(root.value.end_line, last_end.end_line),
                root.value.end_col,
            ),
            "mapping",
            None,
        )
    problems = list(head.problems) if head else []
    for index, (at, item) in enumerate(items):
        for p in item.problems:
            path = (*prefix, index, *p.path[1:]) if p.path else ()
            problems.append(
                YamlProblem(
                    p.kind,
                    _shift_span(p.span, at) or p.span,
                    p.message,
                    path,
                    _shift_span(p.other, at),
                )
            )
    data: Any = data_items
    if head is not None:
        data = dict(head.data)
        data["test_cases"] = data_items
    return LoadedYaml(data, ChunkedSourceMap(head_nodes, prefix, items), problems)
