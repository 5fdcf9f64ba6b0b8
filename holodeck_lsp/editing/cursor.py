"""Where a cursor stands in a block-style YAML document, read from indentation alone.

Completion runs on documents that do not parse (a half-typed line is the normal state
while typing), so the YAML path at the cursor is recovered from the lines' indentation,
dashes and `key:` prefixes rather than from a parse. Only the block style is followed;
inside flow collections (`{...}`, `[...]`) and multi-line scalars nothing is claimed.

Columns are code points, lines 0-based, as everywhere in the core.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from holodeck_lsp.validation.yaml.source_map import YamlPath

# A plain or quoted key followed by `:` and a space or the end of the line.
_KEY = re.compile(
    r"""(?P<key>"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{\[\]},&*!|>%@`-][^:#]*?|-[^\s:#][^:#]*?)"""
    r"""\s*:(?=\s|$)"""
)
_PARTIAL_KEY = re.compile(r"[^\s:#{}\[\],]*")
_PROPERTIES = re.compile(r"^(?:[&!]\S*\s*)*")


@dataclass(frozen=True)
class LineShape:
    """The block structure one line opens: its indent, dashes and `key:` (if any)."""

    indent: int
    dashes: tuple[int, ...]  # columns of the `- ` sequence indicators
    content: int  # column of the first character after indent and dashes
    key: str | None
    key_col: int
    value: str  # the text after `key:` (or the whole content), comment stripped
    blank: bool  # empty or only a comment

    @property
    def opens_item(self) -> bool:
        """Whether the line's key (or content) directly follows its last dash."""
        return bool(self.dashes) and self.key_col == self.content


def _strip_comment(text: str) -> str:
    """Drop a trailing ` # comment` outside quotes."""
    quote: str | None = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"" and (i == 0 or text[i - 1] in " \t:[{,"):
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i].rstrip()
    return text.rstrip()


def unquote(text: str) -> str:
    """A scalar's text without its quotes (escapes left as written)."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def shape(line: str) -> LineShape:
    line = line.rstrip("\r\n")
    stripped = line.lstrip(" ")
    indent = len(line) - len(stripped)
    if not stripped.strip() or stripped.startswith("#"):
        return LineShape(indent, (), indent, None, indent, "", True)
    pos = indent
    dashes: list[int] = []
    while line.startswith("-", pos) and (pos + 1 == len(line) or line[pos + 1] in " \t"):
        dashes.append(pos)
        pos += 1
        while pos < len(line) and line[pos] in " \t":
            pos += 1
    rest = line[pos:]
    match = _KEY.match(rest)
    if match:
        after = rest[match.end() :]
        return LineShape(
            indent,
            tuple(dashes),
            pos,
            unquote(match.group("key").strip()),
            pos,
            _strip_comment(after).strip(),
            False,
        )
    return LineShape(
        indent,
        tuple(dashes),
        pos,
        None,
        pos,
        _strip_comment(rest).strip(),
        not rest.strip() and not dashes,
    )


def value_is_empty(value: str) -> bool:
    """A `key:` whose value continues on the next lines (only anchors/tags written)."""
    return not _PROPERTIES.sub("", value).strip()


class _Lines:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def deeper(self, index: int, col: int) -> bool:
        """Whether the line is indented past ``col`` (a cheap test before any parsing)."""
        return self.lines[index].startswith(" " * (col + 1))

    def __getitem__(self, index: int) -> LineShape:
        return shape(self.lines[index])


def mapping_path(lines: _Lines, start: int, col: int) -> YamlPath | None:
    """YamlPath of the block mapping whose keys stand at ``col``, holding line ``start``.

    Scans upward from ``start`` (inclusive). None when the column is inside a value
    (a block scalar, a multi-line scalar or a flow collection) rather than a mapping.
    """
    for j in range(start, -1, -1):
        if lines.deeper(j, col):
            continue
        s = lines[j]
        if s.blank or s.indent > col:
            continue
        if s.key is not None and s.key_col == col:
            if s.opens_item:
                return _item_path(lines, j, s.dashes[-1])
            continue  # a sibling key
        if s.dashes and s.dashes[0] == col:
            continue  # an item of an indentless sequence under a sibling key
        if s.key is None and not s.dashes and s.indent == col:
            continue  # a half-typed key of this mapping
        return _owner(lines, j, col)
    return ()


def _owner(lines: _Lines, j: int, col: int) -> YamlPath | None:
    """The path of the value that line ``j`` opens for content at column ``col``."""
    s = lines[j]
    if s.key is not None and s.key_col < col:
        if not value_is_empty(s.value):
            return None  # inside a scalar or flow value
        parent = mapping_path(lines, j, s.key_col)
        return None if parent is None else (*parent, s.key)
    if s.dashes and s.dashes[-1] < col and s.key is None and not s.value:
        return _item_path(lines, j, s.dashes[-1])  # `-` alone, content below
    return None


def _item_path(lines: _Lines, j: int, dash: int) -> YamlPath | None:
    found = sequence_item(lines, j, dash)
    return None if found is None else (*found[0], found[1])


def sequence_item(lines: _Lines, start: int, dash: int) -> tuple[YamlPath, int] | None:
    """(path of the sequence whose dashes stand at ``dash``, index of line ``start``'s item)."""
    s0 = lines[start]
    if dash in s0.dashes and s0.dashes.index(dash) > 0:  # `- - x`: a nested first item
        outer = _item_path(lines, start, s0.dashes[s0.dashes.index(dash) - 1])
        return None if outer is None else (outer, 0)
    index = 0
    for j in range(start - 1, -1, -1):
        if lines.deeper(j, dash):
            continue
        s = lines[j]
        if s.blank or s.indent > dash:
            continue
        if s.dashes and s.dashes[0] == dash:
            index += 1
            continue
        if s.key is None and not s.dashes and s.indent == dash:
            continue  # half-typed text among the items
        if dash in s.dashes:
            outer = _item_path(lines, j, s.dashes[s.dashes.index(dash) - 1])
            return None if outer is None else (outer, index + 1)
        if s.key is not None and s.key_col == dash and not s.dashes:
            if not value_is_empty(s.value):
                return None
            parent = mapping_path(lines, j, dash)  # an indentless sequence
            return None if parent is None else ((*parent, s.key), index)
        owner = _owner(lines, j, dash)
        return None if owner is None else (owner, index)
    return ((), index)


CursorMode = Literal["key", "item", "value"]


@dataclass
class CursorContext:
    """What the cursor is about to write, and where that sits in the document.

    mode "key": a key of the mapping at ``path``; "value": the value of the key that
    ends ``path``; "item": a new item (no dash typed yet) of the sequence at ``path``.
    """

    mode: CursorMode
    path: YamlPath
    prefix: str  # what is typed of the word at the cursor
    start: int  # column where that word starts (the replace range begins here)
    end: int  # column where it ends (at or after the cursor)
    column: int  # the column the key, value or item dash stands at
    on_dash: bool = False  # "key" mode on a line that opens a sequence item
    lead: str = ""  # text to insert before any candidate (a space after a bare `-`)
    siblings: dict[str, str] = field(default_factory=dict)  # other keys -> their value text


def _siblings(lines: _Lines, line: int, col: int) -> dict[str, str]:
    """Keys written at ``col`` in the mapping around ``line``, with their value text."""
    found: dict[str, str] = {}
    # A line that opens a sequence item has no siblings above it.
    for step in (1,) if lines[line].opens_item else (-1, 1):
        j = line + step
        while 0 <= j < len(lines.lines):
            if lines.deeper(j, col):
                j += step
                continue
            s = lines[j]
            if s.blank or s.indent > col:
                j += step
                continue
            if s.key is not None and s.key_col == col:
                if step == 1 and s.opens_item:
                    break  # the next item of the sequence
                found.setdefault(s.key, unquote(s.value))
                if step == -1 and s.opens_item:
                    break  # the first key of this item
                j += step
                continue
            if (s.dashes and s.dashes[0] == col) or (
                s.key is None and not s.dashes and s.indent == col
            ):
                j += step  # an indentless sequence, or a half-typed key
                continue
            break
    return found


def _indentless_owner(lines: _Lines, j: int, col: int) -> int | None:
    """The line of the `key:` at ``col`` that owns the sequence item on line ``j``, if any."""
    for k in range(j - 1, -1, -1):
        if lines.deeper(k, col):
            continue
        s = lines[k]
        if s.blank or s.indent > col or (s.dashes and s.dashes[0] == col):
            continue
        return k if s.key is not None and s.key_col == col and not s.dashes else None
    return None


def cursor_context(text: str, line: int, character: int) -> CursorContext | None:
    """The completion context at (line, character), or None where nothing fits."""
    all_lines = text.split("\n")
    if not 0 <= line < len(all_lines):
        return None
    current = all_lines[line].rstrip("\r")
    character = min(character, len(current))
    before = current[:character]
    lines = _Lines(all_lines)
    s = shape(before)
    if "#" in before and _strip_comment(before) != before.rstrip():
        return None  # in a comment
    word = _PARTIAL_KEY.match(current, character)
    word_end = word.end() if word else character
    if s.key is not None:  # `key: partial-value`
        value_text = before[s.key_col :].split(":", 1)[1] if ":" in before[s.key_col :] else ""
        stripped = value_text.lstrip()
        if stripped[:1] in ("{", "[", "|", ">", "&", "*", "!"):
            return None
        start = character - len(stripped)
        prefix = stripped.lstrip("'\"")
        parent = mapping_path(lines, line, s.key_col)
        if parent is None:
            return None
        end = max(word_end, character)
        return CursorContext(
            "value",
            (*parent, s.key),
            prefix,
            start,
            end,
            s.key_col,
            siblings=_siblings(lines, line, s.key_col),
        )
    if not re.fullmatch(r"[^\s:#{}\[\],'\"]*", before[s.content :]):
        return None
    start = s.content
    prefix = before[start:]
    if s.dashes:
        dash = s.dashes[-1]
        found = sequence_item(lines, line, dash)
        if found is None:
            return None
        path = (*found[0], found[1])
        lead = " " if start == dash + 1 else ""
        return CursorContext(
            "key",
            path,
            prefix,
            start,
            word_end,
            start + len(lead),
            on_dash=True,
            lead=lead,
            siblings=_siblings(lines, line, start),
        )
    col = start
    # The column belongs to a sibling key, a sibling item, or the value a parent opens.
    for j in range(line - 1, -1, -1):
        if lines.deeper(j, col):
            continue
        above = lines[j]
        if above.blank or above.indent > col:
            continue
        if above.dashes and above.dashes[0] == col:
            owner = _indentless_owner(lines, j, col)
            if owner is not None:  # text at an indentless sequence's column is a key
                keys_path = mapping_path(lines, owner, col)
                if keys_path is None:
                    return None
                return CursorContext(
                    "key",
                    keys_path,
                    prefix,
                    start,
                    word_end,
                    col,
                    siblings=_siblings(lines, line, col),
                )
            found = sequence_item(lines, j, col)
            if found is None:
                return None
            return CursorContext("item", found[0], prefix, start, word_end, col)
        if above.key is None and not above.dashes and above.indent == col:
            continue  # another half-typed key of the same mapping
        found_path = (
            mapping_path(lines, j, col)
            if above.key is not None and above.key_col == col
            else _owner(lines, j, col)  # under `key:` or `-` with nothing written yet
        )
        if found_path is None:
            return None
        return CursorContext(
            "key", found_path, prefix, start, word_end, col, siblings=_siblings(lines, line, col)
        )
    return CursorContext(
        "key", (), prefix, start, word_end, col, siblings=_siblings(lines, line, col)
    )


@dataclass(frozen=True)
class KeyAt:
    """The `key: value` entry under the cursor on one line."""

    path: YamlPath
    part: Literal["key", "value"]
    start: int  # columns of the part under the cursor
    end: int
    siblings: dict[str, str]


def key_at(text: str, line: int, character: int) -> KeyAt | None:
    """The entry whose key or value text (on this line) holds the cursor."""
    all_lines = text.split("\n")
    if not 0 <= line < len(all_lines):
        return None
    current = all_lines[line].rstrip("\r")
    s = shape(current)
    if s.key is None or character < s.key_col:
        return None
    lines = _Lines(all_lines)
    parent = mapping_path(lines, line, s.key_col)
    if parent is None:
        return None
    colon = current.find(":", s.key_col + len(s.key))
    siblings = _siblings(lines, line, s.key_col)
    if character <= colon:
        return KeyAt((*parent, s.key), "key", s.key_col, colon, siblings)
    if not s.value:
        return None
    start = current.index(s.value[0], colon + 1)
    end = start + len(s.value)
    if character > end:
        return None
    return KeyAt((*parent, s.key), "value", start, end, siblings)


def owner_siblings(text: str, line: int, column: int) -> dict[str, str]:
    """The keys (with their value text) of the mapping whose `key:` opens the block the
    cursor's column stands in: under `args:`, the expected tool's `name`, `count`, ..."""
    lines = _Lines(text.split("\n"))
    for j in range(min(line, len(lines.lines)) - 1, -1, -1):
        s = lines[j]
        if s.blank or s.indent >= column:
            continue  # inside the block, or a sibling of the cursor's key
        if s.key is not None and s.key_col < column:
            return _siblings(lines, j, s.key_col)
        return {}
    return {}
