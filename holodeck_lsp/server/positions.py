"""Positions between the client's encoding and the core's (line, code point) pairs.

The protocol breaks lines at \\n, \\r\\n and \\r only and counts characters in the
negotiated encoding (UTF-16 unless the client offers another). The core's YAML
positions also break at U+0085, U+2028 and U+2029 (YAML 1.1); texts containing those
are mapped through character offsets.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import TYPE_CHECKING

from holodeck_lsp.server.newline_starts import newline_starts

if TYPE_CHECKING:  # the validation worker places diagnostics without loading lsprotocol
    from lsprotocol import types

# The protocol's position encodings (lsprotocol's PositionEncodingKind values).
UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"

_LSP_BREAK = re.compile(r"\r\n|\r|\n")
_YAML_ONLY = ("\x85", "\u2028", "\u2029")
_YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def _units(text: str, encoding: str) -> int:
    if text.isascii() or encoding == UTF32:
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def _code_points(line: str, units: int, encoding: str) -> int:
    """How many characters of ``line`` span ``units`` code units (clamped to the line)."""
    if units <= 0:
        return 0
    if line.isascii() or encoding == UTF32:
        return min(units, len(line))
    count = 0
    for i, ch in enumerate(line):
        count += _units(ch, encoding)
        if count >= units:
            return i + 1
    return len(line)


def _starts(text: str, pattern: re.Pattern[str]) -> list[int]:
    return [0] + [m.end() for m in pattern.finditer(text)]


class PositionMap:
    """One text's line table, for converting positions in both directions."""

    def __init__(self, text: str, encoding: str = UTF16) -> None:
        self.text = text
        self.encoding = encoding
        self.starts = newline_starts(text) or _starts(text, _LSP_BREAK)
        self._yaml: list[int] | bool | None = False  # built on first use

    @property
    def _yaml_starts(self) -> list[int] | None:
        """YAML's line starts, when they differ from the protocol's (else None)."""
        if self._yaml is False:
            # `in` scans at C speed; a regex character class does not.
            special = any(ch in self.text for ch in _YAML_ONLY)
            self._yaml = _starts(self.text, _YAML_BREAK) if special else None
        return self._yaml if isinstance(self._yaml, list) else None

    def _line(self, index: int) -> str:
        start = self.starts[index]
        end = self.starts[index + 1] if index + 1 < len(self.starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def offset(self, position: types.Position) -> int:
        """The character offset of a client position (clamped into the text)."""
        if position.line >= len(self.starts):
            return len(self.text)
        line = max(position.line, 0)
        return self.starts[line] + _code_points(self._line(line), position.character, self.encoding)

    def to_core(self, position: types.Position) -> tuple[int, int]:
        """A client position as the core's (line, code point) on \\n-split lines."""
        offset = self.offset(position)
        line = self.text.count("\n", 0, offset)
        return line, offset - (self.text.rfind("\n", 0, offset) + 1)

    def to_lsp(self, line: int, character: int) -> types.Position:
        """A core (YAML) position as a client position."""
        from lsprotocol import types  # loaded by then: only the server calls this

        return types.Position(*self.point(line, character))

    def point(self, line: int, character: int) -> tuple[int, int]:
        """A core (YAML) position as a client (line, character)."""
        yaml_starts = self._yaml_starts
        if yaml_starts is not None:
            if line >= len(yaml_starts):
                offset = len(self.text)
            else:
                offset = min(yaml_starts[line] + max(character, 0), len(self.text))
            line = bisect_right(self.starts, offset) - 1
            character = offset - self.starts[line]
        if line >= len(self.starts):
            last = len(self.starts) - 1
            return last, _units(self._line(last), self.encoding)
        text = self._line(max(line, 0))
        return max(line, 0), _units(text[: max(character, 0)], self.encoding)

    def range_to_lsp(self, start: tuple[int, int], end: tuple[int, int]) -> types.Range:
        from lsprotocol import types  # loaded by then: only the server calls this

        return types.Range(self.to_lsp(*start), self.to_lsp(*end))

    def span(self, start: tuple[int, int], end: tuple[int, int]) -> tuple[int, int, int, int]:
        """A core (YAML) range as the client's (start line, character, end line, character)."""
        return (*self.point(*start), *self.point(*end))
