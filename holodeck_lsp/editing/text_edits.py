"""Exact text edits on a YAML document: offsets, block-mapping entries, minimal diffs.

Quick fixes rewrite the text they need and nothing else, so comments, key order and
indentation everywhere else stay byte for byte as the user wrote them.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from holodeck_lsp.validation.diagnostics import Position, Range
from holodeck_lsp.validation.yaml.source_map import SourceMap, YamlPath


@dataclass(frozen=True)
class TextEdit:
    range: Range
    new_text: str


class Text:
    """A document's text with (line, column) <-> offset conversion (lines split on \\n)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.split("\n")
        self.starts = [0]
        for line in self.lines[:-1]:
            self.starts.append(self.starts[-1] + len(line) + 1)
        self.newline = "\r\n" if "\r\n" in text else "\n"

    def offset(self, line: int, col: int) -> int:
        line = max(0, min(line, len(self.lines) - 1))
        return self.starts[line] + max(0, min(col, len(self.lines[line])))

    def position(self, offset: int) -> Position:
        line = bisect_right(self.starts, offset) - 1
        return Position(line, offset - self.starts[line])

    def line_text(self, line: int) -> str:
        return self.lines[line].rstrip("\r") if 0 <= line < len(self.lines) else ""

    def indent(self, line: int) -> int:
        text = self.line_text(line)
        return len(text) - len(text.lstrip(" "))


def minimal_edit(old: str, new: str) -> TextEdit:
    """One edit turning ``old`` into ``new``: the differing middle only."""
    limit = min(len(old), len(new))
    p = 0
    while p < limit and old[p] == new[p]:
        p += 1
    s = 0
    while s < limit - p and old[len(old) - 1 - s] == new[len(new) - 1 - s]:
        s += 1
    # Never split a \r\n pair: a client cannot address the point between them.
    if 0 < p < len(old) and old[p - 1] == "\r" and old[p] == "\n":
        p -= 1
    end = len(old) - s
    if 0 < end < len(old) and old[end - 1] == "\r" and old[end] == "\n":
        end += 1
        s -= 1
    doc = Text(old)
    return TextEdit(Range(doc.position(p), doc.position(end)), new[p : len(new) - s])


def apply(text: str, edits: list[TextEdit]) -> str:
    """The text after non-overlapping edits (given in any order)."""
    doc = Text(text)
    spans = sorted(
        (
            (
                doc.offset(e.range.start.line, e.range.start.character),
                doc.offset(e.range.end.line, e.range.end.character),
                e.new_text,
            )
            for e in edits
        ),
        reverse=True,
    )
    for start, end, new_text in spans:
        text = text[:start] + new_text + text[end:]
    return text


@dataclass(frozen=True)
class Entry:
    """One `key: value` of a block mapping, as text offsets."""

    key: str
    key_start: int
    key_line: int
    key_col: int
    end: int  # end of the value's last line (trailing comments and blank lines excluded)
    end_line: int
    dash_first: bool  # written right after the `- ` that opens a sequence item


def _extent_end(doc: Text, key_line: int, key_col: int, scalar_end: int, sequence: bool) -> int:
    """The last line of an entry: its scalar's own lines, then deeper-indented lines."""
    last = max(key_line, scalar_end)
    j = last + 1
    while j < len(doc.lines):
        text = doc.line_text(j)
        if not text.strip():
            j += 1
            continue
        indent = doc.indent(j)
        stripped = text.lstrip(" ")
        indentless_item = (
            sequence and indent == key_col and (stripped == "-" or stripped.startswith("- "))
        )
        if indent <= key_col and not indentless_item:
            break
        last = j
        j += 1
    return last


def block_entries(doc: Text, source_map: SourceMap, path: YamlPath) -> list[Entry] | None:
    """The entries of the block mapping at ``path`` in text order; None for flow style."""
    info = source_map.get(path)
    if info is None or info.kind != "mapping":
        return None
    if doc.line_text(info.value.line)[info.value.col : info.value.col + 1] == "{":
        return None
    children = []
    for candidate in source_map.paths():
        if len(candidate) == len(path) + 1 and candidate[: len(path)] == path:
            child = source_map.get(candidate)
            if child is not None and child.key is not None:
                children.append((candidate[-1], child))
    children.sort(key=lambda kv: (kv[1].key.line, kv[1].key.col))  # type: ignore[union-attr]
    entries = []
    for key, child in children:
        assert child.key is not None
        k = child.key
        flow = doc.line_text(child.value.line)[child.value.col : child.value.col + 1] in ("[", "{")
        # A scalar's (or flow collection's) end is exact; a block one ends where the
        # next token starts, so indentation decides.
        scalar_end = child.value.end_line if child.kind == "scalar" or flow else k.line
        last = _extent_end(doc, k.line, k.col, scalar_end, child.kind == "sequence")
        end = doc.offset(last, len(doc.line_text(last)))
        before = doc.line_text(k.line)[: k.col]
        entries.append(
            Entry(str(key), doc.offset(k.line, k.col), k.line, k.col, end, last, "-" in before)
        )
    return entries


def reindent(text: str, delta: int) -> str:
    """Shift every line but the first by ``delta`` columns (removing only spaces)."""
    lines = text.split("\n")
    out = [lines[0]]
    for line in lines[1:]:
        if not line.strip():
            out.append(line)
        elif delta >= 0:
            out.append(" " * delta + line)
        else:
            spaces = len(line) - len(line.lstrip(" "))
            out.append(line[min(spaces, -delta) :])
    return "\n".join(out)


def runs(entries: list[Entry], chosen: set[str]) -> list[tuple[int, int]]:
    """Maximal runs [first, last] of consecutive entries whose keys are chosen."""
    out: list[tuple[int, int]] = []
    for i, entry in enumerate(entries):
        if entry.key not in chosen:
            continue
        if out and out[-1][1] == i - 1:
            out[-1] = (out[-1][0], i)
        else:
            out.append((i, i))
    return out


def removal(doc: Text, entries: list[Entry], first: int, last: int) -> tuple[int, int] | None:
    """The text range that deletes entries[first..last] and leaves valid YAML."""
    head = entries[first]
    if head.dash_first:
        if last + 1 >= len(entries):
            return None  # the item would be left empty
        return head.key_start, entries[last + 1].key_start  # the next key moves up
    start = doc.starts[head.key_line]
    tail_line = entries[last].end_line
    if tail_line + 1 < len(doc.lines):
        return start, doc.starts[tail_line + 1]
    return max(start - 1, 0), entries[last].end


def remove_entry(doc: Text, entries: list[Entry], key: str) -> list[TextEdit]:
    """The edit that deletes the entry ``key`` of a block mapping (none if it cannot)."""
    index = [e.key for e in entries].index(key)
    cut = removal(doc, entries, index, index)
    if cut is None:
        return []
    return [TextEdit(Range(doc.position(cut[0]), doc.position(cut[1])), "")]
