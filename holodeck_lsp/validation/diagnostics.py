"""The core's own position and diagnostic types (LSP types appear only at the server edge).

Lines and characters are 0-based; characters count Unicode code points. The server
converts them to the client's position encoding, the CLI prints them 1-based.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any


class Severity(IntEnum):
    """Diagnostic severity, numbered as in the Language Server Protocol."""

    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def from_label(cls, label: str) -> Severity:
        return cls[label.upper()]


@dataclass(frozen=True, order=True)
class Position:
    line: int
    character: int


@dataclass(frozen=True, order=True)
class Range:
    start: Position
    end: Position

    @classmethod
    def of(cls, line: int, col: int, end_line: int, end_col: int) -> Range:
        return cls(Position(line, col), Position(end_line, end_col))


@dataclass(frozen=True)
class RelatedInformation:
    file: str
    range: Range
    message: str


@dataclass(frozen=True)
class Diagnostic:
    """One finding: where, how bad, which rule, what to do."""

    range: Range
    severity: Severity
    code: str
    message: str
    path: str = ""
    related: tuple[RelatedInformation, ...] = ()
    # Machine-readable facts for quick fixes (e.g. the did-you-mean replacement).
    data: dict[str, Any] | None = field(default=None, compare=False)

    def sort_key(self) -> tuple[int, int, int, int, str]:
        s, e = self.range.start, self.range.end
        return (s.line, s.character, e.line, e.character, self.code)
